"""Stage 1: the repository itself, which validates the name and the token before anything
is written, and costs nothing (a 304) when it is unchanged.

What GitHub documents: most endpoints send an ETag and many a `Last-Modified`, either can be
sent back (If-None-Match, If-Modified-Since), and a 304 to a conditional request made with an
Authorization header does not count against the primary rate limit ("Best practices for using
the REST API", conditional requests). What it does not say, and its support does (quoted in
eclipse-csi/otterdog#201, and github/docs#34689): ETags are bound to the token, so the
Actions recipe, whose `GITHUB_TOKEN` is new every job, never gets a 304 from an ETag stored
the day before. The repository is therefore asked with If-Modified-Since, a time that holds
across tokens: its `Last-Modified` is its `updated_at`, which moves when its settings do (name,
description, default branch: what the store keeps of it) and with stars and forks, but not
with pushes or issues, which change its ETag on nearly every sync of an active repository.
Where no `Last-Modified` was kept (a store from before), the ETag is sent as before.
"""

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
    etag = modified = None
    with store.begin() as conn:
        known = store.repo_id(conn, ctx.full_name)
        if known is not None:
            etag, modified = store.get_etag(conn, url), store.get_last_modified(conn, url)
    try:
        resp = ctx.client.get(
            path,
            etag=None if modified else etag,
            modified_since=modified,
            parse=shapes.rest_object(nz.repository_from_rest),
        )
    except NotFoundError:
        raise SourceError(
            f"repository {ctx.full_name} not found or not visible to this token",
            "check the name (OWNER/NAME) and that the token can read it",
        ) from None
    if resp.not_modified and known is not None:
        ctx.repo_id = known
        if modified is None and resp.last_modified:
            # A store from before Last-Modified was kept: from now on, any token's 304.
            with store.begin() as conn:
                store.set_etag(conn, url, etag, resp.last_modified)
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
        store.set_etag(conn, url, resp.etag, resp.last_modified)
