"""How far the store's copy of a repository reaches (facts/coverage.py `Coverage`), and whether
anything in it came from the GitHub API.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.coverage import Coverage
from tidings.facts.load.stats import git_only
from tidings.store import schema


def coverage(conn: Connection, repo_id: int) -> Coverage:
    """The newest sync-state write and the newest item update of the repository."""
    state, items = schema.sync_state, schema.items
    return Coverage(
        last_synced=conn.execute(
            sa.select(sa.func.max(state.c.updated_at)).where(state.c.repo_id == repo_id)
        ).scalar_one_or_none(),
        latest_update=conn.execute(
            sa.select(sa.func.max(items.c.updated_at)).where(items.c.repo_id == repo_id)
        ).scalar_one_or_none(),
    )


def has_api_items(conn: Connection, repo_id: int) -> bool:
    """Whether the store's data for the repository may hold issues and unmerged PRs: anything
    came from the GitHub API, or nothing came from a git clone (an empty repository is no
    git-only one). False only for a store that a git clone alone filled."""
    return not git_only(conn, repo_id)
