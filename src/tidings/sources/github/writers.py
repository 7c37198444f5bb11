"""How the stages hand what they read to the store, counting it in the sync summary."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tidings.sources.github.context import SyncContext
from tidings.store import Connection, items
from tidings.store.rows import write_admitted

# Writes a page's records in the page's transaction; how many rows were written.
Write = Callable[[Connection, Sequence[Any]], int]


def write_items(ctx: SyncContext) -> Write:
    def write(conn: Connection, records: Sequence[Any]) -> int:
        written = items.write_listed(ctx.store, conn, ctx.repo_id, records, ctx.note)
        ctx.report.items += written
        return written

    return write


def write_plain(ctx: SyncContext) -> Write:
    """Comments, reviews or review comments, counted in the summary (reviews by the caller)."""

    def write(conn: Connection, records: Sequence[Any]) -> int:
        written = write_admitted(ctx.store, conn, ctx.repo_id, records, ctx.note)
        ctx.report.comments += written.get("comment", 0)
        ctx.report.review_comments += written.get("review_comment", 0)
        return sum(written.values())

    return write
