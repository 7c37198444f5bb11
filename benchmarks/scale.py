"""Scale benchmark: `tidings run` over hundreds of repositories on one machine (#14).

    python benchmarks/scale.py [--latency 0.05] [--quick] [--concurrency 4] [--no-site] [--json]

A fleet of repositories (testkit/fleet.py: nine in ten quiet, a few items each; one in ten
busy, a fifth of a vLLM-scale week each, all of it in the last full week) is served by the
loopback GitHub, and `tidings run --no-pdf` runs end to end in a child process, as cron would
run it: each repository's first (bounded) sync, its reports (the last 7 closed days and the
last closed week) and the site. Then the next day's run (a fresh rate-limit hour), with
nothing changed but what the first run deferred: the diffs of merged PRs it left to keep the
token's requests for the other repositories' listings. Two fleets are
measured side by side, 50 repositories (45 quiet, 5 busy) and 500 (450 and 50), so the last
column says how each figure grows with ten times the repositories.

Requests and GraphQL points are counted by the server (GitHub's documented cost per query),
wall time around the child, peak RSS as the child's own high-water mark (`VmHWM`, read from
/proc as it exits). Not `ru_maxrss`: on Linux a process's `ru_maxrss` keeps the high-water
mark of the memory it had before `exec`, which for a child of this process is this process's
(the loopback server and its 500 repositories' records, some 400 MB), so it would measure us.
PDFs are off: printing 4,000 reports' PDFs is WeasyPrint's time, measured by
benchmarks/site.py, not the run's.

PASS needs the 500-repository first run under 10 minutes wall and under 500 MB peak RSS on
the machine it runs on (the target machine has two cores).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.fleet import fleet  # noqa: E402
from testkit.servers.github import FakeGitHub  # noqa: E402

TOKEN = "bench-token"
WALL_LIMIT = 600.0  # seconds, for the large fleet's first run
RSS_LIMIT = 500.0  # MB
SIZES = ((45, 5), (450, 50))
# The child: tidings' CLI, writing its peak RSS (kB) to a file when it exits.
CHILD = """
import atexit, os, sys

def peak():
    with open("/proc/self/status") as status:
        kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["TIDINGS_BENCH_PEAK"], "w") as out:
        out.write(kb)

atexit.register(peak)
from tidings.cli import main
sys.argv[0] = "tidings"
main()
"""
QUICK_SIZES = ((9, 1), (45, 5))


@dataclass
class Figures:
    repos: int
    busy: int
    run: str  # "first" or "quiet"
    ok: bool
    wall_s: float
    peak_rss_mb: float
    rest_requests: int
    graphql_requests: int
    graphql_points: int
    not_modified: int
    patch_requests: int  # REST pages of merged PRs' files (their diffs): the optional part
    reports: int  # report JSON files on disk after the run


def _config(folder: Path, api_url: str, names: list[str], concurrency: int) -> Path:
    path = folder / "tidings.toml"
    repos = "".join(f'[[repos]]\nname = "{n}"\n\n' for n in names)
    path.write_text(
        repos
        + f'[github]\napi_url = "{api_url}"\n\n[run]\nconcurrency = {concurrency}\n\n'
        + "[site]\npdf = false\n",
        encoding="utf-8",
    )
    return path


def _tidings(folder: Path, config: Path, site: bool = True) -> tuple[int, float, float, str]:
    """Run `tidings run` in a child; its exit code, wall seconds, peak RSS (MB), stderr tail."""
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    peak = folder / "peak-kb.txt"
    peak.unlink(missing_ok=True)
    env |= {
        "GITHUB_TOKEN": TOKEN,
        "PYTHONPATH": str(ROOT / "src"),
        "TIDINGS_BENCH_PEAK": str(peak),
    }
    command = [
        sys.executable,
        "-c",
        CHILD,
        "--db",
        f"sqlite:///{folder / 'tidings.db'}",
        "--config",
        str(config),
        "run",
        "--no-pdf",
        "--no-llm",
        *([] if site else ["--no-site"]),
    ]
    err = folder / "stderr.txt"
    started = time.perf_counter()
    with err.open("wb") as sink:
        child = subprocess.Popen(command, cwd=folder, env=env, stdout=sink, stderr=sink)
        code = child.wait()
    wall = time.perf_counter() - started
    tail = err.read_text("utf-8", "replace").strip().splitlines()[-3:]
    rss = int(peak.read_text()) / 1024 if peak.is_file() else float("nan")
    return code, wall, rss, " | ".join(tail)


def measure(
    quiet: int, busy: int, latency: float, concurrency: int, site: bool = True
) -> list[Figures]:
    repos = fleet(quiet, busy, now=datetime.now(UTC))
    out: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="tidings-scale-") as tmp:
        folder = Path(tmp)
        records = [r for rs in repos.values() for r in rs]
        with FakeGitHub(records, token=TOKEN, latency=latency) as gh:
            del records
            config = _config(folder, gh.api_url, list(repos), concurrency)
            for run in ("first", "quiet"):
                gh.reset_log()
                gh.new_hour()  # the next day's run has the token's hour to itself
                points = gh.graphql_points
                code, wall, rss, tail = _tidings(folder, config, site)
                if code != 0:
                    print(f"warning: {run} run of {len(repos)} exited {code}: {tail}", flush=True)
                out.append(
                    Figures(
                        repos=len(repos),
                        busy=busy,
                        run=run,
                        ok=code == 0,
                        wall_s=round(wall, 1),
                        peak_rss_mb=round(rss, 1),
                        rest_requests=gh.count(api="rest"),
                        graphql_requests=gh.count(api="graphql"),
                        graphql_points=gh.graphql_points - points,
                        not_modified=gh.count(not_modified=True),
                        patch_requests=gh.count(path_contains="/files"),
                        reports=sum(1 for _ in (folder / "reports").rglob("*.json")),
                    )
                )
    return out


def verdict(rows: list[Figures]) -> tuple[bool, str]:
    big = max(r.repos for r in rows)
    first = next(r for r in rows if r.repos == big and r.run == "first")
    ok = first.ok and first.wall_s < WALL_LIMIT and first.peak_rss_mb < RSS_LIMIT
    line = (
        f"{'PASS' if ok else 'FAIL'}: {big} repositories, first run {first.wall_s:.0f} s wall "
        f"(limit {WALL_LIMIT:.0f} s) and {first.peak_rss_mb:.0f} MB peak RSS (limit "
        f"{RSS_LIMIT:.0f} MB){'' if first.ok else ', and the run failed'}; "
        f"{os.cpu_count()} CPUs here"
    )
    return ok, line


def table(rows: list[Figures]) -> Table:
    small, big = min(r.repos for r in rows), max(r.repos for r in rows)
    out = Table(title="tidings run over many repositories", box=box.SIMPLE_HEAD)
    out.add_column("figure")
    for run in ("first", "quiet"):
        for size in (small, big):
            out.add_column(f"{size} repos, {run}", justify="right")
        out.add_column(f"growth ×{big // small}", justify="right")
    fields = (
        ("wall (s)", "wall_s"),
        ("peak RSS (MB)", "peak_rss_mb"),
        ("REST requests", "rest_requests"),
        ("  of which 304", "not_modified"),
        ("  of which patches", "patch_requests"),
        ("GraphQL requests", "graphql_requests"),
        ("GraphQL points", "graphql_points"),
        ("reports on disk", "reports"),
    )
    for label, name in fields:
        cells = []
        for run in ("first", "quiet"):
            a = next(r for r in rows if r.repos == small and r.run == run)
            b = next(r for r in rows if r.repos == big and r.run == run)
            x, y = getattr(a, name), getattr(b, name)
            cells += [f"{x:g}", f"{y:g}", f"{y / x:.1f}" if x else "-"]
        out.add_row(label, *cells)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per request")
    parser.add_argument("--concurrency", type=int, default=4, help="[run] concurrency")
    parser.add_argument("--quick", action="store_true", help="10 and 50 repositories")
    parser.add_argument("--no-site", action="store_true", help="leave the site build out")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rows: list[Figures] = []
    for quiet, busy in QUICK_SIZES if args.quick else SIZES:
        rows += measure(quiet, busy, args.latency, args.concurrency, not args.no_site)
    ok, line = verdict(rows)
    if args.json:
        data: dict[str, Any] = {
            "latency": args.latency,
            "concurrency": args.concurrency,
            "rows": [asdict(r) for r in rows],
            "pass": ok,
            "verdict": line,
        }
        print(json.dumps(data, indent=2))
    else:
        console = Console()
        console.print(table(rows))
        console.print(
            f"latency {args.latency:g} s per request, [run] concurrency {args.concurrency}, "
            f"PDFs off{', no site' if args.no_site else ''}; the quiet run is the next day's "
            "(a fresh rate-limit hour) with nothing changed but the deferred diffs",
            markup=False,
        )
        console.print(line, markup=False)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
