"""Scale benchmark: `tidings run` over hundreds of repositories on one machine (#14).

    python benchmarks/scale.py [--latency 0.05] [--quick] [--repos 50,500] [--concurrency 4]
                               [--no-site] [--json]

A fleet of repositories (testkit/fleet.py: nine in ten quiet, a few items each; one in ten
busy, a fifth of a vLLM-scale week each, all of it in the last full week) is served by the
loopback GitHub, and `tidings run --no-pdf` runs end to end in a child process, as cron would
run it: each repository's first (bounded) sync, its reports (the last 7 closed days and the
last closed week) and the site. Then the next day's run (a fresh rate-limit hour), with
nothing changed but what the first run deferred: the diffs of merged PRs it left to keep the
token's requests for the other repositories' listings. Then one report changed by hand and
`tidings site build`: what one edited report costs the site. Two fleets are measured side by
side, 50 repositories (45 quiet, 5 busy) and 500 (450 and 50), so the last column says how each
figure grows with ten times the repositories (`--repos 13,100,500`: about 100, 800 and 4,000
reports).

Requests and GraphQL points are counted by the server (GitHub's documented cost per query),
wall time around the child, its peak RSS as its own high-water mark (`VmHWM`, read from /proc
as it exits), and every process it starts (Pagefind, one run per search bundle the site
indexes again) sampled from /proc every 20 ms: each one's own peak RSS and lifetime
(benchmarks/proctree.py), with their CPU time from RUSAGE_CHILDREN. Not `ru_maxrss`: on Linux
a process's `ru_maxrss` keeps the high-water mark of the memory it had before `exec`, which for
a child of this process is this process's (the loopback server and its 500 repositories'
records, some 400 MB), so it would measure us. PDFs are off: printing 4,000 reports' PDFs is
WeasyPrint's time, measured by benchmarks/site.py, not the run's.

PASS needs the 500-repository first run under 10 minutes wall and under 500 MB peak RSS on
the machine it runs on (the target machine has two cores), counting every process: the run's
own peak plus the largest of the processes it started (they run one at a time, while it waits).
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

from benchmarks.proctree import TreeSampler  # noqa: E402
from testkit.fleet import fleet  # noqa: E402
from testkit.servers.github import FakeGitHub  # noqa: E402

TOKEN = "bench-token"
WALL_LIMIT = 600.0  # seconds, for the large fleet's first run
RSS_LIMIT = 500.0  # MB
SIZES: tuple[tuple[int, int], ...] = ((45, 5), (450, 50))
# The child: tidings' CLI, writing its peak RSS (kB), its own CPU time and its children's to a
# file when it exits.
CHILD = """
import atexit, json, os, resource, sys

def peak():
    with open("/proc/self/status") as status:
        kb = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["TIDINGS_BENCH_PEAK"], "w") as out:
        json.dump({"hwm_kb": int(kb), "cpu_s": own.ru_utime + own.ru_stime,
                   "children_cpu_s": kids.ru_utime + kids.ru_stime}, out)

atexit.register(peak)
from tidings.cli import main
sys.argv[0] = "tidings"
main()
"""
QUICK_SIZES: tuple[tuple[int, int], ...] = ((9, 1), (45, 5))


@dataclass
class Figures:
    repos: int
    busy: int
    run: str  # "first", "quiet" or "changed" (one report edited, then `site build`)
    ok: bool
    wall_s: float
    peak_rss_mb: float  # every process: the run's own peak plus its largest child's
    rest_requests: int
    graphql_requests: int
    graphql_points: int
    not_modified: int
    patch_requests: int  # REST pages of merged PRs' files (their diffs): the optional part
    reports: int  # report JSON files on disk after the run
    own_rss_mb: float = 0.0  # the run's own peak (VmHWM)
    pagefind_runs: int = 0
    pagefind_peak_mb: float = 0.0  # the largest run's own peak
    pagefind_wall_s: float = 0.0  # summed
    children: int = 0  # every process the run started (Pagefind and any other)
    children_peak_mb: float = 0.0
    children_cpu_s: float = 0.0
    cpu_s: float = 0.0  # the run's own CPU time (user + system), all its threads
    tree_peak_mb: float = 0.0  # the most the run and its children held at once (sampled)


@dataclass
class Child:
    """What one child run did and cost."""

    code: int
    wall: float
    own_rss_mb: float
    cpu_s: float
    children_cpu_s: float
    tail: str
    tree: TreeSampler


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


def _tidings(folder: Path, config: Path, *args: str) -> Child:
    """Run the tidings CLI (`args` after --db and --config) in a child, with every process it
    starts sampled."""
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    peak = folder / "peak.json"
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
        *args,
    ]
    err = folder / "stderr.txt"
    started = time.perf_counter()
    with err.open("wb") as sink:
        child = subprocess.Popen(command, cwd=folder, env=env, stdout=sink, stderr=sink)
        with TreeSampler(child.pid) as tree:
            code = child.wait()
    wall = time.perf_counter() - started
    tail = err.read_text("utf-8", "replace").strip().splitlines()[-3:]
    found = json.loads(peak.read_text()) if peak.is_file() else {}
    return Child(
        code=code,
        wall=wall,
        own_rss_mb=found.get("hwm_kb", float("nan")) / 1024,
        cpu_s=found.get("cpu_s", 0.0),
        children_cpu_s=found.get("children_cpu_s", 0.0),
        tail=" | ".join(tail),
        tree=tree,
    )


def change_one_report(folder: Path) -> Path:
    """Edit one daily report's summary (the middle one of the first busy repository), as a
    re-run of an old day would."""
    dailies = sorted((folder / "reports").glob("*/busy-*/daily/*.json")) or sorted(
        (folder / "reports").glob("*/*/daily/*.json")
    )
    path = dailies[len(dailies) // 2]
    data = json.loads(path.read_text("utf-8"))
    data["summary"]["text"]["text"] += " (edited)"
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    return path


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
            runs = ["first", "quiet"] + (["changed"] if site else [])
            for run in runs:
                gh.reset_log()
                gh.new_hour()  # the next day's run has the token's hour to itself
                points = gh.graphql_points
                if run == "changed":
                    change_one_report(folder)
                    done = _tidings(folder, config, "site", "build")
                else:
                    flags = ["--no-pdf", "--no-llm", *([] if site else ["--no-site"])]
                    done = _tidings(folder, config, "run", *flags)
                if done.code != 0:
                    print(
                        f"warning: {run} run of {len(repos)} exited {done.code}: {done.tail}",
                        flush=True,
                    )
                pagefind, children = done.tree.children("pagefind"), done.tree.children()
                out.append(
                    Figures(
                        repos=len(repos),
                        busy=busy,
                        run=run,
                        ok=done.code == 0,
                        wall_s=round(done.wall, 1),
                        peak_rss_mb=round(done.own_rss_mb + children["peak_rss_mb"], 1),
                        rest_requests=gh.count(api="rest"),
                        graphql_requests=gh.count(api="graphql"),
                        graphql_points=gh.graphql_points - points,
                        not_modified=gh.count(not_modified=True),
                        patch_requests=gh.count(path_contains="/files"),
                        reports=sum(1 for _ in (folder / "reports").rglob("*.json")),
                        own_rss_mb=round(done.own_rss_mb, 1),
                        pagefind_runs=pagefind["count"],
                        pagefind_peak_mb=pagefind["peak_rss_mb"],
                        pagefind_wall_s=pagefind["wall_s"],
                        children=children["count"],
                        children_peak_mb=children["peak_rss_mb"],
                        children_cpu_s=round(done.children_cpu_s, 2),
                        cpu_s=round(done.cpu_s, 1),
                        tree_peak_mb=round(done.tree.tree_peak_kb / 1024, 1),
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
        f"{first.cpu_s:.0f} s of the run's own CPU and {first.children_cpu_s:.0f} s of its "
        f"children's; {os.cpu_count()} CPUs here"
    )
    return ok, line


def table(rows: list[Figures]) -> Table:
    sizes = sorted({r.repos for r in rows})
    small, big = sizes[0], sizes[-1]
    out = Table(title="tidings run over many repositories", box=box.SIMPLE_HEAD)
    out.add_column("figure")
    for run in ("first", "quiet"):
        for size in sizes:
            out.add_column(f"{size} repos, {run}", justify="right")
        out.add_column(f"growth ×{big // small}", justify="right")
    fields = (
        ("wall (s)", "wall_s"),
        ("CPU, the run's own (s)", "cpu_s"),
        ("peak RSS, all processes (MB)", "peak_rss_mb"),
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
            found = [next(r for r in rows if r.repos == size and r.run == run) for size in sizes]
            x, y = getattr(found[0], name), getattr(found[-1], name)
            cells += [f"{getattr(r, name):g}" for r in found] + [f"{y / x:.1f}" if x else "-"]
        out.add_row(label, *cells)
    return out


def processes_table(rows: list[Figures]) -> Table:
    """Every process of each run: its own peak, Pagefind's runs, the others it started."""
    out = Table(title="the run and every process it started", box=box.SIMPLE_HEAD)
    for header in (
        "repos",
        "run",
        "reports",
        "wall (s)",
        "run's own peak (MB)",
        "Pagefind runs",
        "Pagefind peak (MB)",
        "Pagefind wall (s)",
        "children CPU (s)",
        "other children",
        "all processes (MB)",
    ):
        out.add_column(header, justify="left" if header == "run" else "right")
    for r in sorted(rows, key=lambda r: (r.repos, ("first", "quiet", "changed").index(r.run))):
        out.add_row(
            f"{r.repos}",
            r.run,
            f"{r.reports}",
            f"{r.wall_s:g}",
            f"{r.own_rss_mb:g}",
            f"{r.pagefind_runs}",
            f"{r.pagefind_peak_mb:g}",
            f"{r.pagefind_wall_s:g}",
            f"{r.children_cpu_s:g}",
            f"{r.children - r.pagefind_runs}",
            f"{r.peak_rss_mb:g}",
        )
    return out


def fleet_sizes(repos: str) -> list[tuple[int, int]]:
    """`--repos 50,500` as (quiet, busy) pairs: one in ten busy."""
    sizes = []
    for n in (int(x) for x in repos.split(",")):
        busy = max(1, n // 10)
        sizes.append((n - busy, busy))
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.05, help="seconds per request")
    parser.add_argument("--concurrency", type=int, default=4, help="[run] concurrency")
    parser.add_argument("--quick", action="store_true", help="10 and 50 repositories")
    parser.add_argument(
        "--repos", default=None, help="fleet sizes, e.g. 13,100,500 (default 50,500)"
    )
    parser.add_argument("--no-site", action="store_true", help="leave the site build out")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rows: list[Figures] = []
    sizes = fleet_sizes(args.repos) if args.repos else QUICK_SIZES if args.quick else SIZES
    for quiet, busy in sizes:
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
        if not console.is_terminal:  # a file or a pipe: wide enough for the tables
            console = Console(width=170)
        console.print(table(rows))
        console.print(processes_table(rows))
        console.print(
            f"latency {args.latency:g} s per request, [run] concurrency {args.concurrency}, "
            f"PDFs off{', no site' if args.no_site else ''}; the quiet run is the next day's "
            "(a fresh rate-limit hour) with nothing changed but the deferred diffs; changed: "
            "one report edited, then `tidings site build`. Every process sampled from /proc "
            "every 20 ms; all processes = the run's own peak + its largest child's",
            markup=False,
        )
        console.print(line, markup=False)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
