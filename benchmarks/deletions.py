"""Deletion benchmark: what finding deleted PRs costs against store size, beside a full listing.

    python benchmarks/deletions.py [--sizes 1000,10000,36000] [--deletions 1,5] [--seed 0]
                                   [--json]

For each store size n (PRs; 36,000 is about a year of vLLM) a store and the loopback GitHub
(testkit/servers/github/) are filled with the same n PRs, created at vLLM's pace (one every
~15 minutes on average, a few in the same second), and k of them (spread at random) are
deleted on the loopback GitHub. Then the sync's totals check runs as a sync that owes it does
(sources/github/reconcile.py with missing.py): GitHub's totals, search counts of creation ranges,
the candidates asked for by number, the deleted marked. Printed per n and k: the GraphQL
queries and points it took (GitHub's documented cost, which the loopback GitHub charges), how
many numbers were asked for, and the same for the full listing of every number that the check
used to make (queries.item_numbers, 100 a page), measured on the same data; then whether
exactly the deleted PRs were marked. The counts do not depend on the machine; times are
printed for orientation only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.seed import seed  # noqa: E402
from testkit.servers.github import FakeGitHub  # noqa: E402
from tidings.common import records as r  # noqa: E402
from tidings.sources.github.client import GitHubClient  # noqa: E402
from tidings.sources.github.context import SyncContext  # noqa: E402
from tidings.sources.github.reconcile import _list_numbers, reconcile_totals  # noqa: E402
from tidings.sources.github.summary import SyncReport  # noqa: E402
from tidings.store import Store, items  # noqa: E402

REPO = "bench/deletions"
TOKEN = "bench-token"
T0 = datetime(2025, 1, 6, tzinfo=UTC)
MEAN_GAP = 365 * 86_400 / 36_000  # seconds between two PRs: a year of vLLM is ~36,000
SIZES = (1_000, 10_000, 36_000)
DELETIONS = (1, 5)


def prs(n: int, rng: random.Random) -> list[r.Record]:
    """The repository and PRs #1..n, created at vLLM's pace; one in fifty shares the second of
    the one before it (a bot opening several at once)."""
    out: list[r.Record] = [r.RepositoryRecord(full_name=REPO)]
    at = T0
    for number in range(1, n + 1):
        if rng.random() >= 0.02:
            at += timedelta(seconds=max(1, round(rng.expovariate(1 / MEAN_GAP))))
        out.append(
            r.ItemRecord(
                number=number,
                kind="pr",
                title=f"PR {number}",
                author="alice",
                author_type="User",
                state="closed",
                draft=False,
                merged=True,
                created_at=at,
                updated_at=at,
                closed_at=at,
            )
        )
    return out


def _context(store: Store, gh: FakeGitHub, client: GitHubClient, repo_id: int) -> SyncContext:
    owner, name = REPO.split("/")
    ctx = SyncContext(store, client, owner, name, SyncReport(repository=REPO), verify=True)
    ctx.repo_id = repo_id
    return ctx


def _spent(gh: FakeGitHub, work: Any) -> dict[str, Any]:
    """Run `work()`; the GraphQL queries and points it cost, and its wall time."""
    gh.reset_log()
    points = gh.graphql_points
    started = time.perf_counter()
    result = work()
    return {
        "queries": gh.count(api="graphql"),
        "points": gh.graphql_points - points,
        "seconds": time.perf_counter() - started,
        "result": result,
    }


def measure(n: int, deletions: tuple[int, ...], seed_value: int, tmp: Path) -> list[dict[str, Any]]:
    """Each deletion count on its own store of n PRs. The listing, whose cost is one query per
    100 live PRs whatever was deleted, is measured with the first count only."""
    rng = random.Random(seed_value + n)
    records = prs(n, rng)
    rows: list[dict[str, Any]] = []
    listing: dict[str, Any] | None = None
    for k in deletions:
        store = Store.open(f"sqlite:///{tmp / f'd{n}-{k}.db'}")
        try:
            repo_id = seed(store, records)
            gone = sorted(rng.sample(range(1, n + 1), k))
            with FakeGitHub(records, token=TOKEN) as gh:
                for number in gone:
                    gh.delete_item(REPO, number)
                with GitHubClient(gh.api_url, gh.graphql_url, TOKEN) as client:
                    ctx = _context(store, gh, client, repo_id)
                    search = _spent(gh, lambda ctx=ctx: reconcile_totals(ctx))
                    if listing is None:
                        listing = _spent(gh, lambda ctx=ctx: _list_numbers(ctx, "pullRequests"))
            assert listing is not None  # measured with the first count
            with store.begin() as conn:
                live = set(items.live_numbers(conn, repo_id, "pr"))
            marked = sorted(set(range(1, n + 1)) - live)
            rows.append(
                {
                    "prs": n,
                    "deleted": k,
                    "search": {key: search[key] for key in ("queries", "points", "seconds")},
                    "listing": {key: listing[key] for key in ("queries", "points", "seconds")},
                    "found_exactly": marked == gone,
                    "notes": ctx.report.notes,
                }
            )
        finally:
            store.close()
    return rows


def run_benchmark(
    sizes: tuple[int, ...] = SIZES, deletions: tuple[int, ...] = DELETIONS, seed_value: int = 0
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tidings-deletions-") as tmp:
        rows = [row for n in sizes for row in measure(n, deletions, seed_value, Path(tmp))]
    return {
        "sizes": list(sizes),
        "deletions": list(deletions),
        "seed": seed_value,
        "rows": rows,
        "passed": all(row["found_exactly"] and not row["notes"] for row in rows),
    }


def render(results: dict[str, Any], console: Console) -> None:
    table = Table(
        title="finding deleted PRs: the totals check, against listing every number",
        box=box.SIMPLE_HEAD,
    )
    columns = ("PRs stored", "deleted", "queries", "points", "time", "listing: queries")
    for column in (*columns, "points", "time", "share"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("found", justify="center")
    for row in results["rows"]:
        search, listing = row["search"], row["listing"]
        table.add_row(
            f"{row['prs']:,}",
            str(row["deleted"]),
            str(search["queries"]),
            str(search["points"]),
            f"{search['seconds']:.2f} s",
            f"{listing['queries']:,}",
            f"{listing['points']:,}",
            f"{listing['seconds']:.2f} s",
            f"{search['queries'] / listing['queries']:.1%}",
            "yes" if row["found_exactly"] else "NO",
        )
    console.print(table)
    console.print(
        "queries and points: GraphQL, the repository totals included; share: the check's "
        "queries over the listing's. Times are the loopback GitHub's and the client's, on "
        "this machine.",
        markup=False,
    )
    for row in results["rows"]:
        for note in row["notes"]:
            console.print(f"note ({row['prs']:,} PRs, {row['deleted']} deleted): {note}")
    console.print(
        "PASS every deleted PR found, nothing else marked"
        if results["passed"]
        else "FAIL not every deleted PR was found exactly",
        markup=False,
    )


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(part.replace("_", "")) for part in text.split(",") if part)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=_ints, default=SIZES, help="PRs stored (1000,10000,36000)")
    parser.add_argument("--deletions", type=_ints, default=DELETIONS, help="PRs deleted (1,5)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = run_benchmark(args.sizes, args.deletions, args.seed)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        render(results, Console(width=max(Console().width, 110)))
    return 0 if results["passed"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
