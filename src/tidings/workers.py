"""Worker pools that stop at once on Ctrl-C.

Leaving a plain `concurrent.futures` pool waits for the work it is running, and at exit Python
waits for every worker thread: Ctrl-C during model calls would hang until each call timed out
(a minute or more), and during PDF printing until every queued page was printed. These pools
drop their queued work on an interrupt; threads still inside a call are abandoned (`main()`
exits without waiting for them) and worker processes are ended.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

THREAD_PREFIX = "tidings-worker"


@contextmanager
def thread_pool(workers: int) -> Iterator[ThreadPoolExecutor]:
    """Threads for I/O-bound calls (model requests); Ctrl-C abandons the running ones."""
    pool = ThreadPoolExecutor(workers, thread_name_prefix=THREAD_PREFIX)
    try:
        yield pool
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def busy_threads() -> bool:
    """Whether a `thread_pool` worker is still running (a call an interrupt abandoned)."""
    return any(t.name.startswith(THREAD_PREFIX) and t.is_alive() for t in threading.enumerate())


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process in the terminal's foreground group. Only the parent acts on
    # it, ending the workers; a worker caught between jobs would print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """Processes for CPU-bound jobs (PDF printing); Ctrl-C or an error ends them at once."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
    try:
        yield pool
    except BaseException:  # also GeneratorExit, when a generator using the pool is closed early
        _end(pool)
        raise
    pool.shutdown()


def _end(pool: ProcessPoolExecutor) -> None:
    # There is no public way to stop a running job before Python 3.14 (`terminate_workers`):
    # terminate the processes, then let the pool see them gone and clean up.
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
