"""The weekly's follow-ups: one line per risk tag and per watch-list reason, with the items
behind it."""

from __future__ import annotations

from tidings.facts.slots import FollowUpText
from tidings.facts.weekly import FollowGroup
from tidings.report import weekly_model as w
from tidings.report.weekly.writer import WeekWriter

FOLLOW_ITEMS = 8  # items listed under a follow-up


def follow_ups(wr: WeekWriter) -> list[w.FollowUp]:
    return [follow_up(wr, g) for g in wr.week.follow_ups]


def follow_up(wr: WeekWriter, group: FollowGroup) -> w.FollowUp:
    numbers = group.numbers
    rules = wr.t(f"fu_{group.reason}" if group.kind == "risk" else f"fu_watch_{group.reason}")
    return w.FollowUp(
        kind=group.kind,
        reason=group.reason,
        items=[wr.ref(n) for n in numbers[:FOLLOW_ITEMS]],
        total=len(numbers),
        text=wr.prose(FollowUpText(group.kind, group.reason), rules),
    )
