"""The sync's request plan (src/tidings/sources/github/sync.py), request by request, on a
repository small enough to count by hand and served by the loopback GitHub
(testkit/servers/github/): a full sync and a quiet re-sync, what a change costs, the
one-timestamp page fallback, and GitHub's 3,000-file cap.

test_github_sync.py beside it holds the sync to the served data on a generated week (there the
request counts are bounds), through faults, deletions, edits while paging and crashes. This file
once held a second, in-process mini GitHub for the same purpose; one fake GitHub now serves
every test, and test_github_client.py scripts single answers for the client alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from testkit.servers.github import FakeGitHub
from tests.factories import Records
from tests.sources.github import test_github_sync as plain
from tidings.common import records as r
from tidings.sources.github.sync import SyncReport
from tidings.store import Store, schema

# A second a test against the loopback GitHub: the fast loop runs them on SQLite alone.
pytestmark = pytest.mark.slow_on_postgres

REPO = "acme/widgets"
TOKEN = plain.TOKEN
T0 = datetime(2026, 2, 1, tzinfo=UTC)
ISSUES, PRS = 30, 30


def sync(store: Store, gh: FakeGitHub) -> SyncReport:
    return plain.sync(store, gh, REPO)


def assert_same(store: Store, gh: FakeGitHub) -> None:
    plain.assert_same(store, gh, REPO)


def _at(minutes: int) -> str:
    return (T0 + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%SZ")


def small_repo(rec: Records) -> list[r.Record]:
    """30 issues (#1-#30) and 30 PRs (#31-#60), one a minute; every other PR has 3 files."""
    records: list[r.Record] = [rec.repo(REPO)]
    for n in range(1, ISSUES + PRS + 1):
        if n <= ISSUES:
            records.append(rec.issue(n, _at(n)))
        else:
            records.append(rec.pr(n, _at(n)))
            if n % 2:
                records.extend(rec.file(n, f"src/f{i}.py") for i in range(3))
    return records


@pytest.fixture
def gh(rec: Records) -> Iterator[FakeGitHub]:
    with FakeGitHub(small_repo(rec), token=TOKEN) as fake:
        # Later activity, each a minute apart: two comments on every third item, and one review
        # with two review comments on every PR that has files.
        for n in range(1, ISSUES + PRS + 1, 3):
            for _ in range(2):
                fake.advance(60)
                fake.add_comment(REPO, n, "hi", author="bob")
        for n in range(ISSUES + 1, ISSUES + PRS + 1, 2):
            fake.advance(60)
            first = fake.add_review_comment(REPO, n, "nit", path="src/f0.py", author="carol")
            fake.add_review_comment(
                REPO, n, "nit", path="src/f1.py", review_id=first.review_id, author="carol"
            )
        yield fake


def _rows(store: Store, table: sa.Table, **where: object) -> list[dict[str, object]]:
    with store.begin() as conn:
        query = sa.select(table)
        for key, value in where.items():
            query = query.where(table.c[key] == value)
        return [dict(row) for row in conn.execute(query).mappings()]


def test_full_sync_then_a_quiet_resync_of_four_304s(store: Store, gh: FakeGitHub) -> None:
    first = sync(store, gh)
    assert first.comments == 40 and first.review_comments == 30 and first.reviews == 15
    assert first.pr_files == 45 and first.pr_details == 30
    # The repository, then one short page of each stream (60 items, 40 comments, 30 review
    # comments, all under 100); 30 PRs' details in two batches of ~25, then the totals check.
    assert first.rest_requests == 4 == gh.count(api="rest")
    assert first.graphql_requests == 2 + 1 == gh.count(api="graphql")
    assert_same(store, gh)
    items = _rows(store, schema.items)
    assert len(items) == 60
    assert all(i["detail_updated_at"] == i["updated_at"] for i in items if i["kind"] == "pr")
    assert all(i["checked_updated_at"] == i["updated_at"] for i in items)
    pr = _rows(store, schema.items, number=31)[0]
    assert pr["review_comments_count"] == 2 and pr["changed_files"] == 3

    again = sync(store, gh)
    # The four URLs of the last requests, each answered 304: no rate limit spent.
    assert [q.status for q in gh.requests] == [304, 304, 304, 304]
    assert again.rest_requests == again.not_modified == 4 and again.graphql_requests == 0
    assert again.to_dict()["requests"] == 4


FRESH = "ghs_fresh-job-token"  # the Actions recipe's GITHUB_TOKEN is new every job


def _rate_limited(gh: FakeGitHub) -> int:
    """Requests the last sync paid for: REST answers other than 304 (GitHub charges a 304 to
    a conditional request nothing), and GraphQL queries (at least a point each)."""
    return gh.count(api="rest", not_modified=False) + gh.count(api="graphql")


def test_a_quiet_resync_on_a_fresh_token_costs_one_request_a_listing(
    store: Store, gh: FakeGitHub
) -> None:
    sync(store, gh)
    gh.extra_tokens.add(FRESH)
    again = plain.sync(store, gh, REPO, token=FRESH)
    # The stored ETags were the first token's: GitHub answers the new one's If-None-Match
    # with a full 200 for each stream's last page. The repository is asked by
    # If-Modified-Since, which holds across tokens: a 304.
    assert [(q.path.removeprefix(f"/repos/{REPO}"), q.status) for q in gh.requests] == [
        ("", 304),
        ("/issues", 200),
        ("/issues/comments", 200),
        ("/pulls/comments", 200),
    ]
    assert again.rest_requests == 4 and again.not_modified == 1
    # What the pages held was all in the store already: no details, no totals check.
    assert again.graphql_requests == 0 and again.pr_details == 0
    assert _rate_limited(gh) == 3
    assert_same(store, gh)
    # The next job's token is new again: the same three paid listings, never more.
    gh.extra_tokens.add(FRESH + "2")
    plain.sync(store, gh, REPO, token=FRESH + "2")
    assert _rate_limited(gh) == 3 and gh.count() == 4


def test_a_change_is_seen_after_the_token_changed(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh)
    gh.advance(60)
    comment = gh.add_comment(REPO, 7, "seen by the next job", author="dave")
    gh.update_item(REPO, 33, title="retitled under a new token")
    gh.extra_tokens.add(FRESH)
    report = plain.sync(store, gh, REPO, token=FRESH)
    assert report.pr_details == 1  # #33 changed; its details are fetched again
    assert_same(store, gh)
    with store.begin() as conn:
        bodies = conn.execute(
            sa.select(schema.comments.c.body).where(schema.comments.c.id == comment.id)
        ).scalars()
        assert list(bodies) == ["seen by the next job"]
    # The same token once more: the ETags stored are its own now, so every answer is a 304.
    plain.sync(store, gh, REPO, token=FRESH)
    assert _rate_limited(gh) == 0


def test_a_store_without_last_modified_learns_it_from_a_304(store: Store, gh: FakeGitHub) -> None:
    """A store synced before Last-Modified was kept asks the repository by ETag once more; the
    304 brings the date, and from then on any token's If-Modified-Since gets a 304."""
    sync(store, gh)
    with store.begin() as conn:
        conn.execute(sa.update(schema.http_cache).values(last_modified=None))
    asked: list[dict[str, str]] = []
    gh.on_request(
        lambda _fake, request: (
            asked.append(request.headers) if request.path == f"/repos/{REPO}" else None
        )
    )
    sync(store, gh)
    assert "if-none-match" in asked[-1] and "if-modified-since" not in asked[-1]
    assert gh.requests[0].status == 304
    gh.extra_tokens.add(FRESH)
    plain.sync(store, gh, REPO, token=FRESH)
    assert "if-modified-since" in asked[-1] and "if-none-match" not in asked[-1]
    assert asked[-1]["if-modified-since"] == "Sun, 01 Feb 2026 00:01:00 GMT"  # issue #1's time
    assert gh.requests[0].status == 304


def test_repository_churn_forces_no_relisting(store: Store, rec: Records) -> None:
    """GitHub's repository object changes with every push, fork, star and issue opened or
    closed; none of that sends the listings back to the start of history."""
    records: list[r.Record] = [rec.repo(REPO)]
    records += [rec.issue(n, _at(n)) for n in range(1, 251)]  # three pages of issues
    with FakeGitHub(records, token=TOKEN) as gh:
        sync(store, gh)
        with store.begin() as conn:
            cursor = store.get_cursor(conn, store.repo_id(conn, REPO) or 0, "issues")
        # Pages of 100 from `since` = the newest time on the page before (inclusive): #1-#100,
        # #100-#199, then the short one, #199-#250, whose `since` is the cursor.
        assert cursor == _at(199)
        gh.extra_tokens.add(FRESH)
        gh.advance(60)
        gh.push()
        gh.add_item(REPO, title="opened", author="erin")
        gh.update_item(REPO, 3, state="closed")
        plain.sync(store, gh, REPO, token=FRESH)
        issues = [q for q in gh.requests if q.path.endswith("/issues")]
        # One listing request, from the stored cursor: the two changed issues and the page.
        assert [q.query.get("since") for q in issues] == [_at(199)]
        # The repository's Last-Modified did not move with the push or the issues.
        assert gh.requests[0].path == f"/repos/{REPO}" and gh.requests[0].status == 304
        assert_same(store, gh)
        # A star moves it: one paid 200 for the repository, and still no re-listing.
        gh.advance(60)
        gh.star()
        gh.fork()
        report = plain.sync(store, gh, REPO, token=FRESH)
        assert gh.requests[0].status == 200 and report.rest_requests == 4
        assert all(q.query.get("since") for q in gh.requests if q.path.endswith("/issues"))
        assert_same(store, gh)


def test_only_changed_items_are_refetched(store: Store, gh: FakeGitHub) -> None:
    sync(store, gh)
    gh.advance(60)
    for n in (2, 33, 35):
        gh.update_item(REPO, n, title=f"retitled {n}")
    report = sync(store, gh)
    assert report.pr_details == 2
    # The repository and the two comment streams are unchanged (304s); the issues stream has
    # changed; one GraphQL details batch for #33 and #35 and one totals check.
    assert report.rest_requests == 4 and report.not_modified == 3
    assert report.graphql_requests == 2
    # The issues stream restarts at the `since` of its last request, which on a first sync is
    # the start of history: its one page (all 60 items) is read again and rewritten
    # idempotently, and the two PRs' details write their item rows once more.
    assert report.items == 60 + 2
    assert_same(store, gh)


def test_a_full_page_of_one_timestamp_falls_back_to_page_numbers(
    store: Store, rec: Records
) -> None:
    same = _at(0)
    records: list[r.Record] = [rec.repo(REPO)]
    records += [rec.issue(n, same) for n in range(1, 231)]
    records.append(rec.issue(231, _at(1)))
    with FakeGitHub(records, token=TOKEN) as gh:
        sync(store, gh)
        assert len(_rows(store, schema.items)) == 231
        pages = [q.query.get("page") for q in gh.requests if q.path.endswith("/issues")]
        # 100 items of one second cannot move `since` on: pages 2 and 3 of the same `since`.
        assert "2" in pages and "3" in pages
        assert sync(store, gh).rest_requests == 4  # and quiet afterwards

        # The whole one-second run moves on together: the saved page number no longer lines
        # up, so the stream reads that run again instead of skipping what moved.
        gh.advance(60)
        for n in range(1, 231):
            gh.update_item(REPO, n, title=f"edited {n}")
        sync(store, gh)
        titles = {i["number"]: i["title"] for i in _rows(store, schema.items)}
        assert all(titles[n] == f"edited {n}" for n in range(1, 231))
        assert_same(store, gh)


def test_a_pr_past_githubs_3000_files_keeps_3000_and_its_true_count(
    store: Store, rec: Records
) -> None:
    records: list[r.Record] = [rec.repo(REPO), rec.pr(1, _at(0))]
    records += [rec.file(1, f"src/m{i:04d}.py") for i in range(3100)]
    with FakeGitHub(records, token=TOKEN) as gh:
        sync(store, gh)
    # GitHub lists 3,000 files at most (and counts no more in the list's totalCount); only the
    # PR's `changedFiles` says how many there are.
    assert len(_rows(store, schema.pr_files, number=1)) == 3000
    assert _rows(store, schema.items, number=1)[0]["changed_files"] == 3100
