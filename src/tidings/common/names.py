"""GitHub's syntax for logins and repository names: what may become a link or a path.

A login or an OWNER/REPO string read from a snapshot, a report JSON or a git history is text a
stranger chose. Only one that GitHub itself could have issued is trusted to build a profile
URL, a link or a folder name; anything else is shown as plain text, or refused.
"""

from __future__ import annotations

import re

# A user or organisation: alphanumerics and single hyphens, neither first nor last, at most 39
# characters (GitHub's sign-up rule). The lookahead forbids `--` and a trailing hyphen.
_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}"
OWNER_PATTERN = _OWNER
# A repository: letters, digits, `.`, `_`, `-`, at most 100; never `.` or `..`, which a path
# would read as "here" or "the folder above".
_REPO = r"(?!\.\.?\Z)[A-Za-z0-9._-]{1,100}"

LOGIN = re.compile(rf"(?P<login>{_OWNER})(?P<bot>\[bot\])?")
# `\Z`, not `$`: `$` also matches before a trailing newline, letting "a/b\n" through `.match`.
REPO_NAME = re.compile(rf"^{_OWNER}/{_REPO}\Z")


def is_repo_name(value: object) -> bool:
    """True for a GitHub OWNER/REPO name, which is also safe as two folder names."""
    return isinstance(value, str) and REPO_NAME.match(value) is not None


def profile_path(login: str | None) -> str | None:
    """`login`'s profile path on GitHub (`apps/NAME` for a bot), or None when it is no login."""
    match = LOGIN.fullmatch(login) if isinstance(login, str) else None
    if match is None:
        return None
    return f"apps/{match['login']}" if match["bot"] else match["login"]
