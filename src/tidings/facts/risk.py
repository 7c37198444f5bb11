"""Risk tags on merged PRs: typed, decided by rules, each with the evidence that fired it.

A tag is a fact, not an opinion: it names the rule, and its evidence (a file, an added line or
the rule's numbers) lets a reader check it in seconds. Rules that need data a source does not
give stay silent instead of guessing: the assert rule needs added lines (only the git source
stores them), the approval rule needs reviews (only the GitHub API gives them), and the
follow-up rule needs the count of unresolved review threads. The LLM layer may add notes next
to the tags; it never sets one.

The rules read a PR without the hunks that only re-format code (facts/formatting.py): a
formatter sweep's re-wrapped asserts, lines and tool settings are no change. A PR that is
mostly such hunks is a formatting change (`Reformatted.sweep`), which the size rules read by
the code it creates. Tests are lost only when no new test takes their place
(facts/renamed_tests.py); a re-land is linked to what it brings back (facts/relands.py).

The rules are pure: they read `MergedPR` records, which facts/load/merged.py builds from the
store, and diffs parsed by facts/patch.py.

Thresholds and paths come from `[repos.risk]` in tidings.toml (config.RiskConfig). The tag
names are defined once, in common/risk_tags.py (`RiskTagName`), below the config that checks
`weights` against them; the rules, report models, words and benchmarks derive theirs from it.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from difflib import SequenceMatcher
from functools import cached_property
from typing import TYPE_CHECKING

from tidings.common.risk_tags import RISK_TAGS as RISK_TAGS  # the rules' own names
from tidings.common.risk_tags import RiskTagName as RiskTagName
from tidings.facts.formatting import Span, formatting_spans, lenient_spans
from tidings.facts.patch import Diff, parse_patch
from tidings.facts.paths import PathKinds
from tidings.facts.relands import Reland, link_reland, reverted_by
from tidings.facts.renamed_tests import TestFile, dropped_tests
from tidings.facts.reverts import (
    ByNumber,
    BySha,
    ByTitle,
    link,
    reland_ref,
    revert_line,
    revert_ref,
)

if TYPE_CHECKING:
    from tidings.common.config import RepoConfig

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
# A test switched off in place: an unconditional skip or xfail marker, `skipif(True`, or a
# skipif whose reason says the test is broken (a platform gate is not a lost test).
_DISABLED = re.compile(
    r"^\s*(?:pytestmark\s*=\s*)?@?(?:pytest\.mark\.(?:skip\b(?!_)(?!if)|xfail\b)"
    r"|unittest\.(?:skip|expectedFailure)\b(?!If|Unless)"
    r"|pytest\.mark\.skipif\(\s*True\b)"
)
_DISABLED_SKIPIF = re.compile(r"^\s*(?:pytestmark\s*=\s*)?@?pytest\.mark\.skipif\(")
_BROKEN_REASON = re.compile(
    r"broken|fix ?me|flak|unstable|fail|todo|temporar|hang|not work", re.IGNORECASE
)

# A line whose only change is a version or a commit: a pinned dependency moved.
_VERSION = re.compile(
    r"\bv?\d+\.\d+(?:\.[0-9a-z]+)+(?:[-+][0-9a-z.]+)?\b|\bv\d+\.\d+\b"
    r"|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b",
    re.IGNORECASE,
)
# A test case's definition: its name tells a renamed test from a dropped one.
_TEST_DEF = re.compile(r"^\s*(?:async\s+)?def\s+(test\w*)\s*\(|^\s*class\s+(Test\w*)\b")
# Files changed by this many lines or fewer (a version bump, a flag dropped across the tree)
# do not make a PR large by their number.
_SWEEP_LINES = 2
# Code changes that delete at least this many times what they add are removals.
_REMOVAL_RATIO = 10
# pyproject.toml: a table header, tools' tables, the tools among them that build or pin
# dependencies, and a list entry that is a path or glob (a linter's include or exclude).
_TOML_TABLE = re.compile(r"^\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOOL_TABLE = re.compile(r"^tool\.")
_BUILD_TOOL = re.compile(
    r"^tool\.(?:setuptools|setuptools_scm|poetry|pdm|hatch|uv|flit|maturin|scikit-build|"
    r"cibuildwheel|pixi|conda|meson-python|pybind11)\b"
)
_PATH_ENTRY = re.compile(r"""^["'][^"'\s:]*[/*][^"'\s:]*["']\s*,?\s*(?:#.*)?$""")
_OPENERS, _CLOSERS = "([{", ")]}"
_STATEMENT_LINES = 12  # an assert's lines joined at most
_REWORDED = 0.6  # how alike an assert and a removed one are when it only rewords it


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
    # The file's diff: unified hunks (`@@` headers, `-` and `+` lines; a context line ends a
    # hunk, so a patch with context reads as its zero-context equivalent), or,
    # as older git syncs stored it, the added lines alone, one per line. None: not known.
    patch: str | None = None

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
    # Files whose diff the store lacks because the patch stage could not read one (GitHub gave
    # none, or past its bounds; store/gaps.py): the rules that read code did not see them.
    unread_diffs: int = 0
    # The PR this one reverts when only the store could tell (its title or merge commit
    # matched; link_reverts), else None. A number the text names needs no store.
    reverted: int | None = None
    # GitHub's account type, or the git source's (a git name, or one it marked a bot by its
    # email): what tidings.common.bots needs beside the name.
    author_type: str | None = None
    # The PR this one re-lands and the revert it undoes (facts/relands.py), else None.
    reland: Reland | None = None
    # The last read of its reviews or review threads came back incomplete (a part GitHub
    # refused, a short page; store/gaps.py): the rules that read them stay silent on it.
    reviews_incomplete: bool = False

    @property
    def additions(self) -> int:
        return sum(f.additions or 0 for f in self.files)

    @property
    def deletions(self) -> int:
        return sum(f.deletions or 0 for f in self.files)


def _key(line: str) -> str:
    """A line as moved or re-indented code compares: whitespace ignored."""
    return " ".join(line.split())


def narrows_type(line: str) -> bool:
    """An assert that only narrows a type for the type checker (`x is not None`,
    `isinstance(x, T)`, joined by `and`): it documents, it does not validate input."""
    text = line.strip()
    # A multi-line assert's first line: close its brackets so it parses on its own.
    depth = [c for c in text if c in _OPENERS or c in _CLOSERS]
    missing = sum(1 if c in _OPENERS else -1 for c in depth)
    try:
        tree = ast.parse(text + ")" * max(missing, 0))
    except SyntaxError:
        return False
    node = tree.body[0] if tree.body else None
    return isinstance(node, ast.Assert) and _narrowing(node.test)


def _narrowing(node: ast.expr) -> bool:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return all(_narrowing(v) for v in node.values)
    if isinstance(node, ast.Compare):
        return (
            len(node.ops) == 1
            and isinstance(node.ops[0], ast.IsNot)
            and isinstance(node.comparators[0], ast.Constant)
            and node.comparators[0].value is None
        )
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("isinstance", "issubclass", "callable")
    )


def disables_test(line: str) -> bool:
    """An added line that switches a test off (skip/xfail), not one that gates a platform."""
    if _DISABLED.match(line):
        return True
    return bool(_DISABLED_SKIPIF.match(line) and _BROKEN_REASON.search(line))


def _pin_bump(removed: str, added: str) -> bool:
    """The two lines differ only in version numbers or commit hashes."""
    return (
        removed != added
        and bool(_VERSION.search(added))
        and _VERSION.sub("\0", removed).strip() == _VERSION.sub("\0", added).strip()
    )


def link_reverts(
    prs: Sequence[MergedPR], by_sha: BySha, by_title: ByTitle, by_number: ByNumber | None = None
) -> list[MergedPR]:
    """Each revert whose text names no PR, linked to the one it reverts (reverts.link), and
    each re-land to the PR it brings back and the revert it undoes (relands.link_reland). A
    "revert" of a revert is a re-land. The lookups are the store's (facts/load/merged.py) or an
    index's (tests); without `by_number` a re-land links what its text names."""
    out: list[MergedPR] = []
    for pr in prs:
        if again := reland_ref(pr.title, pr.body, pr.number):
            found = link_reland(again, pr.number, pr.merged_at, by_sha, by_title, by_number)
            out.append(replace(pr, reland=found))
            continue
        ref = revert_ref(pr.title, pr.body, pr.number)
        target = (
            (ref.number or link(ref, pr.number, pr.merged_at, by_sha, by_title)) if ref else None
        )
        undone = reverted_by(target, by_sha, by_title, by_number) if target and by_number else None
        if undone is not None:
            out.append(replace(pr, reland=Reland(undone, target)))
        elif ref is not None and ref.number is None and target is not None:
            out.append(replace(pr, reverted=target))
        else:
            out.append(pr)
    return out


def reverted_pr(pr: MergedPR) -> int | None:
    """The PR this one reverts, as its text names it or the store linked it, else None (a
    re-land reverts a revert: it is linked as a re-land, not as a revert)."""
    if pr.reland is not None:
        return None
    ref = revert_ref(pr.title, pr.body, pr.number)
    return (ref.number or pr.reverted) if ref else None


# -- formatting -------------------------------------------------------------------------------

# A PR is a formatting change when this share of its changed code and test lines only
# re-formats (facts/formatting.py): what is left is the linter's fixes made in the same pass.
SWEEP_SHARE = 0.8


@dataclass(frozen=True, slots=True)
class Reformatted:
    """How much of a PR only re-formats code: the rules read the PR without those lines."""

    lines: int  # changed lines (removed and added) of code and tests that only re-format
    # Changed lines of code and tests whose hunks the store holds (a file's diff is kept up to
    # a bound: the share is read from what was seen).
    of: int

    @property
    def sweep(self) -> bool:
        """Most of the PR's code and test lines only re-format: a formatting change."""
        return self.lines > 0 and self.lines >= SWEEP_SHARE * self.of


def _net(pr: MergedPR, rules: _Rules) -> tuple[MergedPR, dict[int, Diff | None], Reformatted]:
    """The PR as the rules read it: each file's formatting-only hunks taken out of its diff
    and its counts (a file left with no change at all is no longer changed), the diffs so
    parsed, and how many lines went. In a formatting change (most lines only re-format) each
    Python file's other hunks are read again, leniently, as the sweep's (formatting.py)."""
    read: list[tuple[PRFile, Diff | None, set[int]]] = []
    measured = 0
    for f in pr.files:
        code = rules.kind(f.path) in ("code", "test")
        diff = parse_patch(f.patch) if code else None
        gone: set[int] = set()
        if diff is not None and diff.removed_known:
            measured += sum(len(h.removed) + len(h.added) for h in diff.hunks)
            gone = _covered(formatting_spans(f.path, _pairs(diff)))
        read.append((f, diff, gone))
    netted = sum(_lines(diff, gone) for _, diff, gone in read)
    if netted and netted >= SWEEP_SHARE * measured:
        for f, diff, gone in read:
            if diff is not None and gone and len(gone) < len(diff.hunks):
                gone |= _covered(lenient_spans(f.path, _pairs(diff), gone))
        netted = sum(_lines(diff, gone) for _, diff, gone in read)
    files: list[PRFile] = []
    diffs: dict[int, Diff | None] = {}
    for f, diff, gone in read:
        if diff is None or not gone:
            if rules.kind(f.path) in ("code", "test"):
                diffs[len(files)] = diff
            files.append(f)  # other files are parsed when a rule needs them
            continue
        removed = sum(len(diff.hunks[k].removed) for k in gone)
        added = sum(len(diff.hunks[k].added) for k in gone)
        left = replace(
            f,
            additions=None if f.additions is None else max(f.additions - added, 0),
            deletions=None if f.deletions is None else max(f.deletions - removed, 0),
        )
        if left.lines == 0 and f.status in (None, "modified"):
            continue  # only re-formatted: not changed
        diffs[len(files)] = Diff(
            tuple(h for k, h in enumerate(diff.hunks) if k not in gone), removed_known=True
        )
        files.append(left)
    if not netted:
        return pr, diffs, Reformatted(0, measured)
    return replace(pr, files=tuple(files)), diffs, Reformatted(netted, measured)


def _pairs(diff: Diff) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(h.removed, h.added) for h in diff.hunks]


def _covered(spans: Iterable[Span]) -> set[int]:
    return {k for span in spans for k in range(span.first, span.last + 1)}


def _lines(diff: Diff | None, gone: set[int]) -> int:
    if diff is None:
        return 0
    return sum(len(diff.hunks[k].removed) + len(diff.hunks[k].added) for k in gone)


# -- the rules ---------------------------------------------------------------------------------


class _View:
    """One PR's diffs, each parsed when a rule first needs it (most files need none), and
    the lines the PR both removes and adds anywhere (moved or re-indented, not new)."""

    def __init__(self, pr: MergedPR, rules: _Rules) -> None:
        self.pr, self._diffs, self.reformatted = _net(pr, rules)
        self.rules = rules

    def diff(self, index: int) -> Diff | None:
        if index not in self._diffs:
            self._diffs[index] = parse_patch(self.pr.files[index].patch)
        return self._diffs[index]

    def files(self, pr: MergedPR) -> Iterable[tuple[int, PRFile]]:
        return enumerate(pr.files)

    def _all(self) -> Iterable[Diff]:
        # Docs and translations move text, never code or tests: their lines are not read.
        for i, f in enumerate(self.pr.files):
            if self.rules.matches("large_ignore", f.path):
                continue
            diff = self.diff(i)
            if diff is not None:
                yield diff

    @cached_property
    def moved(self) -> Counter[str]:
        removed: Counter[str] = Counter()
        added: Counter[str] = Counter()
        for diff in self._all():
            removed.update(k for k in map(_key, diff.removed) if k)
            added.update(k for k in map(_key, diff.added) if k)
        return removed & added

    @cached_property
    def defined(self) -> set[str]:
        """Test names the PR defines anywhere: a test whose name is still defined moved."""
        return {name for diff in self._all() for name in _test_names(diff.added)}


class _Rules:
    def __init__(self, repo: RepoConfig) -> None:
        self.repo = repo
        self.cfg = repo.risk
        self.reformatted: dict[int, Reformatted] = {}  # per PR assessed
        # The config's weights name only known tags (config.RiskConfig checks them).
        self.weights = {tag: self.cfg.weights.get(tag, w) for tag, w in DEFAULT_WEIGHTS.items()}
        self.paths = PathKinds(repo)
        self.extensions = self.paths.extensions
        self.matches = self.paths.matches
        self.kind = self.paths.kind
        self.is_test = self.paths.is_test

    def is_code(self, path: str) -> bool:
        return self.kind(path) == "code"

    def tag(self, name: RiskTagName, evidence: list[Evidence]) -> RiskTag:
        return RiskTag(
            tag=name,
            weight=self.weights[name],
            evidence=evidence[:MAX_EVIDENCE],
        )

    # -- the rules, in the order reports list them -------------------------------------------

    def assess(self, pr: MergedPR) -> list[RiskTag]:
        view = _View(pr, self)
        self.reformatted[pr.number] = view.reformatted
        pr = view.pr  # formatting-only hunks netted out
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
            found = rule(pr, view)
            if found is not None:
                tags.append(found)
        return tags

    def missing_tests(self, pr: MergedPR, view: _View) -> RiskTag | None:
        """Product code changed and no test changed with it. A change that only deletes code
        (dead code, a feature dropped) has nothing new to test; a test file whose only new
        lines switch tests off tests nothing; a formatting change asks tests only for the
        code it creates."""
        code = [f for f in pr.files if self.is_code(f.path)]
        if view.reformatted.sweep:
            # A formatting change's other lines are the linter's fixes of the same pass
            # (imports, hint spellings, simplifications): only code it creates is new.
            code = [f for f in code if f.status == "added"]
        lines = sum(f.lines for f in code)
        added = sum(f.additions or 0 for f in code)
        if lines < self.cfg.missing_tests_min_lines or added * _REMOVAL_RATIO < lines - added:
            return None
        if any(
            self.is_test(f.path) and not _only_disables(view.diff(i)) for i, f in view.files(pr)
        ):
            return None
        biggest = sorted(code, key=lambda f: (-f.lines, f.path))
        return self.tag(
            "missing_tests",
            [Evidence(numbers={"code_files": len(code), "code_lines": lines, "test_files": 0})]
            + [Evidence(path=f.path, numbers={"lines": f.lines}) for f in biggest[:3]],
        )

    def tests_removed(self, pr: MergedPR, view: _View) -> RiskTag | None:
        """Test lines lost (removed and not added back anywhere in the PR, net of the test's
        new lines) or tests switched off. Without hunks, the file's counts decide."""
        out: list[Evidence] = []
        disabled: list[Evidence] = []
        kept = view.moved.copy()  # a moved line nets once, wherever it went
        arrived = view.moved.copy()
        # Tests defined anew elsewhere in the PR may be the dropped ones, renamed or moved.
        dropped_in = _dropped_tests(pr, view, self.is_test)
        for i, f in view.files(pr):
            if not self.is_test(f.path):
                continue
            diff = view.diff(i)
            adds, dels = f.additions or 0, f.deletions or 0
            deleted = f.status == "removed"
            # A skip in a file the PR creates marks a new case; it switches nothing off.
            if diff is not None and f.status != "added":
                disabled += _switched_off(f.path, diff, view)
            if diff is not None and diff.removed_known:
                lost = _unmatched(diff.removed, kept)
                new = _unmatched(diff.added, arrived)
                had = set(_test_names(diff.removed))
                dropped = dropped_in.get(i, 0)
                # Python tests are counted by their cases (a rewrite that shortens them drops
                # none); other test files (YAML cases, data) by the lines they lose.
                by_lines = not f.path.endswith(".py") or (deleted and not had)
                fired = dropped > 0 or (by_lines and lost - new >= self.cfg.tests_removed_min_lines)
                numbers = {"additions": adds, "deletions": dels, "lost_lines": max(lost - new, 0)}
                if dropped > 0:
                    numbers["tests_dropped"] = dropped
            else:
                fired = deleted or dels - adds >= self.cfg.tests_removed_min_lines
                numbers = {"additions": adds, "deletions": dels}
            if fired:
                if deleted:
                    numbers["deleted_file"] = 1
                out.append(Evidence(path=f.path, numbers=numbers))
        out += disabled
        return self.tag("tests_removed", out) if out else None

    def core_path(self, pr: MergedPR, view: _View) -> RiskTag | None:
        hits = [f for f in pr.files if self.matches("core_paths", f.path)]
        if view.reformatted.sweep:
            # A formatting change's spot fixes (an unused name dropped) touch no core logic.
            hits = [f for f in hits if f.lines > _SWEEP_LINES]
        if not hits:
            return None
        hits.sort(key=lambda f: (-f.lines, f.path))
        return self.tag(
            "core_path", [Evidence(path=f.path, numbers={"lines": f.lines}) for f in hits]
        )

    def large_change(self, pr: MergedPR, view: _View) -> RiskTag | None:
        # Reviewable lines: prose, translations, lock files and test data (a test's YAML
        # configs) make a PR long, not large.
        counted = [
            f
            for f in pr.files
            if not self.matches("large_ignore", f.path)
            and not (self.is_test(f.path) and not f.path.lower().endswith(self.extensions))
        ]
        if view.reformatted.sweep:
            # As for missing_tests: a formatting change is as large as the code it creates.
            counted = [f for f in counted if f.status == "added"]
        lines = sum(f.lines for f in counted)
        files = sum(1 for f in counted if f.lines > _SWEEP_LINES)
        if lines < self.cfg.large_lines and files < self.cfg.large_files:
            return None
        numbers = {
            "lines": lines,
            "files": files,
            "lines_threshold": self.cfg.large_lines,
            "files_threshold": self.cfg.large_files,
        }
        if len(counted) < len(pr.files):
            numbers["ignored_files"] = len(pr.files) - len(counted)
        return self.tag("large_change", [Evidence(numbers=numbers)])

    def assert_validation(self, pr: MergedPR, view: _View) -> RiskTag | None:
        """New asserts in product code that check a value; an assert moved or re-indented
        within the PR, one that rewords an assert the PR removes anywhere (moved to another
        file, its message or its wrapping changed), or one that only narrows a type, adds
        no check. Asserts compare as whole statements, continuation lines joined."""
        out: list[Evidence] = []
        moved = view.moved.copy()
        before: list[tuple[str, str]] | None = None  # the PR's removed asserts, read once
        for i, f in view.files(pr):
            if not f.path.endswith(".py") or not self.is_code(f.path):
                continue
            diff = view.diff(i)
            if diff is None or not any(_ASSERT.match(line) for line in diff.added):
                continue
            if before is None:
                before = self._removed_asserts(pr, view)
            for hunk in diff.hunks:
                for k, line in enumerate(hunk.added):
                    if not _ASSERT.match(line):
                        continue
                    key = _key(line)
                    if moved[key] > 0:
                        moved[key] -= 1
                    elif narrows_type(line) or _rewords(line, _statement(hunk.added, k), before):
                        continue
                    else:
                        out.append(Evidence(path=f.path, line=line.strip()[:200]))
        return self.tag("assert_validation", out) if out else None

    def _removed_asserts(self, pr: MergedPR, view: _View) -> list[tuple[str, str]]:
        """The asserts the PR removes from product code and adds nowhere as is: each one's
        first line and whole statement."""
        out: list[tuple[str, str]] = []
        for i, f in view.files(pr):
            diff = view.diff(i) if f.path.endswith(".py") and self.is_code(f.path) else None
            for hunk in diff.hunks if diff is not None else ():
                out += [
                    (line, _statement(hunk.removed, k))
                    for k, line in enumerate(hunk.removed)
                    if _ASSERT.match(line) and not view.moved[_key(line)]
                ]
        return out

    def revert(self, pr: MergedPR, view: _View) -> RiskTag | None:
        line = revert_line(pr.title, pr.body)
        if line is None or pr.reland is not None:
            return None  # a re-land is linked (relands.py), not tagged
        reverted = reverted_pr(pr)
        numbers = {"reverts": reverted} if reverted else {}
        return self.tag("revert", [Evidence(line=line[:200], numbers=numbers)])

    def no_approval(self, pr: MergedPR, view: _View) -> RiskTag | None:
        # Only the API knows reviews; a git-only PR stays silent rather than look unreviewed.
        if not pr.reviews_known or pr.approvers:
            return None
        return self.tag("no_approval", [Evidence(numbers={"reviews": pr.reviews, "approvals": 0})])

    def dependency_change(self, pr: MergedPR, view: _View) -> RiskTag | None:
        """A dependency or build file changed, or a version or commit pinned elsewhere (a CI
        workflow's upstream commit, a `.commit` file) moved."""
        out: list[Evidence] = []
        for i, f in view.files(pr):
            if self.matches("dependency_paths", f.path):
                if not _tool_config_only(f.path, view.diff(i)):
                    out.append(Evidence(path=f.path, numbers={"lines": f.lines}))
                continue
            # Docs name versions, they pin nothing; code and tests are the other rules'.
            if self.kind(f.path) in ("test", "code") or self.matches("large_ignore", f.path):
                continue
            diff = view.diff(i)
            if diff is None or not diff.removed_known:
                continue
            for hunk in diff.hunks:
                pins = [
                    a
                    for r, a in zip(hunk.removed, hunk.added, strict=False)
                    if len(hunk.removed) == len(hunk.added) and _pin_bump(r, a)
                ]
                if pins:
                    out.append(
                        Evidence(path=f.path, line=pins[0].strip()[:200], numbers={"pin": 1})
                    )
                    break
        return self.tag("dependency_change", out) if out else None

    def security_path(self, pr: MergedPR, view: _View) -> RiskTag | None:
        hits = [
            f
            for f in pr.files
            if self.matches("security_paths", f.path) and not self.is_test(f.path)
        ]
        if not hits:
            return None
        return self.tag(
            "security_path", [Evidence(path=f.path, numbers={"lines": f.lines}) for f in hits]
        )

    def follow_up_promised(self, pr: MergedPR, view: _View) -> RiskTag | None:
        if not pr.unresolved_threads:  # None (unknown) or 0
            return None
        return self.tag(
            "follow_up_promised",
            [Evidence(numbers={"unresolved_threads": pr.unresolved_threads})],
        )


def _rewords(line: str, statement: str, before: list[tuple[str, str]]) -> bool:
    """The assert (its first line, its whole statement) rewords one of `before` (which it
    uses up): alike as statements, or by their first lines (a message added or dropped)."""
    for i, (first, whole) in enumerate(before):
        if _alike(statement, whole) or _alike(line, first):
            del before[i]
            return True
    return False


def _alike(a: str, b: str) -> bool:
    matcher = SequenceMatcher(None, _key(b), _key(a))
    return matcher.quick_ratio() >= _REWORDED and matcher.ratio() >= _REWORDED


def _statement(lines: Sequence[str], k: int) -> str:
    """The statement starting at lines[k], its continuation lines joined (brackets left open
    or a trailing backslash), up to a bound."""
    parts: list[str] = []
    depth = 0
    for line in lines[k : k + _STATEMENT_LINES]:
        parts.append(line.strip())
        depth += sum(line.count(c) for c in _OPENERS) - sum(line.count(c) for c in _CLOSERS)
        if depth <= 0 and not line.rstrip().endswith("\\"):
            break
    return " ".join(parts)


def _tool_config_only(path: str, diff: Diff | None) -> bool:
    """A pyproject.toml change that only edits tools' settings (`[tool.ruff]`, `[tool.mypy]`,
    a formatter's exclude list), not what the project needs or how it is built. A hunk's
    lines belong to the last `[table]` header among them; lines before any header (the diff
    holds no context) count as tool settings only when they are paths, comments or blank: a
    linter's path lists, never a requirement."""
    if not path.endswith("pyproject.toml") or diff is None or not diff.removed_known:
        return False
    for hunk in diff.hunks:
        for lines in (hunk.removed, hunk.added):
            table: str | None = None
            for line in lines:
                text = line.strip()
                if header := _TOML_TABLE.match(text):
                    table = header.group(1)
                elif table is not None:
                    if not _TOOL_TABLE.match(table) or _BUILD_TOOL.match(table):
                        return False
                elif text and not text.startswith("#") and not _PATH_ENTRY.match(text):
                    return False
            if table is not None and (not _TOOL_TABLE.match(table) or _BUILD_TOOL.match(table)):
                return False
    return True


def _rewrites(line: str, before: list[str], similarity: float) -> bool:
    """`line` rewrites one of `before` (the file's removed lines of the same kind, which it
    uses up): the check or the skip existed before the PR, only its wording changed."""
    key = _key(line)
    for i, old in enumerate(before):
        if similarity <= 0 or SequenceMatcher(None, _key(old), key).ratio() >= similarity:
            del before[i]
            return True
    return False


def _switched_off(path: str, diff: Diff, view: _View) -> list[Evidence]:
    """The file's new skip/xfail lines; a skip moved, or rewritten in place (its reason or
    version changed), was off before the PR."""
    before = [line for line in diff.removed if disables_test(line)]
    return [
        Evidence(path=path, line=line.strip()[:200], numbers={"disabled": 1})
        for line in diff.added
        if disables_test(line) and not view.moved[_key(line)] and not _rewrites(line, before, 0)
    ]


def _only_disables(diff: Diff | None) -> bool:
    """The file's new lines only switch tests off (its removed lines may be anything)."""
    if diff is None:
        return False
    added = [line for line in diff.added if line.strip()]
    return bool(added) and all(disables_test(line) for line in added)


def _dropped_tests(pr: MergedPR, view: _View, is_test: Callable[[str], bool]) -> dict[int, int]:
    """Per test file (its index), the tests the PR drops and re-adds nowhere, under another
    name or in another file (facts/renamed_tests.py)."""
    files = [
        TestFile(i, f.status == "added", tuple(diff.removed), tuple(diff.added))
        for i, f in view.files(pr)
        if is_test(f.path) and (diff := view.diff(i)) is not None and diff.removed_known
    ]
    return dropped_tests(files, view.defined)


def _test_names(lines: Iterable[str]) -> list[str]:
    return [
        m.group(1) or m.group(2)
        for line in lines
        if ("test" in line or "Test" in line) and (m := _TEST_DEF.match(line))
    ]


def _unmatched(lines: Iterable[str], pool: Counter[str]) -> int:
    """How many non-blank lines are not in `pool` (which they use up)."""
    count = 0
    for line in lines:
        key = _key(line)
        if not key:
            continue
        if pool[key] > 0:
            pool[key] -= 1
        else:
            count += 1
    return count


def assess(pr: MergedPR, repo: RepoConfig) -> list[RiskTag]:
    """The risk tags of one merged PR, in report order (possibly none)."""
    return _Rules(repo).assess(pr)


def assess_all(prs: Iterable[MergedPR], repo: RepoConfig) -> dict[int, list[RiskTag]]:
    rules = _Rules(repo)
    return {pr.number: rules.assess(pr) for pr in prs}


def assess_week(
    prs: Iterable[MergedPR], repo: RepoConfig
) -> tuple[dict[int, list[RiskTag]], dict[int, Reformatted]]:
    """Each PR's tags, and how much of it only re-formats code (read once for both)."""
    rules = _Rules(repo)
    tags = {pr.number: rules.assess(pr) for pr in prs}
    return tags, rules.reformatted


def risk_score(tags: Sequence[RiskTag]) -> float:
    return round(sum(t.weight for t in tags), 2)
