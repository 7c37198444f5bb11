"""The weekly report as data: what the Markdown, JSON, HTML and PDF renderers draw from.

Same rules as the daily model (report/model.py): facts are typed fields filled by code, prose is
a `Prose` that says who wrote it, links come from `ItemRef.url`. Risk tags are this module's own
`RiskTag` and `Evidence`, copied from the rules' facts (facts/risk.py) with the same fields, so
the report's JSON shape changes only here. `tidings report weekly --format json` prints this model;
docs/report.md documents it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tidings.common.config import Lang
from tidings.common.risk_tags import RiskTagName
from tidings.facts.trends import AreaKind
from tidings.report.model import ItemRef, LLMRun, Prose

SCHEMA_VERSION = 1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Evidence(_Model):
    """Why a tag fired: a file, an added line of it, and/or the rule's numbers."""

    path: str | None = None
    line: str | None = None  # an added line, as written (untrusted: renderers escape it)
    numbers: dict[str, int] = Field(default_factory=dict)


class RiskTag(_Model):
    """A risk rule that fired on a merged PR (docs/report.md lists the rules)."""

    tag: RiskTagName
    weight: float
    evidence: list[Evidence]  # at most 5


class WeekWindow(_Model):
    week: str  # 2026-W33
    year: int  # ISO year
    number: int  # ISO week number
    first_day: str  # local Monday, YYYY-MM-DD
    last_day: str  # local Sunday, YYYY-MM-DD
    start: datetime  # UTC
    end: datetime  # UTC, exclusive
    timezone: str
    display: str  # "2026-08-10 00:00 (UTC+8) ~ 2026-08-17 00:00 (UTC+8)"
    # UTC; only for a partial week: where the store's data stops, before `end` (as the
    # daily report's WindowInfo.data_until).
    data_until: datetime | None = Field(default=None, exclude_if=lambda v: v is None)


class Coverage(_Model):
    """Where the week's merged PRs came from, and what a git-only store cannot say."""

    api_prs: int
    git_prs: int
    # Parts that need the GitHub API and are missing for some PRs: labels, reviews,
    # comments, unresolved_threads, issues.
    needs_api: list[str]
    text: Prose | None  # None when nothing is missing


class WeeklyPR(_Model):
    """A merged PR as the weekly report cites it, with its risk tags."""

    item: ItemRef
    source: Literal["api", "git"]
    author_name: str | None = None  # git's author name when no GitHub login is known
    additions: int
    deletions: int
    changed_files: int
    # How many of them GitHub listed, only where it listed fewer (it stops at 3,000 files):
    # the line counts, `top_dirs` and the risk rules then stand on a partial list.
    files_listed: int | None = Field(default=None, exclude_if=lambda v: v is None)
    # Files whose diff the store lacks (GitHub gave no patch: binary or too large; or past
    # the sync's bounds), only where there are some: the risk tags did not read their code.
    files_without_diff: int | None = Field(default=None, exclude_if=lambda v: v is None)
    # GitHub's last answer on its reviews or review threads was incomplete (a refused part, a
    # short page): "merged without approval" and "follow-up promised" were not judged.
    reviews_incomplete: bool = Field(default=False, exclude_if=lambda v: not v)
    top_dirs: list[str]
    score: float  # importance, facts/importance.py
    score_parts: dict[str, float]
    risk_tags: list[RiskTag]
    risk_score: float  # sum of the tags' weights
    summary: Prose  # what changed: facts and a short quote of its summary (rules), or a model's
    reverts: ItemRef | None = None  # the PR this one reverts, when it is a revert
    # A re-land's PR it brings back and the revert it undoes, those known (its summary
    # names them: "re-lands #6357 (reverted by #6459)").
    relands: list[ItemRef] = Field(default_factory=list, exclude_if=lambda v: not v)
    # The kind of change, from its title tags, labels or files: fix, feature, refactor, perf,
    # doc, test, ci, misc, deps, revert, format (most of its lines only re-format) or code.
    kind: str = "code"
    bot: bool = False  # opened by a bot: out of themes, hot files and the importance ranking
    # Why it matters, one model sentence (none from the rules, which cannot judge it).
    why: Prose | None = Field(default=None, exclude_if=lambda v: v is None)
    # The sentence of the PR's body that states a measured effect (report/effects.py): a
    # quote of the data, like a title, not prose.
    stated_effect: str | None = Field(default=None, exclude_if=lambda v: v is None)
    # At most 3 model notes, each quoting a line it saw; a note never sets a tag.
    notes: list[Prose] = Field(default_factory=list, max_length=3)


class Highlight(_Model):
    # Rules: "label bug", "[BugFix]", "vllm/v1"; a model: the technical direction it names.
    theme: str
    item: ItemRef  # the direction's most important merged PR
    text: Prose
    # A model's direction: its other merged PRs (each checked to be one of the week's).
    more: list[ItemRef] = Field(default_factory=list, exclude_if=lambda v: not v)


class ReviewThreads(_Model):
    """How a PR's review threads ended (facts/review_figures.py): resolution as the last sync
    read it, threads raised and commits made before the window's end."""

    threads: int  # review threads GitHub lists, the author's and bots' included
    unresolved: int
    # Resolved with no commit made after the thread was raised; None where commit times are
    # not in the store (then `followed_by_commit` is None too).
    resolved_without_commit: int | None
    followed_by_commit: int | None  # threads that a commit was made after
    text: Prose  # the rules' sentence: "2 of 3 still unresolved; ..."


class RiskObservation(_Model):
    item: ItemRef
    risk_score: float
    tags: list[RiskTag]
    observation: Prose
    follow_up: Prose  # what to check on this PR; "" when only the general follow-ups apply
    reverts: ItemRef | None = None  # the PR it reverts, when it is a revert
    # A re-land's "re-lands #6357 (reverted by #6459)", its numbers linked (WeeklyPR.relands).
    relands: Prose | None = Field(default=None, exclude_if=lambda v: v is None)
    # Where the store has them (a GitHub sync read the PR's details since migration 0006).
    review_threads: ReviewThreads | None = Field(default=None, exclude_if=lambda v: v is None)
    # As WeeklyPR.files_without_diff: the tags above may miss what those files hold.
    files_without_diff: int | None = Field(default=None, exclude_if=lambda v: v is None)


class NameCount(_Model):
    name: str
    count: int


class RiskCount(_Model):
    name: RiskTagName
    count: int


class ExecutiveSummary(_Model):
    merged_prs: int
    previous_merged_prs: int
    by_label: list[NameCount]  # merged PRs per label, most common first (top 8)
    by_title_tag: list[NameCount]  # merged PRs per leading title tag (top 8)
    by_risk_tag: list[RiskCount]  # tags over all merged PRs, every tag that fired
    text: Prose


class ThemeChanges(_Model):
    kind: AreaKind
    name: str
    # Merged PRs whose theme this is: each PR is in one theme only (its most specific label,
    # title tag or source directory), so a tag theme can hold fewer PRs than carry the tag.
    count: int
    additions: int
    deletions: int
    items: list[WeeklyPR]  # the most important (up to 5)
    text: Prose


class TrendRow(_Model):
    name: str
    value: int  # PRs (labels, tags) or changed lines (directories, files)
    previous: int  # the same last week
    change: float | None  # (value - previous) / previous; None when previous is 0
    prs: int


class ModuleTrends(_Model):
    labels: list[TrendRow]
    title_tags: list[TrendRow]
    directories: list[TrendRow]
    hot_files: list[TrendRow]
    text: Prose


class FollowUp(_Model):
    kind: Literal["risk", "watch"]
    reason: str  # a risk tag or a watch-list rule
    items: list[ItemRef]  # up to 8
    total: int  # items behind it (may exceed `items`)
    text: Prose


class TrackItem(_Model):
    item: ItemRef
    reasons: list[str]  # "label:rocm", "tag:[ROCm]", "keyword:MI300X", "path:csrc/rocm/x.cu"
    text: Prose


class TrackSection(_Model):
    """A configured topic track ([[repos.topics]]) over the week."""

    title: str
    merged_prs: int  # merged PRs of the week in the track
    # Other PRs and issues of the week's data in it (opened, closed, active); null: unknown,
    # the store holding only a git clone's merged PRs.
    other_items: int | None
    # Most relevant first (facts/topics.py), merged PRs first within a relevance, then by
    # importance; up to 8: `unlisted` says how many more matched (the list says "… and N more").
    items: list[TrackItem]
    text: Prose
    unlisted: int = Field(default=0, exclude_if=lambda v: v == 0)


class MergedGroup(_Model):
    """The appendix's grouping: every merged PR in exactly one group (its theme, or `bot`)."""

    kind: Literal["label", "tag", "path", "bot"]
    name: str
    numbers: list[int]  # most important first


class WeeklyProvenance(_Model):
    tool_version: str
    generated_at: datetime
    data_as_of: datetime | None
    window_utc: str
    merged_prs: int
    sources: dict[str, int]  # "api"/"git" -> merged PRs
    writer: Literal["rules", "llm", "mixed"] = "rules"
    llm: LLMRun | None = None  # what the model wrote and cost; None without a model


class WeeklyReport(_Model):
    schema_version: int = SCHEMA_VERSION
    kind: Literal["weekly"] = "weekly"
    repo: str
    project: str
    repo_url: str
    week: str  # YYYY-Www, as `--week` takes it
    lang: Lang
    window: WeekWindow
    summary: Prose
    merged_prs: int
    key_pr_count: int
    generated_at: datetime
    coverage: Coverage
    highlights: list[Highlight]
    tracks: list[TrackSection] = Field(default_factory=list)
    risk_observations: list[RiskObservation]
    executive_summary: ExecutiveSummary
    key_changes: list[ThemeChanges]
    module_trends: ModuleTrends
    key_prs: list[WeeklyPR]
    follow_ups: list[FollowUp]
    merged: list[WeeklyPR]  # every merged PR of the week with its tags, by number
    merged_groups: list[MergedGroup] = Field(default_factory=list)
    provenance: WeeklyProvenance
