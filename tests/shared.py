"""A test that reads `../shared` (testkit/shared.py says where it is) skips with a stated reason
where the file is absent, and fails where CI=true promises it is there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from testkit.shared import SHARED_ENV


def shared_or_skip(path: Path, needs: str) -> Path:
    """`path`, or a skip saying what needs it; under CI=true its absence is a failure."""
    if path.exists():
        return path
    reason = f"{path} is absent: {needs} (set {SHARED_ENV} if ../shared lives elsewhere)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it")
    pytest.skip(reason)
