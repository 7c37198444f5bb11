"""What a sync reads and writes of the items table (issues and PRs) beyond plain upserts.

An item is written from two places: the REST listing (every field of the issue record) and
the PR details (GraphQL: merge data, sizes, review counts). Each keeps the other's columns,
and neither rolls a stored `updated_at` back. The bookkeeping columns drive the sync's later
stages from stored state, so an interrupted sync resumes where it stopped:
`detail_updated_at` (details current for that time), `checked_updated_at` (comment counts
checked for that time).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.common.records import ItemRecord, PRDetails, to_row
from tidings.store import schema
from tidings.store.db import Store
from tidings.store.limits import row_problem
from tidings.store.rows import Skip, admit

_CHUNK = 500

# Item columns only PR details (GraphQL) fill, plus sync bookkeeping: an item re-read from the
# REST listing keeps them, so a re-read alone never forces a details refetch.
DETAIL_COLUMNS = (
    "merged",
    "merged_by",
    "merge_commit_sha",
    "additions",
    "deletions",
    "changed_files",
    "commits",
    "base_ref",
    "head_ref",
    "head_sha",
    "review_decision",
    "review_comments_count",
    "unresolved_threads",
    "detail_updated_at",
    "checked_updated_at",
    "patch_sha",
)

_items = schema.items


def _one(repo_id: int, number: int) -> sa.ColumnElement[bool]:
    return sa.and_(_items.c.repo_id == repo_id, _items.c.number == number)


def write_listed(
    store: Store, conn: Connection, repo_id: int, records: Sequence[ItemRecord], skip: Skip
) -> int:
    """Upsert items as the REST listing gives them, keeping the columns only details fill and
    any newer copy the store holds; how many were written."""
    t = _items
    candidates = []
    for record in records:
        row = to_row(record)
        row["repo_id"] = repo_id
        candidates.append(row)
    candidates = admit(t, candidates, skip)
    if not candidates:
        return 0
    numbers = [row["number"] for row in candidates]
    existing = {
        row["number"]: row
        for row in conn.execute(
            sa.select(t.c.number, t.c.updated_at, *[t.c[c] for c in DETAIL_COLUMNS]).where(
                t.c.repo_id == repo_id, t.c.number.in_(numbers)
            )
        ).mappings()
    }
    rows: dict[int, dict[str, Any]] = {}
    for row in candidates:
        old = existing.get(row["number"])
        if old is not None and old["updated_at"] > row["updated_at"]:
            # The store already holds a newer copy (from GraphQL details); a lagging REST
            # replica must not roll it back.
            continue
        for column in DETAIL_COLUMNS:
            # A source's record leaves the bookkeeping (`patch_sha`) empty on a new item.
            row[column] = old[column] if old is not None else row.get(column)
        rows[row["number"]] = row
    store.upsert(conn, t, list(rows.values()))
    return len(rows)


def updated_times(conn: Connection, repo_id: int, numbers: Iterable[int]) -> dict[int, datetime]:
    """Stored `updated_at` of each of `numbers` the store holds."""
    t = _items
    return {
        number: updated
        for number, updated in conn.execute(
            sa.select(t.c.number, t.c.updated_at).where(
                t.c.repo_id == repo_id, t.c.number.in_(list(numbers))
            )
        )
    }


def updated_since(conn: Connection, repo_id: int, since: datetime) -> list[int]:
    """Live items whose stored `updated_at` is `since` or later, by number."""
    t = _items
    return list(
        conn.execute(
            sa.select(t.c.number)
            .where(t.c.repo_id == repo_id, t.c.deleted.is_(False), t.c.updated_at >= since)
            .order_by(t.c.number)
        ).scalars()
    )


def live_rows(conn: Connection, repo_id: int, numbers: Iterable[int]) -> list[sa.RowMapping]:
    """The whole stored rows of the live items among `numbers` (those the store holds and has
    not marked deleted), by number, `_CHUNK` numbers to a query."""
    t = _items
    wanted = sorted(set(numbers))
    rows: list[sa.RowMapping] = []
    for start in range(0, len(wanted), _CHUNK):
        rows += conn.execute(
            sa.select(t)
            .where(
                t.c.repo_id == repo_id,
                t.c.deleted.is_(False),
                t.c.number.in_(wanted[start : start + _CHUNK]),
            )
            .order_by(t.c.number)
        ).mappings()
    return rows


# -- PR details ----------------------------------------------------------------------------


def stale_prs(conn: Connection, repo_id: int) -> list[int]:
    """PRs whose details are missing or older than their stored `updated_at`, by number."""
    t = _items
    return [
        row.number
        for row in _by_number(
            conn,
            sa.select(t.c.number).where(
                t.c.repo_id == repo_id,
                t.c.kind == "pr",
                t.c.deleted.is_(False),
                sa.or_(t.c.detail_updated_at.is_(None), t.c.detail_updated_at != t.c.updated_at),
            ),
        )
    ]


def _by_number(conn: Connection, query: sa.Select[Any]) -> list[sa.RowMapping]:
    """The rows of `query` (which selects `number` from items) by number, read `_CHUNK` at a
    time in number order. PostgreSQL cannot estimate a comparison of two columns
    (`checked_updated_at != updated_at`) and guesses a third of the repository's items, so for
    the whole answer at once it weighed reading every item against the partial index of the
    few it holds, and on a year-old store read them all (3 -> 50 ms for a quiet re-sync, issue
    #14). Asked for a page in index order, it walks the partial index, which a re-sync with
    nothing to do finds empty."""
    t = _items
    rows: list[sa.RowMapping] = []
    after: int | None = None
    while True:
        page = query if after is None else query.where(t.c.number > after)
        got = list(conn.execute(page.order_by(t.c.number).limit(_CHUNK)).mappings())
        rows.extend(got)
        if len(got) < _CHUNK:
            return rows
        after = got[-1]["number"]


def _detail_values(details: PRDetails) -> dict[str, Any]:
    """The item columns PR details write: theirs (those KEPT left as stored), and the
    bookkeeping that the details are current for their `updated_at` and the item is live."""
    return {
        **details.columns(),
        "kind": "pr",
        "detail_updated_at": details.updated_at,
        "deleted": False,
    }


def details_problem(details: PRDetails) -> str | None:
    """Why the store cannot hold these PR details (store/limits.py), or None."""
    return row_problem(_items, _detail_values(details))


def write_details(conn: Connection, repo_id: int, number: int, details: PRDetails) -> None:
    conn.execute(_items.update().where(_one(repo_id, number)).values(**_detail_values(details)))


def details_current(conn: Connection, repo_id: int, number: int) -> None:
    """Mark an item's details current without new ones (GitHub has none to give), so later
    syncs stop asking until it changes."""
    t = _items
    conn.execute(t.update().where(_one(repo_id, number)).values(detail_updated_at=t.c.updated_at))


# -- counts reconciliation and deletions ---------------------------------------------------


def unchecked(conn: Connection, repo_id: int) -> list[sa.RowMapping]:
    """Live items changed since their comment counts were last checked (PRs only once their
    GraphQL counts exist), with the counts to check, by number."""
    t = _items
    return _by_number(
        conn,
        sa.select(
            t.c.number, t.c.kind, t.c.comments_count, t.c.review_comments_count, t.c.updated_at
        ).where(
            t.c.repo_id == repo_id,
            t.c.deleted.is_(False),
            sa.or_(t.c.checked_updated_at.is_(None), t.c.checked_updated_at != t.c.updated_at),
            sa.or_(t.c.kind == "issue", t.c.detail_updated_at == t.c.updated_at),
        ),
    )


def mark_checked(conn: Connection, repo_id: int, numbers: Sequence[int]) -> None:
    """These items' counts agree with GitHub as of their stored `updated_at`."""
    if not numbers:
        return
    t = _items
    conn.execute(
        t.update()
        .where(t.c.repo_id == repo_id, t.c.number.in_(list(numbers)))
        .values(checked_updated_at=t.c.updated_at)
    )


def set_checked(conn: Connection, repo_id: int, number: int, updated_at: datetime) -> None:
    conn.execute(_items.update().where(_one(repo_id, number)).values(checked_updated_at=updated_at))


def live_counts(conn: Connection, repo_id: int) -> dict[str, int]:
    """Live items per kind ("issue", "pr")."""
    t = _items
    return dict(
        conn.execute(
            sa.select(t.c.kind, sa.func.count())
            .where(t.c.repo_id == repo_id, t.c.deleted.is_(False))
            .group_by(t.c.kind)
        ).all()
    )


def live_numbers(conn: Connection, repo_id: int, kind: str) -> list[int]:
    t = _items
    return list(
        conn.execute(
            sa.select(t.c.number).where(
                t.c.repo_id == repo_id, t.c.kind == kind, t.c.deleted.is_(False)
            )
        ).scalars()
    )


def live_by_creation(
    conn: Connection, repo_id: int, kind: str
) -> list[tuple[int, datetime | None]]:
    """Live items of `kind` as (number, created_at), oldest first (undated ones first, in
    number order): what the search for deleted items cuts into creation ranges."""
    t = _items
    return [
        (number, created)
        for number, created in conn.execute(
            sa.select(t.c.number, t.c.created_at)
            .where(t.c.repo_id == repo_id, t.c.kind == kind, t.c.deleted.is_(False))
            .order_by(t.c.created_at.is_not(None), t.c.created_at, t.c.number)
        )
    ]


def mark_deleted(conn: Connection, repo_id: int, numbers: Sequence[int]) -> int:
    """Flag items GitHub no longer has; they stay in the store for history. How many rows
    were updated."""
    t = _items
    done = 0
    for start in range(0, len(numbers), _CHUNK):
        done += conn.execute(
            t.update()
            .where(t.c.repo_id == repo_id, t.c.number.in_(list(numbers[start : start + _CHUNK])))
            .values(deleted=True)
        ).rowcount
    return done
