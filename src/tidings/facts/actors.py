"""Who did something: telling bots from people, and logins from git names.

The definition of a bot is tidings.common.bots (shared with the git source, which judges emails):
every fact asks `is_bot` here, with the repository's `bots` config, and nothing else decides.
"""

from __future__ import annotations

from tidings.common.bots import GIT_BOT, is_bot
from tidings.common.records import GIT_AUTHOR

__all__ = ["is_bot", "is_git_name"]


def is_git_name(author_type: str | None) -> bool:
    """True when the author is a name from a git history (free text), not a GitHub login."""
    return author_type in (GIT_AUTHOR, GIT_BOT)
