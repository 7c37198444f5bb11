"""A loopback GitHub for tests and benchmarks: REST v3 and GraphQL v4 rendered from records.

`FakeGitHub` holds repositories as tidings records (the snapshot form), renders them back into
the JSON GitHub sends (docs/github-mapping.md is the contract), serves them on 127.0.0.1 from a
background thread, logs every request, and injects the faults a real sync meets: rate limits,
502s, hung and truncated answers, and data changing between two pages.

    with FakeGitHub(records) as gh:              # or FakeGitHub.from_snapshot(path)
        client = GitHubClient(gh.api_url, gh.graphql_url, "test-token")
        ...
        assert gh.count(api="graphql") == 2
        assert export(store) == records_of(gh)   # modulo sync bookkeeping

- Log: `requests`, `count(api=, status=, path_contains=, not_modified=)`, `reset_log()`;
  `new_hour()` starts fresh rate-limit windows.
- Faults: `inject(kind, api=, path_contains=, body_contains=, times=1, skip=0, ...)` with kinds
  "429", "secondary" (`status=200` for GitHub's 200-with-a-message form), "primary", "502",
  "timeout", "truncated", "mutate", "graphql_heavy", "not_found" (a 404), GitHub's partial
  GraphQL answers "resource_limits" (RESOURCE_LIMITS_EXCEEDED, optionally only above `max_prs`
  PRs or `max_nodes` nodes) and "forbidden" (FORBIDDEN on named fields, left null), and the
  well-formed-HTTP-but-wrong answers "bad_body", "null_repository", "zero_totals",
  "null_connections"; `graphql_max_prs = N` as a standing rule; `on_request(callback)`;
  `clear_faults()`.
- Data variants real GitHub sends: `null_review_ids` (reviews whose `fullDatabaseId` and
  `databaseId` answer null), `label_strings` (REST labels as bare names), `null_rest_users`
  (`user: null` for a deleted account), `max_page` (REST listings answer 422 beyond that
  page), `graphql_files_limit` (a PR with more files answers GraphQL `files: null,
  changedFiles: 0`), `split_update_times` (a comment moves a PR's issue record's `updated_at`,
  not its pull request record's); `set_team(org, slug, logins)` for team listings. GitHub's
  3,000-file cap (list and `totalCount`) is always on.
- Mutations at `clock` (default: newest timestamp in the data + 1 h; `advance(seconds)`):
  `update_item`, `add_item`, `delete_item`, `add_comment`, `edit_comment`, `delete_comment`,
  `add_review`, `add_review_comment`, `delete_review_comment`. The repository argument may be
  left out when the fake holds one repository: `gh.add_comment(5, "hi")`.

Records are normalised on the way in to what GitHub would report (node ids and urls filled in,
zero reactions dropped, PR-only fields cleared on issues, PR refs and sizes defaulted), so
`records_of` is exactly what a faithful client can read back.

GraphQL queries are validated and executed for real by graphql-core against GitHub's real public
schema, read from ../shared at run time (`schema()`, testkit/servers/real_schema.py): a query GitHub
would refuse is refused here with GraphQL's own message. A field of the real schema the fake has
no data for resolves to null (an error where the field is non-null), never to invented data.
Where ../shared is absent, `github_schema.graphql` stands in, a hand-written subset with the same
names, nullability and connection shapes (tests/sources/github/test_github_real_schema.py holds
it to the real one).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import os
import re
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, cast
from urllib.parse import parse_qsl, urlencode, urlsplit

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLResolveInfo,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    VariableNode,
    build_schema,
    execute,
    parse,
    validate,
)

from testkit.servers.loopback import LoopbackHandler, LoopbackServer
from testkit.servers.real_schema import real_schema, schema_path
from testkit.shared import SHARED_ENV
from tidings.common import records as r

__all__ = [
    "CORRUPTIONS",
    "FAULT_KINDS",
    "GRAPHQL_ONLY",
    "FakeGitHub",
    "Fault",
    "LoggedRequest",
    "Request",
    "records_of",
    "schema",
]

Api = Literal["rest", "graphql"]
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
    # What real GitHub answers that is not an outage: a 404 for one request, and GraphQL's
    # partial answers, `data` plus `errors`.
    "not_found",
    "resource_limits",
    "forbidden",
)
CORRUPTIONS = ("bad_body", "null_repository", "zero_totals", "null_connections")
GRAPHQL_ONLY = (
    "graphql_heavy",
    "null_repository",
    "zero_totals",
    "null_connections",
    "resource_limits",
    "forbidden",
)

WEB = "https://github.com"
REST_DOCS = "https://docs.github.com/rest"
GRAPHQL_DOCS = "https://docs.github.com/graphql"
RATE_DOCS = (
    "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"
)
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
)
PRIMARY_MESSAGE = "API rate limit exceeded for user ID 1."
TIMEOUT_MESSAGE = (
    "We couldn't respond to your request in time. Sorry about that. Please try resubmitting "
    "your request and contact us if the problem persists."
)
RESOURCE_LIMITS_MESSAGE = "Resource limits for this query exceeded."
PAGE_TOO_DEEP_MESSAGE = (
    "Pagination with the page parameter is not supported for large datasets, please use cursor "
    "based pagination (after/before)"
)


def oauth_restricted(org: str) -> str:
    """GitHub's FORBIDDEN message for an organisation restricting OAuth apps."""
    return (
        "Although you appear to have the correct authorization credentials, the "
        f"`{org}` organization has enabled OAuth App access restrictions, meaning that data "
        "access to third-parties is limited. For more information on these restrictions, "
        "including how to enable this app, visit "
        "https://docs.github.com/articles/restricting-access-to-your-organization-s-data/"
    )


GRAPHQL_TIMEOUT_MESSAGE = (
    "Something went wrong while executing your query. This may be the result of a timeout, or "
    "it could be a GitHub bug. Please include `0400:3E5A:1F2B3C:2A4B5C:67A0B1C2` when reporting "
    "this issue."
)
UNICORN_HTML = (
    "<!DOCTYPE html>\n<html>\n<head><title>Unicorn! &middot; GitHub</title></head>\n<body>\n"
    "<p><strong>We couldn't respond to your request in time.</strong></p>\n"
    "<p>Sorry about that. Please try refreshing and contact us if the problem persists.</p>\n"
    "</body>\n</html>\n"
)

# REST reaction keys, and GraphQL's ReactionContent in the order GitHub lists reactionGroups.
REACTION_KEYS = ("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes")
REACTION_CONTENTS = (
    ("THUMBS_UP", "+1"),
    ("THUMBS_DOWN", "-1"),
    ("LAUGH", "laugh"),
    ("HOORAY", "hooray"),
    ("CONFUSED", "confused"),
    ("HEART", "heart"),
    ("ROCKET", "rocket"),
    ("EYES", "eyes"),
)
# REST file status -> GraphQL PatchStatus.
CHANGE_TYPES = {
    "added": "ADDED",
    "removed": "DELETED",
    "modified": "MODIFIED",
    "renamed": "RENAMED",
    "copied": "COPIED",
    "changed": "CHANGED",
    "unchanged": "CHANGED",
}
ACTOR_TYPES = ("User", "Bot", "Organization", "Mannequin")
MAX_PR_FILES = 3000  # GitHub lists at most 3,000 files of a PR, in REST and in GraphQL
DISCUSSION_BODY_MAX = 65536  # GitHub refuses a longer discussion body
CONNECTION_LIMIT = 100
RATE_LIMIT = 5000
GHOST = {
    "login": "ghost",
    "id": 10137,
    "node_id": "MDQ6VXNlcjEwMTM3",
    "avatar_url": "https://avatars.githubusercontent.com/u/10137?v=4",
    "gravatar_id": "",
    "url": "https://api.github.com/users/ghost",
    "html_url": f"{WEB}/ghost",
    "type": "User",
    "site_admin": False,
}
SUBSET_PATH = Path(__file__).with_name("github_schema.graphql")

_SUBSET: GraphQLSchema | None = None
_SUBSET_LOCK = threading.Lock()


def schema() -> tuple[GraphQLSchema, Literal["real", "subset"]]:
    """The schema queries are validated and executed against, and which one it is.

    GitHub's real public schema (../shared, see testkit/servers/real_schema.py) whenever it is
    there: a query GitHub would refuse is refused here too. Without it the hand-written subset
    stands in, with a warning; under CI=true its absence is an error instead.
    """
    real = real_schema()
    if real is not None:
        return real, "real"
    reason = (
        f"{schema_path()} is absent, so the fake GitHub checks GraphQL queries against its "
        f"hand-written subset, not GitHub's real schema (set {SHARED_ENV} to the shared folder)"
    )
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{reason}; CI=true requires it")
    global _SUBSET
    with _SUBSET_LOCK:
        if _SUBSET is None:
            warnings.warn(reason, stacklevel=2)
            _SUBSET = build_schema(SUBSET_PATH.read_text(encoding="utf-8"))
        return _SUBSET, "subset"


def _schema() -> GraphQLSchema:
    return schema()[0]


# -- small helpers ----------------------------------------------------------------------------


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _epoch(value: datetime | None) -> int:
    return int(value.timestamp()) if value else 0


def _stable_int(*parts: object) -> int:
    """A deterministic positive id for things records lack ids for; it fits GraphQL's 32-bit
    `Int`, so `databaseId` works for them (ids from records are served as they are)."""
    digest = hashlib.sha1("\0".join(map(str, parts)).encode("utf-8", "surrogatepass")).digest()
    return (int.from_bytes(digest[:4], "big") & 0x7FFFFFFF) or 1


def _node_id(prefix: str, number: int) -> str:
    """An opaque node id in GitHub's current style (`PR_kwDOABCD...`)."""
    packed = base64.urlsafe_b64encode(number.to_bytes(8, "big")).decode().rstrip("=")
    return f"{prefix}_kwDO{packed}"


def _sha(*parts: object) -> str:
    return hashlib.sha1("\0".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _json(payload: Any) -> bytes:
    # UTF-8 as GitHub sends it; a lone surrogate (half an emoji a truncation cut) has no UTF-8
    # spelling, and GitHub writes it as the JSON escape "\\ud83d", which Python decodes back.
    text = json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text).encode()


def _clean_reactions(reactions: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in reactions.items() if k in REACTION_KEYS and v}


def _actor_type(login: str | None, declared: str | None) -> str | None:
    if login is None:
        return None
    if declared in ACTOR_TYPES:
        return declared
    return "Bot" if login.endswith("[bot]") else "User"


# -- public data types -------------------------------------------------------------------------


@dataclass(frozen=True)
class LoggedRequest:
    """One answered request, as the test sees it."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    api: Api
    not_modified: bool = False
    fault: str | None = None


@dataclass(frozen=True)
class Request:
    """A request as `on_request` callbacks and fault matchers see it, before it is served."""

    method: str
    path: str
    query: dict[str, str]
    raw_query: str
    headers: dict[str, str]  # lower-cased names
    body: bytes
    api: Api

    @property
    def target(self) -> str:
        return f"{self.path}?{self.raw_query}" if self.raw_query else self.path


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
    payload: Any = None  # "bad_body": the JSON served instead ({} when None)
    connections: tuple[str, ...] = ("files", "reviews")  # "null_connections", "forbidden"
    skip: int = 0  # let this many matching requests through first
    hits: int = 0
    skipped: int = 0

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


@dataclass
class _Response:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    truncate: bool = False
    not_modified: bool = False
    fault: str | None = None


@dataclass
class _Budget:
    resource: str
    limit: int = RATE_LIMIT
    used: int = 0
    reset: int = 0

    def roll(self) -> None:
        now = int(time.time())
        if now >= self.reset:
            self.used = 0
            self.reset = now + 3600

    def charge(self, cost: int) -> None:
        self.roll()
        self.used += cost
        if self.used > self.limit:
            # Tests and benchmarks can run more requests than an hour's budget: start a new
            # window rather than stall a run on an hour-long reset.
            self.used = cost
            self.reset = int(time.time()) + 3600

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.used)

    def headers(self) -> dict[str, str]:
        self.roll()
        return {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-reset": str(self.reset),
            "x-ratelimit-used": str(self.used),
            "x-ratelimit-resource": self.resource,
        }


@dataclass
class _Repo:
    record: r.RepositoryRecord
    items: dict[int, r.ItemRecord] = field(default_factory=dict)
    comments: dict[int, r.CommentRecord] = field(default_factory=dict)
    reviews: dict[int, r.ReviewRecord] = field(default_factory=dict)
    review_comments: dict[int, r.ReviewCommentRecord] = field(default_factory=dict)
    files: dict[int, dict[str, r.PRFileRecord]] = field(default_factory=dict)  # by path
    closing_refs: dict[int, list[r.ClosingRefRecord]] = field(default_factory=dict)
    # Review-thread resolution has no field in the records: the ids of the top-level review
    # comments whose threads are unresolved (every other thread is resolved).
    unresolved: set[int] = field(default_factory=set)
    # A PR's pull request record's own updated_at, where it lags its issue record's (the
    # item's `updated_at`): see FakeGitHub.split_update_times.
    pull_updated: dict[int, datetime] = field(default_factory=dict)
    # Commits pushed to a PR after its records were loaded (FakeGitHub.push_commit), oldest
    # first; records keep a count only, so the rest are made up (`pr_commits`).
    pushed: dict[int, list[tuple[str, datetime]]] = field(default_factory=dict)
    # Discussions: the categories (name -> node id) and the discussions created, oldest first.
    discussion_categories: dict[str, str] = field(default_factory=dict)
    discussions: list[dict[str, Any]] = field(default_factory=list)
    # What else GitHub's repository object carries: a push or a star changes it, and so its
    # ETag, so the sync's conditional GET /repos/{owner}/{name} is a paid 200 again.
    pushed_at: datetime | None = None
    stars: int = 0
    starred_at: datetime | None = None

    @property
    def full_name(self) -> str:
        return self.record.full_name

    @property
    def rest_id(self) -> int:
        return _stable_int("repo", self.full_name.lower())

    @property
    def html_url(self) -> str:
        return self.record.url or f"{WEB}/{self.full_name}"

    def pr_files(self, number: int) -> list[r.PRFileRecord]:
        """The files GitHub lists for a PR: at most 3,000, in diff order."""
        return list(self.files.get(number, {}).values())[:MAX_PR_FILES]

    def threads(self, number: int) -> list[r.ReviewCommentRecord]:
        """A PR's review threads, one per live top-level review comment, oldest first."""
        return sorted(
            (
                rc
                for rc in self.review_comments.values()
                if rc.number == number and rc.in_reply_to_id is None and not rc.deleted
            ),
            key=lambda rc: rc.id,
        )

    def pr_commits(self, number: int) -> list[tuple[str, datetime]]:
        """A PR's commits (sha, committedDate), oldest first: as many as its record counts
        made when it was opened (a second apart), then those pushed since."""
        item = self.items[number]
        pushed = self.pushed.get(number, [])
        made = max(0, (item.commits or 0) - len(pushed))
        first = [
            (
                _sha(self.full_name.lower(), number, "commit", i),
                (item.created_at or item.updated_at) + timedelta(seconds=i),
            )
            for i in range(made)
        ]
        return first + pushed

    def unresolved_count(self, number: int) -> int:
        return sum(1 for rc in self.threads(number) if rc.id in self.unresolved)

    def mark_unresolved(self, number: int, count: int) -> None:
        """The first `count` threads (oldest first) unresolved, the rest resolved."""
        ids = [rc.id for rc in self.threads(number)]
        self.unresolved.difference_update(ids)
        self.unresolved.update(ids[: max(0, count)])

    def item_visible(self, number: int) -> bool:
        """Children of a deleted item are gone from every listing, as on GitHub."""
        item = self.items.get(number)
        return item is None or not item.deleted

    def item_url(self, number: int) -> str:
        item = self.items.get(number)
        if item is not None and item.url:
            return item.url
        kind = "pull" if item is not None and item.kind == "pr" else "issues"
        return f"{self.html_url}/{kind}/{number}"


# -- the server ---------------------------------------------------------------------------------


class _Server(LoopbackServer):
    fake: FakeGitHub


class _Handler(LoopbackHandler):
    server: _Server

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def _handle(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        response = self.server.fake._serve(method, self.path, headers, body)
        try:
            self._write(response)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True

    def _write(self, response: _Response) -> None:
        self.send_response(response.status)
        for name, value in response.headers.items():
            self.send_header(name, value)
        if response.status == 304:
            self.end_headers()
            return
        if response.truncate:
            # Promise more than we send, then hang up: the client sees a cut-off body.
            self.send_header("Content-Length", str(len(response.body) + 512))
            self.end_headers()
            self.wfile.write(response.body[: len(response.body) // 2])
            self.wfile.flush()
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        self.wfile.write(response.body)


_REPO = r"/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)"
_TEAM_MEMBERS = re.compile(r"^/orgs/(?P<org>[^/]+)/teams/(?P<slug>[^/]+)/members$")
_ROUTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(rf"^{_REPO}$"), "repository"),
    (re.compile(rf"^{_REPO}/issues$"), "issues"),
    (re.compile(rf"^{_REPO}/issues/comments$"), "repo_comments"),
    (re.compile(rf"^{_REPO}/issues/comments/(?P<id>\d+)$"), "comment"),
    (re.compile(rf"^{_REPO}/issues/(?P<number>\d+)$"), "issue"),
    (re.compile(rf"^{_REPO}/issues/(?P<number>\d+)/comments$"), "issue_comments"),
    (re.compile(rf"^{_REPO}/pulls$"), "pulls"),
    (re.compile(rf"^{_REPO}/pulls/comments$"), "repo_review_comments"),
    (re.compile(rf"^{_REPO}/pulls/comments/(?P<id>\d+)$"), "review_comment"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)$"), "pull"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/reviews$"), "reviews"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/comments$"), "pull_review_comments"),
    (re.compile(rf"^{_REPO}/pulls/(?P<number>\d+)/files$"), "files"),
]


class _HTTPError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class FakeGitHub:
    """GitHub's REST and GraphQL APIs over records, on a loopback port. Thread-safe."""

    def __init__(
        self,
        records: Iterable[r.Record] | None = None,
        *,
        token: str = "test-token",
        latency: float = 0.0,
        per_page_max: int = 100,
    ) -> None:
        self.token = token
        # More tokens it accepts (several accounts' tokens on one run); `by_token` counts the
        # requests each token made, the main one included.
        self.extra_tokens: set[str] = set()
        self.by_token: dict[str, int] = {}
        self.graphql_points = 0  # GitHub's cost of every GraphQL query answered, summed
        self.latency = latency
        self.per_page_max = per_page_max
        # A GraphQL query selecting more `pullRequest` fields than this answers 502, like a
        # deep query timing out on GitHub. None: no limit.
        self.graphql_max_prs: int | None = None
        # Shapes real GitHub sends that the defaults do not (docs/github-mapping.md), off
        # until a test turns them on:
        self.null_review_ids: set[int] = set()  # `fullDatabaseId`/`databaseId` answer null
        self.label_strings = False  # REST issues list their labels as bare name strings
        self.null_rest_users = False  # a deleted account is `user: null`, not the ghost user
        # REST listings answer 422 ("Pagination with the page parameter is not supported for
        # large datasets") for `page=` beyond this. None: any page.
        self.max_page: int | None = None
        # A PR with more files than this answers GraphQL `files: null` and `changedFiles: 0`,
        # with no error, as GitHub does for very large PRs (REST still lists 3,000).
        self.graphql_files_limit: int | None = None
        # A comment on a PR moves its issue record's `updated_at` (REST issues, `comments`)
        # but not its pull request record's (GraphQL `updatedAt`, REST /pulls/N).
        self.split_update_times = False
        self._lock = threading.RLock()
        self._repos: dict[str, _Repo] = {}
        self._teams: dict[str, list[str]] = {}  # "org/slug" (lower case) -> member logins
        self._log: list[LoggedRequest] = []
        self._faults: list[Fault] = []
        self._callbacks: list[Callable[[FakeGitHub, Request], object]] = []
        self._clock: datetime | None = None
        self._max_time: datetime | None = None
        self._next_id = 1
        self._core = _Budget("core")
        self._graphql = _Budget("graphql")
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        if records is not None:
            self.add_records(records)

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

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeGitHub is not running: use it as a context manager or start()")
        return int(self._server.server_address[1])

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def graphql_url(self) -> str:
        return f"{self.api_url}/graphql"

    @property
    def repositories(self) -> list[str]:
        with self._lock:
            return [repo.full_name for repo in self._repos.values()]

    # -- data in ----------------------------------------------------------------------------

    def add_records(self, records: Iterable[r.Record]) -> None:
        """Load snapshot-form records; each RepositoryRecord switches the current repository."""
        with self._lock:
            current: _Repo | None = None
            touched: list[_Repo] = []
            for record in records:
                if isinstance(record, r.SyncStateRecord):
                    continue
                if isinstance(record, r.RepositoryRecord):
                    current = self._put_repo(record)
                    touched.append(current)
                    continue
                if current is None:
                    raise ValueError(
                        f"a {type(record).__name__} came before any RepositoryRecord: "
                        "put the repository record first"
                    )
                self._put(current, record)
            for repo in touched:
                self._fill_pr_defaults(repo)
                for item in repo.items.values():
                    if item.kind == "pr" and item.unresolved_threads:
                        repo.mark_unresolved(item.number, item.unresolved_threads)

    def _put_repo(self, record: r.RepositoryRecord) -> _Repo:
        record = record.model_copy(deep=True)
        owner, _, name = record.full_name.partition("/")
        if record.github_id is None:
            record.github_id = _node_id("R", _stable_int("repo", record.full_name.lower()))
        if record.url is None:
            record.url = f"{WEB}/{owner}/{name}"
        key = record.full_name.lower()
        repo = self._repos.get(key)
        if repo is None:
            repo = self._repos[key] = _Repo(record)
        else:
            repo.record = record
        return repo

    def _put(self, repo: _Repo, record: r.Record) -> None:
        record = record.model_copy(deep=True)
        if isinstance(record, r.ItemRecord):
            repo.items[record.number] = self._normal_item(repo, record)
            self._see(record.created_at, record.updated_at, record.closed_at, record.merged_at)
        elif isinstance(record, r.CommentRecord):
            repo.comments[record.id] = self._normal_comment(repo, record)
            self._see(record.created_at, record.updated_at)
            self._next_id = max(self._next_id, record.id + 1)
        elif isinstance(record, r.ReviewRecord):
            repo.reviews[record.id] = self._normal_review(repo, record)
            self._see(record.submitted_at)
            self._next_id = max(self._next_id, record.id + 1)
        elif isinstance(record, r.ReviewCommentRecord):
            repo.review_comments[record.id] = self._normal_review_comment(repo, record)
            self._see(record.created_at, record.updated_at)
            self._next_id = max(self._next_id, record.id + 1)
        elif isinstance(record, r.PRFileRecord):
            record.status = record.status or "modified"
            record.additions = record.additions or 0
            record.deletions = record.deletions or 0
            repo.files.setdefault(record.number, {})[record.path] = record
        elif isinstance(record, r.ClosingRefRecord):
            refs = repo.closing_refs.setdefault(record.number, [])
            key = (record.issue_repo.lower(), record.issue_number)
            refs[:] = [x for x in refs if (x.issue_repo.lower(), x.issue_number) != key]
            refs.append(record)
        else:
            raise TypeError(f"FakeGitHub cannot hold a {type(record).__name__}")

    def _see(self, *times: datetime | None) -> None:
        for value in times:
            if value is not None and (self._max_time is None or value > self._max_time):
                self._max_time = value

    # Records are normalised on the way in to what GitHub would report (ids and urls filled,
    # zero reactions dropped, PR-only fields cleared on issues), so `records_of` is exactly what
    # a faithful client can read back.

    def _normal_item(self, repo: _Repo, item: r.ItemRecord) -> r.ItemRecord:
        full = repo.full_name.lower()
        is_pr = item.kind == "pr"
        if item.github_id is None:
            item.github_id = _node_id(
                "PR" if is_pr else "I", _stable_int(full, "item", item.number)
            )
        if item.url is None:
            item.url = f"{repo.html_url}/{'pull' if is_pr else 'issues'}/{item.number}"
        item.author_type = _actor_type(item.author, item.author_type)
        item.author_association = item.author_association or "NONE"
        item.reactions = _clean_reactions(item.reactions)
        item.detail_updated_at = None
        item.checked_updated_at = None
        if not is_pr:
            for name in (
                "draft", "merged_at", "merged", "merged_by", "merge_commit_sha", "additions",
                "deletions", "changed_files", "commits", "base_ref", "head_ref", "head_sha",
                "review_decision", "review_comments_count",
            ):  # fmt: skip
                setattr(item, name, None)
            return item
        item.draft = bool(item.draft)
        if item.merged is None:
            item.merged = item.merged_at is not None
        item.base_ref = item.base_ref or repo.record.default_branch or "main"
        item.head_ref = item.head_ref or f"patch-{item.number}"
        item.head_sha = item.head_sha or _sha(full, "head", item.number)
        if item.commits is None:
            item.commits = 1
        return item

    def _fill_pr_defaults(self, repo: _Repo) -> None:
        for item in repo.items.values():
            if item.kind != "pr":
                continue
            files = list(repo.files.get(item.number, {}).values())  # all, not just 3,000
            if item.additions is None:
                item.additions = sum(f.additions or 0 for f in files)
            if item.deletions is None:
                item.deletions = sum(f.deletions or 0 for f in files)
            if item.changed_files is None:
                item.changed_files = len(files)

    def _normal_comment(self, repo: _Repo, c: r.CommentRecord) -> r.CommentRecord:
        c.github_id = c.github_id or _node_id("IC", c.id)
        c.url = c.url or f"{repo.item_url(c.number)}#issuecomment-{c.id}"
        c.author_type = _actor_type(c.author, c.author_type)
        c.author_association = c.author_association or "NONE"
        c.reactions = _clean_reactions(c.reactions)
        return c

    def _normal_review(self, repo: _Repo, rv: r.ReviewRecord) -> r.ReviewRecord:
        rv.github_id = rv.github_id or _node_id("PRR", rv.id)
        rv.url = rv.url or f"{repo.item_url(rv.number)}#pullrequestreview-{rv.id}"
        rv.author_type = _actor_type(rv.author, rv.author_type)
        rv.author_association = rv.author_association or "NONE"
        rv.body = rv.body or ""  # a review's body is never null on GitHub (REST or GraphQL)
        return rv

    def _normal_review_comment(
        self, repo: _Repo, rc: r.ReviewCommentRecord
    ) -> r.ReviewCommentRecord:
        rc.github_id = rc.github_id or _node_id("PRRC", rc.id)
        rc.url = rc.url or f"{repo.item_url(rc.number)}#discussion_r{rc.id}"
        rc.author_type = _actor_type(rc.author, rc.author_type)
        rc.author_association = rc.author_association or "NONE"
        rc.diff_hunk = rc.diff_hunk if rc.diff_hunk is not None else ""
        rc.reactions = _clean_reactions(rc.reactions)
        return rc

    # -- data out ----------------------------------------------------------------------------

    def records(self, repo: str | None = None) -> list[r.Record]:
        """The repository's current data as records (see `records_of`)."""
        with self._lock:
            data = self._repo(repo)
            out: list[r.Record] = [data.record.model_copy(deep=True)]
            for number in sorted(data.items):
                item = data.items[number].model_copy(deep=True)
                if item.kind == "pr":
                    item.review_comments_count = sum(
                        rv.comments_count
                        for rv in data.reviews.values()
                        if rv.number == number and not rv.deleted
                    )
                    # What the GraphQL source reads: threads with isResolved false.
                    item.unresolved_threads = data.unresolved_count(number)
                out.append(item)
            for table in (data.comments, data.reviews, data.review_comments):
                out.extend(table[key].model_copy(deep=True) for key in sorted(table))
            for number in sorted(data.files):
                out.extend(f.model_copy(deep=True) for f in data.pr_files(number))
            for number in sorted(data.closing_refs):
                out.extend(x.model_copy(deep=True) for x in data.closing_refs[number])
            return out

    # -- the clock and mutations ---------------------------------------------------------------

    @property
    def clock(self) -> datetime:
        """ "Now" for mutations: by default one hour after the newest timestamp in the data."""
        with self._lock:
            if self._clock is not None:
                return self._clock
            if self._max_time is not None:
                return self._max_time + timedelta(hours=1)
            return r.now_utc()

    @clock.setter
    def clock(self, value: datetime) -> None:
        if value.tzinfo is None:
            raise ValueError("clock must be timezone-aware")
        with self._lock:
            self._clock = value.astimezone(UTC).replace(microsecond=0)

    def advance(self, seconds: float) -> datetime:
        with self._lock:
            self.clock = self.clock + timedelta(seconds=seconds)
            return self.clock

    def _repo(self, repo: str | None) -> _Repo:
        with self._lock:
            if repo is None:
                if len(self._repos) != 1:
                    raise ValueError(
                        f"name the repository: the fake holds {len(self._repos)} "
                        f"({', '.join(self.repositories) or 'none'})"
                    )
                return next(iter(self._repos.values()))
            try:
                return self._repos[repo.lower()]
            except KeyError:
                raise KeyError(f"the fake holds no repository {repo!r}") from None

    def _item(self, repo: _Repo, number: int) -> r.ItemRecord:
        try:
            return repo.items[number]
        except KeyError:
            raise KeyError(f"{repo.full_name} has no item #{number}") from None

    def _new_id(self) -> int:
        with self._lock:
            self._next_id = max(self._next_id, 1_000_000)
            value = self._next_id
            self._next_id += 1
            return value

    @staticmethod
    def _shift(repo: str | int | None, *rest: Any) -> tuple[str | None, tuple[Any, ...]]:
        """Allow the repository to be left out: `f(5, ...)` means `f(None, 5, ...)`."""
        if isinstance(repo, int):
            return None, (repo, *rest[:-1])
        return repo, rest

    def push(self, repo: str | None = None) -> None:
        """A push to the repository at the clock: its `pushed_at` and `updated_at` move, so its
        REST object (and ETag) changes, as on GitHub, where any push, star or settings change
        makes the next conditional GET /repos/{owner}/{name} a paid 200."""
        with self._lock:
            self._repo(repo).pushed_at = self.clock

    def star(self, repo: str | None = None) -> None:
        """Someone stars the repository: `stargazers_count` and `updated_at` change."""
        with self._lock:
            data = self._repo(repo)
            data.stars += 1
            data.starred_at = self.clock

    def update_item(
        self, repo: str | int | None, number: int | None = None, /, **fields: Any
    ) -> r.ItemRecord:
        """Set fields of an item and bump its updated_at to the clock (unless given).

        Closing sets closed_at (and state_reason "completed" for issues), reopening clears it,
        `merged=True` sets merged_at, closed_at and state like a merge does.
        """
        name, (num,) = self._shift(repo, number)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            now = self.clock
            values = {**item.model_dump(), "updated_at": now, **fields}
            if fields.get("merged") is True and item.kind == "pr":
                if values["merged_at"] is None:
                    values["merged_at"] = now
                values["state"] = "closed"
                if "closed_at" not in fields:
                    values["closed_at"] = values["merged_at"]
            if fields.get("state") == "closed" and item.state != "closed":
                if "closed_at" not in fields and values.get("closed_at") is None:
                    values["closed_at"] = now
                if item.kind == "issue" and "state_reason" not in fields:
                    values["state_reason"] = "completed"
            if fields.get("state") == "open" and item.state != "open":
                if "closed_at" not in fields:
                    values["closed_at"] = None
                if item.kind == "issue" and "state_reason" not in fields:
                    values["state_reason"] = "reopened"
            updated = self._normal_item(data, r.ItemRecord.model_validate(values))
            data.items[updated.number] = updated
            data.pull_updated.pop(updated.number, None)  # an edit moves both records
            self._fill_pr_defaults(data)
            return updated.model_copy(deep=True)

    def add_item(
        self,
        repo: str | None = None,
        *,
        kind: Literal["issue", "pr"] = "issue",
        title: str | None = None,
        number: int | None = None,
        author: str | None = "octocat",
        **fields: Any,
    ) -> r.ItemRecord:
        """Open a new issue or PR at the clock; numbers continue GitHub's shared sequence."""
        with self._lock:
            data = self._repo(repo)
            num = number or max(data.items, default=0) + 1
            now = self.clock
            item = r.ItemRecord.model_validate(
                {
                    "number": num,
                    "kind": kind,
                    "title": title or f"{kind} {num}",
                    "author": author,
                    "author_type": _actor_type(author, fields.pop("author_type", None)),
                    "state": "open",
                    "created_at": now,
                    "updated_at": now,
                    **fields,
                }
            )
            data.items[num] = self._normal_item(data, item)
            self._fill_pr_defaults(data)
            return data.items[num].model_copy(deep=True)

    def set_team(self, org: str, slug: str, logins: Iterable[str] | None) -> None:
        """Who `GET /orgs/{org}/teams/{slug}/members` lists (listed by login); None: the
        team answers 404, as one that is gone or hidden from the token does."""
        with self._lock:
            key = f"{org}/{slug}".lower()
            if logins is None:
                self._teams.pop(key, None)
            else:
                self._teams[key] = sorted(logins, key=str.lower)

    def delete_item(self, repo: str | int | None, number: int | None = None, /) -> None:
        """Delete an issue: gone from every listing (410 on its own URL), children too."""
        name, (num,) = self._shift(repo, number)
        with self._lock:
            data = self._repo(name)
            self._item(data, cast(int, num)).deleted = True

    def add_comment(
        self,
        repo: str | int | None,
        number: int | str | None = None,
        body: str | None = None,
        /,
        *,
        author: str | None = "octocat",
        author_type: str | None = None,
        author_association: str = "NONE",
        reactions: dict[str, int] | None = None,
    ) -> r.CommentRecord:
        """A new conversation comment; bumps the item's updated_at and comments count."""
        name, (num, text) = self._shift(repo, number, body)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            now = self.clock
            comment = r.CommentRecord(
                id=self._new_id(),
                number=item.number,
                author=author,
                author_type=_actor_type(author, author_type),
                author_association=author_association,
                body=cast(str | None, text),
                created_at=now,
                updated_at=now,
                reactions=reactions or {},
            )
            data.comments[comment.id] = self._normal_comment(data, comment)
            item.comments_count += 1
            if self.split_update_times and item.kind == "pr":
                data.pull_updated.setdefault(item.number, item.updated_at)
            item.updated_at = now
            return comment.model_copy(deep=True)

    def edit_comment(
        self,
        repo: str | int | None,
        comment_id: int | str | None = None,
        body: str | None = None,
        /,
    ) -> r.CommentRecord:
        """Edit a comment: its updated_at moves, the item's does not."""
        name, (cid, text) = self._shift(repo, comment_id, body)
        with self._lock:
            data = self._repo(name)
            comment = data.comments[cast(int, cid)]
            comment.body = cast(str | None, text)
            comment.updated_at = self.clock
            return comment.model_copy(deep=True)

    def delete_comment(self, repo: str | int | None, comment_id: int | None = None, /) -> None:
        """Delete a comment: the item's count drops but its updated_at stays, as on GitHub."""
        name, (cid,) = self._shift(repo, comment_id)
        with self._lock:
            data = self._repo(name)
            comment = data.comments[cast(int, cid)]
            if comment.deleted:
                return
            comment.deleted = True
            item = data.items.get(comment.number)
            if item is not None:
                item.comments_count = max(0, item.comments_count - 1)

    def add_review(
        self,
        repo: str | int | None,
        number: int | str | None = None,
        state: str | None = "APPROVED",
        /,
        *,
        body: str = "",
        author: str | None = "octocat",
        author_type: str | None = None,
        author_association: str = "NONE",
        commit_sha: str | None = None,
        comments_count: int = 0,
    ) -> r.ReviewRecord:
        """Submit a review at the clock; bumps the PR's updated_at."""
        name, (num, review_state) = self._shift(repo, number, state)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            now = self.clock
            review = r.ReviewRecord(
                id=self._new_id(),
                number=item.number,
                author=author,
                author_type=_actor_type(author, author_type),
                author_association=author_association,
                state=cast(str, review_state or "APPROVED"),
                body=body,
                submitted_at=now,
                commit_sha=commit_sha or item.head_sha,
                comments_count=comments_count,
            )
            data.reviews[review.id] = self._normal_review(data, review)
            item.updated_at = now
            return review.model_copy(deep=True)

    def add_review_comment(
        self,
        repo: str | int | None,
        number: int | str | None = None,
        body: str | None = None,
        /,
        *,
        path: str = "README.md",
        line: int | None = 1,
        review_id: int | None = None,
        in_reply_to_id: int | None = None,
        author: str | None = "octocat",
        author_type: str | None = None,
        author_association: str = "NONE",
        diff_hunk: str = "@@ -1,3 +1,3 @@",
        side: str = "RIGHT",
        touch_item: bool = True,
    ) -> r.ReviewCommentRecord:
        """A diff comment. Without `review_id` GitHub wraps it in a new COMMENTED review.

        `touch_item=False` leaves the PR's updated_at alone (seen on GitHub now and then).
        """
        name, (num, text) = self._shift(repo, number, body)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            now = self.clock
            if review_id is None:
                review = r.ReviewRecord(
                    id=self._new_id(),
                    number=item.number,
                    author=author,
                    author_type=_actor_type(author, author_type),
                    author_association=author_association,
                    state="COMMENTED",
                    body="",
                    submitted_at=now,
                    commit_sha=item.head_sha,
                )
                data.reviews[review.id] = self._normal_review(data, review)
                review_id = review.id
            data.reviews[review_id].comments_count += 1
            comment = r.ReviewCommentRecord(
                id=self._new_id(),
                number=item.number,
                review_id=review_id,
                in_reply_to_id=in_reply_to_id,
                author=author,
                author_type=_actor_type(author, author_type),
                author_association=author_association,
                path=path,
                line=line,
                original_line=line,
                side=side,
                diff_hunk=diff_hunk,
                body=cast(str | None, text),
                commit_sha=item.head_sha,
                created_at=now,
                updated_at=now,
            )
            data.review_comments[comment.id] = self._normal_review_comment(data, comment)
            if touch_item:
                item.updated_at = now
            return comment.model_copy(deep=True)

    def set_unresolved(
        self, repo: str | int | None, number: int | None = None, count: int | None = None, /
    ) -> int:
        """Mark a PR's first `count` review threads (oldest first) unresolved, the rest resolved,
        and bump its updated_at. Returns the unresolved count now served (at most the threads
        the PR has: one per top-level review comment).

        Records carry no thread-resolution field; an ItemRecord's `unresolved_threads` given to
        `add_records` does the same. GitHub reports the current state, so this is "unresolved
        now" (for a merged PR usually the state at merge).
        """
        name, (num, n) = self._shift(repo, number, count)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            data.mark_unresolved(item.number, cast(int, n))
            item.updated_at = self.clock
            return data.unresolved_count(item.number)

    def push_commit(
        self, repo: str | int | None, number: int | None = None, /, *, at: datetime | None = None
    ) -> str:
        """Push a commit to a PR (committed `at`, default the clock): its commit count, head and
        updated_at move, as on GitHub. Returns the commit's sha."""
        name, (num,) = self._shift(repo, number)
        with self._lock:
            data = self._repo(name)
            item = self._item(data, cast(int, num))
            when = at or self.clock
            sha = _sha(
                data.full_name.lower(),
                item.number,
                "pushed",
                len(data.pushed.get(item.number, [])),
                when,
            )
            data.pushed.setdefault(item.number, []).append((sha, when))
            item.commits = (item.commits or 0) + 1
            item.head_sha = sha
            item.updated_at = self.clock
            return sha

    def delete_review_comment(
        self, repo: str | int | None, comment_id: int | None = None, /
    ) -> None:
        name, (cid,) = self._shift(repo, comment_id)
        with self._lock:
            data = self._repo(name)
            comment = data.review_comments[cast(int, cid)]
            if comment.deleted:
                return
            comment.deleted = True
            review = data.reviews.get(comment.review_id or -1)
            if review is not None:
                review.comments_count = max(0, review.comments_count - 1)

    # -- request log, callbacks and faults -------------------------------------------------------

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._log)

    def count(
        self,
        api: Api | None = None,
        status: int | None = None,
        *,
        path_contains: str | None = None,
        not_modified: bool | None = None,
    ) -> int:
        with self._lock:
            return sum(
                1
                for entry in self._log
                if (api is None or entry.api == api)
                and (status is None or entry.status == status)
                and (path_contains is None or path_contains in entry.path)
                and (not_modified is None or entry.not_modified == not_modified)
            )

    def reset_log(self) -> None:
        with self._lock:
            self._log.clear()

    def new_hour(self) -> None:
        """Start fresh rate-limit windows, as GitHub does on the hour (a benchmark's "next
        day" run must not inherit what the first run spent)."""
        with self._lock:
            for budget in (self._core, self._graphql):
                budget.used = 0
                budget.reset = int(time.time()) + 3600

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
        "bad_body" serves `payload` (default `{}`; e.g. `{"message": "oops"}`) instead;
        "null_repository" answers a GraphQL query `{"data": {"repository": null}}`, no error;
        "zero_totals" sets every `totalCount` under `data.repository` to 0;
        "null_connections" sets the named `connections` of every aliased PR to null, each with
        a nested NOT_FOUND error. The GraphQL kinds match GraphQL requests only.
        `skip=N` lets the first N matching requests through (e.g. the second issues page).

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
                if fault is not None and fault.kind in (*CORRUPTIONS, "forbidden"):
                    response = _corrupt(fault, response)
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
        value = request.headers.get("authorization", "")
        scheme, _, credential = value.partition(" ")
        credential = credential.strip()
        if scheme.lower() in ("bearer", "token") and (
            credential == self.token or credential in self.extra_tokens
        ):
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

    # -- REST ------------------------------------------------------------------------------------

    def _rest_error(self, status: int, message: str) -> _Response:
        payload = {"message": message, "documentation_url": REST_DOCS, "status": str(status)}
        return _Response(
            status, _json(payload), {"Content-Type": "application/json; charset=utf-8"}
        )

    def _ok(self, request: Request, payload: Any, link: str | None = None) -> _Response:
        body = _json(payload)
        tag = '"' + hashlib.sha256(body + (link or "").encode()).hexdigest() + '"'
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "Cache-Control": "private, max-age=60, s-maxage=60",
            "Vary": "Accept, Authorization, Cookie, X-GitHub-OTP",
            "ETag": tag,
            "x-github-media-type": "github.v3; format=json",
        }
        if link:
            headers["Link"] = link
        wanted = request.headers.get("if-none-match")
        if wanted is not None and _etag_matches(wanted, tag):
            headers.pop("Content-Type")
            return _Response(304, b"", headers, not_modified=True)
        return _Response(200, body, headers)

    def _page(self, request: Request, rows: list[Any], render: Callable[[Any], Any]) -> _Response:
        per_page = _int_param(request.query.get("per_page"), 30)
        per_page = min(per_page if per_page >= 1 else 30, self.per_page_max)
        page = max(1, _int_param(request.query.get("page"), 1))
        if self.max_page is not None and page > self.max_page:
            raise _HTTPError(422, PAGE_TOO_DEEP_MESSAGE)
        pages = max(1, -(-len(rows) // per_page))
        chunk = rows[(page - 1) * per_page : page * per_page]
        return self._ok(request, [render(row) for row in chunk], self._link(request, page, pages))

    def _link(self, request: Request, page: int, pages: int) -> str | None:
        if pages <= 1 and page <= 1:
            return None
        params = [(k, v) for k, v in parse_qsl(request.raw_query, keep_blank_values=True)]
        params = [(k, v) for k, v in params if k != "page"]

        def url(n: int) -> str:
            return f"{self.api_url}{request.path}?{urlencode([*params, ('page', str(n))])}"

        parts: list[str] = []
        if page > 1:
            parts.append(f'<{url(min(page - 1, pages))}>; rel="prev"')
        if page < pages:
            parts.append(f'<{url(page + 1)}>; rel="next"')
            parts.append(f'<{url(pages)}>; rel="last"')
        if page > 1:
            parts.append(f'<{url(1)}>; rel="first"')
        return ", ".join(parts) or None

    def _api(self, repo: _Repo) -> str:
        return f"{self.api_url}/repos/{repo.full_name}"

    def _user(self, login: str | None, kind: str | None) -> dict[str, Any] | None:
        if login is None:
            return None if self.null_rest_users else dict(GHOST)
        kind = _actor_type(login, kind) or "User"
        uid = _stable_int("user", login.lower())
        bare = login.removesuffix("[bot]")
        html = f"{WEB}/apps/{bare}" if kind == "Bot" else f"{WEB}/{login}"
        api = f"{self.api_url}/users/{login}"
        return {
            "login": login,
            "id": uid,
            "node_id": _actor_node_id(login, kind),
            "avatar_url": f"https://avatars.githubusercontent.com/u/{uid}?v=4",
            "gravatar_id": "",
            "url": api,
            "html_url": html,
            "followers_url": f"{api}/followers",
            "following_url": f"{api}/following{{/other_user}}",
            "gists_url": f"{api}/gists{{/gist_id}}",
            "starred_url": f"{api}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{api}/subscriptions",
            "organizations_url": f"{api}/orgs",
            "repos_url": f"{api}/repos",
            "events_url": f"{api}/events{{/privacy}}",
            "received_events_url": f"{api}/received_events",
            "type": kind,
            "user_view_type": "public",
            "site_admin": False,
        }

    def _reactions(self, url: str, reactions: dict[str, int]) -> dict[str, Any]:
        counts = {key: int(reactions.get(key, 0)) for key in REACTION_KEYS}
        return {"url": f"{url}/reactions", "total_count": sum(counts.values()), **counts}

    def _rest_labels(self, repo: _Repo, names: list[str]) -> list[dict[str, Any]] | list[str]:
        return list(names) if self.label_strings else self._labels(repo, names)

    def _labels(self, repo: _Repo, names: list[str]) -> list[dict[str, Any]]:
        return [
            {
                "id": _stable_int("label", repo.full_name.lower(), name),
                "node_id": _node_id("LA", _stable_int("label", repo.full_name.lower(), name)),
                "url": f"{self._api(repo)}/labels/{name}",
                "name": name,
                "color": _sha("color", name)[:6],
                "default": False,
                "description": None,
            }
            for name in names
        ]

    def _repo_json(self, repo: _Repo) -> dict[str, Any]:
        record = repo.record
        owner, _, name = record.full_name.partition("/")
        api = self._api(repo)
        return {
            "id": repo.rest_id,
            "node_id": record.github_id,
            "name": name,
            "full_name": record.full_name,
            "private": False,
            "owner": self._user(owner, "Organization"),
            "html_url": record.url,
            "description": record.description,
            "fork": False,
            "url": api,
            "issues_url": f"{api}/issues{{/number}}",
            "pulls_url": f"{api}/pulls{{/number}}",
            "issue_comment_url": f"{api}/issues/comments{{/number}}",
            "default_branch": record.default_branch,
            "pushed_at": _iso(repo.pushed_at),
            "updated_at": _iso(
                max((t for t in (repo.pushed_at, repo.starred_at) if t), default=None)
            ),
            "stargazers_count": repo.stars,
            "watchers_count": repo.stars,
            "has_issues": True,
            "archived": False,
            "disabled": False,
            "visibility": "public",
        }

    def _issue_json(self, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/issues/{item.number}"
        out: dict[str, Any] = {
            "url": api,
            "repository_url": self._api(repo),
            "labels_url": f"{api}/labels{{/name}}",
            "comments_url": f"{api}/comments",
            "events_url": f"{api}/events",
            "html_url": item.url,
            "id": _stable_int(repo.full_name.lower(), "issue", item.number),
            "node_id": item.github_id,
            "number": item.number,
            "title": item.title,
            "user": self._user(item.author, item.author_type),
            "labels": self._rest_labels(repo, item.labels),
            "state": item.state,
            "locked": item.locked,
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "comments": item.comments_count,
            "created_at": _iso(item.created_at),
            "updated_at": _iso(item.updated_at),
            "closed_at": _iso(item.closed_at),
            "author_association": item.author_association,
            "type": None,
            "active_lock_reason": None,
            "body": item.body,
            "closed_by": None,
            "reactions": self._reactions(api, item.reactions),
            "timeline_url": f"{api}/timeline",
            "performed_via_github_app": None,
            "state_reason": item.state_reason,
        }
        if item.kind == "pr":
            pull = f"{self._api(repo)}/pulls/{item.number}"
            out["draft"] = bool(item.draft)
            out["pull_request"] = {
                "url": pull,
                "html_url": item.url,
                "diff_url": f"{item.url}.diff",
                "patch_url": f"{item.url}.patch",
                "merged_at": _iso(item.merged_at),
            }
        return out

    def _pull_json(self, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/pulls/{item.number}"
        issue_api = f"{self._api(repo)}/issues/{item.number}"
        repo_json = self._repo_json(repo)
        owner = repo.full_name.partition("/")[0]
        review_comments = sum(
            1 for rc in repo.review_comments.values() if rc.number == item.number and not rc.deleted
        )
        return {
            "url": api,
            "id": _stable_int(repo.full_name.lower(), "pull", item.number),
            "node_id": item.github_id,
            "html_url": item.url,
            "diff_url": f"{item.url}.diff",
            "patch_url": f"{item.url}.patch",
            "issue_url": issue_api,
            "number": item.number,
            "state": item.state,
            "locked": item.locked,
            "title": item.title,
            "user": self._user(item.author, item.author_type),
            "body": item.body,
            "labels": self._rest_labels(repo, item.labels),
            "milestone": None,
            "active_lock_reason": None,
            "created_at": _iso(item.created_at),
            "updated_at": _iso(repo.pull_updated.get(item.number, item.updated_at)),
            "closed_at": _iso(item.closed_at),
            "merged_at": _iso(item.merged_at),
            "merge_commit_sha": item.merge_commit_sha,
            "assignee": None,
            "assignees": [],
            "requested_reviewers": [],
            "requested_teams": [],
            "commits_url": f"{api}/commits",
            "review_comments_url": f"{api}/comments",
            "comments_url": f"{issue_api}/comments",
            "head": {
                "label": f"{owner}:{item.head_ref}",
                "ref": item.head_ref,
                "sha": item.head_sha,
                "user": self._user(owner, "Organization"),
                "repo": repo_json,
            },
            "base": {
                "label": f"{owner}:{item.base_ref}",
                "ref": item.base_ref,
                "sha": _sha(repo.full_name.lower(), "base", item.number),
                "user": self._user(owner, "Organization"),
                "repo": repo_json,
            },
            "author_association": item.author_association,
            "auto_merge": None,
            "draft": bool(item.draft),
            "merged": bool(item.merged),
            "mergeable": None,
            "rebaseable": None,
            "mergeable_state": "unknown",
            "merged_by": self._user(item.merged_by, None) if item.merged_by else None,
            "comments": item.comments_count,
            "review_comments": review_comments,
            "maintainer_can_modify": False,
            "commits": item.commits,
            "additions": item.additions,
            "deletions": item.deletions,
            "changed_files": item.changed_files,
        }

    def _comment_json(self, repo: _Repo, c: r.CommentRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/issues/comments/{c.id}"
        return {
            "url": api,
            "html_url": c.url,
            "issue_url": f"{self._api(repo)}/issues/{c.number}",
            "id": c.id,
            "node_id": c.github_id,
            "user": self._user(c.author, c.author_type),
            "created_at": _iso(c.created_at),
            "updated_at": _iso(c.updated_at),
            "author_association": c.author_association,
            "body": c.body,
            "reactions": self._reactions(api, c.reactions),
            "performed_via_github_app": None,
        }

    def _review_json(self, repo: _Repo, rv: r.ReviewRecord) -> dict[str, Any]:
        pull = f"{self._api(repo)}/pulls/{rv.number}"
        return {
            "id": rv.id,
            "node_id": rv.github_id,
            "user": self._user(rv.author, rv.author_type),
            "body": rv.body or "",
            "state": rv.state,
            "html_url": rv.url,
            "pull_request_url": pull,
            "author_association": rv.author_association,
            "_links": {"html": {"href": rv.url}, "pull_request": {"href": pull}},
            "submitted_at": _iso(rv.submitted_at),
            "commit_id": rv.commit_sha,
        }

    def _review_comment_json(self, repo: _Repo, rc: r.ReviewCommentRecord) -> dict[str, Any]:
        api = f"{self._api(repo)}/pulls/comments/{rc.id}"
        pull = f"{self._api(repo)}/pulls/{rc.number}"
        out: dict[str, Any] = {
            "url": api,
            "pull_request_review_id": rc.review_id,
            "id": rc.id,
            "node_id": rc.github_id,
            "diff_hunk": rc.diff_hunk,
            "path": rc.path,
            "commit_id": rc.commit_sha,
            "original_commit_id": rc.commit_sha,
            "user": self._user(rc.author, rc.author_type),
            "body": rc.body,
            "created_at": _iso(rc.created_at),
            "updated_at": _iso(rc.updated_at),
            "html_url": rc.url,
            "pull_request_url": pull,
            "author_association": rc.author_association,
            "_links": {
                "self": {"href": api},
                "html": {"href": rc.url},
                "pull_request": {"href": pull},
            },
            "reactions": self._reactions(api, rc.reactions),
            "start_line": None,
            "original_start_line": None,
            "start_side": None,
            "line": rc.line,
            "original_line": rc.original_line,
            "side": rc.side,
            "original_position": rc.original_line,
            "position": rc.line,
            "subject_type": "line",
        }
        if rc.in_reply_to_id is not None:
            out["in_reply_to_id"] = rc.in_reply_to_id  # GitHub omits the key on thread starts
        return out

    def _file_json(self, repo: _Repo, f: r.PRFileRecord) -> dict[str, Any]:
        sha = _sha(repo.full_name.lower(), f.number, f.path)
        base = f"{repo.html_url}/blob/{sha}"
        out: dict[str, Any] = {
            "sha": sha,
            "filename": f.path,
            "status": f.status,
            "additions": f.additions,
            "deletions": f.deletions,
            "changes": (f.additions or 0) + (f.deletions or 0),
            "blob_url": f"{base}/{f.path}",
            "raw_url": f"{repo.html_url}/raw/{sha}/{f.path}",
            "contents_url": f"{self._api(repo)}/contents/{f.path}?ref={sha}",
        }
        if f.previous_path is not None:
            out["previous_filename"] = f.previous_path
        # The record's diff, served as GitHub's `patch` (unified hunks, with context if the
        # record has it); GitHub leaves the key out for binary and very large diffs, as here
        # for a record without one.
        if f.patch is not None:
            out["patch"] = f.patch
        return out

    # REST endpoints. Each runs under the lock and returns a finished response.

    def _rest_repository(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        return self._ok(request, self._repo_json(repo))

    def _rest_issues(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        q = request.query
        state = q.get("state", "open")
        if state not in ("open", "closed", "all"):
            raise _HTTPError(422, "Validation Failed")
        rows = [i for i in repo.items.values() if not i.deleted]
        if state != "all":
            rows = [i for i in rows if i.state == state]
        if q.get("since"):
            since = _since(q["since"])
            rows = [i for i in rows if i.updated_at >= since]
        if q.get("labels"):
            wanted = {x.strip().lower() for x in q["labels"].split(",") if x.strip()}
            rows = [i for i in rows if wanted <= {x.lower() for x in i.labels}]
        if q.get("creator"):
            rows = [i for i in rows if (i.author or "").lower() == q["creator"].lower()]
        sort = q.get("sort", "created")
        keys: dict[str, Callable[[r.ItemRecord], tuple[int, int]]] = {
            "created": lambda i: (_epoch(i.created_at), i.number),
            "updated": lambda i: (_epoch(i.updated_at), i.number),
            "comments": lambda i: (i.comments_count, i.number),
        }
        if sort not in keys:
            raise _HTTPError(422, "Validation Failed")
        rows.sort(key=keys[sort], reverse=_descending(q.get("direction"), default=True))
        return self._page(request, rows, lambda i: self._issue_json(repo, i))

    def _rest_pulls(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        q = request.query
        state = q.get("state", "open")
        rows = [i for i in repo.items.values() if i.kind == "pr" and not i.deleted]
        if state != "all":
            rows = [i for i in rows if i.state == state]
        sort = q.get("sort", "created")
        keys: dict[str, Callable[[r.ItemRecord], tuple[int, int]]] = {
            "created": lambda i: (_epoch(i.created_at), i.number),
            "updated": lambda i: (_epoch(i.updated_at), i.number),
            "popularity": lambda i: (i.comments_count, i.number),
            "long-running": lambda i: (-_epoch(i.created_at), i.number),
        }
        if sort not in keys:
            raise _HTTPError(422, "Validation Failed")
        rows.sort(key=keys[sort], reverse=_descending(q.get("direction"), default=True))
        return self._page(request, rows, lambda i: self._pull_json(repo, i))

    def _visible_item(self, repo: _Repo, params: dict[str, str]) -> r.ItemRecord:
        item = repo.items.get(int(params["number"]))
        if item is None:
            raise _HTTPError(404, "Not Found")
        if item.deleted:
            raise _HTTPError(410, "This issue was deleted")
        return item

    def _rest_issue(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        return self._ok(request, self._issue_json(repo, self._visible_item(repo, params)))

    def _rest_pull(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = repo.items.get(int(params["number"]))
        if item is None or item.kind != "pr" or item.deleted:
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._pull_json(repo, item))

    def _pr(self, repo: _Repo, params: dict[str, str]) -> r.ItemRecord:
        item = repo.items.get(int(params["number"]))
        if item is None or item.kind != "pr" or item.deleted:
            raise _HTTPError(404, "Not Found")
        return item

    def _comment_rows(self, request: Request, rows: list[Any], *, sortable: bool) -> list[Any]:
        q = request.query
        if q.get("since"):
            since = _since(q["since"])
            rows = [c for c in rows if c.updated_at >= since]
        sort = q.get("sort") if sortable else None
        if sort is None:
            # Without `sort` GitHub lists comments in ascending id order; direction is ignored.
            rows.sort(key=lambda c: c.id)
            return rows
        if sort not in ("created", "updated"):
            raise _HTTPError(422, "Validation Failed")
        attr = "created_at" if sort == "created" else "updated_at"
        rows.sort(
            key=lambda c: (_epoch(getattr(c, attr)), c.id),
            reverse=_descending(q.get("direction"), default=True),
        )
        return rows

    def _rest_repo_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        rows = [c for c in repo.comments.values() if not c.deleted and repo.item_visible(c.number)]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._comment_json(repo, c))

    def _rest_issue_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        item = self._visible_item(repo, params)
        rows = [c for c in repo.comments.values() if c.number == item.number and not c.deleted]
        rows = self._comment_rows(request, rows, sortable=False)
        return self._page(request, rows, lambda c: self._comment_json(repo, c))

    def _rest_comment(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        c = repo.comments.get(int(params["id"]))
        if c is None or c.deleted or not repo.item_visible(c.number):
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._comment_json(repo, c))

    def _rest_repo_review_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        rows = [
            c
            for c in repo.review_comments.values()
            if not c.deleted and repo.item_visible(c.number)
        ]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._review_comment_json(repo, c))

    def _rest_pull_review_comments(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        item = self._pr(repo, params)
        rows = [
            c for c in repo.review_comments.values() if c.number == item.number and not c.deleted
        ]
        rows = self._comment_rows(request, rows, sortable=True)
        return self._page(request, rows, lambda c: self._review_comment_json(repo, c))

    def _rest_review_comment(
        self, request: Request, repo: _Repo, params: dict[str, str]
    ) -> _Response:
        c = repo.review_comments.get(int(params["id"]))
        if c is None or c.deleted or not repo.item_visible(c.number):
            raise _HTTPError(404, "Not Found")
        return self._ok(request, self._review_comment_json(repo, c))

    def _rest_reviews(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = self._pr(repo, params)
        rows = sorted(
            (rv for rv in repo.reviews.values() if rv.number == item.number and not rv.deleted),
            key=lambda rv: rv.id,
        )
        return self._page(request, rows, lambda rv: self._review_json(repo, rv))

    def _rest_team_members(self, request: Request, org: str, slug: str) -> _Response:
        # GitHub answers 404 both for no such team and for one this token may not see.
        with self._lock:
            members = self._teams.get(f"{org}/{slug}".lower())
            if members is None:
                raise _HTTPError(404, "Not Found")
            return self._page(request, list(members), lambda login: self._user(login, "User"))

    def _rest_files(self, request: Request, repo: _Repo, params: dict[str, str]) -> _Response:
        item = self._pr(repo, params)
        rows = repo.pr_files(item.number)
        return self._page(request, list(rows), lambda f: self._file_json(repo, f))

    # -- GraphQL ---------------------------------------------------------------------------------

    def _graphql_request(self, request: Request) -> _Response:
        headers = {"Content-Type": "application/json; charset=utf-8"}
        try:
            payload = json.loads(request.body or b"null")
        except ValueError:
            body = {"message": "Problems parsing JSON", "documentation_url": GRAPHQL_DOCS}
            return _Response(400, _json(body), headers)
        query = payload.get("query") if isinstance(payload, dict) else None
        if not isinstance(query, str):
            body = {
                "errors": [{"message": "A query attribute must be specified and must be a string."}]
            }
            return _Response(200, _json(body), headers)
        variables = payload.get("variables") or {}
        if not isinstance(variables, dict):
            variables = {}
        operation = payload.get("operationName")
        try:
            document = parse(query)
        except GraphQLError as error:
            return _Response(200, _json({"errors": [_format_error(error)]}), headers)
        errors = validate(_schema(), document)
        if errors:
            return _Response(200, _json({"errors": [_format_error(e) for e in errors]}), headers)
        if self._too_heavy(request, _count_fields(document, "pullRequest")):
            body = {"data": None, "errors": [{"message": GRAPHQL_TIMEOUT_MESSAGE}]}
            return _Response(502, _json(body), headers, fault="graphql_heavy")
        cost, nodes = _query_cost(document, variables)
        limited = self._resource_limited(request, _count_fields(document, "pullRequest"), nodes)
        context = _Context(self, cost=cost, node_count=nodes)
        with self._lock:
            self._graphql.charge(cost)
            self.graphql_points += cost
            result = execute(
                _schema(),
                document,
                root_value=self._gql_root(context),
                context_value=context,
                variable_values=variables,
                operation_name=operation,
            )
        if context.pagination_errors:
            # GitHub checks connection limits before running anything: the whole query fails.
            return _Response(200, _json({"errors": context.pagination_errors}), headers)
        out: dict[str, Any] = {}
        if result.data is not None or not result.errors:
            out["data"] = result.data
        if result.errors:
            out["errors"] = [_format_error(e) for e in result.errors]
        if limited:
            # GitHub stops a query over its resource limits part-way: what it got to stays,
            # the rest is null, and one error says why (no path).
            repo = (out.get("data") or {}).get("repository")
            if isinstance(repo, dict):
                aliases = [k for k, v in repo.items() if isinstance(v, dict)]
                for alias in aliases[len(aliases) // 2 :]:
                    repo[alias] = None
            out.setdefault("errors", []).append(
                {"type": "RESOURCE_LIMITS_EXCEEDED", "message": RESOURCE_LIMITS_MESSAGE}
            )
            return _Response(200, _json(out), headers, fault="resource_limits")
        return _Response(200, _json(out), headers)

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

    def _gql_root(self, ctx: _Context) -> dict[str, Any]:
        def repository(
            info: GraphQLResolveInfo, owner: str, name: str, followRenames: bool = True
        ) -> dict[str, Any]:
            repo = self._repos.get(f"{owner}/{name}".lower())
            if repo is None:
                raise _not_found(
                    f"Could not resolve to a Repository with the name '{owner}/{name}'."
                )
            return self._gql_repo(ctx, repo)

        def rate_limit(info: GraphQLResolveInfo, dryRun: bool = False) -> dict[str, Any]:
            budget = self._graphql
            return {
                "cost": ctx.cost,
                "limit": budget.limit,
                "nodeCount": ctx.node_count,
                "remaining": budget.remaining,
                "resetAt": _iso(datetime.fromtimestamp(budget.reset, UTC)),
                "used": budget.used,
            }

        def node(info: GraphQLResolveInfo, id: str) -> dict[str, Any] | None:
            return self._gql_node(ctx, id)

        def nodes(info: GraphQLResolveInfo, ids: list[str]) -> list[dict[str, Any] | None]:
            return [self._gql_node(ctx, x) for x in ids]

        def create_discussion(info: GraphQLResolveInfo, input: dict[str, Any]) -> dict[str, Any]:
            return {
                "clientMutationId": input.get("clientMutationId"),
                "discussion": self._create_discussion(input),
            }

        return {
            "repository": repository,
            "rateLimit": rate_limit,
            "viewer": _gql_actor("tidings-test", "User"),
            "node": node,
            "nodes": nodes,
            "createDiscussion": create_discussion,  # the Mutation root shares this value
        }

    # -- discussions -----------------------------------------------------------------------------

    def add_discussion_categories(self, repo: str, *names: str) -> None:
        """Give `repo` discussion categories (GitHub makes them in the repository settings)."""
        with self._lock:
            target = self._repos[repo.lower()]
            for name in names:
                target.discussion_categories[name] = _node_id(
                    "DIC", _stable_int(repo.lower(), name)
                )

    def discussions(self, repo: str) -> list[dict[str, Any]]:
        """The discussions created in `repo`, oldest first: title, body, category, number, url."""
        with self._lock:
            return [dict(d) for d in self._repos[repo.lower()].discussions]

    def _create_discussion(self, data: dict[str, Any]) -> dict[str, Any]:
        repo = next(
            (x for x in self._repos.values() if x.record.github_id == data["repositoryId"]), None
        )
        if repo is None:
            raise _not_found(
                f"Could not resolve to a node with the global id of '{data['repositoryId']}'"
            )
        names = {v: k for k, v in repo.discussion_categories.items()}
        if data["categoryId"] not in names:
            raise _not_found(
                f"Could not resolve to a node with the global id of '{data['categoryId']}'"
            )
        if not data["title"].strip() or not data["body"].strip():
            raise GraphQLError("Title can't be blank; Body can't be blank")
        if len(data["body"]) > DISCUSSION_BODY_MAX:
            raise GraphQLError(f"Body is too long (maximum is {DISCUSSION_BODY_MAX} characters)")
        number = 10_000 + len(repo.discussions) + 1
        discussion = {
            "id": _node_id("D", _stable_int(repo.full_name, number)),
            "number": number,
            "title": data["title"],
            "body": data["body"],
            "category": names[data["categoryId"]],
            "url": f"{repo.html_url}/discussions/{number}",
            "createdAt": _iso(datetime.now(UTC)),
        }
        repo.discussions.append(discussion)
        return self._gql_discussion(repo, discussion)

    def _gql_discussion(self, repo: _Repo, d: dict[str, Any]) -> dict[str, Any]:
        category = d["category"]
        return {
            "__typename": "Discussion",
            "id": d["id"],
            "number": d["number"],
            "title": d["title"],
            "url": d["url"],
            "createdAt": d["createdAt"],
            "category": {
                "id": repo.discussion_categories[category],
                "name": category,
                "slug": re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-"),
            },
        }

    def _gql_node(self, ctx: _Context, node_id: str) -> dict[str, Any] | None:
        for repo in self._repos.values():
            if repo.record.github_id == node_id:
                return self._gql_repo(ctx, repo)
            for item in repo.items.values():
                if item.github_id == node_id and not item.deleted:
                    return self._gql_item(ctx, repo, item)
            for c in repo.comments.values():
                if c.github_id == node_id and not c.deleted:
                    return self._gql_comment(ctx, repo, c)
            for rv in repo.reviews.values():
                if rv.github_id == node_id and not rv.deleted:
                    return self._gql_review(ctx, repo, rv)
        raise _not_found(f"Could not resolve to a node with the global id of '{node_id}'")

    def _gql_repo(self, ctx: _Context, repo: _Repo) -> dict[str, Any]:
        record = repo.record
        owner, _, name = record.full_name.partition("/")

        def find(number: int, kind: str | None) -> r.ItemRecord | None:
            item = repo.items.get(number)
            if item is None or item.deleted or (kind is not None and item.kind != kind):
                return None
            return item

        def pull_request(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, "pr")
            if item is None:
                raise _not_found(f"Could not resolve to a PullRequest with the number of {number}.")
            return self._gql_pr(ctx, repo, item)

        def issue(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, "issue")
            if item is None:
                raise _not_found(f"Could not resolve to an Issue with the number of {number}.")
            return self._gql_issue(ctx, repo, item)

        def issue_or_pr(info: GraphQLResolveInfo, number: int) -> dict[str, Any]:
            item = find(number, None)
            if item is None:
                raise _not_found(
                    f"Could not resolve to an issue or pull request with the number of {number}."
                )
            return self._gql_item(ctx, repo, item)

        def items(kind: str) -> Callable[..., dict[str, Any] | None]:
            def resolve(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
                return self._gql_item_connection(ctx, info, repo, kind, args)

            return resolve

        return {
            "__typename": "Repository",
            "id": record.github_id,
            "databaseId": repo.rest_id,
            "name": name,
            "nameWithOwner": record.full_name,
            "owner": _gql_actor(owner, "Organization"),
            "url": record.url,
            "resourcePath": f"/{record.full_name}",
            "description": record.description,
            "isPrivate": False,
            "defaultBranchRef": (
                {
                    "id": _node_id("REF", _stable_int(record.full_name, record.default_branch)),
                    "name": record.default_branch,
                    "prefix": "refs/heads/",
                }
                if record.default_branch
                else None
            ),
            "pullRequest": pull_request,
            "issue": issue,
            "issueOrPullRequest": issue_or_pr,
            "discussionCategories": lambda info, **args: {
                "nodes": [
                    {
                        "id": node_id,
                        "name": name,
                        "slug": re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-"),
                    }
                    for name, node_id in repo.discussion_categories.items()
                ][: args.get("first") or 100],
                "totalCount": len(repo.discussion_categories),
            },
            "discussions": lambda info, **args: self._gql_discussions(repo, args),
            "issues": items("issue"),
            "pullRequests": items("pr"),
        }

    def _gql_discussions(self, repo: _Repo, args: dict[str, Any]) -> dict[str, Any]:
        rows = [self._gql_discussion(repo, d) for d in repo.discussions]
        if args.get("categoryId"):
            rows = [d for d in rows if d["category"]["id"] == args["categoryId"]]
        # Oldest first as created; DESC (GitHub's default) is newest first.
        order = args.get("orderBy") or {"direction": "DESC"}
        if order.get("direction", "DESC") == "DESC":
            rows.reverse()
        return {"nodes": rows[: args.get("first") or 100], "totalCount": len(rows)}

    def _gql_item_connection(
        self,
        ctx: _Context,
        info: GraphQLResolveInfo,
        repo: _Repo,
        kind: str,
        args: dict[str, Any],
    ) -> dict[str, Any] | None:
        rows = [i for i in repo.items.values() if i.kind == kind and not i.deleted]
        filters = args.get("filterBy") or {}
        states = args.get("states") or filters.get("states")
        if states:
            rows = [i for i in rows if _gql_state(i) in states]
        labels = args.get("labels") or filters.get("labels")
        if labels:
            wanted = {x.lower() for x in labels}
            rows = [i for i in rows if wanted & {x.lower() for x in i.labels}]
        if filters.get("since"):
            since = _parse_time(str(filters["since"]))
            rows = [i for i in rows if i.updated_at >= since]
        if filters.get("createdBy"):
            rows = [i for i in rows if (i.author or "").lower() == filters["createdBy"].lower()]
        for name, ref in (("baseRefName", "base_ref"), ("headRefName", "head_ref")):
            if args.get(name):
                rows = [i for i in rows if getattr(i, ref) == args[name]]
        order = args.get("orderBy") or {"field": "CREATED_AT", "direction": "ASC"}
        sign = -1 if order.get("direction") == "DESC" else 1

        def key(i: r.ItemRecord) -> tuple[int, ...]:
            value = {
                "CREATED_AT": _epoch(i.created_at),
                "UPDATED_AT": _epoch(i.updated_at),
                "COMMENTS": i.comments_count,
            }[order.get("field", "CREATED_AT")]
            return (sign * value, sign * i.number)

        keyed = sorted(((key(i), i) for i in rows), key=lambda pair: pair[0])
        return _connection(ctx, info, args, keyed, lambda i: self._gql_item(ctx, repo, i))

    def _gql_item(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        if item.kind == "pr":
            return self._gql_pr(ctx, repo, item)
        return self._gql_issue(ctx, repo, item)

    def _gql_item_common(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        def comments(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = sorted(
                (c for c in repo.comments.values() if c.number == item.number and not c.deleted),
                key=lambda c: c.id,
            )
            keyed = [((c.id,), c) for c in rows]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda c: self._gql_comment(ctx, repo, c),
                total=item.comments_count,
            )

        def labels(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((n,), name) for n, name in enumerate(item.labels)]
            return _connection(
                ctx, info, args, keyed, lambda name: _gql_label(repo, self._labels(repo, [name])[0])
            )

        return {
            "id": item.github_id,
            "number": item.number,
            "title": item.title,
            "body": item.body or "",
            "bodyText": item.body or "",
            "url": item.url,
            "resourcePath": urlsplit(item.url or "").path,
            "author": _gql_actor(item.author, item.author_type),
            "authorAssociation": item.author_association or "NONE",
            "repository": lambda info: self._gql_repo(ctx, repo),
            "locked": item.locked,
            "closed": item.state == "closed",
            "createdAt": _iso(item.created_at),
            "updatedAt": _iso(item.updated_at),
            "closedAt": _iso(item.closed_at),
            "comments": comments,
            "labels": labels,
            "reactionGroups": _gql_reaction_groups(ctx, item.reactions),
        }

    def _gql_issue(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        reason = (item.state_reason or "").upper()
        return {
            **self._gql_item_common(ctx, repo, item),
            "__typename": "Issue",
            "databaseId": _stable_int(repo.full_name.lower(), "issue", item.number),
            "fullDatabaseId": str(_stable_int(repo.full_name.lower(), "issue", item.number)),
            "state": item.state.upper(),
            "stateReason": reason
            if reason in ("COMPLETED", "NOT_PLANNED", "REOPENED", "DUPLICATE")
            else None,
        }

    def _gql_pr(self, ctx: _Context, repo: _Repo, item: r.ItemRecord) -> dict[str, Any]:
        number = item.number

        def commits(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((n,), c) for n, c in enumerate(repo.pr_commits(number))]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda c: {
                    "id": _node_id("PURC", _stable_int(c[0])),
                    "url": f"{item.url}/commits/{c[0]}",
                    "resourcePath": f"/{repo.full_name}/pull/{number}/commits/{c[0]}",
                    "commit": {**_gql_commit(c[0]), "committedDate": _iso(c[1])},
                },
            )

        def thread_comments(root: r.ReviewCommentRecord) -> Callable[..., Any]:
            def resolve(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
                rows = [
                    rc
                    for rc in repo.review_comments.values()
                    if not rc.deleted and (rc.id == root.id or rc.in_reply_to_id == root.id)
                ]
                keyed = sorted(((rc.id,), rc) for rc in rows)
                return _connection(
                    ctx, info, args, keyed, lambda rc: self._gql_review_comment(ctx, repo, rc)
                )

            return resolve

        def reviews(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = [rv for rv in repo.reviews.values() if rv.number == number and not rv.deleted]
            if args.get("author"):
                rows = [rv for rv in rows if (rv.author or "").lower() == args["author"].lower()]
            if args.get("states"):
                rows = [rv for rv in rows if rv.state in args["states"]]
            keyed = sorted(((rv.id,), rv) for rv in rows)
            return _connection(ctx, info, args, keyed, lambda rv: self._gql_review(ctx, repo, rv))

        huge = (
            self.graphql_files_limit is not None
            and len(repo.files.get(number, {})) > self.graphql_files_limit
        )

        def files(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            if huge:
                return None  # GitHub gives up on a very large PR's files, with no error
            rows = repo.pr_files(number)
            keyed = [((n,), f) for n, f in enumerate(rows)]
            return _connection(ctx, info, args, keyed, _gql_file)

        def closing(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            refs = repo.closing_refs.get(number, [])
            keyed = [((n,), ref) for n, ref in enumerate(refs)]
            return _connection(ctx, info, args, keyed, lambda ref: self._gql_closing(ctx, ref))

        def review_threads(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            keyed = [((rc.id,), rc) for rc in repo.threads(number)]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda rc: {
                    "id": _node_id("PRRT", rc.id),
                    "isResolved": rc.id not in repo.unresolved,
                    # As GitHub: a later commit changed the lines (REST then clears `line`).
                    "isOutdated": rc.line is None and rc.original_line is not None,
                    "path": rc.path,
                    "line": rc.line,
                    "originalLine": rc.original_line,
                    "comments": thread_comments(rc),
                },
            )

        merged_by = _gql_actor(item.merged_by, None) if item.merged_by else None
        sha = item.merge_commit_sha
        review_comments = sum(
            1 for rc in repo.review_comments.values() if rc.number == number and not rc.deleted
        )
        return {
            **self._gql_item_common(ctx, repo, item),
            "__typename": "PullRequest",
            "databaseId": _stable_int(repo.full_name.lower(), "pull", number),
            "fullDatabaseId": str(_stable_int(repo.full_name.lower(), "pull", number)),
            "state": _gql_state(item),
            "isDraft": bool(item.draft),
            "activeLockReason": None,
            "mergedAt": _iso(item.merged_at),
            "merged": bool(item.merged),
            "mergedBy": merged_by,
            "mergeCommit": _gql_commit(sha) if sha else None,
            "updatedAt": _iso(repo.pull_updated.get(number, item.updated_at)),
            "additions": item.additions or 0,
            "deletions": item.deletions or 0,
            "changedFiles": 0 if huge else item.changed_files or 0,
            "commits": commits,
            "baseRefName": item.base_ref or "",
            "headRefName": item.head_ref or "",
            "headRefOid": item.head_sha or "",
            "baseRepository": lambda info: self._gql_repo(ctx, repo),
            "headRepository": lambda info: self._gql_repo(ctx, repo),
            "reviewDecision": item.review_decision,
            "reviews": reviews,
            "files": files,
            "closingIssuesReferences": closing,
            "reviewThreads": review_threads,
            "totalCommentsCount": item.comments_count + review_comments,
        }

    def _gql_closing(self, ctx: _Context, ref: r.ClosingRefRecord) -> dict[str, Any]:
        repo = self._repos.get(ref.issue_repo.lower())
        item = repo.items.get(ref.issue_number) if repo else None
        if repo is not None and item is not None and not item.deleted:
            return self._gql_issue(ctx, repo, item)
        # An issue in a repository the fake does not hold: a minimal stand-in.
        stub_repo = _Repo(r.RepositoryRecord(full_name=ref.issue_repo))
        stub_repo.record.github_id = _node_id("R", _stable_int("repo", ref.issue_repo.lower()))
        stub_repo.record.url = f"{WEB}/{ref.issue_repo}"
        stub = r.ItemRecord(
            number=ref.issue_number,
            kind="issue",
            title="",
            state="open",
            created_at=self.clock,
            updated_at=self.clock,
        )
        return self._gql_issue(ctx, stub_repo, self._normal_item(stub_repo, stub))

    def _gql_comment(self, ctx: _Context, repo: _Repo, c: r.CommentRecord) -> dict[str, Any]:
        item = repo.items.get(c.number)
        return {
            "__typename": "IssueComment",
            "id": c.github_id,
            "databaseId": c.id,
            "fullDatabaseId": str(c.id),
            "author": _gql_actor(c.author, c.author_type),
            "authorAssociation": c.author_association or "NONE",
            "body": c.body or "",
            "bodyText": c.body or "",
            "createdAt": _iso(c.created_at),
            "updatedAt": _iso(c.updated_at),
            "url": c.url,
            "reactionGroups": _gql_reaction_groups(ctx, c.reactions),
            "issue": (lambda info: self._gql_issue(ctx, repo, item)) if item else None,
            "pullRequest": (
                (lambda info: self._gql_pr(ctx, repo, item))
                if item is not None and item.kind == "pr"
                else None
            ),
        }

    def _gql_review(self, ctx: _Context, repo: _Repo, rv: r.ReviewRecord) -> dict[str, Any]:
        def comments(info: GraphQLResolveInfo, **args: Any) -> dict[str, Any] | None:
            rows = sorted(
                (
                    rc
                    for rc in repo.review_comments.values()
                    if rc.review_id == rv.id and not rc.deleted
                ),
                key=lambda rc: rc.id,
            )
            keyed = [((rc.id,), rc) for rc in rows]
            return _connection(
                ctx,
                info,
                args,
                keyed,
                lambda rc: self._gql_review_comment(ctx, repo, rc),
                total=rv.comments_count,
            )

        item = repo.items.get(rv.number)
        when = _iso(rv.submitted_at or (item.created_at if item else self.clock))
        return {
            "__typename": "PullRequestReview",
            "id": rv.github_id,
            "databaseId": None if rv.id in self.null_review_ids else rv.id,
            "fullDatabaseId": None if rv.id in self.null_review_ids else str(rv.id),
            "author": _gql_actor(rv.author, rv.author_type),
            "authorAssociation": rv.author_association or "NONE",
            "state": rv.state,
            "body": rv.body or "",
            "bodyText": rv.body or "",
            "submittedAt": _iso(rv.submitted_at),
            "createdAt": when,
            "updatedAt": when,
            "commit": _gql_commit(rv.commit_sha) if rv.commit_sha else None,
            "comments": comments,
            "url": rv.url,
            "reactionGroups": _gql_reaction_groups(ctx, {}),
            "pullRequest": (lambda info: self._gql_pr(ctx, repo, item)) if item else None,
        }

    def _gql_review_comment(
        self, ctx: _Context, repo: _Repo, rc: r.ReviewCommentRecord
    ) -> dict[str, Any]:
        item = repo.items.get(rc.number)
        review = repo.reviews.get(rc.review_id or -1)
        reply_to = repo.review_comments.get(rc.in_reply_to_id or -1)
        return {
            "__typename": "PullRequestReviewComment",
            "id": rc.github_id,
            "databaseId": rc.id,
            "fullDatabaseId": str(rc.id),
            "author": _gql_actor(rc.author, rc.author_type),
            "authorAssociation": rc.author_association or "NONE",
            "body": rc.body or "",
            "bodyText": rc.body or "",
            "path": rc.path,
            "line": rc.line,
            "originalLine": rc.original_line,
            "diffHunk": rc.diff_hunk or "",
            "createdAt": _iso(rc.created_at),
            "updatedAt": _iso(rc.updated_at),
            "url": rc.url,
            "commit": _gql_commit(rc.commit_sha) if rc.commit_sha else None,
            "reactionGroups": _gql_reaction_groups(ctx, rc.reactions),
            "pullRequest": (lambda info: self._gql_pr(ctx, repo, item)) if item else None,
            "pullRequestReview": (
                (lambda info: self._gql_review(ctx, repo, review)) if review else None
            ),
            "replyTo": (
                (lambda info: self._gql_review_comment(ctx, repo, reply_to)) if reply_to else None
            ),
        }


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


# -- GraphQL helpers -------------------------------------------------------------------------------


@dataclass
class _Context:
    fake: FakeGitHub
    cost: int = 1
    node_count: int = 0
    pagination_errors: list[dict[str, Any]] = field(default_factory=list)


def _corrupt(fault: Fault, real: _Response) -> _Response:
    """The wrong-but-well-formed answer a corruption fault serves in place of `real`."""
    headers = dict(real.headers)
    headers["Content-Type"] = "application/json; charset=utf-8"
    if fault.kind == "bad_body":
        payload = {} if fault.payload is None else fault.payload
        return _Response(200, _json(payload), headers, fault=fault.kind)
    if fault.kind == "null_repository":
        return _Response(200, _json({"data": {"repository": None}}), headers, fault=fault.kind)
    try:
        body = json.loads(real.body or b"null")
    except ValueError:
        body = None
    repo = ((body or {}).get("data") or {}).get("repository") if isinstance(body, dict) else None
    if not isinstance(body, dict) or not isinstance(repo, dict):
        return real  # nothing of the kind to corrupt (an error answer): served as it was
    if fault.kind == "zero_totals":
        _zero_counts(repo)
    elif fault.kind == "forbidden":
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
            if key == "totalCount":
                value[key] = 0
            else:
                _zero_counts(child)
    elif isinstance(value, list):
        for child in value:
            _zero_counts(child)


def _not_found(message: str) -> GraphQLError:
    return GraphQLError(message, extensions={"type": "NOT_FOUND"})


def _format_error(error: GraphQLError) -> dict[str, Any]:
    formatted = dict(error.formatted)
    extensions = dict(formatted.pop("extensions", None) or {})
    out: dict[str, Any] = {}
    if "type" in extensions:
        out["type"] = extensions.pop("type")
    out.update(formatted)
    if extensions:
        out["extensions"] = extensions
    return out


def _gql_state(item: r.ItemRecord) -> str:
    if item.kind == "pr" and item.merged:
        return "MERGED"
    return item.state.upper()


def _actor_node_id(login: str, kind: str) -> str:
    prefix = {"Bot": "BOT", "Organization": "O", "Mannequin": "MDE"}.get(kind, "U")
    return _node_id(prefix, _stable_int("user", login.lower()))


def _gql_actor(login: str | None, kind: str | None) -> dict[str, Any] | None:
    if login is None:
        return None  # a deleted account ("ghost") is a null author in GraphQL
    typename = _actor_type(login, kind) or "User"
    shown = login.removesuffix("[bot]") if typename == "Bot" else login
    url = f"{WEB}/apps/{shown}" if typename == "Bot" else f"{WEB}/{shown}"
    uid = _stable_int("user", login.lower())
    return {
        "__typename": typename,
        "id": _actor_node_id(login, typename),
        "databaseId": uid,
        "login": shown,
        "name": None,
        "email": None,
        "url": url,
        "resourcePath": urlsplit(url).path,
        "avatarUrl": lambda info, size=None: (
            f"https://avatars.githubusercontent.com/u/{uid}?v=4" + (f"&s={size}" if size else "")
        ),
    }


def _gql_commit(sha: str) -> dict[str, Any]:
    return {"id": _node_id("C", int(sha[:10], 16) if _is_hex(sha) else 1), "oid": sha,
            "abbreviatedOid": sha[:7]}  # fmt: skip


def _is_hex(value: str) -> bool:
    try:
        int(value[:10], 16)
    except ValueError:
        return False
    return bool(value)


def _gql_label(repo: _Repo, label: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": label["node_id"],
        "name": label["name"],
        "color": label["color"],
        "description": label["description"],
        "isDefault": False,
        "url": f"{repo.html_url}/labels/{label['name']}",
    }


def _gql_file(f: r.PRFileRecord) -> dict[str, Any]:
    return {
        "path": f.path,
        "additions": f.additions or 0,
        "deletions": f.deletions or 0,
        "changeType": CHANGE_TYPES.get((f.status or "modified").lower(), "MODIFIED"),
    }


def _gql_reaction_groups(ctx: _Context, reactions: dict[str, int]) -> list[dict[str, Any]]:
    groups = []
    for content, key in REACTION_CONTENTS:
        count = int(reactions.get(key, 0))

        def reactors(info: GraphQLResolveInfo, _count: int = count, **args: Any) -> Any:
            return _connection(ctx, info, args, [], lambda x: x, total=_count)

        groups.append(
            {
                "content": content,
                "createdAt": None,
                "reactors": reactors,
                "users": reactors,
                "viewerHasReacted": False,
            }
        )
    return groups


def _encode_cursor(key: tuple[int, ...]) -> str:
    packed = json.dumps(list(key), separators=(",", ":"))
    return base64.b64encode(f"cursor:v2:{packed}".encode()).decode()


def _decode_cursor(cursor: str) -> tuple[int, ...]:
    try:
        text = base64.b64decode(cursor.encode(), validate=True).decode()
        if not text.startswith("cursor:v2:"):
            raise ValueError(cursor)
        key = json.loads(text.removeprefix("cursor:v2:"))
        if not isinstance(key, list) or not all(isinstance(x, int) for x in key):
            raise ValueError(cursor)
        return tuple(key)
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise GraphQLError(
            f"`{cursor}` does not appear to be a valid cursor.",
            extensions={"type": "INVALID_CURSOR_ARGUMENTS"},
        ) from None


def _selects(info: GraphQLResolveInfo, names: set[str]) -> bool:
    """Does the query select any of `names` directly under this field?"""

    def walk(selection_set: SelectionSetNode | None) -> bool:
        if selection_set is None:
            return False
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and selection.name.value in names:
                return True
            if isinstance(selection, InlineFragmentNode) and walk(selection.selection_set):
                return True
            if isinstance(selection, FragmentSpreadNode):
                fragment = info.fragments.get(selection.name.value)
                if fragment is not None and walk(fragment.selection_set):
                    return True
        return False

    return any(walk(node.selection_set) for node in info.field_nodes)


def _connection(
    ctx: _Context,
    info: GraphQLResolveInfo,
    args: dict[str, Any],
    keyed: list[tuple[tuple[int, ...], Any]],
    to_node: Callable[[Any], Any],
    *,
    total: int | None = None,
) -> dict[str, Any] | None:
    """A Relay connection over rows already sorted by their cursor key, GitHub's limits applied."""
    name = info.field_name
    first, last = args.get("first"), args.get("last")
    problem: tuple[str, str] | None = None
    for arg, value in (("first", first), ("last", last)):
        if value is not None and value > CONNECTION_LIMIT:
            problem = (
                "EXCESSIVE_PAGINATION",
                f"Requesting {value} records on the `{name}` connection exceeds the "
                f"`{arg}` limit of {CONNECTION_LIMIT} records.",
            )
        elif value is not None and value < 0:
            problem = (
                "INVALID_PAGINATION",
                f"`{arg}` on the `{name}` connection cannot be negative.",
            )
    if problem is None and first is None and last is None and _selects(info, {"nodes", "edges"}):
        problem = (
            "MISSING_PAGINATION_BOUNDARIES",
            f"You must provide a `first` or `last` value to properly paginate the `{name}` "
            "connection.",
        )
    if problem is not None:
        error = GraphQLError(problem[1], info.field_nodes, path=info.path.as_list())
        ctx.pagination_errors.append({"type": problem[0], **error.formatted})
        return None
    window = keyed
    if args.get("after"):
        after = _decode_cursor(args["after"])
        window = [pair for pair in window if pair[0] > after]
    if args.get("before"):
        before = _decode_cursor(args["before"])
        window = [pair for pair in window if pair[0] < before]
    page = window
    has_next = has_prev = False
    if first is not None:
        page = window[:first]
        has_next = len(window) > first
        has_prev = bool(args.get("after")) and len(window) < len(keyed)
    if last is not None:
        has_prev = len(page) > last
        page = page[-last:] if last else []
        has_next = has_next or (bool(args.get("before")) and len(window) < len(keyed))
    cursors = [_encode_cursor(k) for k, _ in page]
    return {
        "totalCount": len(keyed) if total is None else total,
        "pageInfo": {
            "hasNextPage": has_next,
            "hasPreviousPage": has_prev,
            "startCursor": cursors[0] if cursors else None,
            "endCursor": cursors[-1] if cursors else None,
        },
        "nodes": lambda info: [to_node(obj) for _, obj in page],
        "edges": lambda info: [
            {"cursor": cursor, "node": to_node(obj)}
            for cursor, (_, obj) in zip(cursors, page, strict=True)
        ],
    }


def _count_fields(document: DocumentNode, name: str) -> int:
    """How many fields called `name` (aliases counted apart) the document selects."""
    count = 0

    def walk(selection_set: SelectionSetNode | None) -> None:
        nonlocal count
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode) and selection.name.value == name:
                count += 1
            if isinstance(selection, FieldNode | InlineFragmentNode):
                walk(selection.selection_set)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode | FragmentDefinitionNode):
            walk(definition.selection_set)
    return count


def _query_cost(document: DocumentNode, variables: dict[str, Any]) -> tuple[int, int]:
    """GitHub's documented cost (connection requests / 100, at least 1) and node count."""
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    requests = 0
    nodes = 0

    def size(node: FieldNode) -> int | None:
        for argument in node.arguments or ():
            if argument.name.value not in ("first", "last"):
                continue
            value = argument.value
            if isinstance(value, IntValueNode):
                return int(value.value)
            if isinstance(value, VariableNode):
                found = variables.get(value.name.value)
                return found if isinstance(found, int) else None
        return None

    def walk(selection_set: SelectionSetNode | None, multiplier: int, depth: int) -> None:
        nonlocal requests, nodes
        if selection_set is None or depth > 20:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                n = size(selection)
                if n is not None:
                    requests += multiplier
                    nodes += multiplier * n
                    walk(selection.selection_set, multiplier * max(n, 1), depth + 1)
                else:
                    walk(selection.selection_set, multiplier, depth + 1)
            elif isinstance(selection, InlineFragmentNode):
                walk(selection.selection_set, multiplier, depth + 1)
            elif isinstance(selection, FragmentSpreadNode):
                fragment = fragments.get(selection.name.value)
                if fragment is not None:
                    walk(fragment.selection_set, multiplier, depth + 1)

    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode):
            walk(definition.selection_set, 1, 0)
    return max(1, round(requests / 100)), nodes


# -- REST helpers ------------------------------------------------------------------------------


def _int_param(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _descending(direction: str | None, *, default: bool) -> bool:
    if direction is None:
        return default
    if direction not in ("asc", "desc"):
        raise _HTTPError(422, "Validation Failed")
    return direction == "desc"


def _since(value: str) -> datetime:
    try:
        return _parse_time(value)
    except ValueError:
        raise _HTTPError(422, "Validation Failed") from None


def _contains_token(text: str, needle: str) -> bool:
    """`needle` in `text`, not glued to a longer word: "page=2" is not in "per_page=2" or
    "page=20", "/pulls/4" is not in "/pulls/42", but "/issues" is in "/issues/comments"."""
    before = r"(?<![A-Za-z0-9_])" if needle[:1].isalnum() or needle[:1] == "_" else ""
    after = r"(?![A-Za-z0-9_])" if needle[-1:].isalnum() or needle[-1:] == "_" else ""
    return re.search(before + re.escape(needle) + after, text) is not None


def _etag_matches(header: str, tag: str) -> bool:
    wanted = [t.strip().removeprefix("W/") for t in header.split(",")]
    return "*" in wanted or tag in wanted


def _iter_records(path: str | Path) -> Iterator[r.Record]:
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                data = json.loads(line)
                if data.get("type") != "header":
                    yield r.RECORD_TYPES[data["type"]].model_validate(data)
