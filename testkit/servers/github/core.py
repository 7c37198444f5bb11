"""The fake's state and what every side of it shares: data in and out, the clock, lookups."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from testkit.servers.github.constants import WEB
from testkit.servers.github.encoding import _node_id, _stable_int
from testkit.servers.github.normalise import (
    _fill_pr_defaults,
    _normal_comment,
    _normal_item,
    _normal_review,
    _normal_review_comment,
)
from testkit.servers.github.rate_limits import _Budget
from testkit.servers.github.state import _Repo
from testkit.servers.github.wire import LoggedRequest, Request
from tidings.common import records as r

if TYPE_CHECKING:
    from testkit.servers.github.fake import FakeGitHub
    from testkit.servers.github.faults import Fault
    from testkit.servers.github.server import _Server


class FakeCore:
    """The fake's state: repositories, clock, log, faults and budgets, behind one lock.

    The mixins beside this module each add one side of GitHub (mutations, REST, GraphQL, faults)
    over it; `FakeGitHub` (fake.py) puts them together.
    """

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
        # Seconds GitHub's search index trails the clock (search.py): items created within it
        # are not counted yet, items deleted within it still are.
        self.search_lag = 0.0
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

    # -- where it listens ---------------------------------------------------------------------

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
                _fill_pr_defaults(repo)
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
            repo.items[record.number] = _normal_item(repo, record)
            self._see(record.created_at, record.updated_at, record.closed_at, record.merged_at)
        elif isinstance(record, r.CommentRecord):
            repo.comments[record.id] = _normal_comment(repo, record)
            self._see(record.created_at, record.updated_at)
            self._next_id = max(self._next_id, record.id + 1)
        elif isinstance(record, r.ReviewRecord):
            repo.reviews[record.id] = _normal_review(repo, record)
            self._see(record.submitted_at)
            self._next_id = max(self._next_id, record.id + 1)
        elif isinstance(record, r.ReviewCommentRecord):
            repo.review_comments[record.id] = _normal_review_comment(repo, record)
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

    # -- the clock and lookups ------------------------------------------------------------------

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
