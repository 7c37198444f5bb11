"""The risk benchmark runs on the committed labelled set and prints every tag's figures."""

from __future__ import annotations

import json
from io import StringIO

from rich.console import Console

from benchmarks.risk import render, run_benchmark
from testkit.risk_eval import JUDGED


def test_risk_benchmark_reports_every_tag() -> None:
    results = run_benchmark(rounds=1)
    json.dumps(results)  # machine-readable as is
    assert set(results["all"]["per_tag"]) == set(JUDGED)
    assert results["held_out"]["prs"] < results["all"]["prs"]
    assert results["seconds_per_pr"] > 0
    out = StringIO()
    render(results, Console(file=out, width=120))
    text = out.getvalue()
    for tag in JUDGED:
        assert tag in text
    assert "held out" in text and ("PASS" in text or "FAIL" in text)
