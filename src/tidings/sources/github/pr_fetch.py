"""Reading a batch of PRs' details, everything before anything is written: the details query,
continuation pages of every nested connection (no silent caps), the REST ids of reviews
GraphQL gave none, and the REST file list of a PR too large for GraphQL's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tidings.sources.github import normalize as nz
from tidings.sources.github import pages, queries, shapes
from tidings.sources.github.client import GraphQLQueryError, GraphQLTooLarge, NotFoundError
from tidings.sources.github.context import SyncContext, log
from tidings.sources.github.pr import FIELD_COLUMNS, FILES_CAP, PRAnswer
from tidings.store import comments

CONTINUATION_BATCH = 10


def details_query(
    ctx: SyncContext,
    build: Callable[[str], str],
    shrinkable: bool,
    check: shapes.GraphQLCheck,
    what: str,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run a PR details query, falling back to `databaseId` on servers that lack
    `fullDatabaseId` (older GitHub Enterprise): one refused query, once per sync."""
    while True:
        try:
            return ctx.client.graphql_answer(
                build(ctx.review_id),
                ctx.vars,
                shrinkable=shrinkable,
                check=check,
                what=what,
            )
        except GraphQLQueryError as exc:
            field_name = ctx.review_id
            fallback = queries.REVIEW_ID_FIELDS[-1]
            if field_name == fallback or not any(field_name in m for m in exc.messages):
                raise
            log.info("%s: the server has no %s; using %s", ctx.full_name, field_name, fallback)
            ctx.review_id = fallback


def fetch_prs(
    ctx: SyncContext, batch: Sequence[int], page: int, *, shrinkable: bool
) -> dict[int, PRAnswer | None]:
    """Everything about a batch of PRs (None: GitHub has no PR under that number)."""
    data, errors = details_query(
        ctx,
        lambda rid: queries.pr_details(batch, rid, page),
        shrinkable=shrinkable,
        check=shapes.pr_details(batch),
        what="pull request details",
    )
    repo = data["repository"]
    prs: dict[int, PRAnswer | None] = {}
    for number in batch:
        alias = f"p{number}"
        node = repo[alias]
        if node is None:
            prs[number] = None
            continue
        pr = PRAnswer(node=node)
        for connection in queries.CONNECTIONS:
            pr.add(
                connection,
                node[connection],
                shapes.forbidden_at(errors, ["repository", alias, connection]),
            )
        for name in FIELD_COLUMNS:
            why = shapes.forbidden_at(errors, ["repository", alias, name])
            if why is not None:
                pr.refused[name] = why
        prs[number] = pr
    found = [pr for pr in prs.values() if pr is not None]
    _complete(ctx, found, page)
    _review_ids(ctx, found)
    for pr in found:
        if pr.rest_files:
            _rest_files(ctx, pr)
    return prs


def _complete(ctx: SyncContext, prs: Sequence[PRAnswer], page: int) -> None:
    """Fetch every remaining page of every PR's nested connections."""
    by_number = {pr.number: pr for pr in prs}
    todo = [
        queries.Continuation(number, connection, after)
        for number, pr in by_number.items()
        for connection, after in pr.incomplete.items()
    ]
    size = CONTINUATION_BATCH
    while todo:
        chunk = todo[:size]

        def build(rid: str, chunk: list[queries.Continuation] = chunk, page: int = page) -> str:
            return queries.continuations(chunk, rid, page)

        try:
            data, errors = details_query(
                ctx,
                build,
                shrinkable=len(chunk) > 1 or page > queries.MIN_PAGE,
                check=shapes.continuations(chunk),
                what="pull request details (continued)",
            )
        except GraphQLTooLarge:
            if len(chunk) > 1:
                size = max(1, len(chunk) // 2)
            else:
                page = max(queries.MIN_PAGE, page // 2)
            continue
        todo = todo[len(chunk) :]
        repo = data["repository"]
        for i, part in enumerate(chunk):
            pr = by_number[part.number]
            node = repo[f"c{i}"]
            if node is None:
                # The PR vanished between pages: what was read stays, nothing is inferred.
                pr.lost.add(part.connection)
                pr.incomplete.pop(part.connection, None)
                continue
            refused = shapes.forbidden_at(errors, ["repository", f"c{i}", part.connection])
            pr.add(part.connection, node[part.connection], refused)
            if part.connection in pr.incomplete:
                todo.append(
                    queries.Continuation(
                        part.number, part.connection, pr.incomplete[part.connection]
                    )
                )


def _rest_files(ctx: SyncContext, pr: PRAnswer) -> None:
    """GraphQL answered `files: null` (and `changedFiles: 0`) for a very large PR: list its
    files by REST, which stops at 3,000 too, and take the true count from the PR's REST
    record, so a list cut short is marked incomplete rather than taken as whole."""
    number = pr.number
    base = f"/repos/{ctx.full_name}/pulls/{number}"
    try:
        pull = ctx.client.get(base, parse=shapes.rest_object(nz.pull_sizes_from_rest))
    except NotFoundError:
        pr.unread["files"] = "GitHub has no REST record of the pull request"
        return
    pr.rest_sizes = pull.parsed
    listed = pages.list_all(
        ctx, f"{base}/files", lambda row: nz.file_from_rest(row, number), limit=FILES_CAP
    )
    if listed is None:
        pr.unread["files"] = "GitHub has no file list for the pull request"
        return
    files, complete = listed
    pr.file_records = list({record.path: record for record in files}.values())
    if not complete:
        pr.lost.add("files")


def _review_ids(ctx: SyncContext, prs: Sequence[PRAnswer]) -> None:
    """Fill in the REST id of reviews whose `fullDatabaseId` GitHub answered null: the id
    stored with the same node id, else the PR's REST review listing's; a review still
    without one is left out with a note, as the other incomplete lists are."""
    for pr in prs:
        reviews = pr.nodes.get("reviews", {})
        missing = [n for n in reviews.values() if nz.review_id(n) is None]
        if not missing:
            continue
        number = int(pr.node["number"])
        with ctx.store.begin() as conn:
            ids = comments.review_ids(conn, ctx.repo_id, number, [n.get("id") for n in missing])
        if any(n.get("id") not in ids for n in missing):
            listed = pages.list_all(
                ctx, f"/repos/{ctx.full_name}/pulls/{number}/reviews", shapes.rest_review_ids
            )
            ids.update(nz.review_ids_from_rest(listed[0] if listed else []))
        for node in missing:
            if node.get("id") in ids:
                node["fullDatabaseId"] = str(ids[node["id"]])
            else:
                reviews.pop(node.get("id") or "", None)
                pr.noted.add("reviews")
                ctx.say(f"#{number}: review {node.get('id')} has no id on GitHub; left out")
