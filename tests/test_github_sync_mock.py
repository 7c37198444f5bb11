"""sync_repository against a tiny in-process GitHub (httpx.MockTransport).

The loopback FakeGitHub (testkit/servers/github.py) is the full contract test; this one is small
enough to read in one sitting and pins the request plan itself: keyset paging on `since`, 304s
on a quiet re-sync, details only for changed PRs, deletions found by counts.
"""

from __future__ import annotations

import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest
import sqlalchemy as sa

from tidings.config import GitHubConfig
from tidings.errors import SourceError
from tidings.sources.github import sync as sync_mod
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import SyncReport, sync_repository
from tidings.store import Store, schema

REPO = "acme/widgets"
TOKEN = "ghp_MOCKTOKEN0123456789"
API = "https://api.mock.test"


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


class MiniGitHub:
    """Just enough of GitHub for the sync: three `since` listings, per-item comment listings,
    the repository, and the GraphQL shapes the sync asks for."""

    def __init__(self) -> None:
        self.now = datetime(2026, 2, 1, tzinfo=UTC)
        self.issues: dict[int, dict[str, Any]] = {}
        self.comments: dict[int, dict[str, Any]] = {}
        self.review_comments: dict[int, dict[str, Any]] = {}
        self.reviews: dict[int, list[dict[str, Any]]] = {}
        self.files: dict[int, list[dict[str, Any]]] = {}
        self.log: list[tuple[str, str, int]] = []
        self.max_prs: int | None = None  # GraphQL answers 502 to more PR aliases than this
        self.on_list: Any = None  # hook called before a listing page is served
        self.faults: list[httpx.Response | Exception | None] = []  # per request, in order
        self._ids = iter(range(10_000, 1_000_000))

    # -- data ------------------------------------------------------------------------------

    def tick(self, seconds: int = 60) -> str:
        self.now += timedelta(seconds=seconds)
        return iso(self.now)

    def add_item(self, number: int, *, pr: bool = False, at: str | None = None) -> None:
        t = at or self.tick()
        issue: dict[str, Any] = {
            "number": number,
            "node_id": f"I_{number}",
            "title": f"item {number}",
            "body": "",
            "user": {"login": "alice", "type": "User"},
            "author_association": "MEMBER",
            "state": "open",
            "state_reason": None,
            "locked": False,
            "labels": [],
            "created_at": t,
            "updated_at": t,
            "closed_at": None,
            "comments": 0,
            "reactions": {},
            "html_url": f"https://github.com/{REPO}/issues/{number}",
        }
        if pr:
            issue["pull_request"] = {"merged_at": None}
            issue["draft"] = False
            self.reviews[number] = []
            self.files[number] = []
        self.issues[number] = issue

    def touch(self, number: int, at: str | None = None) -> None:
        self.issues[number]["updated_at"] = at or self.tick()

    def add_comment(self, number: int, *, at: str | None = None) -> int:
        t = at or self.tick()
        cid = next(self._ids)
        self.comments[cid] = {
            "id": cid,
            "node_id": f"IC_{cid}",
            "issue_url": f"{API}/repos/{REPO}/issues/{number}",
            "user": {"login": "bob", "type": "User"},
            "author_association": "NONE",
            "body": "hi",
            "created_at": t,
            "updated_at": t,
            "reactions": {},
            "html_url": f"https://github.com/{REPO}/issues/{number}#issuecomment-{cid}",
        }
        self.issues[number]["comments"] += 1
        self.touch(number, t)
        return cid

    def delete_comment(self, cid: int) -> None:
        number = int(self.comments.pop(cid)["issue_url"].rsplit("/", 1)[1])
        self.issues[number]["comments"] -= 1
        # GitHub does not bump the item for a deletion: the sync only notices at its next update.

    def add_review(self, number: int, *, comments: int = 0) -> int:
        rid = next(self._ids)
        t = self.tick()
        self.reviews[number].append(
            {
                "id": f"PRR_{rid}",
                "databaseId": rid,
                "author": {"login": "reviewer", "__typename": "Bot"},
                "authorAssociation": "NONE",
                "state": "COMMENTED",
                "body": "",
                "submittedAt": t,
                "commit": {"oid": "abc"},
                "comments": {"totalCount": comments},
                "url": f"https://github.com/{REPO}/pull/{number}#pullrequestreview-{rid}",
            }
        )
        for _ in range(comments):
            cid = next(self._ids)
            self.review_comments[cid] = {
                "id": cid,
                "node_id": f"RC_{cid}",
                "pull_request_url": f"{API}/repos/{REPO}/pulls/{number}",
                "pull_request_review_id": rid,
                "user": {"login": "reviewer[bot]", "type": "Bot"},
                "path": "a.py",
                "line": 1,
                "body": "nit",
                "commit_id": "abc",
                "created_at": t,
                "updated_at": t,
                "html_url": "u",
            }
        self.touch(number, t)
        return rid

    def set_files(self, number: int, count: int) -> None:
        self.files[number] = [
            {"path": f"src/f{i}.py", "additions": 1, "deletions": 0, "changeType": "MODIFIED"}
            for i in range(count)
        ]
        self.touch(number)

    # -- HTTP -----------------------------------------------------------------------------

    def handler(self, request: httpx.Request) -> httpx.Response:
        if self.faults:
            fault = self.faults.pop(0)
            if fault is not None:
                self.log.append((request.method, str(request.url), -1))
                if isinstance(fault, Exception):
                    raise fault
                return fault
        response = self._answer(request)
        self.log.append((request.method, str(request.url), response.status_code))
        return response

    def _answer(self, request: httpx.Request) -> httpx.Response:
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return httpx.Response(401, json={"message": "Bad credentials"})
        path = request.url.path
        if request.method == "POST" and path == "/graphql":
            return self._graphql(json.loads(request.content))
        query = {k: v[0] for k, v in parse_qs(request.url.query.decode()).items()}
        base = f"/repos/{REPO}"
        if path == base:
            body: Any = {
                "full_name": REPO,
                "node_id": "R_1",
                "html_url": f"https://github.com/{REPO}",
                "description": "widgets",
                "default_branch": "main",
            }
            return self._json(request, body)
        if not path.startswith(base):
            return httpx.Response(404, json={"message": "Not Found"})
        rest = path[len(base) :]
        listings = {
            "/issues": self.issues,
            "/issues/comments": self.comments,
            "/pulls/comments": self.review_comments,
        }
        if rest in listings:
            if self.on_list:
                self.on_list(rest, query)
            rows = sorted(
                listings[rest].values(),
                key=lambda r: (r["updated_at"], r.get("id", r.get("number"))),
            )
            if "since" in query:
                rows = [r for r in rows if r["updated_at"] >= query["since"]]
            return self._json(request, self._page(rows, query))
        m = re.fullmatch(r"/(issues|pulls)/(\d+)/comments", rest)
        if m:
            number = int(m.group(2))
            if number not in self.issues:
                return httpx.Response(404, json={"message": "Not Found"})
            source = self.comments if m.group(1) == "issues" else self.review_comments
            key = "issue_url" if m.group(1) == "issues" else "pull_request_url"
            rows = [r for r in source.values() if r[key].endswith(f"/{number}")]
            return self._json(request, self._page(sorted(rows, key=lambda r: r["id"]), query))
        return httpx.Response(404, json={"message": "Not Found"})

    @staticmethod
    def _page(rows: list[Any], query: dict[str, str]) -> list[Any]:
        size = int(query.get("per_page", 30))
        page = int(query.get("page", 1))
        return rows[(page - 1) * size : page * size]

    @staticmethod
    def _json(request: httpx.Request, body: Any) -> httpx.Response:
        text = json.dumps(body, sort_keys=True)
        etag = '"' + hashlib.sha1(text.encode()).hexdigest() + '"'
        if request.headers.get("if-none-match") == etag:
            return httpx.Response(304, headers={"etag": etag})
        return httpx.Response(
            200, content=text, headers={"etag": etag, "content-type": "application/json"}
        )

    # -- GraphQL ----------------------------------------------------------------------------

    def _connection(self, items: list[Any], first: int, after: str | None) -> dict[str, Any]:
        start = int(after) if after else 0
        end = start + first
        return {
            "totalCount": len(items),
            "pageInfo": {"hasNextPage": end < len(items), "endCursor": str(end)},
            "nodes": items[start:end],
        }

    def _pr(self, number: int) -> dict[str, Any] | None:
        issue = self.issues.get(number)
        if issue is None or "pull_request" not in issue:
            return None
        return {
            "id": f"PR_{number}",
            "number": number,
            "title": issue["title"],
            "body": issue["body"],
            "url": f"https://github.com/{REPO}/pull/{number}",
            "author": {"login": "alice", "__typename": "User"},
            "authorAssociation": "MEMBER",
            "state": "OPEN",
            "isDraft": False,
            "locked": False,
            "createdAt": issue["created_at"],
            "updatedAt": issue["updated_at"],
            "closedAt": None,
            "mergedAt": None,
            "merged": False,
            "mergedBy": None,
            "mergeCommit": None,
            "additions": sum(f["additions"] for f in self.files[number]),
            "deletions": 0,
            "changedFiles": len(self.files[number]),
            "commits": {"totalCount": 1},
            "baseRefName": "main",
            "headRefName": f"b{number}",
            "headRefOid": "abc",
            "reviewDecision": None,
            "reactionGroups": [],
            "comments": {"totalCount": issue["comments"]},
        }

    def _nested(self, number: int, name: str) -> list[Any]:
        if name == "reviews":
            return self.reviews[number]
        if name == "files":
            return self.files[number][:3000]
        return []

    def _graphql(self, body: dict[str, Any]) -> httpx.Response:
        query: str = body["query"]
        variables = body.get("variables") or {}
        rate = {"remaining": 4999, "resetAt": "2030-01-01T00:00:00Z", "cost": 1}
        repo: dict[str, Any] = {}
        errors: list[dict[str, Any]] = []
        details = re.findall(r"p(\d+): pullRequest\(number: (\d+)\)", query)
        if self.max_prs is not None and len(details) > self.max_prs:
            return httpx.Response(502, text="Bad Gateway")
        for alias, number in details:
            node = self._pr(int(number))
            if node is not None:
                for name in (
                    "labels",
                    "reviews",
                    "files",
                    "closingIssuesReferences",
                    "reviewThreads",
                ):
                    size = 50 if name == "closingIssuesReferences" else 100
                    node[name] = self._connection(self._nested(int(number), name), size, None)
                    if name == "files":
                        node[name]["totalCount"] = len(self.files[int(number)])
            repo[f"p{alias}"] = node
            if node is None:
                # As GitHub does: a null alias comes with a NOT_FOUND error naming it.
                errors.append({"type": "NOT_FOUND", "path": ["repository", f"p{alias}"]})
        for alias, number, name, first, after in re.findall(
            r"c(\d+): pullRequest\(number: (\d+)\) \{ (\w+)\(first: (\d+), after: \"([^\"]*)\"\)",
            query,
        ):
            conn = self._connection(self._nested(int(number), name), int(first), after)
            if name == "files":
                conn["totalCount"] = len(self.files[int(number)])
            repo[f"c{alias}"] = {name: conn}
        if "issues { totalCount }" in query:
            kinds = ["pull_request" in i for i in self.issues.values()]
            repo["issues"] = {"totalCount": kinds.count(False)}
            repo["pullRequests"] = {"totalCount": kinds.count(True)}
        m = re.search(r"(issues|pullRequests)\(first: 100, after: \$after\)", query)
        if m:
            want_pr = m.group(1) == "pullRequests"
            numbers = sorted(n for n, i in self.issues.items() if ("pull_request" in i) == want_pr)
            repo[m.group(1)] = self._connection(
                [{"number": n} for n in numbers], 100, variables.get("after")
            )
        answer: dict[str, Any] = {"data": {"rateLimit": rate, "repository": repo}}
        if errors:
            answer["errors"] = errors
        return httpx.Response(200, json=answer)


@pytest.fixture
def gh() -> MiniGitHub:
    return MiniGitHub()


@pytest.fixture
def db(store: Store) -> Store:
    """The conftest store: SQLite, and PostgreSQL when TIDINGS_TEST_PG_URL is set."""
    return store


def run(db: Store, gh: MiniGitHub, *, token: str = TOKEN, **kw: Any) -> SyncReport:
    client = GitHubClient(
        API,
        f"{API}/graphql",
        token,
        transport=httpx.MockTransport(gh.handler),
        sleep=lambda _s: None,
        backoff_base=0.001,
        max_retries=2,
    )
    gh.log.clear()
    return sync_repository(db, REPO, github=GitHubConfig(), token=token, client=client, **kw)


def rows(db: Store, table: sa.Table, **where: Any) -> list[dict[str, Any]]:
    with db.begin() as conn:
        q = sa.select(table)
        for key, value in where.items():
            q = q.where(table.c[key] == value)
        return [dict(r) for r in conn.execute(q).mappings()]


def populate(gh: MiniGitHub, issues: int = 30, prs: int = 30) -> None:
    for n in range(1, issues + prs + 1):
        gh.add_item(n, pr=n > issues)
    for n in range(1, issues + prs + 1, 3):
        gh.add_comment(n)
        gh.add_comment(n)
    for n in range(issues + 1, issues + prs + 1, 2):
        gh.add_review(n, comments=2)
        gh.set_files(n, 3)


def test_full_sync_then_quiet_resync_is_four_304s(db: Store, gh: MiniGitHub) -> None:
    populate(gh)
    first = run(db, gh)
    assert first.items >= 60 and first.comments == 40 and first.review_comments == 30
    assert first.reviews == 15 and first.pr_files == 45 and first.pr_details == 30
    assert first.graphql_requests == 2 + 1  # 30 PRs in two batches, then the totals check
    items = rows(db, schema.items)
    assert len(items) == 60
    assert all(i["detail_updated_at"] == i["updated_at"] for i in items if i["kind"] == "pr")
    assert all(i["checked_updated_at"] == i["updated_at"] for i in items)
    pr = rows(db, schema.items, number=31)[0]
    assert pr["review_comments_count"] == 2 and pr["changed_files"] == 3

    again = run(db, gh)
    assert [status for _m, _u, status in gh.log] == [304, 304, 304, 304]
    assert again.rest_requests == 4 and again.graphql_requests == 0
    assert again.not_modified == 4
    assert again.to_dict()["requests"] == 4


def test_only_changed_items_are_refetched(db: Store, gh: MiniGitHub) -> None:
    populate(gh)
    run(db, gh)
    for n in (2, 33, 35):
        gh.touch(n)
    report = run(db, gh)
    assert report.pr_details == 2
    # repository 304; issues (changed); comments and review comments unchanged 304s;
    # one GraphQL details batch and one totals check.
    assert report.rest_requests == 4 and report.graphql_requests == 2
    # The stream restarts at the `since` of its last request, so the final page (here all 60
    # items) is read again: one request, rows rewritten idempotently.
    assert report.items == 60 + 2


def test_keyset_paging_survives_updates_while_paging(db: Store, gh: MiniGitHub) -> None:
    for n in range(1, 251):
        gh.add_item(n)
    moved: list[int] = []

    def bump(path: str, query: dict[str, str]) -> None:
        # After the first page is served, item 5 (already read) and 180 (not yet read) move.
        if path == "/issues" and "since" in query and not moved:
            moved.extend([5, 180])
            gh.touch(5)
            gh.issues[180]["title"] = "renamed while paging"
            gh.touch(180)

    gh.on_list = bump
    run(db, gh)
    items = {i["number"]: i for i in rows(db, schema.items)}
    assert len(items) == 250
    assert items[180]["title"] == "renamed while paging"
    assert items[5]["updated_at"] == datetime.fromisoformat(gh.issues[5]["updated_at"])


def test_full_page_of_one_timestamp_falls_back_to_page_numbers(db: Store, gh: MiniGitHub) -> None:
    same = gh.tick()
    for n in range(1, 231):
        gh.add_item(n, at=same)
    gh.add_item(231)
    run(db, gh)
    assert len(rows(db, schema.items)) == 231
    urls = [u for _m, u, _s in gh.log if "/issues?" in u]
    assert any("page=2" in u for u in urls) and any("page=3" in u for u in urls)
    assert run(db, gh).rest_requests == 4  # still quiet afterwards

    # The whole one-timestamp run moves on: the saved page number no longer lines up, so the
    # stream starts that run again instead of skipping what moved.
    for n in range(1, 231):
        gh.issues[n]["title"] = f"edited {n}"
        gh.touch(n)
    run(db, gh)
    assert all(i["title"].startswith("edited") for i in rows(db, schema.items) if i["number"] < 231)


def test_deleted_comment_marked_after_next_update(db: Store, gh: MiniGitHub) -> None:
    populate(gh)
    run(db, gh)
    doomed = next(c for c in gh.comments.values() if c["issue_url"].endswith("/1"))["id"]
    gh.delete_comment(doomed)
    run(db, gh)
    assert rows(db, schema.comments, id=doomed)[0]["deleted"] is False  # nothing bumped #1
    gh.touch(1)
    report = run(db, gh)
    assert report.reconciled == 1 and report.marked_deleted == 1
    assert rows(db, schema.comments, id=doomed)[0]["deleted"] is True
    assert len(rows(db, schema.comments, id=doomed)) == 1  # kept, only flagged


def test_deleted_issue_marked_by_totals(db: Store, gh: MiniGitHub) -> None:
    populate(gh)
    run(db, gh)
    del gh.issues[4]
    gh.touch(7)  # something changed, so the totals are compared
    report = run(db, gh)
    assert rows(db, schema.items, number=4)[0]["deleted"] is True
    assert report.marked_deleted == 1


def test_big_pr_fully_fetched(db: Store, gh: MiniGitHub) -> None:
    gh.add_item(1, pr=True)
    for _ in range(150):
        gh.add_review(1)
    gh.set_files(1, 320)
    gh.add_item(2, pr=True)
    gh.set_files(2, 3100)
    report = run(db, gh)
    assert len(rows(db, schema.reviews, number=1)) == 150
    assert len(rows(db, schema.pr_files, number=1)) == 320
    assert len(rows(db, schema.pr_files, number=2)) == 3000
    assert any("#2: 3000 of 3100 files" in note for note in report.notes)


def test_graphql_batch_shrinks_and_grows(
    db: Store, gh: MiniGitHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(1, 41):
        gh.add_item(n, pr=True)
    gh.max_prs = 6
    report = run(db, gh, pr_batch=25)
    assert report.pr_details == 40
    assert all(i["detail_updated_at"] is not None for i in rows(db, schema.items))
    statuses = [s for m, _u, s in gh.log if m == "POST"]
    assert statuses.count(502) >= 2


def test_bad_token_and_unknown_repo_leave_store_unchanged(db: Store, gh: MiniGitHub) -> None:
    populate(gh, 3, 3)
    with pytest.raises(SourceError, match="401"):
        run(db, gh, token="ghp_WRONGTOKEN0123456789")
    assert db.repositories() == []
    client = GitHubClient(API, f"{API}/graphql", TOKEN, transport=httpx.MockTransport(gh.handler))
    with pytest.raises(SourceError) as err:
        sync_repository(db, "acme/nothing", github=GitHubConfig(), token=TOKEN, client=client)
    assert err.value.cause == "repository acme/nothing not found or not visible to this token"
    assert db.repositories() == []


def test_interrupted_sync_resumes_to_the_same_store(
    sqlite_store: Store, gh: MiniGitHub, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = sqlite_store
    populate(gh, 120, 60)

    class Boom(Exception):
        pass

    calls = {"n": 0}
    real = sync_mod._Sync._write_pr

    def flaky(self: Any, conn: Any, number: int, pr: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 30:
            raise Boom
        real(self, conn, number, pr)

    monkeypatch.setattr(sync_mod._Sync, "_write_pr", flaky)
    with pytest.raises(Boom):
        run(db, gh)
    monkeypatch.setattr(sync_mod._Sync, "_write_pr", real)
    run(db, gh)

    clean = Store.open(sqlite_url.replace("tidings.db", "clean.db"))
    run(clean, gh)

    def dump(store: Store) -> list[Any]:
        out = []
        for table in (schema.items, schema.comments, schema.reviews, schema.pr_files):
            got = rows(store, table)
            for r in got:
                r.pop("repo_id", None)
            out.append(sorted(got, key=lambda r: json.dumps(r, default=str, sort_keys=True)))
        return out

    assert dump(db) == dump(clean)
    clean.close()


FAULTS = {
    "502": httpx.Response(502, text="Bad Gateway"),
    "timeout": httpx.ReadTimeout("slow"),
    "dropped": httpx.RemoteProtocolError("peer closed connection"),
    "truncated": httpx.Response(200, content=b'[{"number": 1, "ti'),
    "secondary": httpx.Response(
        403, json={"message": "secondary rate limit"}, headers={"retry-after": "1"}
    ),
    "primary": httpx.Response(
        403, json={"message": "API rate limit exceeded"}, headers={"x-ratelimit-remaining": "0"}
    ),
}


@pytest.mark.parametrize("kind", sorted(FAULTS))
def test_each_fault_kind_is_survived(db: Store, gh: MiniGitHub, kind: str) -> None:
    populate(gh, 5, 5)
    # One fault before every other request, GraphQL included.
    gh.faults = [FAULTS[kind], None] * 20
    report = run(db, gh)
    faults = sum(1 for _m, _u, status in gh.log if status == -1)
    assert faults >= 6
    assert report.retries + report.waits + report.pr_details >= faults
    assert len(rows(db, schema.items)) == 10
    prs = rows(db, schema.items, kind="pr")
    assert len(prs) == 5 and all(i["detail_updated_at"] == i["updated_at"] for i in prs)
    assert len(rows(db, schema.comments)) == len(gh.comments)
