"""Counts and lists for one repository and one window, computed from the store only.

Everything here is a pure function of (connection, repo id, window, options): no network, no
clock. The counting rules follow GitHub search, because that is what readers check a report
against (`is:issue created:`, `is:issue is:closed closed:`, `is:pr is:merged merged:`,
`is:pr is:unmerged is:closed closed:`). docs/stats.md documents the JSON shape.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pydantic import BaseModel, Field
from sqlalchemy.engine import Connection

from tidings.facts.actors import is_bot
from tidings.facts.windows import Window
from tidings.store import schema

SCHEMA_VERSION = 1
DEFAULT_DEPTH = 2
DEFAULT_TOP = 10

items_t = schema.items


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


def git_only(conn: Connection, repo_id: int) -> bool:
    """Whether every item of the repository came from a git clone (and there are some).

    Two existence probes, each stopping at its first row: one from the API (on an API store
    the first row read; only a git-only store reads further), then, only without one, one
    from git (an empty repository is no git-only one)."""
    it = items_t
    first = sa.select(it.c.number).where(it.c.repo_id == repo_id).limit(1)
    if conn.execute(first.where(sa.func.coalesce(it.c.source, "api") != "git")).first():
        return False
    return conn.execute(first.where(it.c.source == "git")).first() is not None


def _unknown(conn: Connection, repo_id: int, lists: ItemLists) -> tuple[str, ...]:
    """The window's counts its sources cannot know (facts/coverage.py unknown_counts says the
    same of a report's window)."""
    if git_only(conn, repo_id):
        return GIT_ONLY_UNKNOWN
    it = items_t
    merged = lists.merged_prs
    git = (
        merged
        and conn.execute(
            sa.select(it.c.number)
            .where(it.c.repo_id == repo_id, it.c.number.in_(merged), it.c.source == "git")
            .limit(1)
        ).first()
    )
    return GIT_UNKNOWN if git else ()


# -- items ----------------------------------------------------------------------------------


def _between(column: sa.ColumnElement[Any], window: Window) -> sa.ColumnElement[bool]:
    return sa.and_(column >= window.start, column < window.end)


def _live_items(repo_id: int) -> sa.ColumnElement[bool]:
    return sa.and_(items_t.c.repo_id == repo_id, items_t.c.deleted.is_(False))


def item_lists(conn: Connection, repo_id: int, window: Window) -> ItemLists:
    """Which issues and PRs were opened, closed and merged in the window."""
    t = items_t
    rows = conn.execute(
        sa.select(
            t.c.number,
            t.c.kind,
            t.c.state,
            t.c.created_at,
            t.c.closed_at,
            t.c.merged_at,
            t.c.source,
        )
        .where(
            _live_items(repo_id),
            sa.or_(
                _between(t.c.created_at, window),
                _between(t.c.closed_at, window),
                _between(t.c.merged_at, window),
            ),
        )
        .order_by(t.c.number)
    )
    lists = ItemLists()
    for number, kind, state, created_at, closed_at, merged_at, source in rows:
        # closed_at is the latest close: an issue closed, reopened and closed again counts
        # once, in the window of its last close, and not at all while it is open again.
        closed = state == "closed" and closed_at in window
        if kind == "issue":
            if created_at in window:
                lists.new_issues.append(number)
            if closed:
                lists.closed_issues.append(number)
            continue
        # A PR read from a git clone has only its commit dates: when it was opened is unknown,
        # so it is never counted as new (its merge is known).
        if created_at in window and source != "git":
            lists.new_prs.append(number)
        if merged_at in window:
            lists.merged_prs.append(number)
        elif closed and merged_at is None:
            # Includes PRs whose change landed through another PR: GitHub shows them closed.
            lists.closed_unmerged_prs.append(number)
    return lists


def _merged_in(repo_id: int, window: Window) -> sa.ColumnElement[bool]:
    return sa.and_(
        _live_items(repo_id), items_t.c.kind == "pr", _between(items_t.c.merged_at, window)
    )


def merged_label_counts(conn: Connection, repo_id: int, window: Window) -> list[LabelCount]:
    """How many of the window's merged PRs carry each label, most common first."""
    counter: Counter[str] = Counter()
    for (labels,) in conn.execute(sa.select(items_t.c.labels).where(_merged_in(repo_id, window))):
        counter.update(set(labels or []))
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


def path_churn(
    conn: Connection,
    repo_id: int,
    window: Window,
    *,
    depth: int = DEFAULT_DEPTH,
    top: int = DEFAULT_TOP,
) -> tuple[list[Churn], list[Churn]]:
    """(top changed paths, top directories) by lines added plus deleted in merged PRs."""
    f = schema.pr_files
    rows = conn.execute(
        sa.select(f.c.number, f.c.path, f.c.additions, f.c.deletions)
        .join(items_t, sa.and_(items_t.c.repo_id == f.c.repo_id, items_t.c.number == f.c.number))
        .where(f.c.repo_id == repo_id, _merged_in(repo_id, window))
    )
    paths: dict[str, _Tally] = defaultdict(_Tally)
    dirs: dict[str, _Tally] = defaultdict(_Tally)
    for number, path, additions, deletions in rows:
        # Binary files have no line counts; they still show the PR touched the folder.
        adds, dels = additions or 0, deletions or 0
        paths[path].add(number, adds, dels)
        dirs[directory_of(path, depth)].add(number, adds, dels)
    return _top(paths, top), _top(dirs, top)


# -- people ---------------------------------------------------------------------------------


def _child_rows(
    conn: Connection, table: sa.Table, repo_id: int, moment: sa.Column[Any], window: Window
) -> Sequence[sa.Row[*tuple[Any, ...]]]:
    """Comments or reviews made in the window on items that still exist."""
    return conn.execute(
        sa.select(table.c.author, table.c.author_type, table.c.number, *_extra(table)).where(
            table.c.repo_id == repo_id,
            table.c.deleted.is_(False),
            parent_live(table),
            _between(moment, window),
        )
    ).all()


def parent_live(table: sa.Table) -> sa.ColumnElement[bool]:
    """The comment's or review's item is not marked deleted: the words on a deleted issue or PR
    leave the facts with it (one the store never held counts as live). Asked as "no deleted
    item of that number", which the small partial index ix_items_repo_deleted answers: an
    outer join to the items made PostgreSQL hash every item of the repository for a week's
    comments (store/migrations 0005)."""
    gone = sa.select(items_t.c.number).where(
        items_t.c.repo_id == table.c.repo_id,
        items_t.c.number == table.c.number,
        items_t.c.deleted.is_(True),
    )
    return ~sa.exists(gone)


def _extra(table: sa.Table) -> list[sa.Column[Any]]:
    return [table.c.state] if table is schema.reviews else []


@dataclass
class People:
    contributors: list[Contributor]
    reviewers: list[Reviewer]
    bots: list[BotActivity]


def people(conn: Connection, repo_id: int, window: Window, bots: Iterable[str] = ()) -> People:
    """Humans active in the window (authors, commenters, reviewers), and bot activity apart."""
    configured = list(bots)
    activity: dict[str, Counter[str]] = defaultdict(Counter)
    bot_totals: Counter[str] = Counter()

    def note(login: str | None, author_type: str | None, what: str) -> bool:
        if login is None:  # deleted account: counted in totals, credited to nobody
            return False
        if is_bot(login, author_type, configured):
            bot_totals[login] += 1
            return False
        activity[login][what] += 1
        return True

    t = items_t
    for login, author_type, kind in conn.execute(
        sa.select(t.c.author, t.c.author_type, t.c.kind).where(
            _live_items(repo_id), _between(t.c.created_at, window)
        )
    ):
        note(login, author_type, "issues" if kind == "issue" else "prs")
    for login, author_type in conn.execute(
        sa.select(t.c.author, t.c.author_type).where(
            _live_items(repo_id), t.c.created_at.is_(None), _between(t.c.merged_at, window)
        )
    ):
        note(login, author_type, "merged_unknown_opened")
    for login, author_type, _number in _child_rows(
        conn, schema.comments, repo_id, schema.comments.c.created_at, window
    ):
        note(login, author_type, "comments")
    rc = schema.review_comments
    for login, author_type, _number in _child_rows(conn, rc, repo_id, rc.c.created_at, window):
        note(login, author_type, "review_comments")

    states: dict[str, Counter[str]] = defaultdict(Counter)
    reviewed: dict[str, set[int]] = defaultdict(set)
    rv = schema.reviews
    for login, author_type, number, state in _child_rows(
        conn, rv, repo_id, rv.c.submitted_at, window
    ):
        if state == "PENDING":  # a draft review nobody else can see yet
            continue
        if note(login, author_type, "reviews"):
            states[login][state] += 1
            reviewed[login].add(number)

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


def data_as_of(conn: Connection, repo_id: int) -> datetime | None:
    """The newest item update in the store: how fresh the data behind the numbers is."""
    return conn.execute(
        sa.select(sa.func.max(items_t.c.updated_at)).where(items_t.c.repo_id == repo_id)
    ).scalar_one_or_none()


def window_stats(
    conn: Connection,
    repo_id: int,
    window: Window,
    *,
    repository: str | None = None,
    bots: Iterable[str] = (),
    directory_depth: int = DEFAULT_DEPTH,
    top: int = DEFAULT_TOP,
) -> WindowStats:
    """Everything above for one window; `repository` defaults to the stored name."""
    if repository is None:
        repos = schema.repositories
        repository = conn.execute(
            sa.select(repos.c.full_name).where(repos.c.id == repo_id)
        ).scalar_one()
    lists = item_lists(conn, repo_id, window)
    unknown = _unknown(conn, repo_id, lists)
    top_paths, top_dirs = path_churn(conn, repo_id, window, depth=directory_depth, top=top)
    who = people(conn, repo_id, window, bots)
    as_of = data_as_of(conn, repo_id)
    return WindowStats(
        repository=repository,
        window=WindowInfo(**window.to_dict()),
        data_as_of=as_of,
        counts=WindowCounts.model_validate(
            {k: None if k in unknown else v for k, v in lists.counts()}
        ),
        items=WindowLists.model_validate({k: None if k in unknown else v for k, v in lists}),
        unknown=list(unknown),
        merged_by_label=merged_label_counts(conn, repo_id, window),
        directory_depth=directory_depth,
        top_paths=top_paths,
        top_directories=top_dirs,
        contributors=who.contributors,
        reviewers=who.reviewers,
        bots=who.bots,
    )
