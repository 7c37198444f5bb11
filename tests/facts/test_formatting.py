"""Which hunks only re-format code (facts/formatting.py): what ruff format and its linter's
fixes do is netted out, any change to what the code means is not."""

from __future__ import annotations

import pytest

from tidings.facts.formatting import Span, formatting_spans


def same(removed: list[str], added: list[str], path: str = "pkg/mod.py") -> bool:
    return formatting_spans(path, [(removed, added)]) == [Span(0, 0)]


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        # A call re-wrapped, with the magic trailing comma ruff adds.
        (
            ["    out = torch.empty((n, ),", "                      dtype=torch.float)"],
            ["    out = torch.empty(", "        (n,),", "        dtype=torch.float,", "    )"],
        ),
        # Quotes made double, a string's escaped quotes with them.
        (["x = 'a'", 'y = "say \\"hi\\""'], ['x = "a"', "y = 'say \"hi\"'"]),
        # An assert's message wrapped in parentheses.
        (
            ['    assert a == b, f"a={a} must equal b={b}"'],
            ["    assert a == b, (", '        f"a={a} must equal b={b}"', "    )"],
        ),
        # Implicitly concatenated strings joined, a backslash continuation dropped.
        (
            ['    raise ValueError("no such "', '                     f"mode {m}")'],
            ['    raise ValueError(f"no such mode {m}")'],
        ),
        (["    if a or \\", "        b:"], ["    if a or b:"]),
        # Imports joined, type hints in pyupgrade's spelling, comments re-wrapped.
        (
            ["from x import (a,", "               b)"],
            ["from x import a, b"],
        ),
        (
            ["def f(a: Optional[int], b: Union[str, List[int]]) -> Dict[str, Any]:"],
            ["def f(a: int | None, b: str | list[int]) -> dict[str, Any]:"],
        ),
        (
            ["    x = 1  # a long comment that ran past the line"],
            ["    # a long comment that", "    # ran past the line", "    x = 1"],
        ),
        # A statement-level tuple in parentheses.
        (["    return (a, b)"], ["    return a, b"]),
    ],
)
def test_what_ruff_format_does_is_formatting(removed: list[str], added: list[str]) -> None:
    assert same(removed, added)


@pytest.mark.parametrize(
    ("removed", "added"),
    [
        (["    return x"], ["return x"]),  # dedented out of its block
        (["y = (a + b) * c"], ["y = a + (b * c)"]),
        (["if not (a and b):"], ["if not a and b:"]),
        (["t = (x,)"], ["t = (x)"]),  # a one-element tuple is no longer a tuple
        (["f(a=(1, 2))"], ["f(a=1, 2)"]),
        (['msg = "a b"'], ['msg = "ab"']),  # whitespace inside a string is its text
        (["x = 1"], ["x = 2"]),
        (["assert x > 0"], ["assert x >= 0"]),
    ],
)
def test_a_change_of_meaning_is_not_formatting(removed: list[str], added: list[str]) -> None:
    assert not same(removed, added)


def test_a_statement_split_by_a_kept_line_matches_over_its_hunks() -> None:
    # ruff wrapped the message in parentheses; git kept its line in between.
    hunks = [(["    assert ok, \\"], ["    assert ok, ("]), ([], ["    )"])]
    assert formatting_spans("m.py", hunks) == [Span(0, 1)]


def test_code_moved_past_other_lines_is_no_formatting() -> None:
    # The same line removed above and added below an unchanged one reorders the code.
    hunks = [(["x = compute()"], []), ([], ["x = compute()"])]
    assert formatting_spans("m.py", hunks) == []


def test_a_hunk_inside_brackets_keeps_its_continuation_indentation_free() -> None:
    # The `def f(` line was kept: the arguments' indentation is a continuation's.
    removed = ["        a: int,", "        b: Optional[str] = None):", "    return a"]
    added = ["    a: int,", "    b: str | None = None,", "):", "    return a"]
    assert same(removed, added)


def test_a_hunk_inside_a_call_re_wraps_a_conditional_expression() -> None:
    # The call's first line was kept and its closing line too: only the continuation is seen.
    removed = ["            output=output", "            if self.ready", "            else None,"]
    assert same(removed, ["            output=output if self.ready else None,"])
    # A statement's `if` keeps its indentation, however its condition is wrapped.
    assert not same(["    if not (a", "            and b):"], ["if not (a and b):"])


def test_blank_lines_and_free_form_files() -> None:
    assert formatting_spans("m.py", [([], ["", ""])]) == [Span(0, 0)]
    cpp = ["int f(int a, int b) {", "  return a + b;", "}"]
    assert same(["int f(int a,int b){return a+b;}"], cpp, "k.cpp")
    # YAML's indentation is its structure: only trailing spaces and blank lines are free.
    assert same(["key: value   "], ["key: value"], "ci.yaml")
    assert not same(["  key: value"], ["key: value"], "ci.yaml")


def test_a_swept_file_s_import_fixes_and_split_statements_are_the_sweep_s() -> None:
    moved_import = (["from typing import Optional", ""], [])
    # git kept a lone `)` that closed the first call before and closes the second after.
    split = (
        ["    t = torch.empty((n, ),", "                    pin_memory=True)", "    u = t.numpy("],
        ["    t = torch.empty((n,), pin_memory=True"],
    )
    closing = ([], ["    u = t.numpy()"])
    hunks = [moved_import, split, closing]
    assert formatting_spans("m.py", hunks) == []
    assert formatting_spans("m.py", hunks, swept=True) == [Span(0, 0), Span(1, 2)]
    # Even in a sweep, code is no import and a changed call is no re-wrap.
    assert formatting_spans("m.py", [(["import os"], ["import os", "x = 1"])], swept=True) == []
    changed = (["    t = f(a,", "          b)"], ["    t = f(a, c)"])
    assert formatting_spans("m.py", [changed], swept=True) == []
