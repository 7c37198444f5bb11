"""Which tests a PR drops, once the ones it re-adds elsewhere are matched: a test renamed, moved
to another file, or turned into cases of a parametrized test is not lost.

The risk rule `tests_removed` (facts/risk.py) counts, per test file, the test cases whose
definitions the PR removes and does not define again anywhere. Before calling those lost, each
is matched against the tests the PR defines anew:

- in its own file, any new test takes the place of a dropped one (a rewrite renames tests);
- a new parametrized test takes the place of every dropped test of its file whose name holds
  its own (`test_x_eager_mode` and `test_x_aclgraph_mode` become cases of `test_x`);
- in another file, a new test takes the place of a dropped one when their names are alike
  (`test_dsa_cp_masks_padding` re-added as `test_sfa_dsa_cp_masks_padding`) or their bodies
  are (the same steps under a new name), as long as that file has new tests to spare;
- a file the PR creates gives its tests to any dropped one (tests moved to a new module).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher

_TEST_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+(test\w*)\s*\(|^(\s*)class\s+(Test\w*)\b")
NAME_SIMILARITY = 0.8
BODY_SIMILARITY = 0.6
# Body lines compared at most: enough to recognise a test, bounded for generated ones.
_BODY_LINES = 80
_MIN_NAME = 6  # a name this short inside another is a coincidence, not a rename


@dataclass(frozen=True, slots=True)
class TestFile:
    """A test file's side of the PR: its removed and added lines (zero-context hunks)."""

    __test__ = False  # not a test case, whatever pytest makes of its name

    key: int
    created: bool
    removed: Sequence[str]
    added: Sequence[str]


@dataclass(slots=True)
class _Def:
    name: str
    body: tuple[str, ...]
    parametrized: bool
    key: int = 0
    used: bool = field(default=False)


def dropped_tests(files: Sequence[TestFile], defined: set[str]) -> dict[int, int]:
    """Per test file (its key), how many tests the PR drops and re-adds nowhere. `defined`:
    the test names the PR defines anywhere (a name still defined was moved, not dropped)."""
    gone: dict[int, list[_Def]] = {}
    spare: dict[int, int] = {}
    pool: list[_Def] = []
    for f in files:
        removed = _defs(f.removed, f.key)
        had = {d.name for d in removed}
        lost = [d for d in removed if d.name not in defined]
        fresh = [d for d in _defs(f.added, f.key) if d.name not in had]
        for case in (d for d in fresh if d.parametrized):
            kept = [d for d in lost if not _contains(d.name, case.name)]
            case.used = len(kept) < len(lost)
            lost = kept
        fresh = [d for d in fresh if not d.used]
        gone[f.key] = lost
        spare[f.key] = len(fresh) - len(lost)
        pool += [d for d in fresh if f.created or spare[f.key] > 0]
    created = {f.key for f in files if f.created}
    out: dict[int, int] = {}
    for key, lost in gone.items():
        missing = -spare[key]
        for dropped in lost:
            if missing <= 0:
                break
            match = _match(dropped, pool, spare, created)
            if match is not None:
                if not match.parametrized:
                    match.used = True
                    spare[match.key] -= 1
                missing -= 1
        if missing > 0:
            out[key] = missing
    return out


def _match(
    dropped: _Def, pool: list[_Def], spare: dict[int, int], created: set[int]
) -> _Def | None:
    candidates = [
        d
        for d in pool
        if d.key != dropped.key and not d.used and (d.parametrized or spare[d.key] > 0)
    ]
    for found in candidates:
        if _alike_names(dropped.name, found.name) or (
            found.parametrized and _contains(dropped.name, found.name)
        ):
            return found
    for found in candidates:
        if not found.parametrized and _alike_bodies(dropped.body, found.body):
            return found
    # A new test module takes whatever was dropped: tests moved out of a file split.
    return next((d for d in candidates if d.key in created and not d.parametrized), None)


def _bare(name: str) -> str:
    return name.lower().removeprefix("test_").removeprefix("test")


def _contains(name: str, part: str) -> bool:
    """`name` holds `part` (a parametrized test's name in each of the tests it replaced)."""
    small = _bare(part)
    return len(small) >= _MIN_NAME and small in _bare(name)


def _alike_names(a: str, b: str) -> bool:
    x, y = _bare(a), _bare(b)
    if min(len(x), len(y)) >= _MIN_NAME and (x in y or y in x):
        return True
    matcher = SequenceMatcher(None, x, y)
    return (
        matcher.real_quick_ratio() >= NAME_SIMILARITY
        and matcher.quick_ratio() >= NAME_SIMILARITY
        and matcher.ratio() >= NAME_SIMILARITY
    )


def _alike_bodies(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    if len(a) < 3 or len(b) < 3:
        return False  # a few lines (`pass`, one call) say nothing about which test it is
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return (
        matcher.real_quick_ratio() >= BODY_SIMILARITY
        and matcher.quick_ratio() >= BODY_SIMILARITY
        and matcher.ratio() >= BODY_SIMILARITY
    )


def _defs(lines: Sequence[str], key: int) -> list[_Def]:
    """The test definitions among `lines`: name, body (whitespace-normalised lines, up to
    the next line indented no deeper than the definition) and whether it is parametrized."""
    out: list[_Def] = []
    for i, line in enumerate(lines):
        if "test" not in line.lower():
            continue
        m = _TEST_DEF.match(line)
        if m is None:
            continue
        indent = len(m.group(1) if m.group(1) is not None else m.group(3) or "")
        name = m.group(2) or m.group(4)
        body: list[str] = []
        for nxt in lines[i + 1 : i + 1 + _BODY_LINES]:
            stripped = nxt.strip()
            deeper = len(nxt) - len(nxt.lstrip()) > indent
            if stripped and not deeper and not stripped.startswith((")", "]")):
                break
            if stripped:
                body.append(" ".join(stripped.split()))
        # Its decorators: the lines above that start with `@`, or continue one (deeper, or
        # closing its brackets).
        above: list[str] = []
        for prev in reversed(lines[max(0, i - 12) : i]):
            stripped = prev.strip()
            if not (
                stripped.startswith(("@", ")", "]")) or len(prev) - len(prev.lstrip()) > indent
            ):
                break
            above.append(stripped)
        out.append(_Def(name, tuple(body), any("parametrize" in x for x in above), key))
    return out
