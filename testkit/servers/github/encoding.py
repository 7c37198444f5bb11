"""Values as GitHub spells them: timestamps, ids and node ids, shas, JSON bodies, actor types."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from datetime import UTC, datetime
from typing import Any

from testkit.servers.github.constants import ACTOR_TYPES, REACTION_KEYS


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _epoch(value: datetime | None) -> int:
    return int(value.timestamp()) if value else 0


def _stable_int(*parts: object) -> int:
    """A deterministic positive id for things records lack ids for; it fits GraphQL's 32-bit
    `Int`, so `databaseId` works for them (ids from records are served as they are)."""
    digest = hashlib.sha1("\0".join(map(str, parts)).encode("utf-8", "surrogatepass")).digest()
    return (int.from_bytes(digest[:4], "big") & 0x7FFFFFFF) or 1


def _node_id(prefix: str, number: int) -> str:
    """An opaque node id in GitHub's current style (`PR_kwDOABCD...`)."""
    packed = base64.urlsafe_b64encode(number.to_bytes(8, "big")).decode().rstrip("=")
    return f"{prefix}_kwDO{packed}"


def _sha(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _json(payload: Any) -> bytes:
    # UTF-8 as GitHub sends it; a lone surrogate (half an emoji a truncation cut) has no UTF-8
    # spelling, and GitHub writes it as the JSON escape "\\ud83d", which Python decodes back.
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode()


def _clean_reactions(reactions: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in reactions.items() if k in REACTION_KEYS and v}


def _actor_type(login: str | None, declared: str | None) -> str | None:
    if login is None:
        return None
    if declared in ACTOR_TYPES:
        return declared
    return "Bot" if login.endswith("[bot]") else "User"


def _actor_node_id(login: str, kind: str) -> str:
    prefix = {"Bot": "BOT", "Organization": "O", "Mannequin": "MDE"}.get(kind, "U")
    return _node_id(prefix, _stable_int("user", login.lower()))
