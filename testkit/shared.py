"""Where `../shared` (seed reports, real data, GitHub's schema) is found by tests and benchmarks.

Beside the repository root by default; `TIDINGS_SHARED` names it where the checkout lives
elsewhere (a git worktree, say). Its text is read at run time, never copied into the project.
tests/shared.py turns an absent file into a stated skip (a failure under CI=true).
"""

from __future__ import annotations

import os
from pathlib import Path

SHARED_ENV = "TIDINGS_SHARED"


def shared_dir() -> Path:
    override = os.environ.get(SHARED_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1].parent / "shared"
