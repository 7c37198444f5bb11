"""Mutations: issues, PRs, comments, reviews, pushes and stars changing at the clock."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal, cast

from testkit.servers.github.core import FakeCore
from testkit.servers.github.encoding import _actor_type, _sha
from testkit.servers.github.normalise import (
    _fill_pr_defaults,
    _normal_comment,
    _normal_item,
    _normal_review,
    _normal_review_comment,
)
from tidings.common import records as r


class MutationsMixin(FakeCore):
    """What happens on GitHub between two syncs, at the fake's clock."""

    def push(self, repo: str | None = None) -> None:
        """A push to the repository at the clock: its `pushed_at` and `size` move (so its ETag
        does), its `updated_at` and `Last-Modified` do not, as on GitHub (state.py)."""
        with self._lock:
            data = self._repo(repo)
            data.pushed_at = self.clock
            data.pushes += 1

    def star(self, repo: str | None = None) -> None:
        """Someone stars the repository: `stargazers_count` and `updated_at` change."""
        with self._lock:
            data = self._repo(repo)
            data.stars += 1
            data.starred_at = self.clock

    def fork(self, repo: str | None = None) -> None:
        """Someone forks the repository: `forks_count` and `updated_at` change."""
        with self._lock:
            data = self._repo(repo)
            data.forks += 1
            data.forked_at = self.clock

    def update_repository(self, repo: str | None = None, /, **fields: Any) -> r.RepositoryRecord:
        """Change the repository's settings (`description`, `default_branch`) at the clock: its
        `updated_at` and `Last-Modified` move."""
        with self._lock:
            data = self._repo(repo)
            data.record = data.record.model_copy(update=fields)
            data.settings_at = self.clock
            return data.record.model_copy(deep=True)

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
            updated = _normal_item(data, r.ItemRecord.model_validate(values))
            data.items[updated.number] = updated
            data.pull_updated.pop(updated.number, None)  # an edit moves both records
            _fill_pr_defaults(data)
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
            data.items[num] = _normal_item(data, item)
            _fill_pr_defaults(data)
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
            data.deleted_at[cast(int, num)] = self.clock

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
            data.comments[comment.id] = _normal_comment(data, comment)
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
            data.reviews[review.id] = _normal_review(data, review)
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
                data.reviews[review.id] = _normal_review(data, review)
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
            data.review_comments[comment.id] = _normal_review_comment(data, comment)
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
