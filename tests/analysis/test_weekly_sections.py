"""Every analytic section written by the model from evidence (#12), daily and weekly: highlight
themes whose members are checked, risk observations from tags, code and review threads, `#N`
and `@login` kept where the guard verifies them, one regeneration with the guard's objections,
and re-runs that cost nothing. Uses the demo sample and the loopback OpenAI server."""

# ruff: noqa: F811  (the fixtures imported from test_analysis are redefined as parameters)
from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.servers.openai import VIOLATION, Edit, FakeOpenAI, data_of
from tests.analysis.support import WEEKLY_TASKS
from tests.analysis.test_analysis import (  # noqa: F401  (fixtures)
    MARCH_4,
    demo_db,
    llm,
    make_analyst,
    repo_config,
    report,
    store,
)
from tests.analysis.test_weekly_llm import weekly
from tidings.facts.load.reviews import load_threads
from tidings.facts.load.week import load_week
from tidings.facts.windows import weekly_window
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.provenance import prose_values
from tidings.store import Store, schema


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_weekly_section_is_the_models(store, repo_config, llm: FakeOpenAI, lang) -> None:
    r = weekly(store, repo_config, make_analyst(llm, store, concurrency=4), lang)
    merged = {p.item.number for p in r.merged}
    assert r.summary.by == "llm"
    # Highlights: the model's themes, each led by a merged PR of the week, members checked.
    assert r.highlights and all(h.text.by == "llm" for h in r.highlights)
    assert all(h.theme.startswith("Model:") for h in r.highlights)
    assert all({h.item.number, *(x.number for x in h.more)} <= merged for h in r.highlights)
    assert any(h.more for h in r.highlights)  # a theme carried by several PRs
    assert r.risk_observations
    for o in r.risk_observations:
        assert o.observation.by == o.follow_up.by == "llm"
        assert o.observation.text.startswith(f"Model: #{o.item.number}")  # a verified #N kept
    assert r.executive_summary.text.by == "llm"
    assert r.key_changes and all(c.text.by == "llm" for c in r.key_changes)
    assert r.module_trends.text.by == "llm"
    assert r.follow_ups and all(f.text.by == "llm" for f in r.follow_ups)
    # Every merged PR has a model summary, every key PR a why-it-matters line citing @author.
    assert all(p.summary.by == "llm" for p in r.merged)
    assert all(p.why is not None and p.why.by == "llm" for p in r.key_prs)
    assert any(f"@{p.item.author}" in (p.why.text if p.why else "") for p in r.key_prs)
    # Provenance names the model; no prose of this report is the rules'.
    run = r.provenance.llm
    assert run is not None and run.model == "fake-model"
    assert {p.by for p in prose_values(r)} == {"llm"} and r.provenance.writer == "llm"
    assert run.dropped_sentences == 0 and run.fallbacks == 0
    assert set(WEEKLY_TASKS) <= set(llm.tasks())
    text = render_weekly_markdown(r)
    # The observation's verified `#N` and `@login` are links to the PR and its author.
    first = r.risk_observations[0]
    pr_url = f"{r.repo_url}/pull/{first.item.number}"
    assert f"Model: [#{first.item.number}]({pr_url}) by [@{first.item.author}](" in text
    assert "fake-model" in text.rsplit("\n---\n", 1)[1]


def test_risk_observations_read_review_threads_no_later_commit_touched(
    store, repo_config, llm: FakeOpenAI
) -> None:
    r = weekly(store, repo_config, make_analyst(llm, store), "en")
    sent = next(
        data_of(q.body) for q in llm.requests if q.task == "weekly_risks"
    )  # the facts the model saw
    assert sent is not None
    prs = {p["number"]: p for p in sent["facts"]["prs"]}
    assert [o.item.number for o in r.risk_observations] == list(prs)
    # The risk tags come with their evidence; a thread whose lines no later commit changed
    # reaches the model as such, and its observation names the reviewer.
    assert all(p["risk_tags"] and p["risk_tags"][0]["evidence"] for p in prs.values())
    quiet = {n: t for n, p in prs.items() for t in p["review_threads"] if t["outdated"] is False}
    assert quiet
    for o in r.risk_observations:
        if o.item.number in quiet:
            login = quiet[o.item.number]["login"]
            assert f"@{login} raised a point" in o.observation.text
            assert "no later commit touched it" in o.observation.text


def test_threads_outdated_when_a_later_commit_moved_their_lines(store: Store) -> None:
    with store.engine.connect() as conn:
        repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
        before = load_threads(conn, repo_id, [4215], {4215: "kavya-rocm"})[4215]
    raised = next(t for t in before if t.path == "rapidinfer/platforms/rocm.py")
    assert raised.login == "haruto-s" and not raised.outdated
    assert raised.replies == 1 and raised.author_replied  # kavya-rocm answered in the thread
    with store.begin() as conn:  # GitHub clears `line` once a later commit changes the lines
        conn.execute(
            sa.update(schema.review_comments)
            .where(schema.review_comments.c.number == 4215)
            .values(line=None)
        )
    with store.engine.connect() as conn:
        after = load_threads(conn, repo_id, [4215], {4215: "kavya-rocm"})[4215]
    assert all(t.outdated for t in after)
    # The author's own comment raises nothing: only the reviewer's threads count.
    with store.engine.connect() as conn:
        theirs = load_threads(conn, repo_id, [4215], {4215: "haruto-s"})
    assert not theirs.get(4215)


# Three tasks in the fast loop (a map, a keyed list, the themes); every one in the full suite.
FAST = ("pr_cards", "weekly_risks", "weekly_highlights")


@pytest.mark.parametrize(
    "task",
    [
        t if t in FAST else pytest.param(t, marks=pytest.mark.slow)
        for t in (*WEEKLY_TASKS, "pr_cards")
    ],
)
def test_a_guard_rejection_is_regenerated_once_then_cached(
    store, repo_config, llm: FakeOpenAI, task: str
) -> None:
    plain = weekly(store, repo_config, make_analyst(llm, store), "en")
    with store.begin() as conn:
        conn.execute(sa.delete(schema.llm_cache))
    llm.reset()
    llm.violate(task)  # the next answer to `task` cites #999999, which no fact holds
    analyst = make_analyst(llm, store)
    r = weekly(store, repo_config, analyst, "en")
    asked = [q for q in llm.requests if q.task == task]
    first = [q for q in asked if len(q.body["messages"]) == 2]
    again = [q for q in asked if len(q.body["messages"]) == 4]
    assert len(again) == 1 and len(asked) == len(first) + 1
    objection = again[0].body["messages"][3]["content"]
    assert "#999999" in objection and "rejected" in objection
    assert VIOLATION.strip() in again[0].body["messages"][2]["content"]  # its own answer
    assert analyst.usage().regenerations == 1
    # The regenerated answer passed: the same model text as a run that never erred.
    assert r.model_dump(exclude={"generated_at"}) == plain.model_dump(exclude={"generated_at"})
    assert "999999" not in render_weekly_markdown(r)
    llm.reset()
    again_run = weekly(store, repo_config, make_analyst(llm, store), "en")
    assert llm.calls == 0 and again_run == r  # the regenerated answer was cached


def test_a_second_rejection_falls_back_to_dropping(store, repo_config, llm: FakeOpenAI) -> None:
    llm.violate("weekly_exec", times=2)
    analyst = make_analyst(llm, store)
    r = weekly(store, repo_config, analyst, "en")
    assert llm.tasks().count("weekly_exec") == 2 and analyst.usage().regenerations == 1
    # Only the sentence the guard could not verify is gone; the true ones stay the model's.
    assert r.executive_summary.text.by == "llm"
    assert "999999" not in r.executive_summary.text.text
    assert r.provenance.llm is not None and r.provenance.llm.dropped_sentences == 1


def _outside(store: Store, repo_config) -> int:  # type: ignore[no-untyped-def]
    """An item of the demo store that is not part of week 10's window."""
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo_config.name)
        week = load_week(
            conn,
            repo_id,
            repo_config,
            weekly_window(2026, 10, repo_config.tz, repo_config.cutoff_time),
        )
        numbers = conn.execute(sa.select(schema.items.c.number)).scalars().all()
    return min(set(numbers) - set(week.data.items))


def test_highlight_members_and_citations_outside_the_window_are_dropped(
    store, repo_config, llm: FakeOpenAI
) -> None:
    outside = _outside(store, repo_config)
    week = weekly(store, repo_config, None, "en")
    assert outside not in {p.item.number for p in week.merged}

    def stray(answer: dict[str, Any]) -> dict[str, Any]:
        for group in answer["themes"]:
            group["numbers"].append(outside)
            group["text"] += f" It builds on #{outside}."
        return answer

    # Both the answer and its regeneration add an item from outside the week.
    llm.transform = lambda body, answer: (
        stray(answer) if (data_of(body) or {}).get("task") == "weekly_highlights" else answer
    )
    r = weekly(store, repo_config, make_analyst(llm, store), "en")
    asked = [q for q in llm.requests if q.task == "weekly_highlights"]
    assert len(asked) == 2 and f"[{outside}]" in asked[1].body["messages"][3]["content"]
    assert r.highlights and all(h.text.by == "llm" for h in r.highlights)
    for h in r.highlights:
        assert outside not in {h.item.number, *(x.number for x in h.more)}
        assert f"#{outside}" not in h.text.text  # the sentence citing it was dropped
    assert r.provenance.llm is not None
    assert r.provenance.llm.dropped_sentences >= len(r.highlights)


def test_daily_key_changes_carry_evidence_and_a_cited_why(store, repo_config, llm) -> None:
    r = report(store, repo_config, make_analyst(llm, store), day=MARCH_4)
    cards = [
        card
        for q in llm.requests
        if q.task == "pr_cards"
        for card in (data_of(q.body) or {})["items"]
    ]
    assert all({"risk_tags", "diff", "review_threads"} <= set(c) for c in cards)
    assert any(c["review_threads"] for c in cards)
    assert any(c["risk_tags"] for c in cards)  # merged that day, tags with their evidence
    for k in r.key_changes:
        assert k.what_changed.by == "llm" and f"#{k.item.number}" in k.what_changed.text
    llm.reset()
    assert report(store, repo_config, make_analyst(llm, store), day=MARCH_4) == r
    assert llm.calls == 0


def test_daily_guard_rejection_is_regenerated(store, repo_config, llm: FakeOpenAI) -> None:
    plain = report(store, repo_config, make_analyst(llm, store))
    with store.begin() as conn:
        conn.execute(sa.delete(schema.llm_cache))
    llm.reset()
    llm.script(
        Edit(lambda a: json.loads(json.dumps(a).replace("Model: changes", "#999999 changes")))
    )
    r = report(store, repo_config, make_analyst(llm, store))
    assert llm.tasks()[:2] == ["pr_cards", "pr_cards"]
    assert "#999999" in llm.requests[1].body["messages"][3]["content"]
    assert r.model_dump(exclude={"generated_at"}) == plain.model_dump(exclude={"generated_at"})
