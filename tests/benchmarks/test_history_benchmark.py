"""The store-age benchmark runs end to end in quick mode and reports every figure (no timing
asserts: `python benchmarks/history.py` prints the ratios and the PASS/FAIL targets)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from rich.console import Console

from benchmarks.history import render, run_benchmark


@pytest.mark.slow
def test_quick_history_benchmark_reports_every_figure() -> None:
    results = run_benchmark(ages=[1, 2], quick=True)
    json.dumps(results)
    rows = results["backends"]["sqlite"]["rows"]
    assert [r["months"] for r in rows] == [1, 2]
    # The older store holds more history; the report's own week is the same in both.
    assert rows[1]["rows"]["items"] > rows[0]["rows"]["items"] > 0
    for row in rows:
        for key in ("daily_seconds", "weekly_seconds", "daily_cpu", "weekly_cpu"):
            assert row[key] > 0
        # The quiet re-sync's reads ran through the sync's own code.
        assert row["resync_seconds"] is not None and row["resync_seconds"] > 0
    assert all(isinstance(ok, bool) for ok in results["targets"].values())
    out = StringIO()
    render(results, Console(file=out, width=160))
    text = out.getvalue()
    assert "oldest / youngest" in text and ("PASS" in text or "FAIL" in text)
