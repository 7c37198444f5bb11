"""What real GitHub answers that a naive fake never does, and how the sync survives it (#10).

Each behaviour is taught to the loopback GitHub as a fault or a data variant (testkit/servers/
github.py) and run on SQLite and PostgreSQL: after it, the store equals what an undisturbed sync
stores (or, where GitHub withholds something, everything else, with the gap noted and recorded),
or the sync failed with one line and lost nothing.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from testkit.servers.github import FakeGitHub, LoggedRequest, oauth_restricted, records_of
from tests.sources.github.test_github_dataloss import deleted_rows, small_repo
from tests.sources.github.test_github_sync import TOKEN, _plain, assert_same, stored, sync
from tidings.common import records as r
from tidings.errors import SourceError
from tidings.store import Store, quarantine, schema
from tidings.store.gaps import read_gaps

# Seventy cases, each with a fresh store: the fast loop runs them on SQLite, CI on both backends.
pytestmark = pytest.mark.slow_on_postgres

REPO = "acme/loss"
T0 = datetime(2026, 3, 2, tzinfo=UTC)


def _gaps(store: Store, repo: str = REPO) -> dict[int, dict[str, str]]:
    with store.begin() as conn:
        return read_gaps(conn, store.require_repo(conn, repo))


def _quarantined(store: Store, repo: str = REPO) -> dict[int, quarantine.Quarantined]:
    with store.begin() as conn:
        return quarantine.load(conn, store.require_repo(conn, repo))


def _item(store: Store, number: int, repo: str = REPO) -> dict[str, object]:
    t = schema.items
    with store.begin() as conn:
        repo_id = store.require_repo(conn, repo)
        row = conn.execute(
            sa.select(t).where(t.c.repo_id == repo_id, t.c.number == number)
        ).mappings()
        return dict(row.one())


def _details_asked(gh: FakeGitHub) -> int:
    return sum(1 for q in gh.requests if q.api == "graphql" and q.status == 200)


def talk(gh: FakeGitHub, pr: int) -> None:
    """A comment and a review comment, so that a quiet re-sync is all 304s (an empty listing is
    never kept for a 304: see listing.py)."""
    gh.add_comment(REPO, 1, "hello")
    gh.add_review_comment(REPO, pr, "nit", path="src/a.py")


def with_reviews(records: list[r.Record], number: int, count: int) -> list[r.Record]:
    """`count` more reviews on PR `number` (so its reviews need continuation pages)."""
    return records + [
        r.ReviewRecord(
            id=7_000_000_000 + i,
            number=number,
            author=f"rev{i % 5}",
            author_type="User",
            state="COMMENTED",
            submitted_at=T0 + timedelta(seconds=i),
        )
        for i in range(count)
    ]


# -- 1. GraphQL partial answers ----------------------------------------------------------------


def test_resource_limits_shrink_batches_then_pages(store: Store) -> None:
    """RESOURCE_LIMITS_EXCEEDED with partial data: nothing of the partial answer is used; the
    batch shrinks to one PR, then its pages, and continuation pages read the rest."""
    with FakeGitHub(with_reviews(small_repo(issues=2, prs=12), 5, 130), token=TOKEN) as gh:
        talk(gh, 3)
        # One PR at full pages asks for 450 nodes: over the limit even alone.
        gh.inject("resource_limits", max_nodes=300, times=None)
        report = sync(store, gh, REPO)
        limited = sum(1 for q in gh.requests if q.fault == "resource_limits")
        assert limited >= 3  # the first batch, its halves, then a lone PR at full pages
        assert report.pr_details == 12 and not report.notes
        assert_same(store, gh, REPO)
        again = sync(store, gh, REPO)
        assert again.requests == again.not_modified


def test_resource_limits_on_a_continuation_shrink_its_pages(store: Store) -> None:
    with FakeGitHub(with_reviews(small_repo(issues=1, prs=3), 3, 230), token=TOKEN) as gh:
        gh.inject("resource_limits", body_contains="c0: pullRequest", max_nodes=60, times=None)
        report = sync(store, gh, REPO)
        # Continuations of one PR's reviews at 100 a page are refused; 50 a page pass.
        assert sum(1 for q in gh.requests if q.fault == "resource_limits") == 1
        assert report.reviews == 233 and not report.notes
        assert_same(store, gh, REPO)


def test_resource_limits_on_a_query_that_cannot_shrink(store: Store) -> None:
    with FakeGitHub(small_repo(issues=30, prs=3), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed, so the totals are compared")
        gh.inject("resource_limits", body_contains="issues { totalCount }", times=1)
        sync(store, gh, REPO)  # retried like a 502
        assert_same(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 2, title="changed again")
        gh.inject("resource_limits", body_contains="issues { totalCount }", times=None)
        with pytest.raises(SourceError) as err:
            sync(store, gh, REPO)
        line = err.value.one_line()
        assert "\n" not in line
        assert line.startswith(
            "GitHub kept failing repository totals: GraphQL: Resource limits for this "
            "query exceeded."
        ), line
        assert deleted_rows(store) == 0


def test_a_forbidden_field_keeps_the_rest_and_records_the_gap(store: Store) -> None:
    with FakeGitHub(small_repo(issues=1, prs=3), token=TOKEN) as gh:
        sync(store, gh, REPO)
        before = stored(store, REPO)
        gh.advance(60)
        gh.update_item(REPO, 2, title="retitled")
        gh.add_review(REPO, 2, "APPROVED", author="carol")  # GitHub has it; we may not see it
        gh.inject("forbidden", connections=("reviews",), body_contains="p2:", times=None)
        report = sync(store, gh, REPO)
        assert report.notes == [
            "GitHub refused this token parts of some pull requests: " + oauth_restricted("acme"),
            "#2: reviews not readable (FORBIDDEN); kept what the store holds",
        ]
        assert _gaps(store) == {2: {"reviews": "reviews not readable (FORBIDDEN)"}}
        after = stored(store, REPO)
        # The PR itself moved on (its title); its stored review stayed, nothing was deleted.
        assert any('"title": "retitled"' in x for x in after)
        assert [x for x in before if x not in after] == [
            x for x in before if '"number": 2' in x and '"kind": "pr"' in x
        ]
        assert deleted_rows(store) == 0 and sum('"carol"' in x for x in after) == 0
        # Once GitHub shows the field again, the next sync reads the PR again and the gap
        # closes, though the PR has not changed since: a refusal can be passing (#25).
        gh.clear_faults()
        gh.advance(60)
        sync(store, gh, REPO)
        assert _gaps(store) == {}
        assert sum('"carol"' in x for x in stored(store, REPO)) == 1
        assert_same(store, gh, REPO)
        assert _rereads(store) == {}


def _rereads(store: Store) -> dict[int, quarantine.Quarantined]:
    with store.engine.connect() as conn:
        return quarantine.load(conn, store.require_repo(conn, REPO), quarantine.REREAD)


def test_a_lasting_refusal_is_read_again_on_each_run_then_left(store: Store) -> None:
    with FakeGitHub(small_repo(issues=1, prs=3), token=TOKEN) as gh:
        sync(store, gh, REPO)
        gh.advance(60)
        gh.update_item(REPO, 2, title="retitled")
        gh.inject("forbidden", connections=("reviews",), body_contains="p2:", times=None)
        reads = []
        for run in range(12):
            sync(store, gh, REPO)
            reads += [run] * (_rereads(store)[2].failures - len(reads))
        # Read on the run that changed it, then on each later run (no growing gap: the first
        # clean answer fills the part), at most MAX_REREADS times in a row; then left.
        assert reads == list(range(quarantine.MAX_REREADS))
        assert _gaps(store) == {2: {"reviews": "reviews not readable (FORBIDDEN)"}}
        with store.begin() as conn:
            entry = quarantine.Quarantined(2, quarantine.MAX_REREADS - 1, 0, "reviews")
            quarantine.save(store, conn, store.require_repo(conn, REPO), entry, quarantine.REREAD)
        report = sync(store, gh, REPO)
        assert "#2: read incomplete 8 times in a row; no more re-reads" in report.notes
        with store.begin() as conn:
            entry = quarantine.Quarantined(2, quarantine.MAX_REREADS, 0, "reviews")
            quarantine.save(store, conn, store.require_repo(conn, REPO), entry, quarantine.REREAD)
        sync(store, gh, REPO)
        assert _rereads(store)[2].failures == quarantine.MAX_REREADS  # not read again


def test_a_file_list_at_githubs_cap_is_not_read_again() -> None:
    from tidings.sources.github.details import _rereadable

    assert not _rereadable({"files": "3000 of 3500 files available (GitHub lists at most 3,000)"})
    assert _rereadable({"reviews": "40 of 41 reviews available"})
    assert not _rereadable({"patches": "2 files without a patch from GitHub"})


def test_a_forbidden_repository_is_one_line(store: Store) -> None:
    with FakeGitHub(small_repo(issues=1, prs=2), token=TOKEN) as gh:
        sync(store, gh, REPO)
        before = stored(store, REPO)
        gh.advance(60)
        gh.update_item(REPO, 2, title="retitled")
        payload = {
            "data": {"repository": None},
            "errors": [
                {"type": "FORBIDDEN", "path": ["repository"], "message": oauth_restricted("acme")}
            ],
        }
        gh.inject("bad_body", api="graphql", payload=payload, times=None)
        with pytest.raises(SourceError) as err:
            sync(store, gh, REPO)
        assert err.value.one_line().startswith(
            "GitHub refused to show acme/loss to this token: Although you appear"
        )
        assert "OAuth apps" in err.value.fix
        assert [x for x in before if x not in stored(store, REPO)] == [
            x for x in before if '"number": 2' in x and '"kind": "pr"' in x
        ]


# -- 2. secondary limits answered with HTTP 200 --------------------------------------------------


@pytest.mark.parametrize("api", ["rest", "graphql"])
def test_a_secondary_limit_answered_with_200_is_waited_out(store: Store, api: str) -> None:
    with FakeGitHub(small_repo(issues=3, prs=3), token=TOKEN) as gh:
        gh.inject("secondary", api=api, status=200, retry_after=None, times=2)  # type: ignore[arg-type]
        report = sync(store, gh, REPO)
        assert sum(1 for q in gh.requests if q.fault == "secondary" and q.status == 200) == 2
        assert report.waits == 2 and report.retries == 0
        assert_same(store, gh, REPO)


# -- 3. a PR that fails even alone ---------------------------------------------------------------


def test_a_pr_failing_alone_is_set_aside_and_retried_with_backoff(store: Store) -> None:
    with FakeGitHub(small_repo(issues=30, prs=10), token=TOKEN) as gh:
        talk(gh, 31)
        # Every answer naming PR 33 comes back broken, whatever else it holds.
        gh.inject("null_connections", body_contains="p33:", times=None)
        report = sync(store, gh, REPO)
        assert report.pr_details == 9
        assert any(n.startswith("#33: details failed even alone") for n in report.notes)
        assert _quarantined(store)[33].failures == 1
        assert _item(store, 33)["detail_updated_at"] is None
        assert _item(store, 40)["detail_updated_at"] is not None  # later PRs are not blocked
        # The steps after PR details still run: a deletion is found by the totals.
        gh.delete_item(REPO, 7)
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed")
        report = sync(store, gh, REPO)  # run 2: PR 33 is tried again, fails again
        assert report.marked_deleted == 1 and _item(store, 7)["deleted"] is True
        assert _quarantined(store)[33].failures == 2 and report.pr_details == 0

        def asks_for_33() -> bool:
            return any(n.startswith("#33: details failed") for n in report.notes)

        tried = []
        for _ in range(5):  # runs 3-7: skip 1, try (fails: 3), skip 3, …
            report = sync(store, gh, REPO)
            tried.append(asks_for_33())
            if not tried[-1]:
                assert any(n.startswith("#33: details set aside after") for n in report.notes)
                assert report.requests == report.not_modified  # nothing asked of GitHub
        assert tried == [False, True, False, False, False]
        assert _quarantined(store)[33].failures == 3
        gh.clear_faults()
        report = sync(store, gh, REPO)  # run 8: tried again, and it answers
        assert report.pr_details == 1 and not report.notes
        assert _quarantined(store) == {}
        assert_same(store, gh, REPO)


def test_a_quarantined_pr_deleted_on_github_leaves_quarantine(store: Store) -> None:
    with FakeGitHub(small_repo(issues=30, prs=4), token=TOKEN) as gh:
        gh.inject("null_connections", body_contains="p32:", times=None)
        sync(store, gh, REPO)
        assert set(_quarantined(store)) == {32}
        gh.delete_item(REPO, 32)
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed")
        report = sync(store, gh, REPO)
        assert "#32: GitHub returned no pull request details" in report.notes
        assert _quarantined(store) == {} and _item(store, 32)["deleted"] is True


def test_every_pr_failing_alone_means_github_is_broken(store: Store) -> None:
    """Nothing is set aside when no PR answers: one line, as before quarantine existed."""
    with FakeGitHub(small_repo(issues=2, prs=6), token=TOKEN) as gh:
        gh.inject("null_connections", times=None)
        with pytest.raises(SourceError) as err:
            sync(store, gh, REPO)
        assert "unexpected shape" in err.value.one_line()
        assert _quarantined(store) == {}


# -- 4. huge PRs ---------------------------------------------------------------------------------


def huge_pr(files: int) -> list[r.Record]:
    return small_repo(issues=1, prs=2) + [
        r.PRFileRecord(number=3, path=f"gen/f{i:05d}.py", status="added", additions=1)
        for i in range(files)
    ]


def test_past_3000_files_the_list_is_marked_incomplete(store: Store) -> None:
    with FakeGitHub(huge_pr(3100), token=TOKEN) as gh:
        report = sync(store, gh, REPO)
        note = "#3: 3000 of 3102 files available (GitHub lists at most 3,000)"
        assert report.notes == [note]
        assert _gaps(store) == {3: {"files": note.removeprefix("#3: ")}}
        assert _item(store, 3)["changed_files"] == 3102
        assert_same(store, gh, REPO)  # GitHub's 3,000 files, and its true count


@pytest.mark.parametrize("files", [318, 3100])
def test_files_null_for_a_huge_pr_are_listed_by_rest(store: Store, files: int) -> None:
    """GraphQL answers `files: null, changedFiles: 0` with no error: the files come from REST
    (which stops at 3,000 too) and the count from the PR's REST record."""
    with FakeGitHub(huge_pr(files), token=TOKEN) as gh:
        talk(gh, 2)
        gh.graphql_files_limit = 300
        report = sync(store, gh, REPO)
        total = files + 2
        listed = min(total, 3000)
        assert gh.count(path_contains="/pulls/3/files") == -(-listed // 100)
        assert gh.count(path_contains="/pulls/3") - gh.count(path_contains="/pulls/3/") == 1
        assert _item(store, 3)["changed_files"] == total
        if total > 3000:
            assert _gaps(store) == {
                3: {"files": f"3000 of {total} files available (GitHub lists at most 3,000)"}
            }
            assert any(n.startswith("#3: 3000 of 3102 files available") for n in report.notes)
        else:
            assert _gaps(store) == {} and not report.notes
        assert_same(store, gh, REPO)
        again = sync(store, gh, REPO)
        assert again.requests == again.not_modified


def test_the_fake_stops_pr_files_and_their_count_at_3000() -> None:
    import httpx

    with FakeGitHub(huge_pr(3100), token=TOKEN) as gh:
        query = (
            'query { repository(owner: "acme", name: "loss") { pullRequest(number: 3) '
            "{ changedFiles files(first: 1) { totalCount } } } }"
        )
        headers = {"Authorization": f"Bearer {TOKEN}"}
        body = httpx.post(gh.graphql_url, headers=headers, json={"query": query}).json()
        assert body["data"]["repository"]["pullRequest"] == {
            "changedFiles": 3102,
            "files": {"totalCount": 3000},
        }
        gh.graphql_files_limit = 3000
        body = httpx.post(gh.graphql_url, headers=headers, json={"query": query}).json()
        assert body == {"data": {"repository": {"pullRequest": {"changedFiles": 0, "files": None}}}}


# -- 5. two update times -------------------------------------------------------------------------


def test_a_comment_moves_one_update_time_and_details_are_fetched_once(store: Store) -> None:
    with FakeGitHub(small_repo(issues=3, prs=3), token=TOKEN) as gh:
        talk(gh, 4)
        gh.split_update_times = True
        sync(store, gh, REPO)
        gh.advance(60)
        gh.add_comment(REPO, 5, "a comment moves the issue record's updated_at only")
        report = sync(store, gh, REPO)
        assert report.pr_details == 1
        assert_same(store, gh, REPO)  # the newer (issue) time, not GraphQL's older one
        item = _item(store, 5)
        assert item["updated_at"] == item["detail_updated_at"] == gh.clock
        # Another change re-lists PR 5 by REST (the whole one-page listing): its details stand.
        gh.advance(60)
        gh.update_item(REPO, 1, title="changed")
        report = sync(store, gh, REPO)
        assert report.pr_details == 0 and report.items == 6
        quiet = sync(store, gh, REPO)
        assert quiet.pr_details == 0 and quiet.requests == quiet.not_modified
        assert_same(store, gh, REPO)


# -- 6. deep pages -------------------------------------------------------------------------------


def same_second(count: int, prs: int = 0) -> list[r.Record]:
    """`count` items updated in one second (the last `prs` of them PRs), then five later ones."""
    at = T0 + timedelta(hours=1)
    return [r.RepositoryRecord(full_name=REPO)] + [
        r.ItemRecord(
            number=n,
            kind="pr" if count - prs < n <= count else "issue",
            title=f"item {n}",
            state="open",
            created_at=T0,
            updated_at=at if n <= count else at + timedelta(minutes=n),
        )
        for n in range(1, count + 6)
    ]


def _issue_listings(gh: FakeGitHub) -> list[LoggedRequest]:
    return [q for q in gh.requests if q.path == f"/repos/{REPO}/issues"]


def test_a_page_too_deep_reads_the_rest_of_its_second(store: Store) -> None:
    """250 issues updated in one second need `page=3` of that second; GitHub refuses it (422).
    The rest of the second is found by GraphQL and read one by one, so the store equals an
    undisturbed sync's, and later syncs do not ask for that page again."""
    with FakeGitHub(same_second(250), token=TOKEN) as gh:
        gh.max_page = 2
        report = sync(store, gh, REPO)
        assert gh.count(status=422) == 1
        assert any("refused page 3 of the issues listing" in n for n in report.notes)
        assert_same(store, gh, REPO)
        # The 200 of the second read by the listing are not asked for again.
        singles = [q for q in gh.requests if re.fullmatch(rf"/repos/{REPO}/issues/\d+", q.path)]
        assert len(singles) == 50
        sync(store, gh, REPO)
        issues = _issue_listings(gh)
        assert gh.count(status=422) == 0 and len(issues) == 1 and issues[0].not_modified
        gh.advance(60)
        gh.update_item(REPO, 7, title="touched")
        sync(store, gh, REPO)
        assert gh.count(status=422) == 0
        assert_same(store, gh, REPO)


def test_many_issues_and_prs_sharing_the_boundary_second_are_all_stored(store: Store) -> None:
    """A run of 430 items in one second, 180 of them PRs, with only two pages of it listable:
    issues and PRs alike are found, the PRs get their details, and the run is resumable when
    the sync is stopped half-way through reading it (the cursor stays before that second
    until every row of it is stored)."""
    with FakeGitHub(same_second(430, prs=180), token=TOKEN) as gh:
        gh.max_page = 2
        gh.inject("502", path_contains=f"/repos/{REPO}/issues/300", times=50)
        with pytest.raises(SourceError):
            sync(store, gh, REPO)
        with store.begin() as conn:
            cursor = store.get_cursor(conn, store.require_repo(conn, REPO), "issues")
        assert cursor == "2026-03-02T01:00:00Z|3"  # not past the second yet
        gh.clear_faults()
        report = sync(store, gh, REPO)
        assert report.pr_details == 180
        assert_same(store, gh, REPO)
        quiet = sync(store, gh, REPO)
        # (No comments here: an empty listing is never kept for a 304, so those two cost a
        # request each.)
        assert gh.count(status=422) == 0 and quiet.graphql_requests == 0
        assert all(q.not_modified for q in _issue_listings(gh))


def _comment_burst(gh: FakeGitHub) -> None:
    """240 comments made in one clock second, 40 on each of issues 1-6."""
    gh.advance(60)
    for i in range(240):
        gh.add_comment(REPO, 1 + i % 6, f"c{i}")


@pytest.mark.parametrize("window", [False, True], ids=["resumed", "since"])
def test_comments_sharing_a_second_beyond_the_deepest_page_are_read_with_their_threads(
    store: Store, window: bool
) -> None:
    """Comments have no listing but REST's, so a run of them in one second too deep to page
    goes on after that second; each comment moved its issue's time, so the count check finds
    those threads short and re-lists them, even in a `--since` sync (which otherwise leaves old
    threads' shortfalls alone). The store equals an undisturbed sync's."""
    with FakeGitHub(small_repo(issues=8), token=TOKEN) as gh:
        sync(store, gh, REPO)
        _comment_burst(gh)
        gh.max_page = 2
        since = T0 if window else None
        report = sync(store, gh, REPO, since=since)
        assert gh.count(status=422) == 1
        assert any("refused page 3 of the comments listing" in n for n in report.notes)
        assert report.reconciled == 6
        assert_same(store, gh, REPO)
        sync(store, gh, REPO)
        assert gh.count(status=422) == 0
        assert_same(store, gh, REPO)


def test_a_thread_too_deep_to_page_deletes_nothing(store: Store) -> None:
    with FakeGitHub(small_repo(issues=2), token=TOKEN) as gh:
        ids = []
        for i in range(230):
            gh.advance(1)
            ids.append(gh.add_comment(REPO, 1, f"c{i}").id)
        sync(store, gh, REPO)
        gh.delete_comment(REPO, ids[0])
        gh.advance(60)
        gh.update_item(REPO, 1, title="edited")
        gh.max_page = 2
        report = sync(store, gh, REPO)
        assert deleted_rows(store) == 0
        assert any("GitHub lists only 200 rows" in n for n in report.notes)
        assert any("the listing was incomplete" in n for n in report.notes)


# -- 7. out-of-range values ----------------------------------------------------------------------


def test_out_of_range_values_skip_their_record_with_a_note(store: Store) -> None:
    records = small_repo(issues=3, prs=2)
    far = datetime(9999, 12, 31, 23, 0, tzinfo=UTC)
    records[2] = records[2].model_copy(update={"updated_at": far})  # issue 2
    records.append(
        r.ItemRecord(
            number=3_000_000_000,
            kind="pr",
            title="huge number",
            state="open",
            created_at=T0,
            updated_at=T0 + timedelta(hours=2),
        )
    )
    records.append(
        r.ReviewRecord(id=2**63 + 5, number=4, state="APPROVED", submitted_at=T0, author="bob")
    )
    records += [
        r.CommentRecord(id=cid, number=1, body="hi", created_at=T0, updated_at=T0)
        for cid in (10, 2**63 + 6)
    ]
    with FakeGitHub(records, token=TOKEN) as gh:
        gh.clock = T0 + timedelta(days=1)  # the default (after the newest time) is past 9999
        report = sync(store, gh, REPO)
        big = f"(the store holds {-(2**63)} to {2**63 - 1})"
        assert report.notes == [
            "skipped items number=3000000000: number 3000000000 is out of range "
            "(the store holds -2147483648 to 2147483647)",
            "skipped items number=2: updated_at 9999-12-31T23:00:00Z is out of range "
            "(the store holds years 1970–2099)",
            f"skipped comments id={2**63 + 6}: id {2**63 + 6} is out of range {big}",
            f"skipped reviews id={2**63 + 5}: id {2**63 + 5} is out of range {big}",
        ]
        skipped = (
            '"updated_at": "9999',
            '"number": 3000000000',
            f'"id": {2**63 + 5}',
            f'"id": {2**63 + 6}',
        )
        want = sorted(
            x for x in (_plain(y) for y in records_of(gh, REPO)) if not any(s in x for s in skipped)
        )
        assert stored(store, REPO) == want


def test_a_far_future_time_does_not_pin_the_cursor(store: Store) -> None:
    """A year-9999 row on a full page must not become the next `since`: every later change
    would then be older than the cursor and never listed."""
    records = small_repo(issues=100)
    records[50] = records[50].model_copy(update={"updated_at": datetime(9999, 1, 1, tzinfo=UTC)})
    with FakeGitHub(records, token=TOKEN) as gh:
        gh.clock = T0 + timedelta(days=1)
        report = sync(store, gh, REPO)
        assert report.notes == [
            "skipped items number=50: updated_at 9999-01-01T00:00:00Z is out of range "
            "(the store holds years 1970–2099)"
        ]
        gh.advance(60)
        gh.update_item(REPO, 1, title="later")
        sync(store, gh, REPO)
        assert any('"title": "later"' in x for x in stored(store, REPO))


# -- 8. a 404 on a comment listing ---------------------------------------------------------------


@pytest.mark.parametrize("times", [1, None])
def test_a_404_on_a_comment_listing_is_checked_against_the_item(
    store: Store, times: int | None
) -> None:
    with FakeGitHub(small_repo(issues=2), token=TOKEN) as gh:
        ids = [gh.add_comment(REPO, 1, f"c{i}").id for i in range(3)]
        sync(store, gh, REPO)
        gh.delete_comment(REPO, ids[1])
        gh.advance(60)
        gh.update_item(REPO, 1, title="edited")
        gh.inject("not_found", path_contains="/issues/1/comments", times=times)
        report = sync(store, gh, REPO)
        # The item itself was asked for, and answered.
        assert [q.status for q in gh.requests if q.path == f"/repos/{REPO}/issues/1"] == [200]
        assert _item(store, 1)["deleted"] is False
        if times is None:
            assert any("GitHub answered 404 for GET" in n for n in report.notes)
            assert deleted_rows(store) == 0
            gh.clear_faults()
            sync(store, gh, REPO)  # not marked checked: the next sync looks again
        assert deleted_rows(store) == 1  # just the comment really deleted
        assert_same(store, gh, REPO)


def test_an_item_gone_while_relisting_is_marked_deleted(store: Store) -> None:
    with FakeGitHub(small_repo(issues=2), token=TOKEN) as gh:
        ids = [gh.add_comment(REPO, 1, f"c{i}").id for i in range(3)]
        sync(store, gh, REPO)
        gh.delete_comment(REPO, ids[1])
        gh.advance(60)
        gh.update_item(REPO, 1, title="edited")
        gh.inject(
            "mutate", path_contains="/issues/1/comments", action=lambda f: f.delete_item(REPO, 1)
        )
        report = sync(store, gh, REPO)
        assert gh.count(path_contains="/issues/1", status=410) == 2  # listing, then the item
        assert _item(store, 1)["deleted"] is True and report.marked_deleted == 1


def test_the_fake_answers_as_github_words_it() -> None:
    """The fake's new answers, read raw: what the sync above is held to."""
    import httpx

    with FakeGitHub(small_repo(issues=1, prs=2), token=TOKEN) as gh:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        query = (
            'query { repository(owner: "acme", name: "loss") { a: pullRequest(number: 2) '
            "{ number reviews(first: 5) { totalCount } } b: pullRequest(number: 3) { number } } }"
        )

        def ask() -> dict[str, object]:
            return httpx.post(gh.graphql_url, headers=headers, json={"query": query}).json()

        gh.inject("resource_limits", max_prs=1)
        assert ask() == {
            "data": {"repository": {"a": {"number": 2, "reviews": {"totalCount": 1}}, "b": None}},
            "errors": [
                {
                    "type": "RESOURCE_LIMITS_EXCEEDED",
                    "message": "Resource limits for this query exceeded.",
                }
            ],
        }
        gh.inject("forbidden", connections=("reviews",))
        body = ask()
        assert body["data"] == {
            "repository": {"a": {"number": 2, "reviews": None}, "b": {"number": 3}}
        }
        [error] = body["errors"]  # type: ignore[misc]
        assert error["type"] == "FORBIDDEN" and error["path"] == ["repository", "a", "reviews"]
        assert "has enabled OAuth App access restrictions" in error["message"]
        assert ask() == {
            "data": {
                "repository": {"a": {"number": 2, "reviews": {"totalCount": 1}}, "b": {"number": 3}}
            }
        }
        url = f"{gh.api_url}/repos/{REPO}/issues"
        gh.inject("secondary", status=200, api="rest")
        limited = httpx.get(url, headers=headers)
        assert limited.status_code == 200
        assert "exceeded a secondary rate limit" in limited.json()["message"]
        gh.inject("not_found", path_contains="/issues")
        assert httpx.get(url, headers=headers).status_code == 404
        gh.max_page = 1
        deep = httpx.get(url, headers=headers, params={"page": 2})
        assert deep.status_code == 422
        assert deep.json()["message"].startswith("Pagination with the page parameter is not")
