"""A repository's roles (facts/roles.py `Roles`): its config's maintainers and bots, the members
of its maintainer teams as the last sync listed them, and who merged its PRs.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.common.config import RepoConfig
from tidings.facts.roles import Roles
from tidings.store import schema
from tidings.store.teams import read_teams


def load_roles(conn: Connection, repo_id: int, repo: RepoConfig) -> Roles:
    """The repository's roles: its config, its teams as last synced, and who merged its PRs."""
    stored = read_teams(conn, repo_id)
    teams = {
        team: frozenset(m.lower() for m in stored[team.lower()])
        for team in repo.maintainer_teams
        if team.lower() in stored  # one no sync has listed yet counts no one (cli.py warns)
    }
    it = schema.items
    mergers: dict[str, int] = {}
    for login, number in conn.execute(
        sa.select(it.c.merged_by, sa.func.max(it.c.number))
        .where(
            it.c.repo_id == repo_id,
            it.c.kind == "pr",
            it.c.merged_by.is_not(None),
            it.c.deleted.is_(False),
        )
        .group_by(it.c.merged_by)
    ):
        key = login.lower()
        mergers[key] = max(number, mergers.get(key, number))
    return Roles(
        maintainers=frozenset(login.lower() for login in repo.maintainers),
        teams=teams,
        mergers=mergers,
        bots=tuple(repo.bots),
    )
