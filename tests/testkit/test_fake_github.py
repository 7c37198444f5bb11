"""The loopback GitHub itself: REST and GraphQL shapes, paging, ETags, faults and mutations.

These tests talk to the fake with plain httpx so that a bug in the fake cannot hide behind the
same bug in the sync client.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from testkit.servers.github import FakeGitHub, records_of
from tidings.common import records as r

TOKEN = "test-token"
REPO = "acme/widgets"


def t(day: int, hour: int = 0) -> datetime:
    return datetime(2026, 2, day, hour, tzinfo=UTC)


def sample() -> list[r.Record]:
    """Three issues and three PRs with every kind of child record, including odd authors."""
    pr = {"kind": "pr", "draft": False, "merged": False}
    return [
        r.RepositoryRecord(full_name=REPO, description="Widgets", default_branch="main"),
        r.ItemRecord(
            number=1,
            kind="issue",
            title="Crash on start",
            author="alice",
            author_type="User",
            author_association="MEMBER",
            state="open",
            labels=["bug", "p1"],
            created_at=t(1),
            updated_at=t(5),
            reactions={"+1": 3, "heart": 1},
            comments_count=2,
        ),
        r.ItemRecord(
            number=2,
            title="Bump httpx",
            author="dependabot[bot]",
            author_type="Bot",
            state="open",
            created_at=t(2),
            updated_at=t(2),
            **pr,
        ),
        r.ItemRecord(
            number=3,
            title="Old account",
            author=None,
            state="closed",
            state_reason="completed",
            kind="issue",
            created_at=t(3),
            updated_at=t(4),
            closed_at=t(4),
        ),
        r.ItemRecord(
            number=4,
            kind="pr",
            title="Faster start",
            author="bob",
            author_type="User",
            state="closed",
            draft=False,
            created_at=t(4),
            updated_at=t(6),
            closed_at=t(6),
            merged_at=t(6),
            merged=True,
            merged_by="carol",
            merge_commit_sha="a" * 40,
            review_decision="APPROVED",
            head_sha="b" * 40,
            commits=3,
        ),
        r.ItemRecord(
            number=5,
            title="WIP",
            author="bob",
            state="open",
            created_at=t(5),
            updated_at=t(7),
            **{**pr, "draft": True},
        ),
        r.ItemRecord(
            number=6, kind="issue", title="Gone", state="open", created_at=t(6), updated_at=t(6)
        ),
        r.CommentRecord(
            id=101,
            number=1,
            author="bob",
            author_type="User",
            body="same here",
            created_at=t(2),
            updated_at=t(2),
        ),
        r.CommentRecord(
            id=102,
            number=1,
            author=None,
            body="from a deleted account",
            created_at=t(3),
            updated_at=t(5),
            reactions={"eyes": 2},
        ),
        r.ReviewRecord(
            id=201,
            number=4,
            author="carol",
            author_type="User",
            state="APPROVED",
            body="ship it",
            submitted_at=t(5),
            commit_sha="b" * 40,
            comments_count=2,
        ),
        r.ReviewCommentRecord(
            id=301,
            number=4,
            review_id=201,
            author="carol",
            path="src/start.py",
            line=10,
            original_line=10,
            side="RIGHT",
            diff_hunk="@@ -1 +1 @@",
            body="nit",
            commit_sha="b" * 40,
            created_at=t(5),
            updated_at=t(5),
        ),
        r.ReviewCommentRecord(
            id=302,
            number=4,
            review_id=201,
            in_reply_to_id=301,
            author="bob",
            path="src/start.py",
            line=10,
            body="fixed",
            created_at=t(5, 1),
            updated_at=t(5, 1),
        ),
        r.PRFileRecord(number=4, path="src/start.py", status="modified", additions=5, deletions=2),
        r.PRFileRecord(
            number=4,
            path="src/boot.py",
            previous_path="src/init.py",
            status="renamed",
            additions=1,
            deletions=1,
        ),
        r.PRFileRecord(number=4, path="old.txt", status="removed", additions=0, deletions=9),
        r.ClosingRefRecord(number=4, issue_repo=REPO, issue_number=1),
        r.ClosingRefRecord(number=4, issue_repo="other/repo", issue_number=77),
        r.SyncStateRecord(stream="issues", cursor=None),
    ]


@pytest.fixture
def gh() -> Iterator[FakeGitHub]:
    with FakeGitHub(sample()) as fake:
        fake.delete_item(6)
        yield fake


@pytest.fixture
def api(gh: FakeGitHub) -> Iterator[httpx.Client]:
    # verify=False: plain http on loopback, and it skips loading CA certificates (~0.1 s).
    with httpx.Client(
        base_url=gh.api_url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5, verify=False
    ) as client:
        yield client


def gql(client: httpx.Client, query: str, **variables: Any) -> httpx.Response:
    return client.post("/graphql", json={"query": query, "variables": variables})


def links(response: httpx.Response) -> dict[str, str]:
    return {rel: str(link["url"]) for rel, link in response.links.items()}


# -- auth, errors, headers -------------------------------------------------------------------------


def test_auth_accepts_bearer_and_token_and_rejects_the_rest(gh: FakeGitHub) -> None:
    url = f"{gh.api_url}/repos/{REPO}"
    with httpx.Client(verify=False) as bare:  # no Authorization header unless a test gives one
        assert bare.get(url, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        assert bare.get(url, headers={"Authorization": f"token {TOKEN}"}).status_code == 200
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            answer = bare.get(url, headers=headers)
            assert answer.status_code == 401
            assert answer.json()["message"] == "Bad credentials"
            assert "documentation_url" in answer.json()
        bad = bare.post(gh.graphql_url, json={"query": "{viewer{login}}"})
    assert bad.status_code == 401
    assert gh.count(status=401) == 4


def test_repository_and_unknown_paths(api: httpx.Client) -> None:
    repo = api.get(f"/repos/{REPO}").json()
    assert repo["full_name"] == REPO
    assert repo["default_branch"] == "main"
    assert repo["html_url"] == "https://github.com/acme/widgets"
    assert repo["node_id"].startswith("R_")
    missing = api.get("/repos/acme/nope/issues")
    assert missing.status_code == 404
    assert missing.json()["message"] == "Not Found"
    assert api.get(f"/repos/{REPO}/pulls/1").status_code == 404  # an issue is not a PR
    assert api.get(f"/repos/{REPO}/issues/6").status_code == 410  # deleted


def test_rate_limit_headers_count_down_per_api(gh: FakeGitHub, api: httpx.Client) -> None:
    first = api.get(f"/repos/{REPO}")
    second = api.get(f"/repos/{REPO}")
    for answer in (first, second):
        for name in ("limit", "remaining", "reset", "used", "resource"):
            assert f"x-ratelimit-{name}" in answer.headers
    assert first.headers["x-ratelimit-resource"] == "core"
    assert int(second.headers["x-ratelimit-remaining"]) == (
        int(first.headers["x-ratelimit-remaining"]) - 1
    )
    assert int(first.headers["x-ratelimit-reset"]) > time.time()
    query = "{ rateLimit { cost limit remaining used resetAt nodeCount } }"
    one, two = gql(api, query), gql(api, query)
    assert one.headers["x-ratelimit-resource"] == "graphql"
    a, b = one.json()["data"]["rateLimit"], two.json()["data"]["rateLimit"]
    assert a["cost"] == 1
    assert b["remaining"] == a["remaining"] - 1
    assert b["used"] == a["used"] + 1
    assert a["resetAt"].endswith("Z")
    assert int(two.headers["x-ratelimit-remaining"]) == b["remaining"]


# -- REST listings ---------------------------------------------------------------------------------


def test_issue_listing_renders_github_shapes(api: httpx.Client) -> None:
    rows = api.get(f"/repos/{REPO}/issues", params={"state": "all"}).json()
    by_number = {row["number"]: row for row in rows}
    assert set(by_number) == {1, 2, 3, 4, 5}  # #6 is deleted
    issue, bot_pr, ghost, merged = by_number[1], by_number[2], by_number[3], by_number[4]
    assert "pull_request" not in issue
    assert "draft" not in issue
    assert issue["labels"][0]["name"] == "bug"
    assert issue["comments"] == 2
    assert issue["author_association"] == "MEMBER"
    assert issue["reactions"]["+1"] == 3
    assert issue["reactions"]["total_count"] == 4
    assert set(issue["reactions"]) == {
        "url", "total_count", "+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes",
    }  # fmt: skip
    assert bot_pr["user"]["login"] == "dependabot[bot]"
    assert bot_pr["user"]["type"] == "Bot"
    assert bot_pr["draft"] is False
    assert set(bot_pr["pull_request"]) == {"url", "html_url", "diff_url", "patch_url", "merged_at"}
    assert bot_pr["pull_request"]["merged_at"] is None
    assert ghost["user"]["login"] == "ghost"
    assert ghost["state_reason"] == "completed"
    assert merged["pull_request"]["merged_at"] == "2026-02-06T00:00:00Z"
    assert merged["html_url"] == "https://github.com/acme/widgets/pull/4"
    assert by_number[5]["draft"] is True


def test_issue_listing_defaults_and_filters(api: httpx.Client) -> None:
    def numbers(**params: str) -> list[int]:
        return [row["number"] for row in api.get(f"/repos/{REPO}/issues", params=params).json()]

    assert numbers() == [5, 2, 1]  # open only, newest created first
    assert numbers(state="closed") == [4, 3]
    assert numbers(state="all", sort="updated", direction="asc") == [2, 3, 1, 4, 5]
    assert numbers(state="all", since="2026-02-05T00:00:00Z") == [5, 4, 1]
    assert numbers(state="all", sort="comments") == [1, 5, 4, 3, 2]  # ties broken by number
    assert numbers(labels="bug,p1") == [1]
    assert api.get(f"/repos/{REPO}/issues", params={"since": "yesterday"}).status_code == 422


def test_pagination_link_headers(gh: FakeGitHub, api: httpx.Client) -> None:
    first = api.get(f"/repos/{REPO}/issues", params={"state": "all", "per_page": 2})
    rels = links(first)
    assert set(rels) == {"next", "last"}
    assert rels["next"].startswith(gh.api_url)
    assert "state=all" in rels["next"] and rels["next"].endswith("page=2")
    assert rels["last"].endswith("page=3")
    seen = [row["number"] for row in first.json()]
    url: str | None = rels["next"]
    pages = 1
    while url:
        page = api.get(url)
        seen += [row["number"] for row in page.json()]
        pages += 1
        url = links(page).get("next")
        if pages == 2:
            assert set(links(page)) == {"prev", "next", "last", "first"}
    assert pages == 3
    assert seen == [5, 4, 3, 2, 1]
    one_page = api.get(f"/repos/{REPO}/issues", params={"state": "all"})
    assert "link" not in one_page.headers  # everything fits: GitHub omits the header
    capped = api.get(f"/repos/{REPO}/issues", params={"state": "all", "per_page": 1000})
    assert len(capped.json()) == 5


def test_repo_wide_comment_listings(api: httpx.Client) -> None:
    comments = api.get(f"/repos/{REPO}/issues/comments", params={"sort": "updated"}).json()
    assert [c["id"] for c in comments] == [102, 101]  # sort given: newest first by default
    asc = api.get(
        f"/repos/{REPO}/issues/comments",
        params={"sort": "updated", "direction": "asc", "since": "2026-02-04T00:00:00Z"},
    ).json()
    assert [c["id"] for c in asc] == [102]
    ghost = asc[0]
    assert ghost["issue_url"].endswith("/issues/1")
    assert ghost["user"]["login"] == "ghost"
    assert ghost["reactions"]["eyes"] == 2
    assert ghost["html_url"].endswith("#issuecomment-102")
    review_comments = api.get(
        f"/repos/{REPO}/pulls/comments", params={"sort": "created", "direction": "asc"}
    ).json()
    assert [c["id"] for c in review_comments] == [301, 302]
    start, reply = review_comments
    assert "in_reply_to_id" not in start
    assert reply["in_reply_to_id"] == 301
    assert start["pull_request_url"].endswith("/pulls/4")
    assert start["pull_request_review_id"] == 201
    for key in ("path", "line", "original_line", "side", "diff_hunk", "commit_id", "node_id"):
        assert key in start


def test_per_pr_endpoints(api: httpx.Client) -> None:
    base = f"/repos/{REPO}/pulls/4"
    pull = api.get(base).json()
    assert pull["merged"] is True
    assert pull["merged_by"]["login"] == "carol"
    assert pull["merge_commit_sha"] == "a" * 40
    assert pull["head"]["sha"] == "b" * 40
    assert pull["commits"] == 3
    assert (pull["additions"], pull["deletions"], pull["changed_files"]) == (6, 12, 3)
    reviews = api.get(f"{base}/reviews").json()
    assert [(x["id"], x["state"], x["commit_id"]) for x in reviews] == [(201, "APPROVED", "b" * 40)]
    assert [c["id"] for c in api.get(f"{base}/comments").json()] == [301, 302]
    files = api.get(f"{base}/files", params={"per_page": 2})
    assert [f["filename"] for f in files.json()] == ["src/start.py", "src/boot.py"]
    assert files.json()[1]["previous_filename"] == "src/init.py"
    assert "previous_filename" not in files.json()[0]
    assert files.json()[0]["changes"] == 7
    assert "next" in links(files)
    assert [c["id"] for c in api.get(f"/repos/{REPO}/issues/1/comments").json()] == [101, 102]
    assert api.get(f"/repos/{REPO}/issues/4").json()["pull_request"]["url"].endswith("/pulls/4")


def test_pr_files_stop_at_3000() -> None:
    files = [
        r.PRFileRecord(number=1, path=f"f{i:04}.txt", status="added", additions=1, deletions=0)
        for i in range(3005)
    ]
    pr = r.ItemRecord(
        number=1, kind="pr", title="huge", state="open", created_at=t(1), updated_at=t(1)
    )
    with (
        FakeGitHub([r.RepositoryRecord(full_name=REPO), pr, *files]) as gh,
        httpx.Client(
            base_url=gh.api_url, headers={"Authorization": f"token {TOKEN}"}, verify=False
        ) as api,
    ):
        first = api.get(f"/repos/{REPO}/pulls/1/files", params={"per_page": 100})
        assert links(first)["last"].endswith("page=30")
        last = api.get(f"/repos/{REPO}/pulls/1/files", params={"per_page": 100, "page": 30})
        assert last.json()[-1]["filename"] == "f2999.txt"
        beyond = api.get(f"/repos/{REPO}/pulls/1/files", params={"per_page": 100, "page": 31})
        assert beyond.json() == []
        assert sum(1 for x in records_of(gh) if isinstance(x, r.PRFileRecord)) == 3000


# -- ETags -----------------------------------------------------------------------------------------


def test_etag_and_conditional_requests(gh: FakeGitHub, api: httpx.Client) -> None:
    url = f"/repos/{REPO}/issues"
    first = api.get(url)
    tag = first.headers["etag"]
    assert tag.startswith('"') and tag.endswith('"')
    again = api.get(url, headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    assert again.headers["x-ratelimit-remaining"] == first.headers["x-ratelimit-remaining"]
    assert api.get(url, headers={"If-None-Match": f"W/{tag}"}).status_code == 304
    assert gh.count(not_modified=True) == 2
    assert gh.requests[-1].not_modified is True
    gh.update_item(1, title="Crash on start (again)")
    changed = api.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != tag


def test_etags_are_bound_to_the_token(gh: FakeGitHub, api: httpx.Client) -> None:
    """GitHub tags the same answer differently for another token, so a new token's
    If-None-Match with the old token's tag is a paid 200 (eclipse-csi/otterdog#201)."""
    gh.extra_tokens.add("fresh-token")
    url = f"/repos/{REPO}/issues"
    mine = api.get(url)
    fresh = {"Authorization": "Bearer fresh-token"}
    theirs = api.get(url, headers=fresh)
    assert theirs.content == mine.content
    assert theirs.headers["etag"] != mine.headers["etag"]
    stale = api.get(url, headers={**fresh, "If-None-Match": mine.headers["etag"]})
    assert stale.status_code == 200 and stale.content == mine.content
    own = api.get(url, headers={**fresh, "If-None-Match": theirs.headers["etag"]})
    assert own.status_code == 304
    assert api.get(url, headers={"If-None-Match": mine.headers["etag"]}).status_code == 304


def test_the_repository_object_moves_with_pushes_stars_forks_and_issues(
    gh: FakeGitHub, api: httpx.Client
) -> None:
    """Every kind of activity changes GitHub's repository object, so its ETag is rarely the
    one a sync stored; only stars, forks and settings move its `updated_at`."""
    url = f"/repos/{REPO}"
    first = api.get(url)
    body = first.json()
    # Open: #1, #2 and #5; #3 and #4 are closed and #6 is deleted (the fixture).
    assert body["open_issues_count"] == body["open_issues"] == 3
    assert body["forks_count"] == 0 and body["stargazers_count"] == 0
    tag, before = first.headers["etag"], body

    def changed() -> dict[str, Any]:
        nonlocal tag
        answer = api.get(url, headers={"If-None-Match": tag})
        assert answer.status_code == 200
        tag = answer.headers["etag"]
        return dict(answer.json())

    gh.advance(60)
    gh.push()
    pushed = changed()
    assert pushed["pushed_at"] == "2026-02-07T01:01:00Z"  # the clock: newest data + 1 h + 60 s
    assert pushed["size"] > before["size"]
    assert pushed["updated_at"] == before["updated_at"]
    gh.add_item(title="New bug")
    assert changed()["open_issues_count"] == 4
    gh.update_item(1, state="closed")
    opened_and_closed = changed()
    assert opened_and_closed["open_issues_count"] == 3
    assert opened_and_closed["updated_at"] == before["updated_at"]
    gh.advance(60)
    gh.star()
    starred = changed()
    assert starred["stargazers_count"] == 1
    assert starred["updated_at"] == "2026-02-07T01:02:00Z"
    gh.advance(60)
    gh.fork()
    forked = changed()
    assert forked["forks_count"] == 1 and forked["updated_at"] == "2026-02-07T01:03:00Z"
    gh.advance(60)
    gh.update_repository(description="Better widgets")
    edited = changed()
    assert edited["description"] == "Better widgets"
    assert edited["updated_at"] == "2026-02-07T01:04:00Z"


def test_if_modified_since_answers_the_repository_for_any_token(
    gh: FakeGitHub, api: httpx.Client
) -> None:
    """The repository's Last-Modified is its updated_at; If-Modified-Since compares times, so
    it earns a 304 whichever token asks, until a star, fork or settings change."""
    gh.extra_tokens.add("fresh-token")
    fresh = {"Authorization": "Bearer fresh-token"}
    url = f"/repos/{REPO}"
    first = api.get(url)
    modified = first.headers["last-modified"]
    # The fixture's first item was opened on 1 February 2026, at midnight.
    assert first.json()["updated_at"] == "2026-02-01T00:00:00Z"
    assert modified == "Sun, 01 Feb 2026 00:00:00 GMT"
    since = {**fresh, "If-Modified-Since": modified}
    assert api.get(url, headers=since).status_code == 304
    gh.advance(60)
    gh.push()
    gh.add_item(title="New bug")
    assert api.get(url, headers=since).status_code == 304
    # HTTP: If-None-Match decides alone when it is sent, so a stale tag wins over the date.
    stale = {**since, "If-None-Match": first.headers["etag"]}
    assert api.get(url, headers=stale).status_code == 200
    gh.advance(60)
    gh.star()
    starred = api.get(url, headers=since)
    assert starred.status_code == 200
    assert starred.headers["last-modified"] == "Sat, 07 Feb 2026 01:02:00 GMT"
    # Listings send no Last-Modified (as GitHub's issue listings), so the header buys nothing.
    listing = api.get(f"/repos/{REPO}/issues", headers=since)
    assert listing.status_code == 200 and "last-modified" not in listing.headers
    assert api.get(url, headers={"If-Modified-Since": "not a date"}).status_code == 200


# -- faults ----------------------------------------------------------------------------------------


def test_fault_429_then_recovers(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("429", retry_after=0)
    limited = api.get(f"/repos/{REPO}")
    assert limited.status_code == 429
    assert limited.headers["retry-after"] == "0"
    assert "x-ratelimit-remaining" in limited.headers
    assert api.get(f"/repos/{REPO}").status_code == 200
    assert gh.requests[0].fault == "429"


def test_fault_secondary_rate_limit(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("secondary", api="rest", retry_after=2)
    assert gql(api, "{ viewer { login } }").status_code == 200  # other API untouched
    answer = api.get(f"/repos/{REPO}/issues")
    assert answer.status_code == 403
    assert answer.headers["retry-after"] == "2"
    assert "secondary rate limit" in answer.json()["message"]
    assert int(answer.headers["x-ratelimit-remaining"]) > 0


def test_fault_primary_rate_limit(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("primary", api="rest", reset_in=5)
    answer = api.get(f"/repos/{REPO}")
    assert answer.status_code == 403
    assert answer.json()["message"].startswith("API rate limit exceeded")
    assert answer.headers["x-ratelimit-remaining"] == "0"
    assert 0 < int(answer.headers["x-ratelimit-reset"]) - time.time() <= 6
    gh.inject("primary", api="graphql")
    limited = gql(api, "{ viewer { login } }")
    assert limited.status_code == 200
    assert limited.json()["errors"][0]["type"] == "RATE_LIMITED"
    assert limited.headers["x-ratelimit-remaining"] == "0"


def test_fault_502_rest_and_graphql(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("502", times=2)
    rest = api.get(f"/repos/{REPO}")
    assert rest.status_code == 502
    assert "couldn't respond to your request in time" in rest.json()["message"]
    graphql = gql(api, "{ viewer { login } }")
    assert graphql.status_code == 502
    assert graphql.json()["data"] is None
    assert api.get(f"/repos/{REPO}").status_code == 200
    gh.inject("502", html=True)
    assert "text/html" in api.get(f"/repos/{REPO}").headers["content-type"]


def test_fault_timeout_holds_the_answer(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("timeout", hang=0.5)
    with pytest.raises(httpx.ReadTimeout):
        api.get(f"/repos/{REPO}", timeout=0.1)
    assert api.get(f"/repos/{REPO}").status_code == 200


def test_fault_truncated_body(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.inject("truncated", path_contains="/issues")
    assert api.get(f"/repos/{REPO}").status_code == 200  # path does not match
    with pytest.raises(httpx.RemoteProtocolError):
        api.get(f"/repos/{REPO}/issues", params={"state": "all"})
    assert len(api.get(f"/repos/{REPO}/issues", params={"state": "all"}).json()) == 5


def test_fault_times_none_is_permanent_and_clearable(gh: FakeGitHub, api: httpx.Client) -> None:
    fault = gh.inject("502", times=None, path_contains="/pulls/")
    assert [api.get(f"/repos/{REPO}/pulls/4").status_code for _ in range(3)] == [502] * 3
    assert fault.hits == 3
    gh.clear_faults()
    assert api.get(f"/repos/{REPO}/pulls/4").status_code == 200
    with pytest.raises(ValueError, match="unknown fault"):
        gh.inject("404")


def test_item_updated_while_paging(gh: FakeGitHub, api: httpx.Client) -> None:
    """Page drift: #2 is edited between pages, so it moves from page 1 to the end."""
    gh.inject(
        "mutate", path_contains="page=2", action=lambda fake: fake.update_item(REPO, 2, title="x")
    )
    params = {"state": "all", "sort": "updated", "direction": "asc", "per_page": 2}
    page1 = api.get(f"/repos/{REPO}/issues", params=params).json()
    page2 = api.get(f"/repos/{REPO}/issues", params={**params, "page": 2}).json()
    page3 = api.get(f"/repos/{REPO}/issues", params={**params, "page": 3}).json()
    assert [x["number"] for x in page1] == [2, 3]
    assert [x["number"] for x in page2] == [4, 5]  # #1 slid onto page 1 and was skipped
    assert [x["number"] for x in page3] == [2]
    assert page3[0]["title"] == "x"


def test_on_request_callback_sees_every_request(gh: FakeGitHub, api: httpx.Client) -> None:
    seen: list[tuple[str, str]] = []
    gh.on_request(lambda fake, request: seen.append((request.api, request.path)))
    api.get(f"/repos/{REPO}")
    gql(api, "{ viewer { login } }")
    assert seen == [("rest", f"/repos/{REPO}"), ("graphql", "/graphql")]


def test_graphql_heavy_query_times_out(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.graphql_max_prs = 2

    def query(numbers: list[int]) -> str:
        aliases = " ".join(f"p{n}: pullRequest(number: {n}) {{ number }}" for n in numbers)
        return f'{{ repository(owner: "acme", name: "widgets") {{ {aliases} }} }}'

    heavy = gql(api, query([2, 4, 5]))
    assert heavy.status_code == 502
    light = gql(api, query([2, 4]))
    assert light.status_code == 200
    assert light.json()["data"]["repository"]["p4"]["number"] == 4
    assert gh.count(api="graphql", status=502) == 1
    gh.graphql_max_prs = None
    fault = gh.inject("graphql_heavy", max_prs=1, times=1)
    assert gql(api, query([2, 4])).status_code == 502
    assert gql(api, query([2, 4])).status_code == 200  # used up
    assert fault.hits == 1


# -- GraphQL ---------------------------------------------------------------------------------------

PR_QUERY = """
query($owner: String!, $name: String!) {
  rateLimit { remaining cost }
  repository(owner: $owner, name: $name) {
    id nameWithOwner url description defaultBranchRef { name }
    issues { totalCount }
    pullRequests(first: 10, states: [OPEN]) { totalCount nodes { number } }
    p2: pullRequest(number: 2) { ...PR }
    p4: pullRequest(number: 4) { ...PR }
  }
}
fragment PR on PullRequest {
  id number title body url author { login __typename ... on Bot { id } }
  authorAssociation state isDraft locked createdAt updatedAt closedAt mergedAt merged
  mergedBy { login __typename } mergeCommit { oid } additions deletions changedFiles
  commits { totalCount } baseRefName headRefName headRefOid reviewDecision
  reactionGroups { content reactors { totalCount } }
  comments { totalCount }
  labels(first: 100) { totalCount pageInfo { hasNextPage endCursor } nodes { name } }
  reviews(first: 100) {
    totalCount pageInfo { hasNextPage endCursor }
    nodes { id databaseId author { login __typename } authorAssociation state body submittedAt
            commit { oid } comments { totalCount } url }
  }
  files(first: 100) { totalCount pageInfo { hasNextPage endCursor }
                      nodes { path additions deletions changeType } }
  closingIssuesReferences(first: 50) { totalCount nodes { number repository { nameWithOwner } } }
  reviewThreads(first: 10) { totalCount nodes { isResolved } }
}
"""


def test_graphql_pull_requests_with_aliases(api: httpx.Client) -> None:
    answer = gql(api, PR_QUERY, owner="acme", name="widgets")
    assert answer.status_code == 200
    body = answer.json()
    assert "errors" not in body
    repo = body["data"]["repository"]
    assert repo["nameWithOwner"] == REPO
    assert repo["defaultBranchRef"] == {"name": "main"}
    assert repo["issues"]["totalCount"] == 2  # #6 is deleted
    assert repo["pullRequests"] == {"totalCount": 2, "nodes": [{"number": 2}, {"number": 5}]}
    bot, merged = repo["p2"], repo["p4"]
    assert bot["author"]["login"] == "dependabot"  # GraphQL drops the [bot] suffix
    assert bot["author"]["__typename"] == "Bot"
    assert bot["state"] == "OPEN"
    assert merged["state"] == "MERGED"
    assert merged["mergedBy"] == {"login": "carol", "__typename": "User"}
    assert merged["mergeCommit"] == {"oid": "a" * 40}
    assert merged["reviewDecision"] == "APPROVED"
    assert merged["commits"] == {"totalCount": 3}
    assert merged["headRefOid"] == "b" * 40
    assert [g["content"] for g in merged["reactionGroups"]] == [
        "THUMBS_UP", "THUMBS_DOWN", "LAUGH", "HOORAY", "CONFUSED", "HEART", "ROCKET", "EYES",
    ]  # fmt: skip
    review = merged["reviews"]["nodes"][0]
    assert review["databaseId"] == 201
    assert review["comments"] == {"totalCount": 2}
    assert review["commit"] == {"oid": "b" * 40}
    assert [(f["path"], f["changeType"]) for f in merged["files"]["nodes"]] == [
        ("src/start.py", "MODIFIED"),
        ("src/boot.py", "RENAMED"),
        ("old.txt", "DELETED"),
    ]
    assert merged["closingIssuesReferences"]["nodes"] == [
        {"number": 1, "repository": {"nameWithOwner": REPO}},
        {"number": 77, "repository": {"nameWithOwner": "other/repo"}},
    ]
    # One thread: comment 301 starts it, 302 replies. Threads are resolved unless marked.
    assert merged["reviewThreads"] == {"totalCount": 1, "nodes": [{"isResolved": True}]}
    assert merged["id"] == api.get(f"/repos/{REPO}/issues/4").json()["node_id"]


def test_review_threads_follow_review_comments_and_set_unresolved(
    gh: FakeGitHub, api: httpx.Client
) -> None:
    query = """{ repository(owner: "acme", name: "widgets") {
        p4: pullRequest(number: 4) { updatedAt reviewThreads(first: 1) {
            totalCount pageInfo { hasNextPage } nodes { isResolved path } } } } }"""

    def threads() -> dict[str, Any]:
        return gql(api, query).json()["data"]["repository"]["p4"]

    def unresolved() -> int | None:
        items = [x for x in records_of(gh, REPO) if isinstance(x, r.ItemRecord)]
        return next(i.unresolved_threads for i in items if i.number == 4)

    before = threads()
    assert unresolved() == 0
    second = gh.add_review_comment(REPO, 4, "and here?", path="src/boot.py")
    gh.add_review_comment(REPO, 4, "a reply is no thread", in_reply_to_id=second.id)
    assert gh.set_unresolved(REPO, 4, 5) == 2  # at most the threads there are
    after = threads()
    assert after["updatedAt"] > before["updatedAt"]
    page = after["reviewThreads"]
    assert page["totalCount"] == 2 and page["pageInfo"]["hasNextPage"]
    assert page["nodes"] == [{"isResolved": False, "path": "src/start.py"}]
    assert unresolved() == 2
    gh.set_unresolved(REPO, 4, 1)
    assert unresolved() == 1
    gh.delete_review_comment(REPO, 301)  # its thread goes with it
    assert unresolved() == 0


def test_graphql_ghost_is_null_and_issue_fields(api: httpx.Client) -> None:
    query = """{ repository(owner: "acme", name: "widgets") {
        i3: issue(number: 3) { number state stateReason author { login } comments { totalCount } }
        i1: issue(number: 1) { author { login __typename } comments(first: 5) { nodes {
            databaseId author { login } } } } } }"""
    data = gql(api, query).json()["data"]["repository"]
    assert data["i3"]["author"] is None
    assert data["i3"]["state"] == "CLOSED"
    assert data["i3"]["stateReason"] == "COMPLETED"
    assert data["i1"]["author"] == {"login": "alice", "__typename": "User"}
    nodes = data["i1"]["comments"]["nodes"]
    assert nodes == [
        {"databaseId": 101, "author": {"login": "bob"}},
        {"databaseId": 102, "author": None},
    ]


def test_graphql_big_review_ids_need_full_database_id(gh: FakeGitHub, api: httpx.Client) -> None:
    big = 3_000_000_000  # past 2^31, as GitHub's review ids are since 2024
    gh.add_records(
        [
            r.RepositoryRecord(full_name=REPO, description="Widgets", default_branch="main"),
            r.ReviewRecord(id=big, number=5, state="COMMENTED", submitted_at=t(7)),
        ]
    )
    query = """{ repository(owner: "acme", name: "widgets") { pullRequest(number: 5) {
        reviews(first: 5) { nodes { fullDatabaseId databaseId } } } } }"""
    body = gql(api, query).json()
    nodes = body["data"]["repository"]["pullRequest"]["reviews"]["nodes"]
    assert nodes == [{"fullDatabaseId": str(big), "databaseId": None}]  # BigInt is a string
    assert body["errors"][0]["path"][-1] == "databaseId"  # Int is 32-bit: GraphQL refuses it


def test_graphql_connection_limits(api: httpx.Client) -> None:
    too_many = gql(
        api,
        '{ repository(owner: "acme", name: "widgets") { pullRequest(number: 4) {'
        " files(first: 101) { nodes { path } } } } }",
    ).json()
    assert "data" not in too_many  # GitHub rejects the whole query before running it
    (error,) = too_many["errors"]
    assert error["type"] == "EXCESSIVE_PAGINATION"
    assert error["message"] == (
        "Requesting 101 records on the `files` connection exceeds the `first` limit of 100 records."
    )
    unbounded = gql(
        api, '{ repository(owner: "acme", name: "widgets") { issues { nodes { number } } } }'
    ).json()
    assert unbounded["errors"][0]["type"] == "MISSING_PAGINATION_BOUNDARIES"
    count_only = gql(
        api, '{ repository(owner: "acme", name: "widgets") { issues { totalCount } } }'
    )
    assert count_only.json() == {"data": {"repository": {"issues": {"totalCount": 2}}}}


def test_graphql_cursor_paging(api: httpx.Client) -> None:
    query = """query($after: String) { repository(owner: "acme", name: "widgets") {
        pullRequest(number: 4) { files(first: 2, after: $after) {
            totalCount pageInfo { hasNextPage endCursor } nodes { path } } } } }"""
    paths: list[str] = []
    after = None
    for _ in range(5):
        files = gql(api, query, after=after).json()["data"]["repository"]["pullRequest"]["files"]
        assert files["totalCount"] == 3
        paths += [node["path"] for node in files["nodes"]]
        if not files["pageInfo"]["hasNextPage"]:
            break
        after = files["pageInfo"]["endCursor"]
        assert isinstance(after, str)
    assert paths == ["src/start.py", "src/boot.py", "old.txt"]
    bad = gql(api, query, after="not a cursor").json()
    assert bad["errors"][0]["type"] == "INVALID_CURSOR_ARGUMENTS"


def test_graphql_not_found_shapes(api: httpx.Client) -> None:
    missing = gql(api, '{ repository(owner: "o", name: "r") { id } }')
    assert missing.status_code == 200
    body = missing.json()
    assert body["data"] == {"repository": None}
    (error,) = body["errors"]
    assert error["type"] == "NOT_FOUND"
    assert error["path"] == ["repository"]
    assert error["message"] == "Could not resolve to a Repository with the name 'o/r'."
    pr = gql(
        api, '{ repository(owner: "acme", name: "widgets") { p1: pullRequest(number: 1) { id } } }'
    )
    assert pr.json()["data"]["repository"] == {"p1": None}
    assert pr.json()["errors"][0]["path"] == ["repository", "p1"]
    invalid = gql(api, '{ repository(owner: "acme", name: "widgets") { nope } }').json()
    assert "data" not in invalid
    assert "nope" in invalid["errors"][0]["message"]


# -- mutations, snapshots, several repositories ---------------------------------------------


def test_clock_defaults_after_the_newest_timestamp(gh: FakeGitHub) -> None:
    assert gh.clock == t(7) + timedelta(hours=1)
    assert gh.advance(60) == t(7, 1) + timedelta(minutes=1)


def test_comment_mutations_follow_github(gh: FakeGitHub, api: httpx.Client) -> None:
    since = gh.clock.strftime("%Y-%m-%dT%H:%M:%SZ")
    added = gh.add_comment(REPO, 1, "me too", author="dave")
    assert added.created_at == gh.clock
    issue = api.get(f"/repos/{REPO}/issues/1").json()
    assert issue["comments"] == 3
    assert issue["updated_at"] == since
    fresh = api.get(f"/repos/{REPO}/issues/comments", params={"since": since}).json()
    assert [c["id"] for c in fresh] == [added.id]
    gh.advance(3600)
    gh.delete_comment(REPO, 101)
    issue = api.get(f"/repos/{REPO}/issues/1").json()
    assert issue["comments"] == 2
    assert issue["updated_at"] == since  # deleting does not bump updated_at
    listed = api.get(f"/repos/{REPO}/issues/1/comments").json()
    assert [c["id"] for c in listed] == [102, added.id]
    assert next(x for x in records_of(gh) if getattr(x, "id", None) == 101).deleted  # type: ignore[union-attr]


def test_review_mutations(gh: FakeGitHub, api: httpx.Client) -> None:
    review = gh.add_review(REPO, 5, "CHANGES_REQUESTED", body="please split")
    comment = gh.add_review_comment(REPO, 5, "split here", path="a.py", review_id=review.id)
    loose = gh.add_review_comment(5, "and here")  # repository left out: the only one
    assert loose.review_id is not None and loose.review_id != review.id
    reviews = api.get(f"/repos/{REPO}/pulls/5/reviews").json()
    assert [(x["id"], x["state"]) for x in reviews] == [
        (review.id, "CHANGES_REQUESTED"),
        (loose.review_id, "COMMENTED"),
    ]
    assert [c["id"] for c in api.get(f"/repos/{REPO}/pulls/5/comments").json()] == [
        comment.id,
        loose.id,
    ]
    item = next(x for x in records_of(gh) if isinstance(x, r.ItemRecord) and x.number == 5)
    assert item.review_comments_count == 2
    assert item.updated_at == gh.clock


def test_update_and_add_items(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.advance(60)
    merged = gh.update_item(REPO, 5, merged=True, draft=False)
    assert (merged.state, merged.merged_at, merged.closed_at) == ("closed", gh.clock, gh.clock)
    added = gh.add_item(kind="pr", title="New thing")
    assert added.number == 7  # numbers continue after the deleted #6
    rows = api.get(f"/repos/{REPO}/issues", params={"state": "all", "sort": "updated"}).json()
    assert [x["number"] for x in rows[:2]] == [7, 5]
    assert rows[1]["pull_request"]["merged_at"] == gh.clock.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_records_of_round_trips_through_a_snapshot(tmp_path: Path) -> None:
    original = FakeGitHub(sample())
    path = tmp_path / "snap.jsonl"
    lines = [json.dumps({"type": "header", "format": "tidings-snapshot", "version": 1})]
    lines += [x.model_dump_json() for x in records_of(original)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = FakeGitHub.from_snapshot(path)
    assert records_of(loaded) == records_of(original)
    kinds = {type(x) for x in records_of(loaded)}
    assert r.SyncStateRecord not in kinds
    assert len(kinds) == 7


def test_several_repositories(api: httpx.Client, gh: FakeGitHub) -> None:
    gh.add_records(
        [
            r.RepositoryRecord(full_name="acme/gadgets"),
            r.ItemRecord(
                number=1,
                kind="issue",
                title="Other",
                state="open",
                created_at=t(1),
                updated_at=t(1),
            ),
        ]
    )
    assert gh.repositories == [REPO, "acme/gadgets"]
    assert [x["title"] for x in api.get("/repos/acme/gadgets/issues").json()] == ["Other"]
    with pytest.raises(ValueError, match="name the repository"):
        gh.update_item(1, title="which one?")
    gh.update_item("acme/gadgets", 1, title="this one")
    assert api.get("/repos/acme/gadgets/issues/1").json()["title"] == "this one"
    with pytest.raises(ValueError, match="RepositoryRecord"):
        FakeGitHub([r.CommentRecord(id=1, number=1, created_at=t(1), updated_at=t(1))])


def test_concurrent_requests_are_all_logged(gh: FakeGitHub, api: httpx.Client) -> None:
    gh.latency = 0.05
    statuses: list[int] = []

    def fetch() -> None:
        statuses.append(api.get(f"/repos/{REPO}/issues").status_code)

    threads = [threading.Thread(target=fetch) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200] * 8
    assert gh.count(api="rest", status=200) == 8
    gh.reset_log()
    assert gh.count() == 0
