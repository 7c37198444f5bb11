"""The rows a window's counts and lists read (facts/stats.py), and `tidings stats` as a whole:
each figure's query bounded by the window, each row typed before the counting reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.stats import (
    DEFAULT_DEPTH,
    DEFAULT_TOP,
    GIT_ONLY_UNKNOWN,
    GIT_UNKNOWN,
    Act,
    ActKind,
    ChangedLines,
    Churn,
    ItemDates,
    ItemLists,
    LabelCount,
    People,
    WindowStats,
    churn_of,
    count_people,
    label_counts,
    lists_of,
    stats_of,
)
from tidings.facts.windows import Window
from tidings.store import schema

items_t = schema.items


# -- what the sources cannot know -----------------------------------------------------------


def git_only(conn: Connection, repo_id: int) -> bool:
    """Whether every item of the repository came from a git clone (and there are some).

    Two existence probes, each stopping at its first row: one from the API (on an API store
    the first row read; only a git-only store reads further), then, only without one, one
    from git (an empty repository is no git-only one)."""
    it = items_t
    first = sa.select(it.c.number).where(it.c.repo_id == repo_id).limit(1)
    if conn.execute(first.where(sa.func.coalesce(it.c.source, "api") != "git")).first():
        return False
    return conn.execute(first.where(it.c.source == "git")).first() is not None


def _unknown(conn: Connection, repo_id: int, lists: ItemLists) -> tuple[str, ...]:
    """The window's counts its sources cannot know (facts/coverage.py unknown_counts says the
    same of a report's window)."""
    if git_only(conn, repo_id):
        return GIT_ONLY_UNKNOWN
    it = items_t
    merged = lists.merged_prs
    git = (
        merged
        and conn.execute(
            sa.select(it.c.number)
            .where(it.c.repo_id == repo_id, it.c.number.in_(merged), it.c.source == "git")
            .limit(1)
        ).first()
    )
    return GIT_UNKNOWN if git else ()


# -- items ----------------------------------------------------------------------------------


def _between(column: sa.ColumnElement[Any], window: Window) -> sa.ColumnElement[bool]:
    return sa.and_(column >= window.start, column < window.end)


def _live_items(repo_id: int) -> sa.ColumnElement[bool]:
    return sa.and_(items_t.c.repo_id == repo_id, items_t.c.deleted.is_(False))


def item_lists(conn: Connection, repo_id: int, window: Window) -> ItemLists:
    """Which issues and PRs were opened, closed and merged in the window."""
    return lists_of(item_dates(conn, repo_id, window), window)


def item_dates(conn: Connection, repo_id: int, window: Window) -> list[ItemDates]:
    """The issues and PRs opened, closed or merged in the window, by number: what its lists
    and those of any window inside it are made of (facts/stats.py `lists_of`)."""
    t = items_t
    rows = conn.execute(
        sa.select(
            t.c.number,
            t.c.kind,
            t.c.state,
            t.c.created_at,
            t.c.closed_at,
            t.c.merged_at,
            t.c.source,
        )
        .where(
            _live_items(repo_id),
            sa.or_(
                _between(t.c.created_at, window),
                _between(t.c.closed_at, window),
                _between(t.c.merged_at, window),
            ),
        )
        .order_by(t.c.number)
    )
    return [ItemDates(*row) for row in rows]


def _merged_in(repo_id: int, window: Window) -> sa.ColumnElement[bool]:
    return sa.and_(
        _live_items(repo_id), items_t.c.kind == "pr", _between(items_t.c.merged_at, window)
    )


def merged_label_counts(conn: Connection, repo_id: int, window: Window) -> list[LabelCount]:
    """How many of the window's merged PRs carry each label, most common first."""
    rows = conn.execute(sa.select(items_t.c.labels).where(_merged_in(repo_id, window)))
    return label_counts(labels for (labels,) in rows)


# -- paths ----------------------------------------------------------------------------------


def path_churn(
    conn: Connection,
    repo_id: int,
    window: Window,
    *,
    depth: int = DEFAULT_DEPTH,
    top: int = DEFAULT_TOP,
) -> tuple[list[Churn], list[Churn]]:
    """(top changed paths, top directories) by lines added plus deleted in merged PRs."""
    f = schema.pr_files
    rows = conn.execute(
        sa.select(f.c.number, f.c.path, f.c.additions, f.c.deletions)
        .join(items_t, sa.and_(items_t.c.repo_id == f.c.repo_id, items_t.c.number == f.c.number))
        .where(f.c.repo_id == repo_id, _merged_in(repo_id, window))
    )
    return churn_of((ChangedLines(*row) for row in rows), depth=depth, top=top)


# -- people ---------------------------------------------------------------------------------


def parent_live(table: sa.Table) -> sa.ColumnElement[bool]:
    """The comment's or review's item is not marked deleted: the words on a deleted issue or PR
    leave the facts with it (one the store never held counts as live). Asked as "no deleted
    item of that number", which the small partial index ix_items_repo_deleted answers: an
    outer join to the items made PostgreSQL hash every item of the repository for a week's
    comments (store/migrations 0005)."""
    gone = sa.select(items_t.c.number).where(
        items_t.c.repo_id == table.c.repo_id,
        items_t.c.number == table.c.number,
        items_t.c.deleted.is_(True),
    )
    return ~sa.exists(gone)


def _child_acts(
    conn: Connection,
    table: sa.Table,
    kind: ActKind,
    repo_id: int,
    moment: sa.Column[Any],
    window: Window,
) -> list[Act]:
    """Comments or reviews made in the window on items that still exist."""
    rows = conn.execute(
        sa.select(table.c.author, table.c.author_type, table.c.number, *_extra(table)).where(
            table.c.repo_id == repo_id,
            table.c.deleted.is_(False),
            parent_live(table),
            _between(moment, window),
        )
    ).all()
    return [
        Act(login, author_type, kind, number, *extra) for login, author_type, number, *extra in rows
    ]


def _extra(table: sa.Table) -> list[sa.Column[Any]]:
    return [table.c.state] if table is schema.reviews else []


def _acts(conn: Connection, repo_id: int, window: Window) -> Iterator[Act]:
    """Who opened, merged, commented and reviewed in the window, in that order."""
    t = items_t
    for login, author_type, kind, number in conn.execute(
        sa.select(t.c.author, t.c.author_type, t.c.kind, t.c.number).where(
            _live_items(repo_id), _between(t.c.created_at, window)
        )
    ):
        yield Act(login, author_type, "issues" if kind == "issue" else "prs", number)
    for login, author_type, number in conn.execute(
        sa.select(t.c.author, t.c.author_type, t.c.number).where(
            _live_items(repo_id), t.c.created_at.is_(None), _between(t.c.merged_at, window)
        )
    ):
        yield Act(login, author_type, "merged_unknown_opened", number)
    cm, rc, rv = schema.comments, schema.review_comments, schema.reviews
    yield from _child_acts(conn, cm, "comments", repo_id, cm.c.created_at, window)
    yield from _child_acts(conn, rc, "review_comments", repo_id, rc.c.created_at, window)
    yield from _child_acts(conn, rv, "reviews", repo_id, rv.c.submitted_at, window)


def people(conn: Connection, repo_id: int, window: Window, bots: Iterable[str] = ()) -> People:
    """Humans active in the window (authors, commenters, reviewers), and bot activity apart."""
    return count_people(_acts(conn, repo_id, window), bots)


# -- everything -----------------------------------------------------------------------------


def data_as_of(conn: Connection, repo_id: int) -> datetime | None:
    """The newest item update in the store: how fresh the data behind the numbers is."""
    return conn.execute(
        sa.select(sa.func.max(items_t.c.updated_at)).where(items_t.c.repo_id == repo_id)
    ).scalar_one_or_none()


def window_stats(
    conn: Connection,
    repo_id: int,
    window: Window,
    *,
    repository: str | None = None,
    bots: Iterable[str] = (),
    directory_depth: int = DEFAULT_DEPTH,
    top: int = DEFAULT_TOP,
) -> WindowStats:
    """Everything in facts/stats.py for one window; `repository` defaults to the stored name."""
    if repository is None:
        repos = schema.repositories
        repository = conn.execute(
            sa.select(repos.c.full_name).where(repos.c.id == repo_id)
        ).scalar_one()
    lists = item_lists(conn, repo_id, window)
    unknown = _unknown(conn, repo_id, lists)
    churn = path_churn(conn, repo_id, window, depth=directory_depth, top=top)
    who = people(conn, repo_id, window, bots)
    as_of = data_as_of(conn, repo_id)
    return stats_of(
        repository,
        window,
        as_of,
        lists,
        unknown,
        merged_label_counts(conn, repo_id, window),
        churn,
        who,
        directory_depth=directory_depth,
    )
