"""Which PR cards a window's map step sends: a day's key changes and topic PRs; for a week,
every merged PR, with the card of the daily report that carried it or a lite card."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tidings.analysis.cards import pr_card
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.paths import PathKinds


def day_cards(
    facts: DayFacts, evidence: dict[int, PREvidence], paths: PathKinds | None = None
) -> list[dict[str, Any]]:
    """The window's PR cards: its key changes, then its topic PRs (the daily report's set)."""
    data = facts.data
    paths = paths or PathKinds(facts.repo)
    scored = {s.number: s for s in facts.scored}
    key_prs = [s.number for s in facts.key_changes]
    topic_prs = [
        x.number
        for topic in facts.topics
        for x in topic.matches
        if data.items[x.number].kind == "pr"
    ]
    prs = list(dict.fromkeys(key_prs + topic_prs))
    return [pr_card(data, data.items[n], scored.get(n), evidence.get(n), paths=paths) for n in prs]


@dataclass
class WeekCards:
    """A week's PR cards by the day (index into the week's days) whose data they are cut
    from: `full`, a daily report's own cards; `lite`, short cards for the other merged PRs."""

    full: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    lite: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def week_cards(
    days: list[DayFacts], day_evidence: list[dict[int, PREvidence]], merged: set[int]
) -> WeekCards:
    """A card for every PR in `merged`. A PR that a daily report of the week carries gets
    exactly that report's card (built from that day's facts and evidence: the card of the
    day it merged when that day's report has one, else of the last day that has), so its
    cache key matches and a week whose days were already reported costs no call for it.
    Every other merged PR gets a lite card from the day it merged."""
    chosen: dict[int, tuple[int, dict[str, Any]]] = {}  # PR -> (day index, card)
    paths = PathKinds(days[0].repo) if days else None
    for k, day in enumerate(days):
        if day.quiet:
            continue
        for card in day_cards(day, day_evidence[k], paths):
            n = card["number"]
            if n not in merged:
                continue
            held = chosen.get(n)
            if held is None or not held[1]["signals"]["merged_in_window"]:
                chosen[n] = (k, card)
    out = WeekCards()
    for _, (k, card) in sorted(chosen.items()):
        out.full.setdefault(k, []).append(card)
    scored = [{s.number: s for s in day.scored} for day in days]
    for n in sorted(merged - set(chosen)):
        for k, day in enumerate(days):
            item = day.data.items.get(n)
            if item is not None and day.data.in_window(item.merged_at):
                card = pr_card(
                    day.data,
                    item,
                    scored[k].get(n),
                    day_evidence[k].get(n),
                    paths=paths or PathKinds(day.repo),
                    lite=True,
                )
                out.lite.setdefault(k, []).append(card)
                break
    return out
