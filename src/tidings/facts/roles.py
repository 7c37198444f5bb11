"""Participants' roles, and where each one came from.

GitHub's `author_association` is not enough on its own: for a private member of the owning
organisation it says CONTRIBUTOR whenever the token cannot see private membership. So a role is
decided by the first of these that speaks (a role carries its source, and the evidence where
there is one):

1. **bot** — a GitHub App/bot account (source "account"), a login the repository's config
   lists under `bots` ("config"), or a known automation name or shape ("name"): tidings.common.bots.
2. **config** — a login in `maintainers` (the repository's or the top-level list): maintainer.
3. **team** — a member of a team in `maintainer_teams`, as the last sync listed it: maintainer
   (evidence: the team).
4. **merged** — merged a pull request in the store, which takes write access: maintainer
   (evidence: the highest-numbered such PR).
5. **association** — OWNER, MEMBER or COLLABORATOR: maintainer; CONTRIBUTOR (has a merged
   commit): contributor; everyone else (NONE, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, or
   a deleted account): user.

Logins compare without case, as GitHub treats them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from tidings.common.bots import bot_source

Role = Literal["maintainer", "contributor", "user", "bot"]
RoleSource = Literal["account", "config", "name", "team", "merged", "association"]

MAINTAINER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
FIRST_TIMER_ASSOCIATIONS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


@dataclass(frozen=True)
class RoleOf:
    role: Role
    source: RoleSource
    evidence: str | None = None  # the team ("org/slug") or the merged PR ("#123")


@dataclass(frozen=True)
class Roles:
    """What decides roles in one repository. The default knows only the association."""

    maintainers: frozenset[str] = frozenset()  # lower-case logins from the config
    teams: Mapping[str, frozenset[str]] = field(default_factory=dict)  # team -> members
    mergers: Mapping[str, int] = field(default_factory=dict)  # login -> a PR it merged
    bots: tuple[str, ...] = ()

    def of(self, login: str | None, author_type: str | None, association: str | None) -> RoleOf:
        bot = bot_source(login, author_type, self.bots)
        if bot is not None:
            return RoleOf("bot", bot)
        key = login.lower() if login else None
        if key is not None:
            if key in self.maintainers:
                return RoleOf("maintainer", "config")
            for team, members in self.teams.items():
                if key in members:
                    return RoleOf("maintainer", "team", team)
            if key in self.mergers:
                return RoleOf("maintainer", "merged", f"#{self.mergers[key]}")
        if association in MAINTAINER_ASSOCIATIONS:
            return RoleOf("maintainer", "association", association)
        if association == "CONTRIBUTOR":
            return RoleOf("contributor", "association", association)
        return RoleOf("user", "association", association)


def role_of(
    login: str | None,
    author_type: str | None,
    association: str | None,
    configured_bots: Iterable[str] = (),
) -> Role:
    """The role from the association alone (no config, no store)."""
    return Roles(bots=tuple(configured_bots)).of(login, author_type, association).role
