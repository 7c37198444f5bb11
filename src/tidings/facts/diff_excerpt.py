"""The changed lines a reviewer reads first: a PR's hunks, most telling first, within a budget.

A PR's diff is far larger than any prompt (a +4,510-line PR), and its first lines in file order
are the least telling: licence headers, imports, a test file's fixtures. A reviewer reads the
product code first (core paths before the rest), then other files (configs), then the tests,
then docs and CI, and sees both sides of a change: the removed lines say what was replaced
("changed X to Y", an assert dropped, code moved to another file). So:

- files are ranked: core code, code, other, tests, support (docs, examples, CI), then files a
  reviewer skims (prose, translations, lock files: `[repos.risk] large_ignore`); bigger changes
  first within a rank;
- within each hunk, blank lines, import lines (a parenthesised import's names too) and a
  leading comment block that holds a licence are left out; a hunk whose sides differ only in
  whitespace (reformatting) and a hunk with nothing left are skipped;
- the first hunk of every file is taken first, in rank order (a file the PR deletes after the
  others: the file list already says it went), then the files' further hunks, each hunk at
  most `HUNK_LINES` lines a side, until the character budget is spent;
- the result lists hunks in rank and file order, each naming its path, with its removed and
  added lines (common indentation removed, long lines cut).

Code lines are untrusted text wherever a card carries them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tidings.facts.patch import parse_patch
from tidings.facts.paths import PathKinds
from tidings.facts.risk import PRFile

HUNK_LINES = 12  # lines of one side of one hunk
CODE_LINE = 160  # characters of one code line
ENTRY_COST = 40  # characters of an entry's JSON beyond its path and lines
LINE_COST = 3  # characters of one line's JSON quoting and separator
MIN_ROOM = 60  # budget left that is not worth another entry

_COMMENT = re.compile(r"^\s*(?:#(?!\s*include\b)|//|/\*|\*|--|;|<!--)")
_LICENCE = re.compile(
    r"copyright|licen[cs]e|spdx-|all rights reserved|apache|\bmit\b|\bgpl\b|\bbsd\b",
    re.IGNORECASE,
)
_IMPORT = re.compile(
    r"^\s*(?:from\s+[\w.]+\s+import\b|import\s+[\w.{*\"']|#\s*include\b|use\s+[\w:]+.*;\s*$|"
    r"using\s+namespace\s+[\w:]+\s*;|"
    r"(?:const|let|var)\s+\w+\s*=\s*require\()"
)
_OPEN_PAREN = re.compile(r"^\s*from\s+[\w.]+\s+import\s*\(\s*(?:#.*)?$|^\s*import\s*\(\s*$")


@dataclass(frozen=True, slots=True)
class HunkExcerpt:
    path: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Candidate:
    rank: int
    deleted: bool  # a file the PR deletes: its lines say less than the call sites that changed
    file: int  # the file's place within its rank
    hunk: int  # the hunk's place within its file (after skipped ones)
    path: str
    removed: tuple[str, ...]
    added: tuple[str, ...]


def diff_excerpt(
    files: Sequence[PRFile], paths: PathKinds, budget: int, *, line_chars: int = CODE_LINE
) -> list[HunkExcerpt]:
    """The PR's most telling hunks within `budget` characters (see the module's doc)."""
    if budget < MIN_ROOM:
        return []
    ranked = sorted(
        (f for f in files if f.patch),
        key=lambda f: (file_rank(f.path, paths), f.status == "removed", -f.lines, f.path),
    )
    candidates: list[_Candidate] = []
    for k, f in enumerate(ranked):
        rank = file_rank(f.path, paths)
        for j, (removed, added) in enumerate(telling_hunks(f)):
            candidates.append(_Candidate(rank, f.status == "removed", k, j, f.path, removed, added))
    # First hunks of every file before any file's second one, a deleted file's after the
    # others'; ranks in order within each pass.
    order = sorted(candidates, key=lambda c: (c.hunk > 0, c.deleted, c.rank, c.hunk, c.file))
    left = budget
    taken: list[tuple[_Candidate, tuple[str, ...], tuple[str, ...]]] = []
    for c in order:
        if left < MIN_ROOM:
            break
        fitted = _fit(c, left, line_chars)
        if fitted is None:
            continue
        removed, added, cost = fitted
        taken.append((c, removed, added))
        left -= cost
    taken.sort(key=lambda t: (t[0].rank, t[0].file, t[0].hunk))
    return [HunkExcerpt(c.path, removed, added) for c, removed, added in taken]


def file_rank(path: str, paths: PathKinds) -> int:
    """0 core code, 1 code, 2 other, 3 tests, 4 support (docs, examples, CI), 5 skimmed."""
    if paths.matches("large_ignore", path):
        return 5
    kind = paths.kind(path)
    if kind == "code":
        return 0 if paths.is_core(path) else 1
    return {"other": 2, "test": 3, "support": 4}[kind]


def telling_hunks(f: PRFile) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The file's hunks as (removed, added) lines worth reading: no blank, import or licence
    lines, no whitespace-only change, no hunk left empty."""
    diff = parse_patch(f.patch)
    if diff is None:
        return []
    out: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for hunk in diff.hunks:
        if _squeezed(hunk.removed) == _squeezed(hunk.added):
            continue  # reformatting: the same code, spaced or wrapped differently
        removed, added = _readable(hunk.removed), _readable(hunk.added)
        if removed or added:
            out.append((removed, added))
    return out


def _squeezed(lines: Iterable[str]) -> str:
    return re.sub(r"\s+", "", "".join(lines))


def _readable(lines: Sequence[str]) -> tuple[str, ...]:
    """One side of a hunk without its licence header, imports and blank lines."""
    start = 0
    while start < len(lines) and (not lines[start].strip() or _COMMENT.match(lines[start])):
        start += 1
    if any(_LICENCE.search(x) for x in lines[:start]):
        lines = lines[start:]
    out: list[str] = []
    in_import = False
    for line in lines:
        if in_import:
            in_import = ")" not in line
            continue
        if _OPEN_PAREN.match(line):
            in_import = True
            continue
        if not line.strip() or _IMPORT.match(line):
            continue
        out.append(line)
    return tuple(out)


def _fit(
    c: _Candidate, room: int, line_chars: int
) -> tuple[tuple[str, ...], tuple[str, ...], int] | None:
    """The hunk's lines that fit `room` characters (at most HUNK_LINES a side, the longer side
    shortened first), and what they cost; None when not two lines fit (one, for a one-line
    change)."""
    removed = list(c.removed[:HUNK_LINES])
    added = list(c.added[:HUNK_LINES])
    removed, added = _dedent(removed, added)
    removed = [_short(x, line_chars) for x in removed]
    added = [_short(x, line_chars) for x in added]

    def cost() -> int:
        return (
            ENTRY_COST
            + len(c.path)
            + sum(len(x) + LINE_COST for x in removed)
            + sum(len(x) + LINE_COST for x in added)
        )

    wanted = min(len(removed) + len(added), 2)
    while (removed or added) and cost() > room:
        if len(added) >= len(removed):
            added.pop()
        else:
            removed.pop()
    if len(removed) + len(added) < wanted:
        return None  # one line of a longer change says too little to be worth its path
    return tuple(removed), tuple(added), cost()


def _dedent(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """Both sides without the indentation every line shares (it costs and says nothing)."""
    lines = [x.rstrip() for x in removed + added]
    indents = [len(x) - len(x.lstrip()) for x in lines if x.strip()]
    cut = min(indents, default=0)
    shorn = [x[cut:] for x in lines]
    return shorn[: len(removed)], shorn[len(removed) :]


def _short(line: str, limit: int) -> str:
    return line if len(line) <= limit else line[:limit] + " …"
