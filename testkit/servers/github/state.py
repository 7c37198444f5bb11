"""What the fake holds for one repository: its records, and what GitHub tracks beside them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from testkit.servers.github.constants import MAX_PR_FILES, WEB
from testkit.servers.github.encoding import _sha, _stable_int
from tidings.common import records as r

# A repository's `created_at` where it holds no items to date it by.
REPO_EPOCH = datetime(2020, 1, 1, tzinfo=UTC)


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
    # When each deleted item was deleted (FakeGitHub.delete_item), for the search index's lag.
    deleted_at: dict[int, datetime] = field(default_factory=dict)
    # A PR's pull request record's own updated_at, where it lags its issue record's (the
    # item's `updated_at`): see FakeGitHub.split_update_times.
    pull_updated: dict[int, datetime] = field(default_factory=dict)
    # Commits pushed to a PR after its records were loaded (FakeGitHub.push_commit), oldest
    # first; records keep a count only, so the rest are made up (`pr_commits`).
    pushed: dict[int, list[tuple[str, datetime]]] = field(default_factory=dict)
    # Discussions: the categories (name -> node id) and the discussions created, oldest first.
    discussion_categories: dict[str, str] = field(default_factory=dict)
    discussions: list[dict[str, Any]] = field(default_factory=list)
    # What else GitHub's repository object carries, and what moves it. Its ETag changes with
    # any of it: a push (`pushed_at`, `size`), a star, a fork, and every issue or PR opened,
    # closed or deleted (`open_issues_count`), so a conditional GET /repos/{owner}/{name} by
    # ETag is a paid 200 after almost any activity. Its `updated_at` (and `Last-Modified`,
    # which is the same time) moves only with stars, forks and settings (name, description,
    # default branch), not with pushes or issues: answers GitHub gave show `pushed_at` after
    # `updated_at` and `Last-Modified` equal to `updated_at`.
    pushed_at: datetime | None = None
    pushes: int = 0
    stars: int = 0
    starred_at: datetime | None = None
    forks: int = 0
    forked_at: datetime | None = None
    settings_at: datetime | None = None  # the last settings change (FakeGitHub.update_repository)

    @property
    def full_name(self) -> str:
        return self.record.full_name

    @property
    def rest_id(self) -> int:
        return _stable_int("repo", self.full_name.lower())

    @property
    def created_at(self) -> datetime:
        """When the repository was made: its first item's time (records do not say)."""
        times = [i.created_at for i in self.items.values() if i.created_at is not None]
        return min(times, default=REPO_EPOCH)

    @property
    def updated_at(self) -> datetime:
        moves = (self.settings_at, self.starred_at, self.forked_at)
        return max((t for t in moves if t is not None), default=self.created_at)

    @property
    def open_issues_count(self) -> int:
        """GitHub's count of open issues and PRs together."""
        return sum(1 for i in self.items.values() if i.state == "open" and not i.deleted)

    @property
    def size_kb(self) -> int:
        """`size`, in KB: a made-up base that grows with every push."""
        return 1_000 + _stable_int("size", self.full_name.lower()) % 50_000 + 7 * self.pushes

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
