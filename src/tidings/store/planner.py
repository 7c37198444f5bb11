"""Keeping the database's query planner informed as the store grows.

A report reads one day or week out of a history that grows every day; whether that costs the
window or the whole history depends on the planner picking the window's index (migration 0005
has one for every report and re-sync query). SQLite picks by the statistics ANALYZE leaves in
`sqlite_stat1`, and a store that was never analysed has none: then the planner guesses, and for
the window's issues and PRs it guessed a walk through every item of the repository (29 ms
instead of 0.4 ms at a year of vLLM-scale data, issue #14). PostgreSQL's autovacuum analyses on
its own, but only when it next wakes up after the rows arrived.

So the store refreshes the statistics itself, at the two moments they go stale:
- after a migration (new indexes have no statistics yet): always;
- after a sync or an import has committed (Store.sync_lock, snapshot import): when the store
  grew or shrank by more than `DRIFT` since the last analysis, which a quiet re-sync never does,
  so it costs a single count there.

SQLite's own `PRAGMA optimize` would decide this for us, but before SQLite 3.46 it analyses only
tables the same connection has just queried in a way stats would have helped, which a pooled,
short-lived connection rarely has; Debian 12's SQLite is 3.40. A full ANALYZE (not a sampled
one: with a row limit SQLite takes the one repository's thousands of rows per `repo_id` for a
few hundred and overrates that index) takes about a quarter of a second on a year of vLLM-scale
data.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("tidings.store")

# Re-analyse once the number of issues and PRs moved by this share since the last analysis. The
# other big tables grow with the items (comments, reviews and files hang off them), so the items'
# count is the one measured: a cheap count on a narrow index.
DRIFT = 0.10
# The tables whose statistics steer the report and re-sync queries.
TABLES = ("items", "comments", "reviews", "review_comments", "pr_files", "closing_refs")


def refresh(engine: Engine, *, force: bool = False) -> bool:
    """Analyse the store's big tables if their statistics are stale (or `force`); True when it
    did. Never fails a sync that has already committed: a problem here is logged and skipped."""
    try:
        with engine.begin() as conn:
            return refresh_on(conn, force=force)
    except sa.exc.SQLAlchemyError as exc:
        log.warning("could not refresh the query planner's statistics: %s", exc.__class__.__name__)
        return False


def refresh_on(conn: Connection, *, force: bool = False) -> bool:
    """As `refresh`, on a connection the caller commits (the migration's own transaction)."""
    if not force and not is_stale(conn):
        return False
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("ANALYZE")
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"ANALYZE {', '.join(TABLES)}")
    else:
        return False
    return True


def is_stale(conn: Connection) -> bool:
    """Whether the items table's row count drifted more than DRIFT from what the planner's
    statistics say (or there are none while it holds rows)."""
    rows = conn.execute(sa.text("SELECT count(*) FROM items")).scalar_one()
    known = analysed_rows(conn)
    if known is None:
        return rows > 0
    return abs(rows - known) > DRIFT * max(known, 1)


def analysed_rows(conn: Connection) -> int | None:
    """The items' row count as of the last analysis; None if never analysed."""
    if conn.dialect.name == "sqlite":
        has_stats = conn.execute(
            sa.text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'")
        ).first()
        if has_stats is None:
            return None
        # Each of the table's indexes has a row whose `stat` starts with the row count.
        stats = conn.execute(
            sa.text("SELECT stat FROM sqlite_stat1 WHERE tbl = 'items' AND idx IS NOT NULL")
        ).scalars()
        counts = [int(stat.split()[0]) for stat in stats if stat]
        return max(counts) if counts else None
    if conn.dialect.name == "postgresql":
        # reltuples is -1 until the table was first analysed or vacuumed (PostgreSQL 14+;
        # older servers say 0, which reads as "analysed when empty": stale once rows arrive).
        found = conn.execute(
            sa.text("SELECT reltuples FROM pg_class WHERE oid = to_regclass('items')")
        ).scalar_one_or_none()
        return None if found is None or found < 0 else int(found)
    return None
