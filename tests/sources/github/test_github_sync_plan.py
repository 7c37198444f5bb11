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
from tidings import records as r
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
