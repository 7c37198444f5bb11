"""The risk benchmark runs on the labelled set (joined with ../shared) and prints every tag's
figures; without the shared history it says so in one line and exits 1."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from benchmarks.risk import main, render, run_benchmark
from testkit.risk_eval import ASCEND, JUDGED
from tests.shared import shared_or_skip


def test_risk_benchmark_reports_every_tag() -> None:
    shared_or_skip(ASCEND, "the risk benchmark's PRs are joined from the shared history")
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


def test_risk_benchmark_without_the_shared_history_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([], shared=tmp_path / "absent.jsonl") == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "absent.jsonl" in err and "TIDINGS_SHARED" in err
    assert "\n" not in err
