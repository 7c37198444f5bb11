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
facts/load/reviews.py reads the comments, states and commit times.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from tidings.facts.actors import is_bot

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


@dataclass(frozen=True, slots=True)
class InlineComment:
    """A stored inline review comment: a thread's root (`in_reply_to_id` None) or a reply."""

    id: int
    number: int  # the PR
    in_reply_to_id: int | None
    author: str | None
    author_type: str | None
    author_association: str | None
    path: str
    line: int | None  # None once outdated
    original_line: int | None
    diff_hunk: str | None
    body: str | None  # untrusted
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ThreadStatus:
    """A thread's state as the GitHub sync's GraphQL details give it."""

    resolved: bool | None
    outdated: bool


@dataclass(frozen=True)
class ThreadRows:
    """What `review_threads` reads for a set of PRs, as stored: their inline comments (by PR,
    oldest first), the threads' states by first comment id and the PRs' commit times. Read
    once for several windows' PRs (a week's days), then threaded per window."""

    comments: list[InlineComment]
    states: dict[int, ThreadStatus]
    commits: dict[int, list[datetime]]

    def threads(
        self, numbers: Iterable[int], authors: Mapping[int, str | None], bots: Iterable[str] = ()
    ) -> dict[int, list[ReviewThread]]:
        """The review threads of the PRs in `numbers` (among those read), as `review_threads`
        gives them."""
        wanted = set(numbers)
        rows = [c for c in self.comments if c.number in wanted]
        return review_threads(rows, self.states, self.commits, authors, bots)


def review_threads(
    comments: Iterable[InlineComment],
    states: Mapping[int, ThreadStatus],
    commits: Mapping[int, list[datetime]],
    authors: Mapping[int, str | None],
    bots: Iterable[str] = (),
) -> dict[int, list[ReviewThread]]:
    """Each PR's inline review threads raised by someone other than its author, oldest first,
    from its comments (by PR, oldest first), the threads' states by their first comment's id
    and the PRs' commit times, where the store has them."""
    rows = list(comments)
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
                outdated=state.outdated if state is not None else outdated,
                body=root.body or "",
                hunk_tail=tuple(hunk[-4:]),
                created_at=root.created_at,
                replies=len(replies[root.id]),
                author_replied=author is not None and author in replies[root.id],
                resolved=state.resolved if state is not None else None,
                commits_after=(
                    sum(1 for t in times if t > root.created_at) if times is not None else None
                ),
            )
        )
    return out
