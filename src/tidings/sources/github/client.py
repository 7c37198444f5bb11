"""A small synchronous GitHub client: REST GETs with ETags, GraphQL queries, and every way a
request can fail turned into either a bounded retry or a one-line SourceError.

Retries use tenacity with jittered exponential backoff. Rate limits are waited out rather than
retried blindly: a primary limit sleeps until `x-ratelimit-reset` (GraphQL: `rateLimit.resetAt`),
a secondary limit honours `Retry-After` or backs off from a one-minute minimum. A wait longer
than `max_wait` stops the sync with a message saying when the limit resets, because sleeping
for most of an hour inside a cron job is worse than failing clearly.

GitHub also answers some secondary limits with HTTP 200 and only a message ("You have exceeded
a secondary rate limit"), no `RATE_LIMITED` type: such an answer is waited out the same way,
never read as data. A GraphQL query too heavy for GitHub (`RESOURCE_LIMITS_EXCEEDED`, a
gateway error or a timeout) is handed back to a caller that can split it (`shrinkable`);
`FORBIDDEN` on one field (an organisation restricting OAuth apps) leaves that field null and
the rest of the answer usable, so the caller gets both (`graphql_answer`).

An answer that is valid HTTP but not the shape the caller expects (`{}` for a listing, a null
repository, a null connection) is retried the same way when the caller passes a parser or a
check (shapes.py), and then fails with one line: it is never read as "empty". So is a 200 whose
ETag is the one sent as If-None-Match (GitHub answers that with 304: something in between
answered instead). After such an answer a GET is asked again without its ETag and with
`Cache-Control: no-cache`, so a cache serving an old body under the real ETag is passed.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import urlsplit

import httpx
from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt

from tidings._version import __version__
from tidings.errors import SourceError, redact, register_secret
from tidings.sources.github.budget import GitHubBudget, Limit
from tidings.sources.github.shapes import GraphQLCheck, UnexpectedAnswer

log = logging.getLogger("tidings.github")

_PRIMARY = "primary"
_SECONDARY = "secondary"
_SERVER = "server"
_TIMEOUT = "timeout"
_CONNECT = "connect"
_TRUNCATED = "truncated"
_SHAPE = "shape"


@dataclass
class Response:
    status: int
    json: Any
    headers: httpx.Headers
    url: str
    parsed: Any = None  # what the caller's `parse` made of `json`

    @property
    def not_modified(self) -> bool:
        return self.status == 304

    @property
    def etag(self) -> str | None:
        return self.headers.get("etag")

    @property
    def last_modified(self) -> str | None:
        return self.headers.get("last-modified")


@dataclass
class ClientStats:
    rest_requests: int = 0
    graphql_requests: int = 0
    not_modified: int = 0
    retries: int = 0
    waits: int = 0  # rate-limit sleeps (not backoff between retries)
    waited_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class NotFoundError(SourceError):
    """GitHub answered 404/410: the caller knows what was missing and rephrases."""


class RequestFailed(SourceError):
    """One request kept failing in a way that may be about what it asked for rather than about
    GitHub as a whole: a wrong-shaped answer, a 5xx, a timeout, a refused GraphQL query. A
    caller that can set the request's subject aside (one PR's details) may do so; the rest
    (a bad token, a rate limit, no network) are plain SourceErrors that stop the sync."""

    transient = True  # a 5xx or a timeout is GitHub's passing trouble far more often


class GraphQLQueryError(RequestFailed):
    """GitHub refused a GraphQL query (an unknown field, a bad argument): `messages` says why."""

    transient = False  # the same query is refused the same way: a bug to report

    def __init__(self, cause: str, fix: str, messages: list[str]) -> None:
        super().__init__(cause, fix)
        self.messages = messages


class PageTooDeep(SourceError):
    """GitHub refused a `page=` this deep (422: "Pagination with the page parameter is not
    supported for large datasets"): the caller must move its `since` key instead."""


class GraphQLTooLarge(Exception):
    """A GraphQL query hit a gateway error, a timeout or GitHub's resource limits and was not
    retried: the caller asked to be told so it can split the query (`shrinkable=True`)."""


class _Retry(Exception):
    """A transient failure. `wait` overrides the backoff when GitHub said how long to wait."""

    def __init__(self, kind: str, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason
        self.wait = wait


@dataclass
class _CallState:
    secondary_hits: int = 0
    wrong_answers: int = 0  # answers of the wrong shape or content so far


# What a request asked again after a wrong answer sends: no validator, and no cached copy.
_REREAD = {"Cache-Control": "no-cache", "Pragma": "no-cache"}


class GitHubClient:
    def __init__(
        self,
        api_url: str,
        graphql_url: str,
        token: str,
        *,
        timeout: float = 30.0,
        max_retries: int = 6,
        max_wait: float = 900.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        secondary_min_wait: float = 60.0,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
        budget: GitHubBudget | None = None,
    ) -> None:
        register_secret(token)
        self.api_url = api_url.rstrip("/")
        self.graphql_url = graphql_url
        self.host = urlsplit(self.api_url).hostname or self.api_url
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_wait = max_wait
        self.secondary_min_wait = secondary_min_wait
        self.backoff_base = backoff_base
        self.backoff_max = backoff_max
        self.stats = ClientStats()
        self._sleep = sleep
        self._clock = clock
        # The run's shared budget (budget.py), or one of this client's own: the limits GitHub
        # reports for this token, its secondary-limit pause and the in-flight cap.
        self.budget = budget or GitHubBudget([token], max_in_flight=1_000, clock=clock, sleep=sleep)
        self._token = token
        self._limits: dict[str, Limit] = self.budget.state(token).limits
        self._http = httpx.Client(
            transport=transport,
            verify=self.budget.ssl_context(),
            timeout=timeout,
            headers={
                "Authorization": f"Bearer {token}",
                "User-Agent": f"tidings/{__version__}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
            },
            follow_redirects=True,
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> GitHubClient:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- public -------------------------------------------------------------------------

    def url_for(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        """The full request URL (token-free): also the key its ETag is stored under."""
        return str(httpx.URL(self.api_url + path, params=dict(params or {})))

    def get(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        etag: str | None = None,
        *,
        modified_since: str | None = None,
        parse: Callable[[Any], Any] | None = None,
    ) -> Response:
        """GET a REST resource; with `etag` (sent as If-None-Match) or `modified_since` (a
        `Last-Modified` it answered before, sent as If-Modified-Since), an unchanged one comes
        back `not_modified`. HTTP lets If-None-Match overrule the other, so pass one of them.

        `parse` (shapes.py) turns the JSON into `Response.parsed`; an `UnexpectedAnswer` from
        it is retried, then raised as a SourceError.
        """
        url = self.url_for(path, params)
        conditional = {"If-None-Match": etag} if etag else {}
        if modified_since:
            conditional["If-Modified-Since"] = modified_since
        what = f"GET {path}"

        def attempt(state: _CallState) -> Response:
            self._await_budget("core")
            self.stats.rest_requests += 1
            # After a wrong answer, ask again unconditionally and past any cache on the way:
            # a cache that served an old body with the real ETag would serve it again, or
            # answer the ETag with a 304 for good.
            headers = _REREAD if state.wrong_answers else conditional
            resp = self._send("GET", url, headers=headers)
            self._note_limit("core", resp.headers)
            if resp.status_code == 304:
                self.stats.not_modified += 1
                return Response(304, None, resp.headers, url)
            self._raise_for_status(resp, what, state)
            body = self._json(resp, what)
            self._raise_for_limit_message(resp, body, state)
            if etag and not state.wrong_answers and _same_tag(resp.headers.get("etag"), etag):
                # GitHub answers a matching If-None-Match with 304, never with a body: this
                # one came from something in between, and may be as old as its cache.
                state.wrong_answers += 1
                raise _Retry(_SHAPE, "a full answer carrying the ETag it was asked to differ from")
            parsed = None
            if parse is not None:
                try:
                    parsed = parse(body)
                except UnexpectedAnswer as exc:
                    state.wrong_answers += 1
                    raise _Retry(_SHAPE, str(exc)) from exc
            return Response(resp.status_code, body, resp.headers, url, parsed)

        return self._call(attempt, what)

    def graphql(
        self,
        query: str,
        variables: Mapping[str, Any] | None = None,
        *,
        shrinkable: bool = False,
        check: GraphQLCheck | None = None,
        what: str = "GraphQL query",
    ) -> dict[str, Any]:
        """Run a query and return its `data` (see `graphql_answer`)."""
        return self.graphql_answer(query, variables, shrinkable=shrinkable, check=check, what=what)[
            0
        ]

    def graphql_answer(
        self,
        query: str,
        variables: Mapping[str, Any] | None = None,
        *,
        shrinkable: bool = False,
        check: GraphQLCheck | None = None,
        what: str = "GraphQL query",
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Run a query and return its `data` and the errors that left parts of it null.
        Asks for nothing itself: include `rateLimit { remaining resetAt cost }` in the query
        so the budget can be tracked.

        NOT_FOUND errors below the repository (a missing alias) and FORBIDDEN ones (a field
        the token may not read) leave that part null; a missing or forbidden repository is a
        SourceError. With `shrinkable`, a gateway error, timeout or RESOURCE_LIMITS_EXCEEDED
        raises GraphQLTooLarge at once instead of being retried at the same size.
        `check(data, errors)` (shapes.py) vets the answer: an `UnexpectedAnswer` is retried,
        then raised as a SourceError naming `what`.
        """
        variables = dict(variables or {})
        repo = (
            f"{variables['owner']}/{variables['name']}"
            if "owner" in variables and "name" in variables
            else "the repository"
        )

        def attempt(state: _CallState) -> tuple[dict[str, Any], list[dict[str, Any]]]:
            self._await_budget("graphql")
            self.stats.graphql_requests += 1
            try:
                resp = self._send(
                    "POST", self.graphql_url, json_body={"query": query, "variables": variables}
                )
            except _Retry as exc:
                if shrinkable and exc.kind == _TIMEOUT:
                    raise GraphQLTooLarge(exc.reason) from exc
                raise
            self._note_limit("graphql", resp.headers)
            if shrinkable and resp.status_code in (502, 504):
                raise GraphQLTooLarge(f"HTTP {resp.status_code}")
            self._raise_for_status(resp, what, state)
            body = self._json(resp, what)
            if not isinstance(body, dict):
                raise _Retry(_TRUNCATED, "GraphQL answer is not an object")
            if "data" not in body:
                self._raise_for_limit_message(resp, body, state)
            data = body.get("data")
            errors = body.get("errors") or []
            if not isinstance(errors, list) or not all(isinstance(e, dict) for e in errors):
                raise _Retry(_SHAPE, "GraphQL `errors` is not a list of objects")
            self._check_graphql_errors(errors, repo, resp, shrinkable, state)
            if not isinstance(data, dict):
                raise _Retry(_SHAPE, "GraphQL answer has no data")
            self._note_graphql_budget(data.get("rateLimit"))
            if check is not None:
                try:
                    check(data, errors)
                except UnexpectedAnswer as exc:
                    raise _Retry(_SHAPE, str(exc)) from exc
            return data, errors

        return cast(tuple[dict[str, Any], list[dict[str, Any]]], self._call(attempt, what))

    # -- the retry loop ------------------------------------------------------------------

    def _call(self, attempt: Callable[[_CallState], Any], what: str) -> Any:
        state = _CallState()
        retrying = Retrying(
            retry=retry_if_exception_type(_Retry),
            stop=stop_after_attempt(self.max_retries + 1),
            wait=self._wait_for,
            sleep=self._sleep_quietly,
            before_sleep=lambda rs: self._before_sleep(rs, what),
            reraise=True,
        )
        try:
            return retrying(attempt, state)
        except _Retry as exc:
            raise self._gave_up(exc, what) from None

    def _wait_for(self, rs: RetryCallState) -> float:
        exc = rs.outcome.exception() if rs.outcome else None
        backoff = min(self.backoff_max, self.backoff_base * 2 ** (rs.attempt_number - 1))
        backoff = random.uniform(backoff / 2, backoff)
        if not isinstance(exc, _Retry):
            return backoff
        if exc.wait is not None:
            return exc.wait
        return backoff

    def _before_sleep(self, rs: RetryCallState, what: str) -> None:
        exc = rs.outcome.exception() if rs.outcome else None
        wait = rs.upcoming_sleep
        if isinstance(exc, _Retry) and exc.kind in (_PRIMARY, _SECONDARY):
            self.stats.waits += 1
            self.stats.waited_seconds += wait
            log.warning(redact(f"{what}: {exc.reason}; waiting {wait:.0f}s"))
            # This sleep outlasts any budget that resets before it ends; don't wait twice.
            until = self._clock() + wait
            for limit in self._limits.values():
                if limit.reset_at is not None and limit.reset_at <= until:
                    limit.remaining = None
        else:
            self.stats.retries += 1
            reason = exc.reason if isinstance(exc, _Retry) else repr(exc)
            log.warning(redact(f"{what}: {reason}; retry {rs.attempt_number} in {wait:.1f}s"))

    def _sleep_quietly(self, seconds: float) -> None:
        if seconds > 0:
            self._sleep(seconds)

    def _gave_up(self, exc: _Retry, what: str) -> SourceError:
        tries = self.max_retries + 1
        if exc.kind == _CONNECT:
            return SourceError(
                f"cannot reach {self.host}",
                "check the network connection and github.api_url in tidings.toml",
                transient=True,
            )
        if exc.kind in (_PRIMARY, _SECONDARY):
            return SourceError(
                f"GitHub kept rate-limiting {what} ({tries} tries)",
                "wait a while and run again; lower concurrency if other tools share the token",
                transient=True,
            )
        if exc.kind == _TIMEOUT:
            return RequestFailed(
                f"{self.host} did not answer {what} within {self.timeout:g}s ({tries} tries)",
                "try again later or raise github.timeout in tidings.toml",
            )
        if exc.kind == _SHAPE:
            return RequestFailed(
                redact(
                    f"GitHub kept answering {what} in an unexpected shape: {exc.reason} "
                    f"({tries} tries)"
                ),
                "nothing was deleted or skipped because of it; run the sync again later "
                "(see githubstatus.com) and report it if it persists",
            )
        return RequestFailed(
            redact(f"GitHub kept failing {what}: {exc.reason} ({tries} tries)"),
            "GitHub may be having trouble (see githubstatus.com); run the sync again later",
        )

    # -- one HTTP exchange ----------------------------------------------------------------

    def _send(
        self,
        method: str,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        json_body: Any = None,
    ) -> httpx.Response:
        try:
            with self.budget.request(self._token):
                return self._http.request(method, url, headers=headers, json=json_body)
        except httpx.ConnectTimeout as exc:
            raise _Retry(_CONNECT, f"cannot connect to {self.host} (timed out)") from exc
        except httpx.ConnectError as exc:
            raise _Retry(_CONNECT, f"cannot connect to {self.host}") from exc
        except httpx.TimeoutException as exc:
            raise _Retry(_TIMEOUT, f"no answer within {self.timeout:g}s") from exc
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise _Retry(_TRUNCATED, f"connection dropped ({exc.__class__.__name__})") from exc
        except httpx.TransportError as exc:
            raise _Retry(_CONNECT, f"network error ({exc.__class__.__name__})") from exc

    def _json(self, resp: httpx.Response, what: str) -> Any:
        try:
            return resp.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # A 200 with a cut-off body: the connection dropped mid-answer; ask again.
            raise _Retry(_TRUNCATED, f"unreadable answer to {what} (truncated body)") from exc

    def _raise_for_status(self, resp: httpx.Response, what: str, state: _CallState) -> None:
        status = resp.status_code
        if status < 400:
            return
        message = _message(resp)
        if status == 401:
            raise SourceError(
                "GitHub rejected the token (401 Bad credentials)",
                "check GITHUB_TOKEN (or the variable named by github.token_env)",
            )
        if status in (403, 429):
            self._raise_rate_limit(resp, message, state)
            raise SourceError(
                redact(f"GitHub refused {what} (403: {message or 'forbidden'})"),
                "check that the token can read this repository",
            )
        if status in (404, 410):
            raise NotFoundError(
                redact(f"GitHub has no such resource: {what} ({status})"),
                "check the repository name and that the token can see it",
            )
        if status >= 500:
            raise _Retry(_SERVER, f"HTTP {status}")
        if status == 422 and "pagination" in message.lower():
            raise PageTooDeep(
                redact(f"GitHub refused {what} this deep (422: {message})"),
                "page by `since` rather than by page number",
            )
        raise SourceError(
            redact(f"GitHub refused {what} (HTTP {status}: {message or 'no message'})"),
            "this is probably a bug in tidings; please report it",
        )

    def _raise_for_limit_message(self, resp: httpx.Response, body: Any, state: _CallState) -> None:
        """A 200 whose body is only a rate-limit message: GitHub answers some secondary limits
        this way (documented as "200 or 403") with no `RATE_LIMITED` type; wait it out."""
        if not isinstance(body, dict):
            return
        messages = [body.get("message")]
        errors = body.get("errors")
        if isinstance(errors, list):
            messages += [e.get("message") for e in errors if isinstance(e, dict)]
        for message in messages:
            if isinstance(message, str) and _is_limit_message(message):
                self._raise_rate_limit(resp, message, state)

    def _raise_rate_limit(self, resp: httpx.Response, message: str, state: _CallState) -> None:
        headers = resp.headers
        lowered = message.lower()
        retry_after = headers.get("retry-after")
        if retry_after is not None:
            wait = _seconds(retry_after)
            self._check_wait(wait, self._clock() + wait)
            self.budget.pause(self._token, wait)
            raise _Retry(_SECONDARY, f"secondary rate limit (Retry-After {wait:g}s)", wait)
        if headers.get("x-ratelimit-remaining") == "0" and "secondary" not in lowered:
            reset = _seconds(headers.get("x-ratelimit-reset", "0"))
            wait = max(1.0, reset - self._clock() + 1.0) if reset else self.secondary_min_wait
            self._check_wait(wait, reset or self._clock() + wait)
            raise _Retry(_PRIMARY, "primary rate limit exhausted", wait)
        if resp.status_code == 429 or _is_limit_message(message):
            # No hint from GitHub: at least a minute, doubling on each repeat.
            wait = self.secondary_min_wait * 2**state.secondary_hits
            wait += random.uniform(0, wait / 10)
            state.secondary_hits += 1
            self._check_wait(wait, self._clock() + wait)
            self.budget.pause(self._token, wait)
            raise _Retry(_SECONDARY, "secondary rate limit", wait)

    def _check_graphql_errors(
        self,
        errors: list[dict[str, Any]],
        repo: str,
        resp: httpx.Response,
        shrinkable: bool,
        state: _CallState,
    ) -> None:
        for error in errors:
            kind = str(error.get("type") or "")
            message = str(error.get("message") or "")
            path = error.get("path") or []
            lowered = message.lower()
            if kind == "NOT_FOUND":
                if len(path) <= 1:
                    raise SourceError(
                        f"repository {repo} not found or not visible to this token",
                        "check the name (OWNER/NAME) and the token's access",
                    )
                continue
            if kind == "FORBIDDEN":
                if len(path) <= 1:
                    raise SourceError(
                        redact(f"GitHub refused to show {repo} to this token: {message}"),
                        "check the token's access (an organisation may restrict OAuth apps)",
                    )
                continue  # one field refused: it is null and the caller records it missing
            if kind == "RATE_LIMITED":
                reset = _seconds(resp.headers.get("x-ratelimit-reset", "0"))
                wait = max(1.0, reset - self._clock() + 1.0) if reset else self.secondary_min_wait
                self._check_wait(wait, reset or self._clock() + wait)
                raise _Retry(_PRIMARY, "GraphQL rate limit exhausted", wait)
            if _is_limit_message(message):
                self._raise_rate_limit(resp, message, state)
            if kind == "RESOURCE_LIMITS_EXCEEDED" or "resource limits" in lowered:
                if shrinkable:
                    raise GraphQLTooLarge(message or kind)
                raise _Retry(_SERVER, f"GraphQL: {message or kind}")
            if "timeout" in lowered or "something went wrong" in lowered:
                if shrinkable:
                    raise GraphQLTooLarge(message)
                raise _Retry(_SERVER, f"GraphQL: {message}")
            raise GraphQLQueryError(
                redact(f"GitHub's GraphQL API refused the query: {kind or 'error'}: {message}"),
                "this is probably a bug in tidings; please report it",
                [str(e.get("message") or "") for e in errors],
            )

    # -- rate-limit budget ---------------------------------------------------------------

    def spare(self, resource: str = "core") -> int | None:
        """The requests optional work may spend now on this client's token (budget.py
        `spare`; None: GitHub has not reported this budget yet)."""
        return self.budget.spare(self._token, resource)

    def _note_limit(self, resource: str, headers: httpx.Headers) -> None:
        remaining = headers.get("x-ratelimit-remaining")
        reset = headers.get("x-ratelimit-reset")
        if remaining is None:
            return
        limit = self._limits[resource]
        try:
            limit.remaining = int(remaining)
            limit.reset_at = float(reset) if reset else None
        except ValueError:
            return

    def _note_graphql_budget(self, rate: Any) -> None:
        if not isinstance(rate, dict):
            return
        limit = self._limits["graphql"]
        try:
            limit.remaining = int(rate["remaining"])
            limit.cost = max(1, int(rate.get("cost") or 1))
            reset = rate.get("resetAt")
            if reset:
                limit.reset_at = datetime.fromisoformat(reset.replace("Z", "+00:00")).timestamp()
        except (KeyError, TypeError, ValueError):
            return

    def _await_budget(self, resource: str) -> None:
        """Sleep before a request that would certainly be refused (budget spent)."""
        limit = self._limits[resource]
        if limit.remaining is None or limit.reset_at is None:
            return
        needed = limit.cost if resource == "graphql" else 1
        if limit.remaining >= needed:
            return
        wait = limit.reset_at - self._clock() + 1.0
        if wait <= 0:
            return
        self._check_wait(wait, limit.reset_at)
        log.warning(f"GitHub {resource} rate limit spent; waiting {wait:.0f}s until it resets")
        self.stats.waits += 1
        self.stats.waited_seconds += wait
        self._sleep(wait)
        limit.remaining = None

    def _check_wait(self, wait: float, reset_epoch: float) -> None:
        if wait <= self.max_wait:
            return
        when = datetime.fromtimestamp(reset_epoch, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        raise SourceError(
            f"GitHub rate limit exhausted until {when} (in {wait / 60:.0f} min)",
            "run the sync again after that time, or raise github.max_wait in tidings.toml",
            transient=True,
        )


def _is_limit_message(message: str) -> bool:
    """GitHub's wording for a secondary limit ("You have exceeded a secondary rate limit",
    older "abuse detection mechanism"), which may come with any status, 200 included."""
    lowered = message.lower()
    return "rate limit" in lowered or "abuse" in lowered


def _seconds(value: str) -> float:
    try:
        return max(0.0, float(value))
    except ValueError:
        return 0.0


def _message(resp: httpx.Response) -> str:
    try:
        body = resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return ""
    if isinstance(body, dict):
        return str(body.get("message") or "")
    return ""


def _same_tag(got: str | None, sent: str) -> bool:
    """Does the ETag `got` match `sent` (If-None-Match compares weakly: W/ is ignored)?"""
    return got is not None and got.strip().removeprefix("W/") == sent.strip().removeprefix("W/")
