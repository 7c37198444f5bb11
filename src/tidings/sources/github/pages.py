"""Listing a small per-item collection by page number: an item's comments, a PR's files or
reviews. (Repository-wide listings are paged by `since`, not by page: listing.py.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from tidings.sources.github import shapes
from tidings.sources.github.client import NotFoundError, PageTooDeep
from tidings.sources.github.context import SyncContext

T = TypeVar("T")

# Rows a page, GitHub's largest. A module attribute read at each use, so a test can shrink it.
PER_PAGE = 100


def list_all(
    ctx: SyncContext, path: str, convert: Callable[[Any], T], *, limit: int | None = None
) -> tuple[list[T], bool] | None:
    """Every row of a small per-item listing by page number, and whether that is all of it;
    None if the item is gone. Each page is parsed whole (shapes.py). A listing GitHub stops
    paging (422 for a page too deep) comes back incomplete, so nothing absent from it is taken
    as deleted. `limit` is where GitHub stops a listing anyway (3,000 files)."""
    rows: list[T] = []
    page = 1
    while True:
        params: dict[str, Any] = {"per_page": PER_PAGE}
        if page > 1:
            params["page"] = page
        try:
            resp = ctx.client.get(path, params, parse=shapes.rest_list(convert))
        except NotFoundError:
            return None
        except PageTooDeep:
            if page == 1:
                raise
            ctx.note(f"GitHub lists only {len(rows)} rows of {path} (page {page} refused)")
            return rows, False
        chunk: list[T] = resp.parsed
        rows.extend(chunk)
        if len(chunk) < PER_PAGE or (limit is not None and len(rows) >= limit):
            return rows, True
        page += 1
