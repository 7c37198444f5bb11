"""Where a model's text goes in a report: one typed key per kind of slot.

The model layer (analysis/) files each text that passed the guard under a slot; the report
writers (report/) ask for a slot's text and print the rules' text when there is none. Both
sides build their keys from these classes, so a key one side spells differently from the other
is a type error, and a part no slot has fails where the key is built: before, a typo in an
untyped tuple silently left the rules' text in place.

It lives in facts/ because both the model layer and the writers import facts/, and a writer
importing analysis/ would load the model client on every report.

    PRSummary(n)            a PR's summary (map answer)         daily, weekly
    PRWhy(n)                why the PR matters (map answer)     daily, weekly
    HotText(n, part)        a hot thread's core topic, contention or status
    HotView(n, login)       a participant's viewpoint in a hot thread
    Section(name)           a whole section's text: summary, trends, activity, watch (daily);
                            summary, exec, module_trends (weekly)
    TopicText(title)        a daily topic track's analysis
    RiskText(n, part)       a weekly risk observation or its follow-up
    ThemeText(kind, name)   a weekly key-change theme's paragraph
    FollowUpText(kind, reason)  a weekly follow-up group's text
    TrackText(title)        a weekly topic track's paragraph
    TrackItemText(n)        an issue or open PR listed under a weekly topic track
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from tidings.facts.trends import AreaKind

HotPart = Literal["core_topic", "contention", "status"]
SectionName = Literal["summary", "trends", "activity", "watch", "exec", "module_trends"]
RiskPart = Literal["observation", "follow_up"]
FollowKind = Literal["risk", "watch"]

HOT_PARTS: tuple[HotPart, ...] = get_args(HotPart)
SECTIONS: tuple[SectionName, ...] = get_args(SectionName)
RISK_PARTS: tuple[RiskPart, ...] = get_args(RiskPart)
FOLLOW_KINDS: tuple[FollowKind, ...] = get_args(FollowKind)
AREA_KINDS: tuple[AreaKind, ...] = get_args(AreaKind)


def _known(value: str, known: tuple[str, ...], what: str) -> None:
    # Type checkers catch a wrong literal in code; this catches one from data (a model's
    # answer key, a cast) at the place the key is made.
    if value not in known:
        raise ValueError(f"no {what} {value!r} (known: {', '.join(known)})")


@dataclass(frozen=True, slots=True)
class PRSummary:
    number: int


@dataclass(frozen=True, slots=True)
class PRWhy:
    number: int


@dataclass(frozen=True, slots=True)
class HotText:
    number: int
    part: HotPart

    def __post_init__(self) -> None:
        _known(self.part, HOT_PARTS, "hot-thread part")


@dataclass(frozen=True, slots=True)
class HotView:
    number: int
    login: str


@dataclass(frozen=True, slots=True)
class Section:
    name: SectionName

    def __post_init__(self) -> None:
        _known(self.name, SECTIONS, "section")


@dataclass(frozen=True, slots=True)
class TopicText:
    title: str


@dataclass(frozen=True, slots=True)
class RiskText:
    number: int
    part: RiskPart

    def __post_init__(self) -> None:
        _known(self.part, RISK_PARTS, "risk-observation part")


@dataclass(frozen=True, slots=True)
class ThemeText:
    kind: AreaKind
    name: str

    def __post_init__(self) -> None:
        _known(self.kind, AREA_KINDS, "theme kind")


@dataclass(frozen=True, slots=True)
class FollowUpText:
    kind: FollowKind
    reason: str

    def __post_init__(self) -> None:
        _known(self.kind, FOLLOW_KINDS, "follow-up kind")


@dataclass(frozen=True, slots=True)
class TrackText:
    title: str


@dataclass(frozen=True, slots=True)
class TrackItemText:
    number: int


Slot = (
    PRSummary
    | PRWhy
    | HotText
    | HotView
    | Section
    | TopicText
    | RiskText
    | ThemeText
    | FollowUpText
    | TrackText
    | TrackItemText
)
