"""The risk rules' labelled evaluation set: real vllm-ascend PRs, judged by hand.

tests/data/risk_eval/ holds the evidence (prs.jsonl.gz: each PR's title, body and files with
their counts and diff hunks, as scripts/build_risk_eval.py extracted them from a clone), the
PRs merged around them (history.jsonl.gz, for linking reverts the way the store does), the
repository config (config.toml) and the judgements (labels.toml; README.md says what each tag
means there). `evaluate` runs the rules on every PR and scores each judged tag; the test
(tests/facts/test_risk_eval.py) and the benchmark (benchmarks/risk.py) print the same figures.

no_approval and follow_up_promised read reviews and review threads, which a clone does not
hold: they are not judged here.
"""

from __future__ import annotations

import gzip
import json
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tidings.config import RepoConfig, parse_config
from tidings.facts.risk import RISK_TAGS, MergedPR, PRFile, RiskTag, assess, link_reverts

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "risk_eval"
REPO = "vllm-project/vllm-ascend"
# Tags a clone's evidence can decide; the other two need GitHub's reviews.
JUDGED: tuple[str, ...] = tuple(
    t for t in RISK_TAGS if t not in ("no_approval", "follow_up_promised")
)


@dataclass(frozen=True)
class Label:
    number: int
    expect: frozenset[str]
    why: dict[str, str]
    reverts: int | None
    held_out: bool  # judged before the rules were run on it, never used to shape them


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list[int] = field(default_factory=list)  # PRs the rule should have tagged
    false: list[int] = field(default_factory=list)  # PRs it tagged wrongly

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


@dataclass
class Evaluation:
    prs: int
    per_tag: dict[str, Score]
    overall: Score
    # Reverts whose reverted PR the labels name: how many the tag links, and how many wrongly.
    reverts_named: int
    reverts_linked: int
    reverts_wrong: list[int]
    tags: dict[int, list[RiskTag]]


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


def load_config(data: Path = DATA) -> RepoConfig:
    return parse_config((data / "config.toml").read_text(encoding="utf-8")).repo(REPO)


def load_labels(data: Path = DATA) -> dict[int, Label]:
    raw = tomllib.loads((data / "labels.toml").read_text(encoding="utf-8"))
    labels: dict[int, Label] = {}
    for entry in raw["pr"]:
        labels[entry["number"]] = Label(
            number=entry["number"],
            expect=frozenset(entry["expect"]),
            why=dict(entry.get("why", {})),
            reverts=entry.get("reverts"),
            held_out=entry.get("held_out", False),
        )
    return labels


def load_prs(data: Path = DATA) -> list[MergedPR]:
    """The labelled PRs as the store would give them from a clone, reverts linked."""
    prs = [
        MergedPR(
            number=r["number"],
            title=r["title"],
            body=r["body"],
            author=None,
            labels=(),
            merged_at=datetime.fromisoformat(r["merged_at"]),
            source="git",
            reviews_known=False,
            approvers=(),
            reviews=0,
            unresolved_threads=None,
            files=tuple(
                PRFile(
                    path=f["path"],
                    previous_path=f["previous_path"],
                    status=f["status"],
                    additions=f["additions"],
                    deletions=f["deletions"],
                    patch=f["patch"],
                )
                for f in r["files"]
            ),
        )
        for r in _lines(data / "prs.jsonl.gz")
    ]
    history = list(_lines(data / "history.jsonl.gz"))

    def by_sha(sha: str) -> int | None:
        found = [h["number"] for h in history if h["sha"].startswith(sha)]
        return found[0] if len(found) == 1 else None

    def by_title(title: str, before: datetime) -> int | None:
        earlier = [
            h
            for h in history
            if h["title"] == title and datetime.fromisoformat(h["merged_at"]) < before
        ]
        return max(earlier, key=lambda h: h["merged_at"])["number"] if earlier else None

    return link_reverts(prs, by_sha, by_title)


def evaluate(data: Path = DATA, held_out: bool | None = None) -> Evaluation:
    """Score the rules on the set: all PRs, or only the held-out (True) or the others."""
    repo = load_config(data)
    labels = load_labels(data)
    prs = [p for p in load_prs(data) if held_out in (None, labels[p.number].held_out)]
    per_tag = {t: Score() for t in JUDGED}
    tags: dict[int, list[RiskTag]] = {}
    named = linked = 0
    wrong: list[int] = []
    for pr in prs:
        found = assess(pr, repo)
        tags[pr.number] = found
        got = {t.tag for t in found}
        want = labels[pr.number].expect
        for tag in JUDGED:
            score = per_tag[tag]
            if tag in got and tag in want:
                score.tp += 1
            elif tag in got:
                score.fp += 1
                score.false.append(pr.number)
            elif tag in want:
                score.fn += 1
                score.misses.append(pr.number)
        label = labels[pr.number]
        revert = next((t for t in found if t.tag == "revert"), None)
        link = revert.evidence[0].numbers.get("reverts") if revert else None
        if label.reverts is not None:
            named += 1
            linked += link == label.reverts
        if link is not None and link != label.reverts:
            wrong.append(pr.number)
    overall = Score(
        tp=sum(s.tp for s in per_tag.values()),
        fp=sum(s.fp for s in per_tag.values()),
        fn=sum(s.fn for s in per_tag.values()),
    )
    return Evaluation(
        prs=len(prs),
        per_tag=per_tag,
        overall=overall,
        reverts_named=named,
        reverts_linked=linked,
        reverts_wrong=wrong,
        tags=tags,
    )
