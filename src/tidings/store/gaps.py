"""What a sync could not read of an item, kept so reports can say so.

GitHub sometimes answers an item's details only in part: a very large PR's file list stops at
3,000 files, an organisation restricting OAuth apps refuses one field (reviews, say) with
`FORBIDDEN`. The sync keeps what it read and records the gap here, one `sync_state` stream per
item (`gap:NUMBER`, the cursor a JSON object `{part: what is missing}`), so no table or
migration is needed for what is rare, snapshots carry it, and a later complete read clears it.
Its `updated_at` stays empty: these rows say nothing about how far a sync got, which is what
the other streams' times tell facts/coverage.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema
from tidings.store.db import Store

PREFIX = "gap:"
# The parts a GitHub sync's patch stage records (sources/github/patches.py): a phrase naming
# the files whose diff was not read, and their count, kept apart so that a report can state
# the number without reading it back out of a phrase that holds untrusted paths.
PATCHES = "patches"
UNREAD_DIFFS = "unread_diffs"
# The count in a phrase written before UNREAD_DIFFS was: each part of it starts with one.
_LEGACY_COUNT = re.compile(
    r"(?:^|; )(\d+) files? (?:without a patch from GitHub|past [\d,]+ characters of hunks"
    r"|past the first \d+ not read)"
)


def gap_stream(number: int) -> str:
    return f"{PREFIX}{number}"


def write_gaps(
    store: Store, conn: Connection, repo_id: int, number: int, gaps: Mapping[str, str]
) -> None:
    """Record the parts of item `number` the last read left incomplete (none: clear them)."""
    put_state(store, conn, repo_id, gap_stream(number), dict(gaps) or None)


def put_state(
    store: Store, conn: Connection, repo_id: int, stream: str, value: object | None
) -> None:
    """Keep `value` (JSON) as the cursor of a bookkeeping stream, or drop the stream (None).
    No time is stamped: see the module docstring."""
    t = schema.sync_state
    if value is None:
        conn.execute(t.delete().where(t.c.repo_id == repo_id, t.c.stream == stream))
        return
    cursor = json.dumps(value, sort_keys=True, ensure_ascii=False)
    store.upsert(
        conn, t, [{"repo_id": repo_id, "stream": stream, "cursor": cursor, "updated_at": None}]
    )


def item_gaps(conn: Connection, repo_id: int, number: int) -> dict[str, str]:
    """Item `number`'s recorded gaps (see read_gaps)."""
    t = schema.sync_state
    cursor = conn.execute(
        sa.select(t.c.cursor).where(t.c.repo_id == repo_id, t.c.stream == gap_stream(number))
    ).scalar_one_or_none()
    try:
        gaps = json.loads(cursor or "{}")
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in gaps.items()} if isinstance(gaps, dict) else {}


def read_gaps(conn: Connection, repo_id: int) -> dict[int, dict[str, str]]:
    """Item number -> {part: what is missing}, for every item with a recorded gap."""
    t = schema.sync_state
    rows = conn.execute(
        sa.select(t.c.stream, t.c.cursor).where(
            t.c.repo_id == repo_id, t.c.stream.startswith(PREFIX, autoescape=True)
        )
    )
    out: dict[int, dict[str, str]] = {}
    for stream, cursor in rows:
        number = stream.removeprefix(PREFIX)
        try:
            gaps = json.loads(cursor or "{}")
        except ValueError:
            continue  # not ours to interpret: a hand-edited snapshot, say
        if number.isdigit() and isinstance(gaps, dict):
            out[int(number)] = {str(k): str(v) for k, v in gaps.items()}
    return out


def unread_diffs(gaps: Mapping[str, str], changed_files: int | None = None) -> int:
    """How many of a PR's files have no diff in the store because the patch stage could not
    read one (GitHub gave none, or past tidings' bounds), from its recorded gaps; 0 when none
    is recorded. A phrase without the count (an older sync's) is read for its numbers, and
    "no file list at all" counts the PR's `changed_files`."""
    count = gaps.get(UNREAD_DIFFS)
    if count is not None and count.isdigit():
        return int(count)
    phrase = gaps.get(PATCHES)
    if phrase is None:
        return 0
    found = [int(m.group(1)) for m in _LEGACY_COUNT.finditer(phrase)]
    return sum(found) if found else (changed_files or 0)
