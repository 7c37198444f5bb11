"""sync_repository against the loopback FakeGitHub: the store must equal what GitHub serves,
at the request cost the plan in sync.py promises, through faults and concurrent edits."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from testkit.generate import REPO, generate_week, quick_week
from testkit.servers import github as fake_module
from testkit.servers.github import FAULT_KINDS, GRAPHQL_ONLY, FakeGitHub, records_of
from tidings.common import records as r
from tidings.common.config import GitHubConfig, RepoConfig
from tidings.errors import SourceError
from tidings.facts.load.merged import load_merged
from tidings.facts.risk import assess
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import SyncReport, sync_repository
from tidings.store import Store, schema
from tidings.store.rows import read_records

# Seconds a test against the loopback GitHub: the fast loop runs them on SQLite alone.
pytestmark = pytest.mark.slow_on_postgres

TOKEN = "ghp_FAKETOKEN0123456789abcd"
T0 = datetime(2026, 2, 16, tzinfo=UTC)


@pytest.fixture(scope="module")
def week() -> list[r.Record]:
    # 120 items: more than one page of 100, small enough to keep each sync well under a second.
    return generate_week(0, prs=80, issues=40, comments_and_reviews=300, pr_files=200)


@pytest.fixture
def fake(week: list[r.Record]) -> Iterator[FakeGitHub]:
    with FakeGitHub(week, token=TOKEN) as gh:
        yield gh


def sync(store: Store, gh: FakeGitHub, repo: str = REPO, **kw: Any) -> SyncReport:
    token = kw.pop("token", TOKEN)
    client = GitHubClient(
        gh.api_url,
        gh.graphql_url,
        token,
        timeout=kw.pop("timeout", 10.0),
        max_retries=4,
        sleep=lambda _s: None,
        secondary_min_wait=0.01,
        backoff_base=0.001,
    )
    gh.reset_log()
    github = GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url)
    with client:
        return sync_repository(store, repo, github=github, token=token, client=client, **kw)


# What the store holds beyond the fake's oracle (records_of): threads' state and commits from
# the PR details (test_github_evidence.py checks them against what the fake served), and the
# sync's bookkeeping columns.
EVIDENCE = ("review_thread", "pr_commit")
BOOKKEEPING = ("detail_updated_at", "checked_updated_at", "patch_sha")


def _plain(record: r.Record) -> str:
    data = record.model_dump(mode="json")
    for name in BOOKKEEPING:
        data.pop(name, None)
    return json.dumps(data, sort_keys=True)


def stored(store: Store, repo: str = REPO) -> list[str]:
    with store.begin() as conn:
        repo_id = store.require_repo(conn, repo)
        return sorted(
            _plain(x)
            for x in read_records(conn, repo_id)
            if x.type not in ("sync_state", *EVIDENCE)  # type: ignore[attr-defined]
        )


def served(gh: FakeGitHub, repo: str = REPO) -> list[str]:
    return sorted(_plain(x) for x in records_of(gh, repo))


def assert_same(store: Store, gh: FakeGitHub, repo: str = REPO) -> None:
    got, want = stored(store, repo), served(gh, repo)
    missing = [w for w in want if w not in got]
    extra = [g for g in got if g not in want]
    assert not missing and not extra, (missing[:3], extra[:3])


# On a fifth of a vLLM week; test_github_sync_plan.py pins the same plan, exactly and quickly.
@pytest.mark.slow
def test_full_sync_equals_served_data_and_quiet_resync_is_all_304(store: Store) -> None:
    with FakeGitHub(quick_week(0), token=TOKEN) as fake:
        _full_then_quiet(store, fake)


def _full_then_quiet(store: Store, fake: FakeGitHub) -> None:
    report = sync(store, fake)
    assert_same(store, fake)
    assert report.pr_details == 140
    # A fifth of a vLLM week (180 items, ~1,000 comments and reviews) in a couple dozen requests.
    assert report.requests == fake.count() <= 40

    again = sync(store, fake)
    assert fake.count() <= 5
    assert fake.count() == fake.count(not_modified=True)
    assert again.requests == again.not_modified == fake.count()
    assert_same(store, fake)


@pytest.mark.slow  # test_github_sync_plan.py: what a change costs, on a small repository
def test_ten_changed_items_only_those_refetched(store: Store, fake: FakeGitHub) -> None:
    sync(store, fake)
    fake.advance(3600)
    items = [x for x in records_of(fake, REPO) if isinstance(x, r.ItemRecord)]
    prs = [i.number for i in items if i.kind == "pr"][::10][:6]
    issues = [i.number for i in items if i.kind == "issue"][::7][:4]
    for n in prs[:3]:
        fake.update_item(REPO, n, labels=["changed"])
    for n in prs[3:]:
        fake.add_comment(REPO, n, "a new comment")
    for n in issues:
        fake.update_item(REPO, n, title=f"retitled {n}")
    fake.advance(60)

    report = sync(store, fake)
    assert report.pr_details == len(prs) == 6
    graphql = fake.count(api="graphql")
    assert graphql <= 3  # one details batch (+ a continuation at most) and the totals check
    assert fake.count(api="rest") <= 6
    assert_same(store, fake)


def test_deleted_comment_marked_once_its_item_is_updated(store: Store, fake: FakeGitHub) -> None:
    sync(store, fake)
    comment = next(x for x in records_of(fake, REPO) if isinstance(x, r.CommentRecord))
    fake.delete_comment(REPO, comment.id)
    sync(store, fake)
    # Deleting a comment bumps nothing on GitHub, so the store cannot know yet.
    assert not _comment(store, comment.id).deleted
    fake.advance(60)
    fake.update_item(REPO, comment.number, labels=["touched"])
    report = sync(store, fake)
    assert report.reconciled == 1 and report.marked_deleted == 1
    assert _comment(store, comment.id).deleted
    assert_same(store, fake)


def _counted(statements: list[tuple[str, Any]], table: str, repo_id: int) -> list[set[int]]:
    """The item numbers each per-item count of `table` asked for (its int parameters, bar the
    repository's id)."""
    found = []
    for statement, params in statements:
        if re.search(rf"SELECT {table}\.number, count\(\*\)", statement):
            values = list(params.values() if isinstance(params, dict) else params)
            numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
            numbers.remove(repo_id)
            found.append(set(numbers))
    return found


def test_comment_counts_read_only_the_changed_items(store: Store, fake: FakeGitHub) -> None:
    """Deletion detection counts the stored comments of the items this sync saw change, not of
    the whole history (issue #14), and counts nothing when none changed."""
    sync(store, fake)
    served_items = [x for x in records_of(fake, REPO) if isinstance(x, r.ItemRecord)]
    comment = next(
        x
        for x in records_of(fake, REPO)
        if isinstance(x, r.CommentRecord)
        and next(i for i in served_items if i.number == x.number).kind == "pr"
    )
    issue = next(i.number for i in served_items if i.kind == "issue")
    fake.delete_comment(REPO, comment.id)
    fake.advance(60)
    fake.update_item(REPO, comment.number, labels=["touched"])
    fake.update_item(REPO, issue, title="retitled")
    statements: list[tuple[str, Any]] = []

    def note(_c: Any, _cur: Any, statement: str, params: Any, _ctx: Any, many: bool) -> None:
        if not many:
            statements.append((statement, params))

    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, REPO)
    sa.event.listen(store.engine, "before_cursor_execute", note)
    try:
        report = sync(store, fake)
        changed = list(statements)
        statements.clear()
        fake.advance(60)
        quiet = sync(store, fake)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
    # The deletion is still found, through the one thread whose count disagreed.
    assert report.reconciled == 1 and report.marked_deleted == 1
    assert _comment(store, comment.id).deleted
    # Conversation comments of both changed items; review comments of the PR alone.
    assert _counted(changed, "comments", repo_id) == [{comment.number, issue}]
    assert _counted(changed, "review_comments", repo_id) == [{comment.number}]
    assert quiet.not_modified >= 3
    assert _counted(statements, "comments", repo_id) == []
    assert _counted(statements, "review_comments", repo_id) == []
    assert_same(store, fake)


def _comment(store: Store, cid: int) -> r.CommentRecord:
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        found = [x for x in read_records(conn, repo_id) if x.type == "comment" and x.id == cid]  # type: ignore[attr-defined]
    assert len(found) == 1
    return found[0]  # type: ignore[return-value]


def test_deleted_issue_marked_by_totals(store: Store, fake: FakeGitHub) -> None:
    sync(store, fake)
    issue = next(x for x in records_of(fake, REPO) if isinstance(x, r.ItemRecord))
    fake.delete_item(REPO, issue.number)
    fake.advance(60)
    other = next(
        x
        for x in records_of(fake, REPO)
        if isinstance(x, r.ItemRecord) and x.number != issue.number
    )
    fake.update_item(REPO, other.number, title="something changed")
    report = sync(store, fake)
    assert report.marked_deleted >= 1
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        row = next(
            x for x in read_records(conn, repo_id) if getattr(x, "number", None) == issue.number
        )
    assert row.deleted is True  # type: ignore[attr-defined]


def big_pr_records() -> list[r.Record]:
    repo = r.RepositoryRecord(full_name="acme/big")
    pr = r.ItemRecord(
        number=1,
        kind="pr",
        title="huge refactor",
        author="alice",
        author_type="User",
        state="open",
        draft=False,
        merged=False,
        created_at=T0,
        updated_at=T0 + timedelta(days=2),
    )
    reviews = [
        r.ReviewRecord(
            id=3_000_000_000 + i,  # past 2^31, as GitHub's review ids are now
            number=1,
            author=f"reviewer{i % 7}",
            author_type="User",
            state="COMMENTED",
            submitted_at=T0 + timedelta(minutes=i),
        )
        for i in range(150)
    ]
    files = [
        r.PRFileRecord(number=1, path=f"src/mod{i:04d}.py", status="modified", additions=1)
        for i in range(320)
    ]
    return [repo, pr, *reviews, *files]


def test_big_pr_fully_fetched(store: Store) -> None:
    with FakeGitHub(big_pr_records(), token=TOKEN) as gh:
        report = sync(store, gh, "acme/big")
        assert report.reviews == 150 and report.pr_files == 320
        assert gh.count(api="graphql") <= 5  # one details query, two continuation rounds, totals
        assert_same(store, gh, "acme/big")


def threads_records() -> list[r.Record]:
    merged = T0 + timedelta(days=1)
    return [
        r.RepositoryRecord(full_name="acme/threads"),
        *(
            r.ItemRecord(
                number=n,
                kind="pr",
                title=f"change {n}",
                author="alice",
                author_type="User",
                state="closed",
                draft=False,
                merged=True,
                merged_at=merged,
                closed_at=merged,
                created_at=T0,
                updated_at=merged,
            )
            for n in (1, 2)
        ),
    ]


def _merged_tags(store: Store) -> dict[int, set[str]]:
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, "acme/threads")
        prs = load_merged(conn, repo_id, T0, T0 + timedelta(days=7))
    config = RepoConfig(name="acme/threads")
    return {pr.number: {t.tag for t in assess(pr, config)} for pr in prs}


def test_unresolved_review_threads_reach_the_follow_up_tag(store: Store) -> None:
    with FakeGitHub(threads_records(), token=TOKEN) as gh:
        for number in (1, 2):
            for path in ("src/a.py", "src/b.py"):  # two threads, each with a reply
                root = gh.add_review_comment("acme/threads", number, "add a test", path=path)
                gh.add_review_comment(
                    "acme/threads",
                    number,
                    "will do in a follow-up",
                    path=path,
                    review_id=root.review_id,
                    in_reply_to_id=root.id,
                    author="alice",
                )
        assert gh.set_unresolved("acme/threads", 1, 1) == 1
        sync(store, gh, "acme/threads")
        assert_same(store, gh, "acme/threads")
        with store.engine.connect() as conn:
            t = schema.items
            got = dict(conn.execute(sa.select(t.c.number, t.c.unresolved_threads)).all())
        assert got == {1: 1, 2: 0}
        tags = _merged_tags(store)
        assert "follow_up_promised" in tags[1]
        assert "follow_up_promised" not in tags[2]

        # Resolving the thread later: GitHub reports the state now, and the tag goes.
        gh.advance(60)
        gh.set_unresolved("acme/threads", 1, 0)
        sync(store, gh, "acme/threads")
        assert_same(store, gh, "acme/threads")
        assert "follow_up_promised" not in _merged_tags(store)[1]


def test_review_threads_past_one_page_are_all_counted(store: Store) -> None:
    records = big_pr_records()
    with FakeGitHub(records, token=TOKEN) as gh:
        for i in range(130):
            gh.add_review_comment("acme/big", 1, f"nit {i}", path=f"src/mod{i:04d}.py")
        assert gh.set_unresolved("acme/big", 1, 120) == 120  # 20 of them on the second page
        sync(store, gh, "acme/big")
        assert_same(store, gh, "acme/big")
        with store.engine.connect() as conn:
            t = schema.items
            assert conn.execute(sa.select(t.c.unresolved_threads)).scalar_one() == 120


def test_graphql_batch_shrinks_on_heavy_queries(store: Store, fake: FakeGitHub) -> None:
    fake.graphql_max_prs = 6
    report = sync(store, fake)
    assert report.pr_details == 80
    assert fake.count(api="graphql", status=502) >= 2
    assert_same(store, fake)


# "forbidden" withholds data rather than failing, and "not_found" is a real answer about one
# resource (the repository, first of all): each has its own tests (test_github_real_answers.py).
# A sync through each kind takes a second or two: the fast loop runs a transient error, a rate
# limit and a broken body (test_github_client.py and test_github_dataloss.py take every kind
# apart quickly), the full suite every kind.
FAST_FAULTS = ("502", "secondary", "truncated")


@pytest.mark.parametrize(
    "kind",
    [
        k if k in FAST_FAULTS else pytest.param(k, marks=pytest.mark.slow)
        for k in FAULT_KINDS
        if k not in ("mutate", "forbidden", "not_found")
    ],
)
def test_each_fault_kind_is_survived(store: Store, fake: FakeGitHub, kind: str) -> None:
    # The first requests of each kind fail: repository, streams and GraphQL alike.
    if kind == "graphql_heavy":
        fake.inject(kind, times=3, max_prs=5)
    elif kind in GRAPHQL_ONLY:
        fake.inject(kind, times=3)
    else:
        for api in ("rest", "graphql"):
            fake.inject(kind, api=api, times=3, hang=0.6, retry_after=0, reset_in=0)
    sync(store, fake, timeout=0.3)
    assert sum(1 for q in fake.requests if q.fault) >= 2
    assert_same(store, fake)


def test_item_updated_while_paging_is_not_lost(store: Store, fake: FakeGitHub) -> None:
    fake.advance(60)
    moved: dict[str, int] = {}

    def edit(gh: FakeGitHub) -> None:
        # The first issues page has been served: edit an item already read and one not yet.
        items = sorted(
            (x for x in records_of(gh, REPO) if isinstance(x, r.ItemRecord)),
            key=lambda i: (i.updated_at, i.number),
        )
        moved["read"], moved["unread"] = items[0].number, items[110].number
        gh.update_item(REPO, items[0].number, title="edited after it was read")
        gh.update_item(REPO, items[110].number, title="edited before it was read")

    served_pages = {"n": 0}

    def after_first_page(gh: FakeGitHub, request: fake_module.Request) -> None:
        # Callbacks run before a request is served: edit just before the second issues page.
        if request.path.endswith("/issues"):
            served_pages["n"] += 1
            if served_pages["n"] == 2:
                edit(gh)

    fake.on_request(after_first_page)
    sync(store, fake)
    assert moved
    assert_same(store, fake)


def test_bad_token_leaves_store_unchanged(store: Store, fake: FakeGitHub) -> None:
    with pytest.raises(SourceError) as err:
        sync(store, fake, token="ghp_WRONG0123456789abcdef")
    assert err.value.cause == "GitHub rejected the token (401 Bad credentials)"
    assert "ghp_WRONG" not in err.value.one_line()
    assert store.repositories() == []


def test_unknown_repo_leaves_store_unchanged(store: Store, fake: FakeGitHub) -> None:
    sync(store, fake)
    before = stored(store)
    with pytest.raises(SourceError) as err:
        sync(store, fake, "acme/nothing-here")
    assert err.value.cause == "repository acme/nothing-here not found or not visible to this token"
    assert store.repositories() == [REPO]
    assert stored(store) == before


def test_since_starts_streams_at_that_date(store: Store, fake: FakeGitHub) -> None:
    items = [x for x in records_of(fake, REPO) if isinstance(x, r.ItemRecord)]
    cut = sorted(i.updated_at for i in items)[len(items) // 2]
    report = sync(store, fake, since=cut)
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        got = [x for x in read_records(conn, repo_id) if x.type == "item"]  # type: ignore[attr-defined]
    assert len(got) == sum(1 for i in items if i.updated_at >= cut)
    assert report.rest_requests < 20


class _Crash(Exception):
    """Stands in for the process being killed mid-sync."""


class _CrashingTransport(httpx.HTTPTransport):
    def __init__(self, after: int) -> None:
        super().__init__()
        self.left = after

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.left -= 1
        if self.left < 0:
            raise _Crash
        return super().handle_request(request)


# The crash lands on the n-th request: the fast loop crashes at two points, the full suite at
# five.
@pytest.mark.parametrize(
    "after", [1, 5, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 7, 9))]
)
def test_killed_sync_resumes_to_the_same_store(
    sqlite_store: Store, fake: FakeGitHub, after: int
) -> None:
    github = GitHubConfig(api_url=fake.api_url, graphql_url=fake.graphql_url)
    client = GitHubClient(
        fake.api_url, fake.graphql_url, TOKEN, transport=_CrashingTransport(after)
    )
    with pytest.raises(_Crash):
        sync_repository(sqlite_store, REPO, github=github, token=TOKEN, client=client)
    # Edits land between the crash and the re-run, as they would on GitHub.
    fake.advance(60)
    first = next(x for x in records_of(fake, REPO) if isinstance(x, r.ItemRecord))
    fake.add_comment(REPO, first.number, "while we were down")
    sync(sqlite_store, fake)
    assert_same(sqlite_store, fake)
