"""When each repository was last synced to completion: what `tidings run` orders its work by
and how it knows a repository's first sync is still to come (docs/scale.md)."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema

# The sync-state row a GitHub sync writes when it finishes (sources/github/sync.py writes it,
# under the same name: tests/store/test_freshness.py holds the two together).
SYNCED_STREAM = "synced"


def last_synced(conn: Connection) -> dict[str, datetime | None]:
    """Every stored repository (lower-case name) with the time its last sync finished;
    None for one whose first sync never finished (imported from a snapshot, or cut short)."""
    repos, state = schema.repositories, schema.sync_state
    rows = conn.execute(
        sa.select(repos.c.full_name, state.c.updated_at).select_from(
            repos.outerjoin(
                state, sa.and_(state.c.repo_id == repos.c.id, state.c.stream == SYNCED_STREAM)
            )
        )
    )
    return {name.lower(): when for name, when in rows}
