"""facts/daily.py: a day's facts are computed once, and the model reads what the report prints.

The daily report and its model layer both read one `DayFacts` bundle. These tests count the
calls of every ranking function during a report built with a model, and compare what the model
was sent (the loopback OpenAI server records each request) with what the report lays out.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from typing import Any

import pytest

from testkit.servers.openai import FakeOpenAI, data_of
from tests.demo_store import demo_repo, fake_analyst, open_demo_store
from tidings.common.config import RepoConfig
from tidings.facts import activity, discussions, importance, topics, trends, watchlist
from tidings.facts.daily import DayFacts
from tidings.facts.load.day import load_day
from tidings.facts.windows import daily_window
from tidings.report import model as m
from tidings.report.daily import build_daily
from tidings.store import Store

DAY = date(2026, 3, 12)  # the demo day where every section has content
NOW = datetime(2026, 3, 14, 2, 0, tzinfo=UTC)
RANKINGS: list[tuple[Any, str]] = [
    (discussions, "hot_discussions"),
    (importance, "score_merged"),
    (topics, "topic_matches"),
    (trends, "clusters"),
    (activity, "activity_facts"),
    (watchlist, "watchlist"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from open_demo_store(tmp_path_factory, "daily-facts")


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return demo_repo()


def _count_calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Wrap each ranking function wherever a tidings module holds it, counting its calls: a
    caller that imported it under any module would be counted too."""
    calls: Counter[str] = Counter()
    for module, name in RANKINGS:
        original = getattr(module, name)

        def counted(
            *args: Any, _f: Callable[..., Any] = original, _n: str = name, **kw: Any
        ) -> Any:
            calls[_n] += 1
            return _f(*args, **kw)

        for mod_name, mod in list(sys.modules.items()):
            if mod_name.startswith("tidings") and getattr(mod, name, None) is original:
                monkeypatch.setattr(mod, name, counted)
    return calls


def test_each_ranking_is_computed_once_for_the_model_and_the_report(
    store: Store, repo: RepoConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _count_calls(monkeypatch)
    with FakeOpenAI() as llm:
        report = build_daily(store, repo, DAY, "en", now=NOW, analysis=fake_analyst(llm))
        assert llm.calls > 0  # the model did run over these facts
    assert report.provenance.llm is not None
    assert calls == {
        "hot_discussions": 1,
        "score_merged": 1,
        "topic_matches": len(repo.topics),  # once per configured topic
        "clusters": 1,
        "activity_facts": 1,
        "watchlist": 1,
    }


def _payloads(llm: FakeOpenAI) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for request in llm.requests:
        data = data_of(request.body)
        if data is not None:
            out.setdefault(data["task"], []).append(data)
    return out


def test_the_model_is_shown_exactly_what_the_report_prints(store: Store, repo: RepoConfig) -> None:
    with FakeOpenAI() as llm:
        report = build_daily(store, repo, DAY, "en", now=NOW, analysis=fake_analyst(llm))
        sent = _payloads(llm)
    rules = build_daily(store, repo, DAY, "en", now=NOW)  # the same day without a model

    key = [k.item.number for k in report.key_changes]
    topic_prs = [x.item.number for t in report.topics for x in t.items if x.item.kind == "pr"]
    cards = [c["number"] for batch in sent["pr_cards"] for c in batch["items"]]
    assert cards == list(dict.fromkeys(key + topic_prs)) and key
    hot = [c["number"] for batch in sent["hot_cards"] for c in batch["items"]]
    assert hot == [d.item.number for d in report.hot_discussions] and hot

    [summary] = [x["facts"] for x in sent["summary"]]
    assert summary["stats"] == report.stats.model_dump()
    assert [x["number"] for x in summary["key_changes"]] == key
    assert [x["number"] for x in summary["hot_discussions"]] == hot
    assert [(x["title"], x["items"]) for x in summary["topics"]] == [
        (t.title, len(t.items)) for t in report.topics
    ]
    assert [(a["kind"], a["name"], a["items"]) for a in summary["busiest_areas"]] == [
        (a.kind, a.name, a.count) for a in report.summary.dominant_areas
    ]
    baseline = {t.metric: t.baseline for t in report.summary.trends}
    assert {k: round(v, 1) for k, v in summary["mean_of_previous_7_windows"].items()} == baseline

    [trend] = [x["facts"] for x in sent["trends"]]
    assert [
        (c["name"], c["count"], [i["number"] for i in c["items"]]) for c in trend["clusters"]
    ] == [(c.name, c.count, [r.number for r in c.members[:8]]) for c in report.trends]
    topic_payloads = {x["facts"]["topic"]: x["facts"] for x in sent["topic"]}
    for track in report.topics:
        if track.items:
            shown = [i["number"] for i in topic_payloads[track.title]["items"]]
            assert shown == [x.item.number for x in track.items][: len(shown)]
            assert topic_payloads[track.title]["count"] == len(track.items)

    [act] = [x["facts"] for x in sent["activity"]]
    assert act["top_authors"] == {c.login: c.count for c in report.activity.top_authors}
    assert act["top_reviewers"] == {c.login: c.count for c in report.activity.top_reviewers}
    assert act["top_commenters"] == {c.login: c.count for c in report.activity.top_commenters}
    assert act["first_time_contributors"] == [
        f.login for f in report.activity.first_time_contributors
    ]
    # The participant count the rules print is the one the model was given.
    assert f"reviewers): {act['human_participants']}." in rules.activity.text.text

    [watch] = [x["facts"] for x in sent["watch"]]
    assert [(w["number"], w["reasons"]) for w in watch["issues"]] == [
        (w.item.number, list(w.reasons)) for w in report.watchlist
    ]


def test_a_day_without_history_has_no_baseline(store: Store, repo: RepoConfig) -> None:
    window = daily_window(DAY, repo.tz, repo.cutoff_time)
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        full = load_day(conn, repo_id, repo, window)
        bare = load_day(conn, repo_id, repo, window, history=0)
    assert isinstance(full, DayFacts) and len(full.history) == 7
    assert bare.history == [] and bare.baseline == {}
    assert set(full.baseline) == set(full.stats)
    # Everything but the comparison with earlier days is the same.
    assert bare.stats == full.stats and bare.hot == full.hot and bare.watch == full.watch
    assert [s.number for s in bare.key_changes] == [s.number for s in full.key_changes]
    assert isinstance(m.Stats(**full.stats), m.Stats)
