"""Who did the work: authors, reviewers, commenters, first-timers, review latency.

A first-time contributor is someone whose first contribution reached the repository in the
window. Each source says it its own way:

- an item from GitHub carries GitHub's word, its `author_association` (FIRST_TIME_CONTRIBUTOR
  or FIRST_TIMER: the author had no commit in the repository before it), counted in the window
  where the item was opened or merged;
- a PR from a git clone carries no association, so the store's history says it: its author
  (by the git name, without case) merged no PR before this window, and this PR is their first
  merge. That holds only when the stored history reaches the repository's first commit
  (store/history.py); otherwise the window's first-timers are unknown, never "none".
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from tidings.facts.activity_data import Item, WindowData
from tidings.facts.actors import is_bot, is_git_name
from tidings.facts.roles import FIRST_TIMER_ASSOCIATIONS

# What the top authors are ranked by: items opened in the window, or PRs merged in it.
AuthorsBy = Literal["opened", "merged"]


@dataclass(frozen=True)
class ActivityFacts:
    top_authors: list[tuple[str, int]]  # by items opened in the window, or by PRs merged
    top_reviewers: list[tuple[str, int]]
    top_commenters: list[tuple[str, int]]
    first_timers: list[tuple[str, int]]  # login, the item that made them a first-timer
    review_latency_hours_median: float | None
    review_latency_sample: int
    authors_by: AuthorsBy = "opened"
    # False when the window's git PRs cannot say whose merge was a first (the stored history
    # does not reach the repository's start): `first_timers` then holds only GitHub's word.
    first_timers_known: bool = True
    # True when PRs from git are among the window's merges: for them "first-time" means the
    # author's first merged PR (a clone knows no opened PR).
    first_timers_by_merge: bool = False


def _top(counter: Counter[str], n: int) -> list[tuple[str, int]]:
    return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0].lower()))[:n]


def activity_facts(
    data: WindowData, bots: list[str], n: int = 5, *, by_merged: bool = False
) -> ActivityFacts:
    """`by_merged`: authors are ranked by the PRs they merged in the window, for sources that
    cannot know who opened what (a git clone); otherwise by the issues and PRs they opened."""
    authors: Counter[str] = Counter()
    first: dict[str, int] = {}
    for number in sorted(data.active):
        item = data.items[number]
        if item.author is None or is_bot(item.author, item.author_type, bots):
            continue
        if data.in_window(item.merged_at if by_merged else item.created_at):
            authors[item.author] += 1
        # GitHub marks an author's first PR or issue in the repository; it counts in the window
        # where that item was opened or merged.
        new_or_merged = data.in_window(item.created_at) or data.in_window(item.merged_at)
        if new_or_merged and item.author_association in FIRST_TIMER_ASSOCIATIONS:
            first.setdefault(item.author, number)
    git_merged = _git_merges(data, bots)
    if data.git_history_complete:
        seen: set[str] = set()
        for item in git_merged:
            key = (item.author or "").lower()
            if key in data.first_merges and key not in seen:
                seen.add(key)
                first.setdefault(item.author or "", item.number)
    reviewers: Counter[str] = Counter()
    commenters: Counter[str] = Counter()
    for c in data.activity:
        if c.author is None or is_bot(c.author, c.author_type, bots):
            continue
        if c.kind == "review":
            reviewers[c.author] += 1
        else:
            commenters[c.author] += 1
    # Review latency: for PRs merged in the window, hours from opening to the first review by
    # someone other than the author.
    waits = [
        (data.first_review_at[n] - opened).total_seconds() / 3600
        for n in sorted(data.active)
        if data.items[n].kind == "pr"
        and data.in_window(data.items[n].merged_at)
        and n in data.first_review_at
        and (opened := data.items[n].created_at) is not None
    ]
    median = round(statistics.median(waits), 1) if waits else None
    return ActivityFacts(
        top_authors=_top(authors, n),
        top_reviewers=_top(reviewers, n),
        top_commenters=_top(commenters, n),
        first_timers=sorted(first.items(), key=lambda kv: kv[1]),
        review_latency_hours_median=median,
        review_latency_sample=len(waits),
        authors_by="merged" if by_merged else "opened",
        first_timers_known=data.git_history_complete or not git_merged,
        first_timers_by_merge=any(
            is_git_name(i.author_type) and data.in_window(i.merged_at) for i in data.items.values()
        ),
    )


def _git_merges(data: WindowData, bots: list[str]) -> list[Item]:
    """The window's merged PRs from git by people, earliest merge first."""
    merged = [
        item
        for item in data.items.values()
        if item.author is not None
        and is_git_name(item.author_type)
        and data.in_window(item.merged_at)
        and not is_bot(item.author, item.author_type, bots)
    ]
    return sorted(merged, key=lambda i: (i.merged_at or data.start, i.number))
