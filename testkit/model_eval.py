"""The guard measured on a capable model's answers (../shared/data/model-eval).

The set holds the prompts tidings sent for two reports, the answers a capable model wrote to
each (every sentence judged true by reading the prompt's data), and planted copies with one
sentence made false in a labelled way. `evaluate()` runs tidings' own guard
(`tidings.analysis.objections.answer_verdicts`, what the analyst calls) over both:

- kept: the share of the first answers' sentences the guard lets through (all are true);
- caught: per category, the share of planted falsehoods the guard objects to.

benchmarks/guard.py prints the figures; tests/analysis/test_guard_eval.py holds the floors.
The set is read from ../shared at run time and never copied into the repository.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from testkit.shared import shared_dir
from tidings.analysis.objections import Verdict, answer_verdicts

EVAL = shared_dir() / "data" / "model-eval"
FIRST = ("vllm-ascend-2026-W33-zh.jsonl", "demo-2026-03-04-zh.jsonl")
PLANTED = "planted.jsonl"
KEPT_FLOOR = 0.98  # of the true sentences, kept
HARD_FLOOR = 0.70  # of the hard falsehoods (all of their kinds together), caught
# Categories a lexical check can see: every planted case must be caught.
PLAIN = (
    "invented_ref",
    "invented_login",
    "number_not_in_data",
    "wrong_path",
    "command_or_url",
    "instruction",
    "wrong_role",
    "summary_of_another_item",
)


def load(name: str, folder: Path = EVAL) -> list[dict[str, Any]]:
    with (folder / name).open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def data_block(request: dict[str, Any]) -> dict[str, Any]:
    """The JSON inside the prompt's <data>…</data> (the last user message's)."""
    content = next(m for m in request["messages"] if m["role"] == "user")["content"]
    inner = content.split("<data>", 1)[1].rsplit("</data>", 1)[0]
    body: dict[str, Any] = json.loads(inner)
    return body


@dataclass
class Report:
    sentences: int = 0
    rejected: list[tuple[str, Verdict]] = field(default_factory=list)  # (case, verdict)
    planted: dict[str, list[bool]] = field(default_factory=lambda: defaultdict(list))
    missed: list[dict[str, Any]] = field(default_factory=list)
    hard: dict[str, bool] = field(default_factory=dict)

    @property
    def kept(self) -> float:
        return 1 - len(self.rejected) / self.sentences if self.sentences else 1.0

    def caught(self, category: str) -> float:
        found = self.planted.get(category, [])
        return sum(found) / len(found) if found else 1.0

    def caught_hard(self) -> float:
        found = [x for c, xs in self.planted.items() if self.hard.get(c) for x in xs]
        return sum(found) / len(found) if found else 1.0


def evaluate(folder: Path = EVAL) -> Report:
    report = Report()
    cases: dict[str, dict[str, Any]] = {}
    for name in FIRST:
        for row in load(name, folder):
            body = data_block(row["request"])
            cases[row["id"]] = row | {"body": body, "memo": {}}
            verdicts = answer_verdicts(
                row["task"], body, row["answer"], memo=cases[row["id"]]["memo"]
            )
            cases[row["id"]]["first"] = {(v.where, v.sentence) for v in verdicts}
            report.sentences += len(verdicts)
            report.rejected += [(row["id"], v) for v in verdicts if v.problems]
    for row in load(PLANTED, folder):
        case = cases[row["case"]]
        before = case["first"]
        after = answer_verdicts(case["task"], case["body"], row["answer"], memo=case["memo"])
        changed = [v for v in after if (v.where, v.sentence) not in before]
        caught = any(v.problems for v in changed)
        report.planted[row["category"]].append(caught)
        report.hard[row["category"]] = bool(row["hard"])
        if not caught:
            report.missed.append(row)
    return report
