"""Records in, records out: the mapping between normalised records and store tables.

The sync and `tidings import` write through `write_records` (a sync through `write_admitted`,
which leaves out, with a note, what the store cannot hold); `tidings export` and the tests read
through `read_records`, so a snapshot round-trips the store column for column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.common import records as r
from tidings.store import schema
from tidings.store.db import Store
from tidings.store.limits import row_name, row_problem

# Where a sync hears of a record the store cannot hold: a note for the sync summary.
Skip = Callable[[str], None]

TABLES: dict[str, sa.Table] = {
    "item": schema.items,
    "comment": schema.comments,
    "review": schema.reviews,
    "review_comment": schema.review_comments,
    "pr_file": schema.pr_files,
    "review_thread": schema.review_threads,
    "pr_commit": schema.pr_commits,
    "closing_ref": schema.closing_refs,
    "sync_state": schema.sync_state,
}

# Export order: parents before children, each table in primary-key order, so two exports of
# equal stores are byte-identical.
ORDER: dict[str, tuple[str, ...]] = {
    "item": ("number",),
    "comment": ("id",),
    "review": ("id",),
    "review_comment": ("id",),
    "pr_file": ("number", "path"),
    "review_thread": ("number", "comment_id"),
    "pr_commit": ("number", "sha"),
    "closing_ref": ("number", "issue_repo", "issue_number"),
    "sync_state": ("stream",),
}


def record_rows(repo_id: int, records: Iterable[r.Record]) -> dict[str, list[dict[str, Any]]]:
    """Group records by type as store rows for one repository."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        kind = record.type  # type: ignore[attr-defined]
        if kind == "repository":
            continue
        row = r.to_row(record)
        row["repo_id"] = repo_id
        grouped.setdefault(kind, []).append(row)
    return grouped


def write_records(
    store: Store, conn: Connection, repo_id: int, records: Sequence[r.Record]
) -> None:
    """Upsert records of any type for one repository (idempotent)."""
    for kind, rows in record_rows(repo_id, records).items():
        store.upsert(conn, TABLES[kind], rows)


def admit(table: sa.Table, rows: Iterable[dict[str, Any]], skip: Skip) -> list[dict[str, Any]]:
    """The rows the store can hold; each one it cannot (a number or id beyond its column, a
    year-9999 time: store/limits.py) is left out and named to `skip`, so one bad record from
    a source costs that record, not the sync."""
    good = []
    for row in rows:
        problem = row_problem(table, row)
        if problem is None:
            good.append(row)
        else:
            skip(f"skipped {row_name(table, row)}: {problem}")
    return good


def record_problem(record: r.Record) -> str | None:
    """Why the store cannot hold `record`, or None when it can."""
    return row_problem(TABLES[record.type], vars(record))  # type: ignore[attr-defined]


def write_admitted(
    store: Store, conn: Connection, repo_id: int, records: Iterable[r.Record], skip: Skip
) -> dict[str, int]:
    """Upsert records of any type for one repository, less any the store cannot hold (each
    named to `skip`); how many of each type were written."""
    written: dict[str, int] = {}
    for kind, rows in record_rows(repo_id, records).items():
        rows = admit(TABLES[kind], rows, skip)
        store.upsert(conn, TABLES[kind], rows)
        written[kind] = len(rows)
    return written


def update_repository(conn: Connection, repo_id: int, record: r.RepositoryRecord) -> None:
    values = r.to_row(record)
    conn.execute(
        schema.repositories.update().where(schema.repositories.c.id == repo_id).values(**values)
    )


def repository_names(store: Store, conn: Connection, full_name: str | None) -> list[str]:
    """Every stored repository's name, or the one `full_name` names as it is stored (an
    export of `vllm-project/VLLM` writes the repository as it is named)."""
    t = schema.repositories
    if full_name is None:
        return list(conn.execute(sa.select(t.c.full_name).order_by(t.c.full_name)).scalars())
    store.require_repo(conn, full_name)
    return [
        conn.execute(
            sa.select(t.c.full_name).where(sa.func.lower(t.c.full_name) == full_name.lower())
        ).scalar_one()
    ]


def read_repository(conn: Connection, repo_id: int) -> r.RepositoryRecord:
    t = schema.repositories
    row = conn.execute(sa.select(t).where(t.c.id == repo_id)).mappings().one()
    data = {k: v for k, v in row.items() if k != "id"}
    return r.RepositoryRecord(**data)


def _bytewise(conn: Connection, column: sa.Column) -> sa.ColumnElement:  # type: ignore[type-arg]
    """Order text by code point on every backend (SQLite's default; PostgreSQL's "C")."""
    kind = column.type.impl if isinstance(column.type, sa.TypeDecorator) else column.type
    if conn.dialect.name == "postgresql" and isinstance(kind, sa.String):
        return column.collate("C")
    return column


def read_records(conn: Connection, repo_id: int) -> Iterator[r.Record]:
    """Every record of one repository, in a stable order (the repository record first)."""
    yield read_repository(conn, repo_id)
    for kind, table in TABLES.items():
        cls = r.RECORD_TYPES[kind]
        order = [_bytewise(conn, table.c[name]) for name in ORDER[kind]]
        result = conn.execute(sa.select(table).where(table.c.repo_id == repo_id).order_by(*order))
        for row in result.mappings():
            data: dict[str, Any] = {
                k: dict(sorted(v.items())) if isinstance(v, dict) else v
                for k, v in row.items()
                if k != "repo_id"
            }
            yield cls.model_construct(**data, type=kind)
