"""The week's facts computed once: every list and count a weekly report shows, derived from
`WeekFacts` (facts/weekly.py) in one pass and read by both the report writer
(report/weekly/) and the model's payloads (analysis/weekly.py), as the daily report's
`DayFacts` (facts/daily.py) is. What the model is shown is what the report prints: the two
sides cannot compute a list twice, with different limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from tidings.common.config import RepoConfig
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.risk import RiskTagName
from tidings.facts.trends import AreaKind
from tidings.facts.weekly import (
    FollowGroup,
    Theme,
    Trend,
    WeekFacts,
    churn_trends,
    follow_up_groups,
    generated_churn,
    label_trends,
    previous_risk_counts,
    previous_theme_sizes,
    previous_themes,
    risk_counts,
    risky,
    tag_trends,
    themes,
)

THEMES = 6  # the key-change themes (and the themes the opening summary names)
KEY_PRS = 8  # the key-PR quick view (and the key PRs the model's summary reads)
COUNTED = 8  # the labels and title tags the executive summary counts
TRENDS = 10  # the rows of each module-trend table
PREVIOUS_THEMES = 6  # last week's themes this week's are compared with


@dataclass(frozen=True)
class WeekBundle:
    """What a weekly report states about its week, beyond `facts` itself, computed once."""

    facts: WeekFacts
    themes: tuple[Theme, ...]  # every theme of the week, the most telling first
    previous_themes: tuple[Theme, ...]  # last week's, grouped the same way (PREVIOUS_THEMES)
    # Last week's merged PRs by people per theme, by (kind, name in lower case).
    previous_theme_sizes: Mapping[tuple[AreaKind, str], int]
    # Merged PRs per risk tag, the most frequent first (ties by name).
    risk_counts: tuple[tuple[RiskTagName, int], ...]
    labels: tuple[Trend, ...]  # the TRENDS most common labels against last week
    tags: tuple[Trend, ...]  # the TRENDS most common title tags against last week
    tag_counts: Mapping[str, int]  # every title tag (in lower case) -> this week's merged PRs
    # The TRENDS directories (two levels, as `tidings stats` cuts them) with the most changed
    # lines.
    directories: tuple[Trend, ...]
    files: tuple[Trend, ...]  # the TRENDS files with the most changed lines
    generated_churn: int  # changed lines the two above leave out (bots, generated files)
    risky: tuple[int, ...]  # the risk observations' PRs, heaviest first
    follow_ups: tuple[FollowGroup, ...]

    @property
    def key_themes(self) -> tuple[Theme, ...]:
        return self.themes[:THEMES]

    @property
    def key_prs(self) -> list[int]:
        return self.facts.ranked[:KEY_PRS]

    def previous_size(self, theme: Theme) -> int:
        """How many merged PRs by people a theme of this week had last week (0: none)."""
        return self.previous_theme_sizes.get((theme.kind, theme.name.lower()), 0)

    @cached_property
    def previous_risk_counts(self) -> tuple[tuple[RiskTagName, int], ...]:
        """Last week's merged PRs per risk tag, ordered as `risk_counts`. Only the model's
        payloads compare with them, and assessing last week's PRs costs what this week's
        did: computed when first read, so a report without a model never pays for it."""
        return _ordered(previous_risk_counts(self.facts))


def week_bundle(facts: WeekFacts, repo: RepoConfig) -> WeekBundle:
    """Every list of the week's report, from its facts: a pure function, each list made once."""
    all_tags = tag_trends(facts, top=None)
    return WeekBundle(
        facts=facts,
        themes=tuple(themes(facts)),
        previous_themes=tuple(previous_themes(facts, PREVIOUS_THEMES)),
        previous_theme_sizes=dict(previous_theme_sizes(facts)),
        risk_counts=_ordered(risk_counts(facts)),
        labels=tuple(label_trends(facts, TRENDS)),
        tags=tuple(all_tags[:TRENDS]),
        tag_counts={x.name.lower(): x.value for x in all_tags},
        directories=tuple(churn_trends(facts, files=False, top=TRENDS)),
        files=tuple(churn_trends(facts, files=True, top=TRENDS)),
        generated_churn=generated_churn(facts),
        risky=tuple(risky(facts, repo.risk.top)),
        follow_ups=tuple(follow_up_groups(facts)),
    )


def _ordered(counts: Mapping[RiskTagName, int]) -> tuple[tuple[RiskTagName, int], ...]:
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


@dataclass(frozen=True)
class WeekInput:
    """What the model layer reads for a week (kept here, so the report path loads no model
    code): the bundle the report lays out, the evidence of the week's merged PRs, and the
    week's daily windows as the daily reports hand them to the model, with their evidence
    (so the week's PR cards are the dailies' cards)."""

    bundle: WeekBundle
    evidence: dict[int, PREvidence] = field(default_factory=dict)
    days: list[DayFacts] = field(default_factory=list)
    day_evidence: list[dict[int, PREvidence]] = field(default_factory=list)

    @property
    def facts(self) -> WeekFacts:
        return self.bundle.facts
