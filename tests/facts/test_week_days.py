"""facts/week_days.py: with a model, a weekly cuts its seven days from the rows it read for the
week instead of reading each day again, and each day is what a read of it gives.

Held three ways: a week built by hand whose days split what the cut has to split (a closing
reference across days, first merges of git authors, named and reverted items outside a day,
read gaps), compared with a read of each day; the demo's weeks, whose days and evidence are
compared with the per-day route the weekly took before; and the SELECTs a weekly with a model
runs, against one without. Each on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import fields, replace
from datetime import UTC, datetime, time
from itertools import pairwise
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from testkit.servers.openai import FakeOpenAI
from tests.analysis.test_analysis import make_analyst
from tests.factories import Records, seed
from tidings.common import records as r
from tidings.common.config import RepoConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.facts.activity_data import WindowData
from tidings.facts.load.day import load_day
from tidings.facts.load.evidence import window_evidence
from tidings.facts.load.week import load_week, load_week_input
from tidings.facts.load.window import load_window
from tidings.facts.week_bundle import week_bundle
from tidings.facts.week_days import cut_window
from tidings.facts.windows import days_of, weekly_window
from tidings.report.weekly import build_weekly
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store
from tidings.store.gaps import gap_stream

NOW = datetime(2026, 3, 16, 2, 0, tzinfo=UTC)
HAND = RepoConfig(name="acme/widgets", timezone="UTC", maintainers=["carol"])


def test_the_days_tile_the_week_across_a_dst_gap() -> None:
    """New York moves its clocks at 02:00 on Sunday 2026-03-08: a 02:30 cut-off does not exist
    that day and maps forward, in the week's end and its Sunday's start alike."""
    for tz, cutoff in ((ZoneInfo("America/New_York"), time(2, 30)), (ZoneInfo("UTC"), time(0))):
        week = weekly_window(2026, 10, tz, cutoff)
        days = days_of(week)
        assert [d.label for d in days] == [f"2026-03-0{k}" for k in range(2, 9)]
        assert days[0].start == week.start and days[-1].end == week.end
        assert all(a.end == b.start for a, b in pairwise(days))
    with pytest.raises(ValueError, match="not a week"):
        days_of(days[0])


def test_a_window_outside_the_week_is_refused() -> None:
    week = weekly_window(2026, 10, ZoneInfo("UTC"))
    data = WindowData(repo="acme/widgets", start=week.start, end=week.end)
    before = weekly_window(2026, 9, ZoneInfo("UTC"))
    with pytest.raises(ValueError, match="not inside"):
        cut_window(data, before.start, week.start.replace(hour=12))


def _hand_week(rec: Records) -> list[r.Record]:
    """Demo-free week 2026-W10 (UTC, Monday 03-02), each day with something to split."""
    return [
        rec.repo(HAND.name),
        # Li Na's first merge is Monday's (#11), not Wednesday's (#12); Wang Wei's was in
        # February (#5); Zhao's login merged Thursday (#14), so Friday's git #15 is no first.
        rec.git_pr(11, "2026-03-02T10:00:00Z", author="Li Na"),
        rec.git_pr(12, "2026-03-04T10:00:00Z", author="Li Na"),
        rec.git_pr(5, "2026-02-20T10:00:00Z", author="Wang Wei"),
        rec.git_pr(13, "2026-03-03T10:00:00Z", author="Wang Wei"),
        rec.pr(14, "2026-03-04T08:00:00Z", author="zhao", merged_at="2026-03-05T09:00:00Z"),
        rec.git_pr(15, "2026-03-06T10:00:00Z", author="Zhao"),
        rec.file(11, "src/a.py", 5, 1),
        rec.file(21, "src/b.py", 3, 0),
        rec.file(21, "src/c.py", 1, 1),
        # Issue #20, opened Monday, is closed Wednesday by #21 (opened Tuesday): each day
        # holds the other side of the reference as a linked item.
        rec.issue(20, "2026-03-02T09:00:00Z", closed_at="2026-03-04T12:00:00Z"),
        rec.pr(21, "2026-03-03T09:00:00Z", merged_at="2026-03-04T11:00:00Z", changed_files=9),
        r.ClosingRefRecord(number=21, issue_repo=HAND.name, issue_number=20),
        r.SyncStateRecord(
            stream=gap_stream(21),
            cursor=json.dumps({"files": "listed 2 of 9", "unread_diffs": "7"}),
        ),
        rec.review(21, "2026-03-03T15:00:00Z", author="carol", body="ok"),
        rec.comment(21, "2026-03-03T16:00:00Z", author="carol", body="thanks"),
        # Thursday's issue names #20 (in the week) and #3 (an old issue no day holds).
        rec.issue(3, "2026-01-05T09:00:00Z"),
        rec.issue(4, "2026-01-06T09:00:00Z"),
        rec.issue(22, "2026-03-05T09:00:00Z", body="See #20, #3 and #4."),
        rec.comment(4, "2026-03-07T10:00:00Z", body="still seen"),  # #4: Saturday's item
        # Friday's revert undoes #21, merged Wednesday.
        rec.pr(
            23,
            "2026-03-06T08:00:00Z",
            title='Revert "pr 21"',
            body="This reverts #21.",
            merged_at="2026-03-06T09:00:00Z",
        ),
        rec.comment(23, "2026-03-08T10:00:00Z", author="dave"),
    ]


def _same(cut: WindowData, read: WindowData) -> list[str]:
    """The fields where two windows' rows differ, dicts' order included."""
    out = []
    for f in fields(WindowData):
        a, b = getattr(cut, f.name), getattr(read, f.name)
        if a != b or (isinstance(a, dict) and list(a) != list(b)):
            out.append(f.name)
    return out


def test_each_day_cut_from_a_week_is_what_a_read_of_it_gives(store: Store, rec: Records) -> None:
    seed(store, _hand_week(rec))
    week = weekly_window(2026, 10, HAND.tz, HAND.cutoff_time)
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, HAND.name)
        facts = load_week(conn, repo_id, HAND, week)
        cut = {d.label: cut_window(facts.data, d.start, d.end) for d in days_of(week)}
        for d in days_of(week):
            read = load_window(conn, repo_id, HAND.name, d.start, d.end, roles=facts.data.roles)
            assert _same(cut[d.label], read) == [], d.label
    # What the cut had to split (read from the records above, not from either side's output).
    assert cut["2026-03-02"].first_merges == {"li na"}
    assert cut["2026-03-04"].first_merges == frozenset()  # Li Na's second merge
    assert cut["2026-03-03"].first_merges == frozenset()  # Wang Wei merged in February
    assert cut["2026-03-06"].first_merges == frozenset()  # Zhao's login merged Thursday
    monday, tuesday = cut["2026-03-02"], cut["2026-03-03"]
    assert monday.closed_by == {20: [21]} and 21 in monday.items and 21 not in monday.active
    assert monday.files_cut == {21} and monday.unread_diffs == {21: 7}
    assert tuesday.closes == {21: [20]} and 20 in tuesday.items and 20 not in tuesday.active
    assert tuesday.maintainer_replied == {21} and 21 in tuesday.first_review_at
    thursday, friday = cut["2026-03-05"], cut["2026-03-06"]
    assert set(thursday.named) == {3, 4, 20}
    assert friday.reverts == {23: 21} and set(friday.named) == {21}
    assert 4 in cut["2026-03-07"].active


@pytest.fixture
def demo(store: Store) -> Iterator[Store]:
    import_snapshot(store, SAMPLE_PATH)
    yield store


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return load_config(CONFIG_PATH).repo(REPO)


def _no_review_notes(day: Any) -> Any:
    """A day as the week's days hold it: the hot threads' review notes are for their cards,
    which no weekly sends."""
    return replace(day, hot=[replace(d, review_notes=[]) for d in day.hot])


@pytest.mark.parametrize("week", [10, 11])
def test_the_weeks_days_and_evidence_are_the_dailies(
    demo: Store, repo: RepoConfig, week: int
) -> None:
    """What the week hands the model is what the per-day reads gave (load_day and
    window_evidence for each day, the route the weekly took before), so the PR cards built
    from it are the daily reports' cards."""
    window = weekly_window(2026, week, repo.tz, repo.cutoff_time)
    with demo.engine.connect() as conn:
        repo_id = demo.require_repo(conn, repo.name)
        facts = load_week(conn, repo_id, repo, window)
        given = load_week_input(conn, repo_id, repo, week_bundle(facts, repo))
        for k, d in enumerate(days_of(window)):
            day = load_day(conn, repo_id, repo, d, history=0, roles=facts.data.roles)
            assert given.days[k] == _no_review_notes(day), d.label
            assert list(given.days[k].data.items) == list(day.data.items)
            prs = [n for n, item in day.data.items.items() if item.kind == "pr"]
            merged = [p for p in facts.prs if d.start <= p.merged_at < d.end]
            authors = {n: day.data.items[n].author for n in prs}
            ev = window_evidence(
                conn, repo_id, repo, d.start, d.end, prs, authors, merged=merged, tags=facts.risks
            )
            assert given.day_evidence[k] == ev, d.label
        numbers = [p.number for p in facts.prs]
        authors = {p.number: p.author for p in facts.prs}
        ev = window_evidence(
            conn, repo_id, repo, window.start, window.end, numbers, authors, merged=facts.prs,
            tags=facts.risks,
        )  # fmt: skip
        assert given.evidence == ev
    assert any(e.threads for e in given.evidence.values())  # the threads were compared too
    assert sum(not d.quiet for d in given.days) >= 5


def _selects(store: Store, week: int, repo: RepoConfig, llm: FakeOpenAI | None) -> int:
    seen: list[str] = []

    def note(*args: Any) -> None:
        if args[2].lstrip().upper().startswith("SELECT"):
            seen.append(args[2])

    analyst = make_analyst(llm, store) if llm is not None else None
    sa.event.listen(store.engine, "before_cursor_execute", note)
    try:
        build_weekly(store, repo, 2026, week, "en", now=NOW, analysis=analyst)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
    return len(seen)


def test_a_weekly_with_a_model_reads_the_store_at_most_twice_as_often(
    demo: Store, repo: RepoConfig
) -> None:
    """Counting every SELECT, the model's cache look-ups included (a cold cache: the model is
    asked for everything). Before the days were cut from the week's rows, the demo's W10 ran
    194 with a model against 31 without."""
    with FakeOpenAI() as llm:
        for week in (10, 11):
            rules = _selects(demo, week, repo, None)
            model = _selects(demo, week, repo, llm)
            assert llm.calls > 0
            assert model <= 2 * rules, (week, model, rules)
