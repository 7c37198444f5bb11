"""The sync benchmark runs end to end (quick week, no latency) and reports every figure.

No timing assertions here: speed targets are printed by `python benchmarks/sync.py`.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.sync import SCENARIOS, render, run_benchmark


@pytest.mark.slow
def test_quick_benchmark_reports_every_figure() -> None:
    results = run_benchmark(latency=0.0, quick=True, seed=0)
    json.dumps(results)  # machine-readable as is
    assert results["quick"] is True and results["latency"] == 0.0
    assert results["records"]["item"] == 180
    runs = {(r["tool"], r["scenario"]): r for r in results["runs"]}
    assert set(runs) == {(tool, s) for tool in ("tidings", "baseline") for s in SCENARIOS}
    for run in runs.values():
        assert run["requests"] > 0
        assert run["elapsed"] > 0
        assert run["cpu"] >= 0
        assert isinstance(run["peak_memory"], int) and run["peak_rss"] >= run["peak_memory"]
        assert 0 <= run["not_modified"] <= run["requests"]
    # The baseline makes at least one request per item and three more per PR, every time.
    base_full = runs[("baseline", "full")]
    assert base_full["requests"] >= 180 + 3 * 140
    assert base_full["detail"]["items"] == 180
    assert runs[("baseline", "unchanged")]["not_modified"] == 0
    # The ten changed items are what the baseline re-reads.
    assert runs[("baseline", "changed")]["detail"]["items"] == 10
    for scenario in SCENARIOS:
        assert set(results["ratios"][scenario]) == {"requests", "non_304_requests", "time"}
    assert set(results["targets"]) and all(isinstance(v, bool) for v in results["targets"].values())
    assert results["checks"] == {
        "store equals the served week after the full sync": True,
        "store equals the served week after the changes": True,
    }
    assert results["check_notes"] == {}
    # Nothing changed: tidings repeats its last requests and every answer is a 304.
    unchanged = runs[("tidings", "unchanged")]
    assert unchanged["not_modified"] == unchanged["requests"]


def test_render_prints_the_table_and_verdicts() -> None:
    from io import StringIO

    from rich.console import Console

    run = {
        "requests": 10,
        "not_modified": 4,
        "elapsed": 1.5,
        "cpu": 0.25,
        "peak_memory": 2**20,
        "peak_rss": 2**26,
        "memory": "rss",
    }
    results = {
        "repository": "bench/inference-engine",
        "latency": 0.05,
        "quick": False,
        "records": {"item": 900, "comment": 10, "review": 5, "review_comment": 2, "pr_file": 7},
        "memory": "rss",
        "runs": [
            {**run, "tool": tool, "scenario": scenario, "detail": {}}
            for scenario in SCENARIOS
            for tool in ("tidings", "baseline")
        ],
        "ratios": {s: {"requests": 1.0, "non_304_requests": None, "time": 0.5} for s in SCENARIOS},
        "targets": {"full sync <= 300 requests": True, "no-change re-sync all 304": False},
        "checks": {"store equals the served week after the full sync": False},
        "check_notes": {"store equals the served week after the full sync": "2 records differ"},
    }
    out = StringIO()
    render(results, Console(file=out, width=200))
    text = out.getvalue()
    assert "no change" in text and "1.50 s" in text and "1.0 MB" in text
    assert "0.25 s" in text and " 6 " in text  # client CPU; 10 requests - 4 not modified
    assert "PASS full sync <= 300 requests" in text
    assert "FAIL no-change re-sync all 304" in text
    assert "n/a" in text
    assert "FAIL store equals the served week after the full sync: 2 records differ" in text
