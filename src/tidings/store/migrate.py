"""Schema migrations with Alembic, driven from code (no alembic.ini needed).

`Store.open` upgrades every database to the newest revision, so users never run a migration
command by hand. Developers add a revision with:

    alembic -c src/tidings/store/alembic.ini revision --autogenerate -m "what changed"

Several tidings processes may open one fresh store at the same moment (a cron job and a hand
run, `tidings run` on two machines against one PostgreSQL). So an upgrade runs under a lock held
for its whole transaction, and the store's state is read again once the lock is held; the
process that waited then finds the schema at head and does nothing.

- PostgreSQL: `pg_advisory_xact_lock` on a key made from the schema name, taken in the
  migration's own transaction (DDL is transactional there), so commit, rollback or a dropped
  connection all release it.
- SQLite: `BEGIN IMMEDIATE` on the migration connection, i.e. SQLite's own write lock, rather
  than a lock file beside the database: it also keeps out writers that know nothing of a lock
  file (an older tidings, the sqlite3 shell), it cannot go stale (SQLite drops it when the
  process dies), and it makes the upgrade one transaction — pysqlite otherwise commits each DDL
  statement on its own, so a crash half-way used to leave half a schema behind.

A quick unlocked read skips all of that when the store is already at head (every run but the
first); it compares with `HEAD` and so needs no Alembic at all, which keeps a report's start-up
from loading it (about 0.2 s). Otherwise the same read refuses a database that is not a tidings
store (another application's tables, which an upgrade would silently add ours to) and a store
written by a newer tidings (a revision this version does not know), each with one line
instead of a traceback.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import OperationalError

from tidings.errors import StoreError
from tidings.store.planner import refresh_on
from tidings.store.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).parent / "migrations"
# The newest revision in migrations/versions: a store already there is opened without loading
# Alembic. A new migration changes it (tests/store/test_store.py checks it is Alembic's head).
HEAD = "0007"
VERSION_TABLE = "alembic_version"
# Tables every tidings store has had since revision 0001: with a revision we know, they mark
# the database as ours; with one we do not know, as a store from a newer tidings.
CORE_TABLES = frozenset({"repositories", "items", "sync_state"})
# How long a process waits for another one's migration before giving up with one line.
MIGRATION_WAIT = 300.0
# PostgreSQL's SQLSTATE when lock_timeout ran out.
_PG_LOCK_NOT_AVAILABLE = "55P03"


def alembic_config(engine: Engine | None = None) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if engine is not None:
        cfg.attributes["engine"] = engine
    return cfg


@cache
def _script() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


@cache
def known_revisions() -> frozenset[str]:
    return frozenset(rev.revision for rev in _script().walk_revisions())


def head_revision() -> str:
    head = _script().get_current_head()
    assert head is not None, "tidings ships at least one migration"
    return head


@dataclass(frozen=True)
class StoreState:
    """What a database holds, as far as tidings is concerned."""

    revision: str | None  # None: an empty database
    tables: frozenset[str]


def inspect_store(conn: Connection) -> StoreState:
    """Read the schema revision and table names; refuse what an upgrade must not touch."""
    tables = frozenset(
        name for name in sa.inspect(conn).get_table_names() if not name.startswith("sqlite_")
    )
    where = conn.engine.url.render_as_string(hide_password=True)
    revisions: set[str] = set()
    if VERSION_TABLE in tables:
        revisions = set(conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars())
    unknown = revisions - known_revisions()
    if unknown and tables >= CORE_TABLES:
        raise StoreError(
            f"this store ({where}) was written by a newer tidings "
            f"(schema revision {_names(unknown)}; this tidings knows up to {head_revision()!r})",
            "upgrade tidings (pip install -U tidings), or use another --db",
        )
    others = tables - {VERSION_TABLE}
    if unknown or (revisions and not tables >= CORE_TABLES):
        raise _foreign(where, others - set(metadata.tables) or others or {VERSION_TABLE})
    if not revisions:
        foreign = others - set(metadata.tables)
        if foreign:
            raise _foreign(where, foreign)
        if others:
            # Only an older tidings, killed during its first migration, leaves this behind.
            raise StoreError(
                f"database {where} holds part of a tidings store but no schema version "
                "(an interrupted first run?)",
                "move it aside and sync again, or import a snapshot into a new store",
            )
        return StoreState(None, tables)
    if len(revisions) > 1:
        raise StoreError(
            f"database {where} records several schema revisions ({_names(revisions)})",
            "restore the store from a backup or a snapshot",
        )
    return StoreState(revisions.pop(), tables)


def _names(names: set[str] | frozenset[str], limit: int = 3) -> str:
    # repr: names come from the database and may hold anything, control characters included.
    shown = ", ".join(repr(n) for n in sorted(names)[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def _foreign(where: str, tables: set[str] | frozenset[str]) -> StoreError:
    return StoreError(
        f"database {where} is not a tidings store: it holds other tables "
        f"({_names(tables)}) and no tidings schema, so tidings will not add its tables",
        "point --db (or TIDINGS_DB) at a new SQLite file or an empty PostgreSQL database or schema",
    )


def _target(revision: str) -> str:
    return head_revision() if revision == "head" else revision


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the store to `revision`, safely when other processes do the same at once."""
    with engine.connect() as conn:
        if revision in ("head", HEAD) and _at_head(conn):
            return
        target = _target(revision)
        state = inspect_store(conn)
    if state.revision == target:
        return
    with _migration_lock(engine) as conn:
        state = inspect_store(conn)  # again: another process may have migrated meanwhile
        if state.revision != target:
            from alembic import command

            cfg = alembic_config()
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, revision)
            # New indexes have no statistics yet; without them SQLite's planner may pass them by.
            refresh_on(conn, force=True)


def _at_head(conn: Connection) -> bool:
    """Whether the store is a tidings store at HEAD (then nothing else needs checking)."""
    tables = set(sa.inspect(conn).get_table_names())
    if VERSION_TABLE not in tables or not tables >= CORE_TABLES:
        return False
    revisions = set(conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars())
    return revisions == {HEAD}


@contextmanager
def _migration_lock(engine: Engine, wait: float = MIGRATION_WAIT) -> Iterator[Connection]:
    """A connection in a transaction that holds the store's migration lock; commits on exit."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            _pg_lock(conn, wait)
        elif engine.dialect.name == "sqlite":
            _sqlite_lock(conn, wait)
        yield conn
        conn.commit()


def advisory_key(*parts: str) -> int:
    """A signed 64-bit key for PostgreSQL's advisory locks, stable across processes."""
    digest = hashlib.blake2b("\x1f".join(("tidings", *parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _pg_lock(conn: Connection, wait: float) -> None:
    schema = conn.execute(sa.text("SELECT current_schema()")).scalar() or ""
    # lock_timeout bounds the wait for the advisory lock (and for the tables the upgrade alters).
    conn.execute(sa.text(f"SET LOCAL lock_timeout = '{int(wait * 1000)}ms'"))
    try:
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(advisory_key("migrate", schema))))
    except OperationalError as exc:
        # Only lock_timeout is a wait that ran out; anything else (a full disk: 53100) is
        # what it says, and Store.open names it.
        if getattr(exc.orig, "sqlstate", None) != _PG_LOCK_NOT_AVAILABLE:
            raise
        raise _busy(conn, wait) from exc


def _sqlite_lock(conn: Connection, wait: float) -> None:
    deadline = time.monotonic() + wait
    while True:
        try:
            # Each attempt itself waits up to the connection's busy_timeout (store/db.py).
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            return
        except OperationalError as exc:
            conn.rollback()
            if "locked" not in str(exc.orig):
                # Not another process's lock: SQLITE_FULL on a full disk (the journal is
                # the first thing written), say. Store.open names it; no waiting.
                raise
            if time.monotonic() >= deadline:
                raise _busy(conn, wait) from exc


def _busy(conn: Connection, wait: float) -> StoreError:
    where = conn.engine.url.render_as_string(hide_password=True)
    return StoreError(
        f"the store {where} stayed locked for {wait:.0f} s while this tidings waited to update "
        "its schema (another tidings is migrating or writing it)",
        "wait for the other tidings to finish, then re-run",
    )


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
