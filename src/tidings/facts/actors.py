"""Who did something: telling bots from people."""

from __future__ import annotations

from collections.abc import Iterable

from tidings.records import GIT_AUTHOR


def is_bot(login: str | None, author_type: str | None, configured_bots: Iterable[str] = ()) -> bool:
    """True for GitHub App/bot accounts and for logins the repo's config lists under `bots`.

    A deleted account (login None, shown as "ghost") is not a bot: it was a person. Logins
    compare without case, as GitHub treats them.
    """
    if author_type == "Bot":
        return True
    if login is None:
        return False
    lowered = login.lower()
    return lowered.endswith("[bot]") or any(lowered == bot.lower() for bot in configured_bots)


def is_git_name(author_type: str | None) -> bool:
    """True when the author is a name from a git history (free text), not a GitHub login."""
    return author_type == GIT_AUTHOR
