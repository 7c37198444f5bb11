"""The risk rules against hand judgements of real vllm-ascend PRs (tests/data/risk_eval/).

The judgements and diff hunks are committed (CI has no clone; scripts/build_risk_eval.py
rebuilds the hunks); titles, bodies, file counts and the history around the PRs are joined from
../shared at load time, so without it these tests skip saying so (and fail under CI=true).
Precision and recall are computed over every (PR, tag) judgement of the tags a clone can decide;
the per-tag figures are printed (pytest -s, or `python benchmarks/risk.py`).
"""

from __future__ import annotations

import gzip
import json
from datetime import datetime
from pathlib import Path

import pytest

from testkit.risk_eval import (
    ASCEND,
    DATA,
    JUDGED,
    EvalDataError,
    Evaluation,
    evaluate,
    load_labels,
    load_prs,
)
from tests.shared import shared_or_skip

PRECISION = 0.90
RECALL = 0.85


NEEDS = "the risk evaluation set joins its PRs' titles, bodies and files from it"


@pytest.fixture(scope="module", autouse=True)
def shared_history() -> None:
    shared_or_skip(ASCEND, NEEDS)


@pytest.fixture(scope="module")
def whole() -> Evaluation:
    return evaluate()


def _figures(evaluation: Evaluation) -> str:
    rows = [f"{'tag':20} {'tp':>4} {'fp':>4} {'fn':>4} {'precision':>10} {'recall':>7}"]
    for tag, s in [*evaluation.per_tag.items(), ("overall", evaluation.overall)]:
        p = "-" if s.precision is None else f"{s.precision:.0%}"
        r = "-" if s.recall is None else f"{s.recall:.0%}"
        rows.append(f"{tag:20} {s.tp:4} {s.fp:4} {s.fn:4} {p:>10} {r:>7}")
    return "\n".join(rows)


def test_precision_and_recall_on_the_labelled_set(whole: Evaluation) -> None:
    held = evaluate(held_out=True)
    print(f"\nrisk rules on {whole.prs} judged PRs\n{_figures(whole)}")
    print(f"held out ({held.prs} PRs, judged before the rules ran on them)\n{_figures(held)}")
    overall = whole.overall
    assert overall.precision is not None and overall.recall is not None
    assert overall.precision >= PRECISION, _figures(whole)
    assert overall.recall >= RECALL, _figures(whole)


def test_the_set_is_broad_enough_to_mean_something(whole: Evaluation) -> None:
    prs = load_prs()
    weeks = {pr.merged_at.isocalendar()[:2] for pr in prs}
    assert len(prs) >= 60 and len(weeks) >= 8
    labels = load_labels()
    assert sum(label.held_out for label in labels.values()) >= 20
    # Every tag the set judges has cases on both sides.
    for tag in JUDGED:
        positives = sum(tag in label.expect for label in labels.values())
        assert positives >= 1 and positives < len(labels), tag
    # The evidence stays small enough to commit.
    size = sum(p.stat().st_size for p in DATA.iterdir())
    assert size < 3_000_000


def test_every_judgement_the_rules_touch_has_a_reason(whole: Evaluation) -> None:
    """Each expected tag, and each tag the rules give that the judge refused, says why: the
    set records judgements, not the rules' own output."""
    labels = load_labels()
    for number, found in whole.tags.items():
        label = labels[number]
        for tag in label.expect:
            assert label.why.get(tag) and not label.why[tag].startswith("no:"), (number, tag)
        for tag in {t.tag for t in found} - label.expect:
            assert label.why.get(tag, "").startswith("no:"), (number, tag)
        for tag, why in label.why.items():
            assert tag in JUDGED and (tag in label.expect) != why.startswith("no:"), (number, tag)


def test_reverts_name_the_pr_they_revert(whole: Evaluation) -> None:
    # A link is never wrong, and most reverts whose target the judge knows are linked.
    assert whole.reverts_wrong == []
    assert whole.reverts_named >= 6
    assert whole.reverts_linked >= whole.reverts_named // 2
    # #13290's body is GitHub's "Reverts vllm-project/vllm-ascend#12536".
    [tag] = [t for t in whole.tags[13290] if t.tag == "revert"]
    assert tag.evidence[0].numbers == {"reverts": 12536}


def test_re_lands_are_linked_to_what_they_bring_back_and_never_tagged_reverts(
    whole: Evaluation,
) -> None:
    assert whole.relands_named >= 2 and whole.relands_wrong == []
    assert whole.relands_linked == whole.relands_named
    prs = {pr.number: pr for pr in load_prs()}
    # #6475 names only the revert (#6459); the revert's own text names #6357.
    reland = prs[6475].reland
    assert reland is not None and (reland.original, reland.revert) == (6357, 6459)
    for number in (6475, 6231):
        assert "revert" not in {t.tag for t in whole.tags[number]}


def test_the_classes_of_issue_22_hold(whole: Evaluation) -> None:
    """Formatting sweeps carry no tag their formatting fired; a renamed or parametrized test
    is not lost (each class is several PRs in labels.toml; these are its plainest cases)."""
    labels = load_labels()
    sweeps = [n for n in whole.tags if n in (5912, 5978, 5996, 6023, 6176, 6177, 6604)]
    assert len(sweeps) == 7
    for number in sweeps:
        fired = {t.tag for t in whole.tags[number]}
        assert not fired & {"missing_tests", "large_change", "assert_validation"}, number
        assert "dependency_change" not in fired, number
        assert labels[number].expect == frozenset()
    # The sweep that also creates a 54-line patch is asked for its test, for that file only.
    [missing] = [t for t in whole.tags[6173] if t.tag == "missing_tests"]
    assert [e.path for e in missing.evidence[1:]] == ["vllm_ascend/patch/worker/patch_deepseek.py"]
    for number in (13921, 9763):
        assert "tests_removed" not in {t.tag for t in whole.tags[number]}, number


def test_the_evidence_is_what_a_clone_gives(whole: Evaluation) -> None:
    prs = {pr.number: pr for pr in load_prs()}
    pin = prs[14131]
    [commit] = [f for f in pin.files if f.path == ".github/vllm-main-verified.commit"]
    assert commit.patch is not None and commit.patch.startswith("@@ -1 +1 @@")
    assert pin.merged_at > datetime.fromisoformat("2026-08-21T00:00:00+08:00")
    [dep] = [t for t in whole.tags[14131] if t.tag == "dependency_change"]
    pinned = [e for e in dep.evidence if e.numbers.get("pin")]
    assert pinned and pinned[0].line == "cdc4824a21eaa986d4d1fee90a7e6465c9f706e6"


def test_the_hunks_join_the_shared_history_file_by_file(tmp_path: Path) -> None:
    """A committed file the shared record lacks (or the reverse) is an error, not a PR quietly
    judged on other evidence than the labels were made from."""
    text = gzip.decompress((DATA / "hunks.jsonl.gz").read_bytes()).decode()
    rows = [json.loads(line) for line in text.splitlines()]
    whole = sum(len(row["files"]) for row in rows)
    assert whole == sum(len(pr.files) for pr in load_prs())  # every committed file is read
    for tamper in ("extra", "missing"):
        changed = [dict(row, files=dict(row["files"])) for row in rows]
        if tamper == "extra":
            changed[0]["files"]["no/such/file.py"] = {"status": "added", "patch": None}
        else:
            changed[0]["files"].popitem()
        for name in ("labels.toml", "config.toml"):
            (tmp_path / name).write_bytes((DATA / name).read_bytes())
        lines = "".join(json.dumps(row) + "\n" for row in changed)
        (tmp_path / "hunks.jsonl.gz").write_bytes(gzip.compress(lines.encode()))
        with pytest.raises(EvalDataError, match=f"PR #{rows[0]['number']}"):
            load_prs(tmp_path)
