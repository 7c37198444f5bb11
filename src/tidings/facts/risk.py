"""Risk tags on merged PRs: typed, decided by rules, each with the evidence that fired it.

A tag is a fact, not an opinion: it names the rule, and its evidence (a file, an added line or
the rule's numbers) lets a reader check it in seconds. Rules that need data a source does not
give stay silent instead of guessing: the assert rule needs added lines (only the git source
stores them), the approval rule needs reviews (only the GitHub API gives them), and the
follow-up rule needs the count of unresolved review threads. The LLM layer may add notes next
to the tags; it never sets one.

Thresholds and paths come from `[repos.risk]` in tidings.toml (config.RiskConfig). The tag
names are defined here once (`RiskTagName`); the config's check of `weights`, the report
models, the words of each language and the benchmarks derive theirs from it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Literal, get_args

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.globs import any_match
from tidings.store import schema
from tidings.store.gaps import read_gaps

if TYPE_CHECKING:  # config.py reads RISK_TAGS from here, so only type checkers import it back
    from tidings.config import RepoConfig

RiskTagName = Literal[
    "missing_tests",
    "tests_removed",
    "core_path",
    "large_change",
    "assert_validation",
    "revert",
    "no_approval",
    "dependency_change",
    "security_path",
    "follow_up_promised",
]
RISK_TAGS: tuple[RiskTagName, ...] = get_args(RiskTagName)

# How much each tag weighs when the week's riskiest PRs are chosen: code that silently loses a
# check, lost tests and sensitive paths first; size alone last.
DEFAULT_WEIGHTS: dict[RiskTagName, float] = {
    "assert_validation": 3.0,
    "tests_removed": 3.0,
    "security_path": 3.0,
    "revert": 2.0,
    "follow_up_promised": 2.0,
    "no_approval": 2.0,
    "core_path": 2.0,
    "missing_tests": 1.5,
    "dependency_change": 1.0,
    "large_change": 1.0,
}

# At most this many evidence entries per tag: enough to check, short enough to read.
MAX_EVIDENCE = 5

# An assert statement (not a comment or a word inside a string): it vanishes under `python -O`.
_ASSERT = re.compile(r"^\s*assert\b")
_REVERT_TITLE = re.compile(r"^\s*(?:\[[^\]]*\]\s*)*(?:revert\b|\[revert\])", re.IGNORECASE)
_REVERT_BODY = re.compile(r"^This reverts commit [0-9a-f]{7,40}", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Evidence:
    """Why a tag fired: a file, an added line of it, and/or the rule's numbers."""

    path: str | None = None
    line: str | None = None  # an added line, as written (untrusted: renderers escape it)
    numbers: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RiskTag:
    tag: RiskTagName
    weight: float
    evidence: list[Evidence]


@dataclass(frozen=True, slots=True)
class PRFile:
    path: str
    previous_path: str | None = None
    status: str | None = None  # added, modified, removed, renamed (None: unknown)
    additions: int | None = None  # None: binary
    deletions: int | None = None
    patch: str | None = None  # added lines, one per line (None: not known)

    @property
    def lines(self) -> int:
        return (self.additions or 0) + (self.deletions or 0)


@dataclass(frozen=True, slots=True)
class MergedPR:
    """What the rules read about one merged PR."""

    number: int
    title: str
    body: str | None
    author: str | None
    labels: tuple[str, ...]
    merged_at: datetime
    source: str | None  # "git" for a PR read from a clone
    reviews_known: bool  # the API's PR details were fetched (reviews are complete)
    approvers: tuple[str, ...]  # logins who approved before the merge, author excluded
    reviews: int
    unresolved_threads: int | None
    files: tuple[PRFile, ...] = field(default_factory=tuple)
    # The PR's true changed-file count where `files` is only part of its list (GitHub lists at
    # most 3,000; store/gaps.py), else None.
    files_total: int | None = None

    @property
    def additions(self) -> int:
        return sum(f.additions or 0 for f in self.files)

    @property
    def deletions(self) -> int:
        return sum(f.deletions or 0 for f in self.files)


class _Rules:
    def __init__(self, repo: RepoConfig) -> None:
        self.repo = repo
        self.cfg = repo.risk
        # The config's weights name only known tags (config.RiskConfig checks them).
        self.weights = {tag: self.cfg.weights.get(tag, w) for tag, w in DEFAULT_WEIGHTS.items()}
        self.extensions = tuple(e.lower() for e in self.cfg.code_extensions)
        self._tests: dict[str, bool] = {}

    def is_test(self, path: str) -> bool:
        # A week's PRs share many paths; glob matching is the rules' main cost.
        found = self._tests.get(path)
        if found is None:
            found = self._tests[path] = any_match(self.repo.test_paths, path)
        return found

    def is_code(self, path: str) -> bool:
        return path.lower().endswith(self.extensions) and not self.is_test(path)

    def tag(self, name: RiskTagName, evidence: list[Evidence]) -> RiskTag:
        return RiskTag(
            tag=name,
            weight=self.weights[name],
            evidence=evidence[:MAX_EVIDENCE],
        )

    # -- the rules, in the order reports list them -------------------------------------------

    def assess(self, pr: MergedPR) -> list[RiskTag]:
        tags: list[RiskTag] = []
        for rule in (
            self.revert,
            self.tests_removed,
            self.assert_validation,
            self.security_path,
            self.follow_up_promised,
            self.no_approval,
            self.core_path,
            self.missing_tests,
            self.dependency_change,
            self.large_change,
        ):
            found = rule(pr)
            if found is not None:
                tags.append(found)
        return tags

    def missing_tests(self, pr: MergedPR) -> RiskTag | None:
        code = [f for f in pr.files if self.is_code(f.path)]
        lines = sum(f.lines for f in code)
        if lines < self.cfg.missing_tests_min_lines or any(self.is_test(f.path) for f in pr.files):
            return None
        biggest = sorted(code, key=lambda f: (-f.lines, f.path))
        return self.tag(
            "missing_tests",
            [Evidence(numbers={"code_files": len(code), "code_lines": lines, "test_files": 0})]
            + [Evidence(path=f.path, numbers={"lines": f.lines}) for f in biggest[:3]],
        )

    def tests_removed(self, pr: MergedPR) -> RiskTag | None:
        out: list[Evidence] = []
        for f in pr.files:
            if not self.is_test(f.path):
                continue
            adds, dels = f.additions or 0, f.deletions or 0
            deleted = f.status == "removed"
            if deleted or dels - adds >= self.cfg.tests_removed_min_lines:
                numbers = {"additions": adds, "deletions": dels}
                if deleted:
                    numbers["deleted_file"] = 1
                out.append(Evidence(path=f.path, numbers=numbers))
        return self.tag("tests_removed", out) if out else None

    def core_path(self, pr: MergedPR) -> RiskTag | None:
        core = self.repo.core_paths
        hits = [f for f in pr.files if core and any_match(core, f.path)]
        if not hits:
            return None
        hits.sort(key=lambda f: (-f.lines, f.path))
        return self.tag(
            "core_path", [Evidence(path=f.path, numbers={"lines": f.lines}) for f in hits]
        )

    def large_change(self, pr: MergedPR) -> RiskTag | None:
        lines, files = pr.additions + pr.deletions, len(pr.files)
        if lines < self.cfg.large_lines and files < self.cfg.large_files:
            return None
        return self.tag(
            "large_change",
            [
                Evidence(
                    numbers={
                        "lines": lines,
                        "files": files,
                        "lines_threshold": self.cfg.large_lines,
                        "files_threshold": self.cfg.large_files,
                    }
                )
            ],
        )

    def assert_validation(self, pr: MergedPR) -> RiskTag | None:
        out: list[Evidence] = []
        for f in pr.files:
            if f.patch is None or not f.path.endswith(".py") or self.is_test(f.path):
                continue
            for line in f.patch.splitlines():
                if _ASSERT.match(line):
                    out.append(Evidence(path=f.path, line=line.strip()[:200]))
        return self.tag("assert_validation", out) if out else None

    def revert(self, pr: MergedPR) -> RiskTag | None:
        if _REVERT_TITLE.match(pr.title):
            return self.tag("revert", [Evidence(line=pr.title[:200])])
        match = _REVERT_BODY.search(pr.body or "")
        if match:
            return self.tag("revert", [Evidence(line=match.group(0))])
        return None

    def no_approval(self, pr: MergedPR) -> RiskTag | None:
        # Only the API knows reviews; a git-only PR stays silent rather than look unreviewed.
        if not pr.reviews_known or pr.approvers:
            return None
        return self.tag("no_approval", [Evidence(numbers={"reviews": pr.reviews, "approvals": 0})])

    def dependency_change(self, pr: MergedPR) -> RiskTag | None:
        hits = [f for f in pr.files if any_match(self.cfg.dependency_paths, f.path)]
        if not hits:
            return None
        return self.tag(
            "dependency_change", [Evidence(path=f.path, numbers={"lines": f.lines}) for f in hits]
        )

    def security_path(self, pr: MergedPR) -> RiskTag | None:
        hits = [
            f
            for f in pr.files
            if any_match(self.cfg.security_paths, f.path) and not self.is_test(f.path)
        ]
        if not hits:
            return None
        return self.tag(
            "security_path", [Evidence(path=f.path, numbers={"lines": f.lines}) for f in hits]
        )

    def follow_up_promised(self, pr: MergedPR) -> RiskTag | None:
        if not pr.unresolved_threads:  # None (unknown) or 0
            return None
        return self.tag(
            "follow_up_promised",
            [Evidence(numbers={"unresolved_threads": pr.unresolved_threads})],
        )


def assess(pr: MergedPR, repo: RepoConfig) -> list[RiskTag]:
    """The risk tags of one merged PR, in report order (possibly none)."""
    return _Rules(repo).assess(pr)


def assess_all(prs: Iterable[MergedPR], repo: RepoConfig) -> dict[int, list[RiskTag]]:
    rules = _Rules(repo)
    return {pr.number: rules.assess(pr) for pr in prs}


def risk_score(tags: Sequence[RiskTag]) -> float:
    return round(sum(t.weight for t in tags), 2)


# -- loading -----------------------------------------------------------------------------------


def load_merged(conn: Connection, repo_id: int, start: datetime, end: datetime) -> list[MergedPR]:
    """The PRs merged in [start, end) with their files and reviews: three queries."""
    it, f, rv = schema.items, schema.pr_files, schema.reviews
    rows = conn.execute(
        sa.select(
            it.c.number,
            it.c.title,
            it.c.body,
            it.c.author,
            it.c.labels,
            it.c.merged_at,
            it.c.source,
            it.c.detail_updated_at,
            it.c.unresolved_threads,
            it.c.changed_files,
        )
        .where(
            it.c.repo_id == repo_id,
            ~it.c.deleted,
            it.c.kind == "pr",
            it.c.merged_at >= start,
            it.c.merged_at < end,
        )
        .order_by(it.c.number)
    ).all()
    numbers = [r.number for r in rows]
    files: dict[int, list[PRFile]] = {n: [] for n in numbers}
    approvers: dict[int, set[str]] = {n: set() for n in numbers}
    reviews: dict[int, int] = dict.fromkeys(numbers, 0)
    merged_at = {r.number: r.merged_at for r in rows}
    cut = {n for n, gaps in read_gaps(conn, repo_id).items() if "files" in gaps}
    authors = {r.number: r.author for r in rows}
    for chunk in _chunks(numbers):
        for row in conn.execute(
            sa.select(
                f.c.number,
                f.c.path,
                f.c.previous_path,
                f.c.status,
                f.c.additions,
                f.c.deletions,
                f.c.patch,
            )
            .where(f.c.repo_id == repo_id, f.c.number.in_(chunk))
            .order_by(f.c.number, f.c.path)
        ):
            files[row.number].append(
                PRFile(
                    path=row.path,
                    previous_path=row.previous_path,
                    status=row.status,
                    additions=row.additions,
                    deletions=row.deletions,
                    patch=row.patch,
                )
            )
        for review in conn.execute(
            sa.select(rv.c.number, rv.c.author, rv.c.state, rv.c.submitted_at).where(
                rv.c.repo_id == repo_id, ~rv.c.deleted, rv.c.number.in_(chunk)
            )
        ):
            n = review.number
            if review.submitted_at is None or review.submitted_at > merged_at[n]:
                continue  # a pending draft, or a review after the merge: not what approved it
            reviews[n] += 1
            if review.state == "APPROVED" and review.author and review.author != authors[n]:
                approvers[n].add(review.author)
    return [
        MergedPR(
            number=r.number,
            title=r.title,
            body=r.body,
            author=r.author,
            labels=tuple(r.labels or ()),
            merged_at=r.merged_at,
            source=r.source,
            reviews_known=r.source != "git" and r.detail_updated_at is not None,
            approvers=tuple(sorted(approvers[r.number])),
            reviews=reviews[r.number],
            unresolved_threads=r.unresolved_threads,
            files=tuple(files[r.number]),
            files_total=r.changed_files if r.number in cut else None,
        )
        for r in rows
    ]


def _chunks(values: list[int], size: int = 500) -> Iterable[list[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]
