"""The risk rules' labelled evaluation set: real vllm-ascend PRs, judged by hand.

tests/data/risk_eval/ holds what the shared vllm-ascend history lacks: the judgements
(labels.toml; README.md says what each tag means there), per PR and file the status and diff
hunks a clone gives (hunks.jsonl.gz, extracted by scripts/build_risk_eval.py) and the
repository config (config.toml). Titles, bodies, merge times, file lists with their counts and
the PRs merged around the set (for linking reverts the way the store does) are joined from
../shared/data/vllm-ascend-commits.jsonl at load time: its text is never copied into the
project. `evaluate` runs the rules on every PR and scores each judged tag; the test
(tests/facts/test_risk_eval.py) and the benchmark (benchmarks/risk.py) print the same figures.
Callers check `ASCEND.exists()` first: a test skips with the reason (fails under CI=true), the
benchmark says so and exits 1.

no_approval and follow_up_promised read reviews and review threads, which a clone does not
hold: they are not judged here.
"""

from __future__ import annotations

import gzip
import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from testkit.gitlog import ASCEND, load_records, split_rename
from tidings.common.config import RepoConfig, parse_config
from tidings.facts.risk import RISK_TAGS, MergedPR, PRFile, RiskTag, assess, link_reverts

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "risk_eval"
REPO = "vllm-project/vllm-ascend"
# Tags a clone's evidence can decide; the other two need GitHub's reviews.
JUDGED: tuple[str, ...] = tuple(
    t for t in RISK_TAGS if t not in ("no_approval", "follow_up_promised")
)
# The bodies the judgements were made against: the description's first 2,000 characters, cut
# at a line end (the shared history keeps 4,000; more text would change what the rules read).
BODY_MAX_CHARS = 2_000
# The store a revert is linked in: every PR merged from this long before the first labelled PR
# to the last one (a revert undoes something recent; the set's reverts all fall inside).
HISTORY_DAYS = 60
_SQUASH = re.compile(r"\s*\(#(\d+)\)\s*$")


class EvalDataError(RuntimeError):
    """The committed hunks and the shared history do not fit together."""


@dataclass(frozen=True)
class Label:
    number: int
    expect: frozenset[str]
    why: dict[str, str]
    reverts: int | None
    held_out: bool  # judged before the rules were run on it, never used to shape them
    relands: tuple[int, int] | None = None  # a re-land's original PR and the revert it undoes


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
    # Re-lands the labels name (original and revert), how many are linked to both, and the
    # PRs linked as re-lands wrongly.
    relands_named: int = 0
    relands_linked: int = 0
    relands_wrong: list[int] = field(default_factory=list)


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


@cache
def _shared(path: Path) -> dict[int, dict[str, Any]]:
    """The shared history's squash-merged PRs by number; a PR merged twice keeps its newest
    merge, as the records are newest first. Read once per run: it is 8 MB of JSON."""
    out: dict[int, dict[str, Any]] = {}
    for record in load_records(path):
        if record["pr_number"] is not None:
            out.setdefault(record["pr_number"], record)
    return out


def _title(subject: str) -> str:
    return _SQUASH.sub("", subject).strip()


def _bound(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[: text.rfind("\n", 0, limit)]


def _files(number: int, record: dict[str, Any], hunks: dict[str, Any]) -> tuple[PRFile, ...]:
    """The shared file list with counts, each file joined by path to its committed hunks."""
    files: list[PRFile] = []
    for entry in record["files"]:
        previous, path = split_rename(entry["path"])
        got = hunks.pop(path, None)
        if got is None:
            raise EvalDataError(f"PR #{number}: no hunks committed for {path}")
        files.append(
            PRFile(
                path=path,
                previous_path=previous,
                status=got["status"],
                additions=entry["additions"],
                deletions=entry["deletions"],
                patch=got["patch"],
            )
        )
    if hunks:
        raise EvalDataError(f"PR #{number}: hunks for files the history lacks: {sorted(hunks)}")
    return tuple(files)


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
            relands=tuple(entry["relands"]) if "relands" in entry else None,  # type: ignore[arg-type]
        )
    return labels


def load_prs(data: Path = DATA, shared: Path = ASCEND) -> list[MergedPR]:
    """The labelled PRs as the store would give them from a clone, reverts linked: the
    committed hunks joined to the shared history's records of the same merge commits."""
    records = _shared(shared)
    prs: list[MergedPR] = []
    for row in _lines(data / "hunks.jsonl.gz"):
        number = row["number"]
        record = records.get(number)
        if record is None or record["sha"] != row["sha"]:
            raise EvalDataError(f"PR #{number} ({row['sha'][:12]}) is not in {shared}")
        prs.append(
            MergedPR(
                number=number,
                title=_title(record["subject"]),
                body=_bound((record["body"] or "").strip(), BODY_MAX_CHARS) or None,
                author=None,
                labels=(),
                merged_at=datetime.fromisoformat(record["committed_at"]),
                source="git",
                reviews_known=False,
                approvers=(),
                reviews=0,
                unresolved_threads=None,
                files=_files(number, record, dict(row["files"])),
            )
        )
    start = min(p.merged_at for p in prs) - timedelta(days=HISTORY_DAYS)
    end = max(p.merged_at for p in prs)
    history = [
        (n, r["sha"], _title(r["subject"]), datetime.fromisoformat(r["committed_at"]))
        for n, r in sorted(records.items())
        if start <= datetime.fromisoformat(r["committed_at"]) <= end
    ]
    known = {n for n, _, _, _ in history}

    def by_sha(sha: str) -> int | None:
        found = [n for n, full, _, _ in history if full.startswith(sha)]
        return found[0] if len(found) == 1 else None

    def by_title(title: str, before: datetime) -> int | None:
        earlier = [(when, n) for n, _, t, when in history if t == title and when < before]
        return max(earlier)[1] if earlier else None

    def by_number(n: int) -> tuple[str, str | None, datetime] | None:
        if n not in known:
            return None
        r = records[n]
        body = _bound((r["body"] or "").strip(), BODY_MAX_CHARS) or None
        return _title(r["subject"]), body, datetime.fromisoformat(r["committed_at"])

    return link_reverts(prs, by_sha, by_title, by_number)


def evaluate(data: Path = DATA, held_out: bool | None = None, shared: Path = ASCEND) -> Evaluation:
    """Score the rules on the set: all PRs, or only the held-out (True) or the others."""
    repo = load_config(data)
    labels = load_labels(data)
    prs = [p for p in load_prs(data, shared) if held_out in (None, labels[p.number].held_out)]
    per_tag = {t: Score() for t in JUDGED}
    tags: dict[int, list[RiskTag]] = {}
    named = linked = relands_named = relands_linked = 0
    wrong: list[int] = []
    relands_wrong: list[int] = []
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
        again = (pr.reland.original, pr.reland.revert) if pr.reland else None
        if label.relands is not None:
            relands_named += 1
            relands_linked += again == label.relands
        if again is not None and again != label.relands:
            relands_wrong.append(pr.number)
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
        relands_named=relands_named,
        relands_linked=relands_linked,
        relands_wrong=relands_wrong,
    )
