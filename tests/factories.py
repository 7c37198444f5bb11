"""Concise record builders for tests: only what a test cares about, sane defaults for the rest.

This is not the synthetic-data generator (testkit/generate.py): that one invents a whole
vLLM-scale week with long tails, consistent counts and realistic ids, for the fake GitHub,
the sync and the benchmarks, where no single record matters. Here every record is one a test
names and asserts on (`rec.pr(5, merged_at=...)`), so it is spelled out in the test itself and
everything the test does not mention gets a plain default. `seed` (testkit/seed.py, importable
from here too) writes either kind into a store.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from typing import Any

from testkit.seed import seed
from tidings.common import records as r

__all__ = ["T0", "Records", "seed", "ts"]

T0 = "2026-02-24T00:00:00Z"


def ts(value: str | datetime) -> datetime:
    """`2026-02-24T03:31:00Z` (or an aware datetime) as an aware UTC datetime."""
    if isinstance(value, datetime):
        return value.astimezone(UTC)
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


class Records:
    """Builders for every record type; ids for comments and reviews count up on their own."""

    def __init__(self) -> None:
        self._ids = itertools.count(1000)

    def repo(self, full_name: str = "acme/widgets", **kw: Any) -> r.RepositoryRecord:
        owner, _, name = full_name.partition("/")
        kw.setdefault("url", f"https://github.com/{owner}/{name}")
        return r.RepositoryRecord(full_name=full_name, **kw)

    def issue(self, number: int, created: str = T0, **kw: Any) -> r.ItemRecord:
        return self._item(number, "issue", created, kw)

    def pr(self, number: int, created: str = T0, **kw: Any) -> r.ItemRecord:
        kw.setdefault("draft", False)
        return self._item(number, "pr", created, kw)

    def git_pr(self, number: int, merged: str, **kw: Any) -> r.ItemRecord:
        """A merged PR as a git clone gives it: a git author's name, no time it was opened."""
        kw.setdefault("author", "Git Author")
        kw.setdefault("author_type", r.GIT_AUTHOR)
        kw.setdefault("source", "git")
        kw.setdefault("draft", False)
        return self._item(number, "pr", None, {"merged_at": merged, **kw})

    def _item(
        self, number: int, kind: str, created: str | None, kw: dict[str, Any]
    ) -> r.ItemRecord:
        kw.setdefault("title", f"{kind} {number}")
        kw.setdefault("author", "alice")
        kw.setdefault("author_type", "User")
        for key in ("closed_at", "merged_at", "updated_at"):
            if isinstance(kw.get(key), str):
                kw[key] = ts(kw[key])
        closed = kw.get("closed_at") or kw.get("merged_at")
        kw.setdefault("state", "closed" if closed else "open")
        if kw.get("merged_at") is not None:
            kw.setdefault("closed_at", kw["merged_at"])
            kw.setdefault("merged", True)
        elif kind == "pr":
            kw.setdefault("merged", False)
        opened = ts(created) if created is not None else None
        kw.setdefault("updated_at", max(x for x in (opened, kw.get("closed_at")) if x))
        return r.ItemRecord(number=number, kind=kind, created_at=opened, **kw)

    def comment(self, number: int, created: str = T0, **kw: Any) -> r.CommentRecord:
        kw.setdefault("id", next(self._ids))
        kw.setdefault("author", "bob")
        kw.setdefault("author_type", "User")
        kw.setdefault("body", "looks good")
        kw.setdefault("updated_at", ts(created))
        return r.CommentRecord(number=number, created_at=ts(created), **kw)

    def review(self, number: int, submitted: str = T0, **kw: Any) -> r.ReviewRecord:
        kw.setdefault("id", next(self._ids))
        kw.setdefault("author", "carol")
        kw.setdefault("author_type", "User")
        kw.setdefault("state", "APPROVED")
        return r.ReviewRecord(number=number, submitted_at=ts(submitted), **kw)

    def review_comment(self, number: int, created: str = T0, **kw: Any) -> r.ReviewCommentRecord:
        kw.setdefault("id", next(self._ids))
        kw.setdefault("author", "carol")
        kw.setdefault("author_type", "User")
        kw.setdefault("path", "src/app.py")
        kw.setdefault("updated_at", ts(created))
        return r.ReviewCommentRecord(number=number, created_at=ts(created), **kw)

    def file(
        self, number: int, path: str, additions: int = 1, deletions: int = 0, **kw: Any
    ) -> r.PRFileRecord:
        kw.setdefault("status", "modified")
        return r.PRFileRecord(
            number=number, path=path, additions=additions, deletions=deletions, **kw
        )

    def thread(
        self, number: int, comment_id: int, resolved: bool | None = False, outdated: bool = False
    ) -> r.ReviewThreadRecord:
        return r.ReviewThreadRecord(
            number=number, comment_id=comment_id, resolved=resolved, outdated=outdated
        )

    def commit(self, number: int, sha: str, committed: str | None = T0) -> r.PRCommitRecord:
        return r.PRCommitRecord(
            number=number, sha=sha, committed_at=ts(committed) if committed else None
        )

    def closing_ref(
        self, number: int, issue_number: int, issue_repo: str = "acme/widgets"
    ) -> r.ClosingRefRecord:
        return r.ClosingRefRecord(number=number, issue_repo=issue_repo, issue_number=issue_number)

    def sync_state(
        self, stream: str, cursor: str | None = None, updated: str = T0
    ) -> r.SyncStateRecord:
        return r.SyncStateRecord(stream=stream, cursor=cursor, updated_at=ts(updated))


def finished_sync(store: Any, repo: Any) -> dict[str, int]:
    """A stand-in for `tidings run`'s GitHub sync that fetches nothing but, as a real sync does
    when it finishes, marks the repository synced now: its data then reaches every closed
    window, so the run's coverage check lets the due reports through."""
    from tidings.store.freshness import SYNCED_STREAM

    with store.begin() as conn:
        store.set_cursor(conn, store.repo_id(conn, repo.name, create=True), SYNCED_STREAM, None)
    return {}
