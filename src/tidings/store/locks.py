"""One sync per repository at a time, whichever process or machine starts it.

Two syncs of one repository at once would page the same listings twice, race on its cursors
and spend the rate limit twice for nothing. `repository_lock` makes the second one wait until
the first is done and then sync itself — cheaply, since everything is by then up to date (a
no-change sync costs four 304s). The wait is bounded (`REPO_LOCK_WAIT`, with a warning when it
starts), after which the second one fails with one line instead of hanging a cron job forever.

- PostgreSQL: a session advisory lock keyed by schema and repository on a connection held for
  the sync; the server drops it when that connection ends, a killed process included.
- SQLite file: an OS file lock (flock on Unix, via the `filelock` package) on one small file per
  repository in `<database>-locks/` beside the database; the OS drops it when the process dies,
  so no lock can go stale. (The database's own lock cannot serve: it would block every write.)
- SQLite in memory: nothing to share with another process, so no lock.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from filelock import FileLock, Timeout
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from tidings.errors import StoreError
from tidings.store.migrate import advisory_key

log = logging.getLogger("tidings.store")

REPO_LOCK_WAIT = 600.0  # seconds: a busy repository's incremental sync fits well inside
_POLL = 0.25


def _busy(full_name: str, wait: float) -> StoreError:
    return StoreError(
        f"another tidings sync of {full_name} is running (waited {wait:g} s for it)",
        "wait for it to finish, then re-run",
        transient=True,
    )


def _waiting(full_name: str, wait: float) -> None:
    log.warning(
        "another tidings sync of %s is running; waiting up to %g s for it to finish",
        full_name,
        wait,
    )


@contextmanager
def repository_lock(engine: Engine, full_name: str, wait: float = REPO_LOCK_WAIT) -> Iterator[None]:
    """Hold the sync lock of `full_name` (case-insensitive, as GitHub names are)."""
    name = full_name.lower()
    if engine.dialect.name == "postgresql":
        with _pg_lock(engine, full_name, name, wait):
            yield
        return
    path = lock_path(engine, name)
    if path is None:
        yield
        return
    with _file_lock(path, full_name, wait):
        yield


def lock_path(engine: Engine, name: str) -> Path | None:
    """The lock file of repository `name` for a SQLite store, None for an in-memory one."""
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:") or "mode=memory" in str(engine.url.query):
        return None  # a URI filename: rare for tidings, and possibly not a file at all
    db = Path(database).expanduser()
    # quote() keeps the name readable and makes it one safe file name ("/" becomes %2F).
    return db.with_name(f"{db.name}-locks") / f"{quote(name, safe='')}.lock"


@contextmanager
def _file_lock(path: Path, full_name: str, wait: float) -> Iterator[None]:
    try:
        path.parent.mkdir(exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the lock folder {path.parent}: {exc.strerror}",
            "make the folder holding the database writable",
        ) from exc
    lock = FileLock(path)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        _waiting(full_name, wait)
        try:
            lock.acquire(timeout=wait, poll_interval=_POLL)
        except Timeout as exc:
            raise _busy(full_name, wait) from exc
    try:
        yield
    finally:
        lock.release()


@contextmanager
def _pg_lock(engine: Engine, full_name: str, name: str, wait: float) -> Iterator[None]:
    conn = engine.connect()
    try:
        schema = conn.execute(sa.text("SELECT current_schema()")).scalar() or ""
        key = advisory_key("sync", schema, name)
        take = sa.select(sa.func.pg_try_advisory_lock(key))
        got = bool(conn.execute(take).scalar())
        conn.commit()  # the session lock outlives the transaction; don't sit idle in one
        if not got:
            _waiting(full_name, wait)
            deadline = time.monotonic() + wait
            while not got:
                if time.monotonic() >= deadline:
                    raise _busy(full_name, wait)
                time.sleep(_POLL)
                got = bool(conn.execute(take).scalar())
                conn.commit()
        try:
            yield
        finally:
            try:
                conn.execute(sa.select(sa.func.pg_advisory_unlock(key)))
                conn.commit()
            except SQLAlchemyError:
                # The connection is gone, and the server released the lock with it; make
                # sure the pool never hands this connection out again.
                conn.invalidate()
    finally:
        conn.close()
