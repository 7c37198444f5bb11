"""facts/week_bundle.py: the week's lists are computed once, and the model reads what the weekly
report prints.

The weekly writer and the model's payloads both read one `WeekBundle`. These tests count the
calls of every list function during a weekly built with and without a model, and compare what
the model was sent (the loopback OpenAI server records each request) with what the report lays
out. Demo week 2026-W10 has risk tags, themes, follow-ups, tracks and module trends.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from testkit.servers.openai import FakeOpenAI, data_of
from tests.demo_store import demo_repo, fake_analyst, open_demo_store
from tidings.common.config import RepoConfig
from tidings.facts import weekly
from tidings.facts.load.week import load_week
from tidings.facts.week_bundle import COUNTED, THEMES, week_bundle
from tidings.facts.windows import weekly_window
from tidings.report.weekly import build_weekly
from tidings.report.weekly_model import WeeklyReport
from tidings.store import Store

NOW = datetime(2026, 3, 16, 2, 0, tzinfo=UTC)
# Each function behind a list of the weekly, and how often one build may call it.
ONCE = {
    "themes": 1,
    "previous_themes": 1,
    "previous_theme_sizes": 1,
    "risk_counts": 1,
    "label_trends": 1,
    "tag_trends": 1,  # every tag once: the table's rows and the themes' tag counts
    "churn_trends": 2,  # directories, then files
    "generated_churn": 1,
    "risky": 1,
    "follow_up_groups": 1,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from open_demo_store(tmp_path_factory, "week-bundle")


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return demo_repo()


def _count_calls(monkeypatch: pytest.MonkeyPatch, names: list[str]) -> Counter[str]:
    """Wrap each function of facts/weekly.py wherever a tidings module holds it, counting its
    calls: a caller that imported it under any module is counted too."""
    calls: Counter[str] = Counter()
    for name in names:
        original = getattr(weekly, name)

        def counted(
            *args: Any, _f: Callable[..., Any] = original, _n: str = name, **kw: Any
        ) -> Any:
            calls[_n] += 1
            return _f(*args, **kw)

        for mod_name, mod in list(sys.modules.items()):
            if mod_name.startswith("tidings") and getattr(mod, name, None) is original:
                monkeypatch.setattr(mod, name, counted)
    return calls


@pytest.mark.parametrize("model", [False, True], ids=["rules", "model"])
def test_each_weekly_list_is_computed_once_per_build(
    store: Store, repo: RepoConfig, monkeypatch: pytest.MonkeyPatch, model: bool
) -> None:
    calls = _count_calls(monkeypatch, [*ONCE, "previous_risk_counts"])
    with FakeOpenAI() as llm:
        report = build_weekly(
            store, repo, 2026, 10, "en", now=NOW, analysis=fake_analyst(llm) if model else None
        )
        assert (llm.calls > 0) == model  # with a model, it did run over these facts
    assert report.risk_observations and report.key_changes and report.follow_ups
    # Last week's risk tags are assessed only for the model, which compares with them.
    assert calls == Counter(ONCE) + Counter({"previous_risk_counts": int(model)})


def test_the_count_sees_a_caller_that_imported_the_function(
    store: Store, repo: RepoConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A section that imported `themes` itself (as the writer's sections did) and called it
    again would be counted: the test above fails on a second call."""
    from tidings.report.weekly import themes as section

    monkeypatch.setattr(section, "themes", weekly.themes, raising=False)
    calls = _count_calls(monkeypatch, ["themes"])
    build_weekly(store, repo, 2026, 10, "en", now=NOW)
    with store.engine.connect() as conn:
        window = weekly_window(2026, 10, repo.tz, repo.cutoff_time)
        facts = load_week(conn, store.require_repo(conn, repo.name), repo, window)
    section.themes(facts)  # type: ignore[attr-defined]
    assert calls["themes"] == 2


def test_the_key_themes_are_the_first_of_all_themes(store: Store, repo: RepoConfig) -> None:
    """The bundle groups the week's PRs into themes once; the key changes are the first THEMES
    of them, the merged list's groups all of them."""
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        for week in (10, 11):
            window = weekly_window(2026, week, repo.tz, repo.cutoff_time)
            facts = load_week(conn, repo_id, repo, window)
            bundle = week_bundle(facts, repo)
            assert list(bundle.key_themes) == weekly.themes(facts, THEMES)
            assert list(bundle.themes) == weekly.themes(facts, len(facts.prs))
            assert len(bundle.themes) > THEMES  # so "the first of them" is a choice


def _sent(llm: FakeOpenAI) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for request in llm.requests:
        data = data_of(request.body)
        if data is not None and "facts" in data:  # a section's call, not a batch of cards
            out.setdefault(data["task"], []).append(data["facts"])
    return out


def test_the_model_is_shown_what_the_weekly_prints(store: Store, repo: RepoConfig) -> None:
    # W11: its week before (W10) has merged PRs to compare with.
    with FakeOpenAI() as llm:
        report: WeeklyReport = build_weekly(
            store, repo, 2026, 11, "en", now=NOW, analysis=fake_analyst(llm)
        )
        sent = _sent(llm)
    ex = report.executive_summary
    [exec_] = sent["weekly_exec"]
    assert exec_["merged_prs_by_label"] == {x.name: x.count for x in ex.by_label}
    assert exec_["merged_prs_by_title_tag"] == {x.name: x.count for x in ex.by_title_tag}
    assert len(ex.by_label) == COUNTED  # the week has more labels than the summary counts
    assert exec_["risk_tags_fired"] == {x.name: x.count for x in ex.by_risk_tag}

    [themes] = sent["weekly_themes"]
    assert [(t["kind"], t["name"], t["merged_prs"]) for t in themes["themes"]] == [
        (t.kind, t.name, t.count) for t in report.key_changes
    ]
    [summary] = sent["weekly_summary"]
    assert [(t["kind"], t["name"]) for t in summary["themes"]] == [
        (t.kind, t.name) for t in report.key_changes
    ]
    assert [x["number"] for x in summary["key_prs"]] == [p.item.number for p in report.key_prs]
    assert summary["risk_tags"] == exec_["risk_tags_fired"]

    [risks] = sent["weekly_risks"]
    assert [x["number"] for x in risks["prs"]] == [o.item.number for o in report.risk_observations]
    [follow] = sent["weekly_follow_ups"]
    assert [(g["kind"], g["reason"], g["total"]) for g in follow["groups"]] == [
        (f.kind, f.reason, f.total) for f in report.follow_ups
    ]

    [trends] = sent["weekly_trends"]
    shown = report.module_trends
    earlier = []
    for key, rows in (
        ("changed_lines_by_directory", shown.directories),
        ("changed_lines_by_file", shown.hot_files),
        ("merged_prs_by_label", shown.labels),
        ("merged_prs_by_title_tag", shown.title_tags),
    ):
        # The model reads the top of each table the report prints.
        sent_rows = [(x["name"], x["this_week"], x["previous_week"]) for x in trends[key]]
        assert sent_rows == [(x.name, x.value, x.previous) for x in rows][: len(sent_rows)]
        assert sent_rows
        earlier += [previous for _, _, previous in sent_rows if previous]
    assert earlier  # last week's figures are compared too
