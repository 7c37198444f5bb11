"""Who did something: telling bots from people.

A bot is a GitHub App or bot account, a login ending in `[bot]`, or a login the repository's
config lists under `bots`. A git history has names, not logins, and no account type: there an
automation name such as `vllm-ascend-ci` or `github-actions` marks a bot too (is_bot_author).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tidings.records import GIT_AUTHOR

# Automation that commits under a plain name in git histories (no GitHub account type there).
_GIT_BOT_NAME = re.compile(
    r"(?:\[bot\]|[-_ ]bot|[-_ ]ci|[-_ ]automation|^github-actions|^dependabot|^renovate|"
    r"^pre-commit-ci|^mergify)$",
    re.IGNORECASE,
)


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


def is_bot_author(
    author: str | None,
    author_type: str | None,
    configured_bots: Iterable[str] = (),
    *,
    git: bool = False,
) -> bool:
    """A bot by GitHub's account type, its login or the config; for a git name (`git`, or
    the git source's author type), also by the shape of the name: automation names such as
    `vllm-ascend-ci`, which no person's name has."""
    if is_bot(author, author_type, configured_bots):
        return True
    if author is None or not (git or is_git_name(author_type)):
        return False
    return _GIT_BOT_NAME.search(author.strip()) is not None
