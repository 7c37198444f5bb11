"""Counts and lists for one repository and one window, computed from the store's rows only.

Everything here is a pure function of typed rows (facts/load/stats.py reads them), a window
and options: no database, no network, no clock. The counting rules follow GitHub search,
because that is what readers check a report against (`is:issue created:`, `is:issue is:closed
closed:`, `is:pr is:merged merged:`, `is:pr is:unmerged is:closed closed:`). docs/stats.md
documents the JSON shape.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from tidings.facts.actors import is_bot
from tidings.facts.windows import Window

SCHEMA_VERSION = 1
DEFAULT_DEPTH = 2
DEFAULT_TOP = 10


# -- models ---------------------------------------------------------------------------------


class WindowInfo(BaseModel):
    kind: str
    label: str
    timezone: str
    cutoff: str
    start: str
    end: str
    display: str


class Counts(BaseModel):
    new_issues: int = 0
    closed_issues: int = 0
    new_prs: int = 0
    merged_prs: int = 0
    closed_unmerged_prs: int = 0


class ItemLists(BaseModel):
    """The item numbers behind each count, ascending; `len(list) == count` always."""

    new_issues: list[int] = Field(default_factory=list)
    closed_issues: list[int] = Field(default_factory=list)
    new_prs: list[int] = Field(default_factory=list)
    merged_prs: list[int] = Field(default_factory=list)
    closed_unmerged_prs: list[int] = Field(default_factory=list)

    def counts(self) -> Counts:
        return Counts(**{name: len(numbers) for name, numbers in self})


class WindowCounts(BaseModel):
    """`Counts` as `tidings stats` states them: null where the sources cannot know the count."""

    new_issues: int | None
    closed_issues: int | None
    new_prs: int | None
    merged_prs: int
    closed_unmerged_prs: int | None


class WindowLists(BaseModel):
    """`ItemLists` as `tidings stats` states them: null where the sources cannot know them."""

    new_issues: list[int] | None
    closed_issues: list[int] | None
    new_prs: list[int] | None
    merged_prs: list[int]
    closed_unmerged_prs: list[int] | None


class LabelCount(BaseModel):
    label: str
    count: int


class Churn(BaseModel):
    """Lines changed under a path by the window's merged PRs."""

    path: str
    churn: int
    additions: int
    deletions: int
    prs: int


class Contributor(BaseModel):
    login: str
    total: int
    issues: int = 0
    prs: int = 0
    comments: int = 0
    review_comments: int = 0
    reviews: int = 0
    # PRs of theirs merged in the window whose opening is unknown (read from a git clone):
    # what a clone shows of its authors, who would otherwise count as doing nothing.
    merged_unknown_opened: int = 0


class Reviewer(BaseModel):
    login: str
    total: int
    states: dict[str, int]
    prs: list[int]


class BotActivity(BaseModel):
    login: str
    total: int


class WindowStats(BaseModel):
    schema_version: int = SCHEMA_VERSION
    repository: str
    window: WindowInfo
    data_as_of: datetime | None
    counts: WindowCounts
    items: WindowLists
    # The counts the sources cannot know (a git clone knows merges only): null in `counts`
    # and `items`, never 0.
    unknown: list[str] = Field(default_factory=list)
    merged_by_label: list[LabelCount]
    directory_depth: int
    top_paths: list[Churn]
    top_directories: list[Churn]
    contributors: list[Contributor]
    reviewers: list[Reviewer]
    bots: list[BotActivity]

    def to_json_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


# -- what the sources cannot know -----------------------------------------------------------

# The counts a git clone cannot know: when a PR was opened (git has only its merge), and,
# with nothing from the API at all, issues and PRs closed without merging.
GIT_UNKNOWN = ("new_prs",)
GIT_ONLY_UNKNOWN = ("new_issues", "closed_issues", "new_prs", "closed_unmerged_prs")


# -- items ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ItemDates:
    """An issue or PR as the window's counts read it."""

    number: int
    kind: str  # "issue" or "pr"
    state: str
    created_at: datetime | None
    closed_at: datetime | None
    merged_at: datetime | None
    source: str | None  # "git" for a PR read from a clone


def lists_of(rows: Iterable[ItemDates], window: Window) -> ItemLists:
    """Which of `rows` (by number) were opened, closed and merged in the window."""
    lists = ItemLists()
    for row in rows:
        # closed_at is the latest close: an issue closed, reopened and closed again counts
        # once, in the window of its last close, and not at all while it is open again.
        closed = row.state == "closed" and row.closed_at in window
        if row.kind == "issue":
            if row.created_at in window:
                lists.new_issues.append(row.number)
            if closed:
                lists.closed_issues.append(row.number)
            continue
        # A PR read from a git clone has only its commit dates: when it was opened is unknown,
        # so it is never counted as new (its merge is known).
        if row.created_at in window and row.source != "git":
            lists.new_prs.append(row.number)
        if row.merged_at in window:
            lists.merged_prs.append(row.number)
        elif closed and row.merged_at is None:
            # Includes PRs whose change landed through another PR: GitHub shows them closed.
            lists.closed_unmerged_prs.append(row.number)
    return lists


def label_counts(labels: Iterable[Sequence[str] | None]) -> list[LabelCount]:
    """How many PRs carry each label (one label list per PR), most common first."""
    counter: Counter[str] = Counter()
    for names in labels:
        counter.update(set(names or []))
    return [
        LabelCount(label=label, count=n)
        for label, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


# -- paths ----------------------------------------------------------------------------------


def directory_of(path: str, depth: int) -> str:
    """The file's folder cut to `depth` segments: `a/b/c/d.py` at depth 2 is `a/b`.

    Files at the repository root belong to `.`.
    """
    parts = path.split("/")[:-1][: max(depth, 1)]
    return "/".join(parts) or "."


@dataclass
class _Tally:
    additions: int = 0
    deletions: int = 0

    def __post_init__(self) -> None:
        self.prs: set[int] = set()

    def add(self, number: int, additions: int, deletions: int) -> None:
        self.additions += additions
        self.deletions += deletions
        self.prs.add(number)

    def churn(self, path: str) -> Churn:
        return Churn(
            path=path,
            churn=self.additions + self.deletions,
            additions=self.additions,
            deletions=self.deletions,
            prs=len(self.prs),
        )


def _top(tallies: dict[str, _Tally], top: int) -> list[Churn]:
    ranked = sorted(
        (tally.churn(path) for path, tally in tallies.items()), key=lambda c: (-c.churn, c.path)
    )
    return ranked[:top]


@dataclass(frozen=True, slots=True)
class ChangedLines:
    """A file a merged PR changed, with its line counts (None: a binary file)."""

    number: int
    path: str
    additions: int | None
    deletions: int | None


def churn_of(
    files: Iterable[ChangedLines], *, depth: int = DEFAULT_DEPTH, top: int = DEFAULT_TOP
) -> tuple[list[Churn], list[Churn]]:
    """(top changed paths, top directories) by lines added plus deleted."""
    paths: dict[str, _Tally] = defaultdict(_Tally)
    dirs: dict[str, _Tally] = defaultdict(_Tally)
    for f in files:
        # Binary files have no line counts; they still show the PR touched the folder.
        adds, dels = f.additions or 0, f.deletions or 0
        paths[f.path].add(f.number, adds, dels)
        dirs[directory_of(f.path, depth)].add(f.number, adds, dels)
    return _top(paths, top), _top(dirs, top)


# -- people ---------------------------------------------------------------------------------


# What an act counts as: a Contributor's field.
ActKind = Literal[
    "issues", "prs", "merged_unknown_opened", "comments", "review_comments", "reviews"
]


@dataclass(frozen=True, slots=True)
class Act:
    """One thing someone did in the window: opened an item, merged one whose opening is
    unknown, commented, or reviewed."""

    login: str | None  # None: a deleted account
    author_type: str | None
    kind: ActKind
    number: int  # the issue or PR
    state: str = ""  # a review's state ("APPROVED", "PENDING"...)


@dataclass
class People:
    contributors: list[Contributor]
    reviewers: list[Reviewer]
    bots: list[BotActivity]


def count_people(acts: Iterable[Act], bots: Iterable[str] = ()) -> People:
    """Humans active in the window (authors, commenters, reviewers), and bot activity apart."""
    configured = list(bots)
    activity: dict[str, Counter[str]] = defaultdict(Counter)
    bot_totals: Counter[str] = Counter()
    states: dict[str, Counter[str]] = defaultdict(Counter)
    reviewed: dict[str, set[int]] = defaultdict(set)
    for act in acts:
        if act.kind == "reviews" and act.state == "PENDING":
            continue  # a draft review nobody else can see yet
        login = act.login
        if login is None:  # deleted account: counted in totals, credited to nobody
            continue
        if is_bot(login, act.author_type, configured):
            bot_totals[login] += 1
            continue
        activity[login][act.kind] += 1
        if act.kind == "reviews":
            states[login][act.state] += 1
            reviewed[login].add(act.number)

    contributors = [
        Contributor(login=login, total=sum(c.values()), **c) for login, c in activity.items()
    ]
    contributors.sort(key=lambda c: (-c.total, c.login.lower()))
    reviewers = [
        Reviewer(
            login=login,
            total=sum(c.values()),
            states=dict(sorted(c.items())),
            prs=sorted(reviewed[login]),
        )
        for login, c in states.items()
    ]
    reviewers.sort(key=lambda r: (-r.total, r.login.lower()))
    bot_list = [BotActivity(login=login, total=n) for login, n in bot_totals.items()]
    bot_list.sort(key=lambda b: (-b.total, b.login.lower()))
    return People(contributors, reviewers, bot_list)


# -- everything -----------------------------------------------------------------------------


def stats_of(
    repository: str,
    window: Window,
    as_of: datetime | None,
    lists: ItemLists,
    unknown: Sequence[str],
    labels: list[LabelCount],
    churn: tuple[list[Churn], list[Churn]],
    who: People,
    *,
    directory_depth: int = DEFAULT_DEPTH,
) -> WindowStats:
    """The window's figures as `tidings stats` states them: the counts and lists the sources
    cannot know (`unknown`) null, never 0."""
    top_paths, top_dirs = churn
    return WindowStats(
        repository=repository,
        window=WindowInfo(**window.to_dict()),
        data_as_of=as_of,
        counts=WindowCounts.model_validate(
            {k: None if k in unknown else v for k, v in lists.counts()}
        ),
        items=WindowLists.model_validate({k: None if k in unknown else v for k, v in lists}),
        unknown=list(unknown),
        merged_by_label=labels,
        directory_depth=directory_depth,
        top_paths=top_paths,
        top_directories=top_dirs,
        contributors=who.contributors,
        reviewers=who.reviewers,
        bots=who.bots,
    )
