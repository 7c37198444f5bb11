"""Syncing one GitHub repository into the store: the cheapest complete plan we know.

1. **Repository** — `GET /repos/{o}/{r}` with its ETag. This validates the name and the token
   before anything is written, and costs nothing (a 304) when the repository is unchanged.
2. **Three repository-wide `since` streams** — issues (PRs included), issue comments and review
   comments, each `sort=updated&direction=asc&per_page=100`. They are paged by *keyset on
   `since`*, not by page number: after a page is committed the next request asks for
   `since = newest updated_at on that page`. `since` is inclusive, so items sharing that
   timestamp are read twice and deduplicated by id; an item updated while we page moves to the
   end of the listing and is read later, so nothing is skipped (page numbers would skip one
   item for every item that moved). A full page that is all one timestamp cannot advance the
   keyset, so it falls back to `page=2,3…` of the same `since` (the one place page numbers are
   used; such runs of 100+ same-second updates are rare). GitHub refuses deep `page=` values
   (422, "not supported for large datasets"): the stream then steps `since` one second on, with
   a note, rather than ask for the same page on every run. A short page ends the stream.
   A few dozen pages cover a busy week of a repository like vLLM.
3. **Cursors and ETags** — each page's rows and the stream's cursor commit in one transaction,
   so an interrupted sync resumes where it stopped. The cursor is the `since` of the *last
   request made*, and the ETag of that final (short) page's URL is stored (if the page was
   well-formed and not empty), so a re-sync with nothing changed repeats exactly those URLs
   and GitHub answers 304 — which costs no rate limit. A sync with nothing changed costs four
   requests, all 304. `--since DATE` starts the
   streams at that date instead of the cursor; a first sync without it reads all history.
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
   A PR that fails even alone is quarantined (quarantine.py): noted, retried on later runs
   with a growing gap, and the other PRs and the steps below go on. A field GitHub refuses
   (FORBIDDEN, e.g. an organisation restricting OAuth apps) keeps what the store holds, with
   the gap noted and recorded on the item (store/gaps.py). A PR has two update times (its
   issue record's, which the listing gives and a comment moves, and its pull request
   record's, which GraphQL gives): the newer is kept and the details are current for it, so
   neither rolls a stored time back nor makes every sync fetch details again. Each batch
   commits in one transaction. Because the work list is derived from the store, an
   interrupted sync resumes with no gap.
5. **Deletions by count reconciliation** — `since` listings never report deletions. For each
   item changed since it was last checked (`checked_updated_at != updated_at`) the stored
   comment count is compared with GitHub's `comments` (and, for PRs, review comments with the
   reviews' comment counts); only on a mismatch are that item's comments re-listed and the
   rows no longer returned marked `deleted` (never removed); a 404 for that listing is
   believed only when the item itself answers 404 or 410 too. A `--since` sync only acts on a
   surplus (a deletion): it holds just the window's comments of old threads by design. When
   a stream changed (or with `verify=True`) the repository's issue and PR totals are compared
   too, and if the store has more than GitHub, item numbers (only) are listed by GraphQL to
   find and mark the missing. Absence is weak evidence, so a listing only marks rows deleted
   when it is complete, agrees with GitHub's own count for it, and does not make most of what
   we hold vanish at once (deletions.py); PR files and closing references are replaced only by
   a complete list. A refused verdict keeps the rows and leaves a note in the sync summary.
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
   A value the store cannot hold (a number beyond its column, a year-9999 time:
   store/limits.py) skips its record with a note naming it; it never moves a cursor.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.config import GitHubConfig
from tidings.errors import SourceError, register_secret
from tidings.records import (
    ItemRecord,
    PRFileRecord,
    Record,
    to_row,
)
from tidings.sources.github import normalize as nz
from tidings.sources.github import quarantine, queries, shapes
from tidings.sources.github.client import (
    GitHubClient,
    GraphQLQueryError,
    GraphQLTooLarge,
    NotFoundError,
    PageTooDeep,
    RequestFailed,
)
from tidings.sources.github.deletions import proven_gone
from tidings.store import Store, schema
from tidings.store.gaps import read_gaps, write_gaps
from tidings.store.limits import EARLIEST, END, row_name, row_problem
from tidings.store.rows import TABLES, record_rows, update_repository
from tidings.store.teams import team_stream, write_team

log = logging.getLogger("tidings.github")

Progress = Callable[[str, int, int | None], None]

PER_PAGE = 100
PR_BATCH = 25
# The sync-state row a finished sync writes: its time is when the copy was last complete.
SYNCED_STREAM = "synced"
CONTINUATION_BATCH = 10
FILES_CAP = 3000  # GitHub lists at most this many files of a PR, in GraphQL and REST alike
# PRs whose details failed alone, in a row with no success between, before the sync concludes
# that GitHub (or the query) is broken rather than those PRs, and stops.
MAX_SUSPECTS = 3
# A GraphQL field GitHub may refuse (FORBIDDEN) -> the item columns it fills, kept as stored.
_FIELD_COLUMNS: dict[str, tuple[str, ...]] = {
    "author": ("author", "author_type"),
    "authorAssociation": ("author_association",),
    "mergedBy": ("merged_by",),
    "mergeCommit": ("merge_commit_sha",),
    "commits": ("commits",),
    "comments": ("comments_count",),
    "reactionGroups": ("reactions",),
    "reviewDecision": ("review_decision",),
}

# Item columns only PR details (GraphQL) fill, plus sync bookkeeping: an item re-read from the
# REST listing keeps them, so a re-read alone never forces a details refetch.
_DETAIL_COLUMNS = (
    "merged",
    "merged_by",
    "merge_commit_sha",
    "additions",
    "deletions",
    "changed_files",
    "commits",
    "base_ref",
    "head_ref",
    "head_sha",
    "review_decision",
    "review_comments_count",
    "unresolved_threads",
    "detail_updated_at",
    "checked_updated_at",
)


def _parse_cursor(cursor: str | None) -> tuple[str | None, int]:
    """A stream cursor is the `since` of its last request ("" = from the beginning), with
    `|N` when that request was page N of a run of items sharing one timestamp."""
    if not cursor:
        return None, 1
    since, _, page = cursor.partition("|")
    return since or None, int(page) if page.isdigit() else 1


def _format_cursor(since: str | None, page: int) -> str:
    return (since or "") + (f"|{page}" if page > 1 else "")


@dataclass
class SyncReport:
    repository: str
    items: int = 0
    comments: int = 0
    reviews: int = 0
    review_comments: int = 0
    pr_files: int = 0
    closing_refs: int = 0
    pr_details: int = 0  # PRs whose GraphQL details were (re)fetched
    reconciled: int = 0  # items whose comments were re-listed after a count mismatch
    marked_deleted: int = 0
    team_members: int = 0  # listed members of the config's maintainer teams
    rest_requests: int = 0
    graphql_requests: int = 0
    not_modified: int = 0
    retries: int = 0
    waits: int = 0
    elapsed: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def requests(self) -> int:
        return self.rest_requests + self.graphql_requests

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["requests"] = self.requests
        data["elapsed"] = round(self.elapsed, 3)
        return data


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
    try:
        # One sync per repository at a time, in any process: a second one waits (store/locks.py).
        with store.sync_lock(full_name):
            _Sync(
                store, client, owner, name, report, since, progress, verify, pr_batch, teams
            ).run()
    finally:
        after = client.stats.to_dict()
        for key in ("rest_requests", "graphql_requests", "not_modified", "retries", "waits"):
            setattr(report, key, after[key] - before[key])
        report.elapsed = time.monotonic() - started
        if own_client:
            client.close()
    return report


# How nodes of each nested connection are told apart when pages overlap.
_NODE_KEYS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "labels": lambda n: n["name"],
    # The node id, present on every review: `fullDatabaseId` may be null (see _review_ids).
    "reviews": lambda n: n.get("id") or nz.review_id(n),
    "files": lambda n: n["path"],
    "closingIssuesReferences": lambda n: (n["repository"]["nameWithOwner"], n["number"]),
    "reviewThreads": lambda n: n["id"],
}


@dataclass
class _PR:
    """One PR's GraphQL answer, its nested connections filled in across continuation pages."""

    node: dict[str, Any]
    nodes: dict[str, dict[Any, dict[str, Any]]] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    incomplete: dict[str, str] = field(default_factory=dict)  # connection -> endCursor
    lost: set[str] = field(default_factory=set)  # continuation found the PR gone mid-way
    # Parts GitHub refused (FORBIDDEN): connection or field -> its message. Kept as stored.
    refused: dict[str, str] = field(default_factory=dict)
    # Parts not read for another reason: part -> why. Kept as stored too.
    unread: dict[str, str] = field(default_factory=dict)
    # GraphQL answered `files: null` (a very large PR): listed by REST instead.
    rest_files: bool = False
    # REST's own counts of a PR whose files came from REST (changed_files, additions, deletions).
    rest_sizes: dict[str, int] = field(default_factory=dict)
    file_records: list[PRFileRecord] = field(default_factory=list)  # the REST-listed files
    noted: set[str] = field(default_factory=set)  # parts whose shortfall has its own note

    def files(self) -> list[PRFileRecord]:
        if self.rest_files:
            return self.file_records
        return [nz.file_from_graphql(n, self.number) for n in self.nodes.get("files", {}).values()]

    def read(self, connection: str) -> int:
        if connection == "files" and self.rest_files:
            return len(self.file_records)
        return len(self.nodes.get(connection, {}))

    @property
    def number(self) -> int:
        return int(self.node["number"])

    @property
    def changed_files(self) -> int:
        """How many files the PR changes: REST's count when it was asked, else the larger of
        GraphQL's `changedFiles` (0 for some very large PRs) and the files it counts."""
        if "changed_files" in self.rest_sizes:
            return self.rest_sizes["changed_files"]
        return max(int(self.node.get("changedFiles") or 0), self.totals.get("files", 0))

    def add(
        self, connection: str, page: Mapping[str, Any] | None, refused: str | None = None
    ) -> None:
        if page is None:
            # Not read at all: REST lists the files; anything else GitHub refused is kept.
            if refused is not None:
                self.refused[connection] = refused
            elif connection == "files":
                self.rest_files = True
            else:  # shapes.py lets no other null through; should one come, keep the rows
                self.unread[connection] = "GitHub answered none"
            self.incomplete.pop(connection, None)
            return
        key = _NODE_KEYS[connection]
        bucket = self.nodes.setdefault(connection, {})
        for node in page.get("nodes") or []:
            if node is not None:
                bucket.setdefault(key(node), node)
        self.totals[connection] = int(page.get("totalCount") or 0)
        info = page.get("pageInfo") or {}
        if info.get("hasNextPage") and info.get("endCursor"):
            self.incomplete[connection] = info["endCursor"]
        else:
            self.incomplete.pop(connection, None)

    def complete(self, connection: str) -> bool:
        """Every node GitHub counts for this connection was read: only then may rows absent
        from it be taken as deleted. (Files also against the PR's changed-file count: GitHub
        stops both the list and its `totalCount` at 3,000.)"""
        got = self.read(connection)
        return (
            connection not in self.incomplete
            and connection not in self.lost
            and not self.skipped(connection)
            and got >= self.totals.get(connection, 0)
            and (connection != "files" or got >= self.changed_files)
        )

    def skipped(self, part: str) -> bool:
        """Was this part not read at all (so the store's copy stands)?"""
        return part in self.refused or part in self.unread

    def gaps(self) -> dict[str, str]:
        """What of this PR was not read, part -> a phrase, for the sync summary and the
        item's record (store/gaps.py)."""
        out = {name: f"{name} not readable (FORBIDDEN)" for name in self.refused}
        out.update({name: f"{name} not read: {why}" for name, why in self.unread.items()})
        for connection in sorted(set(self.totals) | ({"files"} if self.rest_files else set())):
            if connection in out:
                continue
            got = self.read(connection)
            total = self.totals.get(connection, 0)
            if connection == "files":
                total = max(total, self.changed_files)
            if got < total:
                limit = f" (GitHub lists at most {FILES_CAP:,})" if connection == "files" else ""
                out[connection] = f"{got} of {total} {connection} available{limit}"
        return out


class _Sync:
    def __init__(
        self,
        store: Store,
        client: GitHubClient,
        owner: str,
        name: str,
        report: SyncReport,
        since: datetime | None,
        progress: Progress | None,
        verify: bool,
        pr_batch: int,
        teams: Sequence[str] = (),
    ) -> None:
        self.store = store
        self.teams = list(teams)
        self.client = client
        self.owner = owner
        self.name = name
        self.full_name = f"{owner}/{name}"
        self.report = report
        self.since = since
        self.progress = progress or (lambda _stage, _done, _total: None)
        self.verify = verify
        self.pr_batch = max(1, pr_batch)
        self.repo_id = 0
        self.vars = {"owner": owner, "name": name}
        self.review_id = queries.REVIEW_ID_FIELDS[0]
        self._quarantined: dict[int, quarantine.Quarantined] = {}
        self._gapped: set[int] = set()  # items with a recorded gap (store/gaps.py)

    def _note(self, text: str) -> None:
        if text in self.report.notes:
            return  # said once is enough (a record skipped by two listings, say)
        self.report.notes.append(text)
        log.warning("%s: %s", self.full_name, text)

    def _details_query(
        self,
        build: Callable[[str], str],
        shrinkable: bool,
        check: shapes.GraphQLCheck,
        what: str,
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Run a PR details query, falling back to `databaseId` on servers that lack
        `fullDatabaseId` (older GitHub Enterprise): one refused query, once per sync."""
        while True:
            try:
                return self.client.graphql_answer(
                    build(self.review_id),
                    self.vars,
                    shrinkable=shrinkable,
                    check=check,
                    what=what,
                )
            except GraphQLQueryError as exc:
                field_name = self.review_id
                fallback = queries.REVIEW_ID_FIELDS[-1]
                if field_name == fallback or not any(field_name in m for m in exc.messages):
                    raise
                log.info("%s: the server has no %s; using %s", self.full_name, field_name, fallback)
                self.review_id = fallback

    def run(self) -> None:
        self._repository()
        changed = False
        changed |= self._stream(
            "issues", "issues", "/issues", {"state": "all"}, nz.item_from_rest, self._write_items
        )
        changed |= self._stream(
            "comments",
            "comments",
            "/issues/comments",
            {},
            nz.comment_from_rest,
            self._write_plain,
        )
        changed |= self._stream(
            "review_comments",
            "review comments",
            "/pulls/comments",
            {},
            nz.review_comment_from_rest,
            self._write_plain,
        )
        self._pr_details()
        self._reconcile_items()
        if changed or self.verify:
            self._reconcile_totals()
        self._teams()
        # Last: the store now holds the repository as of this sync (facts/coverage.py).
        with self.store.begin() as conn:
            self.store.set_cursor(conn, self.repo_id, SYNCED_STREAM, None)

    # -- 6. maintainer teams ----------------------------------------------------------------

    def _teams(self) -> None:
        """Store who is in each team the config names as maintainers (facts/roles.py). One
        request a team, a free 304 while it is unchanged and fits one page. A team GitHub
        will not show, or answers oddly, keeps the members last listed, with a note."""
        for team in self.teams:
            org, _, slug = team.partition("/")
            path = f"/orgs/{org}/teams/{slug}/members"
            params = {"per_page": PER_PAGE}
            url = self.client.url_for(path, params)
            with self.store.begin() as conn:
                listed = self.store.get_cursor(conn, self.repo_id, team_stream(team)) is not None
                etag = self.store.get_etag(conn, url) if listed else None
            try:
                resp = self.client.get(path, params, etag=etag)
                if resp.not_modified:
                    continue
                pages = [resp.json]
                while isinstance(pages[-1], list) and len(pages[-1]) >= PER_PAGE:
                    more = {**params, "page": len(pages) + 1}
                    pages.append(self.client.get(path, more).json)
            except NotFoundError:
                self._team_note(team, "is not visible to this token (it needs read:org)")
                continue
            except PageTooDeep:
                self._team_note(team, "has more members than GitHub will page through")
                continue
            if not all(isinstance(page, list) for page in pages):
                self._team_note(team, "was answered with something other than a member list")
                continue
            logins = [
                m["login"]
                for page in pages
                for m in page
                if isinstance(m, dict) and isinstance(m.get("login"), str)
            ]
            with self.store.begin() as conn:
                write_team(self.store, conn, self.repo_id, team, logins)
                # Only a one-page answer may be repeated as a 304: with more pages, an unchanged
                # first page says nothing of the others.
                if len(pages) == 1:
                    self.store.set_etag(conn, url, resp.etag)
                else:
                    conn.execute(schema.http_cache.delete().where(schema.http_cache.c.key == url))
            self.report.team_members += len(logins)

    def _team_note(self, team: str, problem: str) -> None:
        note = f"team {team} {problem}; its members stay as last listed"
        self.report.notes.append(note)
        log.warning("%s: %s", self.full_name, note)

    # -- 1. repository ---------------------------------------------------------------------

    def _repository(self) -> None:
        path = f"/repos/{self.full_name}"
        url = self.client.url_for(path)
        with self.store.begin() as conn:
            known = self.store.repo_id(conn, self.full_name)
            etag = self.store.get_etag(conn, url) if known is not None else None
        try:
            resp = self.client.get(
                path, etag=etag, parse=shapes.rest_object(nz.repository_from_rest)
            )
        except NotFoundError:
            raise SourceError(
                f"repository {self.full_name} not found or not visible to this token",
                "check the name (OWNER/NAME) and that the token can read it",
            ) from None
        if resp.not_modified and known is not None:
            self.repo_id = known
            return
        record = resp.parsed
        if record.full_name.lower() != self.full_name.lower():
            # Renamed or transferred: GitHub redirected us. Keep the name the user asked for so
            # the next sync finds this row; the requests keep following the redirect.
            self.report.notes.append(f"{self.full_name} is now {record.full_name} on GitHub")
            record = record.model_copy(update={"full_name": self.full_name})
        with self.store.begin() as conn:
            self.repo_id = self.store.repo_id(conn, self.full_name, create=True) or 0
            update_repository(conn, self.repo_id, record)
            self.store.set_etag(conn, url, resp.etag)

    # -- 2./3. since streams -------------------------------------------------------------

    def _stream(
        self,
        stream: str,
        stage: str,
        suffix: str,
        extra: Mapping[str, str],
        convert: Callable[[Any], Record],
        write: Callable[[Connection, list[Any]], int],
    ) -> bool:
        """Read one `since` listing to its end; True if GitHub had anything new."""
        path = f"/repos/{self.full_name}{suffix}"
        with self.store.begin() as conn:
            cursor = self.store.get_cursor(conn, self.repo_id, stream)
        # An ETag is only trusted once this repository's stream has committed a page: the
        # cache table outlives a repository removed from the store.
        trust_etags = cursor is not None
        since, page = _parse_cursor(cursor)
        if self.since:
            since, page = nz.format_time(self.since), 1
        resuming = page > 1
        done = 0
        changed = False
        self.progress(stage, 0, None)
        while True:
            params: dict[str, Any] = {
                **extra,
                "sort": "updated",
                "direction": "asc",
                "per_page": PER_PAGE,
            }
            if since:
                params["since"] = since
            if page > 1:
                params["page"] = page
            url = self.client.url_for(path, params)
            etag = None
            if trust_etags:
                with self.store.begin() as conn:
                    etag = self.store.get_etag(conn, url)
            # The page is parsed whole before anything of it is used: a `{}` or an error
            # object is retried and then fails, never read as the end of the stream.
            try:
                resp = self.client.get(path, params, etag=etag, parse=shapes.rest_list(convert))
            except PageTooDeep:
                if page <= 1 or since is None:
                    raise
                # GitHub refuses page numbers this deep (422). Only a run of items sharing one
                # timestamp is paged by number, and its first pages are read: step past that
                # second rather than ask for the same page on every sync from now on.
                since_at = nz.parse_time(since)
                assert since_at is not None  # `since` is a stored, well-formed time here
                moved = nz.format_time(since_at + timedelta(seconds=1))
                self._note(
                    f"GitHub refused page {page} of the {stage} listing as too deep; moved on "
                    f"to rows updated after {since} (more rows of that second, if any, are "
                    "read when they next change)"
                )
                since, page, resuming = moved, 1, False
                with self.store.begin() as conn:
                    self.store.set_cursor(conn, self.repo_id, stream, _format_cursor(since, 1))
                continue
            if resp.not_modified:
                break
            listed: list[Any] = resp.parsed
            changed |= bool(listed)
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
            full = len(listed) >= PER_PAGE
            next_since, next_page = since, page + 1
            if full and times:
                newest = nz.format_time(max(times))
                if newest != since:
                    next_since, next_page = newest, 1
            with self.store.begin() as conn:
                written = write(conn, listed)
                if full:
                    self.store.set_cursor(
                        conn, self.repo_id, stream, _format_cursor(next_since, next_page)
                    )
                else:
                    self.store.set_cursor(conn, self.repo_id, stream, _format_cursor(since, page))
                    # An empty answer is never kept for a 304: a wrong `[]` carrying the real
                    # ETag would otherwise be repeated for good. (A true one is rare: `since`
                    # is inclusive and comes from rows we read; an empty stream costs one
                    # request a sync.)
                    if listed:
                        self.store.set_etag(conn, url, resp.etag)
            done += written
            self.progress(stage, done, None)
            if not full:
                break
            since, page = next_since, next_page
        log.info("%s: %s stream read %d rows", self.full_name, stage, done)
        return changed

    def _admit(self, table: sa.Table, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows the store can hold; each one it cannot (a number or id beyond its column,
        a year-9999 time: store/limits.py) is left out with a note naming it, so one bad
        record from GitHub costs that record, not the sync."""
        good = []
        for row in rows:
            problem = row_problem(table, row)
            if problem is None:
                good.append(row)
            else:
                self._note(f"skipped {row_name(table, row)}: {problem}")
        return good

    def _write_plain(self, conn: Connection, records: Sequence[Record]) -> int:
        """Upsert comments, reviews or review comments (each record made a row once), less
        any the store cannot hold; how many were written."""
        written = 0
        for kind, rows in record_rows(self.repo_id, records).items():
            rows = self._admit(TABLES[kind], rows)
            self.store.upsert(conn, TABLES[kind], rows)
            written += len(rows)
            if kind == "comment":
                self.report.comments += len(rows)
            elif kind == "review_comment":
                self.report.review_comments += len(rows)
        return written

    def _write_items(self, conn: Connection, records: list[ItemRecord]) -> int:
        t = schema.items
        candidates = []
        for record in records:
            row = to_row(record)
            row["repo_id"] = self.repo_id
            candidates.append(row)
        candidates = self._admit(t, candidates)
        if not candidates:
            return 0
        numbers = [row["number"] for row in candidates]
        existing = {
            row["number"]: row
            for row in conn.execute(
                sa.select(t.c.number, t.c.updated_at, *[t.c[c] for c in _DETAIL_COLUMNS]).where(
                    t.c.repo_id == self.repo_id, t.c.number.in_(numbers)
                )
            ).mappings()
        }
        rows: dict[int, dict[str, Any]] = {}
        for row in candidates:
            old = existing.get(row["number"])
            if old is not None and old["updated_at"] > row["updated_at"]:
                # The store already holds a newer copy (from GraphQL details); a lagging REST
                # replica must not roll it back.
                continue
            if old is not None:
                for column in _DETAIL_COLUMNS:
                    row[column] = old[column]
            rows[row["number"]] = row
        self.store.upsert(conn, t, list(rows.values()))
        self.report.items += len(rows)
        return len(rows)

    # -- 4. PR details -------------------------------------------------------------------

    def _pr_details(self) -> None:
        """Fetch the details of every PR whose stored copy is stale, in batches that shrink
        when GitHub finds a query too heavy (first fewer PRs, then smaller pages) or an answer
        keeps failing (to find the one PR it is about), and grow back after successes. A PR
        that fails alone is quarantined (quarantine.py); the rest go on."""
        t = schema.items
        with self.store.begin() as conn:
            pending = [
                row[0]
                for row in conn.execute(
                    sa.select(t.c.number)
                    .where(
                        t.c.repo_id == self.repo_id,
                        t.c.kind == "pr",
                        t.c.deleted.is_(False),
                        sa.or_(
                            t.c.detail_updated_at.is_(None),
                            t.c.detail_updated_at != t.c.updated_at,
                        ),
                    )
                    .order_by(t.c.number)
                )
            ]
            self._gapped = set(read_gaps(conn, self.repo_id))
            held = quarantine.load(conn, self.repo_id)
            for number in set(held) - set(pending):
                # Current (details came another way) or deleted: nothing left to retry.
                quarantine.release(self.store, conn, self.repo_id, number)
                del held[number]
            waiting = {n: q for n, q in held.items() if not q.due}
            for entry in waiting.values():
                entry.wait -= 1
                quarantine.save(self.store, conn, self.repo_id, entry)
        for entry in waiting.values():
            self._note(
                f"#{entry.number}: details set aside after {entry.failures} failed "
                f"{'try' if entry.failures == 1 else 'tries'} ({entry.reason}); "
                f"next try in {entry.wait + 1} {'run' if entry.wait == 0 else 'runs'}"
            )
        pending = [n for n in pending if n not in waiting]
        self._quarantined = held
        total = len(pending)
        self.progress("pull request details", 0, total)
        full_page = max(queries.CONNECTIONS.values())
        size, page, streak, done = self.pr_batch, full_page, 0, 0
        suspects: list[tuple[int, RequestFailed]] = []
        while done < total:
            batch = pending[done : done + size]
            alone = len(batch) == 1
            try:
                prs = self._fetch_prs(batch, page, shrinkable=not alone or page > queries.MIN_PAGE)
            except GraphQLTooLarge as exc:
                if size > 1:
                    size = max(1, len(batch) // 2)
                else:
                    page = max(queries.MIN_PAGE, page // 2)
                streak = 0
                log.info(
                    "PR details of %s too heavy (%s); trying %d PRs, pages of %d",
                    batch,
                    exc,
                    size,
                    page,
                )
                continue
            except RequestFailed as exc:
                streak = 0
                if not alone:
                    # Narrow it down: most likely one PR's answer is at fault.
                    size = max(1, len(batch) // 2)
                    continue
                suspects.append((batch[0], exc))
                done += 1
                if len(suspects) >= MAX_SUSPECTS:
                    # Several PRs in a row failing alone, nothing succeeding between: the
                    # trouble is GitHub's (or the query's), not theirs. Nothing set aside.
                    raise exc
                continue
            if suspects:
                self._set_aside(suspects)
                suspects = []
            with self.store.begin() as conn:
                stored = dict(
                    conn.execute(
                        sa.select(t.c.number, t.c.updated_at).where(
                            t.c.repo_id == self.repo_id, t.c.number.in_(list(prs))
                        )
                    ).all()
                )
                for number, pr in prs.items():
                    self._write_pr(conn, number, pr, stored.get(number))
                    if number in held:
                        quarantine.release(self.store, conn, self.repo_id, number)
            done += len(batch)
            self.report.pr_details += len(batch)
            self.progress("pull request details", done, total)
            streak += 1
            if streak >= 2 and (page < full_page or size < self.pr_batch):
                if page < full_page:
                    page = min(full_page, page * 2)
                else:
                    size = min(self.pr_batch, size + max(1, size // 2))
                streak = 0
        if suspects:
            # No later success showed GitHub answering: ask it something cheap first.
            self.client.graphql(
                queries.REPO_TOTALS, self.vars, check=shapes.repo_totals, what="repository totals"
            )
            self._set_aside(suspects)

    def _set_aside(self, suspects: Sequence[tuple[int, RequestFailed]]) -> None:
        """Quarantine PRs whose details failed alone while GitHub answered other requests."""
        with self.store.begin() as conn:
            for number, exc in suspects:
                before = self._quarantined.get(number)
                failures = (before.failures if before else 0) + 1
                entry = quarantine.Quarantined(
                    number=number,
                    failures=failures,
                    wait=quarantine.gap_after(failures),
                    reason=exc.cause,
                )
                quarantine.save(self.store, conn, self.repo_id, entry)
                self._note(
                    f"#{number}: details failed even alone ({exc.cause}); set aside, next try "
                    f"in {entry.wait + 1} {'run' if entry.wait == 0 else 'runs'}"
                )

    def _fetch_prs(
        self, batch: Sequence[int], page: int, *, shrinkable: bool
    ) -> dict[int, _PR | None]:
        """Everything about a batch of PRs, read before anything is written: the details
        query, continuation pages, missing review ids and REST file lists."""
        data, errors = self._details_query(
            lambda rid: queries.pr_details(batch, rid, page),
            shrinkable=shrinkable,
            check=shapes.pr_details(batch),
            what="pull request details",
        )
        repo = data["repository"]
        prs: dict[int, _PR | None] = {}
        for number in batch:
            alias = f"p{number}"
            node = repo[alias]
            if node is None:
                prs[number] = None
                continue
            pr = _PR(node=node)
            for connection in queries.CONNECTIONS:
                pr.add(
                    connection,
                    node[connection],
                    shapes.forbidden_at(errors, ["repository", alias, connection]),
                )
            for name in _FIELD_COLUMNS:
                why = shapes.forbidden_at(errors, ["repository", alias, name])
                if why is not None:
                    pr.refused[name] = why
            prs[number] = pr
        found = [pr for pr in prs.values() if pr is not None]
        self._complete(found, page)
        self._review_ids(found)
        for pr in found:
            if pr.rest_files:
                self._rest_files(pr)
        return prs

    def _complete(self, prs: Sequence[_PR], page: int) -> None:
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
            try:
                data, errors = self._details_query(
                    lambda rid, chunk=chunk, page=page: queries.continuations(chunk, rid, page),
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

    def _rest_files(self, pr: _PR) -> None:
        """GraphQL answered `files: null` (and `changedFiles: 0`) for a very large PR: list
        its files by REST, which stops at 3,000 too, and take the true count from the PR's
        REST record, so a list cut short is marked incomplete rather than taken as whole."""
        number = pr.number
        base = f"/repos/{self.full_name}/pulls/{number}"
        try:
            pull = self.client.get(base, parse=shapes.rest_object(nz.pull_sizes_from_rest))
        except NotFoundError:
            pr.unread["files"] = "GitHub has no REST record of the pull request"
            return
        pr.rest_sizes = pull.parsed
        listed = self._list_all(
            f"{base}/files", lambda row: nz.file_from_rest(row, number), limit=FILES_CAP
        )
        if listed is None:
            pr.unread["files"] = "GitHub has no file list for the pull request"
            return
        files, complete = listed
        pr.file_records = list({record.path: record for record in files}.values())
        if not complete:
            pr.lost.add("files")

    def _review_ids(self, prs: Sequence[_PR]) -> None:
        """Fill in the REST id of reviews whose `fullDatabaseId` GitHub answered null: the id
        stored with the same node id, else the PR's REST review listing's; a review still
        without one is left out with a note, as the other incomplete lists are."""
        for pr in prs:
            reviews = pr.nodes.get("reviews", {})
            missing = [n for n in reviews.values() if nz.review_id(n) is None]
            if not missing:
                continue
            number = int(pr.node["number"])
            rt = schema.reviews
            with self.store.begin() as conn:
                ids = {
                    github_id: rid
                    for rid, github_id in conn.execute(
                        sa.select(rt.c.id, rt.c.github_id).where(
                            rt.c.repo_id == self.repo_id,
                            rt.c.number == number,
                            rt.c.github_id.in_([n.get("id") for n in missing]),
                        )
                    )
                }
            if any(n.get("id") not in ids for n in missing):
                listed = self._list_all(
                    f"/repos/{self.full_name}/pulls/{number}/reviews", shapes.rest_review_ids
                )
                ids.update(nz.review_ids_from_rest(listed[0] if listed else []))
            for node in missing:
                if node.get("id") in ids:
                    node["fullDatabaseId"] = str(ids[node["id"]])
                else:
                    reviews.pop(node.get("id") or "", None)
                    pr.noted.add("reviews")
                    note = f"#{number}: review {node.get('id')} has no id on GitHub; left out"
                    self.report.notes.append(note)
                    log.warning("%s: %s", self.full_name, note)

    def _write_pr(
        self, conn: Connection, number: int, pr: _PR | None, stored: datetime | None = None
    ) -> None:
        """Write one PR's details; `stored` is its stored `updated_at`."""
        t = schema.items
        where = sa.and_(t.c.repo_id == self.repo_id, t.c.number == number)
        if pr is None:
            # GitHub has no PR under this number any more: stop asking on every sync.
            conn.execute(t.update().where(where).values(detail_updated_at=t.c.updated_at))
            self.report.notes.append(f"#{number}: GitHub returned no pull request details")
            return
        values = nz.pr_fields_from_graphql(pr.node)
        values.pop("number")
        for name, columns in _FIELD_COLUMNS.items():
            if name in pr.refused:
                for column in columns:
                    values.pop(column, None)  # GitHub refused it: keep what the store holds
        if pr.rest_files:
            values.update(pr.rest_sizes)
        else:
            values["changed_files"] = pr.changed_files
        # A PR has two update times on GitHub, its issue record's (the REST listing's) and its
        # pull request record's (GraphQL's), and a comment moves only the first. Keep the
        # newer, never roll back, and mark the details current for it, so the two differing
        # does not make every sync fetch them again.
        if stored is not None and stored > values["updated_at"]:
            values["updated_at"] = stored
        values["detail_updated_at"] = values["updated_at"]
        problem = row_problem(t, values)
        if problem is not None:
            self._note(f"skipped the details of #{number}: {problem}")
            conn.execute(t.update().where(where).values(detail_updated_at=t.c.updated_at))
            return
        if not pr.skipped("labels"):
            values["labels"] = [n["name"] for n in pr.nodes.get("labels", {}).values()]
        reviews = [nz.review_from_graphql(n, number) for n in pr.nodes.get("reviews", {}).values()]
        if not pr.skipped("reviews"):
            values["review_comments_count"] = sum(r.comments_count for r in reviews)
        if not pr.skipped("reviewThreads"):
            values["unresolved_threads"] = nz.unresolved_threads(
                pr.nodes.get("reviewThreads", {}).values()
            )
        values["deleted"] = False
        conn.execute(t.update().where(where).values(**values))
        self.report.items += 1
        for why in sorted(set(pr.refused.values())):
            # GitHub's reason once (it is long, and the same for every PR it applies to).
            self._note(f"GitHub refused this token parts of some pull requests: {why}")
        gaps = pr.gaps()
        for part, what in gaps.items():
            if part not in pr.noted:
                kept = "; kept what the store holds" if pr.skipped(part) else ""
                self._note(f"#{number}: {what}{kept}")
        if gaps or number in self._gapped:
            write_gaps(self.store, conn, self.repo_id, number, gaps)
            self._gapped.discard(number)

        rt = schema.reviews
        if not pr.skipped("reviews"):
            self.report.reviews += self._write_plain(conn, reviews)
            held = conn.execute(
                sa.select(rt.c.id).where(
                    rt.c.repo_id == self.repo_id, rt.c.number == number, rt.c.deleted.is_(False)
                )
            ).scalars()
            verdict = proven_gone(
                held,
                {r.id for r in reviews},
                what=f"reviews of #{number}",
                complete=pr.complete("reviews"),
                expected=pr.totals.get("reviews"),
            )
            if verdict.refused:
                self._note(verdict.refused)
            self.report.marked_deleted += self.store.mark_deleted(
                conn, rt, self.repo_id, verdict.gone
            )

        if not pr.skipped("files"):
            files = pr.files()
            file_rows = self._admit(schema.pr_files, self._rows(files))
            # GitHub does not give patches here; keep the hunks a git sync stored (the
            # risk rules read them) for the files both sources know.
            pf = schema.pr_files
            patches = dict(
                conn.execute(
                    sa.select(pf.c.path, pf.c.patch).where(
                        pf.c.repo_id == self.repo_id,
                        pf.c.number == number,
                        pf.c.patch.is_not(None),
                    )
                ).all()
            )
            for row in file_rows:
                row["patch"] = patches.get(row["path"], row["patch"])
            complete = pr.complete("files") and len(file_rows) == len(files)
            self._children(conn, pf, number, file_rows, complete)
            self.report.pr_files += len(file_rows)
        if not pr.skipped("closingIssuesReferences"):
            refs = [
                nz.closing_ref_from_graphql(n, number)
                for n in pr.nodes.get("closingIssuesReferences", {}).values()
            ]
            ref_rows = self._admit(schema.closing_refs, self._rows(refs))
            self._children(
                conn,
                schema.closing_refs,
                number,
                ref_rows,
                pr.complete("closingIssuesReferences") and len(ref_rows) == len(refs),
            )
            self.report.closing_refs += len(ref_rows)

    def _children(
        self,
        conn: Connection,
        table: sa.Table,
        number: int,
        rows: list[dict[str, Any]],
        complete: bool,
    ) -> None:
        """A PR's files or closing refs: replaced by a complete list, only added to by a
        partial one (a row missing from a partial list proves nothing)."""
        if complete:
            self.store.replace_children(conn, table, self.repo_id, number, rows)
        else:
            self.store.upsert(conn, table, rows)

    def _rows(self, records: Iterable[Record]) -> list[dict[str, Any]]:
        rows = []
        for record in records:
            row = to_row(record)
            row["repo_id"] = self.repo_id
            rows.append(row)
        return rows

    # -- 5. deletions ----------------------------------------------------------------------

    def _stored_counts(self, conn: Connection, table: sa.Table) -> dict[int, int]:
        return {
            number: count
            for number, count in conn.execute(
                sa.select(table.c.number, sa.func.count())
                .where(table.c.repo_id == self.repo_id, table.c.deleted.is_(False))
                .group_by(table.c.number)
            )
        }

    def _reconcile_items(self) -> None:
        t = schema.items
        with self.store.begin() as conn:
            candidates = list(
                conn.execute(
                    sa.select(
                        t.c.number,
                        t.c.kind,
                        t.c.comments_count,
                        t.c.review_comments_count,
                        t.c.updated_at,
                    )
                    .where(
                        t.c.repo_id == self.repo_id,
                        t.c.deleted.is_(False),
                        sa.or_(
                            t.c.checked_updated_at.is_(None),
                            t.c.checked_updated_at != t.c.updated_at,
                        ),
                        # A PR is checked against its GraphQL counts, so only once they exist.
                        sa.or_(t.c.kind == "issue", t.c.detail_updated_at == t.c.updated_at),
                    )
                    .order_by(t.c.number)
                ).mappings()
            )
            comments = self._stored_counts(conn, schema.comments)
            review_comments = self._stored_counts(conn, schema.review_comments)
        total = len(candidates)
        self.progress("reconcile", 0, total)
        agreed: list[int] = []
        for done, item in enumerate(candidates, 1):
            number = item["number"]
            bad_comments = self._mismatch(comments.get(number, 0), item["comments_count"])
            bad_reviews = item["kind"] == "pr" and self._mismatch(
                review_comments.get(number, 0), item["review_comments_count"]
            )
            if bad_comments or bad_reviews:
                self._relist(
                    number,
                    item["updated_at"],
                    item["comments_count"] if bad_comments else None,
                    item["review_comments_count"] if bad_reviews else None,
                )
            else:
                agreed.append(number)
            if len(agreed) >= 500 or done == total:
                self._mark_checked(agreed)
                agreed = []
            if done % 50 == 0 or done == total:
                self.progress("reconcile", done, total)

    def _mismatch(self, have: int, expected: int | None) -> bool:
        if expected is None:
            return False
        if have > expected:
            return True  # something we hold was deleted on GitHub
        # Fewer than GitHub counts: normally a race, worth a re-list. A `--since` sync holds
        # only the window's comments by design; re-listing every old thread it touches would
        # cost a request per item, so it leaves them to later syncs.
        return have < expected and self.since is None

    def _mark_checked(self, numbers: list[int]) -> None:
        if not numbers:
            return
        t = schema.items
        with self.store.begin() as conn:
            conn.execute(
                t.update()
                .where(t.c.repo_id == self.repo_id, t.c.number.in_(numbers))
                .values(checked_updated_at=t.c.updated_at)
            )

    def _list_all(
        self, path: str, convert: Callable[[Any], Any], *, limit: int | None = None
    ) -> tuple[list[Any], bool] | None:
        """Every row of a small per-item listing by page number, and whether that is all of
        it; None if the item is gone. Each page is parsed whole (shapes.py). A listing GitHub
        stops paging (422 for a page too deep) comes back incomplete, so nothing absent from
        it is taken as deleted. `limit` is where GitHub stops a listing anyway (3,000 files)."""
        rows: list[Any] = []
        page = 1
        while True:
            params: dict[str, Any] = {"per_page": PER_PAGE}
            if page > 1:
                params["page"] = page
            try:
                resp = self.client.get(path, params, parse=shapes.rest_list(convert))
            except NotFoundError:
                return None
            except PageTooDeep:
                if page == 1:
                    raise
                self._note(f"GitHub lists only {len(rows)} rows of {path} (page {page} refused)")
                return rows, False
            chunk: list[Any] = resp.parsed
            rows.extend(chunk)
            if len(chunk) < PER_PAGE or (limit is not None and len(rows) >= limit):
                return rows, True
            page += 1

    def _relist(
        self,
        number: int,
        updated_at: datetime,
        comments: int | None,
        review_comments: int | None,
    ) -> None:
        """Re-list an item's comments (`comments` is GitHub's count for them, None to skip)
        and review comments, writing what is listed and marking deleted only what a complete,
        consistent listing proves gone (deletions.py)."""
        base = f"/repos/{self.full_name}"
        self.report.reconciled += 1
        plans = [
            (schema.comments, f"{base}/issues/{number}/comments", nz.comment_from_rest, comments),
            (
                schema.review_comments,
                f"{base}/pulls/{number}/comments",
                nz.review_comment_from_rest,
                review_comments,
            ),
        ]
        lists: list[tuple[sa.Table, list[Any], int, bool]] = []
        for table, path, convert, expected in plans:
            if expected is None:
                continue
            listed = self._list_all(path, convert)
            if listed is None and not self._item_gone(number):
                # The item is there: the 404 was GitHub's hiccup. Ask once more.
                listed = self._list_all(path, convert)
                if listed is None:
                    self._note(
                        f"#{number}: GitHub answered 404 for GET {path} but not for the item "
                        "itself; kept everything, the next sync checks again"
                    )
                    return
            if listed is None:
                return  # marked deleted by _item_gone
            rows, complete = listed
            lists.append((table, [r for r in rows if r.number == number], expected, complete))
        t = schema.items
        with self.store.begin() as conn:
            for table, records, expected, complete in lists:
                self._write_plain(conn, records)
                held = conn.execute(
                    sa.select(table.c.id).where(
                        table.c.repo_id == self.repo_id,
                        table.c.number == number,
                        table.c.deleted.is_(False),
                    )
                ).scalars()
                kind = "comments" if table is schema.comments else "review comments"
                verdict = proven_gone(
                    held,
                    {r.id for r in records},
                    what=f"{kind} of #{number}",
                    complete=complete,
                    expected=expected,
                )
                if verdict.refused:
                    self._note(verdict.refused)
                self.report.marked_deleted += self.store.mark_deleted(
                    conn, table, self.repo_id, verdict.gone
                )
            # Checked even when a verdict was refused: the rows are kept, and re-listing the
            # same thread on every sync would not make GitHub's answer more trustworthy.
            conn.execute(
                t.update()
                .where(t.c.repo_id == self.repo_id, t.c.number == number)
                .values(checked_updated_at=updated_at)
            )

    def _item_gone(self, number: int) -> bool:
        """GitHub answered 404/410 for the item's comment listing. A 404 alone is weak
        evidence (a replica lagging, a hiccup), so the item itself is asked for: only when it
        is gone too (404, 410 for a deleted issue, or a redirect to another item: transferred)
        is it marked deleted. True if it was."""
        try:
            resp = self.client.get(
                f"/repos/{self.full_name}/issues/{number}",
                parse=shapes.rest_object(nz.item_from_rest),
            )
        except NotFoundError:
            resp = None
        if resp is not None and resp.parsed.number == number:
            return False
        t = schema.items
        with self.store.begin() as conn:
            self.report.marked_deleted += conn.execute(
                t.update()
                .where(t.c.repo_id == self.repo_id, t.c.number == number)
                .values(deleted=True)
            ).rowcount
        return True

    def _reconcile_totals(self) -> None:
        """Find deleted (or transferred) issues and PRs: the store holding more than GitHub
        says exists is the signal; only then are numbers listed, and only a complete listing
        that agrees with its own count marks anything deleted (deletions.py)."""
        data = self.client.graphql(
            queries.REPO_TOTALS, self.vars, check=shapes.repo_totals, what="repository totals"
        )
        totals = shapes.totals(data)
        t = schema.items
        with self.store.begin() as conn:
            stored = dict(
                conn.execute(
                    sa.select(t.c.kind, sa.func.count())
                    .where(t.c.repo_id == self.repo_id, t.c.deleted.is_(False))
                    .group_by(t.c.kind)
                ).all()
            )
        for kind, connection in (("issue", "issues"), ("pr", "pullRequests")):
            if stored.get(kind, 0) <= totals[kind]:
                continue
            self.progress("reconcile", 0, None)
            listed, count = self._list_numbers(connection)
            with self.store.begin() as conn:
                held = conn.execute(
                    sa.select(t.c.number).where(
                        t.c.repo_id == self.repo_id, t.c.kind == kind, t.c.deleted.is_(False)
                    )
                ).scalars()
                verdict = proven_gone(
                    held,
                    listed,
                    what=f"{kind}s" if kind == "issue" else "pull requests",
                    complete=count is not None,
                    expected=count,
                )
                if verdict.refused:
                    self._note(verdict.refused)
                missing = verdict.gone
                for start in range(0, len(missing), 500):
                    self.report.marked_deleted += conn.execute(
                        t.update()
                        .where(
                            t.c.repo_id == self.repo_id,
                            t.c.number.in_(missing[start : start + 500]),
                        )
                        .values(deleted=True)
                    ).rowcount
            if missing:
                log.info("%s: %d %ss no longer on GitHub", self.full_name, len(missing), kind)

    def _list_numbers(self, connection: str) -> tuple[set[int], int | None]:
        """Every issue or PR number, and GitHub's count for them (None when the count changed
        between pages: the listing is then not a consistent picture)."""
        numbers: set[int] = set()
        counts: set[int] = set()
        after: str | None = None
        query = queries.item_numbers(connection)
        check = shapes.item_numbers(connection)
        what = "issue numbers" if connection == "issues" else "pull request numbers"
        while True:
            data = self.client.graphql(query, {**self.vars, "after": after}, check=check, what=what)
            page = data["repository"][connection]
            numbers.update(int(n["number"]) for n in page["nodes"])
            counts.add(int(page["totalCount"]))
            info = page["pageInfo"]
            if not info["hasNextPage"]:
                return numbers, counts.pop() if len(counts) == 1 else None
            after = info["endCursor"]
