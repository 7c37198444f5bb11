"""Syncing one GitHub repository into the store: the cheapest complete plan we know.

1. **Repository** — `GET /repos/{o}/{r}` with If-Modified-Since (its `Last-Modified`, which is
   its `updated_at`). This validates the name and the token before anything is written, and
   costs nothing (a 304) while its settings, stars and forks are unchanged, whatever the token
   (repository.py says why not its ETag).
2. **Three repository-wide `since` streams** — issues (PRs included), issue comments and review
   comments, each `sort=updated&direction=asc&per_page=100`. They are paged by *keyset on
   `since`*, not by page number: after a page is committed the next request asks for
   `since = newest updated_at on that page`. `since` is inclusive, so items sharing that
   timestamp are read twice and deduplicated by id; an item updated while we page moves to the
   end of the listing and is read later, so nothing is skipped (page numbers would skip one
   item for every item that moved). A full page that is all one timestamp cannot advance the
   keyset, so it falls back to `page=2,3…` of the same `since` (the one place page numbers are
   used; such runs of 100+ same-second updates are rare). GitHub refuses deep `page=` values
   (422, "not supported for large datasets"): the rest of that second's items are then found
   by GraphQL, whose connections page by cursor, and read one by one, and the listing goes on
   from the next second (same_second.py), so nothing of that second is lost; comments of such
   a second are read with their threads, which the count check (5.) finds short. A short page
   ends the stream. A few dozen pages cover a busy week of a repository like vLLM.
3. **Cursors and ETags** — each page's rows and the stream's cursor commit in one transaction,
   so an interrupted sync resumes where it stopped. The cursor is the `since` of the *last
   request made*, and the ETag of that final (short) page's URL is stored (if the page was
   well-formed and not empty), so a re-sync with nothing changed repeats exactly those URLs
   and GitHub answers 304 — which costs no rate limit. A sync with nothing changed costs four
   requests, all 304. GitHub binds ETags to the token, so on a new token (the Actions recipe's
   `GITHUB_TOKEN` is new every job) each stream's last page is a paid 200 instead: three paid
   requests and a 304, since those pages hold nothing the store lacks and so change nothing
   (no details, no totals check). GitHub documents no `Last-Modified` for these listings, and
   a wrong 304 there would hide changes, so they are not asked by date. `--since DATE` starts
   the streams at that date instead of the cursor; a first sync without it reads all history.
3b. **Comments filed under no item** — a comment names its item only by URL; one under a
   number the store holds no item for (an issue opened between the listings, a wrong
   `issue_url`) is settled by asking GitHub for that item and, if it has none, for the
   comment itself, which is filed where GitHub says now; what cannot be settled is tried
   again on later runs (orphans.py).
4. **PR details by GraphQL** — reviews, files, merge data, closing references and review
   threads' resolution (stored as `unresolved_threads`, the count GitHub reports *now*: for a
   merged PR usually the state at merge, as threads are rarely touched after) have no
   repository-wide listing (REST would cost ~2 requests per PR), so PRs whose details are
   stale (`detail_updated_at != updated_at`: new or changed since their details were fetched)
   are fetched ~25 per query with aliased `pullRequest(number:)` fields. Every nested
   connection is checked against its `totalCount` and completed with `after:` continuation
   queries, several PRs' continuations to a query — no silent caps (GitHub itself stops PR
   files, and their `totalCount`, at 3,000: `changedFiles` tells, and the item records the
   gap for reports; for a very large PR GraphQL answers `files: null, changedFiles: 0` with
   no error, and the files are listed by REST instead). A 502, timeout or
   RESOURCE_LIMITS_EXCEEDED halves the batch, then (for one PR) its page sizes, and successes
   grow them back; an answer that keeps failing halves the batch to find the PR it is about.
   A PR that fails even alone is quarantined (store/quarantine.py): noted, retried on later runs
   with a growing gap, and the other PRs and the steps below go on. A field GitHub refuses
   (FORBIDDEN, e.g. an organisation restricting OAuth apps) keeps what the store holds, with
   the gap noted and recorded on the item (store/gaps.py). A PR has two update times (its
   issue record's, which the listing gives and a comment moves, and its pull request
   record's, which GraphQL gives): the newer is kept and the details are current for it, so
   neither rolls a stored time back nor makes every sync fetch details again. Each batch
   commits in one transaction. Because the work list is derived from the store, an
   interrupted sync resumes with no gap.
4b. **Changed lines of merged PRs** — GraphQL gives no diffs, so for each PR merged in the
   window (`github.patch_days`, 30 by default, and not before `--since`) one REST
   `GET /pulls/{n}/files` (up to 100 files a page, at most three pages) gives its patches,
   stored as the zero-context hunks a git sync stores, bounded per file and per PR, and
   marked with the commit they are of, so a re-sync asks again only when it changed: a quiet
   re-sync costs nothing here (patches.py). Files GitHub gives no patch (binary, too large)
   are recorded on the PR; hunks a clone gave are never overwritten with nothing.
5. **Deletions by count reconciliation** — `since` listings never report deletions. For each
   item changed since it was last checked (`checked_updated_at != updated_at`) the stored
   comment count is compared with GitHub's `comments` (and, for PRs, review comments with the
   reviews' comment counts); only on a mismatch are that item's comments re-listed and the
   rows no longer returned marked `deleted` (never removed); a 404 for that listing is
   believed only when the item itself answers 404 or 410 too. A `--since` sync only acts on a
   surplus (a deletion): it holds just the window's comments of old threads by design. The
   repository's issue and PR totals are compared too while that check is owed — a listing
   page that changes the store owes it, in the same transaction, and only a check that
   accounts for everything settles it (store/owed.py), so a deletion during a sync whose check
   failed is found by a later quiet sync — or with `verify=True`. If the store has more than
   GitHub counts, the missing are found by counting creation ranges with GitHub's search and
   asking for the candidates by number (missing.py: about k·log n queries for k deletions
   among n items: 4 and the totals for one among 36,000 PRs), or, where that would cost as
   much, by listing every number (n/100 queries). Absence is weak evidence, so a listing only
   marks rows deleted when it is complete, agrees with GitHub's own count for it, and does not
   make most of what we hold vanish at once (deletions.py); by number only GitHub's NOT_FOUND
   marks an item, and never for many more than the totals miss; PR files and closing
   references are replaced only by a complete list. A refused verdict keeps the rows and
   leaves a note in the sync summary.
6. **Bots** — `author_type` is stored as GitHub reports it; deciding what counts as a bot is
   left to the facts layer.
7. **Crash safety** — every write is one transaction per page or batch and every stage is
   driven by stored state (cursors, `*_updated_at` columns), so killing the sync at any point
   and re-running gives the same store as an uninterrupted run.
8. **Completion** — a sync that finishes writes the `synced` sync-state row, whose time is
   when the store's copy was last known complete (facts/coverage.py); a sync of an unchanged
   repository moves no cursor (every listing is a 304), so without it a quiet repository
   would look stale.
9. **Wrong answers** — every answer is parsed against the shape GitHub documents before any of
   it is used (shapes.py): a listing that is `{}` or an error object, a null repository, a
   null connection, a count smaller than the nodes it came with. Such an answer is retried
   like a 5xx and, if it persists, stops the sync with one line; it is never read as "empty",
   so it can neither mark rows deleted nor store a cursor or ETag past data never read.
   An answer that cannot be this request's is wrong too: a `since` listing row updated before
   that `since`, a 200 carrying the very ETag sent (GitHub answers that 304), a PR alias
   carrying another PR. A cache in between (serving an old answer under the real ETag) is the
   usual cause, so the retry drops the ETag and sends `Cache-Control: no-cache`.
   A value the store cannot hold (a number beyond its column, a year-9999 time:
   store/limits.py) skips its record with a note naming it; it never moves a cursor.

The stages live in modules of their own, run in this order by `sync_repository`: repository.py
(1), listing.py and same_second.py (2, 3), orphans.py (3b), details.py with pr_fetch.py and
pr.py (4), patches.py (4b), reconcile.py (5), teams.py (maintainer teams). They fetch and
normalise; every SQL statement is the store's (store/items.py, comments.py, files.py, rows.py,
gaps.py, teams.py, quarantine.py), and an import-linter contract keeps SQLAlchemy out of the
sources. A stage reads the store only through those functions, to decide what to fetch next
from what is already committed (cursors, stale details, unchecked counts): that is what makes
a sync resume.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from tidings.common.config import GitHubConfig
from tidings.common.progress import Progress
from tidings.errors import SourceError, register_secret
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.context import SyncContext
from tidings.sources.github.details import PR_BATCH, read_details
from tidings.sources.github.listing import read_streams
from tidings.sources.github.orphans import read_orphans
from tidings.sources.github.patches import read_patches
from tidings.sources.github.reconcile import reconcile_items, reconcile_totals
from tidings.sources.github.repository import read_repository
from tidings.sources.github.summary import SyncReport
from tidings.sources.github.teams import read_teams
from tidings.store import Store

__all__ = ["SYNCED_STREAM", "SyncReport", "sync_repository"]

# The sync-state row a finished sync writes: its time is when the copy was last complete.
SYNCED_STREAM = "synced"


def sync_repository(
    store: Store,
    full_name: str,
    *,
    github: GitHubConfig,
    token: str,
    since: datetime | None = None,
    progress: Progress | None = None,
    client: GitHubClient | None = None,
    verify: bool = False,
    pr_batch: int = PR_BATCH,
    teams: Sequence[str] = (),
) -> SyncReport:
    """Bring the store's copy of `full_name` up to date with GitHub (see the module docstring).

    Raises SourceError for anything the user must act on (unknown repository, bad token,
    GitHub unreachable, a rate limit longer than `github.max_wait`). Whatever was committed
    before an error stays and the next run resumes from it. `teams` ("org/slug", the config's
    `maintainer_teams`) have their members listed and stored for facts/roles.py.
    """
    owner, sep, name = full_name.partition("/")
    if not sep or not owner or not name or "/" in name:
        raise SourceError(
            f"repository must be OWNER/NAME, got {full_name!r}", "e.g. vllm-project/vllm"
        )
    register_secret(token)
    own_client = client is None
    if client is None:
        client = GitHubClient(
            github.api_url,
            github.graphql,
            token,
            timeout=github.timeout,
            max_retries=github.max_retries,
            max_wait=github.max_wait,
        )
    before = client.stats.to_dict()
    started = time.monotonic()
    report = SyncReport(repository=full_name)
    ctx = SyncContext(
        store,
        client,
        owner,
        name,
        report,
        since=since,
        verify=verify,
        pr_batch=max(1, pr_batch),
        teams=list(teams),
    )
    if progress is not None:
        ctx.progress = progress
    if github.patch_days > 0:
        window = datetime.now(UTC) - timedelta(days=github.patch_days)
        ctx.patches_since = max(window, since) if since is not None else window
    try:
        # One sync per repository at a time, in any process: a second one waits (store/locks.py).
        with store.sync_lock(full_name):
            _run(ctx)
    finally:
        after = client.stats.to_dict()
        for key in ("rest_requests", "graphql_requests", "not_modified", "retries", "waits"):
            setattr(report, key, after[key] - before[key])
        report.elapsed = time.monotonic() - started
        if own_client:
            client.close()
    return report


def _run(ctx: SyncContext) -> None:
    read_repository(ctx)
    # A page that changes the store marks the totals check owed (store/owed.py), in the same
    # transaction: a later sync pays it if this one fails before it succeeds.
    read_streams(ctx)
    read_orphans(ctx)
    read_details(ctx)
    read_patches(ctx)
    reconcile_items(ctx)
    reconcile_totals(ctx)
    read_teams(ctx)
    # Last: the store now holds the repository as of this sync (facts/coverage.py).
    with ctx.store.begin() as conn:
        ctx.store.set_cursor(conn, ctx.repo_id, SYNCED_STREAM, None)
