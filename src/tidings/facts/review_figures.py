"""How a PR's review threads ended, in figures a report can state and a reader can recount.

For each PR: the review threads GitHub lists with their resolution (`review_threads`, from the
GitHub sync's GraphQL details), how many are still unresolved, how many were resolved although
no commit of the PR was made after the thread was raised, and how many a later commit followed
(`pr_commits`' commit times, compared with the thread's first comment). Every thread counts,
the author's own and an automated reviewer's too, as in GitHub's count of unresolved threads
(the `follow_up_promised` rule's figure), so the two never disagree.

What "at the window's end" can mean here: threads raised and commits made before the window's
end count; resolution is the state the last sync read (the store keeps no time for it; for a
merged PR it rarely moves after the merge). A git-only store, or a PR whose details were not
read since migration 0006, has no rows: no figures, never zeros. facts/load/reviews.py reads
the threads and commit times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class ThreadFigures:
    threads: int  # review threads with a known resolution
    unresolved: int
    # Resolved, and no commit made after the thread was raised; None where commit times or
    # the thread's first comment are not in the store.
    resolved_without_commit: int | None
    followed_by_commit: int | None  # threads with at least one commit made after them


@dataclass(frozen=True, slots=True)
class ThreadState:
    resolved: bool
    raised_at: datetime | None  # its first comment's time; None when that comment is not stored


def thread_figures(
    threads: Sequence[ThreadState], commits: Sequence[datetime] | None
) -> ThreadFigures | None:
    """The figures of one PR's threads against its commit times (None: not known); None for
    a PR without threads."""
    if not threads:
        return None
    unresolved = sum(1 for t in threads if not t.resolved)
    timed = commits is not None and all(t.raised_at is not None for t in threads)
    if not timed or commits is None:
        return ThreadFigures(len(threads), unresolved, None, None)
    followed = [t.raised_at is not None and any(c > t.raised_at for c in commits) for t in threads]
    return ThreadFigures(
        threads=len(threads),
        unresolved=unresolved,
        resolved_without_commit=sum(
            1 for t, after in zip(threads, followed, strict=True) if t.resolved and not after
        ),
        followed_by_commit=sum(followed),
    )
