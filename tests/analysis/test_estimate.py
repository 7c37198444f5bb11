"""Planning the model's part of a run (analysis/estimate.py, jobs/runner.plan_model): what the
due reports would ask, counted before any is asked, said when it does not fit the budget."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from testkit.servers.openai import FakeOpenAI
from tests.demo_store import demo_repo, open_demo_store
from tidings.analysis.analyst import Analyst
from tidings.analysis.cache import LLMCache
from tidings.analysis.provider import Provider, ProviderSettings
from tidings.common.config import Lang
from tidings.errors import TidingsWarning
from tidings.jobs.runner import RepoOutcome, plan_model, report_daily, report_weekly
from tidings.report.service import ReportService
from tidings.store import Store

# The demo's data stops inside 2026-03-13: two whole days and the week before them.
NOW = datetime(2026, 3, 14, 2, 0, tzinfo=UTC)
DAYS = [date(2026, 3, 11), date(2026, 3, 12)]
LANGS: list[Lang] = ["en", "zh"]


@pytest.fixture
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from open_demo_store(tmp_path_factory, "estimate")


def _analyst(llm: FakeOpenAI, store: Store, budget: int) -> Analyst:
    settings = ProviderSettings(
        base_url=llm.base_url, model="fake-model", timeout=5.0, token_budget=budget
    )
    return Analyst(Provider(settings), LLMCache(store), max_concurrency=1)


def _write(store: Store, analyst: Analyst, folder: Path) -> RepoOutcome:
    outcome = RepoOutcome("tidings-demo/rapidinfer")
    service = ReportService(store, demo_repo(), analysis=analyst, now=NOW)
    report_daily(service, DAYS, LANGS, folder, outcome)
    report_weekly(service, NOW, LANGS, folder, outcome)
    return outcome


def test_the_plan_asks_nothing_and_comes_close_to_what_the_reports_spend(
    store: Store, tmp_path: Path
) -> None:
    with FakeOpenAI() as llm:
        analyst = _analyst(llm, store, 10_000_000)
        outcome = RepoOutcome("tidings-demo/rapidinfer")
        plan = plan_model(store, demo_repo(), analyst, DAYS, LANGS, NOW, outcome)
        assert llm.calls == 0 and analyst.tokens_spent() == 0  # counted, not asked
        assert set(plan.tokens) == {"en", "zh"} and plan.reports == 6
        assert outcome.warnings == [] and outcome.model_plan["tokens"] == plan.tokens
        written = _write(store, analyst, tmp_path)
        assert len(written.written) == 6
        spent = analyst.tokens_spent()
        # The estimate reserves each answer's limit and lacks the map's summaries in the
        # sections' requests: near the spend, never a multiple of it.
        assert 0.6 * spent <= plan.total <= 2.0 * spent, (plan.total, spent)
        assert plan.requests >= llm.calls * 0.8
        # Everything is cached now: the same reports would ask nothing.
        again = plan_model(store, demo_repo(), analyst, DAYS, LANGS, NOW, RepoOutcome("x"))
        assert again.total == 0 and again.requests == 0


def test_a_plan_past_the_budget_is_said_before_the_first_report(
    store: Store, tmp_path: Path
) -> None:
    with FakeOpenAI() as llm:
        generous = _analyst(llm, store, 10_000_000)
        need = plan_model(store, demo_repo(), generous, DAYS, LANGS, NOW, RepoOutcome("x")).total
        tight = _analyst(llm, store, need // 3)
        outcome = RepoOutcome("tidings-demo/rapidinfer")
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            plan_model(store, demo_repo(), tight, DAYS, LANGS, NOW, outcome)
        assert llm.calls == 0  # said before anything was asked
        (line,) = outcome.warnings
        assert [str(w.message) for w in said if w.category is TidingsWarning] == [line]
        assert line.startswith("tidings-demo/rapidinfer: its 6 due reports would ask the model")
        assert f"{need:,} tokens (en " in line and ", zh " in line
        assert f"more than the {need // 3:,} left of [llm] token_budget {need // 3:,}" in line
        # The first report past the budget, in the order the run writes them (days, then the
        # week; each in en, then zh).
        assert "the budget runs out at about the 2026-03-12 en daily report: it and the 3 " in line
        suggested = int(line.rsplit("set token_budget to ", 1)[1].split()[0].replace(",", ""))
        assert suggested >= need and suggested % 50_000 == 0
