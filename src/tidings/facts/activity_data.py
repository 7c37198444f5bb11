"""Everything a window's report reads, as plain typed rows: `WindowData`.

facts/load/window.py fills it from the store once per window (one query per table, bounded
by the window, plus the items those rows belong to), so a report costs a handful of queries
whatever the repository's size. The pure fact functions in this package take a `WindowData`
and never touch the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tidings.facts.mentions import Mention
from tidings.facts.roles import Roles

# An issue's or PR's state as reports show it: a merged PR is "merged", not "closed".
ItemState = Literal["open", "closed", "merged"]


@dataclass(frozen=True, slots=True)
class Item:
    number: int
    kind: str
    title: str
    body: str | None
    author: str | None
    author_type: str | None
    author_association: str | None
    state: str
    state_reason: str | None
    draft: bool
    labels: tuple[str, ...]
    created_at: datetime | None  # None: when it was opened is unknown (a PR from a git clone)
    updated_at: datetime
    closed_at: datetime | None
    merged_at: datetime | None
    merged: bool
    merged_by: str | None
    additions: int
    deletions: int
    changed_files: int
    reactions: int
    reactions_by: dict[str, int]
    comments_count: int
    url: str

    @property
    def display_state(self) -> ItemState:
        if self.merged:
            return "merged"
        return "closed" if self.state == "closed" else "open"


@dataclass(frozen=True, slots=True)
class Comment:
    id: int
    number: int
    author: str | None
    author_type: str | None
    author_association: str | None
    body: str
    created_at: datetime
    reactions: int
    kind: str  # "comment", "review", "review_comment"
    review_state: str | None = None


@dataclass(frozen=True, slots=True)
class File:
    number: int
    path: str
    status: str | None
    additions: int
    deletions: int


@dataclass
class WindowData:
    """The rows behind one window's report."""

    repo: str
    start: datetime
    end: datetime
    items: dict[int, Item] = field(default_factory=dict)
    # Conversation comments, reviews (with a body or a state) and review comments made in the
    # window, oldest first.
    activity: list[Comment] = field(default_factory=list)
    files: dict[int, list[File]] = field(default_factory=dict)
    closes: dict[int, list[int]] = field(default_factory=dict)  # PR -> issues it closes
    closed_by: dict[int, list[int]] = field(default_factory=dict)  # issue -> PRs closing it
    # Items created, closed or merged in the window, or with activity in it (the others in
    # `items` are only there because an active one links to them).
    active: set[int] = field(default_factory=set)
    maintainer_replied: set[int] = field(default_factory=set)  # active items, any time
    roles: Roles = field(default_factory=Roles)  # who is a maintainer, and why
    first_review_at: dict[int, datetime] = field(default_factory=dict)  # PR -> first review
    # PRs whose file list GitHub would not give in full (more than 3,000 files): `files`
    # holds what it gave, the item's `changed_files` the true count (store/gaps.py).
    files_cut: set[int] = field(default_factory=set)
    # Merged PRs with files whose diff the store lacks (GitHub gave no patch, or past the
    # patch stage's bounds; store/gaps.py) -> how many: their risk tags may miss something.
    unread_diffs: dict[int, int] = field(default_factory=dict)
    # The items each active item names in its title or body (`#N`, this repository's links;
    # facts/mentions.py), whether or not the store holds them: facts/related.py keeps those
    # it does.
    mentions: dict[int, list[Mention]] = field(default_factory=dict)
    # Active PRs that are reverts -> the PR each undoes, as its text names it or, where the
    # text names only a commit or a title, as the store links it (facts/reverts.py).
    reverts: dict[int, int] = field(default_factory=dict)
    # Items outside `items` that `mentions` or `reverts` name and the store holds: enough to
    # give their title and state, never counted in the window's figures.
    named: dict[int, Item] = field(default_factory=dict)
    # Git authors (names, lower case) of PRs merged in the window whose first merged PR in
    # the store is in the window too; and whether that store's git history reaches the
    # repository's first commit, without which a first merge cannot be told
    # (store/history.py).
    first_merges: frozenset[str] = frozenset()
    git_history_complete: bool = False

    def known(self, number: int) -> Item | None:
        """The item `number` as stored, if the window loaded it (its own or a named one)."""
        return self.items.get(number) or self.named.get(number)

    def in_window(self, when: datetime | None) -> bool:
        return when is not None and self.start <= when < self.end

    def activity_on(self, number: int) -> list[Comment]:
        return [c for c in self.activity if c.number == number]
