"""The weekly benchmark runs end to end in quick mode and reports every figure.

No timing assertions: the figures and targets are printed by `python benchmarks/weekly.py`.
"""

from __future__ import annotations

import json
from io import StringIO

import pytest
from rich.console import Console

from benchmarks.weekly import render, run_benchmark
from testkit.gitlog import ASCEND
from tests.shared import shared_or_skip


@pytest.mark.slow
def test_quick_benchmark_reports_every_figure() -> None:
    results = run_benchmark(quick=True)
    json.dumps(results)  # machine-readable as is
    assert results["quick"] is True
    one, many = results["one_week"], results["many_weeks"]
    assert [r["merged_prs"] for r in one["per_week"]] == [30]
    assert [r["merged_prs"] for r in many["per_week"]] == [30, 30]
    for row in one["per_week"] + many["per_week"]:
        assert row["seconds"] > 0 and row["peak_memory"] > 0 and row["output_bytes"] > 0
    assert all(isinstance(v, bool) for v in results["targets"].values())
    out = StringIO()
    render(results, Console(file=out, width=120))
    text = out.getvalue()
    assert "2026-W10" in text and "2026-W11" in text
    assert "PASS" in text or "FAIL" in text
    git = results["git"]
    if git is None:
        shared_or_skip(ASCEND, "the git half reads the shared vllm-ascend history")
    assert (git["commits"], git["prs"]) == (500, 500)
    assert git["seconds"] > 0 and git["peak_memory"] > 0 and git["weeks"] >= 1
    assert set(results["ratios"]) == {"week_in_big_store_vs_small", "many_weeks_vs_one_week"}
    assert "git ingestion of vllm-ascend" in text
