"""The scale benchmark (benchmarks/scale.py): its run end to end on a small fleet, and its
verdict. No timing assertions: the targets are printed by `python benchmarks/scale.py`."""

from __future__ import annotations

import pytest

from benchmarks.scale import Figures, measure, table, verdict


def _row(repos: int, run: str, wall: float, rss: float, ok: bool = True) -> Figures:
    return Figures(repos, repos // 10, run, ok, wall, rss, 4 * repos, repos, repos, 0, 0, 8 * repos)


def test_the_verdict_reads_the_large_fleets_first_run() -> None:
    rows = [_row(50, "first", 40, 150), _row(50, "quiet", 10, 140)]
    ok, line = verdict([*rows, _row(500, "first", 420, 431), _row(500, "quiet", 900, 900)])
    assert ok and line.startswith("PASS: 500 repositories, first run 420 s wall")
    ok, line = verdict([*rows, _row(500, "first", 601, 300), _row(500, "quiet", 1, 1)])
    assert not ok and line.startswith("FAIL") and "601 s" in line
    ok, line = verdict([*rows, _row(500, "first", 100, 501), _row(500, "quiet", 1, 1)])
    assert not ok and "501 MB" in line
    ok, line = verdict([*rows, _row(500, "first", 1, 1, ok=False), _row(500, "quiet", 1, 1)])
    assert not ok and "the run failed" in line
    assert "s of the run's own CPU" in line
    grid = table([*rows, _row(500, "first", 420, 431), _row(500, "quiet", 90, 150)])
    assert [c.header for c in grid.columns][3] == "growth ×10"


@pytest.mark.slow
def test_a_small_fleet_runs_end_to_end() -> None:
    first, quiet, changed = measure(3, 1, latency=0.0, concurrency=2)
    assert first.ok and quiet.ok and first.repos == quiet.repos == 4
    assert first.run == "first" and quiet.run == "quiet"
    # Each repository's first sync: its listings and its PRs' details by GraphQL.
    assert first.rest_requests >= 4 * 4 and first.graphql_requests >= 4
    assert first.graphql_points >= first.graphql_requests
    # The busy one's merged PRs' diffs, a page each: the budget is ample, so none wait.
    assert 0 < first.patch_requests < first.rest_requests
    # The next day with nothing changed: four 304s a repository, no GraphQL.
    assert quiet.rest_requests == quiet.not_modified == 16
    assert quiet.graphql_requests == quiet.graphql_points == 0
    assert quiet.patch_requests == 0
    # 7 closed days and the last closed week, in English, for each of the four.
    assert first.reports == quiet.reports == 4 * 8
    assert 0 < first.peak_rss_mb < 2000 and first.wall_s > 0
    # The run's own CPU, all its threads: some, and less on the quiet day than the first.
    assert first.cpu_s > 0 and 0 < quiet.cpu_s < first.cpu_s
    # Every process counted: the site's Pagefind runs, seen from /proc, in the peak.
    assert first.pagefind_runs >= 1 and first.children >= first.pagefind_runs
    assert first.peak_rss_mb == round(first.own_rss_mb + first.children_peak_mb, 1)
    assert first.pagefind_peak_mb > 0 and first.children_cpu_s > 0
    assert quiet.pagefind_runs == 0  # nothing new: the search index is not made again
    # One report edited, then `site build`: no request, one search bundle indexed again.
    assert changed.run == "changed" and changed.ok and changed.rest_requests == 0
    assert changed.pagefind_runs == 1 and changed.reports == first.reports
