"""Weekly report benchmark: generation at vLLM scale (no LLM) and git ingestion of vllm-ascend.

    python benchmarks/weekly.py [--weeks 10] [--prs 300] [--quick] [--json]

1. **Weekly reports.** A store is filled with `--weeks` (+1) consecutive ISO weeks of generated
   vLLM-scale activity (testkit/generate.py's week: by default 300 merged PRs a week out of 700,
   200 issues, 5,000 comments and reviews, 3,000 changed files, with the long tails of a real
   project). Then the weekly report (zh, JSON
   model plus Markdown) is built for 1 week and for every one of the 10 weeks, one after the
   other, against the full store (the extra first week is only there to be "the previous
   week" of the first report): wall time and peak memory are printed per week processed,
   so growth with the store's size (it should not grow) and with the number of weeks (it
   should be linear) is visible side by side.
2. **Git ingestion.** The real first-parent history of vllm-project/vllm-ascend
   (../shared/data/vllm-ascend-commits.jsonl, 4,734 commits) is rendered into the bytes
   `git log` prints (testkit/gitlog.py) and ingested through the git source's parser and
   store writer into an empty SQLite store: wall time and peak memory, with the cumulative
   time printed at every tenth ISO week of history processed.

Each week's time is the best of 3 runs after one warm-up build (imports, template
compilation). Memory is the peak resident set (VmHWM) of a fresh process that opens the store
and builds the week's report once (or ingests the history once): the whole process,
interpreter and imports included, as a `tidings report weekly` run would use; that pass is
separate, so the timings are not disturbed by it. No timing is asserted anywhere; `--quick`
(used by the tests) shrinks everything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from datetime import date, datetime, timedelta
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.generate import REPO, generate_weeks  # noqa: E402
from testkit.seed import seed  # noqa: E402
from tidings.common.config import RepoConfig  # noqa: E402
from tidings.render.weekly_markdown import render_weekly_markdown  # noqa: E402
from tidings.report.weekly import build_weekly  # noqa: E402
from tidings.store import Store  # noqa: E402

FIRST_WEEK = (2026, 9)  # the "previous week" of the first report; reports start at W10
TZ = ZoneInfo("Asia/Shanghai")
TARGET_SECONDS = 2.0  # one vLLM-scale week, no LLM (the target)
REPEATS = 3  # each week's report is timed this many times; the best run is printed
T = TypeVar("T")


def _config() -> RepoConfig:
    return RepoConfig(
        name=REPO,
        timezone=TZ.key,
        core_paths=["engine/core/**", "engine/worker/**"],
    )


def _first_monday() -> datetime:
    # Local Mondays: the report's weeks are cut in the repository's timezone.
    monday = date.fromisocalendar(*FIRST_WEEK, 1)
    return datetime.combine(monday, datetime.min.time(), TZ)


def _hwm() -> int:
    """This process's peak resident set in bytes (Linux VmHWM; 0 where /proc is missing).
    Not ru_maxrss: that survives exec, so a child would report its parent's peak."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _weekly_rss(db_url: str, year: int, week: int) -> int:
    """In a fresh process: open the store, build and render one week's report, peak RSS."""
    store = Store.open(db_url)
    try:
        report = build_weekly(store, _config(), year, week, "zh")
        render_weekly_markdown(report)
        report.model_dump_json()
    finally:
        store.close()
    return _hwm()


def _git_rss(records: list[dict[str, Any]]) -> int:
    from testkit.gitlog import REPO as ASCEND
    from testkit.gitlog import render_log
    from tidings.sources.git import ingest, parse_log

    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'ascend.db'}")
        try:
            ingest(store, ASCEND, parse_log(render_log(records)), records[0]["sha"])
        finally:
            store.close()
    return _hwm()


def _in_fresh_process(work: Callable[..., T], *args: Any) -> T:
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        return pool.submit(work, *args).result()


def _fill(store: Store, weeks: int, prs: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for batch in generate_weeks(weeks, merged=prs, start=_first_monday()):
        seed(store, batch)
        for record in batch[1:]:
            counts[record.type] = counts.get(record.type, 0) + 1
    return counts


def weekly_generation(weeks: int, prs: int) -> dict[str, Any]:
    """Build each week's report (zh: model, JSON and Markdown) against a store of `weeks`."""
    repo = _config()
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        store = Store.open(db_url)
        try:
            # One more week than reported: every reported week has a busy week before it to
            # compare with, so the first week costs what the others do.
            counts = _fill(store, weeks + 1, prs)
            monday = date.fromisocalendar(*FIRST_WEEK, 1)
            rows: list[dict[str, Any]] = []
            for k in range(1, weeks + 1):
                year, week, _ = (monday + timedelta(weeks=k)).isocalendar()

                def one(year: int = year, week: int = week) -> tuple[int, int]:
                    report = build_weekly(store, repo, year, week, "zh")
                    text = render_weekly_markdown(report)
                    blob = report.model_dump_json()
                    return report.merged_prs, len(text) + len(blob)

                if k == 1:
                    one()  # warm-up: imports, template compilation, SQLite page cache
                times = []
                for _ in range(REPEATS):
                    started = time.perf_counter()
                    merged, size = one()
                    times.append(time.perf_counter() - started)
                # The best run: other processes only ever add time, never take it away.
                elapsed = min(times)
                peak = _in_fresh_process(_weekly_rss, db_url, year, week)
                rows.append(
                    {
                        "week": f"{year}-W{week:02d}",
                        "merged_prs": merged,
                        "seconds": elapsed,
                        "peak_memory": peak,
                        "output_bytes": size,
                    }
                )
        finally:
            store.close()
    return {
        "weeks": weeks,
        "records": counts,
        "per_week": rows,
        "total_seconds": sum(x["seconds"] for x in rows),
    }


def git_ingestion(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Ingest the rendered vllm-ascend history; cumulative time per ISO week of history."""
    from testkit.gitlog import REPO as ASCEND
    from testkit.gitlog import render_log
    from tidings.sources.git import GitCommit, ingest, parse_log

    marks: list[dict[str, Any]] = []

    def timed(commits: Iterable[GitCommit], started: float) -> Iterator[GitCommit]:
        last: tuple[int, int] | None = None
        weeks = 0
        for commit in commits:
            week = commit.committed_at.isocalendar()[:2]
            if week != last:
                weeks += 1
                last = week
                if weeks % 10 == 0:
                    marks.append({"weeks": weeks, "seconds": time.perf_counter() - started})
            yield commit

    def run(collect: bool) -> Any:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store.open(f"sqlite:///{Path(tmp) / 'ascend.db'}")
            try:
                started = time.perf_counter()
                commits = parse_log(render_log(records))
                report = ingest(
                    store,
                    ASCEND,
                    timed(commits, started) if collect else commits,
                    records[0]["sha"],
                )
                return report, time.perf_counter() - started
            finally:
                store.close()

    (report, elapsed) = run(True)
    peak = _in_fresh_process(_git_rss, records)
    weeks = len({datetime.fromisoformat(x["committed_at"]).isocalendar()[:2] for x in records})
    return {
        "commits": report.commits,
        "prs": report.prs,
        "pr_files": report.pr_files,
        "weeks": weeks,
        "seconds": elapsed,
        "peak_memory": peak,
        "seconds_per_week": elapsed / max(weeks, 1),
        "marks": marks,
    }


def run_benchmark(*, weeks: int = 10, prs: int = 300, quick: bool = False) -> dict[str, Any]:
    from testkit.gitlog import ASCEND, load_records

    if quick:
        weeks, prs = 2, 30
    one = weekly_generation(1, prs)
    many = weekly_generation(weeks, prs)
    results: dict[str, Any] = {
        "quick": quick,
        "prs_per_week": prs,
        "one_week": one,
        "many_weeks": many,
        "git": None,
        "git_note": None,
    }
    if ASCEND.exists():
        records = load_records(ASCEND)
        results["git"] = git_ingestion(records[:500] if quick else records)
    else:
        results["git_note"] = f"{ASCEND} is absent: git ingestion not measured"
    first = one["per_week"][0]["seconds"]
    per_week = [x["seconds"] for x in many["per_week"]]
    big = statistics.median(per_week)
    results["ratios"] = {
        # Near 1: a week's report costs the same whatever history the store holds, so N weeks
        # cost N times one week (linear growth).
        "week_in_big_store_vs_small": big / first if first else None,
        # Near `weeks`: the total for all weeks against one week.
        "many_weeks_vs_one_week": many["total_seconds"] / first if first else None,
    }
    results["targets"] = {
        f"one vLLM-scale week under {TARGET_SECONDS:g} s": first < TARGET_SECONDS,
        # The median week of the big store against the small store's week: a store holding
        # more weeks must not make each week dearer (noise allowance 1.5x).
        "cost grows at most linearly with weeks": (
            results["ratios"]["week_in_big_store_vs_small"] or 0
        )
        <= 1.5,
    }
    return results


def _mb(value: int) -> str:
    return f"{value / 2**20:.1f} MB"


def render(results: dict[str, Any], console: Console) -> None:
    table = Table(
        title=f"weekly report, {results['prs_per_week']} merged PRs a week, no LLM",
        box=box.SIMPLE_HEAD,
    )
    for column in ("store", "week", "merged PRs", "wall time", "peak RSS"):
        table.add_column(column, justify="right" if column != "week" else "left")
    for label, key in (
        ("1 week", "one_week"),
        (f"{results['many_weeks']['weeks']} weeks", "many_weeks"),
    ):
        for row in results[key]["per_week"]:
            table.add_row(
                label,
                row["week"],
                str(row["merged_prs"]),
                f"{row['seconds']:.3f} s",
                _mb(row["peak_memory"]),
            )
        table.add_row(label, "total", "", f"{results[key]['total_seconds']:.3f} s", "")
    console.print(table)
    ratios = results["ratios"]
    console.print(
        f"median week in the {results['many_weeks']['weeks']}-week store vs the 1-week store: "
        f"{ratios['week_in_big_store_vs_small']:.2f}x; {results['many_weeks']['weeks']} weeks vs "
        f"one week: {ratios['many_weeks_vs_one_week']:.2f}x",
        markup=False,
    )
    git = results["git"]
    if git is None:
        console.print(f"git ingestion: skipped ({results['git_note']})", markup=False)
    else:
        table = Table(
            title="git ingestion of vllm-ascend (rendered git log → parser → SQLite)",
            box=box.SIMPLE_HEAD,
        )
        table.add_column("weeks of history", justify="right")
        table.add_column("cumulative wall time", justify="right")
        for mark in git["marks"]:
            table.add_row(str(mark["weeks"]), f"{mark['seconds']:.2f} s")
        table.add_row(f"all {git['weeks']}", f"{git['seconds']:.2f} s")
        console.print(table)
        console.print(
            f"{git['commits']} commits, {git['prs']} PRs, {git['pr_files']} file rows; "
            f"{git['seconds_per_week'] * 1000:.1f} ms per week of history; peak RSS "
            f"{_mb(git['peak_memory'])}",
            markup=False,
        )
    for name, ok in results["targets"].items():
        console.print(f"{'PASS' if ok else 'FAIL'} {name}", markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--weeks", type=int, default=10)
    parser.add_argument("--prs", type=int, default=300, help="merged PRs per week")
    parser.add_argument("--quick", action="store_true", help="a small run (2 weeks of 30 PRs)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = run_benchmark(weeks=args.weeks, prs=args.prs, quick=args.quick)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        render(results, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
