"""The facts of one ISO week: merged PRs with their risk tags, importance, themes and churn,
each compared with the week before. Pure functions over rows loaded once per week.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.config import RepoConfig
from tidings.facts.activity_data import WindowData, load_window
from tidings.facts.importance import Scored, score_merged
from tidings.facts.risk import MergedPR, RiskTag, RiskTagName, assess_all, load_merged, risk_score
from tidings.facts.roles import load_roles
from tidings.facts.stats import data_as_of, directory_of
from tidings.facts.trends import PROCESS_LABELS, AreaKind, title_tags
from tidings.facts.watchlist import Watch, watchlist
from tidings.facts.windows import Window, previous
from tidings.store import schema


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
    """Merged PRs sharing their leading label, title tag or directory, most important first."""

    kind: AreaKind
    name: str
    members: tuple[int, ...]


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

    @property
    def by_number(self) -> dict[int, MergedPR]:
        return {p.number: p for p in self.prs}


def load_week(conn: Connection, repo_id: int, repo: RepoConfig, window: Window) -> WeekFacts:
    prev_window = previous(window)
    prs = load_merged(conn, repo_id, window.start, window.end)
    prev_prs = load_merged(conn, repo_id, prev_window.start, prev_window.end)
    data = load_window(
        conn, repo_id, repo.name, window.start, window.end, roles=load_roles(conn, repo_id, repo)
    )
    scored = {s.number: s for s in score_merged(data, repo)}
    ranked = sorted(
        (p.number for p in prs),
        key=lambda n: (-(scored[n].score if n in scored else 0.0), n),
    )
    sources = Counter("git" if p.source == "git" else "api" for p in prs)
    return WeekFacts(
        window=window,
        prev_window=prev_window,
        prs=prs,
        prev_prs=prev_prs,
        scores=scored,
        ranked=ranked,
        risks=assess_all(prs, repo),
        data=data,
        watch=watchlist(data, repo.bots),
        data_as_of=data_as_of(conn, repo_id),
        sources=dict(sorted(sources.items())),
    )


def has_api_items(conn: Connection, repo_id: int) -> bool:
    """Whether anything in the store came from the GitHub API (issues, comments, reviews)."""
    it = schema.items
    return (
        conn.execute(
            sa.select(it.c.number)
            .where(it.c.repo_id == repo_id, sa.func.coalesce(it.c.source, "api") != "git")
            .limit(1)
        ).first()
        is not None
    )


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
    return [f"[{t}]" for t in title_tags(pr.title)]


def label_trends(facts: WeekFacts, top: int = 10) -> list[Trend]:
    return _count_trends(facts, _labels, top)


def tag_trends(facts: WeekFacts, top: int = 10) -> list[Trend]:
    return _count_trends(facts, _tags, top)


def _count_trends(
    facts: WeekFacts, names: Callable[[MergedPR], Iterable[str]], top: int
) -> list[Trend]:
    now, display = _spellings(facts.prs, names)
    before, _ = _spellings(facts.prev_prs, names)
    rows = [Trend(display[k], n, before.get(k, 0), n) for k, n in now.items()]
    rows.sort(key=lambda t: (-t.value, t.name.lower()))
    return rows[:top]


def _churn(prs: Iterable[MergedPR], key: Callable[[str], str]) -> tuple[Counter[str], Counter[str]]:
    lines: Counter[str] = Counter()
    members: dict[str, set[int]] = defaultdict(set)
    for pr in prs:
        for f in pr.files:
            name = key(f.path)
            lines[name] += f.lines
            members[name].add(pr.number)
    return lines, Counter({k: len(v) for k, v in members.items()})


def churn_trends(facts: WeekFacts, *, files: bool, depth: int = 2, top: int = 10) -> list[Trend]:
    """Directories (cut to `depth`) or files by lines added plus deleted, as docs/stats.md."""

    def key(path: str) -> str:
        return path if files else directory_of(path, depth)

    now, prs = _churn(facts.prs, key)
    before, _ = _churn(facts.prev_prs, key)
    rows = [Trend(name, n, before.get(name, 0), prs[name]) for name, n in now.items()]
    rows.sort(key=lambda t: (-t.value, t.name))
    return rows[:top]


def risk_counts(facts: WeekFacts) -> Counter[RiskTagName]:
    return Counter(t.tag for tags in facts.risks.values() for t in tags)


# -- themes ----------------------------------------------------------------------------------


def primary_theme(pr: MergedPR) -> tuple[AreaKind, str]:
    """A PR's one theme: its first subject label, else its first title tag, else its main
    directory — so every PR appears under exactly one theme."""
    labels = _labels(pr)
    if labels:
        return "label", labels[0]
    tags = _tags(pr)
    if tags:
        return "tag", tags[0]
    if pr.files:
        biggest = max(pr.files, key=lambda f: (f.lines, f.path))
        return "path", directory_of(biggest.path, 2)
    return "path", "."


def themes(facts: WeekFacts, limit: int = 6) -> list[Theme]:
    groups: dict[tuple[AreaKind, str], list[int]] = defaultdict(list)
    spelled: dict[tuple[AreaKind, str], Counter[str]] = defaultdict(Counter)
    rank = {n: k for k, n in enumerate(facts.ranked)}
    for pr in facts.prs:
        kind, name = primary_theme(pr)
        key = (kind, name.lower())
        groups[key].append(pr.number)
        spelled[key][name] += 1
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
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
