"""Report time against store age: is a daily or weekly report as cheap on a year-old store as
on a month-old one?

    python benchmarks/history.py [--ages 1,6,12] [--pg URL] [--no-pg] [--quick] [--json]

The same report (the daily of a Wednesday and the weekly of its ISO week, zh, Markdown, no LLM,
built and rendered as `tidings report daily` / `report weekly` do) is timed on stores holding 1,
6 and 12 months of vLLM-scale history (testkit/generate.py's weeks: 300 merged PRs, 700 PRs,
200 issues, 5,000 comments and reviews and 3,000 changed files a week), on SQLite and on
PostgreSQL. The report's own week is the same in every store; only the history before it grows.
So the store is filled newest first: the last month, measure; the five months before, measure;
the six before those, measure. Each week is generated once (kept pickled in a temporary folder)
and written as a sync would leave it: comment counts checked, planner statistics refreshed when
the store grew (store/planner.py, what a real sync does on its way out).

Also timed: the quiet re-sync's own store reads (finding the items whose comment counts must be
checked against GitHub's, and counting the stored comments of those alone: none in a quiet
re-sync), the part of a no-change sync that used to grow with history.

Every time is the best of `--repeats` runs after a warm-up; the ratios (12 months against 1)
are printed beside the figures, with PASS/FAIL against the issue's target of 1.5x. PostgreSQL
runs in a fresh schema of `--pg` (default: $TIDINGS_TEST_PG_URL), dropped afterwards; without
one, only SQLite is measured, and the output says so. No timing is asserted in any test.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import sqlalchemy as sa  # noqa: E402
from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.generate import REPO, generate_weeks  # noqa: E402
from testkit.seed import seed  # noqa: E402
from tidings import api  # noqa: E402
from tidings.common.config import RepoConfig  # noqa: E402
from tidings.store import Store, schema  # noqa: E402

TZ = ZoneInfo("Asia/Shanghai")
REPORT_WEEK = (2026, 10)  # the week every store ends with
REPORT_DAY = date.fromisocalendar(*REPORT_WEEK, 3)  # its Wednesday
TARGET = 1.5  # the bound: 12 months within 1.5x of 1 month
WEEKS_PER_MONTH = 52 / 12


def _config() -> RepoConfig:
    return RepoConfig(name=REPO, timezone=TZ.key, core_paths=["engine/core/**", "engine/worker/**"])


def _weeks_for(months: int) -> int:
    return max(1, round(months * WEEKS_PER_MONTH))


def _first_monday(weeks: int) -> datetime:
    monday = date.fromisocalendar(*REPORT_WEEK, 1) - timedelta(weeks=weeks - 1)
    return datetime.combine(monday, datetime.min.time(), TZ)


def _generate(folder: Path, weeks: int, merged: int) -> list[Path]:
    """Every week once, oldest first, pickled: the stores are filled newest first from these."""
    paths = []
    for k, records in enumerate(generate_weeks(weeks, merged=merged, start=_first_monday(weeks))):
        path = folder / f"week-{k:03d}.pickle"
        path.write_bytes(pickle.dumps(records, protocol=pickle.HIGHEST_PROTOCOL))
        paths.append(path)
    return paths


def _settle(store: Store) -> None:
    """What a sync leaves behind: every item's counts checked, PR details read; then the
    planner statistics refreshed if the store grew (Store.sync_lock does that after a sync)."""
    it = schema.items
    with store.begin() as conn:
        conn.execute(
            it.update()
            .where(
                sa.or_(
                    it.c.checked_updated_at.is_(None), it.c.checked_updated_at != it.c.updated_at
                )
            )
            .values(checked_updated_at=it.c.updated_at, detail_updated_at=it.c.updated_at)
        )
        # The mark a finished sync leaves: the store holds the repository as of now.
        store.set_cursor(conn, store.require_repo(conn, REPO), "synced", None)
    store.refresh_planner()


def _best(work: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """(wall, CPU) seconds, each the best of `repeats` after a warm-up. CPU is this process's
    own: on SQLite all of the work (the database runs in-process), on PostgreSQL the client's
    share only; it is what a busy machine's other processes cannot inflate."""
    work()  # warm-up: imports, templates, the database's page cache
    walls, cpus = [], []
    for _ in range(repeats):
        started, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)  # other processes only ever add time


def _daily(store: Store) -> None:
    report = api.build_daily(store, _config(), REPORT_DAY, "zh", llm=False)
    api.render_report(report, "md")


def _weekly(store: Store) -> None:
    report = api.build_weekly(store, _config(), REPORT_WEEK, "zh", llm=False)
    api.render_report(report, "md")


def _resync_reads(store: Store) -> Callable[[], None]:
    """The quiet re-sync's store reads, through the sync's own count-reconciliation stage
    (sources/github/reconcile.py; no request is made: every item is checked, so nothing is
    re-listed). Imported here, not guarded: a benchmark that silently dropped this row when the
    sync's modules moved once hid that it measured nothing."""
    from tidings.sources.github.context import SyncContext
    from tidings.sources.github.reconcile import reconcile_items
    from tidings.sources.github.summary import SyncReport

    owner, name = REPO.split("/")
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, REPO)

    def run() -> None:
        no_client: Any = None  # never called: nothing is left to re-list
        ctx = SyncContext(store, no_client, owner, name, SyncReport(repository=REPO))
        ctx.repo_id = repo_id
        reconcile_items(ctx)

    return run


def _rows(store: Store) -> dict[str, int]:
    with store.engine.connect() as conn:
        return {
            name: conn.execute(
                sa.select(sa.func.count()).select_from(schema.metadata.tables[name])
            ).scalar_one()
            for name in ("items", "comments", "reviews", "review_comments", "pr_files")
        }


@contextmanager
def _pg_schema(base: str) -> Iterator[str]:
    name = f"bench_history_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    url = sa.make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


def measure(url: str, weeks: list[Path], ages: list[int], repeats: int) -> list[dict[str, Any]]:
    """Fill one store newest first, measuring at each age."""
    store = Store.open(url)
    rows: list[dict[str, Any]] = []
    try:
        filled = 0
        for months in ages:
            wanted = min(_weeks_for(months), len(weeks))
            started = time.perf_counter()
            # Newest first, week by week, as if each had been synced.
            for path in reversed(weeks[len(weeks) - wanted : len(weeks) - filled]):
                seed(store, pickle.loads(path.read_bytes()))
                _settle(store)
            filled = wanted
            fill_seconds = time.perf_counter() - started
            resync = _resync_reads(store)
            daily = _best(lambda: _daily(store), repeats)
            weekly = _best(lambda: _weekly(store), repeats)
            quiet = _best(resync, repeats)
            rows.append(
                {
                    "months": months,
                    "weeks": wanted,
                    "rows": _rows(store),
                    "fill_seconds": fill_seconds,
                    "daily_seconds": daily[0],
                    "weekly_seconds": weekly[0],
                    "resync_seconds": quiet[0],
                    "daily_cpu": daily[1],
                    "weekly_cpu": weekly[1],
                    "resync_cpu": quiet[1],
                }
            )
    finally:
        store.close()
    return rows


def _ratios(rows: list[dict[str, Any]]) -> dict[str, float | None]:
    first, last = rows[0], rows[-1]
    out: dict[str, float | None] = {}
    for key in ("daily_seconds", "weekly_seconds", "resync_seconds", "daily_cpu", "weekly_cpu"):
        a, b = first[key], last[key]
        out[key.removesuffix("_seconds")] = b / a if a and b else None
    return out


def run_benchmark(
    *,
    ages: list[int] | None = None,
    pg_url: str | None = None,
    merged: int = 300,
    repeats: int = 5,
    quick: bool = False,
) -> dict[str, Any]:
    ages = sorted(ages or [1, 6, 12])
    if quick:
        merged, repeats = 30, 1
    backends: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        weeks = _generate(Path(tmp), _weeks_for(ages[-1]), merged)
        rows = measure(f"sqlite:///{Path(tmp) / 'history.db'}", weeks, ages, repeats)
        backends["sqlite"] = {"rows": rows, "ratios": _ratios(rows)}
        if pg_url:
            with _pg_schema(pg_url) as url:
                rows = measure(url, weeks, ages, repeats)
            backends["postgresql"] = {"rows": rows, "ratios": _ratios(rows)}
    # SQLite is judged on CPU time (all its work is this process's; a loaded machine cannot
    # inflate it), PostgreSQL on wall time (its work is the server's).
    judged = {"sqlite": ("daily_cpu", "weekly_cpu"), "postgresql": ("daily", "weekly")}
    targets = {
        f"{name}: {kind.replace('_', ' ')} at {ages[-1]} months within {TARGET:g}x of {ages[0]}": (
            backend["ratios"][kind] or 0
        )
        <= TARGET
        for name, backend in backends.items()
        for kind in judged[name]
    }
    return {
        "quick": quick,
        "merged_prs_per_week": merged,
        "report_day": REPORT_DAY.isoformat(),
        "report_week": f"{REPORT_WEEK[0]}-W{REPORT_WEEK[1]:02d}",
        "repeats": repeats,
        "backends": backends,
        "postgresql_note": None if pg_url else "no --pg URL and no TIDINGS_TEST_PG_URL: not run",
        "targets": targets,
    }


def _ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    # A quiet re-sync's reads take well under a millisecond: whole milliseconds would say 0.
    return f"{value * 1000:.{1 if value < 0.01 else 0}f} ms"


def _x(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def render(results: dict[str, Any], console: Console) -> None:
    for name, backend in results["backends"].items():
        table = Table(
            title=(
                f"{name}: daily {results['report_day']} and weekly {results['report_week']} "
                f"(zh, Markdown, no LLM) against store age, {results['merged_prs_per_week']} "
                "merged PRs a week"
            ),
            box=box.SIMPLE_HEAD,
        )
        for column in (
            "store age",
            "items",
            "comments",
            "daily wall",
            "daily CPU",
            "weekly wall",
            "weekly CPU",
            "quiet re-sync reads",
        ):
            table.add_column(column, justify="right")
        for row in backend["rows"]:
            table.add_row(
                f"{row['months']} mo ({row['weeks']} weeks)",
                f"{row['rows']['items']:,}",
                f"{row['rows']['comments']:,}",
                _ms(row["daily_seconds"]),
                _ms(row["daily_cpu"]),
                _ms(row["weekly_seconds"]),
                _ms(row["weekly_cpu"]),
                _ms(row["resync_seconds"]),
            )
        ratios = backend["ratios"]
        table.add_row(
            "oldest / youngest",
            "",
            "",
            _x(ratios["daily"]),
            _x(ratios["daily_cpu"]),
            _x(ratios["weekly"]),
            _x(ratios["weekly_cpu"]),
            _x(ratios["resync"]),
        )
        console.print(table)
    if results["postgresql_note"]:
        console.print(f"postgresql: {results['postgresql_note']}", markup=False)
    for name, ok in results["targets"].items():
        console.print(f"{'PASS' if ok else 'FAIL'} {name}", markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--ages", default="1,6,12", help="store ages in months, comma-separated")
    parser.add_argument(
        "--pg",
        default=os.environ.get("TIDINGS_TEST_PG_URL"),
        help="PostgreSQL URL (a fresh schema is made in it); default $TIDINGS_TEST_PG_URL",
    )
    parser.add_argument("--no-pg", action="store_true", help="measure SQLite only")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="30 merged PRs a week, one repeat")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    try:
        ages = [int(x) for x in args.ages.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--ages wants months like 1,6,12, not {args.ages!r}")
    if not ages or min(ages) < 1:
        parser.error("--ages wants whole months, at least 1")
    results = run_benchmark(
        ages=ages,
        pg_url=None if args.no_pg else args.pg,
        repeats=max(1, args.repeats),
        quick=args.quick,
    )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        render(results, Console(width=130))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
