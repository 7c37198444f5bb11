"""Whether the store's merged history reaches back to the repository's first commit.

A first merge ("first-time contributor") can only be told from a history that starts at the
beginning: a shallow clone, or a store that began with a later commit, holds authors' later
merges as if they were their first. The git sync records the root it reached, in `sync_state`
(stream `git:root`, the cursor the parentless commit's sha), so snapshots carry it:

- a full read of a clone that is not shallow reaches the first commit (git prints it with no
  parents) and records it;
- a shallow clone prints its oldest commit with no parents too, so its sync records nothing;
- an incremental sync adds only new commits and leaves the record as it was.

A store without the record (a shallow clone's, an older tidings', or one read only from the
API, whose items carry GitHub's own first-timer association instead) cannot tell a first merge
from git data.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema
from tidings.store.db import Store

ROOT_STREAM = "git:root"


def write_git_root(store: Store, conn: Connection, repo_id: int, sha: str) -> None:
    store.set_cursor(conn, repo_id, ROOT_STREAM, sha)


def git_root(conn: Connection, repo_id: int) -> str | None:
    """The repository's first commit, when a git sync read the history back to it."""
    t = schema.sync_state
    return conn.execute(
        sa.select(t.c.cursor).where(t.c.repo_id == repo_id, t.c.stream == ROOT_STREAM)
    ).scalar_one_or_none()
