"""Model text reaches the report through typed slot keys (facts/slots.py): a text the model
layer filed under a slot is the text of that very place in the report, and a key for a part
no slot has fails where it is made, not by quietly leaving the rules' text in place."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, cast

import pytest

from tests.demo_store import demo_repo, open_demo_store
from tidings.analysis.result import Analysis
from tidings.common.config import RepoConfig
from tidings.facts.slots import (
    FollowUpText,
    HotText,
    HotView,
    PRSummary,
    PRWhy,
    RiskText,
    Section,
    Slot,
    ThemeText,
    TopicText,
    TrackItemText,
    TrackText,
)
from tidings.report import model as m
from tidings.report import weekly_model as w
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.store import Store

DAY = date(2026, 3, 12)  # every daily section has content: topics, hot threads, trends, watch
YEAR, WEEK = 2026, 11
NOW = datetime(2026, 3, 16, 2, 0, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[2]


class Scripted:
    """Stands in for the model layer: hands the writers an `Analysis` holding given texts,
    as `Analyst.analyse` and `analyse_week` do after the guard."""

    def __init__(self, texts: Mapping[Slot, str]) -> None:
        self.texts = dict(texts)

    def analyse(self, *_args: Any) -> Analysis:
        return Analysis(texts=dict(self.texts), model="scripted")

    def analyse_week(self, *_args: Any) -> Analysis:
        return Analysis(texts=dict(self.texts), model="scripted")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    yield from open_demo_store(tmp_path_factory, "slots")


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return demo_repo()


def daily(store: Store, repo: RepoConfig, texts: Mapping[Slot, str] | None) -> m.DailyReport:
    model = Scripted(texts) if texts is not None else None
    return build_daily(store, repo, DAY, "en", now=NOW, analysis=cast(Any, model))


def weekly(store: Store, repo: RepoConfig, texts: Mapping[Slot, str] | None) -> w.WeeklyReport:
    model = Scripted(texts) if texts is not None else None
    return build_weekly(store, repo, YEAR, WEEK, "en", now=NOW, analysis=cast(Any, model))


def by_model(prose: m.Prose | None) -> str | None:
    return prose.text if prose is not None and prose.by == "llm" else None


def test_each_daily_slot_the_model_filled_lands_in_its_place(store: Store, repo: Any) -> None:
    rules = daily(store, repo, None)
    hot = rules.hot_discussions[0]
    n, login = hot.item.number, hot.viewpoints[0].login
    key = rules.key_changes[0].item.number
    topic = rules.topics[0]
    on_topic = topic.items[0].item.number
    texts: dict[Slot, str] = {
        Section("summary"): "The day in one line.",
        PRSummary(key): "It fuses the kernels.",
        PRWhy(key): "Decode gets faster.",
        HotText(n, "core_topic"): "Whether to keep the old path.",
        HotText(n, "contention"): "Speed against safety.",
        HotText(n, "status"): "Waiting on a benchmark",
        HotView(n, login or ""): "Wants numbers first.",
        TopicText(topic.title): "The topic moved on two fronts.",
        Section("trends"): "Kernels drew the most work.",
        Section("activity"): "Reviews kept pace.",
        Section("watch"): "One crash report waits.",
    }
    assert on_topic != key  # two PRs: each slot shows in its own place
    texts[PRSummary(on_topic)] = "A PR of the topic."
    r = daily(store, repo, texts)

    assert by_model(r.summary.text) == "The day in one line."
    change = next(x for x in r.key_changes if x.item.number == key)
    assert by_model(change.what_changed) == "It fuses the kernels. Decode gets faster."
    thread = next(x for x in r.hot_discussions if x.item.number == n)
    assert by_model(thread.core_topic) == "Whether to keep the old path."
    assert by_model(thread.contention) == "Speed against safety."
    assert by_model(thread.status) == "Waiting on a benchmark"
    view = next(v for v in thread.viewpoints if v.login == login)
    assert by_model(view.excerpt) == "Wants numbers first."
    track = next(t for t in r.topics if t.title == topic.title)
    assert by_model(track.analysis) == "The topic moved on two fronts."
    item = next(x for x in track.items if x.item.number == on_topic)
    assert by_model(item.note) == texts[PRSummary(on_topic)]
    assert by_model(r.trends_analysis) == "Kernels drew the most work."
    assert by_model(r.activity.text) == "Reviews kept pace."
    assert by_model(r.watch_analysis) == "One crash report waits."
    # A viewpoint's key names its login: the thread's other viewpoints keep the rules' text.
    others = [v for v in thread.viewpoints if v.login != login]
    assert others and all(v.excerpt.by == "rules" for v in others)


def test_each_weekly_slot_the_model_filled_lands_in_its_place(store: Store, repo: Any) -> None:
    rules = weekly(store, repo, None)
    risky = rules.risk_observations[0].item.number
    theme = rules.key_changes[0]
    group = rules.follow_ups[0]
    track = rules.tracks[0]
    # An issue or open PR the track lists (merged PRs show their summaries).
    listed = next(x.item.number for t in rules.tracks for x in t.items if x.item.state != "merged")
    pr = rules.key_prs[0].item.number
    texts: dict[Slot, str] = {
        Section("summary"): "A week of kernels.",
        Section("exec"): "More merged than last week.",
        Section("module_trends"): "Attention churned most.",
        PRSummary(pr): "It adds a fused path.",
        PRWhy(pr): "Prefill gets cheaper.",
        RiskText(risky, "observation"): "It changes a public default.",
        RiskText(risky, "follow_up"): "Check the callers.",
        ThemeText(theme.kind, theme.name): "The theme's paragraph.",
        FollowUpText(group.kind, group.reason): "The group's advice.",
        TrackText(track.title): "The track's paragraph.",
    }
    texts[TrackItemText(listed)] = "An issue the track lists."
    r = weekly(store, repo, texts)

    assert by_model(r.summary) == "A week of kernels."
    assert by_model(r.executive_summary.text) == "More merged than last week."
    assert by_model(r.module_trends.text) == "Attention churned most."
    entry = next(x for x in r.merged if x.item.number == pr)
    assert by_model(entry.summary) == "It adds a fused path."
    assert by_model(entry.why) == "Prefill gets cheaper."
    risk = next(x for x in r.risk_observations if x.item.number == risky)
    assert by_model(risk.observation) == "It changes a public default."
    assert by_model(risk.follow_up) == "Check the callers."
    themed = next(x for x in r.key_changes if (x.kind, x.name) == (theme.kind, theme.name))
    assert by_model(themed.text) == "The theme's paragraph."
    followed = next(x for x in r.follow_ups if (x.kind, x.reason) == (group.kind, group.reason))
    assert by_model(followed.text) == "The group's advice."
    tracked = next(t for t in r.tracks if t.title == track.title)
    assert by_model(tracked.text) == "The track's paragraph."
    item = next(x for t in r.tracks for x in t.items if x.item.number == listed)
    assert by_model(item.text) == "An issue the track lists."
    # Every other PR keeps the rules' account: a key is one place, not a number.
    assert all(x.summary.by == "rules" for x in r.merged if x.item.number != pr)


@pytest.mark.parametrize(
    ("make", "what"),
    [
        (lambda: HotText(1, cast(Any, "mood")), "hot-thread part 'mood'"),
        (lambda: Section(cast(Any, "exec_summary")), "section 'exec_summary'"),
        (lambda: RiskText(1, cast(Any, "followup")), "risk-observation part 'followup'"),
        (lambda: ThemeText(cast(Any, "dir"), "attention"), "theme kind 'dir'"),
        (lambda: FollowUpText(cast(Any, "risks"), "revert"), "follow-up kind 'risks'"),
    ],
)
def test_a_key_for_a_part_no_slot_has_fails_where_it_is_made(make: Any, what: str) -> None:
    with pytest.raises(ValueError, match=f"no {what}"):
        make()


def test_keys_are_equal_by_kind_and_value() -> None:
    assert PRSummary(7) == PRSummary(7)
    assert hash(PRSummary(7)) == hash(PRSummary(7))
    assert PRSummary(7) != PRWhy(7)
    assert TrackItemText(7) != PRSummary(7)
    assert Section("summary") != TopicText("summary")
    assert {HotText(3, "status"): "x"}.get(HotText(3, "status")) == "x"


# Each line a mistake an untyped tuple let through; the type checker names its line.
MISTAKES = """\
from tidings.analysis.result import Analysis
from tidings.facts.slots import HotText, Section
analysis = Analysis()
analysis.text(("pr", 1))
HotText(1, "core_topc")
Section("exec_summary")
held = ("pr", 1) in analysis.texts
"""


@pytest.mark.slow  # mypy over the modules the snippet imports (~6 s with a warm cache)
def test_a_mistyped_key_is_a_type_error(tmp_path: Path) -> None:
    snippet = tmp_path / "mistakes.py"
    snippet.write_text(MISTAKES, encoding="utf-8")
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", str(snippet)],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=600,
    )
    # By file name: mypy may name the file by the path it first met it under (its cache).
    flagged = {int(n) for n in re.findall(r"mistakes\.py:(\d+): error:", result.stdout)}
    assert flagged == {4, 5, 6, 7}, result.stdout + result.stderr
