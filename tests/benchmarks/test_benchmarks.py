"""The sync benchmark runs end to end (quick week, no latency) and reports every figure.

No timing assertions here: speed targets are printed by `python benchmarks/sync.py`.
"""

from __future__ import annotations

import json

import pytest

from benchmarks.sync import SCENARIOS, TOOLS, render, run_benchmark


@pytest.mark.slow
def test_quick_benchmark_reports_every_figure() -> None:
    results = run_benchmark(latency=0.0, quick=True, seed=0)
    json.dumps(results)  # machine-readable as is
    assert results["quick"] is True and results["latency"] == 0.0
    assert results["records"]["item"] == 180
    runs = {(r["tool"], r["scenario"]): r for r in results["runs"]}
    assert set(runs) == {(tool, s) for tool in TOOLS for s in SCENARIOS}
    for run in runs.values():
        assert run["requests"] > 0
        assert run["elapsed"] > 0
        assert run["cpu"] >= 0
        assert isinstance(run["peak_memory"], int) and run["peak_rss"] >= run["peak_memory"]
        assert 0 <= run["not_modified"] <= run["requests"]
    # The fair REST plan: two requests per PR (reviews, files) on top of the repository-wide
    # listings (2 pages of issues, and the comment listings); one more per PR with /pulls/{n}.
    rest, pulls = runs[("rest", "full")], runs[("rest+pulls", "full")]
    assert 2 * 140 < rest["requests"] < 2 * 140 + 40
    assert pulls["requests"] == rest["requests"] + 140
    assert rest["detail"]["items"] == 180
    assert rest["detail"]["comments"] == results["records"]["comment"]
    assert runs[("rest", "unchanged")]["not_modified"] == 0
    # The ten changed items are what the REST plans re-read.
    assert runs[("rest", "changed")]["detail"]["items"] == 10
    for plan in ("rest", "rest+pulls"):
        for scenario in SCENARIOS:
            ratio = results["ratios"][plan][scenario]
            assert set(ratio) == {"requests", "non_304_requests", "time"}
    # The star before the changed scenario moves the repository's updated_at, so tidings'
    # If-Modified-Since call is a paid 200 there; a new token still gets a 304 for it.
    assert results["repository_call"] == {
        "full": 200,
        "changed": 200,
        "unchanged": 304,
        "new_token": 304,
    }
    assert set(results["targets"]) and all(isinstance(v, bool) for v in results["targets"].values())
    assert results["checks"] == {
        "store equals the served week after the full sync": True,
        "store equals the served week after the changes": True,
        "every merged PR's diff read from the clone": True,
    }
    assert results["check_notes"] == {}
    # Diffs from a clone: a full sync of the (changed) week into another store lists no PR's
    # files, so it costs what the first full sync cost less its 60 patch listings.
    clone, full = results["clone"], runs[("tidings", "full")]
    assert clone["patch_requests"] == 0 and clone["git_fetches"] == 1
    assert full["requests"] - 60 - 2 <= clone["requests"] <= full["requests"] - 60 + 2
    # The store's side: statements counted, a handful per PR (tests/sources/github has the
    # per-page batching's own test).
    assert 0 < full["detail"]["sql_statements"] < 6 * full["detail"]["pr_details"]
    # Nothing changed: tidings repeats its last requests and every answer is a 304.
    unchanged = runs[("tidings", "unchanged")]
    assert unchanged["not_modified"] == unchanged["requests"]
    assert results["rate_limit"]["unchanged"] == {"rest": 0, "graphql_points": 0}
    # Nothing changed, new token: the three listings' ETags were the old token's, so each is
    # a paid 200; the repository's 304 holds across tokens; no GraphQL.
    new_token = runs[("tidings", "new_token")]
    assert (new_token["requests"], new_token["not_modified"]) == (4, 1)
    assert results["rate_limit"]["new_token"] == {"rest": 3, "graphql_points": 0}
    assert runs[("rest", "new_token")]["requests"] == runs[("rest", "unchanged")]["requests"]
    # The merged PRs' patches: one file listing for each of the quick week's 60 merged PRs
    # (each has under 100 files), counted in tidings' figures; none again when nothing changed.
    assert results["patches"]["full"] == {"requests": 60, "prs": 60, "files_without_patch": 90}
    assert results["patches"]["unchanged"]["requests"] == 0
    assert results["patches"]["changed"]["requests"] <= 10  # only a PR merged by the changes


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
            for tool in TOOLS
        ],
        "ratios": {
            plan: {s: {"requests": 1.0, "non_304_requests": None, "time": 0.5} for s in SCENARIOS}
            for plan in TOOLS[1:]
        },
        "repository_call": {"full": 200, "changed": 200, "unchanged": 304, "new_token": 304},
        "rate_limit": {
            "full": {"rest": 380, "graphql_points": 60},
            "changed": {"rest": 3, "graphql_points": 2},
            "unchanged": {"rest": 0, "graphql_points": 0},
            "new_token": {"rest": 3, "graphql_points": 0},
        },
        "patches": {
            "full": {"requests": 300, "prs": 300, "files_without_patch": 2},
            "changed": {"requests": 1, "prs": 1, "files_without_patch": 0},
            "unchanged": {"requests": 0, "prs": 0, "files_without_patch": 0},
        },
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
    assert "patches (GET /pulls/{n}/files): full sync 300 for 300 PRs, 10 changed 1 for 1" in text
    assert "rest+pulls" in text and "changed 200" in text.replace("10 changed", "changed")
    flat = " ".join(text.split())
    assert "new token 10 requests, 3 REST + 0 GraphQL" in flat
    assert "full sync 10 requests, 380 REST + 60 GraphQL" in flat
    assert "FAIL store equals the served week after the full sync: 2 records differ" in text
