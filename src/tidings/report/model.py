"""The daily report as data: what every renderer (Markdown, JSON, HTML and PDF) draws from.

Facts (numbers, item references, logins) are typed fields filled by code. Prose is a `Prose`
value that says who wrote it: the deterministic writer (`rules`) or a model (`llm`). Renderers
never invent content; they lay this model out. `tidings report daily --format json` prints it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from tidings.common.config import Lang
from tidings.facts.activity import AuthorsBy
from tidings.facts.activity_data import ItemState
from tidings.facts.trends import AreaKind
from tidings.facts.watchlist import WatchReason

SCHEMA_VERSION = 1

Level = Literal["quiet", "low", "normal", "high", "very_high"]  # the window against its history
Role = Literal["maintainer", "contributor", "user", "bot"]
# Where a role came from (facts/roles.py): the account type, the config's lists, an automation
# name (tidings.common.bots), a listed team, a merged PR, or GitHub's author_association.
RoleSource = Literal["account", "config", "name", "team", "merged", "association"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Prose(_Model):
    """A paragraph or sentence of report text and who wrote it.

    `refs`: the item numbers the rules wrote into the text themselves ("the most important is
    #12"), which renderers link like every citation of the report's own items. Any other `#N`
    in the rules' text is quoted (a title, a body) and stays inert; the model's citations are
    found and checked by the renderers, so its prose carries none."""

    text: str
    by: Literal["rules", "llm"] = "rules"
    refs: list[int] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_empty_refs(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Most prose cites nothing of its own: its JSON stays {"text", "by"} as before.
        data = handler(self)
        if isinstance(data, dict) and not self.refs:
            data.pop("refs", None)
        return data


class ItemRef(_Model):
    """An issue or PR as reports cite it: the renderer makes the link from `url`."""

    number: int
    kind: Literal["issue", "pr"]
    title: str
    url: str
    state: ItemState
    draft: bool = False
    author: str | None = None  # a GitHub login; None for a deleted account or a git name
    author_is_bot: bool = False
    labels: list[str] = Field(default_factory=list)
    # The author's name from a git history (a local clone knows no login): free text anyone
    # can set, shown as plain text, never a profile link or a mention. `author` is None then.
    author_name: str | None = None


class Stats(_Model):
    """The window's headline counts; null: the sources cannot know it (a git clone knows
    merges, not when a PR was opened, nor anything of issues), never 0."""

    new_issues: int | None
    closed_issues: int | None
    new_prs: int | None
    merged_prs: int  # always known: every source records merges
    closed_unmerged_prs: int | None


class WindowInfo(_Model):
    start: datetime  # UTC
    end: datetime  # UTC, exclusive
    timezone: str  # IANA name
    display: str  # "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)"
    # UTC; only for a partial window: where the store's data stops, before `end` (a window
    # not yet over, or not synced to its end). The report's header says so in every format.
    data_until: datetime | None = Field(default=None, exclude_if=lambda v: v is None)


class MetricTrend(_Model):
    metric: str  # a Stats field name
    value: int
    baseline: float  # mean over the previous windows
    change: float | None  # (value - baseline) / baseline, None when the baseline is 0


class Area(_Model):
    kind: AreaKind
    name: str
    count: int


class Summary(_Model):
    level: Level
    previous_windows: int
    trends: list[MetricTrend]
    dominant_areas: list[Area]
    text: Prose


class TopicItem(_Model):
    item: ItemRef
    reasons: list[str]  # "label rocm", "tag [ROCm]", "keyword MI300X", "path csrc/rocm/x.cu"
    note: Prose


class TopicTrack(_Model):
    title: str
    items: list[TopicItem]
    analysis: Prose


class Viewpoint(_Model):
    login: str | None
    role: Role
    # Optional so reports written before roles had sources still load.
    role_source: RoleSource | None = None
    role_evidence: str | None = None  # the team ("org/slug"), the merged PR ("#123"), or the
    # association ("MEMBER"), as facts/roles.py found it
    comments: int  # in the window
    excerpt: Prose  # rules: a short excerpt of their own words; llm: their stance


class HotDiscussion(_Model):
    item: ItemRef
    score: float
    comments_in_window: int
    participants: int
    reactions: int
    core_topic: Prose
    viewpoints: list[Viewpoint]
    contention: Prose
    status: Prose
    last_activity_at: datetime
    linked_prs: list[ItemRef]


class Cluster(_Model):
    kind: AreaKind
    name: str
    count: int
    members: list[ItemRef]


class KeyChange(_Model):
    item: ItemRef
    score: float
    score_parts: dict[str, float]  # component -> points; see facts/importance.py
    additions: int
    deletions: int
    changed_files: int
    # How many of them GitHub listed, only where it listed fewer (it stops at 3,000 files):
    # `top_dirs` and the file-based facts then stand on a partial list.
    files_listed: int | None = Field(default=None, exclude_if=lambda v: v is None)
    # Files whose diff the store lacks (GitHub gave no patch: binary or too large; or past
    # the sync's bounds), only where there are some: facts read from code may miss them.
    files_without_diff: int | None = Field(default=None, exclude_if=lambda v: v is None)
    top_dirs: list[str]
    linked_issues: list[int]
    what_changed: Prose
    # The sentence of the PR's body that states a measured effect ("TPOT 48 ms -> 45 ms"),
    # when it has one that `what_changed` does not already show (report/effects.py). A quote
    # of the data, like a title, not prose: no writer, rules or model, made it up.
    stated_effect: str | None = Field(default=None, exclude_if=lambda v: v is None)
    notes: list[Prose] = Field(default_factory=list)  # model-written, each backed by a quote


class Count(_Model):
    login: str
    count: int
    git_name: bool = False  # `login` is a git author's name (free text), not a GitHub login


class FirstTimer(_Model):
    login: str
    item: ItemRef
    git_name: bool = False  # a git author's name (plain text, never a profile link)


class DailyCoverage(_Model):
    """What a window read (partly) from a git clone cannot say."""

    git_prs: int  # merged PRs of the window known only from a git clone
    # Headline counts the store cannot know (names of Stats fields): a clone knows merges,
    # not when a PR was opened, and nothing of issues or closed-unmerged PRs.
    unknown: list[str]
    text: Prose

    @property
    def git_only(self) -> bool:
        """Nothing of the window came from the GitHub API: no issues, comments or reviews,
        so an empty discussion or watch list is unknown, not none."""
        return "new_issues" in self.unknown


class Activity(_Model):
    top_authors: list[Count]
    # What `top_authors` counts: issues and PRs opened in the window, or, where the sources
    # cannot know who opened what (a git clone), PRs merged in it.
    authors_by: AuthorsBy = "opened"
    top_reviewers: list[Count]
    top_commenters: list[Count]
    first_time_contributors: list[FirstTimer]
    review_latency_hours_median: float | None
    review_latency_sample: int
    text: Prose
    # False: whether the window's merges from a git clone were anyone's first cannot be told
    # (the stored history does not reach the repository's first commit): "unknown", never
    # "none". The list then holds only those GitHub marked as first-timers.
    first_timers_known: bool = True
    # PRs from a git clone are among the window's merges: for them "first-time" means the
    # author's first merged PR (a clone knows no PR's opening).
    first_timers_by_merge: bool = False

    @property
    def first_timers_key(self) -> str:
        """The words (words/daily.py) that introduce the first-time contributors."""
        if not self.first_timers_known:
            return "act_first_partial" if self.first_time_contributors else "act_first_unknown"
        return "act_first_merge" if self.first_timers_by_merge else "act_first"


class WatchItem(_Model):
    item: ItemRef
    reasons: list[WatchReason]
    detail: Prose


class Appendix(_Model):
    """The items behind each headline count; null where the count is (unknown), never []."""

    new_issues: list[ItemRef] | None
    closed_issues: list[ItemRef] | None
    new_prs: list[ItemRef] | None
    merged_prs: list[ItemRef]
    closed_unmerged_prs: list[ItemRef] | None


class LLMRun(_Model):
    """What the model wrote in this report (absent when no model was used).

    Only what the report's text depends on: the same answers give the same record whether
    they came from the model or from the cache this time, so a re-run on unchanged data
    rewrites no report, PDF or page. What a run cost (requests, tokens, answers reused) is
    printed by `tidings run`, not kept in the report."""

    model: str
    dropped_sentences: int  # model sentences the faithfulness guard removed
    fallbacks: int  # items and sections that kept the deterministic text after a failure
    model_parts: int  # prose values written by the model
    rules_parts: int  # prose values written by the deterministic writer

    @model_validator(mode="before")
    @classmethod
    def _without_run_counts(cls, data: Any) -> Any:
        # Reports written by earlier builds carry the run's counts: they still load.
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if k not in _RUN_COUNTS}
        return data


_RUN_COUNTS = frozenset({"calls", "prompt_tokens", "completion_tokens", "cache_hits"})


class Provenance(_Model):
    tool_version: str
    generated_at: datetime
    data_as_of: datetime | None  # newest updated_at of anything in the store for this repo
    window_utc: str
    list_counts: dict[str, int | None]  # null: unknown, as in `stats`
    writer: Literal["rules", "llm", "mixed"] = "rules"
    llm: LLMRun | None = None


class DailyReport(_Model):
    schema_version: int = SCHEMA_VERSION
    kind: Literal["daily"] = "daily"
    repo: str
    project: str  # display name, e.g. "vLLM"
    repo_url: str  # https://github.com/OWNER/REPO
    date: str  # YYYY-MM-DD, the window's local start date
    lang: Lang
    window: WindowInfo
    stats: Stats
    coverage: DailyCoverage | None = None  # None when everything came from the GitHub API
    quiet: bool
    summary: Summary
    topics: list[TopicTrack]
    hot_discussions: list[HotDiscussion]
    trends: list[Cluster]
    key_changes: list[KeyChange]
    activity: Activity
    watchlist: list[WatchItem]
    appendix: Appendix
    provenance: Provenance
    # Section paragraphs only a model writes (the clusters and watch reasons speak for
    # themselves without one).
    trends_analysis: Prose | None = None
    watch_analysis: Prose | None = None
