"""Members of the GitHub teams a repository's config names as maintainers, as a sync last saw them.

Kept in `sync_state`, one stream per team (`team:ORG/SLUG`, the cursor a JSON list of logins,
`updated_at` when it was read), so snapshots carry them and no table is needed for a handful of
short lists per repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema
from tidings.store.db import Store

PREFIX = "team:"


def team_stream(team: str) -> str:
    """The sync_state stream of a team named `org/slug` (compared without case, as GitHub)."""
    return PREFIX + team.lower()


def write_team(
    store: Store, conn: Connection, repo_id: int, team: str, logins: Iterable[str]
) -> None:
    members = sorted(set(logins), key=lambda login: (login.lower(), login))
    store.set_cursor(conn, repo_id, team_stream(team), json.dumps(members))


def read_teams(conn: Connection, repo_id: int) -> dict[str, list[str]]:
    """Every stored team of the repository ("org/slug", lower case) -> its member logins."""
    t = schema.sync_state
    rows = conn.execute(
        sa.select(t.c.stream, t.c.cursor).where(
            t.c.repo_id == repo_id, t.c.stream.startswith(PREFIX, autoescape=True)
        )
    )
    teams: dict[str, list[str]] = {}
    for stream, cursor in rows:
        try:
            members = json.loads(cursor or "[]")
        except ValueError:
            continue  # not ours to interpret: a hand-edited snapshot, say
        if isinstance(members, list):
            teams[stream.removeprefix(PREFIX)] = [m for m in members if isinstance(m, str)]
    return teams
