"""Stage 5: deletions, by count reconciliation.

`since` listings never report deletions. For each item changed since it was last checked
(`checked_updated_at != updated_at`) the stored comment count is compared with GitHub's
`comments` (and, for PRs, review comments with the reviews' comment counts); only on a mismatch
are that item's comments re-listed and the rows no longer returned marked `deleted` (never
removed). The repository's issue and PR totals are compared too whenever that check is owed —
from the moment a listing page changes the store until a check accounts for everything
(store/owed.py), so a failed check is paid by a later quiet sync — or asked for (`verify`). If
the store holds more than GitHub counts, the missing are found by counting creation ranges
(missing.py: about k·log n queries for k deletions among n items) or, where that would cost as
much, by listing every number. Absence is weak evidence: deletions.py decides what an answer
proves.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from tidings.sources.github import normalize as nz
from tidings.sources.github import queries, shapes
from tidings.sources.github.client import NotFoundError
from tidings.sources.github.context import SyncContext, log
from tidings.sources.github.deletions import SMALL_LOSS, proven_gone
from tidings.sources.github.missing import find_gone
from tidings.sources.github.pages import list_all
from tidings.sources.github.writers import write_plain
from tidings.store import comments, items, owed

CHECKED_BATCH = 500  # items marked checked a transaction


def reconcile_items(ctx: SyncContext) -> None:
    """Compare each changed item's comment counts with GitHub's; re-list a thread only when
    they disagree."""
    with ctx.store.begin() as conn:
        candidates = items.unchecked(conn, ctx.repo_id)
        if not candidates:
            # A quiet re-sync: nothing changed, so nothing is counted and no history read.
            ctx.progress("reconcile", 0, 0)
            return
        # Only the candidates' comments are counted, so this costs what the sync changed, not
        # the repository's history.
        stored_comments = comments.live_counts(
            conn, ctx.repo_id, "comment", (item["number"] for item in candidates)
        )
        stored_review_comments = comments.live_counts(
            conn,
            ctx.repo_id,
            "review_comment",
            (item["number"] for item in candidates if item["kind"] == "pr"),
        )
    total = len(candidates)
    ctx.progress("reconcile", 0, total)
    agreed: list[int] = []
    for done, item in enumerate(candidates, 1):
        number = item["number"]
        bad_comments = _mismatch(
            ctx, number, stored_comments.get(number, 0), item["comments_count"]
        )
        bad_reviews = item["kind"] == "pr" and _mismatch(
            ctx, number, stored_review_comments.get(number, 0), item["review_comments_count"]
        )
        if bad_comments or bad_reviews:
            _relist(
                ctx,
                number,
                item["updated_at"],
                item["comments_count"] if bad_comments else None,
                item["review_comments_count"] if bad_reviews else None,
            )
        else:
            agreed.append(number)
        if agreed and (len(agreed) >= CHECKED_BATCH or done == total):
            with ctx.store.begin() as conn:
                items.mark_checked(conn, ctx.repo_id, agreed)
            agreed = []
        if done % 50 == 0 or done == total:
            ctx.progress("reconcile", done, total)


def _mismatch(ctx: SyncContext, number: int, have: int, expected: int | None) -> bool:
    if expected is None:
        return False
    if have > expected:
        return True  # something we hold was deleted on GitHub
    # Fewer than GitHub counts: normally a race, worth a re-list. A `--since` sync holds
    # only the window's comments by design; re-listing every old thread it touches would
    # cost a request per item, so it leaves them to later syncs (unless the comment listing
    # could not page through a second of this item's: same_second.py).
    return have < expected and (ctx.since is None or number in ctx.recheck)


def _relist(
    ctx: SyncContext,
    number: int,
    updated_at: datetime,
    expected_comments: int | None,
    expected_review_comments: int | None,
) -> None:
    """Re-list an item's comments (`expected_comments` is GitHub's count for them, None to
    skip) and review comments, writing what is listed and marking deleted only what a
    complete, consistent listing proves gone (deletions.py)."""
    base = f"/repos/{ctx.full_name}"
    ctx.report.reconciled += 1
    plans: list[tuple[comments.Kind, str, Callable[[Any], Any], int | None]] = [
        ("comment", f"{base}/issues/{number}/comments", nz.comment_from_rest, expected_comments),
        (
            "review_comment",
            f"{base}/pulls/{number}/comments",
            nz.review_comment_from_rest,
            expected_review_comments,
        ),
    ]
    lists: list[tuple[comments.Kind, list[Any], int, bool]] = []
    for kind, path, convert, expected in plans:
        if expected is None:
            continue
        listed = list_all(ctx, path, convert)
        if listed is None and not _item_gone(ctx, number):
            # The item is there: the 404 was GitHub's hiccup. Ask once more.
            listed = list_all(ctx, path, convert)
            if listed is None:
                ctx.note(
                    f"#{number}: GitHub answered 404 for GET {path} but not for the item "
                    "itself; kept everything, the next sync checks again"
                )
                return
        if listed is None:
            return  # marked deleted by _item_gone
        rows, complete = listed
        lists.append((kind, [r for r in rows if r.number == number], expected, complete))
    write = write_plain(ctx)
    with ctx.store.begin() as conn:
        for kind, records, expected, complete in lists:
            write(conn, records)
            verdict = proven_gone(
                comments.live_ids(conn, ctx.repo_id, kind, number),
                {r.id for r in records},
                what=f"{'comments' if kind == 'comment' else 'review comments'} of #{number}",
                complete=complete,
                expected=expected,
            )
            if verdict.refused:
                ctx.note(verdict.refused)
            ctx.report.marked_deleted += comments.mark_deleted(
                ctx.store, conn, ctx.repo_id, kind, verdict.gone
            )
        # Checked even when a verdict was refused: the rows are kept, and re-listing the
        # same thread on every sync would not make GitHub's answer more trustworthy.
        items.set_checked(conn, ctx.repo_id, number, updated_at)


def _item_gone(ctx: SyncContext, number: int) -> bool:
    """GitHub answered 404/410 for the item's comment listing. A 404 alone is weak evidence
    (a replica lagging, a hiccup), so the item itself is asked for: only when it is gone too
    (404, 410 for a deleted issue, or a redirect to another item: transferred) is it marked
    deleted. True if it was."""
    try:
        resp = ctx.client.get(
            f"/repos/{ctx.full_name}/issues/{number}",
            parse=shapes.rest_object(nz.item_from_rest),
        )
    except NotFoundError:
        resp = None
    if resp is not None and resp.parsed.number == number:
        return False
    with ctx.store.begin() as conn:
        ctx.report.marked_deleted += items.mark_deleted(conn, ctx.repo_id, [number])
    return True


def reconcile_totals(ctx: SyncContext) -> None:
    """Find deleted (or transferred) issues and PRs, when the check is owed (a listing changed
    the store since the last check that succeeded: store/owed.py) or asked for (`verify`).
    The store holding more than GitHub counts is the signal; the missing are then found by
    counting creation ranges (missing.py) or, where that would cost as much, by listing every
    number, and only what GitHub's answer proves gone is marked deleted (deletions.py)."""
    with ctx.store.begin() as conn:
        before = owed.totals_owed(conn, ctx.repo_id)
        if not ctx.verify and (before is None or not before.due):
            if before is not None:
                owed.skip_totals(ctx.store, conn, ctx.repo_id, before)
            return
    data = ctx.client.graphql(
        queries.REPO_TOTALS, ctx.vars, check=shapes.repo_totals, what="repository totals"
    )
    totals = shapes.totals(data)
    repo_name = str(data["repository"]["nameWithOwner"])
    with ctx.store.begin() as conn:
        stored = items.live_counts(conn, ctx.repo_id)
    unexplained: list[str] = []  # what is left to account for
    unseen: list[str] = []  # of which, what the search did not find (refusals have their note)
    for kind, connection in (("issue", "issues"), ("pr", "pullRequests")):
        surplus = stored.get(kind, 0) - totals[kind]
        if surplus <= 0:
            continue
        ctx.progress("reconcile", 0, None)
        what = f"{kind}s" if kind == "issue" else "pull requests"
        left, refused = _find_and_mark(ctx, kind, connection, surplus, repo_name, what)
        if left:
            unexplained.append(_counted(left, kind))
            if not refused:
                unseen.append(_counted(left, kind))
    with ctx.store.begin() as conn:
        if not unexplained:
            owed.settle_totals(ctx.store, conn, ctx.repo_id)
            return
        later = owed.defer_totals(
            ctx.store, conn, ctx.repo_id, before, f"unexplained: {', '.join(unexplained)}"
        )
    if unseen:
        when = "by the next sync" if later.due else f"in {later.wait + 1} syncs"
        ctx.note(
            f"{' and '.join(unseen)} more in the store than on GitHub could not be found "
            f"(GitHub's search may lag behind a deletion); checked again {when}"
        )


def _find_and_mark(
    ctx: SyncContext, kind: str, connection: str, surplus: int, repo_name: str, what: str
) -> tuple[int, bool]:
    """Mark deleted the `surplus` `kind` items GitHub no longer has: how many of them are
    left unaccounted for, and whether that is because an answer was refused (with a note)."""
    with ctx.store.begin() as conn:
        held = items.live_by_creation(conn, ctx.repo_id, kind)
    numbers = [n for n, _ in held]
    found = find_gone(ctx, kind, held, surplus, repo_name)
    if found is not None:
        # GitHub's NOT_FOUND is the evidence, held to the totals (a few more may have gone
        # mid-search, not dozens) and to the store-wide plausibility check of deletions.py.
        gone = set(found.gone)
        if len(gone) > surplus + SMALL_LOSS:
            ctx.note(
                f"kept {_counted(len(gone), kind)} GitHub answered NOT_FOUND for: its totals "
                f"miss only {surplus}, so the answer looks broken; the next sync checks again"
            )
            return surplus, True
        verdict = proven_gone(numbers, {n for n in numbers if n not in gone}, what=what)
        log.info(
            "%s: %d %s looked for in %d queries (%d asked for by number)",
            ctx.full_name,
            surplus,
            what,
            found.queries,
            found.asked,
        )
    else:
        listed, count = _list_numbers(ctx, connection)
        verdict = proven_gone(
            numbers, listed, what=what, complete=count is not None, expected=count
        )
    if verdict.refused:
        ctx.note(verdict.refused)
        return surplus, True
    with ctx.store.begin() as conn:
        marked = items.mark_deleted(conn, ctx.repo_id, verdict.gone)
    ctx.report.marked_deleted += marked
    if marked:
        log.info("%s: %d %s no longer on GitHub", ctx.full_name, marked, what)
    # A complete listing that agrees with its own count accounts for everything; a search
    # only for what it found.
    return (0 if found is None else max(0, surplus - marked)), False


def _counted(count: int, kind: str) -> str:
    noun = "issue" if kind == "issue" else "pull request"
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _list_numbers(ctx: SyncContext, connection: str) -> tuple[set[int], int | None]:
    """Every issue or PR number, and GitHub's count for them (None when the count changed
    between pages: the listing is then not a consistent picture)."""
    numbers: set[int] = set()
    counts: set[int] = set()
    after: str | None = None
    query = queries.item_numbers(connection)
    check = shapes.item_numbers(connection)
    what = "issue numbers" if connection == "issues" else "pull request numbers"
    while True:
        data = ctx.client.graphql(query, {**ctx.vars, "after": after}, check=check, what=what)
        page = data["repository"][connection]
        numbers.update(int(n["number"]) for n in page["nodes"])
        counts.add(int(page["totalCount"]))
        info = page["pageInfo"]
        if not info["hasNextPage"]:
            return numbers, counts.pop() if len(counts) == 1 else None
        after = info["endCursor"]
