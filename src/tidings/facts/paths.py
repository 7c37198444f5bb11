"""What a repository's paths are: product code, tests, support files (docs, examples, CI) or
other, and which are core.

The globs come from the repository's config (`core_paths`, `test_paths`, and `[repos.risk]`'s
`support_paths`, `code_extensions`, `dependency_paths`, `security_paths`, `large_ignore`). The
risk rules (facts/risk.py) and the diff a PR card shows (facts/diff_excerpt.py) read paths the
same way through this one class.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from tidings.common.globs import compile_glob

if TYPE_CHECKING:  # config.py reads facts/risk.py, which reads this module
    from tidings.common.config import RepoConfig

PathKind = Literal["support", "test", "code", "other"]
GlobList = Literal[
    "support_paths",
    "test_paths",
    "core_paths",
    "dependency_paths",
    "security_paths",
    "large_ignore",
]


class PathKinds:
    """A repository's path classes, each glob list compiled once and each answer cached
    (a week's PRs share paths, and glob matching is what reading them costs)."""

    def __init__(self, repo: RepoConfig) -> None:
        cfg = repo.risk
        self.extensions = tuple(e.lower() for e in cfg.code_extensions)
        self._kinds: dict[str, PathKind] = {}
        self._matches: dict[tuple[str, str], bool] = {}
        # Each glob list as one regular expression: a week's files times 50 globs add up.
        self._lists: dict[str, re.Pattern[str] | None] = {
            name: _one_regex(patterns)
            for name, patterns in (
                ("support_paths", cfg.support_paths),
                ("test_paths", repo.test_paths),
                ("core_paths", repo.core_paths),
                ("dependency_paths", cfg.dependency_paths),
                ("security_paths", cfg.security_paths),
                ("large_ignore", cfg.large_ignore),
            )
        }

    def matches(self, globs: GlobList, path: str) -> bool:
        """`path` matches the glob list `globs`."""
        key = (globs, path)
        found = self._matches.get(key)
        if found is None:
            regex = self._lists[globs]
            found = self._matches[key] = regex is not None and regex.match(path) is not None
        return found

    def kind(self, path: str) -> PathKind:
        """The path's kind: support (examples, docs, CI), test, code (product) or other."""
        found = self._kinds.get(path)
        if found is None:
            if self.matches("support_paths", path):
                found = "support"
            elif self.matches("test_paths", path):
                found = "test"
            elif path.lower().endswith(self.extensions):
                found = "code"
            else:
                found = "other"
            self._kinds[path] = found
        return found

    def is_test(self, path: str) -> bool:
        return self.kind(path) == "test"

    def is_core(self, path: str) -> bool:
        return self.matches("core_paths", path)


def _one_regex(patterns: list[str]) -> re.Pattern[str] | None:
    if not patterns:
        return None
    return re.compile("|".join(f"(?:{compile_glob(p).pattern})" for p in patterns))
