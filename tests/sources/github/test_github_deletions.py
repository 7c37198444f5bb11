"""Deleted issues and PRs found by counting creation ranges (missing.py), and a totals check that
stays owed until one succeeds (store/owed.py), on SQLite and PostgreSQL.

The repository here holds 500 issues and 250 PRs, more than one listing page of each, so the
search is cheaper than listing every number and is what runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from itertools import pairwise

import pytest

from testkit.servers.github import FakeGitHub, Request
from tests.sources.github.test_github_dataloss import REPO, T0, deleted_rows, small_repo
from tests.sources.github.test_github_sync import TOKEN, assert_same, sync
from tidings.common import records as r
from tidings.errors import SourceError
from tidings.sources.github import missing
from tidings.store import Store, owed
from tidings.store.rows import read_records

pytestmark = pytest.mark.slow_on_postgres

ISSUES, PRS = 500, 250  # issues are #1-500, PRs #501-750, one a minute from T0


class Queries:
    """The GraphQL queries a fake answered, by what they are."""

    def __init__(self, gh: FakeGitHub) -> None:
        self.seen: list[str] = []
        gh.on_request(self._record)

    def _record(self, _gh: FakeGitHub, request: Request) -> None:
        if request.api == "graphql":
            self.seen.append(json.loads(request.body)["query"])

    def clear(self) -> None:
        self.seen.clear()

    def count(self, needle: str) -> int:
        return sum(1 for q in self.seen if needle in q)

    @property
    def searches(self) -> int:
        return self.count("search(query:")

    @property
    def lookups(self) -> int:
        return self.count("issueOrPullRequest(")

    @property
    def listings(self) -> int:
        return self.count("(first: 100, after: $after)")


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(small_repo(issues=ISSUES, prs=PRS), token=TOKEN) as fake:
        yield fake


def _is_deleted(store: Store, number: int) -> bool:
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        [item] = [
            x
            for x in read_records(conn, repo_id)
            if isinstance(x, r.ItemRecord) and x.number == number
        ]
    return item.deleted


def _owed(store: Store) -> owed.Owed | None:
    with store.begin() as conn:
        return owed.totals_owed(conn, store.require_repo(conn, REPO))


def _touch(gh: FakeGitHub) -> None:
    gh.advance(60)
    gh.update_item(REPO, 1, title="a change, so the sync checks the totals")


def test_deletions_are_found_by_counting_ranges_not_by_listing(
    store: Store, gh: FakeGitHub
) -> None:
    sync(store, gh, REPO)
    assert _owed(store) is None  # the first sync's check succeeded
    queries = Queries(gh)
    gone = [150, 151, 480, 600]  # three issues (two of them neighbours), a PR
    for number in gone:
        gh.delete_item(REPO, number)
    _touch(gh)
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 4 and not report.notes
    assert all(_is_deleted(store, n) for n in gone)
    assert queries.listings == 0
    # Issues: 500 in 5 ranges of 100, one count query; the two lossy ranges' 200 numbers in
    # two lookups. PRs: 250 in 3 ranges (#501-583, #584-667, #668-750), one count query, then
    # the second range's 84 numbers in one lookup.
    assert (queries.searches, queries.lookups) == (2, 3)
    assert _owed(store) is None
    assert_same(store, gh, REPO)


def test_a_deletion_in_a_large_range_is_narrowed_again(store: Store) -> None:
    with FakeGitHub(small_repo(issues=1500), token=TOKEN) as gh:
        sync(store, gh, REPO)
        queries = Queries(gh)
        gh.delete_item(REPO, 900)
        _touch(gh)
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 1 and _is_deleted(store, 900)
        # 1,500 issues: 8 ranges of 187 or 188 (#751-938 holds #900), then that one in 2 of
        # 94 (#845-938), then one lookup — against 15 pages for the listing.
        assert (queries.searches, queries.lookups, queries.listings) == (2, 1, 0)


def test_a_small_store_lists_its_numbers_as_before(store: Store) -> None:
    with FakeGitHub(small_repo(issues=30, prs=10), token=TOKEN) as gh:
        sync(store, gh, REPO)
        queries = Queries(gh)
        gh.delete_item(REPO, 7)
        _touch(gh)
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 1
        # One page lists them all: no search can be cheaper.
        assert (queries.searches, queries.lookups, queries.listings) == (0, 0, 1)


def test_a_new_item_created_mid_search_does_not_spoil_it(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    # Before each count query a new issue opens: it is newer than everything the store
    # holds, so it falls in no range.
    gh.inject(
        "mutate",
        body_contains="search(query:",
        times=None,
        action=lambda f: f.add_item(REPO, kind="issue"),
    )
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 1 and _is_deleted(store, 300)
    assert not report.notes and _owed(store) is None


def test_an_item_deleted_mid_search_is_found_with_its_range(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    # The totals counted one issue missing; #301 goes too before the ranges are counted.
    gh.inject(
        "mutate", body_contains="is:issue created:", action=lambda f: f.delete_item(REPO, 301)
    )
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 2 and _is_deleted(store, 300) and _is_deleted(store, 301)
    assert not report.notes and _owed(store) is None
    assert_same(store, gh, REPO)


def test_a_lagging_search_index_leaves_the_check_owed_for_a_later_quiet_sync(
    store: Store, gh: FakeGitHub
) -> None:
    sync(store, gh, REPO)
    gh.search_lag = 600  # GitHub's search still counts what was deleted in the last 10 minutes
    gh.delete_item(REPO, 300)
    _touch(gh)
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 0 and not _is_deleted(store, 300)
    assert report.notes == [
        "1 issue more in the store than on GitHub could not be found (GitHub's search may lag "
        "behind a deletion); checked again by the next sync"
    ]
    assert _owed(store) is not None
    gh.advance(600)
    report = sync(store, gh, REPO)  # nothing changed: only the debt makes it look
    assert report.marked_deleted == 1 and _is_deleted(store, 300) and not report.notes
    assert _owed(store) is None
    queries = Queries(gh)
    report = sync(store, gh, REPO)  # paid: quiet again, and free
    assert queries.seen == [] and report.requests == 4


def test_a_lasting_disagreement_is_checked_with_a_growing_gap(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    # The search index stops just after the newest item: it never sees this deletion (the
    # clock stands still from here).
    newest = T0 + timedelta(minutes=ISSUES + PRS)
    gh.search_lag = (gh.clock - newest).total_seconds()
    report = sync(store, gh, REPO)  # run 1: checked, not found
    assert report.notes[-1].endswith("checked again by the next sync")
    queries = Queries(gh)
    checked = []
    for _ in range(7):  # runs 2-8: next run, skip 1, check, skip 3, check
        queries.clear()
        sync(store, gh, REPO)
        checked.append(queries.count("pullRequests { totalCount }") == 1)
    assert checked == [True, False, True, False, False, False, True]
    assert not _is_deleted(store, 300) and deleted_rows(store) == 0
    assert _owed(store) == owed.Owed(tries=4, wait=7, reason="unexplained: 1 issue")
    # A change makes it due at once.
    gh.search_lag = 0
    _touch(gh)
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 1 and _owed(store) is None


@pytest.mark.parametrize("repo_size", ["search", "listing"])
def test_a_deletion_during_a_failed_totals_check_is_found_by_a_later_quiet_sync(
    store: Store, repo_size: str
) -> None:
    """Issue #25: the check used to run only when a listing changed, so a deletion during a
    sync whose check failed was never found by the quiet syncs after it."""
    issues, prs = (ISSUES, PRS) if repo_size == "search" else (30, 10)
    with FakeGitHub(small_repo(issues=issues, prs=prs), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.delete_item(REPO, 7)
        _touch(gh)
        gh.inject("502", body_contains="pullRequests { totalCount }", times=None)
        with pytest.raises(SourceError):
            sync(store, gh, REPO)
        assert _owed(store) is not None and not _is_deleted(store, 7)
        gh.clear_faults()
        report = sync(store, gh, REPO)  # quiet: every listing a 304
        assert report.not_modified >= 2
        assert report.marked_deleted == 1 and _is_deleted(store, 7)
        assert _owed(store) is None
        assert_same(store, gh, REPO)


def test_a_listing_whose_count_moves_is_refused_and_retried_on_a_quiet_sync(
    store: Store,
) -> None:
    """The listing's own weakness (a count that moves between its pages refuses it) costs a
    retry on a later sync, not the deletion."""
    with FakeGitHub(small_repo(issues=150, prs=0), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.delete_item(REPO, 7)
        _touch(gh)
        # Searching 150 issues costs as much as listing their two pages, so they are listed;
        # issue #120 goes between the pages.
        gh.inject(
            "mutate",
            body_contains="issues(first: 100, after: $after)",
            skip=1,
            action=lambda f: f.delete_item(REPO, 120),
        )
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 0
        assert report.notes == [
            "kept 2 issues missing from GitHub's answer: the listing was incomplete"
        ]
        assert _owed(store) is not None
        # Nothing new is listed (the last issues page is re-read only because #120 left it),
        # so only the debt makes this sync look again.
        report = sync(store, gh, REPO)
        assert report.marked_deleted == 2 and _is_deleted(store, 7) and _is_deleted(store, 120)
        assert _owed(store) is None


def test_search_counts_of_zero_everywhere_delete_nothing(store: Store, gh: FakeGitHub) -> None:
    """A search answering 0 for every range makes everything look lossy: the search gives up
    once it would cost more than the listing, and the listing decides."""
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    gh.inject("zero_totals", body_contains="search(query:", times=None)
    queries = Queries(gh)
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 1 and deleted_rows(store) == 1 and _is_deleted(store, 300)
    # One count query said all 5 ranges of issues lost something: asking for their 500
    # numbers costs as much as listing them, so they were listed (five pages).
    assert (queries.searches, queries.lookups, queries.listings) == (1, 0, 5)


def test_not_found_for_far_more_than_the_totals_miss_is_refused(
    store: Store, gh: FakeGitHub
) -> None:
    """NOT_FOUND is the evidence, held to the totals: an answer saying a whole range of 100
    issues is gone, where one is missing, is kept as a broken answer."""
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    lossy = range(201, 301)  # the range #300 is in: its numbers are what is asked for
    payload = {
        "data": {"repository": {f"n{n}": None for n in lossy}},
        "errors": [
            {"type": "NOT_FOUND", "path": ["repository", f"n{n}"], "message": "Could not resolve"}
            for n in lossy
        ],
    }
    gh.inject("bad_body", body_contains="issueOrPullRequest(", payload=payload, times=None)
    report = sync(store, gh, REPO)
    assert deleted_rows(store) == 0
    assert report.notes == [
        "kept 100 issues GitHub answered NOT_FOUND for: its totals miss only 1, so the "
        "answer looks broken; the next sync checks again"
    ]
    assert _owed(store) is not None
    gh.clear_faults()
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 1 and _is_deleted(store, 300)


def test_a_lookup_refused_to_the_token_is_kept(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh, REPO)
    gh.delete_item(REPO, 300)
    _touch(gh)
    lossy = range(201, 301)
    payload = {
        "data": {"repository": {f"n{n}": {"number": n} for n in lossy} | {"n300": None}},
        "errors": [{"type": "FORBIDDEN", "path": ["repository", "n300"], "message": "no"}],
    }
    gh.inject("bad_body", body_contains="issueOrPullRequest(", payload=payload)
    report = sync(store, gh, REPO)
    assert report.marked_deleted == 0 and not _is_deleted(store, 300)
    assert _owed(store) is not None  # not known gone: looked for again


# -- the search's arithmetic ----------------------------------------------------------------


def _span(seconds: list[int]) -> list[tuple[int, datetime]]:
    return [(i + 1, T0 + timedelta(seconds=s)) for i, s in enumerate(seconds)]


def test_cut_makes_equal_parts_and_never_splits_a_second() -> None:
    parts = missing._cut(_span(list(range(800))))
    assert [len(p) for p in parts] == [100] * 8
    # 250 items, the middle 100 in one second: the boundaries move to where the second changes.
    seconds = list(range(75)) + [100] * 100 + list(range(200, 275))
    parts = missing._cut(_span(seconds))
    assert sum(len(p) for p in parts) == 250
    for a, b in pairwise(parts):
        assert a[-1][1] < b[0][1]
    assert any(len(p) >= 100 and p[0][1] == p[-1][1] == T0 + timedelta(seconds=100) for p in parts)
    # One second cannot be cut at all; a range of 100 or fewer is not cut.
    assert missing._cut(_span([5] * 300)) == [_span([5] * 300)]
    assert len(missing._cut(_span(list(range(100))))) == 1


def test_search_cost_grows_with_the_log_of_the_store() -> None:
    # 36,000 PRs, one lost: 8 ranges of 4,500, 8 of 563, 6 of 94 (a count query each), then one
    # lookup of 94 numbers: 4 queries, against 360 pages for the listing.
    assert missing.search_cost(36_000, 1, 1) == 4
    assert missing.listing_cost(36_000) == 360
    # Five lost, in five ranges at each level below the first: 1 + 5 + 4 count queries (40
    # counts, then 30, 8 a query), and 5 × 94 numbers asked for in 5 queries.
    assert missing.search_cost(36_000, 1, 5) == 15
    assert missing.search_cost(1_000, 1, 1) == 3  # 8 of 125, 2 of 63, one lookup
    assert missing.search_cost(100, 1, 1) == 1  # no count: the 100 are asked for
    # Every item lost: dearer than the listing, which is then used instead.
    assert missing.search_cost(1_000, 1, 1_000) > missing.listing_cost(1_000)


def test_second_floors_to_utc() -> None:
    at = datetime(2026, 3, 2, 9, 30, 15, 999_000, tzinfo=UTC)
    assert missing._second(at) == datetime(2026, 3, 2, 9, 30, 15, tzinfo=UTC)
