"""The deletion benchmark runs on small stores and reports every figure; no timing is asserted
(the figures in docs/benchmarks.md come from `python benchmarks/deletions.py`)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from rich.console import Console

from benchmarks.deletions import main, render, run_benchmark


def test_deletion_benchmark_finds_every_deletion_for_fewer_queries_than_a_listing() -> None:
    results = run_benchmark(sizes=(150, 1_500), deletions=(1, 3), seed_value=0)
    json.dumps(results)  # machine-readable as is
    assert results["passed"] is True
    rows = {(row["prs"], row["deleted"]): row for row in results["rows"]}
    assert set(rows) == {(150, 1), (150, 3), (1_500, 1), (1_500, 3)}
    for row in rows.values():
        assert row["found_exactly"] and row["notes"] == []
        assert row["search"]["points"] >= row["search"]["queries"] >= 1
    # The listing: a query per 100 PRs.
    assert rows[(150, 1)]["listing"]["queries"] == 2
    assert rows[(1_500, 1)]["listing"]["queries"] == 15
    # 150 PRs: searching would cost as much as the two pages, so they are listed (and the
    # totals asked): 3 queries.
    assert rows[(150, 1)]["search"]["queries"] == 3
    # 1,500 PRs, one deleted: the totals, 2 count queries (8 ranges, then 2) and 1 lookup.
    assert rows[(1_500, 1)]["search"]["queries"] == 4
    out = StringIO()
    render(results, Console(file=out, width=120))
    text = out.getvalue()
    assert "1,500" in text and "PASS" in text


def test_deletion_benchmark_command_prints_json_and_exits_0_when_all_are_found(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--sizes", "300", "--deletions", "2", "--json"]) == 0
    results = json.loads(capsys.readouterr().out)
    [row] = results["rows"]
    assert (row["prs"], row["deleted"], row["found_exactly"]) == (300, 2, True)
