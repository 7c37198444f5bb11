"""A child process for tests/store/test_store_concurrency.py, kept apart so that a spawned child
imports only the store (not the test module with the fake GitHub), and so starts quickly."""

from __future__ import annotations

from typing import Any


def open_store(url: str, barrier: Any, results: Any) -> None:
    """Wait for the other children, then open (and so migrate) the store; report the outcome."""
    from tidings.store import Store

    barrier.wait(timeout=60)
    try:
        Store.open(url).close()
        results.put("ok")
    except Exception as exc:  # report anything, so the parent can show what went wrong
        results.put(f"{type(exc).__name__}: {exc}")
