"""Which window "the last closed day/week" means, answered once (facts/windows.py) for the API,
`tidings run`, the queue and the CLI, tested at the cut-off's edges; and the report service
that all of them build through, with the same coverage and team checks."""

from __future__ import annotations

import warnings
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tidings import api
from tidings.common.config import Config, RepoConfig
from tidings.errors import TidingsWarning, UncoveredWindowError
from tidings.facts.windows import closed_days, last_closed_day, last_closed_week, resolve_week
from tidings.jobs.runner import run_repositories
from tidings.store import Store
from tidings.store.freshness import SYNCED_STREAM

SHANGHAI = ZoneInfo("Asia/Shanghai")
NINE = time(9)
TICK = timedelta(microseconds=1)


def at(tz: ZoneInfo, *args: int) -> datetime:
    return datetime(*args, tzinfo=tz).astimezone(UTC)  # type: ignore[misc]


def test_a_day_closes_at_its_cutoff_not_before() -> None:
    end_of_13th = at(SHANGHAI, 2026, 3, 14, 9, 0)
    assert last_closed_day(SHANGHAI, NINE, end_of_13th - TICK) == date(2026, 3, 12)
    assert last_closed_day(SHANGHAI, NINE, end_of_13th) == date(2026, 3, 13)
    assert closed_days(SHANGHAI, NINE, end_of_13th, 3) == [
        date(2026, 3, 11),
        date(2026, 3, 12),
        date(2026, 3, 13),
    ]
    # Before the cut-off, the calendar's "yesterday" (03-13) is not closed yet.
    assert last_closed_day(SHANGHAI, NINE, at(SHANGHAI, 2026, 3, 14, 8, 30)) == date(2026, 3, 12)


def test_a_week_closes_at_mondays_cutoff() -> None:
    monday_nine = at(SHANGHAI, 2026, 3, 16, 9, 0)  # W11 (03-09..03-15) ends here
    assert last_closed_week(SHANGHAI, NINE, monday_nine - TICK) == (2026, 10)
    assert last_closed_week(SHANGHAI, NINE, monday_nine) == (2026, 11)
    # Sunday night and a week later still pick the right one.
    assert last_closed_week(SHANGHAI, NINE, at(SHANGHAI, 2026, 3, 15, 23, 0)) == (2026, 10)
    assert last_closed_week(SHANGHAI, NINE, at(SHANGHAI, 2026, 3, 23, 8, 0)) == (2026, 11)
    # Across the year: the Monday 2026-01-05 before 09:00 is still in 2026-W01's window.
    assert last_closed_week(SHANGHAI, NINE, at(SHANGHAI, 2026, 1, 5, 8, 0)) == (2025, 52)


def test_the_cutoff_holds_across_a_dst_change() -> None:
    la = ZoneInfo("America/Los_Angeles")
    # Clocks went forward on Sunday 2026-03-08; 09:00 on Monday 03-09 is PDT (16:00 UTC).
    monday_nine = at(la, 2026, 3, 9, 9, 0)
    assert monday_nine == datetime(2026, 3, 9, 16, 0, tzinfo=UTC)
    assert last_closed_week(la, NINE, monday_nine - TICK) == (2026, 9)
    assert last_closed_week(la, NINE, monday_nine) == (2026, 10)
    assert last_closed_day(la, NINE, monday_nine - TICK) == date(2026, 3, 7)
    assert last_closed_day(la, NINE, monday_nine) == date(2026, 3, 8)  # a 23-hour day


def test_midnight_cutoff_in_utc() -> None:
    midnight = datetime(2026, 3, 16, tzinfo=UTC)
    assert last_closed_week(ZoneInfo("UTC"), time(0), midnight) == (2026, 11)
    assert last_closed_day(ZoneInfo("UTC"), time(0), midnight - TICK) == date(2026, 3, 14)


def test_the_words_are_calendar_weeks_and_the_default_is_the_last_closed() -> None:
    monday_eight = at(SHANGHAI, 2026, 3, 16, 8, 0)
    assert resolve_week(None, SHANGHAI, NINE, monday_eight) == (2026, 10)
    assert resolve_week("last-week", SHANGHAI, NINE, monday_eight) == (2026, 11)
    assert resolve_week("2026-W03", SHANGHAI, NINE, monday_eight) == (2026, 3)


# -- run and the API agree -------------------------------------------------------------------


def _config(**repo: object) -> Config:
    return Config.model_validate(
        {
            "repos": [{"name": "a/b", "timezone": "Asia/Shanghai", "cutoff": "09:00", **repo}],
            "site": {"languages": ["en"]},
        }
    )


def _synced(store: Store, _repo: RepoConfig) -> dict[str, int]:
    """A sync of an empty repository that finished now (the data reaches now)."""
    with store.begin() as conn:
        store.set_cursor(conn, store.repo_id(conn, "a/b", create=True), SYNCED_STREAM, None)
    return {}


def _unsynced(store: Store, _repo: RepoConfig) -> dict[str, int]:
    """A sync that stopped before marking itself done: the store holds nothing recent."""
    with store.begin() as conn:
        store.repo_id(conn, "a/b", create=True)
    return {}


@pytest.mark.parametrize(
    "local",
    [
        (2026, 3, 16, 8, 0),  # Monday before the cut-off: W11 has not ended
        (2026, 3, 16, 8, 59),
        (2026, 3, 16, 9, 0),  # W11 ends now
        (2026, 3, 18, 12, 0),
    ],
)
def test_run_writes_the_week_the_api_calls_last(
    local: tuple[int, ...], sqlite_url: str, tmp_path: Path
) -> None:
    now = at(SHANGHAI, *local)
    cfg = _config()
    store = Store.open(sqlite_url)
    try:
        (outcome,) = run_repositories(
            cfg, store, sync=_synced, reports_dir=tmp_path, days=1, now=now
        )
    finally:
        store.close()
    year, week = api.resolve_week(None, cfg.repos[0], now)
    day = api.resolve_day(None, cfg.repos[0], now)
    assert outcome.ok, outcome.error
    assert sorted(outcome.checked) == [
        f"a/b/daily/{day.isoformat()}.en.json",
        f"a/b/weekly/{year}-W{week:02d}.en.json",
    ]
    assert outcome.warnings == []


def test_run_leaves_an_uncovered_window_unwritten_and_says_so(
    sqlite_url: str, tmp_path: Path
) -> None:
    now = at(SHANGHAI, 2026, 3, 18, 12, 0)
    store = Store.open(sqlite_url)
    try:
        (outcome,) = run_repositories(
            _config(), store, sync=_unsynced, reports_dir=tmp_path, days=1, now=now
        )
    finally:
        store.close()
    assert outcome.ok and outcome.written == []
    assert len(outcome.warnings) == 2  # the day and the week
    assert all("a due report was not written" in w for w in outcome.warnings)
    assert "the store holds no data for a/b yet" in outcome.warnings[0]
    # The API refuses the same window for the same reason.
    with pytest.raises(UncoveredWindowError, match="no data for a/b"):
        api.build_daily(sqlite_url, _config().repos[0], date(2026, 3, 17), "en", now=now)


def test_run_and_the_api_both_say_a_team_no_sync_listed(sqlite_url: str, tmp_path: Path) -> None:
    now = at(SHANGHAI, 2026, 3, 18, 12, 0)
    cfg = _config(maintainer_teams=["a/core"])
    store = Store.open(sqlite_url)
    try:
        (outcome,) = run_repositories(
            cfg, store, sync=_synced, reports_dir=tmp_path, days=2, now=now
        )
    finally:
        store.close()
    # Said once per repository, not once per report.
    assert [w for w in outcome.warnings if "team a/core" in w] == [outcome.warnings[0]]
    assert len(outcome.warnings) == 1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api.build_daily(sqlite_url, cfg.repos[0], date(2026, 3, 17), "en", now=now)
    assert [str(w.message) for w in caught if w.category is TidingsWarning] == outcome.warnings
