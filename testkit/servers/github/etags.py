"""ETags and conditional requests: what a REST answer is tagged with, and when `If-None-Match`
or `If-Modified-Since` earns a 304.

GitHub binds an ETag to the credential that asked: the same answer for another token carries
another ETag, so that token's `If-None-Match` with the first one's tag is a paid 200 (GitHub
support, quoted in eclipse-csi/otterdog#201; github/docs#34689). A workflow that gets a new
`GITHUB_TOKEN` every job never sees a 304 from an ETag it stored the day before.
`If-Modified-Since` compares a time, not a tag, so it holds across tokens; GitHub answers it where
it sends `Last-Modified` (the repository object, whose `Last-Modified` is its `updated_at`), and
as HTTP says (RFC 9110, 13.2.2) it is ignored when `If-None-Match` is sent too.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.utils import format_datetime, parsedate_to_datetime


def _etag(body: bytes, link: str | None, token: str) -> str:
    """The strong ETag of a REST answer: its body, its Link header and the token that asked."""
    digest = hashlib.sha256(body + (link or "").encode() + b"\0" + token.encode())
    return '"' + digest.hexdigest() + '"'


def _etag_matches(header: str, tag: str) -> bool:
    wanted = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in wanted or tag in wanted


def _http_date(value: datetime) -> str:
    """`Last-Modified`'s spelling: an HTTP-date in GMT, to the second."""
    return format_datetime(value.astimezone(UTC).replace(microsecond=0), usegmt=True)


def _unmodified_since(header: str, last_modified: datetime) -> bool:
    """Does `If-Modified-Since: header` earn a 304 for a resource last modified then? An
    unreadable date is ignored, as HTTP asks (the answer is then a full 200)."""
    try:
        since = parsedate_to_datetime(header)
    except (TypeError, ValueError, IndexError):
        return False
    if since.tzinfo is None:
        return False
    return last_modified.astimezone(UTC).replace(microsecond=0) <= since
