"""The facts of one ISO week: merged PRs with their risk tags, importance, themes and churn,
each compared with the week before. Pure functions over rows loaded once per week
(facts/load/week.py).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tidings.common.config import RepoConfig
from tidings.facts.activity_data import WindowData
from tidings.facts.generated import is_bot_pr, is_generated
from tidings.facts.importance import Scored, score_merged
from tidings.facts.relands import Reland
from tidings.facts.review_figures import ThreadFigures
from tidings.facts.risk import (
    MergedPR,
    Reformatted,
    RiskTag,
    RiskTagName,
    assess_all,
    assess_week,
    reverted_pr,
    risk_score,
)
from tidings.facts.stats import DEFAULT_DEPTH, directory_of
from tidings.facts.topics import TopicMatch, topic_matches
from tidings.facts.trends import PROCESS_LABELS, AreaKind, is_generic, topic_tags
from tidings.facts.watchlist import Watch, watchlist
from tidings.facts.windows import Window, previous


@dataclass(frozen=True)
class Trend:
    """A label, title tag, directory or file this week against last week."""

    name: str
    value: int  # PRs (labels, tags) or changed lines (directories, files)
    previous: int
    prs: int  # merged PRs behind the value this week

    @property
    def change(self) -> float | None:
        return None if not self.previous else round((self.value - self.previous) / self.previous, 2)


@dataclass(frozen=True)
class Theme:
    """Merged PRs sharing their theme (`primary_theme`), most important first."""

    kind: AreaKind
    name: str
    members: tuple[int, ...]

    @property
    def generic(self) -> bool:
        """A kind of change (`[BugFix]`, `[CI]`) rather than a technical direction."""
        return self.kind != "path" and is_generic(self.name)


@dataclass(frozen=True)
class Track:
    """A configured topic track and the week's items in it, most relevant first (merged PRs
    first within a relevance, by importance: facts/topics.py)."""

    title: str
    matches: list[TopicMatch]


@dataclass
class WeekFacts:
    window: Window
    prev_window: Window
    prs: list[MergedPR]
    prev_prs: list[MergedPR]
    scores: dict[int, Scored]  # importance of this week's merged PRs
    ranked: list[int]  # merged PR numbers, most important first
    risks: dict[int, list[RiskTag]]
    data: WindowData  # the week's items and conversation (for the watch list)
    watch: list[Watch]
    data_as_of: datetime | None
    sources: dict[str, int] = field(default_factory=dict)  # "api"/"git" -> merged PRs
    reverts: dict[int, int] = field(default_factory=dict)  # revert PR -> the PR it reverts
    reverted: dict[int, str] = field(default_factory=dict)  # reverted PR -> its stored title
    bots: frozenset[int] = frozenset()  # merged PRs opened by bots (facts/generated.py)
    tracks: list[Track] = field(default_factory=list)
    repo: RepoConfig | None = None  # the generated-path globs churn and themes leave out
    # Merged PRs' review-thread figures (facts/review_figures.py), where the store has them.
    threads: dict[int, ThreadFigures] = field(default_factory=dict)
    # How much of each merged PR only re-formats code (facts/formatting.py, risk.py).
    reformatted: dict[int, Reformatted] = field(default_factory=dict)
    relands: dict[int, Reland] = field(default_factory=dict)  # re-land PR -> what it re-lands
    # Whether the store holds anything from the GitHub API: without it, the week's issues and
    # unmerged PRs are unknown (facts/coverage.py), not none.
    api_data: bool = True

    @property
    def others_known(self) -> bool:
        """Whether the week's items other than its merged PRs (issues, open or closed PRs) can
        be counted: not from a git clone alone."""
        return self.api_data

    def sweep(self, number: int) -> bool:
        """The PR is a formatting change (most of its code and test lines only re-format)."""
        found = self.reformatted.get(number)
        return found is not None and found.sweep

    @property
    def by_number(self) -> dict[int, MergedPR]:
        return {p.number: p for p in self.prs}


TRACK_ITEMS = 8  # a topic track's items a weekly lists (and the model writes about)


def week_facts(
    repo: RepoConfig,
    window: Window,
    prs: list[MergedPR],
    prev_prs: list[MergedPR],
    data: WindowData,
    *,
    as_of: datetime | None,
    reverted: dict[int, str],
    threads: dict[int, ThreadFigures],
    api_data: bool,
) -> WeekFacts:
    """The week's facts from its rows (facts/load/week.py reads them): the week's and the
    week before's merged PRs, the week's items and conversation, the stored titles of the PRs
    its reverts and re-lands name (`reverted_names`), and its merged PRs' thread figures."""
    risks, reformatted = assess_week(prs, repo)
    # Lines that only re-format are no measure of a change's weight: a sweep of 2,000
    # re-wrapped lines is not the week's most important PR.
    restyled = _restyled(prs, reformatted)
    scored = {s.number: s for s in score_merged(data, repo, restyled)}
    ranked = sorted(
        (p.number for p in prs),
        key=lambda n: (-(scored[n].score if n in scored else 0.0), n),
    )
    sources = Counter("git" if p.source == "git" else "api" for p in prs)
    # A revert opened by automation is still news: it stays a person's change here.
    bots = frozenset(p.number for p in prs if _bot_pr(p, repo))
    tracks = [Track(topic.title, topic_matches(data, topic, ranked)) for topic in repo.topics]
    return WeekFacts(
        window=window,
        prev_window=previous(window),
        prs=prs,
        prev_prs=prev_prs,
        scores=scored,
        ranked=ranked,
        risks=risks,
        data=data,
        watch=watchlist(data, repo.bots),
        data_as_of=as_of,
        sources=dict(sorted(sources.items())),
        reverts=_reverts(prs),
        reverted=reverted,
        bots=bots,
        tracks=tracks,
        repo=repo,
        threads=threads,
        api_data=api_data,
        reformatted=reformatted,
        relands=_relands(prs),
    )


def _reverts(prs: list[MergedPR]) -> dict[int, int]:
    """Revert PR -> the PR it reverts. The loader linked each revert through the store; the
    risk tag reads the same link."""
    return {p.number: n for p in prs if (n := reverted_pr(p)) is not None}


def _relands(prs: list[MergedPR]) -> dict[int, Reland]:
    return {p.number: p.reland for p in prs if p.reland is not None}


def reverted_names(prs: list[MergedPR]) -> list[int]:
    """The PRs the week's reverts revert, and those its re-lands bring back or undo: the
    weekly names their stored titles (a PR reverted weeks later is outside the week)."""
    return [*_reverts(prs).values(), *_relanded(_relands(prs))]


def _restyled(prs: list[MergedPR], reformatted: dict[int, Reformatted]) -> dict[int, int]:
    """Per PR, the changed lines that only re-format code: the share of the lines whose hunks
    were read, applied to all its lines (a big file's diff is kept only up to a bound)."""
    out = {}
    for pr in prs:
        found = reformatted.get(pr.number)
        if found is not None and found.lines and found.of:
            out[pr.number] = round((pr.additions + pr.deletions) * found.lines / found.of)
    return out


def _relanded(relands: dict[int, Reland]) -> list[int]:
    """The PRs re-lands bring back and the reverts they undo (the weekly names their titles)."""
    return [n for r in relands.values() for n in (r.original, r.revert) if n is not None]


# -- counting --------------------------------------------------------------------------------


def _spellings(
    prs: Iterable[MergedPR], names: Callable[[MergedPR], Iterable[str]]
) -> tuple[Counter[str], dict[str, str]]:
    """PRs per case-folded name, and the most common spelling of each (ties: the first)."""
    counts: Counter[str] = Counter()
    spelled: dict[str, Counter[str]] = defaultdict(Counter)
    for pr in prs:
        seen: set[str] = set()
        for name in names(pr):
            key = name.lower()
            spelled[key][name] += 1
            if key not in seen:
                seen.add(key)
                counts[key] += 1
    display = {
        k: sorted(v.items(), key=lambda kv: (-kv[1], kv[0]))[0][0] for k, v in spelled.items()
    }
    return counts, display


def _labels(pr: MergedPR) -> list[str]:
    return [x for x in pr.labels if x.lower() not in PROCESS_LABELS]


def _tags(pr: MergedPR) -> list[str]:
    return [f"[{t}]" for t in topic_tags(pr.title)]


def label_trends(facts: WeekFacts, top: int | None = None) -> list[Trend]:
    """Merged PRs per label (process labels left out), most common first; `top` None: all."""
    return _count_trends(facts, _labels, top)


def tag_trends(facts: WeekFacts, top: int | None = None) -> list[Trend]:
    """Merged PRs per title tag, most common first; `top` None: all."""
    return _count_trends(facts, _tags, top)


def _count_trends(
    facts: WeekFacts, names: Callable[[MergedPR], Iterable[str]], top: int | None
) -> list[Trend]:
    now, display = _spellings(facts.prs, names)
    before, _ = _spellings(facts.prev_prs, names)
    rows = [Trend(display[k], n, before.get(k, 0), n) for k, n in now.items()]
    rows.sort(key=lambda t: (-t.value, t.name.lower()))
    return rows[:top]


def _churn(
    prs: Iterable[MergedPR], key: Callable[[str], str], facts: WeekFacts
) -> tuple[Counter[str], Counter[str]]:
    """Lines and PRs per key, over the files people wrote: bot PRs and generated or vendored
    files (facts/generated.py) are left out."""
    lines: Counter[str] = Counter()
    members: dict[str, set[int]] = defaultdict(set)
    for pr in prs:
        if _by_bot(pr, facts):
            continue
        for f in pr.files:
            if facts.repo is not None and is_generated(f.path, facts.repo):
                continue
            name = key(f.path)
            lines[name] += f.lines
            members[name].add(pr.number)
    return lines, Counter({k: len(v) for k, v in members.items()})


def churn_trends(
    facts: WeekFacts, *, files: bool, depth: int = DEFAULT_DEPTH, top: int | None = None
) -> list[Trend]:
    """Directories (cut to `depth`) or files by lines added plus deleted, as docs/stats.md;
    `top` None: all."""

    def key(path: str) -> str:
        return path if files else directory_of(path, depth)

    now, prs = _churn(facts.prs, key, facts)
    before, _ = _churn(facts.prev_prs, key, facts)
    rows = [Trend(name, n, before.get(name, 0), prs[name]) for name, n in now.items()]
    rows.sort(key=lambda t: (-t.value, t.name))
    return rows[:top]


def generated_churn(facts: WeekFacts) -> int:
    """Lines of this week's merged PRs that hot files and directories leave out."""
    total = 0
    for pr in facts.prs:
        for f in pr.files:
            if _by_bot(pr, facts) or (facts.repo is not None and is_generated(f.path, facts.repo)):
                total += f.lines
    return total


def risk_counts(facts: WeekFacts) -> Counter[RiskTagName]:
    return Counter(t.tag for tags in facts.risks.values() for t in tags)


def previous_risk_counts(facts: WeekFacts) -> Counter[RiskTagName]:
    """Last week's risk tags (merged PRs per tag) by the same rules, for comparison. Computed
    on demand, as only the model's payloads compare with them (no repository settings: none)."""
    if facts.repo is None:
        return Counter()
    risks = assess_all(facts.prev_prs, facts.repo)
    return Counter(t.tag for tags in risks.values() for t in tags)


# -- themes ----------------------------------------------------------------------------------


def _bot_pr(pr: MergedPR, repo: RepoConfig) -> bool:
    return is_bot_pr(pr.author, pr.author_type, pr.title, pr.body, repo.bots)


def _by_bot(pr: MergedPR, facts: WeekFacts) -> bool:
    if pr.number in facts.bots:
        return True
    # Last week's PRs are not in `bots`: judged the same way here.
    return facts.repo is not None and _bot_pr(pr, facts.repo)


# Top directories that say where the work was only in general terms: tests, docs, CI, tools.
_PLAIN_DIRS = re.compile(
    r"^(?:\.|\.github|tests?|docs?|examples?|benchmarks?|scripts?|tools?|ci|\.ci|requirements|"
    r"docker|cmake|third_party|vendor)(?:/|$)",
    re.IGNORECASE,
)


def main_directory(pr: MergedPR, repo: RepoConfig | None) -> str | None:
    """The directory (two levels) holding most of a PR's hand-written lines, or None."""
    churn: Counter[str] = Counter()
    for f in pr.files:
        if repo is not None and is_generated(f.path, repo):
            continue
        churn[directory_of(f.path, 2)] += max(f.lines, 1)
    ranked = sorted(churn.items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked else None


def is_plain_directory(name: str) -> bool:
    """Tests, docs, CI, tools or the root: where, but not which part of the product."""
    return _PLAIN_DIRS.match(name) is not None


def source_directory(pr: MergedPR, repo: RepoConfig | None) -> str | None:
    """The product directory (not tests, docs, CI or the root) holding most of a PR's
    hand-written lines, or None when it changes none."""
    churn: Counter[str] = Counter()
    for f in pr.files:
        name = directory_of(f.path, 2)
        if not is_plain_directory(name) and not (repo is not None and is_generated(f.path, repo)):
            churn[name] += max(f.lines, 1)
    ranked = sorted(churn.items(), key=lambda kv: (-kv[1], kv[0]))
    return ranked[0][0] if ranked else None


def _area(pr: MergedPR, repo: RepoConfig | None) -> str | None:
    """The source directory holding most of a PR's hand-written lines, when it is one that
    says something (not tests, docs, CI or the root)."""
    name = main_directory(pr, repo)
    return name if name is not None and not is_plain_directory(name) else None


def primary_theme(pr: MergedPR, repo: RepoConfig | None = None) -> tuple[AreaKind, str]:
    """A PR's one theme, the most specific it names: a subject label or title tag that is a
    technical area (`rocm`, `[MRV2]`), else the source directory most of it changes, else a
    label or tag naming only the kind of change (`[BugFix]`, `[CI]`), else its main
    directory — so every PR appears under exactly one theme. `[2/N]`, `[main]` and version
    tags never are one."""
    labels, tags = _labels(pr), _tags(pr)
    for kind, names in (("label", labels), ("tag", tags)):
        specific = [x for x in names if not is_generic(x)]
        if specific:
            return kind, specific[0]  # type: ignore[return-value]
    area = _area(pr, repo)
    if area is not None:
        return "path", area
    if labels:
        return "label", labels[0]
    if tags:
        return "tag", tags[0]
    if pr.files:
        biggest = max(pr.files, key=lambda f: (f.lines, f.path))
        return "path", directory_of(biggest.path, 2)
    return "path", "."


def themes(facts: WeekFacts, limit: int | None = None) -> list[Theme]:
    """The week's themes over PRs by people (bot PRs and formatting sweeps, which only
    re-format code, are in no theme): technical directions first, by size, then kinds of
    change such as `[CI]`; each PR in exactly one. `limit` None: every theme (a limit keeps
    the first of them)."""
    rank = {n: k for k, n in enumerate(facts.ranked)}
    prs = [p for p in facts.prs if p.number not in facts.bots and not facts.sweep(p.number)]
    return _themes(prs, rank, facts.repo, limit)


def previous_themes(facts: WeekFacts, limit: int | None = None) -> list[Theme]:
    """Last week's themes, grouped the same way (bot PRs left out alike); members by number,
    as last week's importance is not computed."""
    prs = sorted((p for p in facts.prev_prs if not _by_bot(p, facts)), key=lambda p: p.number)
    return _themes(prs, {p.number: k for k, p in enumerate(prs)}, facts.repo, limit)


def previous_theme_sizes(facts: WeekFacts) -> Counter[tuple[AreaKind, str]]:
    """Last week's merged PRs by people per theme, keyed by (kind, name in lower case): how
    big this week's themes were a week before (0 where absent)."""
    sizes: Counter[tuple[AreaKind, str]] = Counter()
    for pr in facts.prev_prs:
        if not _by_bot(pr, facts):
            kind, name = primary_theme(pr, facts.repo)
            sizes[(kind, name.lower())] += 1
    return sizes


def _themes(
    prs: list[MergedPR], rank: dict[int, int], repo: RepoConfig | None, limit: int | None
) -> list[Theme]:
    groups: dict[tuple[AreaKind, str], list[int]] = defaultdict(list)
    spelled: dict[tuple[AreaKind, str], Counter[str]] = defaultdict(Counter)
    for pr in prs:
        kind, name = primary_theme(pr, repo)
        key = (kind, name.lower())
        groups[key].append(pr.number)
        spelled[key][name] += 1

    def generic(key: tuple[AreaKind, str]) -> bool:
        return key[0] != "path" and is_generic(key[1])

    ordered = sorted(
        groups.items(),
        key=lambda kv: (len(kv[1]) < 2, generic(kv[0]), -len(kv[1]), kv[0]),
    )
    out: list[Theme] = []
    for (kind, _), members in ordered[:limit]:
        name = sorted(spelled[(kind, _)].items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        out.append(Theme(kind, name, tuple(sorted(members, key=lambda n: rank[n]))))
    return out


# -- what the weekly report lists (shared by its writer and the model's payloads) ------------


def risky(facts: WeekFacts, top: int) -> list[int]:
    """The merged PRs with risk tags, heaviest first (ties: the more important PR)."""
    rank = {n: k for k, n in enumerate(facts.ranked)}
    tagged = [n for n in facts.ranked if facts.risks.get(n)]
    return sorted(tagged, key=lambda n: (-risk_score(facts.risks[n]), rank[n]))[:top]


@dataclass(frozen=True)
class FollowGroup:
    """Merged PRs sharing a risk tag, or open issues sharing a watch-list reason."""

    kind: Literal["risk", "watch"]
    reason: str  # a RiskTagName or a WatchReason
    numbers: tuple[int, ...]  # every item behind it, most important first

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.reason}"


def follow_up_groups(facts: WeekFacts) -> list[FollowGroup]:
    """Risk tags heaviest (then most frequent) first, then the watch reasons."""
    by_tag: dict[RiskTagName, list[int]] = {}
    for n in facts.ranked:
        for fired in facts.risks.get(n, []):
            by_tag.setdefault(fired.tag, []).append(n)
    weight = {t.tag: t.weight for tags in facts.risks.values() for t in tags}
    out = [
        FollowGroup("risk", tag, tuple(by_tag[tag]))
        for tag in sorted(by_tag, key=lambda k: (-weight[k], -len(by_tag[k]), k))
    ]
    reasons: dict[str, list[int]] = {}
    for watch in facts.watch:
        for reason in watch.reasons:
            reasons.setdefault(reason, []).append(watch.number)
    out += [FollowGroup("watch", reason, tuple(numbers)) for reason, numbers in reasons.items()]
    return out
