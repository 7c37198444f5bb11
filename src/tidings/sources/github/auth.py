"""Finding a GitHub token: the environment first, then the GitHub CLI's stored login."""

from __future__ import annotations

import os
import shutil
import subprocess

from tidings.errors import SourceError, register_secret


def resolve_token(env_name: str = "GITHUB_TOKEN") -> str:
    """The token from `env_name`, else `gh auth token`; registered for redaction either way."""
    token = os.environ.get(env_name, "").strip()
    if not token:
        token = _gh_token()
    if not token:
        raise SourceError(
            "no GitHub token found",
            f"set {env_name} or run `gh auth login`",
        )
    register_secret(token)
    return token


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
