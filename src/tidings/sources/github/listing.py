"""Stages 2 and 3: the three repository-wide `since` listings, paged by keyset on `since`.

Issues (PRs included), issue comments and review comments, each `sort=updated&direction=asc`,
100 a page. After a page is committed the next request asks for `since` = the newest
`updated_at` on that page; `since` is inclusive, so rows sharing that second are read twice and
deduplicated by id (upserts are idempotent), and a row updated while we page moves to the end
and is read later, so nothing is skipped. A full page that is all one second cannot move the
keyset, so it falls back to `page=2,3…` of the same `since`; GitHub refuses deep `page=` values
(422), and then the rest of that second is read another way (same_second.py). Each page's rows
and the stream's cursor commit in one transaction; the cursor is the `since` of the last
request made (`|N` for page N of a one-second run), and the ETag of the final short page is kept
so an unchanged re-sync costs 304s (on the same token: GitHub binds ETags to it). A stream has
changed only if a page holds a row the store lacks or holds as of an older update.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tidings.common.records import Record
from tidings.sources.github import normalize as nz
from tidings.sources.github import pages, same_second, shapes
from tidings.sources.github.client import PageTooDeep, RequestFailed
from tidings.sources.github.context import SyncContext, log
from tidings.sources.github.writers import Write, write_items, write_plain
from tidings.store import Connection, comments, items, owed
from tidings.store.limits import EARLIEST, END
from tidings.store.rows import record_problem


def parse_cursor(cursor: str | None) -> tuple[str | None, int]:
    """A stream cursor is the `since` of its last request ("" = from the beginning), with
    `|N` when that request was page N of a run of items sharing one timestamp."""
    if not cursor:
        return None, 1
    since, _, page = cursor.partition("|")
    return since or None, int(page) if page.isdigit() else 1


def format_cursor(since: str | None, page: int) -> str:
    return (since or "") + (f"|{page}" if page > 1 else "")


def read_streams(ctx: SyncContext) -> bool:
    """Read the three listings to their ends; True if GitHub had anything new."""
    changed = False
    changed |= read_stream(
        ctx, "issues", "issues", "/issues", {"state": "all"}, nz.item_from_rest, write_items(ctx)
    )
    changed |= read_stream(
        ctx, "comments", "comments", "/issues/comments", {}, nz.comment_from_rest, write_plain(ctx)
    )
    changed |= read_stream(
        ctx,
        "review_comments",
        "review comments",
        "/pulls/comments",
        {},
        nz.review_comment_from_rest,
        write_plain(ctx),
    )
    return changed


def read_stream(
    ctx: SyncContext,
    stream: str,
    stage: str,
    suffix: str,
    extra: Mapping[str, str],
    convert: Callable[[Any], Record],
    write: Write,
) -> bool:
    """Read one `since` listing to its end; True if GitHub had anything new."""
    store, client = ctx.store, ctx.client
    path = f"/repos/{ctx.full_name}{suffix}"
    with store.begin() as conn:
        cursor = store.get_cursor(conn, ctx.repo_id, stream)
    # An ETag is only trusted once this repository's stream has committed a page: the
    # cache table outlives a repository removed from the store.
    trust_etags = cursor is not None
    since, page = parse_cursor(cursor)
    if ctx.since:
        since, page = nz.format_time(ctx.since), 1
    resuming = page > 1
    done = 0
    changed = False
    ctx.progress(stage, 0, None)
    while True:
        params: dict[str, Any] = {
            **extra,
            "sort": "updated",
            "direction": "asc",
            "per_page": pages.PER_PAGE,
        }
        if since:
            params["since"] = since
        if page > 1:
            params["page"] = page
        url = client.url_for(path, params)
        etag = None
        if trust_etags:
            with store.begin() as conn:
                etag = store.get_etag(conn, url)
        # The page is parsed whole before anything of it is used: a `{}` or an error
        # object is retried and then fails, never read as the end of the stream.
        try:
            resp = client.get(path, params, etag=etag, parse=shapes.since_list(convert, since))
        except RequestFailed:
            if etag:
                # The answer kept being wrong (client.py re-read it unconditionally): the tag
                # stored for it may be a wrong answer's too, so the next sync reads it whole.
                with store.begin() as conn:
                    store.forget_etag(conn, url)
            raise
        except PageTooDeep:
            if page <= 1 or since is None:
                raise
            # Only a run of rows sharing one second is paged by number, and every page before
            # this one was all that second: the keyset cannot move, so the rest of the second
            # is read another way, and then the listing goes on after it.
            since = same_second.read_rest_of_second(ctx, stream, stage, since, page, write)
            page, resuming = 1, False
            with store.begin() as conn:
                _owe_totals(ctx, conn, stage)
            changed = True
            continue
        if resp.not_modified:
            break
        listed: list[Any] = resp.parsed
        if resuming:
            resuming = False
            if not listed or nz.format_time(listed[0].updated_at) != since:
                # Items of the one-timestamp run we were paging through have moved on, so
                # page numbers no longer line up with what was read: start the run again.
                page = 1
                continue
        # A row the store cannot hold (a year-9999 time, a number beyond its column) is
        # skipped with a note when written, and never moves the cursor: a time far in the
        # future would pin `since` there and hide every later change.
        times = [r.updated_at for r in listed if EARLIEST <= r.updated_at < END]
        full = len(listed) >= pages.PER_PAGE
        next_since, next_page = since, page + 1
        if full and times:
            newest = nz.format_time(max(times))
            if newest != since:
                next_since, next_page = newest, 1
        if stream != "issues":
            ctx.parents.update(r.number for r in listed)
        with store.begin() as conn:
            if _news(ctx, conn, stream, listed):
                _owe_totals(ctx, conn, stage)
                changed = True
            written = write(conn, listed)
            if full:
                store.set_cursor(conn, ctx.repo_id, stream, format_cursor(next_since, next_page))
            else:
                store.set_cursor(conn, ctx.repo_id, stream, format_cursor(since, page))
                # An empty answer is never kept for a 304: a wrong `[]` carrying the real
                # ETag would otherwise be repeated for good. (A true one is rare: `since`
                # is inclusive and comes from rows we read; an empty stream costs one
                # request a sync.)
                if listed:
                    store.set_etag(conn, url, resp.etag)
        done += written
        ctx.progress(stage, done, None)
        if not full:
            break
        since, page = next_since, next_page
    log.info("%s: %s stream read %d rows", ctx.full_name, stage, done)
    return changed


def _owe_totals(ctx: SyncContext, conn: Connection, stage: str) -> None:
    """Something changed, so a deletion may hide behind it: the totals check (reconcile.py)
    is owed until one succeeds, whatever becomes of this sync."""
    owed.owe_totals(ctx.store, conn, ctx.repo_id, f"the {stage} listing changed")


def _news(ctx: SyncContext, conn: Connection, stream: str, listed: Sequence[Any]) -> bool:
    """Does the page hold a row the store lacks, or holds as of an older update? A page read
    again only because its ETag was another token's (a new token every Actions job: see
    repository.py) holds none, and must not count as a change, which costs the totals check
    (reconcile.py) on an otherwise quiet re-sync."""
    # A row the store cannot hold (store/limits.py) is skipped when written, and a number
    # past a column's range cannot even be asked for.
    listed = [x for x in listed if record_problem(x) is None]
    if not listed:
        return False
    if stream == "issues":
        held = items.updated_times(conn, ctx.repo_id, [x.number for x in listed])
        times = [(x.number, x.updated_at) for x in listed]
    else:
        kind: comments.Kind = "comment" if stream == "comments" else "review_comment"
        held = comments.updated_times(conn, ctx.repo_id, kind, [x.id for x in listed])
        times = [(x.id, x.updated_at) for x in listed]
    return any(key not in held or held[key] < updated for key, updated in times)
