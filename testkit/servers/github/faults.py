"""Fault injection: the kinds, how a fault matches a request, and the wrong answers served."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from testkit.servers.github.constants import oauth_restricted
from testkit.servers.github.core import FakeCore
from testkit.servers.github.encoding import _json
from testkit.servers.github.wire import Api, Request, _Response

if TYPE_CHECKING:
    from testkit.servers.github.fake import FakeGitHub


FAULT_KINDS: tuple[str, ...] = (
    "429",
    "secondary",
    "primary",
    "502",
    "timeout",
    "truncated",
    "mutate",
    "graphql_heavy",
    # Answers that are fine HTTP (200, JSON) with the wrong content, served in place of the real
    # one: the data-loss cases of issue #10.
    "bad_body",
    "null_repository",
    "zero_totals",
    "null_connections",
    # A REST cache in front of GitHub gone wrong: an old body with the real answer's ETag.
    "stale",
    # What real GitHub answers that is not an outage: a 404 for one request, and GraphQL's
    # partial answers, `data` plus `errors`.
    "not_found",
    "resource_limits",
    "forbidden",
)
CORRUPTIONS = ("bad_body", "null_repository", "zero_totals", "null_connections", "stale")
GRAPHQL_ONLY = (
    "graphql_heavy",
    "null_repository",
    "zero_totals",
    "null_connections",
    "resource_limits",
    "forbidden",
)


@dataclass
class Fault:
    """An injected fault. `times=None` keeps it forever; `hits` counts how often it fired."""

    kind: str
    api: Api | None = None
    path_contains: str | None = None
    body_contains: str | None = None
    times: int | None = 1
    retry_after: int | None = 1
    reset_in: int = 1
    hang: float = 5.0
    status: int | None = None
    html: bool = False
    action: Callable[[FakeGitHub], object] | None = None
    max_prs: int | None = None  # "graphql_heavy", "resource_limits"
    max_nodes: int | None = None  # "resource_limits": only queries asking for more nodes
    payload: Any = None  # "bad_body": the JSON served instead ({} when None), or an edit of it
    connections: tuple[str, ...] = ("files", "reviews")  # "null_connections", "forbidden"
    skip: int = 0  # let this many matching requests through first
    revalidate: bool = True  # "stale": a request saying `Cache-Control: no-cache` goes through
    hits: int = 0
    skipped: int = 0
    cached: dict[str, bytes] = field(default_factory=dict)  # "stale": path -> first body

    def stale_body(self, request: Request) -> bytes | None:
        """For "stale": the body this cache serves for `request` instead of GitHub's, if any."""
        wanted = request.headers.get("cache-control", "") + request.headers.get("pragma", "")
        if self.revalidate and "no-cache" in wanted:
            return None
        return self.cached.get(request.path)

    def matches(self, request: Request) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.api is not None and self.api != request.api:
            return False
        if self.path_contains is not None and not _contains_token(
            request.target, self.path_contains
        ):
            return False
        body = request.body.decode("utf-8", "replace")
        return self.body_contains is None or self.body_contains in body


class FaultsMixin(FakeCore):
    """Injected faults and request callbacks, and the GraphQL limits a query can trip."""

    def on_request(self, callback: Callable[[FakeGitHub, Request], object]) -> None:
        """Call `callback(fake, request)` before serving every request (outside the lock)."""
        with self._lock:
            self._callbacks.append(callback)

    def inject(
        self,
        fault: str,
        *,
        api: Api | None = None,
        path_contains: str | None = None,
        body_contains: str | None = None,
        times: int | None = 1,
        retry_after: int | None = 1,
        reset_in: int = 1,
        hang: float = 5.0,
        status: int | None = None,
        html: bool = False,
        action: Callable[[FakeGitHub], object] | None = None,
        max_prs: int | None = None,
        max_nodes: int | None = None,
        payload: Any = None,
        connections: tuple[str, ...] = ("files", "reviews"),
        skip: int = 0,
        revalidate: bool = True,
    ) -> Fault:
        """Make the next `times` matching requests fail (`times=None`: all of them).

        Kinds: "429", "secondary", "primary", "502", "timeout" (answer after `hang` s),
        "truncated" (cut the body short and hang up), "mutate" (run `action(fake)` and then
        serve normally). `path_contains` matches `path?query`; `body_contains` the raw body
        (e.g. a GraphQL query's text). `path_contains` only matches whole words at its ends,
        so "page=2" matches `?page=2` but not `per_page=2` or `page=20`.

        "graphql_heavy" (with `max_prs=N`) answers 502 to the next `times` GraphQL queries that
        select more than N `pullRequest` fields; `graphql_max_prs = N` is the standing form.

        Wrong answers, each a 200 with JSON, served after the real answer was computed (so a
        REST one keeps the real ETag, as a caching proxy gone wrong would):
        "bad_body" serves `payload` (default `{}`; e.g. `{"message": "oops"}`) instead, or
        `payload(real)` when it is callable (an edit of the real answer's JSON);
        "null_repository" answers a GraphQL query `{"data": {"repository": null}}`, no error;
        "zero_totals" sets every `totalCount` (and every search's `issueCount`) to 0;
        "null_connections" sets the named `connections` of every aliased PR to null, each with
        a nested NOT_FOUND error. The GraphQL kinds match GraphQL requests only.
        `skip=N` lets the first N matching requests through (e.g. the second issues page).
        "stale" (REST only) is a cache that keys answers by path alone and never revalidates:
        the first 200 for a path is kept and served again for every later matching request to
        it, whatever its query, with the real answer's headers (its ETag), and in place of a
        304 too; a request sent with `Cache-Control: no-cache` goes through to GitHub, unless
        `revalidate=False`. The first answer is not counted in `times`.

        Real answers that are not outages: "not_found" answers 404 as for a missing resource;
        "secondary" with `status=200` is GitHub's 200-with-a-message secondary limit;
        "resource_limits" answers a query that selects more than `max_prs` PRs or asks for more
        than `max_nodes` nodes (either, when given) with its data, some of it nulled, and a
        RESOURCE_LIMITS_EXCEEDED error; "forbidden" nulls the named `connections` (or fields) of
        every aliased PR, each with a FORBIDDEN error in GitHub's OAuth-restriction words.
        """
        if fault not in FAULT_KINDS:
            raise ValueError(f"unknown fault {fault!r}: use one of {', '.join(FAULT_KINDS)}")
        if fault == "mutate" and action is None:
            raise ValueError('inject("mutate") needs action=lambda fake: ...')
        if fault == "graphql_heavy" and max_prs is None:
            raise ValueError('inject("graphql_heavy") needs max_prs=N')
        if fault in GRAPHQL_ONLY:
            api = "graphql"
        if fault == "stale":
            api = "rest"
        entry = Fault(
            kind=fault,
            api=api,
            path_contains=path_contains,
            body_contains=body_contains,
            times=times,
            retry_after=retry_after,
            reset_in=reset_in,
            hang=hang,
            status=status,
            html=html,
            action=action,
            max_prs=max_prs,
            max_nodes=max_nodes,
            payload=payload,
            connections=connections,
            skip=skip,
            revalidate=revalidate,
        )
        with self._lock:
            self._faults.append(entry)
        return entry

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def _take_faults(self, request: Request) -> tuple[list[Fault], Fault | None]:
        with self._lock:
            mutations: list[Fault] = []
            chosen: Fault | None = None
            for fault in self._faults:
                if fault.kind in ("graphql_heavy", "resource_limits") or not fault.matches(request):
                    continue
                if fault.kind == "stale" and fault.stale_body(request) is None:
                    continue  # nothing kept for this path yet, or revalidated
                if fault.skipped < fault.skip:
                    fault.skipped += 1
                    continue
                if fault.kind == "mutate":
                    fault.hits += 1
                    mutations.append(fault)
                elif chosen is None:
                    fault.hits += 1
                    chosen = fault
            return mutations, chosen

    def _keep_for_stale(self, request: Request, response: _Response) -> None:
        """Let "stale" faults keep the first 200 answer for each path they match."""
        if response.status != 200 or response.fault:
            return
        with self._lock:
            for fault in self._faults:
                if fault.kind == "stale" and fault.matches(request):
                    fault.cached.setdefault(request.path, response.body)

    def _resource_limited(self, request: Request, prs: int, nodes: int) -> bool:
        with self._lock:
            for fault in self._faults:
                if fault.kind != "resource_limits" or not fault.matches(request):
                    continue
                if fault.max_prs is not None and prs <= fault.max_prs:
                    continue
                if fault.max_nodes is not None and nodes <= fault.max_nodes:
                    continue
                if fault.skipped < fault.skip:
                    fault.skipped += 1
                    continue
                fault.hits += 1
                return True
            return False

    def _too_heavy(self, request: Request, prs: int) -> bool:
        with self._lock:
            if self.graphql_max_prs is not None and prs > self.graphql_max_prs:
                return True
            for fault in self._faults:
                if fault.kind != "graphql_heavy" or not fault.matches(request):
                    continue
                if prs > (fault.max_prs or 0):
                    fault.hits += 1
                    return True
            return False


def _corrupt(fault: Fault, real: _Response, request: Request) -> _Response:
    """The wrong-but-well-formed answer a corruption fault serves in place of `real`."""
    headers = dict(real.headers)
    headers["Content-Type"] = "application/json; charset=utf-8"
    if fault.kind == "stale":
        body = fault.stale_body(request)
        if body is None or real.status not in (200, 304):
            return real
        return _Response(200, body, headers, fault=fault.kind)
    if fault.kind == "bad_body":
        payload = {} if fault.payload is None else fault.payload
        if callable(payload):  # an edit of the real answer
            try:
                real_json = json.loads(real.body or b"null")
            except ValueError:
                return real
            payload = payload(real_json)
        return _Response(200, _json(payload), headers, fault=fault.kind)
    if fault.kind == "null_repository":
        return _Response(200, _json({"data": {"repository": None}}), headers, fault=fault.kind)
    try:
        body = json.loads(real.body or b"null")
    except ValueError:
        body = None
    data = body.get("data") if isinstance(body, dict) else None
    if fault.kind == "zero_totals" and isinstance(body, dict) and isinstance(data, dict):
        _zero_counts(data)  # the repository's counts, and searches' (at the root)
        return _Response(200, _json(body), headers, fault=fault.kind)
    repo = data.get("repository") if isinstance(data, dict) else None
    if not isinstance(body, dict) or not isinstance(repo, dict):
        return real  # nothing of the kind to corrupt (an error answer): served as it was
    if fault.kind == "forbidden":
        errors = body.setdefault("errors", [])
        org = str(fault.payload or "acme")
        for alias, node in repo.items():
            if not isinstance(node, dict):
                continue
            for name in fault.connections:
                if name in node:
                    node[name] = None
                    errors.append(
                        {
                            "type": "FORBIDDEN",
                            "path": ["repository", alias, name],
                            "extensions": {"saml_failure": False},
                            "locations": [{"line": 1, "column": 1}],
                            "message": oauth_restricted(org),
                        }
                    )
    else:  # "null_connections"
        errors = body.setdefault("errors", [])
        for alias, node in repo.items():
            if not isinstance(node, dict):
                continue
            for name in fault.connections:
                if name in node:
                    node[name] = None
                    errors.append(
                        {
                            "type": "NOT_FOUND",
                            "path": ["repository", alias, name],
                            "locations": [{"line": 1, "column": 1}],
                            "message": f"Could not resolve {name} of {alias}.",
                        }
                    )
    return _Response(200, _json(body), headers, fault=fault.kind)


def _zero_counts(value: Any) -> None:
    if isinstance(value, dict):
        for key, child in value.items():
            if key in ("totalCount", "issueCount"):
                value[key] = 0
            else:
                _zero_counts(child)
    elif isinstance(value, list):
        for child in value:
            _zero_counts(child)


def _contains_token(text: str, needle: str) -> bool:
    """`needle` in `text`, not glued to a longer word: "page=2" is not in "per_page=2" or
    "page=20", "/pulls/4" is not in "/pulls/42", but "/issues" is in "/issues/comments"."""
    before = r"(?<![A-Za-z0-9_])" if needle[:1].isalnum() or needle[:1] == "_" else ""
    after = r"(?![A-Za-z0-9_])" if needle[-1:].isalnum() or needle[-1:] == "_" else ""
    return re.search(before + re.escape(needle) + after, text) is not None
