"""Inline review threads of PRs, and whether a later commit touched what they point at.

A thread is a root inline review comment (`in_reply_to_id` empty) with its replies. GitHub
keeps a comment's `line` while the lines it sits on are unchanged in the PR's diff and clears
it (keeping `original_line`) once a later commit changes them: the comment is then "outdated".
So, read after the merge, `outdated is False` is a fact worth a risk observation: the reviewer
raised something and no later commit touched those lines. It does not say the point was
wrong or unanswered in words; `author_replied` says whether the PR's author replied at all.
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
        threads.append(
            ReviewThread(
                number=root.number,
                login=root.author,
                bot=is_bot(root.author, root.author_type, bots),
                path=root.path,
                line=root.line,
                original_line=root.original_line,
                outdated=root.line is None and root.original_line is not None,
                body=root.body or "",
                hunk_tail=tuple(hunk[-4:]),
                created_at=root.created_at,
                replies=len(replies[root.id]),
                author_replied=author is not None and author in replies[root.id],
            )
        )
    return out
