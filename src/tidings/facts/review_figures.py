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
read since migration 0006, has no rows: no figures, never zeros.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema


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


def load_thread_figures(
    conn: Connection, repo_id: int, numbers: Iterable[int], end: datetime
) -> dict[int, ThreadFigures]:
    """Each PR's thread figures at the window ending `end` (threads raised and commits made
    before it), for the PRs in `numbers` with review threads in the store."""
    rt, rc, pc = schema.review_threads, schema.review_comments, schema.pr_commits
    wanted = sorted(set(numbers))
    states: dict[int, list[ThreadState]] = {}
    commits: dict[int, list[datetime]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        rows = conn.execute(
            sa.select(rt.c.number, rt.c.comment_id, rt.c.resolved, rc.c.created_at)
            .select_from(
                rt.outerjoin(
                    rc,
                    sa.and_(
                        rc.c.repo_id == rt.c.repo_id,
                        rc.c.number == rt.c.number,
                        rc.c.id == rt.c.comment_id,
                    ),
                )
            )
            .where(rt.c.repo_id == repo_id, rt.c.number.in_(chunk), rt.c.resolved.is_not(None))
            .order_by(rt.c.number, rt.c.comment_id)
        )
        for number, _comment, resolved, raised in rows:
            if raised is not None and raised >= end:
                continue  # raised after the window: not part of what it reports
            states.setdefault(number, []).append(ThreadState(bool(resolved), raised))
        for number, at in conn.execute(
            sa.select(pc.c.number, pc.c.committed_at).where(
                pc.c.repo_id == repo_id, pc.c.number.in_(chunk), pc.c.committed_at.is_not(None)
            )
        ):
            if at < end:
                commits.setdefault(number, []).append(at)
    out: dict[int, ThreadFigures] = {}
    for number, threads in states.items():
        # A PR always has a commit: none stored means its commits were not read.
        figures = thread_figures(threads, commits.get(number))
        if figures is not None:
            out[number] = figures
    return out
