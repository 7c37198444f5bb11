"""Inline review threads of PRs, and whether a later commit touched what they point at.

A thread is a root inline review comment (`in_reply_to_id` empty) with its replies. GitHub
keeps a comment's `line` while the lines it sits on are unchanged in the PR's diff and clears
it (keeping `original_line`) once a later commit changes them: the comment is then "outdated".
So, read after the merge, `outdated is False` is a fact worth a risk observation: the reviewer
raised something and no later commit touched those lines. It does not say the point was
wrong or unanswered in words; `author_replied` says whether the PR's author replied at all.
Where the GitHub sync read the PR's details, GraphQL adds what REST does not say: whether the
thread was resolved, GitHub's own outdated flag (preferred to the cleared `line`), and the PR's
commits with their commit times, so `commits_after` counts the commits made after the point was
raised (commit times, not push times, which GitHub no longer gives: a commit made earlier and
pushed later is not counted). "Raised by X, no later commit touched it" is then a thread not
outdated, and unresolved or followed by no commit at all.
Only the GitHub API gives inline comments: a git-only store has no threads (the caller says so).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.actors import is_bot
from tidings.store import schema

MAX_THREADS = 6  # per PR: the earliest root comments, enough for a card


@dataclass(frozen=True, slots=True)
class ReviewThread:
    number: int  # the PR
    login: str | None  # who raised it
    bot: bool  # an automated reviewer (code-review apps are frequent and often right)
    path: str
    line: int | None  # None once outdated
    original_line: int | None
    outdated: bool  # a later commit changed the lines the comment is on
    body: str  # untrusted
    hunk_tail: tuple[str, ...]  # the last lines of the diff hunk it sits under (untrusted)
    created_at: datetime
    replies: int
    author_replied: bool  # the PR's author wrote in the thread
    resolved: bool | None = None  # None: not known (no GraphQL details read)
    commits_after: int | None = None  # commits made after it was raised; None: not known


def load_threads(
    conn: Connection,
    repo_id: int,
    numbers: Iterable[int],
    authors: dict[int, str | None],
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewThread]]:
    """Each PR's inline review threads raised by someone other than its author, oldest first."""
    wanted = sorted(set(numbers))
    rc = schema.review_comments
    rows: list[Any] = []
    for start in range(0, len(wanted), 500):
        rows += conn.execute(
            sa.select(
                rc.c.id,
                rc.c.number,
                rc.c.in_reply_to_id,
                rc.c.author,
                rc.c.author_type,
                rc.c.path,
                rc.c.line,
                rc.c.original_line,
                rc.c.diff_hunk,
                rc.c.body,
                rc.c.created_at,
            )
            .where(
                rc.c.repo_id == repo_id,
                ~rc.c.deleted,
                rc.c.number.in_(wanted[start : start + 500]),
            )
            .order_by(rc.c.number, rc.c.created_at, rc.c.id)
        ).all()
    states, commits = _states(conn, repo_id, wanted)
    roots = {r.id: r for r in rows if r.in_reply_to_id is None}
    replies: dict[int, list[str | None]] = {k: [] for k in roots}
    for r in rows:
        if r.in_reply_to_id in replies:
            replies[r.in_reply_to_id].append(r.author)
    bots = tuple(bots)
    out: dict[int, list[ReviewThread]] = {}
    for root in roots.values():
        author = authors.get(root.number)
        if root.author is not None and root.author == author:
            continue  # the author annotating their own diff raises nothing
        threads = out.setdefault(root.number, [])
        if len(threads) >= MAX_THREADS:
            continue
        hunk = [x for x in (root.diff_hunk or "").splitlines() if not x.startswith("@@")]
        state = states.get(root.id)
        outdated = root.line is None and root.original_line is not None
        times = commits.get(root.number)
        threads.append(
            ReviewThread(
                number=root.number,
                login=root.author,
                bot=is_bot(root.author, root.author_type, bots),
                path=root.path,
                line=root.line,
                original_line=root.original_line,
                outdated=state[1] if state is not None else outdated,
                body=root.body or "",
                hunk_tail=tuple(hunk[-4:]),
                created_at=root.created_at,
                replies=len(replies[root.id]),
                author_replied=author is not None and author in replies[root.id],
                resolved=state[0] if state is not None else None,
                commits_after=(
                    sum(1 for t in times if t > root.created_at) if times is not None else None
                ),
            )
        )
    return out


def _states(
    conn: Connection, repo_id: int, numbers: list[int]
) -> tuple[dict[int, tuple[bool | None, bool]], dict[int, list[datetime]]]:
    """Threads' (resolved, outdated) by first comment id, and each PR's commit times, where
    the GitHub sync read them."""
    rt, pc = schema.review_threads, schema.pr_commits
    states: dict[int, tuple[bool | None, bool]] = {}
    commits: dict[int, list[datetime]] = {}
    for start in range(0, len(numbers), 500):
        chunk = numbers[start : start + 500]
        for comment_id, resolved, outdated in conn.execute(
            sa.select(rt.c.comment_id, rt.c.resolved, rt.c.outdated).where(
                rt.c.repo_id == repo_id, rt.c.number.in_(chunk)
            )
        ):
            states[comment_id] = (resolved, bool(outdated))
        for number, at in conn.execute(
            sa.select(pc.c.number, pc.c.committed_at).where(
                pc.c.repo_id == repo_id, pc.c.number.in_(chunk), pc.c.committed_at.is_not(None)
            )
        ):
            commits.setdefault(number, []).append(at)
    return states, commits
