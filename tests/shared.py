"""Where `../shared` (seed reports, real data, GitHub's schema) is found at test time.

Beside the repository root by default; `TIDINGS_SHARED` names it where the checkout lives
elsewhere (a git worktree, say). Its text is read at run time, never copied into the project.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_ENV = "TIDINGS_SHARED"


def shared_dir() -> Path:
    override = os.environ.get(SHARED_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1].parent / "shared"


def shared_or_skip(path: Path, needs: str) -> Path:
    """`path`, or a skip saying what needs it; under CI=true its absence is a failure."""
    if path.exists():
        return path
    reason = f"{path} is absent: {needs} (set {SHARED_ENV} if ../shared lives elsewhere)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it")
    pytest.skip(reason)
