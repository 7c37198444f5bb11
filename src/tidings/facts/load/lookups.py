"""The store's answers to the revert and re-land rules (facts/reverts.py, facts/relands.py):
which PR merged a commit, which PR merged before a time had a title, a PR's title, body and
merge time, and the stored titles of PRs a week's reverts and re-lands name.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.reverts import ByNumber, BySha, ByTitle
from tidings.store import schema


def store_lookups(conn: Connection, repo_id: int) -> tuple[BySha, ByTitle]:
    """The store's answers to "which PR merged this commit" and "which PR, merged before,
    had this title" (a week holds a few reverts: one small query each)."""
    it = schema.items
    merged = sa.and_(it.c.repo_id == repo_id, ~it.c.deleted, it.c.kind == "pr")

    def by_sha(sha: str) -> int | None:
        found = conn.execute(
            sa.select(it.c.number)
            .where(merged, it.c.merge_commit_sha.startswith(sha, autoescape=True))
            .limit(2)
        ).scalars()
        numbers = list(found)
        return numbers[0] if len(numbers) == 1 else None  # an ambiguous short sha links none

    def by_title(title: str, before: datetime) -> int | None:
        return conn.execute(
            sa.select(it.c.number)
            .where(merged, it.c.title == title, it.c.merged_at < before)
            .order_by(it.c.merged_at.desc())
            .limit(1)
        ).scalar()

    return by_sha, by_title


def reverted_titles(conn: Connection, repo_id: int, numbers: Iterable[int]) -> dict[int, str]:
    """The stored titles of reverted PRs (a PR reverted weeks later is outside the week)."""
    wanted = sorted(set(numbers))
    if not wanted:
        return {}
    it = schema.items
    rows = conn.execute(
        sa.select(it.c.number, it.c.title).where(
            it.c.repo_id == repo_id, it.c.number.in_(wanted), ~it.c.deleted
        )
    )
    return {int(r.number): str(r.title) for r in rows}


def store_texts(conn: Connection, repo_id: int) -> ByNumber:
    """The store's "what are PR n's title, body and merge time" (a week holds a few
    re-lands: one small query each)."""
    it = schema.items

    def by_number(n: int) -> tuple[str, str | None, datetime] | None:
        row = conn.execute(
            sa.select(it.c.title, it.c.body, it.c.merged_at).where(
                it.c.repo_id == repo_id, it.c.number == n, ~it.c.deleted, it.c.kind == "pr"
            )
        ).first()
        if row is None or row.merged_at is None:
            return None
        return str(row.title), row.body, row.merged_at

    return by_number
