"""Report windows: local cut-offs, DST, ISO weeks, and exact boundaries."""

from __future__ import annotations

from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from tests.factories import ts
from tidings.facts.windows import (
    WindowError,
    daily_window,
    parse_date,
    parse_week,
    parse_window,
    previous,
    utc_offset,
    weekly_window,
)

SHANGHAI = ZoneInfo("Asia/Shanghai")
LA = ZoneInfo("America/Los_Angeles")
UTC = ZoneInfo("UTC")


def test_shanghai_cutoff_matches_the_example_report() -> None:
    w = daily_window(date(2026, 2, 24), SHANGHAI, time(11, 31))
    assert w.start == ts("2026-02-24T03:31:00Z")
    assert w.end == ts("2026-02-25T03:31:00Z")
    assert w.display() == "2026-02-24 11:31 (UTC+8) ~ 2026-02-25 11:31 (UTC+8)"
    assert w.label == "2026-02-24" and w.kind == "day"
    assert w.to_dict()["start"] == "2026-02-24T03:31:00Z"


def test_half_open_boundaries() -> None:
    w = daily_window(date(2026, 2, 24), SHANGHAI, time(11, 31))
    assert w.start in w
    assert w.start - timedelta(seconds=1) not in w
    assert w.end - timedelta(seconds=1) in w
    assert w.end not in w
    assert w.end in previous(w, -1)
    assert None not in w


@pytest.mark.parametrize(
    ("day", "cutoff", "start", "end", "hours"),
    [
        # 2026-03-08: clocks go 02:00 PST -> 03:00 PDT, the local day has 23 hours.
        (date(2026, 3, 8), time(0), "2026-03-08T08:00:00Z", "2026-03-09T07:00:00Z", 23),
        (date(2026, 3, 8), time(9), "2026-03-08T16:00:00Z", "2026-03-09T16:00:00Z", 24),
        (date(2026, 3, 7), time(9), "2026-03-07T17:00:00Z", "2026-03-08T16:00:00Z", 23),
        (date(2026, 3, 9), time(9), "2026-03-09T16:00:00Z", "2026-03-10T16:00:00Z", 24),
        # 2026-11-01: clocks go 02:00 PDT -> 01:00 PST, the local day has 25 hours.
        (date(2026, 11, 1), time(0), "2026-11-01T07:00:00Z", "2026-11-02T08:00:00Z", 25),
        (date(2026, 10, 31), time(9), "2026-10-31T16:00:00Z", "2026-11-01T17:00:00Z", 25),
    ],
)
def test_los_angeles_across_dst(day: date, cutoff: time, start: str, end: str, hours: int) -> None:
    w = daily_window(day, LA, cutoff)
    assert (w.start, w.end) == (ts(start), ts(end))
    assert w.duration == timedelta(hours=hours)
    # Local wall-clock cut-off on both ends, whatever the offset.
    assert w.local_start.time() == cutoff and w.local_end.time() == cutoff


def test_dst_display_shows_each_offset() -> None:
    w = daily_window(date(2026, 3, 7), LA, time(9))
    assert w.display() == "2026-03-07 09:00 (UTC-8) ~ 2026-03-08 09:00 (UTC-7)"


def test_cutoff_inside_the_spring_gap_maps_forward() -> None:
    # 02:30 does not exist on 2026-03-08 in Los Angeles; it means 03:30 PDT.
    w = daily_window(date(2026, 3, 8), LA, time(2, 30))
    assert w.start == ts("2026-03-08T10:30:00Z")
    assert previous(previous(w, 1), -1) == w


def test_weekly_window_and_iso_edges() -> None:
    w1 = weekly_window(2026, 1, UTC)
    # ISO week 1 of 2026 starts in December 2025.
    assert w1.start == ts("2025-12-29T00:00:00Z")
    assert w1.end == ts("2026-01-05T00:00:00Z")
    assert w1.label == "2026-W01" and w1.kind == "week"
    # 2026 starts on a Thursday, so it has a week 53 running into 2027.
    w53 = weekly_window(2026, 53, SHANGHAI, time(11, 31))
    assert w53.start == ts("2026-12-28T03:31:00Z")
    assert w53.end == ts("2027-01-04T03:31:00Z")
    assert previous(weekly_window(2027, 1, SHANGHAI, time(11, 31))) == w53
    assert previous(w1).label == "2025-W52"  # 2025 has no week 53
    with pytest.raises(WindowError, match="2025-W53 is not an ISO week"):
        weekly_window(2025, 53, UTC)


def test_weekly_window_across_dst_is_167_hours() -> None:
    w = parse_window("2026-W10", LA, time(9))  # Monday 2026-03-02 .. Monday 2026-03-09
    assert w.duration == timedelta(hours=167)


def test_previous_days_and_weeks() -> None:
    w = daily_window(date(2026, 3, 1), SHANGHAI, time(11, 31))
    assert previous(w).label == "2026-02-28"
    assert previous(w, 7).label == "2026-02-22"
    assert previous(weekly_window(2026, 9, UTC), 10).label == "2025-W51"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2026-2-24", "not YYYY-MM-DD"),
        ("24/02/2026", "not YYYY-MM-DD"),
        ("2026-02-30", "does not exist"),
        ("2026-W9", "not YYYY-Www"),
        ("2025-W53", "not an ISO week"),
        ("2026-W00", "not an ISO week"),
    ],
)
def test_parse_errors_are_one_line(text: str, message: str) -> None:
    with pytest.raises(WindowError) as info:
        parse_window(text, UTC)
    line = info.value.one_line()
    assert message in line and "\n" not in line and " — " in line


def test_parsers() -> None:
    assert parse_date("2026-02-24") == date(2026, 2, 24)
    assert parse_week("2026-W09") == (2026, 9)
    assert parse_window("2026-w09", UTC).label == "2026-W09"


def test_utc_offsets() -> None:
    assert utc_offset(ts("2026-01-01T00:00:00Z")) == "UTC"
    assert utc_offset(ts("2026-01-01T00:00:00Z").astimezone(ZoneInfo("Asia/Kolkata"))) == "UTC+5:30"
    assert utc_offset(ts("2026-01-01T00:00:00Z").astimezone(LA)) == "UTC-8"
