"""Who is automation: the one definition every count, ranking and exclusion uses.

An author is a bot when any of these says so:

- **the account** — GitHub's type `Bot` (Apps), a login ending in `[bot]`, or a git author the
  sync marked as a bot by the email it commits under (`GIT_BOT`, below);
- **the config** — a login or git name the repository lists under `bots` (without case);
- **a known automation name** — dependabot, renovate, github-actions, pre-commit-ci, mergify,
  Copilot and the like, as a login or as the name a git history records;
- **the shape of the name** — ending in a separated `bot`, `robot`, `ci` or `automation`
  (`vllm-ascend-ci`, `release-bot`, `k8s-ci-robot`, "Jenkins CI"), or in `cibot`.

What is left out on purpose: a name merely *containing* "bot" (Abbott, robotics-dev) and a
name ending in "bot" with no separator (iKeybot and Talbot are people; iKeybot commits to
vllm-ascend), and " ci" in any case after a space (Ci is a Chinese given name): only the
capitals "CI" count there.

A git history records an email beside the name; only the git sync sees it (the store keeps
the name), so it judges the email there (`is_bot_email`) and stores such an author with the
type `GIT_BOT`: GitHub's noreply addresses of bots (`…[bot]@users.noreply.github.com`,
`noreply@github.com`), Actions' (`github-actions@…`, `action@github.com`), the automation
services' own domains, and local parts of the shapes above (`vllmcibot@gmail.com`).

Shared by the sources (emails) and the facts (everything else); it imports no pipeline layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

# `author_type` of a git author (a free-text name, not a GitHub login) the git sync marked as
# a bot by their email. Plain git authors are records.GIT_AUTHOR.
GIT_BOT = "GitBot"

# Automation that works under a plain login or git name (compared without case).
KNOWN_AUTOMATION = frozenset(
    {
        "allcontributors",
        "codecov",
        "coderabbitai",
        "copilot",
        "copilot-pull-request-reviewer",
        "copilot-swe-agent",
        "dependabot",
        "dependabot-preview",
        "gemini-code-assist",
        "github",
        "github action",
        "github actions",
        "github-actions",
        "greenkeeper",
        "imgbot",
        "mergify",
        "netlify",
        "pre-commit-ci",
        "renovate",
        "snyk-bot",
        "sourcery-ai",
        "vercel",
        "web-flow",
    }
)

# Name shapes only automation has. Each needs a separator before the word, except `cibot`.
_SHAPE = re.compile(r"(?:[-_. ](?:bot|robot|automation)|[-_.]ci|cibot)$", re.IGNORECASE)
# "Jenkins CI", "Ascend CI": after a space only the capitals count (Ci is a given name).
_SPACED_CI = re.compile(r" CI$")

# Addresses only automation commits under: GitHub's noreply addresses of bots and of itself,
# GitHub Actions' defaults, and the automation services' own domains.
_BOT_EMAIL = re.compile(
    r"(?:\[bot\]@|^noreply@github\.com$|^github-actions@|^actions?@github\.com$|"
    r"@dependabot\.com$|@renovateapp\.com$|@mergify\.(?:com|io)$)",
    re.IGNORECASE,
)


# Why an author is a bot: its account (GitHub's type, `[bot]`, or the email the git sync
# judged), the repository's config, or its name (a known automation name or shape).
BotSource = Literal["account", "config", "name"]


def bot_source(
    login: str | None, author_type: str | None, configured_bots: Iterable[str] = ()
) -> BotSource | None:
    """Why an author (a GitHub login or a git name, with its stored type) is automation, or
    None for a person. A deleted account (login None, shown as "ghost") was a person."""
    if author_type in ("Bot", GIT_BOT):
        return "account"
    if login is None:
        return None
    text = login.strip()
    lowered = text.lower()
    if lowered.endswith("[bot]"):
        return "account"
    if any(lowered == bot.strip().lower() for bot in configured_bots):
        return "config"
    if lowered in KNOWN_AUTOMATION or _SHAPE.search(text) or _SPACED_CI.search(text):
        return "name"
    return None


def is_bot(login: str | None, author_type: str | None, configured_bots: Iterable[str] = ()) -> bool:
    """Whether an author (a GitHub login or a git name, with its stored type) is automation."""
    return bot_source(login, author_type, configured_bots) is not None


def is_bot_email(email: str) -> bool:
    """True for an address only automation commits under (a git author's email)."""
    address = email.strip()
    if not address:
        return False
    if _BOT_EMAIL.search(address):
        return True
    # The local part, without GitHub's `12345+` id prefix: `vllmcibot`, `release-bot`.
    local = address.rsplit("@", 1)[0].split("+", 1)[-1]
    return local.lower() in KNOWN_AUTOMATION or _SHAPE.search(local) is not None
