"""Sync benchmark: tidings against the naive REST plan on a vLLM-scale week, side by side.

    python benchmarks/sync.py [--latency 0.05] [--quick] [--seed 0] [--memory rss] [--json]

One run generates a synthetic busy week (testkit/generate.py: ~700 PRs, ~200 issues,
~5,000 comments and reviews, ~3,000 changed-file entries), serves it from the loopback GitHub
(testkit/servers/github/) with a fixed delay per request, and measures three scenarios for
tidings and for the fair REST plan (benchmarks/rest_baseline.py: the repository-wide
listings, then per PR its reviews and files), once without and once with `GET /pulls/{n}`:

1. full sync into an empty store;
2. incremental re-sync after 10 items changed, a push and a star (the star moves the
   repository's `updated_at`, so its GET is a paid 200 there, as on GitHub);
3. incremental re-sync after nothing changed, with the same token;
4. the same quiet re-sync with a new token, as in the GitHub Actions recipe, whose
   `GITHUB_TOKEN` is new every job: GitHub binds ETags to the token (the fake does too), so
   each stream's last page is a paid 200 there while the repository, asked by
   If-Modified-Since, is still a 304.

And for tidings alone, the full sync into another empty store with the merged PRs' diffs read
from a clone (a repository's `clone`): the week's merged PRs are squash commits of a git
repository (testkit/clone.py) whose commits are the PRs' merge commits on the loopback GitHub;
tidings fetches it (one `git fetch`, git's own requests, outside GitHub's API budget) and reads
the diffs from it, so the GitHub sync lists no PR's files.

For tidings it also prints what each scenario cost against the rate limits: REST requests
other than 304s (GitHub charges a 304 nothing) and GraphQL points.

Requests are counted by the server. Each sync runs in a fresh child process (as a CLI run
would), so the figures are the client's alone: the server, which lives in this process, neither
competes for the GIL nor shows up in the memory figure. Both tools run sequentially, one
request at a time, so request counts and wall times compare like for like.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from benchmarks.rest_baseline import run_baseline  # noqa: E402
from testkit.clone import write_origin  # noqa: E402
from testkit.generate import REPO, Change, generate_week, pick_changes, quick_week  # noqa: E402
from testkit.servers.github import FakeGitHub  # noqa: E402

TOKEN = "bench-token"
FRESH_TOKEN = "bench-next-job-token"  # the next Actions job's GITHUB_TOKEN
MemoryMode = Literal["rss", "tracemalloc"]
SCENARIOS = ("full", "changed", "unchanged", "new_token")
SCENARIO_TITLES = {
    "full": "full sync, empty store",
    "changed": "re-sync, 10 items changed",
    "unchanged": "re-sync, nothing changed",
    "new_token": "re-sync, nothing changed, new token",
    "clone": "full sync, empty store, diffs from a clone",
}
SCENARIO_SHORT = {
    "full": "full sync",
    "changed": "10 changed",
    "unchanged": "no change",
    "new_token": "new token",
}
# The REST plans, without and with GET /pulls/{n} per PR (merge data).
BASELINES = {"rest": False, "rest+pulls": True}
TOOLS = ("tidings", *BASELINES)
# Targets from the project's brief.
FULL_MAX_REQUESTS = 300
FULL_MAX_SHARE = 0.10
UNCHANGED_MAX_REQUESTS = 5
# A quiet re-sync on a new token: at most one paid request for each of the three listings.
NEW_TOKEN_MAX_PAID = 3
# A full sync of the week whose merged PRs' diffs come from a clone (#24).
CLONE_MAX_REQUESTS = 120


class BenchmarkError(RuntimeError):
    """A sync failed in its child process; the message carries the child's traceback."""


@dataclass
class Run:
    tool: str  # "tidings", "rest" or "rest+pulls"
    scenario: str
    requests: int
    not_modified: int
    elapsed: float  # wall seconds inside the child, sync call only
    cpu: float  # CPU seconds of the child during the sync (the rest is waiting on the server)
    peak_memory: int | None  # bytes: see `memory`; None where it cannot be measured
    peak_rss: int | None  # bytes: the child's peak resident set, interpreter and imports included
    memory: MemoryMode
    detail: dict[str, Any]
    rest_paid: int = 0  # REST answers other than 304: what the core rate limit is charged
    graphql_points: int = 0  # GitHub's cost of the GraphQL queries answered


# -- child processes ----------------------------------------------------------------------


def _rss() -> int | None:
    """This process's resident set size in bytes (Linux), or None where /proc is missing."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class _RssSampler(threading.Thread):
    """Tracks the peak RSS while the sync runs; reading /proc every 5 ms costs next to nothing."""

    def __init__(self, interval: float = 0.005) -> None:
        super().__init__(daemon=True)
        self.interval = interval
        self.start_rss = _rss() or 0
        self.peak = self.start_rss
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.interval):
            self.peak = max(self.peak, _rss() or 0)

    def finish(self) -> int:
        self._stop_event.set()
        self.join()
        self.peak = max(self.peak, _rss() or 0)
        return self.peak - self.start_rss


def _measure(mode: MemoryMode, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run `work` and return its result with its wall and CPU time and memory, measured in
    this (child) process: `rss` = growth of the resident set over its value at the start,
    sampled; `tracemalloc` = peak of the Python heap (slows allocation-heavy code)."""
    # ru_maxrss is useless here: a spawned child inherits the high-water mark of the parent
    # it was forked from (the server, holding the whole week), so RSS is sampled from /proc.
    sampler = _RssSampler() if _rss() is not None else None
    if sampler is not None:
        sampler.start()
    if mode == "tracemalloc":
        tracemalloc.start()
    started, cpu_started = time.perf_counter(), time.process_time()
    result = work()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    growth = sampler.finish() if sampler is not None else None
    if mode == "tracemalloc":
        peak: int | None = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    else:
        peak = growth
    return {
        "result": result,
        "elapsed": elapsed,
        "cpu": cpu,
        "peak": peak,
        "peak_rss": sampler.peak if sampler is not None else None,
    }


def _in_child(work: Callable[..., dict[str, Any]], *args: Any) -> dict[str, Any]:
    """Run `work(*args)` in the child; an exception comes back as its formatted traceback
    (not every exception pickles, and a broken pool would hide the cause)."""
    try:
        return work(*args)
    except BaseException:
        return {"error": traceback.format_exc()}


def _tidings_child(
    api_url: str,
    graphql_url: str,
    db_url: str,
    mode: MemoryMode,
    patch_days: int,
    token: str,
    clone: str | None = None,
) -> dict[str, Any]:
    import sqlalchemy as sa

    from tidings.common.config import GitHubConfig
    from tidings.jobs.runner import read_clone
    from tidings.sources.github.sync import sync_repository
    from tidings.store import Store

    github = GitHubConfig(api_url=api_url, graphql_url=graphql_url, patch_days=patch_days)
    store = Store.open(db_url)
    statements = [0]  # SQL statements sent: each a round trip on a remote PostgreSQL

    @sa.event.listens_for(store.engine, "before_cursor_execute")
    def count(*_args: Any) -> None:
        statements[0] += 1

    def work() -> dict[str, Any]:
        started = time.perf_counter()
        if clone:  # as `tidings run` does for a repository with `clone`
            read_clone(store, REPO, Path(clone), None)
        git_s = time.perf_counter() - started
        before = statements[0]
        done = sync_repository(store, REPO, github=github, token=token).to_dict()
        done["sql_statements"] = statements[0] - before
        return {**done, "git_s": round(git_s, 2)} if clone else done

    try:
        return _measure(mode, work)
    finally:
        store.engine.dispose()


def _baseline_child(
    api_url: str, since: str | None, pulls: bool, mode: MemoryMode, token: str
) -> dict[str, Any]:
    start = datetime.fromisoformat(since) if since else None
    return _measure(
        mode,
        lambda: run_baseline(api_url, REPO, token, since=start, pull_details=pulls).to_dict(),
    )


# -- the benchmark ------------------------------------------------------------------------


def _apply(server: FakeGitHub, change: Change) -> None:
    if change.comment is not None:
        server.add_comment(
            REPO,
            change.number,
            change.comment,
            author=change.author,
            author_association="CONTRIBUTOR",
        )
    if change.fields:
        server.update_item(REPO, change.number, **change.fields)


def run_benchmark(
    *,
    latency: float = 0.05,
    quick: bool = False,
    seed: int = 0,
    memory: MemoryMode = "rss",
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run every scenario for both tools; return the results as a JSON-ready dict."""
    say = progress or (lambda _msg: None)
    week = quick_week if quick else generate_week
    records = week(seed)
    counts: dict[str, int] = {}
    for record in records:
        kind = record.type  # type: ignore[attr-defined]
        counts[kind] = counts.get(kind, 0) + 1
    runs: list[Run] = []
    notes: dict[str, str] = {}  # check -> what is wrong ("" = passed)
    # The generated week lies in the past; the window that fetches merged PRs' patches
    # (`github.patch_days`) reaches back to it, as it covers the last week of a live repository.
    merges = [x.merged_at for x in records if getattr(x, "merged_at", None) is not None]
    patch_days = (datetime.now(UTC) - min(merges)).days + 2 if merges else 0
    ctx = get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="tidings-bench-") as tmp:
        # The week's merged PRs as commits of a repository; its clone is tidings' `clone`.
        origin, clone = Path(tmp) / "origin.git", Path(tmp) / "clone.git"
        records = write_origin(records, origin)
        subprocess.run(["git", "clone", "-q", "--bare", str(origin), str(clone)], check=True)
        with FakeGitHub(records, token=TOKEN, latency=latency) as server:
            runs, notes, clone_run, changes = _scenarios(
                server, records, Path(tmp), clone, memory, patch_days, ctx, say, seed
            )
    results = _summarise(runs, notes, counts, latency=latency, quick=quick, seed=seed)
    results["changes"] = [{"number": c.number, "kind": c.kind, "action": c.action} for c in changes]
    results["clone"] = _clone_summary(clone_run)
    results["targets"][f"full sync, diffs from a clone, <= {CLONE_MAX_REQUESTS} requests"] = (
        results["clone"]["requests"] <= CLONE_MAX_REQUESTS
        and results["clone"]["patch_requests"] == 0
    )
    results["passed"] = results["passed"] and all(results["targets"].values())
    return results


def _scenarios(
    server: FakeGitHub,
    records: list[Any],
    tmp: Path,
    clone: Path,
    memory: MemoryMode,
    patch_days: int,
    ctx: Any,
    say: Callable[[str], None],
    seed: int,
) -> tuple[list[Run], dict[str, str], Run, list[Change]]:
    """Every scenario against `server`: the runs, the store checks, the clone's run and the
    changes made between the first two."""
    runs: list[Run] = []
    notes: dict[str, str] = {}  # check -> what is wrong ("" = passed)
    server.extra_tokens.add(FRESH_TOKEN)
    db_url = f"sqlite:///{tmp / 'bench.db'}"
    # Each REST plan's `since` is the (fake) clock when its previous run started.
    baseline_since: dict[str, str | None] = dict.fromkeys(BASELINES)

    def child(
        tool: str,
        scenario: str,
        token: str = TOKEN,
        db: str | None = None,
        clone: Path | None = None,
    ) -> Run:
        server.reset_log()
        points = server.graphql_points
        started_at = server.clock.isoformat()
        say(f"{SCENARIO_TITLES[scenario]}: {tool}")
        with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
            if tool == "tidings":
                args: tuple[Any, ...] = (
                    server.api_url,
                    server.graphql_url,
                    db or db_url,
                    memory,
                    patch_days,
                    token,
                    str(clone) if clone else None,
                )
                future = pool.submit(_in_child, _tidings_child, *args)
            else:
                args = (server.api_url, baseline_since[tool], BASELINES[tool], memory, token)
                future = pool.submit(_in_child, _baseline_child, *args)
            out = future.result()
        if "error" in out:
            raise BenchmarkError(f"{tool}, {SCENARIO_TITLES[scenario]}:\n{out['error']}")
        detail = out["result"]
        statuses = [
            q.status for q in server.requests if q.api == "rest" and q.path == f"/repos/{REPO}"
        ]
        detail["repository_status"] = statuses[0] if statuses else None
        if tool in BASELINES:
            baseline_since[tool] = started_at
        return Run(
            tool=tool,
            scenario=scenario,
            requests=server.count(),
            not_modified=server.count(status=304),
            elapsed=out["elapsed"],
            cpu=out["cpu"],
            peak_memory=out["peak"],
            peak_rss=out["peak_rss"],
            memory=memory,
            detail=detail,
            rest_paid=server.count(api="rest", not_modified=False),
            graphql_points=server.graphql_points - points,
        )

    runs.append(child("tidings", "full"))
    notes["store equals the served week after the full sync"] = _mismatches(db_url, server)
    runs.extend(child(tool, "full") for tool in BASELINES)

    server.advance(3600)
    changes = pick_changes(records, 10, seed)
    for change in changes:
        _apply(server, change)
    server.push(REPO)  # a busy repository is pushed to and starred between two syncs
    server.star(REPO)
    server.advance(60)
    runs.append(child("tidings", "changed"))
    notes["store equals the served week after the changes"] = _mismatches(db_url, server)
    runs.extend(child(tool, "changed") for tool in BASELINES)

    server.advance(3600)
    runs.append(child("tidings", "unchanged"))
    runs.extend(child(tool, "unchanged") for tool in BASELINES)

    server.advance(3600)
    runs.append(child("tidings", "new_token", FRESH_TOKEN))
    runs.extend(child(tool, "new_token", FRESH_TOKEN) for tool in BASELINES)

    clone_db = f"sqlite:///{tmp / 'clone.db'}"
    clone_run = child("tidings", "clone", db=clone_db, clone=clone)
    notes["every merged PR's diff read from the clone"] = _clone_diffs(clone_db)
    return runs, notes, clone_run, changes


def _clone_diffs(db_url: str) -> str:
    """ "" when every merged PR in the store is marked with its merge commit's diff and has a
    file with hunks; else what is not."""
    import sqlalchemy as sa

    from tidings.store import Store, schema

    it, pf = schema.items, schema.pr_files
    store = Store.open(db_url)
    try:
        with store.begin() as conn:
            merged = conn.execute(
                sa.select(it.c.number, it.c.patch_sha == it.c.merge_commit_sha).where(
                    it.c.merged_at.is_not(None)
                )
            ).all()
            with_hunks = set(
                conn.execute(
                    sa.select(pf.c.number).where(pf.c.patch.is_not(None)).distinct()
                ).scalars()
            )
    finally:
        store.engine.dispose()
    unmarked = [n for n, marked in merged if not marked]
    bare = [n for n, _ in merged if n not in with_hunks]
    if not merged or unmarked or bare:
        return f"{len(merged)} merged PRs; not marked: {unmarked[:5]}; no hunks: {bare[:5]}"
    return ""


def _clone_summary(run: Run) -> dict[str, Any]:
    return {
        "requests": run.requests,
        "rest_paid": run.rest_paid,
        "graphql_points": run.graphql_points,
        "patch_requests": int(run.detail.get("patch_requests", 0)),
        "git_fetches": 1,
        "git_s": run.detail.get("git_s"),
        "elapsed": run.elapsed,
        "cpu": run.cpu,
    }


# Sync bookkeeping the store keeps and GitHub does not serve as records; and the evidence
# read from PR details (review threads' state, PR commits), which the fake serves inside them
# rather than as records of their own (tests/sources/github/test_github_evidence.py checks it).
_BOOKKEEPING = ("detail_updated_at", "checked_updated_at", "patch_sha")
_EVIDENCE = ("review_thread", "pr_commit")


def _mismatches(db_url: str, server: FakeGitHub) -> str:
    """How the store differs from what the server now serves: "" when they are equal, else a
    summary such as `5 records differ (item.body)`."""
    from tidings.store import Store
    from tidings.store.rows import read_records

    store = Store.open(db_url)
    try:
        with store.engine.connect() as conn:
            repo_id = store.require_repo(conn, REPO)
            got = {_key(r): _plain(r) for r in read_records(conn, repo_id)}
    finally:
        store.engine.dispose()
    want = {_key(r): _plain(r) for r in server.records(REPO)}
    got = {k: v for k, v in got.items() if k[0] not in ("sync_state", *_EVIDENCE)}
    missing, extra = len(want.keys() - got.keys()), len(got.keys() - want.keys())
    fields: set[str] = set()
    differ = 0
    for key in want.keys() & got.keys():
        if want[key] != got[key]:
            differ += 1
            fields |= {f"{key[0]}.{f}" for f in want[key] if want[key][f] != got[key].get(f)}
    parts = []
    if missing:
        parts.append(f"{missing} records missing")
    if extra:
        parts.append(f"{extra} extra records")
    if differ:
        parts.append(f"{differ} records differ ({', '.join(sorted(fields))})")
    return "; ".join(parts)


def _key(record: Any) -> tuple[Any, ...]:
    data = record.model_dump()
    return (
        data["type"],
        data.get("number"),
        data.get("id"),
        data.get("path"),
        data.get("issue_repo"),
        data.get("issue_number"),
        data.get("stream"),
    )


def _plain(record: Any) -> dict[str, Any]:
    data: dict[str, Any] = record.model_dump()
    for key in _BOOKKEEPING:
        data.pop(key, None)
    return data


def _summarise(
    runs: list[Run],
    notes: dict[str, str],
    counts: dict[str, int],
    *,
    latency: float,
    quick: bool,
    seed: int,
) -> dict[str, Any]:
    by = {(r.tool, r.scenario): r for r in runs}
    # tidings against each REST plan: ratios[plan][scenario].
    ratios: dict[str, dict[str, dict[str, float | None]]] = {}
    for plan in BASELINES:
        ratios[plan] = {}
        for scenario in SCENARIOS:
            ours, base = by[("tidings", scenario)], by[(plan, scenario)]
            ours_paid = ours.requests - ours.not_modified
            base_paid = base.requests - base.not_modified
            ratios[plan][scenario] = {
                "requests": ours.requests / base.requests if base.requests else None,
                "non_304_requests": ours_paid / base_paid if base_paid else None,
                "time": ours.elapsed / base.elapsed if base.elapsed else None,
            }
    # The cheaper REST plan is the one to beat.
    full, base_full = by[("tidings", "full")], by[("rest", "full")]
    unchanged = by[("tidings", "unchanged")]
    new_token = by[("tidings", "new_token")]
    # The merged PRs' patches (one file listing per merged PR: patches.py) are evidence the
    # plan's targets predate; they are counted in every figure and shown apart here.
    patches = {
        r.scenario: int(r.detail.get("patch_requests", 0)) for r in runs if r.tool == "tidings"
    }
    plan = full.requests - patches.get("full", 0)
    targets = {
        f"full sync <= {FULL_MAX_REQUESTS} requests, patches aside": plan <= FULL_MAX_REQUESTS,
        "full sync <= 1/10 of the REST plan's requests, patches aside": plan
        <= FULL_MAX_SHARE * base_full.requests,
        "full sync with patches below the REST plan's requests": full.requests < base_full.requests,
        f"no-change re-sync <= {UNCHANGED_MAX_REQUESTS} requests": unchanged.requests
        <= UNCHANGED_MAX_REQUESTS,
        "no-change re-sync all 304": unchanged.requests > 0
        and unchanged.not_modified == unchanged.requests,
        f"no-change re-sync on a new token <= {UNCHANGED_MAX_REQUESTS} requests": new_token.requests
        <= UNCHANGED_MAX_REQUESTS,
        f"no-change re-sync on a new token <= {NEW_TOKEN_MAX_PAID} paid, no GraphQL": (
            new_token.rest_paid <= NEW_TOKEN_MAX_PAID and new_token.graphql_points == 0
        ),
    }
    return {
        "repository": REPO,
        "latency": latency,
        "quick": quick,
        "seed": seed,
        "records": counts,
        # tidings' GET of the repository itself per scenario (200: paid; 304: free).
        "repository_call": {
            r.scenario: r.detail.get("repository_status") for r in runs if r.tool == "tidings"
        },
        # tidings' cost per scenario against GitHub's two rate limits: REST requests other than
        # 304s (of the core limit: 5,000 an hour for a user, 1,000 for Actions' GITHUB_TOKEN)
        # and GraphQL points.
        "rate_limit": {
            r.scenario: {"rest": r.rest_paid, "graphql_points": r.graphql_points}
            for r in runs
            if r.tool == "tidings"
        },
        # Per scenario: file listings asked for merged PRs' patches, and how many PRs.
        "patches": {
            r.scenario: {
                "requests": patches[r.scenario],
                "prs": int(r.detail.get("patched_prs", 0)),
                "files_without_patch": int(r.detail.get("files_without_patch", 0)),
            }
            for r in runs
            if r.tool == "tidings"
        },
        "memory": runs[0].memory if runs else "rss",
        "runs": [asdict(r) for r in runs],
        "ratios": ratios,
        "targets": targets,
        "checks": {name: not note for name, note in notes.items()},
        "check_notes": {name: note for name, note in notes.items() if note},
        "passed": all(targets.values()) and not any(notes.values()),
    }


# -- output -------------------------------------------------------------------------------


def _mb(value: int | None) -> str:
    return "n/a" if value is None else f"{value / 2**20:,.1f} MB"


def render(results: dict[str, Any], console: Console) -> None:
    memory = results["memory"]
    memory_title = "heap" if memory == "tracemalloc" else "memory"
    counts = results["records"]
    week = (
        f"{counts.get('item', 0)} items, "
        f"{counts.get('comment', 0) + counts.get('review', 0) + counts.get('review_comment', 0)}"
        f" comments/reviews, {counts.get('pr_file', 0)} PR files"
    )
    table = Table(
        title=f"Sync benchmark: {results['repository']} ({week}), "
        f"{results['latency'] * 1000:.0f} ms per request" + (", quick" if results["quick"] else ""),
        caption="CPU: the syncing process's own CPU time; wall time also includes the "
        "latency and the loopback server's work (e.g. executing GraphQL). "
        "Both tools sequential (one request at a time), each run in a fresh process. "
        + (
            "Heap: the Python heap's peak during the sync (tracemalloc). "
            if memory == "tracemalloc"
            else "Memory: the process's peak resident set during the sync less its size at "
            "the start (sampled every 5 ms). "
        )
        + "rest: the fair REST plan (issues, conversation and review comments listed "
        "repository-wide, then per PR its reviews and files; no ETags); rest+pulls: the same "
        "with GET /pulls/{n} per PR for merge data.",
    )
    table.box = box.SIMPLE_HEAD
    table.pad_edge = False
    table.add_column("scenario", min_width=10)
    table.add_column("tool", no_wrap=True)
    table.add_column("requests", justify="right", no_wrap=True)
    table.add_column("304", justify="right", no_wrap=True)
    table.add_column("non-304", justify="right", no_wrap=True)
    table.add_column("wall", justify="right", no_wrap=True)
    table.add_column("CPU", justify="right", no_wrap=True)
    table.add_column(memory_title, justify="right", no_wrap=True)
    by = {(r["tool"], r["scenario"]): r for r in results["runs"]}
    for scenario in SCENARIOS:
        for tool in TOOLS:
            run = by[(tool, scenario)]
            table.add_row(
                SCENARIO_SHORT[scenario] if tool == "tidings" else "",
                tool,
                f"{run['requests']:,}",
                f"{run['not_modified']:,}",
                f"{run['requests'] - run['not_modified']:,}",
                f"{run['elapsed']:.2f} s",
                f"{run['cpu']:.2f} s",
                _mb(run["peak_memory"]),
                end_section=tool == TOOLS[-1],
            )
    console.print(table)
    ratio_table = Table(title="tidings / each REST plan", box=box.SIMPLE_HEAD)
    ratio_table.add_column("scenario")
    ratio_table.add_column("against")
    ratio_table.add_column("requests", justify="right")
    ratio_table.add_column("non-304", justify="right")
    ratio_table.add_column("wall time", justify="right")
    for scenario in SCENARIOS:
        for plan, by_scenario in results["ratios"].items():
            ratio = by_scenario[scenario]
            ratio_table.add_row(
                SCENARIO_TITLES[scenario] if plan == next(iter(results["ratios"])) else "",
                plan,
                *(
                    "n/a" if ratio.get(key) is None else f"{ratio[key]:.3f}"
                    for key in ("requests", "non_304_requests", "time")
                ),
            )
    console.print(ratio_table)
    calls = results.get("repository_call") or {}
    if calls:
        console.print(
            "tidings' GET /repos/{owner}/{name}: "
            + ", ".join(f"{SCENARIO_SHORT[s]} {calls.get(s)}" for s in SCENARIOS)
            + " (asked by If-Modified-Since: 200, paid, once a star moved its updated_at)",
            highlight=False,
            markup=False,
        )
    costs = results.get("rate_limit") or {}
    if costs:
        by_run = {(r["tool"], r["scenario"]): r for r in results["runs"]}
        console.print(
            "tidings against the rate limits (REST requests other than 304s; GraphQL points): "
            + ", ".join(
                f"{SCENARIO_SHORT[s]} {by_run[('tidings', s)]['requests']} requests, "
                f"{c['rest']} REST + {c['graphql_points']} GraphQL"
                for s, c in costs.items()
            ),
            highlight=False,
            markup=False,
        )
    patches = results.get("patches") or {}
    if patches:
        console.print(
            "tidings' requests include the merged PRs' patches (GET /pulls/{n}/files): "
            + ", ".join(
                f"{SCENARIO_SHORT[s]} {p['requests']} for {p['prs']} PRs"
                for s, p in patches.items()
            ),
            highlight=False,
            markup=False,
        )
    by_run = {(r["tool"], r["scenario"]): r for r in results["runs"]}
    full = by_run.get(("tidings", "full"))
    if full and "sql_statements" in full["detail"]:
        prs = full["detail"].get("pr_details", 0)
        sql = full["detail"]["sql_statements"]
        console.print(
            f"tidings' full sync sent {sql:,} SQL statements to the store"
            + (f", {sql / prs:.1f} per PR read in detail ({prs})" if prs else ""),
            highlight=False,
        )
    clone = results.get("clone")
    if clone:
        console.print(
            f"tidings, {SCENARIO_TITLES['clone']}: {clone['requests']} requests "
            f"({clone['rest_paid']} REST + {clone['graphql_points']} GraphQL points, "
            f"{clone['patch_requests']} for patches), {clone['elapsed']:.2f} s; beside them "
            f"the clone's own {clone['git_fetches']} git fetch and {clone['git_s']:.2f} s "
            "reading it",
            highlight=False,
            markup=False,
        )
    notes = results.get("check_notes", {})
    for name, ok in {**results["targets"], **results["checks"]}.items():
        mark = "[green]PASS[/green]" if ok else "[red]FAIL[/red]"
        note = f": {notes[name]}" if name in notes else ""
        console.print(f"{mark} {name}{note}", highlight=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--latency", type=float, default=0.05, help="seconds added to every request (0.05)"
    )
    parser.add_argument("--quick", action="store_true", help="a fifth of the week, for smoke runs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--memory",
        choices=("rss", "tracemalloc"),
        default="rss",
        help="rss: growth of the sync process's resident set, sampled from /proc every 5 ms "
        "(Linux; next to no overhead; default); tracemalloc: peak Python heap (slows the "
        "sync, so its times are not comparable)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    console = Console(stderr=args.json)
    try:
        results = _run(args, console)
    except BenchmarkError as exc:
        console.print(f"[red]benchmark failed:[/red] {exc}", highlight=False)
        return 2
    if args.json:
        print(json.dumps(results, indent=2, default=str))
    else:
        render(results, console)
    return 0 if results["passed"] else 1


def _run(args: argparse.Namespace, console: Console) -> dict[str, Any]:
    # Plain progress lines, not a live spinner: a refresh thread in this process would compete
    # for the GIL with the server threads and slow every answer.
    return run_benchmark(
        latency=args.latency,
        quick=args.quick,
        seed=args.seed,
        memory=args.memory,
        progress=lambda msg: console.print(f"[dim]running: {msg}[/dim]", highlight=False),
    )


if __name__ == "__main__":
    raise SystemExit(main())
