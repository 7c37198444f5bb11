"""A file's patch read as hunks of removed and added lines: what the risk rules
(facts/risk.py) and a card's diff excerpts (facts/diff_excerpt.py) read of a PR's change.

A patch comes in two forms (risk.PRFile.patch): unified hunks (`@@` headers, `-` and `+` lines,
with or without context), or, as older git syncs stored it, the added lines alone. Both parse to
one `Diff`, so a rule pairing a hunk's removed and added lines reads either source alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@")


@dataclass(frozen=True, slots=True)
class Hunk:
    removed: tuple[str, ...]
    added: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Diff:
    hunks: tuple[Hunk, ...]
    removed_known: bool  # False: the patch held added lines only

    @property
    def added(self) -> Iterable[str]:
        return (line for h in self.hunks for line in h.added)

    @property
    def removed(self) -> Iterable[str]:
        return (line for h in self.hunks for line in h.removed)


def parse_patch(patch: str | None) -> Diff | None:
    """A file's patch as hunks of removed and added lines (see PRFile.patch)."""
    if patch is None:
        return None
    lines = patch.split("\n")
    if not (_HUNK.match(lines[0]) or lines[0].startswith("diff --git ")):
        return Diff((Hunk((), tuple(lines)),), removed_known=False)
    hunks: list[Hunk] = []
    removed: list[str] = []
    added: list[str] = []
    started = False
    for line in lines:
        if line.startswith("@@") and _HUNK.match(line):
            if removed or added:
                hunks.append(Hunk(tuple(removed), tuple(added)))
            removed, added, started = [], [], True
        elif not started:
            continue  # `diff --git`, `---`, `+++` headers before the first hunk
        elif line.startswith("+"):
            added.append(line[1:])
        elif line.startswith("-"):
            removed.append(line[1:])
        elif not line.startswith("\\") and (removed or added):
            # A context line (a patch with context, as GitHub's is) ends a run of changes:
            # the hunk git's zero-context diff would have printed, so the rules that pair a
            # hunk's removed and added lines read both forms alike.
            hunks.append(Hunk(tuple(removed), tuple(added)))
            removed, added = [], []
    if removed or added:
        hunks.append(Hunk(tuple(removed), tuple(added)))
    return Diff(tuple(hunks), removed_known=True)
