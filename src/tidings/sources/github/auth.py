"""Finding a GitHub token: the environment first, then the GitHub CLI's stored login."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence

from tidings.errors import SourceError, register_secret

# What may travel in an HTTP header: visible ASCII. GitHub's tokens are letters, digits and
# `_`; anything else is a paste gone wrong, and httpx would fail on it mid-request.
_TOKEN = re.compile(r"[\x21-\x7e]+")


def resolve_token(env_name: str = "GITHUB_TOKEN") -> str:
    """The token from `env_name`, else `gh auth token`; registered for redaction either way."""
    token = os.environ.get(env_name, "").strip()
    where = env_name
    if not token:
        token, where = _gh_token(), "the token from `gh auth token`"
    if not token:
        raise SourceError(
            "no GitHub token found",
            f"set {env_name} or run `gh auth login`",
        )
    register_secret(token)
    _check(token, where)
    return token


def _check(token: str, where: str) -> None:
    """Refuse a token no HTTP header can carry, naming the kind of character and never the
    token itself (nor any piece of it)."""
    if _TOKEN.fullmatch(token):
        return
    if any(ch in "\r\n" for ch in token):
        problem = "a line break"
    elif any(ch.isspace() for ch in token):
        problem = "a space"
    elif any(ord(ch) > 0x7E for ch in token):
        problem = "a non-ASCII character"
    else:
        problem = "a control character"
    raise SourceError(
        f"{where} contains {problem}, so it cannot be a GitHub token",
        "copy the token again (letters, digits and _ only) and set it without quotes or spaces",
    )


def _gh_token() -> str:
    gh = shutil.which("gh")
    if gh is None:
        return ""
    try:
        done = subprocess.run(
            [gh, "auth", "token"],
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    # gh prints a hint on stderr when logged out; only a clean exit carries a token.
    return done.stdout.strip() if done.returncode == 0 else ""


def resolve_tokens(env_name: str = "GITHUB_TOKEN", more: Sequence[str] = ()) -> list[str]:
    """The token of `env_name` (or `gh auth token`), then one per variable named in `more`
    (`github.token_envs`), each of which must be set: a token listed and missing is a
    mistake worth one line, not a silent run on fewer tokens."""
    tokens = [resolve_token(env_name)]
    for name in more:
        token = os.environ.get(name, "").strip()
        if not token:
            raise SourceError(
                f"github.token_envs names {name}, but {name} is not set",
                f"set {name} to a GitHub token or remove it from token_envs in tidings.toml",
            )
        register_secret(token)
        _check(token, name)
        tokens.append(token)
    return list(dict.fromkeys(tokens))
