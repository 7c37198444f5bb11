"""The LLM benchmark runs end to end in quick mode and reports every figure.

No timing assertions here: `python benchmarks/llm.py` prints the wall times.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from rich.console import Console

from benchmarks.llm import CONTEXT, render, run_benchmark


@pytest.mark.slow
def test_quick_llm_benchmark_reports_every_figure() -> None:
    results = run_benchmark(quick=True, concurrency=8)
    json.dumps(results)  # machine-readable as is
    both = {(w["config"], w["window"].split(" 2")[0]): w for w in results["windows"]}
    names = {"demo day", "generated day", "generated week"}
    assert set(both) == {(config, name) for config in ("default", "heavy") for name in names}
    # The heavy config asks for more (10 key changes a day and a topic track, no budget).
    day = {config: both[(config, "generated day")]["fresh"] for config in ("default", "heavy")}
    assert day["heavy"]["prompt_tokens"] > day["default"]["prompt_tokens"]
    windows = {name: w for (config, name), w in both.items() if config == "heavy"}
    for w in both.values():
        fresh, rerun, base = w["fresh"], w["rerun"], w["baseline"]
        assert fresh["calls"] > 0 and fresh["prompt_tokens"] > 0 and fresh["completion_tokens"] > 0
        assert fresh["fallbacks"] == 0
        # Cached: a re-run costs nothing and reuses at least one answer per call made before.
        assert rerun["calls"] == rerun["prompt_tokens"] == rerun["completion_tokens"] == 0
        assert rerun["cache_hits"] >= fresh["calls"]
        assert base["calls"] == 1 and base["prompt_tokens"] > 0
        assert base["fits_32k"] == (base["prompt_tokens"] + 4096 <= CONTEXT)
        assert 0 < base["items_that_fit_32k"] <= base["items"]
        assert fresh["largest_prompt"] < CONTEXT
    # The week is bigger than the day, and a one-prompt week does not fit a 32k context.
    assert (
        windows["generated week"]["scale"]["active_items"]
        > windows["generated day"]["scale"]["active_items"]
    )
    assert not windows["generated week"]["baseline"]["fits_32k"]
    # The model-written weekly is measured fresh: it pays for every section and PR summary.
    weekly = results["weekly"]
    assert weekly["fresh"]["calls"] > 0 and weekly["fresh"]["prompt_tokens"] > 0
    assert weekly["pr_calls"] > 0 and weekly["section_calls"] > 0
    assert weekly["rerun"]["calls"] == 0
    # A first run in both languages on the default budget: planned before its 16 reports
    # (7 days and the week, zh and en), then written; the plan fits here, so every PR summary
    # of both weeklies is the model's.
    first = results["first_run"]
    assert first["plan"]["reports"] == 16 and set(first["plan"]["tokens"]) == {"zh", "en"}
    assert first["spent"] <= sum(first["plan"]["tokens"].values()) <= first["budget"]
    assert first["warning"] is None
    for w in first["weekly"].values():
        assert w["merged_prs"] > 0 and w["model_summaries"] == w["merged_prs"]
    wt = results["wall_time"]
    assert wt["concurrent"]["calls"] == wt["serial"]["calls"] > 0
    assert wt["concurrent"]["concurrency"] == 8 and wt["serial"]["concurrency"] == 1
    assert set(results["verdicts"]) and all(
        isinstance(v, bool) for v in results["verdicts"].values()
    )

    out = StringIO()
    render(results, Console(file=out, width=160))
    text = out.getvalue()
    for needed in ("tidings", "re-run", "one prompt", "PASS", "calls in flight", "a first run"):
        assert needed in text
