"""A full disk is one line that names it, at once (#25), on SQLite and PostgreSQL.

On a new SQLite store the first thing written is the journal of the migration lock's
`BEGIN IMMEDIATE`; on a full disk SQLite answers it SQLITE_FULL ("database or disk is full",
seen on a full tmpfs), which used to be reported as "the store stayed locked for 300 s".
PostgreSQL's lock statement had the same fate, and a full disk met later said "database
error … check --db". Each case here makes the database answer one statement with its own
full-disk error: SQLite runs a write on a connection that may not grow (`max_page_count`), so
SQLITE_FULL comes from SQLite itself; PostgreSQL raises SQLSTATE 53100 (disk_full) on the
server.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from tests.cli.test_bad_input import one_line_error
from tests.cli.test_cli import Runner, run  # noqa: F401  (run: the fixture)
from tidings.demo import SAMPLE_PATH
from tidings.errors import StoreError
from tidings.store import Store

PG_DISK_FULL = (
    "DO $$ BEGIN RAISE EXCEPTION 'could not extend file \"base/1/2\": No space left on device' "
    "USING ERRCODE = 'disk_full'; END $$"
)

# Where the disk fills: the migration lock of a new store, its first table, a later write.
MOMENTS: dict[str, Callable[[str], bool]] = {
    "lock": lambda sql: sql.startswith("BEGIN IMMEDIATE") or "pg_advisory_xact_lock" in sql,
    "schema": lambda sql: sql.lstrip().startswith("CREATE TABLE"),
    "write": lambda sql: sql.lstrip().startswith("INSERT"),
}


@contextmanager
def full_disk(at: Callable[[str], bool]) -> Iterator[list[str]]:
    """Answer the first statement `at` picks with the database's own full-disk error; yields
    the statements so replaced (one, if the fault fired)."""
    hit: list[str] = []

    def rewrite(
        conn: sa.Connection, cursor: Any, statement: str, parameters: Any, *_: Any
    ) -> tuple[str, Any]:
        if hit or not at(statement):
            return statement, parameters
        hit.append(statement)
        if conn.dialect.name == "postgresql":
            return PG_DISK_FULL, None
        cursor.execute("PRAGMA max_page_count = 1")  # no page more: the next write is FULL
        return "CREATE TABLE tidings_disk_full (x)", ()

    sa.event.listen(Engine, "before_cursor_execute", rewrite, retval=True)
    try:
        yield hit
    finally:
        sa.event.remove(Engine, "before_cursor_execute", rewrite)


@pytest.mark.parametrize("moment", list(MOMENTS))
def test_a_full_disk_is_one_line_naming_it_at_once(
    db_url: str,
    run: Runner,  # noqa: F811 (the fixture)
    moment: str,
) -> None:
    if moment == "write":
        Store.open(db_url).close()  # a store that exists: the disk fills on a later write
    started = time.monotonic()
    with full_disk(MOMENTS[moment]) as hit:
        result = run("--db", db_url, "import", str(SAMPLE_PATH))
    assert hit, "the fault never fired"
    line = one_line_error(result, 1, "disk", "full", "free space")
    assert "locked" not in line and "check --db" not in line
    if moment != "write":
        assert "sqlite:///" in line or "PostgreSQL" in line  # names the store or the server
    # No wait for a lock nobody holds (it was 300 s; SQLite's busy timeout alone is 30 s).
    assert time.monotonic() - started < 20


def test_a_store_on_a_disk_with_room_again_opens(db_url: str) -> None:
    """Nothing half-made is left behind: once the disk has room, the same store opens."""
    with full_disk(MOMENTS["schema"]), pytest.raises(StoreError, match="is full"):
        Store.open(db_url)
    store = Store.open(db_url)
    try:
        assert store.repositories() == []
    finally:
        store.close()
