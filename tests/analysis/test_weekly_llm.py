"""The weekly report with a model: it reuses the daily per-PR analyses of its week (same cards,
so cache hits), the model writes its opening summary, and nothing the model says can change
the report's facts or structure. Uses the demo sample and the loopback OpenAI server."""

# ruff: noqa: F811  (the fixtures imported from test_analysis are redefined as parameters)
from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.servers.openai import FakeOpenAI, data_of
from tests import report_checks
from tests.analysis.support import WEEKLY_TASKS
from tests.analysis.test_analysis import (  # noqa: F401  (fixtures)
    HOSTILE,
    KEY,
    _cli,
    _config,
    demo_db,
    llm,
    make_analyst,
    repo_config,
    store,
)
from tests.report.test_daily_report import _raw, known_logins
from tidings.analysis.analyst import Analyst
from tidings.demo import REPO
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.report.weekly_model import WeeklyReport
from tidings.store import Store, schema

NOW = datetime(2026, 3, 16, 2, 0, tzinfo=UTC)
W10 = [date(2026, 3, 2) + timedelta(days=k) for k in range(7)]


def weekly(store: Store, repo_config, analyst: Analyst | None, lang: str = "zh") -> WeeklyReport:  # type: ignore[no-untyped-def]
    return build_weekly(store, repo_config, 2026, 10, lang, now=NOW, analysis=analyst)  # type: ignore[arg-type]


def dailies(store: Store, repo_config, analyst: Analyst, lang: str = "zh") -> None:  # type: ignore[no-untyped-def]
    for day in W10:
        build_daily(store, repo_config, day, lang, now=NOW, analysis=analyst)  # type: ignore[arg-type]


def model_summaries(r: WeeklyReport) -> dict[int, str]:
    return {p.item.number: p.summary.text for p in r.merged if p.summary.by == "llm"}


def test_week_after_its_dailies_pays_only_for_the_other_prs(
    store, repo_config, llm: FakeOpenAI
) -> None:
    dailies(store, repo_config, make_analyst(llm, store))
    daily_cards = set(llm.cards_sent("pr_cards"))
    assert daily_cards  # the dailies did pay for PR analyses
    llm.reset()

    analyst = make_analyst(llm, store)
    r = weekly(store, repo_config, analyst)
    merged = {p.item.number for p in r.merged}
    # The week sends only the merged PRs no daily report carried (lite cards), each once.
    week_cards = llm.cards_sent("pr_cards")
    assert set(week_cards) == merged - daily_cards and len(week_cards) == len(set(week_cards))
    assert {t for t in llm.tasks() if t != "pr_cards"} == set(WEEKLY_TASKS)
    reused = model_summaries(r)
    # Every merged PR has a model summary: the dailies' analyses, and the week's own.
    assert set(reused) == merged
    assert all(text.startswith("Model:") for text in reused.values())
    assert r.summary.by == "llm" and r.summary.text.startswith("Model:")
    assert any(h.text.by == "llm" for h in r.highlights)
    assert any(p.notes for p in r.merged)
    assert r.provenance.llm is not None
    assert analyst.usage().cache_hits >= len(merged & daily_cards)
    assert r.provenance.writer == "llm"
    text = render_weekly_markdown(r)
    assert "Model: the description explains it." in text  # a note under a key PR

    llm.reset()
    again = weekly(store, repo_config, make_analyst(llm, store))
    assert llm.calls == 0  # the sections are cached too
    assert model_summaries(again) == reused and again.summary == r.summary


def pr_cards_sent(llm: FakeOpenAI) -> list[str]:
    """The PR cards of the map requests so far, each as canonical JSON."""
    out: list[str] = []
    for request in llm.requests:
        data = data_of(request.body)
        if data and data.get("task") == "pr_cards":
            out += [json.dumps(card, sort_keys=True) for card in data["items"]]
    return out


def test_week_first_pays_for_the_cards_the_dailies_then_reuse(
    store, repo_config, llm: FakeOpenAI
) -> None:
    r = weekly(store, repo_config, make_analyst(llm, store), lang="en")
    merged = {p.item.number for p in r.merged}
    week_numbers = llm.cards_sent("pr_cards")
    assert week_numbers and set(week_numbers) <= merged  # only the week's merged PRs are sent
    assert len(week_numbers) == len(set(week_numbers))  # each once
    week_cards = set(pr_cards_sent(llm))
    llm.reset()
    dailies(store, repo_config, make_analyst(llm, store), lang="en")
    assert llm.calls > 0  # the dailies still had their own sections and other PRs to write
    # The dailies built byte-identical cards for those PRs, so they were cache hits.
    assert not set(pr_cards_sent(llm)) & week_cards
    llm.reset()
    weekly(store, repo_config, make_analyst(llm, store), lang="en")
    assert llm.calls == 0


def test_without_a_model_nothing_changes(store, repo_config, llm: FakeOpenAI) -> None:
    plain = weekly(store, repo_config, None)
    assert plain.provenance.llm is None and plain.provenance.writer == "rules"
    assert all(p.summary.by == "rules" and not p.notes for p in plain.merged)
    assert llm.calls == 0


def _facts(r: WeeklyReport) -> dict[str, Any]:
    """The report without its prose and provenance: what a model may never change. (The
    highlights are the model's themes when it wrote them: checked on their own.)"""
    data = r.model_dump(mode="json", exclude={"provenance", "generated_at", "highlights"})

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            # Prose: its words and the PRs its rule sentence links are the writer's own.
            if {"text", "by"} <= set(node) <= {"text", "by", "refs"}:
                return None
            return {k: strip(v) for k, v in node.items() if k not in ("notes", "why")}
        if isinstance(node, list):
            return [strip(x) for x in node]
        return node

    return strip(data)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hostile_model_output_cannot_change_structure(
    store, repo_config, llm: FakeOpenAI, lang: str
) -> None:
    def hostile(body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        for item in answer.get("items", []):
            if "summary" in item:
                item["summary"] = HOSTILE
                item["importance"] = 2
                for note in item.get("notes", []):
                    note["text"] = HOSTILE
        if "text" in answer:
            answer["text"] = HOSTILE
        return answer

    llm.transform = hostile
    r = weekly(store, repo_config, make_analyst(llm, store), lang)
    plain = weekly(store, repo_config, None, lang)
    assert r.summary.by == "llm" and r.summary.text.startswith("## Injected")
    assert _facts(r) == _facts(plain)  # same PRs, order, tags, counts, trends
    merged = {p.item.number for p in plain.merged}
    assert r.highlights and all(
        {h.item.number, *(x.number for x in h.more)} <= merged for h in r.highlights
    )
    text, plain_text = render_weekly_markdown(r), render_weekly_markdown(plain)
    assert "Injected heading" in text and "\\<script\\>" in text
    assert report_checks.headings(text) == report_checks.headings(plain_text)
    numbers = {rec["number"] for rec in _raw() if rec["type"] == "item"}
    report_checks.check_structure(text, repo=REPO, numbers=numbers, logins=known_logins())


def test_invented_numbers_are_dropped_and_fall_back(store, repo_config, llm: FakeOpenAI) -> None:
    def invent(body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        if "text" in answer:
            answer["text"] = "There were 31337 merged PRs, see #99999."
        return answer

    llm.transform = invent
    r = weekly(store, repo_config, make_analyst(llm, store), "en")
    plain = weekly(store, repo_config, None, "en")
    assert r.summary == plain.summary  # the guard dropped it; the rules' text stays
    assert r.provenance.llm is not None and r.provenance.llm.dropped_sentences >= 1


def test_cli_weekly_llm_and_no_llm(store, tmp_path, capsys, monkeypatch, llm: FakeOpenAI) -> None:
    monkeypatch.setenv("TIDINGS_TEST_LLM_KEY", KEY)
    config = _config(tmp_path, llm.base_url)
    args = ["--db", str(store.engine.url), "--config", str(config), "report", "weekly", REPO]
    code, out, err = _cli(capsys, *args, "--week", "2026-W10", "--lang", "en")
    assert code == 0 and err == "" and "Model:" in out
    assert llm.calls > 0 and KEY not in out
    llm.reset()
    code, plain, err = _cli(capsys, *args, "--week", "2026-W10", "--lang", "en", "--no-llm")
    assert code == 0 and err == "" and "Model:" not in plain and llm.calls == 0


def test_weekly_numbers_are_checked_against_what_they_count(
    store, repo_config, llm: FakeOpenAI
) -> None:
    """W10 merged 22 PRs and the week before none: both numbers exist, so only tying each to
    its quantity catches a model that swaps them."""
    facts: dict[str, Any] = {}

    def swap(body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        data = data_of(body) or {}
        if data.get("task") == "weekly_summary":
            facts.update(data["facts"])
            answer["text"] = (
                f"Model: {data['facts']['previous_week_merged_prs']} PRs were merged this week, "
                f"against {data['facts']['merged_prs']} merged PRs the week before."
            )
        return answer

    llm.transform = swap
    r = weekly(store, repo_config, make_analyst(llm, store), "en")
    assert (facts["merged_prs"], facts["previous_week_merged_prs"]) == (22, 0)
    plain = weekly(store, repo_config, None, "en")
    assert r.summary == plain.summary and r.summary.by == "rules"
    assert r.provenance.llm is not None and r.provenance.llm.dropped_sentences == 1

    # The true order passes: the default answer is "22 PRs were merged ..., against 0 ...".
    llm.transform = None
    with store.begin() as conn:
        conn.execute(sa.delete(schema.llm_cache))
    r = weekly(store, repo_config, make_analyst(llm, store), "en")
    assert r.summary.by == "llm" and r.summary.text.startswith("Model: 22 PRs were merged")
