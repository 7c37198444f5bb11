"""Stage 4b: the changed lines of merged PRs, so the risk rules and the model read code
without a clone.

GraphQL gives a PR's files but not their diffs; REST `GET /pulls/{n}/files` gives each file's
`patch` (unified hunks, three lines of context), 100 files a page. So for every PR merged in
the window (`github.patch_days`, and not before `--since`; never open PRs, whose diff is still
moving) whose patches were not yet fetched for its current merge (or head) commit, one request
lists up to 100 files (at most MAX_PAGES pages), and each patch is stored as the zero-context
hunks a git sync stores (sources/hunks.py), bounded per file (PATCH_MAX_CHARS) and per PR
(PR_PATCH_MAX_CHARS: the biggest diffs give way first). The commit is recorded with them
(`items.patch_sha`), so a re-sync with nothing new merged costs no request here.

GitHub leaves `patch` out for binary files and diffs too large for it to show: such files keep
their counts (and any hunks a clone gave), and the PR records the gap (store/gaps.py, part
`patches`) so a report can say its code was not all read. Each PR commits in its own
transaction; a listing that fails is noted and asked again by the next sync.

Patches are evidence, not the record: when the token's budget is down to what the run's other
repositories are owed (budget.py `spare`), the rest wait for the next sync, each PR marked
with the gap, so a run over hundreds of repositories never spends their listings' requests
here.
"""

from __future__ import annotations

from collections.abc import Sequence

from tidings.sources.github import normalize as nz
from tidings.sources.github import pages
from tidings.sources.github.client import RequestFailed
from tidings.sources.github.context import SyncContext
from tidings.sources.hunks import bound, zero_context
from tidings.store import files
from tidings.store.gaps import PATCHES, UNREAD_DIFFS, item_gaps, write_gaps

MAX_PAGES = 3  # files of a PR listed for patches: 300 cover all but the sweeping PRs
# Hunk text kept per PR: past it the biggest files keep their counts only (a vendored or
# generated file says least per character, and the rules read the rest).
PR_PATCH_MAX_CHARS = 400_000
GAP = PATCHES  # the gap part (store/gaps.py) naming files without a patch
SHOWN_PATHS = 3  # paths named in that gap
DEFERRED = (
    "changed lines not read yet: GitHub's rate limit was kept for the rest of the sync; "
    "the next sync reads them"
)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def select(
    listed: Sequence[tuple[str, str | None]],
) -> tuple[dict[str, str], list[str], list[str]]:
    """A PR's listed files -> (path -> zero-context hunks, files without a patch from GitHub,
    files whose patch was left out for the PR's bound)."""
    hunks: dict[str, str] = {}
    without: list[str] = []
    for path, patch in listed:
        text = zero_context(patch) if patch else None
        if text is None:
            # No patch (binary, too large) or none with a hunk (a mode change, a rename
            # alone): only the first is a gap in what GitHub showed.
            if patch is None:
                without.append(path)
            continue
        hunks[path] = bound(text)
    kept: dict[str, str] = {}
    cut: list[str] = []
    left = PR_PATCH_MAX_CHARS
    for path, text in sorted(hunks.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if len(text) <= left:
            kept[path] = text
            left -= len(text)
        else:
            cut.append(path)
    return kept, without, sorted(cut)


def _gap(without: Sequence[str], cut: Sequence[str], unlisted: int) -> str | None:
    parts = []
    if without:
        shown = ", ".join(without[:SHOWN_PATHS]) + (", …" if len(without) > SHOWN_PATHS else "")
        parts.append(
            f"{_plural(len(without), 'file')} without a patch from GitHub "
            f"(binary, or too large for it to show): {shown}"
        )
    if cut:
        parts.append(f"{_plural(len(cut), 'file')} past {PR_PATCH_MAX_CHARS:,} characters of hunks")
    if unlisted:
        parts.append(f"{_plural(unlisted, 'file')} past the first {MAX_PAGES * 100} not read")
    return "; ".join(parts) or None


def read_patches(ctx: SyncContext) -> None:
    """Fetch and store the changed lines of the window's merged PRs whose patches are not
    those of their current commit."""
    if ctx.patches_since is None:
        return
    with ctx.store.begin() as conn:
        work = files.patch_work(conn, ctx.repo_id, ctx.patches_since)
    if not work:
        return
    before = ctx.client.stats.to_dict()["rest_requests"]
    ctx.progress("merged PR patches", 0, len(work))
    failed: list[int] = []
    cause = ""
    try:
        for done, item in enumerate(work, 1):
            spare = ctx.client.spare("core")
            if spare is not None and spare < MAX_PAGES:
                _defer(ctx, work[done - 1 :])
                break
            path = f"/repos/{ctx.full_name}/pulls/{item.number}/files"
            try:
                listed = pages.list_all(ctx, path, nz.patch_from_rest, limit=MAX_PAGES * 100)
            except RequestFailed as exc:
                failed.append(item.number)
                cause = exc.cause
                if len(failed) >= 3 and len(failed) == done:
                    raise  # nothing has worked: GitHub's trouble, not these PRs'
                continue
            rows, _complete = listed if listed is not None else ([], True)
            _write(ctx, item, rows, missing=listed is None)
            ctx.progress("merged PR patches", done, len(work))
    finally:
        ctx.report.patch_requests += ctx.client.stats.to_dict()["rest_requests"] - before
    if failed:
        ctx.note(
            f"patches of {_plural(len(failed), 'merged PR')} not read ({cause}); "
            "the next sync asks again"
        )


def _defer(ctx: SyncContext, rest: Sequence[files.PatchWork]) -> None:
    """Leave `rest` for the next sync (their patch commit stays unrecorded, so it asks),
    each marked so a report built meanwhile says its code was not read."""
    with ctx.store.begin() as conn:
        for item in rest:
            gaps = item_gaps(conn, ctx.repo_id, item.number)
            if gaps.get(GAP) != DEFERRED:
                gaps[GAP] = DEFERRED
                gaps[UNREAD_DIFFS] = str(item.changed_files)  # none of its diffs is read
                write_gaps(ctx.store, conn, ctx.repo_id, item.number, gaps)
    ctx.report.patches_deferred += len(rest)
    # Expected in a big run, not a fault: said in the summary, not logged as a warning.
    ctx.say(
        f"patches of {_plural(len(rest), 'merged PR')} deferred to the next sync: "
        "GitHub's rate limit is kept for the other repositories",
        warn=False,
    )


def _write(
    ctx: SyncContext,
    item: files.PatchWork,
    rows: Sequence[tuple[str, str | None]],
    *,
    missing: bool,
) -> None:
    number = item.number
    hunks, without, cut = select(rows)
    with ctx.store.begin() as conn:
        written = files.write_patches(conn, ctx.repo_id, number, hunks, item.sha)
        gaps = item_gaps(conn, ctx.repo_id, number)
        full = len(rows) >= MAX_PAGES * 100
        unlisted = max(0, item.changed_files - len(rows)) if full else 0
        text = "GitHub has no file list for the pull request" if missing else None
        text = text or _gap(without, cut, unlisted)
        if text is not None:
            gaps[GAP] = text
            # The count reports state ("3 files without a diff"): every file whose diff is
            # not stored for this reason.
            unread = item.changed_files if missing else len(without) + len(cut) + unlisted
            gaps[UNREAD_DIFFS] = str(unread)
        else:
            gaps.pop(GAP, None)
            gaps.pop(UNREAD_DIFFS, None)
        write_gaps(ctx.store, conn, ctx.repo_id, number, gaps)
    ctx.report.patched_prs += 1
    ctx.report.patched_files += written
    ctx.report.files_without_patch += len(without)
