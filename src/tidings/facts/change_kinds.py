"""What kind of change a merged PR is, and which part of the code it changes: from its title
tags, labels and files. The weekly report names both in its words (words/weekly.py `kind_*`,
`area_*`); the facts are here so every layer classifies a PR the same way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tidings.common.config import RepoConfig
from tidings.common.globs import any_match
from tidings.facts.reverts import is_revert
from tidings.facts.risk import MergedPR
from tidings.facts.trends import topic_tags
from tidings.facts.weekly import is_plain_directory, main_directory, source_directory

ChangeKind = Literal[
    "revert",
    "format",
    "fix",
    "feature",
    "refactor",
    "perf",
    "doc",
    "test",
    "ci",
    "misc",
    "deps",
    "code",
]

# Title tags and labels naming the kind of change.
TAGGED_KINDS: dict[str, ChangeKind] = {
    "bugfix": "fix", "bug": "fix", "fix": "fix", "hotfix": "fix", "bug fix": "fix",
    "feature": "feature", "feat": "feature", "new feature": "feature",
    "enhancement": "feature", "refactor": "refactor", "refactoring": "refactor",
    "perf": "perf", "performance": "perf", "doc": "doc", "docs": "doc",
    "documentation": "doc", "test": "test", "tests": "test", "testing": "test", "ut": "test",
    "e2e": "test", "ci": "ci", "ci/build": "ci", "build": "ci", "misc": "misc",
    "chore": "misc", "deps": "deps", "dependencies": "deps", "revert": "revert",
}  # fmt: skip

_DOC_DIRS = {"docs", "doc"}
_CI_DIRS = {".github", ".ci", "ci"}
_TEST_DIRS = {"tests", "test"}


def change_kind(
    pr: MergedPR, test_paths: Sequence[str], *, reverts: bool = False, sweep: bool = False
) -> ChangeKind:
    """What kind of change a PR is, from its title tags and labels, else its files
    (`test_paths`: the repository's globs for tests). `reverts`: the store knows it reverts
    a PR (WeekFacts.reverts); `sweep`: most of its lines only re-format code
    (WeekFacts.sweep), which makes it a formatting change whatever its tags."""
    if reverts or is_revert(pr.title, pr.body):
        return "revert"
    if sweep:
        return "format"
    for name in [*topic_tags(pr.title), *pr.labels]:
        kind = TAGGED_KINDS.get(name.strip().lower())
        if kind is not None:
            return kind
    dirs = {f.path.split("/", 1)[0].lower() for f in pr.files}
    if dirs and dirs <= _DOC_DIRS:
        return "doc"
    if pr.files and all(any_match(test_paths, f.path) for f in pr.files):
        return "test"
    if dirs and dirs <= _CI_DIRS:
        return "ci"
    return "code"


@dataclass(frozen=True)
class Area:
    """Where a PR works: tests, docs or CI only when that is all it changes, else a product
    directory (`name`, the package's own folder left out)."""

    kind: Literal["tests", "docs", "ci", "dir"]
    name: str = ""


def change_area(pr: MergedPR, repo: RepoConfig) -> Area | None:
    """The product directory most of a PR changes; tests, docs or CI only when that is all;
    None when it changes only the root."""
    name = source_directory(pr, repo) or main_directory(pr, repo)
    if name is None or name == ".":
        return None
    top = name.split("/", 1)[0].lower()
    if is_plain_directory(name):
        if top in _TEST_DIRS:
            return Area("tests")
        if top in _DOC_DIRS:
            return Area("docs")
        if top in _CI_DIRS:
            return Area("ci")
    # The package's own folder says nothing: vllm_ascend/attention reads as attention.
    package = repo.name.split("/", 1)[1].replace("-", "_").lower()
    if "/" in name and top in (package, "src", "lib"):
        name = name.split("/", 1)[1]
    return Area("dir", name)
