"""The guard held to its measured standard on a capable model's answers (../shared/data/
model-eval): it keeps the true sentences and catches the planted falsehoods.

testkit/model_eval.py runs tidings' own guard (what the analyst calls) over every recorded
prompt and answer; benchmarks/guard.py prints the same figures.
"""

from __future__ import annotations

import pytest

from testkit.model_eval import EVAL, HARD_FLOOR, KEPT_FLOOR, PLAIN, Report, evaluate
from tests.shared import shared_or_skip

NEEDS = "the guard's floors are measured on the shared model-eval set"


@pytest.fixture(scope="module")
def report() -> Report:
    shared_or_skip(EVAL / "planted.jsonl", NEEDS)
    return evaluate()


def test_the_guard_keeps_the_true_sentences(report: Report) -> None:
    shown = "\n".join(f"{case}: {v.objection()}" for case, v in report.rejected)
    assert report.sentences > 500
    assert report.kept >= KEPT_FLOOR, shown


@pytest.mark.parametrize(
    ("sentence_part", "objection_part"),
    [
        # slash-joined names whose parts the data holds
        ("nightly/weekly", "nightly/weekly"),
        ("P/D", "P/D"),
        ("cos/sin", "cos/sin"),
        ("DSA/SFA", "DSA/SFA"),
        ("A2/A3/A5/310P", "A2/A3"),
        ("w13/w2", "w13/w2"),
        # a figure a PR card verified, cited in a section
        ("+358/-1057", "358"),
        ("+316/-667", "316"),
        ("1205 行", "1205"),
        ("100 行", "100 files"),  # "100 lines", not "100 files"
        ("5.1.1.4", "address"),  # a section number
        ("#12392", "#12392"),  # a PR of the same batch
        ("U+FEFF", "quote"),  # a quote with an invisible character
        ("24 GB", "24"),  # an attributed figure from a reporter's words
        ("0.95", "0.95"),
        ("限为 32", "copies"),  # a paraphrase, not a copy
    ],
)
def test_no_true_sentence_of_the_known_classes_is_rejected(
    report: Report, sentence_part: str, objection_part: str
) -> None:
    rejected = [
        v
        for _, v in report.rejected
        if sentence_part in v.sentence and any(objection_part in p for p in v.problems)
    ]
    assert not rejected, rejected[0].objection()


@pytest.mark.parametrize("category", PLAIN)
def test_every_plain_falsehood_is_caught(report: Report, category: str) -> None:
    missed = [r["planted"] for r in report.missed if r["category"] == category]
    assert report.planted[category], f"no planted {category} in the set"
    assert not missed, missed


def test_most_hard_falsehoods_are_caught(report: Report) -> None:
    assert report.caught_hard() >= HARD_FLOOR
    assert report.caught("numbers_swapped_meaning") == 1.0
