"""Report windows: a day or an ISO week, cut at a local wall-clock time in the repo's timezone.

A window is half-open, [start, end), held as UTC-aware datetimes so store queries compare
like with like. The cut-off is local wall-clock time: a team in Los Angeles with a 09:00
cut-off wants 09:00 every day, so across a DST change the daily window is 23 or 25 hours long
rather than drifting an hour. A cut-off that falls in a DST gap (02:30 on a spring-forward day)
resolves to the same instant as the time one hour later; one that falls twice (01:30 on a
fall-back day) means the first occurrence. See docs/stats.md.

Days and weeks of the years 1970 to 9998 are accepted: no repository has history before the
Unix epoch, and the margin at the top keeps a window's end (and the previous windows a report
compares with) inside what Python's datetime can hold in any timezone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from tidings.errors import WindowError

WindowKind = Literal["day", "week"]


FIRST_YEAR, LAST_YEAR = 1970, 9998
DAY_RANGE = f"{FIRST_YEAR}-01-01 to {LAST_YEAR}-12-31"
WEEK_RANGE = f"{FIRST_YEAR}-W01 to {LAST_YEAR}-W53"


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime
    tz: ZoneInfo
    label: str  # 2026-02-24 or 2026-W09
    kind: WindowKind
    cutoff: time = field(default=time(0))

    def __post_init__(self) -> None:
        for name in ("start", "end"):
            value: datetime = getattr(self, name)
            if value.tzinfo is None:
                raise ValueError(f"Window.{name} must be timezone-aware")
            object.__setattr__(self, name, value.astimezone(UTC))
        if self.end <= self.start:
            raise ValueError("Window.end must be after Window.start")

    def __contains__(self, moment: datetime | None) -> bool:
        return moment is not None and self.start <= moment < self.end

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    @property
    def local_start(self) -> datetime:
        return self.start.astimezone(self.tz)

    @property
    def local_end(self) -> datetime:
        return self.end.astimezone(self.tz)

    def display(self) -> str:
        """`2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)`, each end with its own offset."""
        return f"{_local(self.local_start)} ~ {_local(self.local_end)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "label": self.label,
            "timezone": self.tz.key,
            "cutoff": self.cutoff.strftime("%H:%M"),
            "start": _iso(self.start),
            "end": _iso(self.end),
            "display": self.display(),
        }


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def utc_offset(moment: datetime) -> str:
    """`UTC+8`, `UTC-7`, `UTC+5:30`, `UTC`: how the example reports show offsets."""
    offset = moment.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "-"
    hours, mins = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{mins:02d}" if mins else "")


def _local(moment: datetime) -> str:
    return f"{moment.strftime('%Y-%m-%d %H:%M')} ({utc_offset(moment)})"


def _at(day: date, cutoff: time, tz: ZoneInfo) -> datetime:
    # fold=0: an ambiguous wall time means its first occurrence, a missing one maps forward.
    try:
        return datetime.combine(day, cutoff, tzinfo=tz).astimezone(UTC)
    except OverflowError as exc:  # year 1 east of UTC, year 9999 west of it
        raise WindowError(
            f"{day.isoformat()} at {cutoff.strftime('%H:%M')} in {tz.key} is out of range",
            f"use a day from {DAY_RANGE}",
        ) from exc


def daily_window(day: date, tz: ZoneInfo, cutoff: time = time(0)) -> Window:
    """[day at cutoff, next day at cutoff) in local time."""
    return Window(
        start=_at(day, cutoff, tz),
        end=_at(_next(day, timedelta(days=1)), cutoff, tz),
        tz=tz,
        label=day.isoformat(),
        kind="day",
        cutoff=cutoff,
    )


def weekly_window(iso_year: int, iso_week: int, tz: ZoneInfo, cutoff: time = time(0)) -> Window:
    """[Monday of the ISO week at cutoff, next Monday at cutoff) in local time."""
    try:
        monday = date.fromisocalendar(iso_year, iso_week, 1)
    except ValueError as exc:
        raise WindowError(
            f"{iso_year}-W{iso_week:02d} is not an ISO week ({exc})",
            "use a week 01-52, or 53 in years that have one (e.g. 2026-W53)",
        ) from exc
    return Window(
        start=_at(monday, cutoff, tz),
        end=_at(_next(monday, timedelta(days=7)), cutoff, tz),
        tz=tz,
        label=f"{iso_year}-W{iso_week:02d}",
        kind="week",
        cutoff=cutoff,
    )


def _next(day: date, step: timedelta) -> date:
    try:
        return day + step
    except OverflowError as exc:  # past 9999-12-31
        raise WindowError(
            f"the window starting {day.isoformat()} ends past year 9999",
            f"use a day from {DAY_RANGE}",
        ) from exc


def previous(window: Window, n: int = 1) -> Window:
    """The window `n` periods before this one (n may be negative for later ones)."""
    local_day = _local_day(window)
    if window.kind == "day":
        return daily_window(local_day - timedelta(days=n), window.tz, window.cutoff)
    year, week, _ = (local_day - timedelta(weeks=n)).isocalendar()
    return weekly_window(year, week, window.tz, window.cutoff)


def days_of(week: Window) -> list[Window]:
    """The seven daily windows of a weekly one, Monday first: they tile it, each starting
    where the one before ends (both are cut at the same local time)."""
    if week.kind != "week":
        raise ValueError(f"{week.label} is not a week")
    monday = _local_day(week)
    return [daily_window(monday + timedelta(days=k), week.tz, week.cutoff) for k in range(7)]


def _local_day(window: Window) -> date:
    # The label names the local start day; the start instant may sit on another local day
    # when the cut-off fell in a DST gap, so trust the label.
    if window.kind == "day":
        return date.fromisoformat(window.label)
    year, week = parse_week(window.label)
    return date.fromisocalendar(year, week, 1)


_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_WEEK = re.compile(r"^(\d{4})-W(\d{2})$")


def parse_date(text: str) -> date:
    if not _DATE.match(text.strip()):
        raise WindowError(f"date {text!r} is not YYYY-MM-DD", "use e.g. --date 2026-02-24")
    try:
        day = date.fromisoformat(text.strip())
    except ValueError as exc:
        raise WindowError(
            f"date {text!r} does not exist ({exc})", "use a real calendar date"
        ) from exc
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise WindowError(f"date {text.strip()} is out of range", f"use a day from {DAY_RANGE}")
    return day


def parse_week(text: str) -> tuple[int, int]:
    match = _WEEK.match(text.strip())
    if not match:
        raise WindowError(f"week {text!r} is not YYYY-Www", "use e.g. --week 2026-W09")
    year, week = int(match[1]), int(match[2])
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise WindowError(f"week {text.strip()} is out of range", f"use a week from {WEEK_RANGE}")
    try:
        date.fromisocalendar(year, week, 1)
    except ValueError as exc:
        raise WindowError(
            f"{text} is not an ISO week ({exc})",
            "use a week 01-52, or 53 in years that have one (e.g. 2026-W53)",
        ) from exc
    return year, week


def parse_window(text: str, tz: ZoneInfo, cutoff: time = time(0)) -> Window:
    """A window from `YYYY-MM-DD` (a day) or `YYYY-Www` (an ISO week)."""
    if "W" in text.upper():
        year, week = parse_week(text.upper())
        return weekly_window(year, week, tz, cutoff)
    return daily_window(parse_date(text), tz, cutoff)


# -- which window a job or a person means -------------------------------------------------------
# The one place that answers "the last closed day/week" and reads `--date`/`--week` words: the
# API, `tidings run`, the queue and the CLI all ask here, so they cannot disagree at a cut-off.

# Words a person types for the usual windows (`--date yesterday`, `--week last-week`).
DAY_WORDS = ("today", "yesterday")
WEEK_WORDS = ("this-week", "last-week")


def last_closed_day(tz: ZoneInfo, cutoff: time, now: datetime) -> date:
    """The latest day whose window (cut at `cutoff`) has ended by `now`."""
    day = now.astimezone(tz).date()
    while daily_window(day, tz, cutoff).end > now:
        day -= timedelta(days=1)
    return day


def closed_days(tz: ZoneInfo, cutoff: time, now: datetime, count: int) -> list[date]:
    """The `count` most recent days whose windows have ended by `now`, oldest first."""
    latest = last_closed_day(tz, cutoff, now)
    return [latest - timedelta(days=k) for k in range(count - 1, -1, -1)]


def last_closed_week(tz: ZoneInfo, cutoff: time, now: datetime) -> tuple[int, int]:
    """The latest ISO week whose window has ended by `now`. On a Monday before the cut-off
    the week just past has not ended yet, so this is the one before it."""
    day = now.astimezone(tz).date()
    while True:
        year, week, _ = day.isocalendar()
        if weekly_window(year, week, tz, cutoff).end <= now:
            return year, week
        day -= timedelta(days=7)


def resolve_day(text: str | None, tz: ZoneInfo, cutoff: time, now: datetime) -> date:
    """The day `--date` names: YYYY-MM-DD, `today` or `yesterday` (calendar days in `tz`),
    or None for the last closed day."""
    if text is None:
        return last_closed_day(tz, cutoff, now)
    word = text.strip().lower()
    if word in DAY_WORDS:
        return now.astimezone(tz).date() - timedelta(days=DAY_WORDS.index(word))
    return parse_date(text)


def resolve_week(text: str | None, tz: ZoneInfo, cutoff: time, now: datetime) -> tuple[int, int]:
    """The ISO week `--week` names: YYYY-Www, `this-week` or `last-week` (calendar weeks in
    `tz`), or None for the last closed week."""
    if text is None:
        return last_closed_week(tz, cutoff, now)
    word = text.strip().lower()
    if word in WEEK_WORDS:
        local = now.astimezone(tz).date()
        year, week, _ = (local - timedelta(days=7 * WEEK_WORDS.index(word))).isocalendar()
        return year, week
    return parse_week(text)
