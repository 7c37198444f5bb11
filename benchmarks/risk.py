"""Risk rules benchmark: precision and recall per tag on real PRs judged by hand.

    python benchmarks/risk.py [--json]

The labelled set is tests/data/risk_eval/ (testkit/risk_eval.py reads it): merged
vllm-project/vllm-ascend PRs with their diff hunks, joined with their titles, bodies, file lists
and line counts from ../shared/data/vllm-ascend-commits.jsonl (TIDINGS_SHARED names the folder
elsewhere), and for each a judgement of every tag made by reading the diff. The rules run on
each PR as a git sync would give it (no reviews, so no_approval and follow_up_promised are not
judged). Printed per tag:
true and false positives, misses, precision and recall, and which PRs were wrong; then the same
for the held-out PRs alone (judged before the rules ever ran on them, never used to tune them),
how many reverts the revert tag links to the PR they revert, how many re-lands are linked to
the PR they bring back and the revert they undo, and the rules' time per PR.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.risk_eval import (  # noqa: E402
    ASCEND,
    Evaluation,
    Score,
    evaluate,
    load_config,
    load_prs,
)
from tidings.facts.risk import assess_all  # noqa: E402

PRECISION_TARGET = 0.90
RECALL_TARGET = 0.85


def _score(score: Score) -> dict[str, Any]:
    return {
        "tp": score.tp,
        "fp": score.fp,
        "fn": score.fn,
        "precision": score.precision,
        "recall": score.recall,
        "false_positives": score.false,
        "misses": score.misses,
    }


def _figures(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "prs": evaluation.prs,
        "per_tag": {tag: _score(s) for tag, s in evaluation.per_tag.items()},
        "overall": _score(evaluation.overall),
        "reverts_named": evaluation.reverts_named,
        "reverts_linked": evaluation.reverts_linked,
        "reverts_linked_wrongly": evaluation.reverts_wrong,
        "relands_named": evaluation.relands_named,
        "relands_linked": evaluation.relands_linked,
        "relands_linked_wrongly": evaluation.relands_wrong,
    }


def run_benchmark(rounds: int = 20, shared: Path = ASCEND) -> dict[str, Any]:
    whole = evaluate(shared=shared)
    repo, prs = load_config(), load_prs(shared=shared)
    started = time.perf_counter()
    for _ in range(rounds):
        assess_all(prs, repo)
    per_pr = (time.perf_counter() - started) / (rounds * len(prs))
    overall = whole.overall
    return {
        "all": _figures(whole),
        "held_out": _figures(evaluate(held_out=True, shared=shared)),
        "seconds_per_pr": per_pr,
        "targets": {
            f"precision ≥ {PRECISION_TARGET:.2f}": (overall.precision or 0) >= PRECISION_TARGET,
            f"recall ≥ {RECALL_TARGET:.2f}": (overall.recall or 0) >= RECALL_TARGET,
        },
    }


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _table(title: str, figures: dict[str, Any]) -> Table:
    table = Table(title=title, box=box.SIMPLE_HEAD)
    table.add_column("tag", no_wrap=True)
    for column in ("right", "wrong", "missed", "precision", "recall"):
        table.add_column(column, justify="right")
    table.add_column("PRs wrong / missed")
    rows = [*figures["per_tag"].items(), ("overall", figures["overall"])]
    for tag, s in rows:
        wrong = " ".join(f"#{n}" for n in s["false_positives"]) or "—"
        missed = " ".join(f"#{n}" for n in s["misses"]) or "—"
        table.add_row(
            tag,
            str(s["tp"]),
            str(s["fp"]),
            str(s["fn"]),
            _pct(s["precision"]),
            _pct(s["recall"]),
            "" if tag == "overall" else f"{wrong} / {missed}",
        )
    return table


def render(results: dict[str, Any], console: Console) -> None:
    whole, held = results["all"], results["held_out"]
    console.print(_table(f"risk rules on {whole['prs']} judged vllm-ascend PRs", whole))
    console.print(_table(f"of which held out: {held['prs']} PRs", held))
    console.print(
        f"reverts whose reverted PR is known: {whole['reverts_named']}, linked by the tag: "
        f"{whole['reverts_linked']}, linked wrongly: {len(whole['reverts_linked_wrongly'])}",
        markup=False,
    )
    console.print(
        f"re-lands whose original and revert are known: {whole['relands_named']}, linked to "
        f"both: {whole['relands_linked']}, linked wrongly: {len(whole['relands_linked_wrongly'])}",
        markup=False,
    )
    console.print(f"rules: {results['seconds_per_pr'] * 1e6:.0f} µs per PR", markup=False)
    for name, ok in results["targets"].items():
        console.print(f"{'PASS' if ok else 'FAIL'} {name}", markup=False)


def main(argv: list[str] | None = None, shared: Path = ASCEND) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if not shared.exists():
        print(
            f"error: {shared} is absent: the labelled PRs are joined from it"
            " — set TIDINGS_SHARED to the shared folder",
            file=sys.stderr,
        )
        return 1
    results = run_benchmark(shared=shared)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    else:
        render(results, Console())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
