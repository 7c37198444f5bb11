"""Times, ids and SHAs derived from the story: the same story always gives the same values."""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime

from demo_sample.model import Frame

_STAMP = re.compile(r"^(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$")


def digest(*parts: object) -> str:
    return hashlib.sha1(":".join(map(str, parts)).encode()).hexdigest()


def at(stamp: str, salt: str, frame: Frame) -> datetime:
    """Local wall time "MM-DD HH:MM[:SS]" as UTC; missing seconds come from the salt."""
    m = _STAMP.match(stamp)
    if not m:
        raise ValueError(f"bad time {stamp!r}")
    month, day, hour, minute = (int(g) for g in m.groups()[:4])
    second = int(m[5]) if m[5] else int(digest(stamp, salt)[:8], 16) % 60
    local = datetime(frame.year, month, day, hour, minute, second, tzinfo=frame.tz)
    return local.astimezone(UTC)


def ids(base: int, salt: str, n: int) -> list[int]:
    """n increasing ids with irregular gaps, as GitHub's global sequences look from one repo."""
    out, current = [], base
    for i in range(n):
        current += 1 + int(digest(salt, i)[:6], 16) % 4000
        out.append(current)
    return out


def node(prefix: str, value: int) -> str:
    """A GraphQL node id of the given type prefix."""
    return prefix + digest(prefix, value)[:16]
