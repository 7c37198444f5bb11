"""The site benchmark's quick mode runs end to end and reports every figure (no timing asserts:
`python benchmarks/site.py` prints the targets)."""

from __future__ import annotations

import json

import pytest
from benchmarks.site import render, run_benchmark


@pytest.mark.slow
def test_quick_site_benchmark_reports_every_figure() -> None:
    results = run_benchmark(quick=True, pdf_sample=1, all_pdfs=False)
    json.dumps(results)
    assert results["reports"] == 20 + 3
    assert results["files"] > 23 * 3  # html, json and md per daily report, plus the rest
    assert results["rebuild_unchanged_written"] == 0
    assert len(results["rebuild_one_new_written"]) == 7
    assert results["pdfs_made"] == 1 and results["pdf_rebuild_one_new_made"] == 1
    for key in ("build_s", "rebuild_unchanged_s", "rebuild_one_new_s", "pdf_wall_s"):
        assert results[key] > 0
    assert all(isinstance(ok, bool) for ok in results["targets"].values())
    text = render(results)
    assert "one new daily report" in text and "targets:" in text
