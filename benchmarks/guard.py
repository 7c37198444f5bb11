"""The guard benchmark: what it keeps of a capable model's true answers, and what it catches
of planted falsehoods.

    python benchmarks/guard.py [--json] [--list]

Reads ../shared/data/model-eval (TIDINGS_SHARED names the folder elsewhere): the prompts
tidings sent for the vllm-ascend 2026-W33 weekly and the demo's 2026-03-04 daily, a capable
model's first answer to each (every sentence judged true by reading the prompt's data), and
277 copies with one sentence made false in a labelled way. The guard is tidings' own
(`tidings.analysis.objections.answer_verdicts`, what the analyst calls), built from each
prompt's data. Printed: the share of true sentences kept, and per category the planted
falsehoods caught, against the floors tests/analysis/test_guard_eval.py holds. `--list` adds
every true sentence rejected (with the objection) and every falsehood missed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "src", ROOT):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from rich import box  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from testkit.model_eval import HARD_FLOOR, KEPT_FLOOR, PLAIN, evaluate  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--list", action="store_true", help="list rejections and misses")
    args = parser.parse_args(argv)
    report = evaluate()
    figures = {
        "sentences": report.sentences,
        "rejected": len(report.rejected),
        "kept": round(report.kept, 4),
        "caught": {c: [sum(found), len(found)] for c, found in sorted(report.planted.items())},
        "caught_hard": round(report.caught_hard(), 4),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    console = Console()
    table = Table(box=box.SIMPLE_HEAD, title="The guard on a capable model's answers")
    for column in ("set", "kind", "result", "share", "floor"):
        table.add_column(column, justify="right" if column in ("result", "share") else "left")
    table.add_row(
        "true sentences",
        "kept",
        f"{report.sentences - len(report.rejected)} / {report.sentences}",
        f"{report.kept:.1%}",
        f"{KEPT_FLOOR:.0%}",
    )
    for category, found in sorted(report.planted.items()):
        hard = report.hard.get(category)
        table.add_row(
            "planted" + (" (hard)" if hard else ""),
            category,
            f"{sum(found)} / {len(found)}",
            f"{report.caught(category):.0%}",
            "100%" if category in PLAIN else "",
        )
    table.add_row(
        "planted (hard)", "all hard", "", f"{report.caught_hard():.0%}", f"{HARD_FLOOR:.0%}"
    )
    console.print(table)
    if args.list:
        for case, verdict in report.rejected:
            console.print(f"[red]rejected[/] {case} {verdict.objection()}", highlight=False)
        for row in report.missed:
            console.print(f"[yellow]missed[/] {row['category']}: {row['planted']}", highlight=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
