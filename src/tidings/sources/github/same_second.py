"""The rest of a second that the issues listing cannot page through.

The `since` listings are paged by keyset (listing.py); only a run of 100+ rows sharing one
second is paged by number, and GitHub refuses deep `page=` values (422, "Pagination with the
page parameter is not supported for large datasets"). Every page before the refused one was all
that second, so asking again from the same `since` gets the same first page: no progress is
possible by REST. Stepping `since` past the second would lose its unread rows until they next
change, so instead the numbers of the items updated in that second are listed by GraphQL, whose
connections are paged by cursor with no depth limit (issues filtered by `since`, oldest first;
PRs, which GitHub filters by nothing, newest first down to that second), and each item not yet
stored at that time is read by REST one by one, in exactly the shape the listing gives. Only
then does the listing go on, from the next second. A bulk edit (a label or milestone put on
hundreds of items at once) is what makes such a run.

Comments have no other repository-wide listing. A comment listing refused this way goes on
after the second, and the comments made in it are read with their threads: each moved its
item's `updated_at`, so the count check (reconcile.py) finds the thread short and re-lists it.
Only an edit made in that second to a comment already stored is missed until it next changes.

One edge this cannot see: a PR whose only change in that second was a comment (which moves its
issue record's time, not its pull request record's, and GraphQL orders PRs by the latter). It is
read again when it next changes.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from tidings.common.records import ItemRecord
from tidings.sources.github import normalize as nz
from tidings.sources.github import queries, shapes
from tidings.sources.github.client import NotFoundError
from tidings.sources.github.context import SyncContext
from tidings.sources.github.writers import Write
from tidings.store import items

BATCH = 100  # items fetched one by one, written a transaction at a time


def read_rest_of_second(
    ctx: SyncContext,
    stream: str,
    stage: str,
    since: str,
    page: int,
    write: Write,
) -> str:
    """Read every row of the second `since` that page `page` of the listing would have begun
    to give, and move the stream's cursor past it; the `since` to go on from."""
    second = nz.parse_time(since)
    if second is None:  # `since` comes from a stored cursor or a time we formatted
        raise ValueError(f"bad since {since!r}")
    after = nz.format_time(second + timedelta(seconds=1))
    if stream != "issues":
        return _step_past(ctx, stream, stage, since, page, second, after)
    numbers = _numbers_at(ctx, "issues", second) | _numbers_at(ctx, "pullRequests", second)
    with ctx.store.begin() as conn:
        stored = items.updated_times(conn, ctx.repo_id, numbers)
    # Stored at that second or later: read already (upserts of one version are identical).
    todo = sorted(n for n in numbers if n not in stored or stored[n] < second)
    batch: list[ItemRecord] = []
    for done, number in enumerate(todo, 1):
        record = _read_item(ctx, number)
        if record is not None:
            batch.append(record)
        if len(batch) >= BATCH or done == len(todo):
            with ctx.store.begin() as conn:
                write(conn, batch)
            batch = []
    with ctx.store.begin() as conn:
        # Every row of the second is stored: the listing may now go on after it.
        ctx.store.set_cursor(conn, ctx.repo_id, stream, after)
    ctx.note(
        f"GitHub refused page {page} of the {stage} listing as too deep; read the rest of "
        f"the second {since} by GraphQL and {len(todo)} item request(s) instead"
    )
    return after


def _step_past(
    ctx: SyncContext, stream: str, stage: str, since: str, page: int, second: datetime, after: str
) -> str:
    """Comments of a second too deep to page through: go on after it. A comment made in that
    second moved its item's `updated_at` to it or later, so the count check (reconcile.py)
    finds the thread short and re-lists it; those items are re-checked even in a `--since`
    sync. Only an edit made in that second, to a comment that was already stored, waits until
    the comment next changes."""
    with ctx.store.begin() as conn:
        ctx.recheck.update(items.updated_since(conn, ctx.repo_id, second))
        ctx.store.set_cursor(conn, ctx.repo_id, stream, after)
    ctx.note(
        f"GitHub refused page {page} of the {stage} listing as too deep; went on after the "
        f"second {since}: its new {stage} are read with their threads, an edit made in it "
        "when the comment next changes"
    )
    return after


def _read_item(ctx: SyncContext, number: int) -> ItemRecord | None:
    """Item `number` as the issues listing gives it; None if it is gone (or transferred: a
    redirect to another item), which the totals check sees to."""
    try:
        resp = ctx.client.get(
            f"/repos/{ctx.full_name}/issues/{number}",
            parse=shapes.rest_object(nz.item_from_rest),
        )
    except NotFoundError:
        return None
    record: ItemRecord = resp.parsed
    return record if record.number == number else None


def _numbers_at(ctx: SyncContext, connection: str, second: datetime) -> set[int]:
    """Numbers of the issues or PRs GitHub says were last updated in `second`."""
    query = queries.items_by_update(connection)
    check = shapes.items_by_update(connection)
    variables: dict[str, Any] = dict(ctx.vars)
    if connection == "issues":
        variables["since"] = nz.format_time(second)
    found: set[int] = set()
    cursor: str | None = None
    while True:
        data = ctx.client.graphql(
            query, {**variables, "after": cursor}, check=check, what=f"{connection} by update"
        )
        conn = data["repository"][connection]
        beyond = False
        for node in conn["nodes"]:
            at = nz.parse_time(node["updatedAt"])
            if at == second:
                found.add(int(node["number"]))
            elif at is not None and (at > second if connection == "issues" else at < second):
                beyond = True  # ordered by time: nothing of that second follows
        info = conn["pageInfo"]
        if beyond or not info["hasNextPage"]:
            return found
        cursor = info["endCursor"]
