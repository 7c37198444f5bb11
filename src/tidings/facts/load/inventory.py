"""What the store holds, one `RepoSummary` (facts/inventory.py) per repository: live rows
counted per table, a query each, for every repository at once.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.inventory import RepoSummary
from tidings.store import schema


def _per_repo(conn: Connection, query: sa.Select[Any]) -> dict[int, Any]:
    return {repo_id: value for repo_id, value in conn.execute(query)}


def repository_summaries(conn: Connection) -> list[RepoSummary]:
    """Every repository in the store with live (not deleted) row counts, by name."""
    items, comments, reviews = schema.items, schema.comments, schema.reviews
    live_items = items.c.deleted.is_(False)
    issues = _per_repo(
        conn,
        sa.select(items.c.repo_id, sa.func.count())
        .where(live_items, items.c.kind == "issue")
        .group_by(items.c.repo_id),
    )
    prs = _per_repo(
        conn,
        sa.select(items.c.repo_id, sa.func.count())
        .where(live_items, items.c.kind == "pr")
        .group_by(items.c.repo_id),
    )
    latest = _per_repo(
        conn, sa.select(items.c.repo_id, sa.func.max(items.c.updated_at)).group_by(items.c.repo_id)
    )
    n_comments, n_reviews = (
        _per_repo(
            conn,
            sa.select(table.c.repo_id, sa.func.count())
            .select_from(
                # The comments and reviews of a deleted item are gone with it.
                table.outerjoin(
                    items,
                    sa.and_(items.c.repo_id == table.c.repo_id, items.c.number == table.c.number),
                )
            )
            .where(table.c.deleted.is_(False), sa.func.coalesce(items.c.deleted, False).is_(False))
            .group_by(table.c.repo_id),
        )
        for table in (comments, reviews)
    )
    state = schema.sync_state
    synced = _per_repo(
        conn, sa.select(state.c.repo_id, sa.func.max(state.c.updated_at)).group_by(state.c.repo_id)
    )
    repos = schema.repositories
    return [
        RepoSummary(
            full_name=name,
            issues=issues.get(repo_id, 0),
            prs=prs.get(repo_id, 0),
            comments=n_comments.get(repo_id, 0),
            reviews=n_reviews.get(repo_id, 0),
            latest_update=latest.get(repo_id),
            last_synced=synced.get(repo_id),
        )
        for repo_id, name in conn.execute(
            sa.select(repos.c.id, repos.c.full_name).order_by(repos.c.full_name)
        )
    ]
