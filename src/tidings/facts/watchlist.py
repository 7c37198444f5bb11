"""The watch list: open items a maintainer should look at, each with the rule that chose it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from tidings.facts.activity_data import WindowData
from tidings.facts.actors import is_bot

CRASH = re.compile(
    r"crash|segfault|segmentation fault|core dumped|sigsegv|sigabrt|illegal memory access|"
    r"illegal instruction|memory access fault|panic|崩溃|段错误",
    re.IGNORECASE,
)
REGRESSION = re.compile(r"regression|regressed|回归|性能下降", re.IGNORECASE)
# High engagement: this many human comments in the window, or this many reactions.
ENGAGED_COMMENTS = 3
ENGAGED_REACTIONS = 5
LONG_OPEN = timedelta(days=30)


# Why an open issue is on the watch list (docs/report.md lists the rules).
WatchReason = Literal["crash", "regression", "unanswered", "long_open_active"]


@dataclass(frozen=True)
class Watch:
    number: int
    reasons: tuple[WatchReason, ...]
    comments_in_window: int
    age_days: int | None  # None: when it was opened is unknown


def watchlist(data: WindowData, bots: list[str], limit: int = 8) -> list[Watch]:
    found: list[Watch] = []
    for number in data.active:
        item = data.items[number]
        if item.state != "open" or item.kind != "issue":
            continue
        talk = [c for c in data.activity_on(number) if not is_bot(c.author, c.author_type, bots)]
        reasons: list[WatchReason] = []
        if CRASH.search(item.title):
            reasons.append("crash")
        labels = " ".join(item.labels)
        if REGRESSION.search(item.title) or REGRESSION.search(labels):
            reasons.append("regression")
        engaged = len(talk) >= ENGAGED_COMMENTS or item.reactions >= ENGAGED_REACTIONS
        if engaged and number not in data.maintainer_replied:
            reasons.append("unanswered")
        age = data.end - item.created_at if item.created_at is not None else None
        if age is not None and age >= LONG_OPEN and len(talk) >= ENGAGED_COMMENTS:
            reasons.append("long_open_active")
        if reasons:
            found.append(Watch(number, tuple(reasons), len(talk), age.days if age else None))
    found.sort(key=lambda w: (-len(w.reasons), -w.comments_in_window, -w.number))
    return found[:limit]
