"""GitHubClient against httpx.MockTransport: retries, rate limits, errors, and no token leaks."""

from __future__ import annotations

import json
import logging
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tidings.errors import SourceError
from tidings.sources.github import auth, shapes
from tidings.sources.github.client import (
    GitHubClient,
    GraphQLTooLarge,
    NotFoundError,
    PageTooDeep,
    RequestFailed,
)

TOKEN = "ghp_TESTTOKEN0123456789abcdef"
API = "https://api.example.test"
GRAPHQL = "https://api.example.test/graphql"
NOW = 1_800_000_000.0

Handler = Callable[[httpx.Request], httpx.Response]


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def sequence(*answers: httpx.Response | Exception) -> Handler:
    """A handler giving each answer in turn (the last one repeats)."""
    queue = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    return handler


def make(handler: Handler, **kw: Any) -> tuple[GitHubClient, Sleeps]:
    sleeps = Sleeps()
    kw.setdefault("max_retries", 3)
    kw.setdefault("max_wait", 600)
    client = GitHubClient(
        API,
        GRAPHQL,
        TOKEN,
        transport=httpx.MockTransport(handler),
        sleep=sleeps,
        clock=lambda: NOW,
        secondary_min_wait=0.5,
        backoff_base=0.01,
        backoff_max=0.05,
        **kw,
    )
    return client, sleeps


def ok(body: Any = None, **headers: str) -> httpx.Response:
    return httpx.Response(200, json=body if body is not None else {"ok": True}, headers=headers)


def gql(data: dict[str, Any], errors: list[dict[str, Any]] | None = None) -> httpx.Response:
    body: dict[str, Any] = {"data": data}
    if errors:
        body["errors"] = errors
    return httpx.Response(200, json=body)


@pytest.fixture(autouse=True)
def _capture_all(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.DEBUG)
    yield
    # Whatever a test did, the token must not be in any log record.
    assert TOKEN not in caplog.text


def assert_clean(exc: BaseException) -> None:
    text = " ".join([str(exc), getattr(exc, "fix", ""), repr(exc)])
    assert TOKEN not in text
    if isinstance(exc, SourceError):
        assert "\n" not in exc.one_line()


# -- requests ---------------------------------------------------------------------------


def test_headers_and_etag() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.headers.get("if-none-match") == '"v1"':
            return httpx.Response(304, headers={"etag": '"v1"'})
        return ok([1, 2], etag='"v1"')

    client, _ = make(handler)
    first = client.get("/repos/o/r/issues", {"since": "2026-01-01T00:00:00Z", "per_page": 100})
    assert first.status == 200 and first.json == [1, 2] and first.etag == '"v1"'
    second = client.get("/repos/o/r/issues", {"per_page": 100}, etag='"v1"')
    assert second.not_modified and second.json is None
    req = seen[0]
    assert req.headers["authorization"] == f"Bearer {TOKEN}"
    assert req.headers["user-agent"].startswith("tidings/")
    assert req.headers["accept"] == "application/vnd.github+json"
    assert req.headers["x-github-api-version"] == "2022-11-28"
    assert first.url == f"{API}/repos/o/r/issues?since=2026-01-01T00%3A00%3A00Z&per_page=100"
    assert client.stats.rest_requests == 2 and client.stats.not_modified == 1


# -- transient failures -------------------------------------------------------------------


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(502, text="Bad Gateway"),
        httpx.Response(500, json={"message": "Server Error"}),
        httpx.ReadTimeout("slow"),
        httpx.RemoteProtocolError("peer closed connection without sending complete message body"),
        httpx.Response(200, content=b'[{"id": 1, "title": "cut'),
    ],
    ids=["502", "500", "timeout", "dropped", "truncated-json"],
)
def test_transient_failures_are_retried(failure: httpx.Response | Exception) -> None:
    client, sleeps = make(sequence(failure, failure, ok([{"id": 1}])))
    assert client.get("/x").json == [{"id": 1}]
    assert client.stats.retries == 2
    assert client.stats.rest_requests == 3
    assert len(sleeps) == 2 and all(0 < s <= 0.05 for s in sleeps)


def test_gives_up_after_max_retries_with_one_line_error() -> None:
    client, sleeps = make(sequence(httpx.Response(502)), max_retries=2)
    with pytest.raises(SourceError) as err:
        client.get("/repos/o/r")
    assert "kept failing" in err.value.cause and "502" in err.value.cause
    assert client.stats.rest_requests == 3 and len(sleeps) == 2
    assert err.value.transient  # a queue job tries it again later (tidings.jobs.queue)
    assert_clean(err.value)


def test_unreachable_host() -> None:
    client, _ = make(sequence(httpx.ConnectError("Name or service not known")), max_retries=2)
    with pytest.raises(SourceError) as err:
        client.get("/repos/o/r")
    assert err.value.cause == "cannot reach api.example.test"
    assert err.value.fix
    assert err.value.transient
    assert_clean(err.value)


# -- rate limits --------------------------------------------------------------------------


def test_secondary_limit_honours_retry_after() -> None:
    limited = httpx.Response(
        403,
        json={"message": "You have exceeded a secondary rate limit."},
        headers={"retry-after": "7"},
    )
    client, sleeps = make(sequence(limited, ok()))
    assert client.get("/x").json == {"ok": True}
    assert sleeps == [7.0]
    assert client.stats.waits == 1 and client.stats.retries == 0


def test_secondary_limit_without_retry_after_backs_off_from_minimum() -> None:
    limited = httpx.Response(429, json={"message": "secondary rate limit"})
    client, sleeps = make(sequence(limited, limited, ok()))
    client.get("/x")
    assert len(sleeps) == 2
    assert 0.5 <= sleeps[0] <= 0.55
    assert 1.0 <= sleeps[1] <= 1.1  # doubled


def test_primary_limit_sleeps_until_reset() -> None:
    spent = httpx.Response(
        403,
        json={"message": "API rate limit exceeded"},
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW + 30))},
    )
    client, sleeps = make(sequence(spent, ok()))
    client.get("/x")
    assert sleeps == [31.0]


def test_primary_limit_too_long_is_one_line_error() -> None:
    spent = httpx.Response(
        403,
        json={"message": "API rate limit exceeded"},
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW + 3600))},
    )
    client, sleeps = make(sequence(spent), max_wait=60)
    with pytest.raises(SourceError) as err:
        client.get("/x")
    assert "rate limit exhausted until" in err.value.cause
    assert "UTC" in err.value.cause
    assert sleeps == []
    assert_clean(err.value)


def test_spent_budget_waits_before_the_next_request() -> None:
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW + 10))}
    client, sleeps = make(sequence(ok(**headers), ok()))
    client.get("/a")
    assert sleeps == []
    client.get("/b")
    assert sleeps == [11.0]


# -- errors -------------------------------------------------------------------------------


def test_bad_token() -> None:
    client, sleeps = make(sequence(httpx.Response(401, json={"message": "Bad credentials"})))
    with pytest.raises(SourceError) as err:
        client.get("/repos/o/r")
    assert err.value.cause == "GitHub rejected the token (401 Bad credentials)"
    assert "GITHUB_TOKEN" in err.value.fix
    assert sleeps == []
    assert not err.value.transient  # the same token is refused the same way later
    assert_clean(err.value)


def test_not_found() -> None:
    client, _ = make(sequence(httpx.Response(404, json={"message": "Not Found"})))
    with pytest.raises(NotFoundError) as err:
        client.get("/repos/o/missing")
    assert_clean(err.value)


def test_token_echoed_by_server_is_redacted() -> None:
    echo = httpx.Response(422, json={"message": f"bad value {TOKEN}"})
    client, _ = make(sequence(echo))
    with pytest.raises(SourceError) as err:
        client.get("/x")
    assert "***" in err.value.cause
    assert_clean(err.value)


# -- GraphQL ------------------------------------------------------------------------------


def test_graphql_returns_data_and_counts() -> None:
    seen: list[dict[str, Any]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        return gql({"repository": {"id": "R"}, "rateLimit": {"remaining": 4000, "cost": 1}})

    client, _ = make(handler)
    data = client.graphql("query { x }", {"owner": "o", "name": "r"})
    assert data["repository"] == {"id": "R"}
    assert seen[0]["variables"] == {"owner": "o", "name": "r"}
    assert client.stats.graphql_requests == 1 and client.stats.rest_requests == 0


def test_graphql_unknown_repository() -> None:
    client, _ = make(
        sequence(
            gql(
                {"repository": None},
                [{"type": "NOT_FOUND", "path": ["repository"], "message": "Could not resolve"}],
            )
        )
    )
    with pytest.raises(SourceError) as err:
        client.graphql("query { x }", {"owner": "o", "name": "r"})
    assert err.value.cause == "repository o/r not found or not visible to this token"


def test_graphql_missing_alias_is_tolerated() -> None:
    client, _ = make(
        sequence(
            gql(
                {"repository": {"p1": None, "p2": {"number": 2}}},
                [{"type": "NOT_FOUND", "path": ["repository", "p1"], "message": "no PR"}],
            )
        )
    )
    data = client.graphql("query { x }", {"owner": "o", "name": "r"})
    assert data["repository"]["p1"] is None


def test_graphql_budget_waits_until_reset_at() -> None:
    reset = "2027-01-15T08:00:10Z"  # NOW is 2027-01-15T08:00:00Z
    low = gql({"rateLimit": {"remaining": 3, "resetAt": reset, "cost": 5}})
    client, sleeps = make(sequence(low, gql({"rateLimit": {"remaining": 5000, "cost": 1}})))
    client.graphql("query { x }")
    assert sleeps == []
    client.graphql("query { x }")
    assert sleeps == [11.0]


def test_graphql_rate_limited_error_waits() -> None:
    limited = httpx.Response(
        200,
        json={"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]},
        headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(NOW + 5))},
    )
    client, sleeps = make(sequence(limited, gql({"ok": 1})))
    assert client.graphql("query { x }") == {"ok": 1}
    assert sleeps == [6.0]


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(502),
        httpx.ReadTimeout("slow"),
        httpx.Response(
            200,
            json={
                "data": None,
                "errors": [{"message": "Something went wrong while executing your query."}],
            },
        ),
    ],
    ids=["502", "timeout", "graphql-timeout-error"],
)
def test_graphql_shrinkable_failures_are_signalled_not_retried(
    failure: httpx.Response | Exception,
) -> None:
    client, sleeps = make(sequence(failure, gql({"ok": 1})))
    with pytest.raises(GraphQLTooLarge):
        client.graphql("query { x }", shrinkable=True)
    assert sleeps == []
    # At the smallest size the same failure is an ordinary retry.
    client2, sleeps2 = make(sequence(failure, gql({"ok": 1})))
    assert client2.graphql("query { x }") == {"ok": 1}
    assert len(sleeps2) == 1


def test_graphql_other_errors_are_source_errors() -> None:
    client, _ = make(
        sequence(gql({}, [{"type": "UNPROCESSABLE", "message": f"nope {TOKEN}", "path": ["x"]}]))
    )
    with pytest.raises(SourceError) as err:
        client.graphql("query { x }")
    assert "UNPROCESSABLE" in err.value.cause
    assert_clean(err.value)


def test_graphql_forbidden_repository_is_one_line_and_a_forbidden_field_is_kept() -> None:
    oauth = "the `acme` organization has enabled OAuth App access restrictions"
    client, _ = make(
        sequence(
            gql(
                {"repository": None},
                [{"type": "FORBIDDEN", "message": oauth, "path": ["repository"]}],
            )
        )
    )
    with pytest.raises(SourceError) as err:
        client.graphql("query { x }", {"owner": "acme", "name": "w"})
    assert err.value.cause == f"GitHub refused to show acme/w to this token: {oauth}"
    assert "OAuth apps" in err.value.fix
    # One field refused: the rest of the answer is used, the error handed to the caller.
    errors = [{"type": "FORBIDDEN", "message": oauth, "path": ["repository", "p1", "reviews"]}]
    client, sleeps = make(sequence(gql({"repository": {"p1": {"reviews": None}}}, errors)))
    data, got = client.graphql_answer("query { x }")
    assert data == {"repository": {"p1": {"reviews": None}}} and got == errors
    assert sleeps == []


def test_graphql_bad_token() -> None:
    client, _ = make(sequence(httpx.Response(401, json={"message": "Bad credentials"})))
    with pytest.raises(SourceError, match="401"):
        client.graphql("query { x }")


# -- token discovery ---------------------------------------------------------------------


def test_resolve_token_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_TOKEN", " tok_abcdef123 ")
    assert auth.resolve_token("MY_TOKEN") == "tok_abcdef123"


def test_resolve_token_from_gh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.setattr(auth.shutil, "which", lambda _name: "/usr/bin/gh")

    def run(*_a: Any, **_k: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(["gh"], 0, stdout="gho_fromgh123456\n", stderr="")

    monkeypatch.setattr(auth.subprocess, "run", run)
    assert auth.resolve_token() == "gho_fromgh123456"


def test_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    monkeypatch.setattr(auth.shutil, "which", lambda _name: None)
    with pytest.raises(SourceError) as err:
        auth.resolve_token()
    assert err.value.cause == "no GitHub token found"
    assert "gh auth login" in err.value.fix


# -- answers of the wrong shape (issue #10) ----------------------------------------------------


def test_wrong_shaped_listing_is_retried_then_used() -> None:
    client, sleeps = make(sequence(ok({}), ok({"message": "oops"}), ok([{"n": 1}])))
    resp = client.get("/repos/o/r/issues", parse=shapes.rest_list(lambda row: row["n"]))
    assert resp.parsed == [1]
    assert client.stats.retries == 2 and len(sleeps) == 2


def test_wrong_shape_that_persists_is_one_line_naming_the_request() -> None:
    client, _ = make(sequence(ok({})))
    with pytest.raises(SourceError) as err:
        client.get("/repos/o/r/issues", parse=shapes.rest_list(lambda row: row))
    assert err.value.one_line() == (
        "GitHub kept answering GET /repos/o/r/issues in an unexpected shape: the listing is an "
        "empty object, not a list (4 tries) — nothing was deleted or skipped because of it; run "
        "the sync again later (see githubstatus.com) and report it if it persists"
    )


def test_graphql_check_sees_data_and_errors_and_is_retried() -> None:
    seen: list[int] = []

    def check(data: Any, errors: Any) -> None:
        seen.append(len(errors))
        shapes.repository(data)

    nested = [{"type": "NOT_FOUND", "path": ["repository", "p1"], "message": "gone"}]
    client, _ = make(sequence(gql({"repository": None}), gql({"repository": {"p1": None}}, nested)))
    data = client.graphql("query", {"owner": "o", "name": "r"}, check=check, what="details")
    assert data["repository"] == {"p1": None} and seen == [0, 1]


def test_graphql_without_data_is_retried_not_fatal() -> None:
    client, _ = make(sequence(httpx.Response(200, json={}), gql({"x": 1})))
    assert client.graphql("query") == {"x": 1}


# -- what real GitHub answers that is not an outage (issue #10) -------------------------------

SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes."


@pytest.mark.parametrize(
    "limited",
    [
        httpx.Response(200, json={"message": SECONDARY}, headers={"retry-after": "7"}),
        httpx.Response(
            200, json={"errors": [{"message": SECONDARY}]}, headers={"retry-after": "7"}
        ),
    ],
    ids=["message", "errors"],
)
def test_a_secondary_limit_answered_with_200_is_waited_out(limited: httpx.Response) -> None:
    """GitHub documents "200 or 403" for secondary limits, with no RATE_LIMITED type: such an
    answer is waited out as a limit (Retry-After here), not retried as a wrong shape."""
    client, sleeps = make(sequence(limited, gql({"ok": 1})))
    assert client.graphql("query { x }") == {"ok": 1}
    assert sleeps == [7.0] and client.stats.waits == 1 and client.stats.retries == 0
    rest, rest_sleeps = make(sequence(limited, ok([{"n": 1}])))
    assert rest.get("/x", parse=shapes.rest_list(lambda row: row["n"])).parsed == [1]
    assert rest_sleeps == [7.0] and rest.stats.waits == 1 and rest.stats.retries == 0


def test_a_secondary_limit_with_200_and_no_hint_backs_off_from_the_minimum() -> None:
    limited = httpx.Response(200, json={"message": SECONDARY})
    client, sleeps = make(sequence(limited, limited, ok([])))
    client.get("/x", parse=shapes.rest_list(lambda row: row))
    assert 0.5 <= sleeps[0] <= 0.55 and 1.0 <= sleeps[1] <= 1.1


def test_resource_limits_shrink_or_retry() -> None:
    """RESOURCE_LIMITS_EXCEEDED comes with partial data: a caller that can split the query is
    told so at once; otherwise it is retried like a 502, never read as the answer."""
    partial = gql(
        {"repository": {"p1": {"number": 1}, "p2": None}},
        [
            {
                "type": "RESOURCE_LIMITS_EXCEEDED",
                "message": "Resource limits for this query exceeded.",
            }
        ],
    )
    client, sleeps = make(sequence(partial, gql({"ok": 1})))
    with pytest.raises(GraphQLTooLarge, match="Resource limits"):
        client.graphql("query { x }", shrinkable=True)
    assert sleeps == []
    client, sleeps = make(sequence(partial, gql({"ok": 1})))
    assert client.graphql("query { x }") == {"ok": 1}
    assert client.stats.retries == 1
    client, _ = make(sequence(partial))
    with pytest.raises(RequestFailed) as err:
        client.graphql("query { x }", what="repository totals")
    assert err.value.cause == (
        "GitHub kept failing repository totals: GraphQL: Resource limits for this query "
        "exceeded. (4 tries)"
    )


def test_a_page_too_deep_is_its_own_error() -> None:
    deep = httpx.Response(
        422,
        json={
            "message": "Pagination with the page parameter is not supported for large "
            "datasets, please use cursor based pagination (after/before)"
        },
    )
    client, sleeps = make(sequence(deep))
    with pytest.raises(PageTooDeep) as err:
        client.get("/repos/o/r/issues", {"page": 300})
    assert "GET /repos/o/r/issues this deep (422: Pagination" in err.value.cause
    assert sleeps == []
    other, _ = make(sequence(httpx.Response(422, json={"message": "Validation Failed"})))
    with pytest.raises(SourceError) as plain:
        other.get("/repos/o/r/issues")
    assert not isinstance(plain.value, PageTooDeep)
