"""A window's rows (facts/activity_data.py `WindowData`), read from the store once: the
conversation in the window, the items it touched or that they link, their files, who replied,
what they name and revert, and whose first merge it holds.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.activity_data import Comment, File, Item, WindowData
from tidings.facts.actors import is_git_name
from tidings.facts.load.lookups import store_lookups
from tidings.facts.load.stats import parent_live
from tidings.facts.mentions import mentions
from tidings.facts.reverts import link, revert_ref
from tidings.facts.roles import Roles
from tidings.store import schema
from tidings.store.gaps import read_gaps, unread_diffs
from tidings.store.history import git_root
from tidings.store.items import live_rows


def _total_reactions(reactions: dict[str, int] | None) -> int:
    return sum((reactions or {}).values())


def _item(row: sa.RowMapping) -> Item:
    return Item(
        number=row["number"],
        kind=row["kind"],
        title=row["title"],
        body=row["body"],
        author=row["author"],
        author_type=row["author_type"],
        author_association=row["author_association"],
        state=row["state"],
        state_reason=row["state_reason"],
        draft=bool(row["draft"]),
        labels=tuple(row["labels"] or ()),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        closed_at=row["closed_at"],
        merged_at=row["merged_at"],
        merged=bool(row["merged"]) or row["merged_at"] is not None,
        merged_by=row["merged_by"],
        additions=row["additions"] or 0,
        deletions=row["deletions"] or 0,
        changed_files=row["changed_files"] or 0,
        reactions=_total_reactions(row["reactions"]),
        reactions_by=dict(row["reactions"] or {}),
        comments_count=row["comments_count"] or 0,
        url=row["url"] or "",
    )


def comment_of(row: sa.RowMapping, kind: str, when: datetime) -> Comment:
    """A stored comment, review or review comment (`kind`) made at `when`, as the facts read it."""
    return Comment(
        id=row["id"],
        number=row["number"],
        author=row["author"],
        author_type=row["author_type"],
        author_association=row["author_association"],
        body=row["body"] or "",
        created_at=when,
        reactions=_total_reactions(row.get("reactions")),
        kind=kind,
        review_state=row.get("state") if kind == "review" else None,
    )


def load_window(
    conn: Connection,
    repo_id: int,
    repo: str,
    start: datetime,
    end: datetime,
    *,
    roles: Roles | None = None,
) -> WindowData:
    """The window's rows; `roles` (facts/load/roles.py) decides who counts as a
    maintainer, by the association alone when not given."""
    data = WindowData(repo=repo, start=start, end=end, roles=roles or Roles())
    it, cm, rv, rc = schema.items, schema.comments, schema.reviews, schema.review_comments

    def within(col: sa.Column[Any]) -> sa.ColumnElement[bool]:
        return sa.and_(col >= start, col < end)

    # Conversation comments, reviews and review comments share one shape: (table, kind, the
    # column that dates them).
    for table, kind, when in (
        (cm, "comment", cm.c.created_at),
        (rv, "review", rv.c.submitted_at),
        (rc, "review_comment", rc.c.created_at),
    ):
        rows = conn.execute(
            sa.select(table).where(
                table.c.repo_id == repo_id, ~table.c.deleted, parent_live(table), within(when)
            )
        ).mappings()
        data.activity.extend(comment_of(row, kind, row[when.name]) for row in rows)
    data.activity.sort(key=lambda c: (c.created_at, c.kind, c.id))

    touched = {c.number for c in data.activity}
    # By number, here and below: a window cut from a longer one's rows (facts/week_days.py)
    # holds them in the same order.
    item_rows = conn.execute(
        sa.select(it)
        .where(
            it.c.repo_id == repo_id,
            ~it.c.deleted,
            sa.or_(
                within(it.c.created_at),
                within(it.c.closed_at),
                within(it.c.merged_at),
                it.c.number.in_(sorted(touched)) if touched else sa.false(),
            ),
        )
        .order_by(it.c.number)
    ).mappings()
    for row in item_rows:
        data.items[row["number"]] = _item(row)
    data.active = set(data.items)

    refs = schema.closing_refs
    numbers = sorted(data.items)
    if numbers:
        mine = sa.and_(refs.c.repo_id == repo_id, refs.c.issue_repo == repo)
        pairs = sa.select(refs.c.number, refs.c.issue_number)
        # Two indexed look-ups, one per direction, rather than one OR: given the OR, planners
        # read every reference the repository ever had (store/migrations 0005).
        for ref in conn.execute(
            sa.union(
                pairs.where(mine, refs.c.number.in_(numbers)),
                pairs.where(mine, refs.c.issue_number.in_(numbers)),
            ).order_by(refs.c.number, refs.c.issue_number)
        ):
            data.closes.setdefault(ref.number, []).append(ref.issue_number)
            data.closed_by.setdefault(ref.issue_number, []).append(ref.number)
        _load_missing_items(conn, repo_id, data, set(data.closed_by) | set(data.closes))
    _load_named(conn, repo_id, data)
    _load_first_merges(conn, repo_id, data)

    merged = [n for n, i in data.items.items() if i.kind == "pr"]
    files: dict[int, list[File]] = defaultdict(list)
    if merged:
        f = schema.pr_files
        for row in conn.execute(
            sa.select(f)
            .where(f.c.repo_id == repo_id, f.c.number.in_(merged))
            .order_by(f.c.number, f.c.path)
        ).mappings():
            files[row["number"]].append(
                File(
                    number=row["number"],
                    path=row["path"],
                    status=row["status"],
                    additions=row["additions"] or 0,
                    deletions=row["deletions"] or 0,
                )
            )
    data.files = dict(files)
    merged_set = set(merged)
    gapped = {n: g for n, g in read_gaps(conn, repo_id).items() if n in merged_set}
    data.files_cut = {n for n, gaps in gapped.items() if "files" in gaps}
    data.unread_diffs = {
        n: k
        for n, gaps in gapped.items()
        if (k := unread_diffs(gaps, data.items[n].changed_files if n in data.items else None))
    }

    active = sorted(data.active)
    if active:
        # Each distinct speaker on the active items (any time), judged by the roles: a private
        # organisation member GitHub calls CONTRIBUTOR still counts as a maintainer's reply.
        for table in (cm, rv, rc):
            for number, login, kind, association in conn.execute(
                sa.select(
                    table.c.number, table.c.author, table.c.author_type, table.c.author_association
                )
                .distinct()
                .where(table.c.repo_id == repo_id, ~table.c.deleted, table.c.number.in_(active))
            ):
                if data.roles.of(login, kind, association).role == "maintainer":
                    data.maintainer_replied.add(number)
        prs = [n for n in active if data.items[n].kind == "pr"]
        for number, author, first in conn.execute(
            sa.select(rv.c.number, rv.c.author, sa.func.min(rv.c.submitted_at))
            .where(
                rv.c.repo_id == repo_id,
                ~rv.c.deleted,
                rv.c.number.in_(prs or [-1]),
                rv.c.submitted_at.is_not(None),
            )
            .group_by(rv.c.number, rv.c.author)
        ):
            if author is not None and author == data.items[number].author:
                continue  # answering your own PR is not a review
            if number not in data.first_review_at or first < data.first_review_at[number]:
                data.first_review_at[number] = first
    return data


def _load_missing_items(conn: Connection, repo_id: int, data: WindowData, wanted: set[int]) -> None:
    """Items referenced from the window's items (linked PRs and issues) but not active in it."""
    missing = sorted(wanted - set(data.items))
    if not missing:
        return
    it = schema.items
    for row in conn.execute(
        sa.select(it)
        .where(it.c.repo_id == repo_id, ~it.c.deleted, it.c.number.in_(missing))
        .order_by(it.c.number)
    ).mappings():
        data.items[row["number"]] = _item(row)


def _load_first_merges(conn: Connection, repo_id: int, data: WindowData) -> None:
    """Which git authors merged their first PR in the window, by the name git records
    (compared without case, as the weekly's author counts do). Every merged PR in the store
    counts as an earlier merge, an API copy's login of the same spelling included: a name
    claimed as new must have no earlier merge under any source."""
    data.git_history_complete = git_root(conn, repo_id) is not None
    names = {
        item.author.lower()
        for item in data.items.values()
        if item.author and is_git_name(item.author_type) and data.in_window(item.merged_at)
    }
    if not names:
        return
    # One row per author spelling (a few thousand in a large repository), folded here: SQL's
    # lower() leaves non-ASCII letters as they are on SQLite.
    it = schema.items
    first: dict[str, datetime] = {}
    for author, when in conn.execute(
        sa.select(it.c.author, sa.func.min(it.c.merged_at))
        .where(
            it.c.repo_id == repo_id,
            ~it.c.deleted,
            it.c.kind == "pr",
            it.c.merged_at.is_not(None),
            it.c.author.is_not(None),
        )
        .group_by(it.c.author)
    ):
        key = author.lower()
        if key in names and (key not in first or when < first[key]):
            first[key] = when
    data.first_merges = frozenset(k for k, when in first.items() if data.in_window(when))


def _load_named(conn: Connection, repo_id: int, data: WindowData) -> None:
    """What the active items name (`#N`, reverted PRs), and the named items the store holds
    that the window has not loaded: one query for their rows, plus one or two per revert
    whose text names no PR (the store links it by commit or title)."""
    lookups = None
    for number in sorted(data.active):
        item = data.items[number]
        named = mentions(item.title, item.body, data.repo, own=number)
        if named:
            data.mentions[number] = named
        if item.kind != "pr":
            continue
        ref = revert_ref(item.title, item.body, number)
        if ref is None:
            continue
        target = ref.number
        if target is None and (ref.sha or ref.title):
            lookups = lookups or store_lookups(conn, repo_id)
            # A PR merged before this one (or before the window's end, all the store knows
            # of an open revert whose opening a git clone could not tell).
            before = item.merged_at or item.created_at or data.end
            target = link(ref, number, before, *lookups)
        if target is not None:
            data.reverts[number] = target
    wanted = {m.number for found in data.mentions.values() for m in found}
    wanted |= set(data.reverts.values())
    for row in live_rows(conn, repo_id, wanted - set(data.items)):
        data.named[row["number"]] = _item(row)
