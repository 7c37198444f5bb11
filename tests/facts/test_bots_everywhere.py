"""One bot definition in every count (#22): an automation account without `[bot]`
(`vllm-ascend-ci`) and a configured one (`release-helper`) are bots in the participants, the
activity ranking, the first-timers, the hot discussions, the clusters, the importance ranking,
`tidings stats` and the weekly's bot PRs and themes alike, on an API store and a git store;
people whose names hold "bot" (Abbott, robotics-dev) count in every one of them.

The day, 2026-02-24 (UTC), has four merged PRs under `[Doc]` in docs/source: #1 by
vllm-ascend-ci, #2 by Abbott (her first), #3 by robotics-dev (merged before, #5 in January),
#4 by release-helper. On #2 vllm-ascend-ci, release-helper and Abbott comment once each (three
comments, one person: no hot discussion); vllm-ascend-ci reviews #3.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from tests.factories import Records, seed
from tidings.common.config import RepoConfig
from tidings.common.records import GIT_AUTHOR
from tidings.facts.daily import DayFacts
from tidings.facts.load.day import load_day
from tidings.facts.load.stats import people
from tidings.facts.load.week import load_week
from tidings.facts.weekly import WeekFacts, churn_trends, themes
from tidings.facts.windows import daily_window, weekly_window
from tidings.store import Store
from tidings.store.history import ROOT_STREAM

REPO = RepoConfig(name="acme/widgets", bots=["release-helper"])
DAY = date(2026, 2, 24)
BOTS = {"vllm-ascend-ci", "release-helper"}
HUMANS = {"Abbott", "robotics-dev"}


def _records(source: str) -> list[Any]:
    rec = Records()
    git = source == "git"

    def pr(number: int, author: str, hour: str, association: str | None, **kw: Any) -> Any:
        return rec.pr(
            number,
            f"2026-02-24T{hour}:00:00Z",
            author=author,
            author_type=GIT_AUTHOR if git else "User",
            author_association=None if git else association,
            merged_at=f"2026-02-24T{hour}:30:00Z",
            source="git" if git else None,
            **kw,
        )

    out: list[Any] = [
        rec.repo(),
        pr(1, "vllm-ascend-ci", "01", "FIRST_TIME_CONTRIBUTOR", title="[Doc] Translated docs"),
        pr(2, "Abbott", "02", "FIRST_TIME_CONTRIBUTOR", title="[Doc] Fix a typo"),
        pr(3, "robotics-dev", "03", "CONTRIBUTOR", title="[Doc] Tidy the guide"),
        pr(4, "release-helper", "04", "FIRST_TIME_CONTRIBUTOR", title="[Doc] Release notes"),
        rec.pr(
            5,
            "2026-01-10T00:00:00Z",
            author="robotics-dev",
            author_type=GIT_AUTHOR if git else "User",
            merged_at="2026-01-10T01:00:00Z",
            source="git" if git else None,
        ),
        *(rec.file(n, f"docs/source/{n}.md", 10) for n in (1, 2, 3, 4)),
        rec.comment(2, "2026-02-24T10:00:00Z", author="vllm-ascend-ci"),
        rec.comment(2, "2026-02-24T11:00:00Z", author="release-helper"),
        rec.comment(2, "2026-02-24T12:00:00Z", author="Abbott"),
        rec.review(3, "2026-02-24T13:00:00Z", author="vllm-ascend-ci", state="COMMENTED"),
    ]
    if git:  # the clone was read back to its first commit (store/history.py)
        out.append(rec.sync_state(ROOT_STREAM, "0" * 40))
    return out


@pytest.fixture(params=["api", "git"])
def facts(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[DayFacts, Any]]:
    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    try:
        repo_id = seed(store, _records(request.param))
        tz = ZoneInfo("UTC")
        with store.engine.connect() as conn:
            day = load_day(conn, repo_id, REPO, daily_window(DAY, tz, REPO.cutoff_time))
            week = load_week(conn, repo_id, REPO, weekly_window(2026, 9, tz))
            who = people(conn, repo_id, daily_window(DAY, tz, REPO.cutoff_time), REPO.bots)
        yield day, (week, who)
    finally:
        store.close()


def test_bots_are_out_of_every_daily_count(facts: tuple[DayFacts, Any]) -> None:
    day, _ = facts
    act = day.activity
    # Abbott (PRs, a comment) and robotics-dev (a PR); the bots' PRs, comments and review
    # count for nobody.
    assert day.participants == 2
    assert {login for login, _ in act.top_authors} <= HUMANS
    assert {login for login, _ in act.top_commenters} == {"Abbott"}
    assert act.top_reviewers == []
    assert act.first_timers == [("Abbott", 2)] and act.first_timers_known
    assert day.hot == []  # three comments on #2, but only one by a person
    [cluster] = day.clusters  # [Doc] and docs/source name the same two PRs
    assert set(cluster.members) == {2, 3}
    bot_scored = {s.number for s in day.scored if "bot" in s.parts}
    assert bot_scored == {1, 4}


def test_bots_are_bots_in_stats_and_the_weekly(facts: tuple[DayFacts, Any]) -> None:
    _, (week, who) = facts
    assert {b.login for b in who.bots} == BOTS
    assert {c.login for c in who.contributors} == HUMANS
    assert isinstance(week, WeekFacts)
    assert week.bots == frozenset({1, 4})
    in_themes = {n for t in themes(week) for n in t.members}
    assert in_themes == {2, 3}
    # Hot directories: 10 lines in each of #2 and #3; the bots' 20 lines are left out.
    [docs] = churn_trends(week, files=False)
    assert (docs.name, docs.value, docs.prs) == ("docs/source", 20, 2)
