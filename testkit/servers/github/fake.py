"""`FakeGitHub`: the sides of the fake put together, started and stopped, serving requests."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qsl, urlsplit

from testkit.servers.github.constants import (
    GRAPHQL_DOCS,
    GRAPHQL_TIMEOUT_MESSAGE,
    PRIMARY_MESSAGE,
    RATE_DOCS,
    REST_DOCS,
    SECONDARY_MESSAGE,
    TIMEOUT_MESSAGE,
    UNICORN_HTML,
)
from testkit.servers.github.encoding import _json
from testkit.servers.github.faults import CORRUPTIONS, Fault, _corrupt
from testkit.servers.github.graphql_endpoint import GraphQLMixin
from testkit.servers.github.graphql_schema import _schema
from testkit.servers.github.log import RequestLogMixin
from testkit.servers.github.mutations import MutationsMixin
from testkit.servers.github.rest import _ROUTES, _TEAM_MEMBERS, RestMixin
from testkit.servers.github.server import _Handler, _Server
from testkit.servers.github.snapshot import _iter_records
from testkit.servers.github.wire import LoggedRequest, Request, _HTTPError, _Response
from tidings.common import records as r


class FakeGitHub(MutationsMixin, RequestLogMixin, RestMixin, GraphQLMixin):
    """GitHub's REST and GraphQL APIs over records, on a loopback port. Thread-safe."""

    # -- lifecycle ---------------------------------------------------------------------------

    @classmethod
    def from_snapshot(cls, path: str | Path, **kwargs: Any) -> FakeGitHub:
        """A fake holding a snapshot file (JSON Lines of `model_dump_json()`, header skipped)."""
        records = list(_iter_records(path))
        return cls(records, **kwargs)

    def start(self) -> FakeGitHub:
        if self._server is not None:
            return self
        # Built here, once a process, not inside the first request (where its second or so
        # would eat a client's timeout); and a CI run without the real schema stops here.
        _schema()
        self._stopping.clear()
        server = _Server(("127.0.0.1", 0), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        if server is None:
            return
        self._stopping.set()  # wakes requests held by "timeout" faults or latency
        server.shutdown()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = None
        self._thread = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- serving -----------------------------------------------------------------------------

    def _serve(self, method: str, target: str, headers: dict[str, str], body: bytes) -> _Response:
        split = urlsplit(target)
        path = split.path.rstrip("/") or "/"
        request = Request(
            method=method,
            path=path,
            query=dict(parse_qsl(split.query, keep_blank_values=True)),
            raw_query=split.query,
            headers=headers,
            body=body,
            api="graphql" if path == "/graphql" else "rest",
        )
        if self.latency:
            self._stopping.wait(self.latency)
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback(self, request)
        response = self._authenticate(request)
        if response is None:
            mutations, fault = self._take_faults(request)
            for mutation in mutations:
                assert mutation.action is not None
                mutation.action(self)
            if fault is not None and fault.kind == "timeout":
                self._stopping.wait(fault.hang)
            if fault is not None and fault.kind in ("429", "secondary", "primary", "502"):
                response = self._fault_response(fault, request)
            elif fault is not None and fault.kind == "not_found":
                response = self._rest_error(404, "Not Found")
                response.fault = fault.kind
            else:
                try:
                    response = self._route(request)
                except _HTTPError as error:
                    response = self._rest_error(error.status, error.message)
                self._keep_for_stale(request, response)
                if fault is not None and fault.kind in (*CORRUPTIONS, "forbidden"):
                    response = _corrupt(fault, response, request)
                elif fault is not None:
                    response.fault = fault.kind
                    response.truncate = fault.kind == "truncated"
        with self._lock:
            if request.api == "rest" and response.status not in (304, 401) and not response.fault:
                self._core.charge(1)
            budget = self._graphql if request.api == "graphql" else self._core
            for name, value in budget.headers().items():
                response.headers.setdefault(name, value)
            response.headers.setdefault("x-github-api-version-selected", "2022-11-28")
            response.headers.setdefault("x-github-request-id", f"FAKE:{len(self._log) + 1:08X}")
            self._log.append(
                LoggedRequest(
                    method=method,
                    path=path,
                    query=request.query,
                    status=response.status,
                    api=request.api,
                    not_modified=response.not_modified,
                    fault=response.fault,
                )
            )
        return response

    def _authenticate(self, request: Request) -> _Response | None:
        credential = request.token
        if credential and (credential == self.token or credential in self.extra_tokens):
            with self._lock:
                self.by_token[credential] = self.by_token.get(credential, 0) + 1
            return None
        docs = GRAPHQL_DOCS if request.api == "graphql" else REST_DOCS
        return _Response(
            401,
            _json({"message": "Bad credentials", "documentation_url": docs, "status": "401"}),
            {"Content-Type": "application/json; charset=utf-8"},
        )

    def _fault_response(self, fault: Fault, request: Request) -> _Response:
        json_type = {"Content-Type": "application/json; charset=utf-8"}
        headers = dict(json_type)
        budget = self._graphql if request.api == "graphql" else self._core
        with self._lock:
            headers.update(budget.headers())
        if fault.kind in ("429", "secondary"):
            if fault.retry_after is not None:
                headers["Retry-After"] = str(fault.retry_after)
            status = fault.status or (429 if fault.kind == "429" else 403)
            payload = {"message": SECONDARY_MESSAGE, "documentation_url": RATE_DOCS}
            return _Response(status, _json(payload), headers, fault=fault.kind)
        if fault.kind == "primary":
            reset = int(time.time()) + fault.reset_in
            headers["x-ratelimit-remaining"] = "0"
            headers["x-ratelimit-used"] = headers["x-ratelimit-limit"]
            headers["x-ratelimit-reset"] = str(reset)
            if request.api == "graphql":
                # GraphQL answers an exhausted budget with 200 and a RATE_LIMITED error.
                payload = {"errors": [{"type": "RATE_LIMITED", "message": PRIMARY_MESSAGE}]}
                return _Response(fault.status or 200, _json(payload), headers, fault="primary")
            payload = {
                "message": PRIMARY_MESSAGE,
                "documentation_url": RATE_DOCS.split("#")[0],
            }
            return _Response(fault.status or 403, _json(payload), headers, fault="primary")
        # "502"
        if fault.html:
            headers["Content-Type"] = "text/html; charset=utf-8"
            return _Response(fault.status or 502, UNICORN_HTML.encode(), headers, fault="502")
        if request.api == "graphql":
            payload = {"data": None, "errors": [{"message": GRAPHQL_TIMEOUT_MESSAGE}]}
        else:
            payload = {"message": TIMEOUT_MESSAGE}
        return _Response(fault.status or 502, _json(payload), headers, fault="502")

    def _route(self, request: Request) -> _Response:
        if request.api == "graphql":
            if request.method != "POST":
                raise _HTTPError(404, "Not Found")
            return self._graphql_request(request)
        if request.method != "GET":
            raise _HTTPError(404, "Not Found")
        team = _TEAM_MEMBERS.match(request.path)
        if team is not None:
            return self._rest_team_members(request, team["org"], team["slug"])
        for pattern, name in _ROUTES:
            match = pattern.match(request.path)
            if match is None:
                continue
            params = match.groupdict()
            with self._lock:
                repo = self._repos.get(f"{params['owner']}/{params['name']}".lower())
                if repo is None:
                    raise _HTTPError(404, "Not Found")
                handler = getattr(self, f"_rest_{name}")
                return cast(_Response, handler(request, repo, params))
        raise _HTTPError(404, "Not Found")


def records_of(fake: FakeGitHub, repo: str | None = None) -> list[r.Record]:
    """The fake's current data for one repository as records: the oracle for sync tests.

    The repository record comes first, then items (by number), comments, reviews and review
    comments (by id), PR files (at most 3,000 per PR, as GitHub lists) and closing references.
    Deleted rows are included with `deleted=True`. A PR's `review_comments_count` is the sum of
    its reviews' comment counts (what the GraphQL source reads) and its `unresolved_threads` the
    number of review threads served with `isResolved: false`; the sync bookkeeping fields
    `detail_updated_at` and `checked_updated_at` are None.
    """
    return fake.records(repo)
