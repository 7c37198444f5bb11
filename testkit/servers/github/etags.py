"""ETags and conditional requests: what a REST answer is tagged with, and when `If-None-Match`
earns a 304."""

from __future__ import annotations

import hashlib


def _etag(body: bytes, link: str | None) -> str:
    """The strong ETag of a REST answer: its body and its Link header."""
    return '"' + hashlib.sha256(body + (link or "").encode()).hexdigest() + '"'


def _etag_matches(header: str, tag: str) -> bool:
    wanted = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in wanted or tag in wanted
