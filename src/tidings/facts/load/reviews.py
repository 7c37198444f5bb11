"""What reviewers said and left open on PRs: inline review threads (facts/threads.py), review
notes (facts/review_notes.py) and thread figures (facts/review_figures.py), read from the
store in chunks of PRs.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.load.window import comment_of
from tidings.facts.review_figures import ThreadFigures, ThreadState, thread_figures
from tidings.facts.review_notes import ReviewNote, review_notes
from tidings.facts.roles import Roles
from tidings.facts.threads import InlineComment, ReviewThread, ThreadRows, ThreadStatus
from tidings.store import schema
from tidings.store.comments import review_record

_CHUNK = 500  # PR numbers to a query

_rc = schema.review_comments
# The inline comment columns the facts read, in InlineComment's order.
_INLINE = (
    _rc.c.id,
    _rc.c.number,
    _rc.c.in_reply_to_id,
    _rc.c.author,
    _rc.c.author_type,
    _rc.c.author_association,
    _rc.c.path,
    _rc.c.line,
    _rc.c.original_line,
    _rc.c.diff_hunk,
    _rc.c.body,
    _rc.c.created_at,
)


def _inline(row: sa.RowMapping) -> InlineComment:
    return InlineComment(**{c.name: row[c.name] for c in _INLINE})


def load_threads(
    conn: Connection,
    repo_id: int,
    numbers: Iterable[int],
    authors: dict[int, str | None],
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewThread]]:
    """Each PR's inline review threads raised by someone other than its author, oldest first."""
    wanted = set(numbers)
    return read_threads(conn, repo_id, wanted).threads(wanted, authors, bots)


def read_threads(conn: Connection, repo_id: int, numbers: Iterable[int]) -> ThreadRows:
    """The stored inline comments, thread states and commit times of the PRs in `numbers`."""
    wanted = sorted(set(numbers))
    rc = _rc
    rows: list[InlineComment] = []
    for start in range(0, len(wanted), _CHUNK):
        rows += (
            _inline(row)
            for row in conn.execute(
                sa.select(*_INLINE)
                .where(
                    rc.c.repo_id == repo_id,
                    ~rc.c.deleted,
                    rc.c.number.in_(wanted[start : start + _CHUNK]),
                )
                .order_by(rc.c.number, rc.c.created_at, rc.c.id)
            ).mappings()
        )
    states, commits = _states(conn, repo_id, wanted)
    return ThreadRows(rows, states, commits)


def _states(
    conn: Connection, repo_id: int, numbers: list[int]
) -> tuple[dict[int, ThreadStatus], dict[int, list[datetime]]]:
    """Threads' states by first comment id, and each PR's commit times, where the GitHub sync
    read them."""
    rt, pc = schema.review_threads, schema.pr_commits
    states: dict[int, ThreadStatus] = {}
    commits: dict[int, list[datetime]] = {}
    for start in range(0, len(numbers), _CHUNK):
        chunk = numbers[start : start + _CHUNK]
        for comment_id, resolved, outdated in conn.execute(
            sa.select(rt.c.comment_id, rt.c.resolved, rt.c.outdated).where(
                rt.c.repo_id == repo_id, rt.c.number.in_(chunk)
            )
        ):
            states[comment_id] = ThreadStatus(resolved, bool(outdated))
        for number, at in conn.execute(
            sa.select(pc.c.number, pc.c.committed_at).where(
                pc.c.repo_id == repo_id, pc.c.number.in_(chunk), pc.c.committed_at.is_not(None)
            )
        ):
            commits.setdefault(number, []).append(at)
    return states, commits


def load_review_notes(
    conn: Connection,
    repo_id: int,
    numbers: Iterable[int],
    before: datetime,
    roles: Roles,
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewNote]]:
    """Each PR's review notes made before `before`, oldest first (PRs with none are absent)."""
    reviews, comments = review_record(conn, repo_id, numbers, before)
    return review_notes(
        [comment_of(row, "review", row["submitted_at"]) for row in reviews],
        [_inline(row) for row in comments],
        roles,
        bots,
    )


def load_thread_figures(
    conn: Connection, repo_id: int, numbers: Iterable[int], end: datetime
) -> dict[int, ThreadFigures]:
    """Each PR's thread figures at the window ending `end` (threads raised and commits made
    before it), for the PRs in `numbers` with review threads in the store."""
    rt, rc, pc = schema.review_threads, _rc, schema.pr_commits
    wanted = sorted(set(numbers))
    states: dict[int, list[ThreadState]] = {}
    commits: dict[int, list[datetime]] = {}
    for start in range(0, len(wanted), _CHUNK):
        chunk = wanted[start : start + _CHUNK]
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
