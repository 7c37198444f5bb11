"""Stage 2b: comments filed under an item the store does not hold.

A comment names its item only by URL (`issue_url`; a review comment's `pull_request_url`). The
issues listing is read before the comment listings, so an item opened between the two, or a
wrong answer naming an item that does not exist, leaves comments under a number the store holds
no item for, and no later listing corrects them: the comment streams' cursors have moved past.
So after the listings each such number is asked for:

- GitHub has the item: it is stored (a PR opened mid-sync then gets its details in this sync).
- GitHub has no item under it: the comments cannot be right as stored, so each is read again
  by id and stored as GitHub names it now (under its real item); one GitHub no longer has
  (404, as its item) is marked deleted.

What this cannot settle (GitHub failing, or naming the missing item again) is kept as stored,
noted, and tried again on later runs with a growing gap, as a quarantined PR is
(store/quarantine.py, `orphan:NUMBER`). `sync --verify` looks through every stored comment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tidings.sources.github import normalize as nz
from tidings.sources.github import shapes
from tidings.sources.github.client import NotFoundError, RequestFailed
from tidings.sources.github.context import SyncContext
from tidings.sources.github.writers import write_items, write_plain
from tidings.store import comments, quarantine

ORPHAN = "orphan:"
# Numbers looked into a sync, at most: each costs a request or a few, and normally there are
# none (an item opened while the listings were read). The rest wait for the next run.
MAX_NUMBERS = 50

_READERS: dict[comments.Kind, tuple[str, Callable[[Any], Any]]] = {
    "comment": ("issues/comments", nz.comment_from_rest),
    "review_comment": ("pulls/comments", nz.review_comment_from_rest),
}


def read_orphans(ctx: SyncContext) -> None:
    """Settle the comments the listings filed under a number the store has no item for."""
    store = ctx.store
    with store.begin() as conn:
        held = quarantine.load(conn, ctx.repo_id, ORPHAN)
        named = None if ctx.verify else ctx.parents | set(held)
        found = comments.orphans(conn, ctx.repo_id, named)
        for number in set(held) - set(found):
            quarantine.release(store, conn, ctx.repo_id, number, ORPHAN)  # settled meanwhile
        waiting = [q for n, q in held.items() if n in found and not q.due]
        for entry in waiting:
            entry.wait -= 1
            quarantine.save(store, conn, ctx.repo_id, entry, ORPHAN)
    for entry in waiting:
        ctx.note(
            f"#{entry.number}: comments name an item GitHub does not have ({entry.reason}); "
            f"kept as they are, next try in {entry.wait + 1} run(s)"
        )
    due = sorted(n for n in found if n not in held or held[n].due)
    looked: set[int] = set()
    while due and len(looked) < MAX_NUMBERS:
        number = due.pop(0)
        looked.add(number)
        named_now = _settle(ctx, number, found[number], held.get(number))
        # A comment read again may name an item the store lacks too: look into it as well.
        with store.begin() as conn:
            more = comments.orphans(conn, ctx.repo_id, named_now - looked - set(due))
        found.update(more)
        due.extend(sorted(more))
    if due:
        ctx.note(
            f"comments name {len(due)} more items the store lacks; they are left for the next sync"
        )
        with store.begin() as conn:
            for number in due:
                if number not in held:
                    entry = quarantine.Quarantined(number, 0, 0, "not looked into yet")
                    quarantine.save(store, conn, ctx.repo_id, entry, ORPHAN)


def _settle(
    ctx: SyncContext,
    number: int,
    rows: list[tuple[comments.Kind, int]],
    before: quarantine.Quarantined | None,
) -> set[int]:
    """Look into the comments filed under `number`; the numbers the ones read again name."""
    try:
        item = _item(ctx, number)
    except RequestFailed as exc:
        _unsettled(ctx, number, before, exc.cause)
        return set()
    if item is not None:
        with ctx.store.begin() as conn:
            write_items(ctx)(conn, [item])
            quarantine.release(ctx.store, conn, ctx.repo_id, number, ORPHAN)
        return set()
    # GitHub has no item #number: ask each comment where it is.
    moved: list[Any] = []
    gone: dict[comments.Kind, list[int]] = {}
    stuck = 0
    for kind, row_id in rows:
        path, convert = _READERS[kind]
        try:
            resp = ctx.client.get(
                f"/repos/{ctx.full_name}/{path}/{row_id}", parse=shapes.rest_object(convert)
            )
        except NotFoundError:
            gone.setdefault(kind, []).append(row_id)
            continue
        except RequestFailed:
            stuck += 1
            continue
        if resp.parsed.number == number:
            stuck += 1
        else:
            moved.append(resp.parsed)
    with ctx.store.begin() as conn:
        write_plain(ctx)(conn, moved)
        for kind, ids in gone.items():
            ctx.report.marked_deleted += comments.mark_deleted(
                ctx.store, conn, ctx.repo_id, kind, ids
            )
        if not stuck:
            quarantine.release(ctx.store, conn, ctx.repo_id, number, ORPHAN)
    if moved or gone:
        ctx.note(
            f"#{number}: GitHub has no such item, so its {len(rows)} comment(s) were read again: "
            f"{len(moved)} filed under their real item, {sum(map(len, gone.values()))} gone"
        )
    if stuck:
        _unsettled(ctx, number, before, f"{stuck} comment(s) still name it")
    return {record.number for record in moved}


def _item(ctx: SyncContext, number: int) -> Any:
    """The item GitHub has under `number` in this repository, or None (404, 410, or a
    redirect to another repository's: transferred)."""
    try:
        resp = ctx.client.get(
            f"/repos/{ctx.full_name}/issues/{number}", parse=shapes.rest_object(nz.item_from_rest)
        )
    except NotFoundError:
        return None
    home = str(resp.json.get("repository_url") or "").lower()
    if resp.parsed.number != number or not home.endswith(f"/repos/{ctx.full_name}".lower()):
        return None
    return resp.parsed


def _unsettled(
    ctx: SyncContext, number: int, before: quarantine.Quarantined | None, reason: str
) -> None:
    failures = (before.failures if before else 0) + 1
    entry = quarantine.Quarantined(number, failures, quarantine.gap_after(failures), reason)
    with ctx.store.begin() as conn:
        quarantine.save(ctx.store, conn, ctx.repo_id, entry, ORPHAN)
    ctx.note(
        f"#{number}: comments name an item GitHub does not have ({reason}); kept as they are, "
        f"next try in {entry.wait + 1} run(s)"
    )
