"""What every stage of one GitHub sync shares: the store, the client, the repository, the
summary being written, and the options the sync was started with."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime

from tidings.common.progress import Progress
from tidings.sources.github import queries
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.summary import SyncReport
from tidings.store import Store

log = logging.getLogger("tidings.github")


def _quiet(_stage: str, _done: int, _total: int | None) -> None:
    pass


@dataclass
class SyncContext:
    store: Store
    client: GitHubClient
    owner: str
    name: str
    report: SyncReport
    since: datetime | None = None  # `--since`: start the listings here instead of the cursors
    progress: Progress = _quiet
    verify: bool = False  # compare repository totals even when no listing changed
    pr_batch: int = 25
    teams: list[str] = field(default_factory=list)
    repo_id: int = 0  # set by the repository stage
    # Items whose threads are re-listed on a comment shortfall even in a `--since` sync: those
    # that may hold comments of a second the comment listing could not page through.
    recheck: set[int] = field(default_factory=set)
    # Item numbers the comment listings named this sync, for orphans.py.
    parents: set[int] = field(default_factory=set)
    # The review id field the server knows (older GitHub Enterprise lacks `fullDatabaseId`).
    review_id: str = queries.REVIEW_ID_FIELDS[0]
    # Merged PRs whose changed lines are fetched: those merged at or after this (None: none).
    patches_since: datetime | None = None

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.name}"

    @property
    def vars(self) -> dict[str, str]:
        """The GraphQL variables naming the repository."""
        return {"owner": self.owner, "name": self.name}

    def note(self, text: str) -> None:
        """A line for the sync summary (and the log), said once however often it comes up
        (a record skipped by two listings, say)."""
        if text in self.report.notes:
            return
        self.report.notes.append(text)
        log.warning("%s: %s", self.full_name, text)

    def say(self, text: str, *, warn: bool = True) -> None:
        """A line for the sync summary each time it comes up (and the log, if `warn`)."""
        self.report.notes.append(text)
        if warn:
            log.warning("%s: %s", self.full_name, text)
