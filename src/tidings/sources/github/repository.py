"""Stage 1: the repository itself, which validates the name and the token before anything
is written, and costs nothing (a 304) when it is unchanged."""

from __future__ import annotations

from tidings.errors import SourceError
from tidings.sources.github import normalize as nz
from tidings.sources.github import shapes
from tidings.sources.github.client import NotFoundError
from tidings.sources.github.context import SyncContext
from tidings.store.rows import update_repository


def read_repository(ctx: SyncContext) -> None:
    """Read the repository's record and set `ctx.repo_id` (making the store's row if new)."""
    store = ctx.store
    path = f"/repos/{ctx.full_name}"
    url = ctx.client.url_for(path)
    with store.begin() as conn:
        known = store.repo_id(conn, ctx.full_name)
        etag = store.get_etag(conn, url) if known is not None else None
    try:
        resp = ctx.client.get(path, etag=etag, parse=shapes.rest_object(nz.repository_from_rest))
    except NotFoundError:
        raise SourceError(
            f"repository {ctx.full_name} not found or not visible to this token",
            "check the name (OWNER/NAME) and that the token can read it",
        ) from None
    if resp.not_modified and known is not None:
        ctx.repo_id = known
        return
    record = resp.parsed
    if record.full_name.lower() != ctx.full_name.lower():
        # Renamed or transferred: GitHub redirected us. Keep the name the user asked for so
        # the next sync finds this row; the requests keep following the redirect.
        ctx.say(f"{ctx.full_name} is now {record.full_name} on GitHub", warn=False)
        record = record.model_copy(update={"full_name": ctx.full_name})
    with store.begin() as conn:
        ctx.repo_id = store.repo_id(conn, ctx.full_name, create=True) or 0
        update_repository(conn, ctx.repo_id, record)
        store.set_etag(conn, url, resp.etag)
