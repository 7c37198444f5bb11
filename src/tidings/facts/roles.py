"""Participants' roles, from GitHub's `author_association`.

maintainer: OWNER, MEMBER or COLLABORATOR (they can merge); contributor: CONTRIBUTOR (has a
merged commit); user: everyone else (NONE, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR, MANNEQUIN, or a
deleted account). Bots are their own role whatever their association.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from tidings.facts.actors import is_bot

Role = Literal["maintainer", "contributor", "user", "bot"]

MAINTAINER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})
FIRST_TIMER_ASSOCIATIONS = frozenset({"FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER"})


def role_of(
    login: str | None,
    author_type: str | None,
    association: str | None,
    configured_bots: Iterable[str] = (),
) -> Role:
    if is_bot(login, author_type, configured_bots):
        return "bot"
    if association in MAINTAINER_ASSOCIATIONS:
        return "maintainer"
    if association == "CONTRIBUTOR":
        return "contributor"
    return "user"
