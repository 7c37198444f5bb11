"""Which hunks of a diff only re-format code: the removed and added text say the same thing.

A formatter sweep ("Convert `vllm_ascend/` to ruff format") rewrites thousands of lines and
changes nothing: read as a change it fires every size, test and assert rule. So the risk rules
(facts/risk.py) net such hunks out before any rule reads the PR, and the reports say a PR is a
formatting change where most of its lines are.

What counts as formatting only is what a formatter sweep (ruff format with its linter's
fixes, black, clang-format) does without changing what the code runs:

- whitespace and line breaks, except where they carry meaning: in Python the indentation of
  a statement's first line (a dedent moves code out of a block), in YAML and other
  indentation-sensitive or line-oriented files any change but trailing spaces and blank lines;
- in Python: quote style (and the escapes it needs), string prefix case, a trailing comma
  before a closing bracket (not a one-element tuple's), redundant parentheses around a whole
  expression (after `=`, `return`, `assert`, `if`, `import`, `,`, … up to the end of the
  line, a comma, a colon or a closing bracket: a tuple only where a bare one may stand),
  implicitly concatenated strings joined, a docstring re-wrapped, the case of a number's
  letters, comments (no rule reads them), and the type-hint spellings `ruff check --fix`
  writes (`Optional[X]` as `X | None`, `Union[A, B]` as `A | B`, `List` as `list`);
- in C-family, JSON and TOML files: any whitespace (they are free-form).

A change to the words of a (one-line) string, to an operator or a name, or to where a
parenthesis sits in an expression (`(a + b) * c` against `a + (b * c)`, `not (a and b)`
against `not a and b`) is a change. The check is per hunk, and over a few neighbouring hunks
together: a re-wrapped statement may keep one of its lines (a lone `)`), which splits it into
hunks that only match as a whole; code removed in one hunk and added in the next is moved,
not re-formatted. In a PR or file a formatter swept, the rest is read leniently
(`lenient_spans`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

# Hunks read together at most: a re-wrapped call split by the lines it kept.
WINDOW = 6
# A file whose hunks are this share formatting only was swept by a formatter.
SWEPT = 0.8

_FREE_FORM = (
    ".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".cu", ".cuh", ".java", ".js", ".ts",
    ".json", ".toml", ".cmake", ".proto",
)  # fmt: skip
_PYTHON = (".py", ".pyi")

# Python tokens: strings (prefix, triple or single quotes), comments, numbers, names, the
# `\` line join, and single characters (operators, brackets). Whitespace falls between them.
_TOKEN = re.compile(
    # The common tokens first: whitespace, then a name that is no string's prefix.
    r"(?P<ws>[ \t\f\r]+)"
    r"|(?P<name>[^\W\d]\w*)(?![\"'])"
    r"|(?P<nl>\n)"
    r"""|(?P<str>(?:[rRbBuUfF]{1,2})?(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'))"""
    r"|(?P<comment>\#[^\n]*)"
    r"|(?P<num>\.?\d[\w.]*)"
    r"|(?P<word>\w+)"
    r"|(?P<join>\\[ \t]*(?:\n|\Z))"
    r"|(?P<op>\*\*=?|//=?|->|:=|[-+*/%@&|^<>!=]=|<<=?|>>=?|\S)"
)
_QUOTES = '"f'  # how a normalised one-line string starts
_OPEN, _CLOSE = "([{", ")]}"
# Where a parenthesised expression fills a whole slot: after these, parentheses group nothing.
# (Not after `not`, `and`, `in`, `is`: `not (a and b)` is not `not a and b`.)
_AUGMENTED = ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "|=", "&=", "^=", "@=", ">>=", "<<=")
_SLOT_OPENERS = frozenset(
    ["=", "return", "assert", "if", "import", "elif", "while", "yield", "del", "else", ":", ",",
     "(", "with", *_AUGMENTED]
)  # fmt: skip
# A tuple in parentheses is the same tuple without them only where a bare tuple may stand:
# a statement's right-hand side (`f(a=(1, 2))` is not `f(a=1, 2)`).
# (`with (a(), b()):` holds two context managers either way.)
_TUPLE_SLOTS = frozenset(["=", "return", "yield", "del", "import", "with", *_AUGMENTED])
# What may follow a parenthesised expression that fills its slot.
_SLOT_ENDS = frozenset([",", ")", "]", "}", ":"])
_BUILTIN_GENERICS = {
    "List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set", "FrozenSet": "frozenset",
    "Type": "type",
}  # fmt: skip
_WORD = re.compile(r"\w+")
# What hint spellings add or drop, and string prefixes (a joined f-string moves its `f`).
_HINT_WORDS = frozenset(["optional", "union", "none", "f", "r", "b", "u", "rb", "br", "fr", "rf"])
_CONTINUING_OPS = frozenset(
    ["==", "!=", "<", ">", "<=", ">=", "+", "*", "/", "//", "%", "|", "&", "^", ".", "@", "**"]
)
# Whole import statements, one after another: `import x`, `from x import a, b`, or
# `from x import (` with its names and closing bracket on the lines after it.
_IMPORTS = re.compile(
    r"(?:[ \t]*(?:from[ \t]+\S+[ \t]+)?import[ \t]+(?:\([\w\s,.]*\)|[^\n(]*)[ \t]*(?:\n|\Z))*"
)
_MARK = "\0"  # a logical line's start in Python, followed by its indentation
_PUNCTUATION = "()[]{},\\ \t"  # what a hunk that only closes or splits a statement holds


@dataclass(frozen=True, slots=True)
class Span:
    """Hunks `first` to `last` of a file (inclusive) only re-format what they replace."""

    first: int
    last: int


def formatting_spans(
    path: str, hunks: Sequence[tuple[Sequence[str], Sequence[str]]], *, swept: bool = False
) -> list[Span]:
    """The runs of a file's hunks (removed lines, added lines) that change only formatting.

    In a Python file a formatter swept (`swept`: its PR mostly re-formats; or most of the
    file's own hunks do) the rest is read as the sweep's too where it can be
    (`lenient_spans`)."""
    spans = _strict_spans(path, hunks)
    covered = sum(span.last - span.first + 1 for span in spans)
    if not swept and (covered < SWEPT * len(hunks) or len(hunks) < 5):
        return spans
    inside = {k for span in spans for k in range(span.first, span.last + 1)}
    return sorted(spans + lenient_spans(path, hunks, inside), key=lambda span: span.first)


def lenient_spans(
    path: str, hunks: Sequence[tuple[Sequence[str], Sequence[str]]], taken: set[int]
) -> list[Span]:
    """The hunks of a swept Python file, not in `taken`, that a formatter's pass explains
    once the file is known to be swept: a hunk whose tokens match with indentation and
    brackets let go (git cut it out of a statement whose first or last line it kept), or
    that only adds, drops or re-orders imports (the linter's import fixes)."""
    if not path.lower().endswith(_PYTHON):
        return []
    out: list[Span] = []
    k = 0
    while k < len(hunks):
        if k in taken:
            k += 1
        elif _swept(hunks[k]):
            out.append(Span(k, k))
            k += 1
        elif (
            k + 1 < len(hunks) and k + 1 not in taken and _swept(_join_two(hunks[k], hunks[k + 1]))
        ):
            out.append(Span(k, k + 1))  # a statement's closing line kept between the two
            k += 2
        else:
            k += 1
    return out


def _join_two(
    a: tuple[Sequence[str], Sequence[str]], b: tuple[Sequence[str], Sequence[str]]
) -> tuple[list[str], list[str]]:
    return [*a[0], *b[0]], [*a[1], *b[1]]


def _swept(hunk: tuple[Sequence[str], Sequence[str]]) -> bool:
    removed, added = hunk
    if _imports_only(removed) and _imports_only(added) and (removed or added):
        return True
    if not (removed and added) or _words(removed) != _words(added):
        return False
    return _loose(removed) == _loose(added)


def _imports_only(lines: Sequence[str]) -> bool:
    """The lines are whole import statements (or blank)."""
    return bool(_IMPORTS.fullmatch("\n".join(line for line in lines if line.strip())))


def _loose(lines: Sequence[str]) -> list[str]:
    """python_form without statements' indentation, brackets, and the commas before a
    closing bracket or the hunk's end."""
    tokens = [t for t in python_form(lines) if not t.startswith(_MARK)]
    out: list[str] = []
    for k, token in enumerate(tokens):
        after = tokens[k + 1] if k + 1 < len(tokens) else ")"
        if token in _OPEN or token in _CLOSE or (token == "," and after in _CLOSE):
            continue
        out.append(token)
    return out


def _strict_spans(path: str, hunks: Sequence[tuple[Sequence[str], Sequence[str]]]) -> list[Span]:
    norm = _normalizer(path)
    words: dict[int, tuple[list[str], list[str]]] = {}  # read only where a match may be
    out: list[Span] = []
    i = 0
    while i < len(hunks):
        found = None
        if not (hunks[i][0] and hunks[i][1]) and _blank(hunks[i]):
            found = i  # blank lines added or removed
        removed: list[str] = []
        added: list[str] = []
        words_r: list[str] = []
        words_a: list[str] = []
        for j in range(i, min(i + WINDOW, len(hunks))):
            if found is not None or not _joinable(hunks[j]):
                break
            removed += hunks[j][0]
            added += hunks[j][1]
            if j not in words:
                words[j] = (_words(hunks[j][0]), _words(hunks[j][1]))
            words_r += words[j][0]
            words_a += words[j][1]
            if (
                removed
                and added
                and words_r == words_a
                and norm(removed, j > i) == norm(added, j > i)
            ):
                found = j
        if found is None:
            i += 1
        else:
            out.append(Span(i, found))
            i = found + 1
    return out


def _words(lines: Sequence[str]) -> list[str]:
    """The words outside comments, as a formatter leaves them: the same on both sides of a
    formatting-only change, and cheap to compare before the text is tokenised."""
    text = "\n".join(line.split("#", 1)[0] for line in lines).lower()
    return [w for w in _WORD.findall(text) if w not in _HINT_WORDS]


def _joinable(hunk: tuple[Sequence[str], Sequence[str]]) -> bool:
    """A hunk that may be part of a statement split by the lines it kept: it replaces lines,
    or only adds or removes brackets and commas. (Code removed in one hunk and added in the
    next was moved past the lines between: that reorders, it does not re-format.)"""
    removed, added = hunk
    return bool(removed and added) or all(
        not line.strip(_PUNCTUATION) for line in (*removed, *added)
    )


def _blank(hunk: tuple[Sequence[str], Sequence[str]]) -> bool:
    return not any(line.strip() for line in (*hunk[0], *hunk[1]))


def _normalizer(path: str) -> Callable[[Sequence[str], bool], object]:
    lower = path.lower()
    if lower.endswith(_PYTHON):
        return python_form
    if lower.endswith(_FREE_FORM):
        return free_form
    return line_form


def free_form(lines: Sequence[str], joined: bool = False) -> str:
    return "".join("".join(lines).split())


def line_form(lines: Sequence[str], joined: bool = False) -> tuple[str, ...]:
    """Indentation-sensitive or line-oriented text: only trailing spaces and blank lines."""
    return tuple(s for line in lines if (s := line.rstrip()))


def python_form(lines: Sequence[str], joined: bool = False) -> tuple[str, ...]:
    """Python text as a formatter cannot change it (the module's docstring says what that is).
    `joined`: the lines of several hunks, without the lines kept between them, so a pair of
    parentheses that held only kept lines looks empty."""
    tokens = _tokens("\n".join(lines))
    tokens = _drop_parens(_drop_trailing_commas(_annotations(tokens)), joined)
    return tuple(_join_strings(tokens))


def _tokens(text: str) -> list[str]:
    """Normalised tokens, with a mark and the indentation before each logical line's first.

    A hunk may start inside brackets (a call's arguments re-indented under a kept `def f(`):
    its lines are continuations until the depth falls below where it started, so a line
    starts a statement only at the lowest depth the hunk reaches."""
    lexed: list[tuple[str, str, int, bool]] = []  # kind, text, offset, starts a line
    depth = lowest = 0
    line_start = True
    starts: list[int] = []  # the depth at each line's first token
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup or "", m.group()
        if kind == "ws":
            continue
        if kind == "join":
            line_start = False  # the next line continues this one
            continue
        if kind == "nl":
            line_start = True
            continue
        if kind == "comment":
            continue  # no rule reads comments; formatter sweeps re-wrap them
        if line_start:
            starts.append(depth)
        lexed.append((kind, value, m.start(), line_start))
        line_start = False
        if kind == "op" and value in _OPEN:
            depth += 1
        elif kind == "op" and value in _CLOSE:
            depth -= 1
            lowest = min(lowest, depth)
    out: list[str] = []
    line = 0
    for k, (kind, value, offset, first) in enumerate(lexed):
        if first:
            if starts[line] == lowest and not _continues(lexed, k):
                start = text.rfind("\n", 0, offset) + 1
                out.append(_MARK + text[start:offset].expandtabs(4))
            line += 1
        if kind == "str":
            out.append(_string(value))
        elif kind == "num":
            out.append(value.lower())
        else:
            out.append(value)
    return out


def _continues(lexed: list[tuple[str, str, int, bool]], k: int) -> bool:
    """The line starting at token k continues an expression (a hunk may start inside
    brackets it never closes): it opens with a binary operator, `.`, or a conditional's or
    comprehension's `if`/`else`/`for` that no colon ends."""
    kind, value = lexed[k][0], lexed[k][1]
    if kind == "op" and value in _CONTINUING_OPS:
        return True
    if value in ("and", "or", "in", "is"):
        return True
    if value in ("if", "else", "for"):
        # A statement's head ends its logical line (brackets and backslash joins included)
        # with a colon.
        depth, last = 0, value
        for kind_j, token, _, first in lexed[k + 1 :]:
            if first and depth <= 0:
                break
            if kind_j == "op" and token in _OPEN:
                depth += 1
            elif kind_j == "op" and token in _CLOSE:
                depth -= 1
            last = token
        return last != ":"
    return False


def _string(token: str) -> str:
    """A string literal with its prefix lower-cased and its quotes made double where the
    content allows (as ruff and black write them); a docstring's trailing spaces dropped."""
    quote = token.lstrip("rRbBuUfF")
    prefix = token[: len(token) - len(quote)].lower().replace("u", "")
    if quote.startswith(("'''", '"""')):
        return f'{prefix}"""{" ".join(quote[3:-3].split())}"""'
    body = quote[1:-1]
    if "r" not in prefix:  # the quote a formatter picks changes which quotes are escaped
        body = body.replace('\\"', '"').replace("\\'", "'")
    return f'{prefix}"{body}"'


def _annotations(tokens: list[str]) -> list[str]:
    """Type hints in the spelling `ruff check --fix` (pyupgrade) writes: `Optional[X]` as
    `X | None`, `Union[A, B]` as `A | B`, `List[X]` as `list[X]`. The hint means the same,
    and formatter sweeps apply the linter's fixes with the formatter's."""
    out = [_BUILTIN_GENERICS.get(t, t) if i + 1 < len(tokens) and tokens[i + 1] == "[" else t
           for i, t in enumerate(tokens)]  # fmt: skip
    while True:
        at = next(
            (i for i, t in enumerate(out[:-1]) if t in ("Optional", "Union") and out[i + 1] == "["),
            None,
        )
        if at is None:
            return out
        close = _closing(out, at + 1)
        if close is None:
            return out
        inner = [t for t in out[at + 2 : close] if not t.startswith(_MARK)]
        if inner and inner[-1] == ",":
            inner.pop()
        hint = [*inner, "|", "None"] if out[at] == "Optional" else _split_top(inner)
        out = out[:at] + hint + out[close + 1 :]


def _closing(tokens: list[str], opened: int) -> int | None:
    depth = 0
    for i in range(opened, len(tokens)):
        if tokens[i] in _OPEN:
            depth += 1
        elif tokens[i] in _CLOSE:
            depth -= 1
            if depth == 0:
                return i
    return None


def _split_top(inner: list[str]) -> list[str]:
    """`A, B[C, D]` as `A | B[C, D]`."""
    depth = 0
    out: list[str] = []
    for token in inner:
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        out.append("|" if token == "," and depth == 0 else token)
    return out


def _drop_trailing_commas(tokens: list[str]) -> list[str]:
    """A comma before a closing bracket says nothing, except in a one-element tuple."""
    out: list[str] = []
    stack: list[tuple[int, int]] = []  # per open bracket: its index in out, commas in it
    for token in tokens:
        if token.startswith(_MARK) and stack:
            continue  # inside brackets a line's start is a continuation's
        if token in _OPEN:
            stack.append((len(out), 0))
        elif token in _CLOSE:
            where, commas = stack.pop() if stack else (-1, 0)
            if out and out[-1] == ",":
                tuple_paren = token == ")" and where >= 0 and not _is_call(out, where)
                if not (tuple_paren and commas == 1):
                    out.pop()
        elif token == "," and stack:
            where, commas = stack[-1]
            stack[-1] = (where, commas + 1)
        out.append(token)
    return out


def _is_call(out: list[str], where: int) -> bool:
    before = out[where - 1] if where > 0 else ""
    return bool(before) and (before in _CLOSE or (before[0].isalnum() or before[0] == "_"))


def _drop_parens(tokens: list[str], joined: bool) -> list[str]:
    """Parentheses around a whole expression slot (see the module's docstring), innermost
    first, until none is left."""
    while True:
        pair = _redundant_pair(tokens, joined)
        if pair is None:
            return tokens
        opened, closed = pair
        tokens = tokens[:opened] + tokens[opened + 1 : closed] + tokens[closed + 1 :]


def _redundant_pair(tokens: list[str], joined: bool) -> tuple[int, int] | None:
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token in _OPEN:
            stack.append(i)
        elif token in _CLOSE and stack:
            opened = stack.pop()
            if (
                token == ")"
                and tokens[opened] == "("
                and _slot(tokens, opened, i, len(stack), joined)
            ):
                return opened, i
    return None


def _slot(tokens: list[str], opened: int, closed: int, depth: int, joined: bool) -> bool:
    before = tokens[opened - 1] if opened > 0 else _MARK
    if before.startswith(_MARK):
        return False  # `(a)` opening a line may continue the one before
    if before not in _SLOT_OPENERS:
        return False
    after = tokens[closed + 1] if closed + 1 < len(tokens) else _MARK
    if not (after.startswith(_MARK) or after in _SLOT_ENDS):
        return False
    if before == "(" and after != ")":
        return False
    inner = tokens[opened + 1 : closed]
    if not inner:
        return joined  # `()` is an empty tuple, unless it held lines kept between hunks
    if _top_level_comma(inner) and (depth or before not in _TUPLE_SLOTS):
        return False
    return not any(t in ("yield", "lambda", "for", ":=", "await") for t in inner)


def _top_level_comma(inner: list[str]) -> bool:
    depth = 0
    for token in inner:
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        elif token == "," and depth == 0:
            return True
    return False


def _join_strings(tokens: list[str]) -> list[str]:
    """Adjacent string literals as one, as a formatter joins or splits them: plain with plain,
    f-string with f-string or with a plain one that has no braces."""
    out: list[str] = []
    for token in tokens:
        joined = None
        if out and token[0] in _QUOTES and out[-1][0] in _QUOTES:
            joined = _join(out[-1], token)
        if joined is None:
            out.append(token)
        else:
            out[-1] = joined
    return out


def _join(left: str, right: str) -> str | None:
    a, b = _split_string(left), _split_string(right)
    if a is None or b is None:
        return None
    if a[0] == b[0] or (a[0] + b[0] == "f" and "{" not in (b[1] if a[0] else a[1])):
        return f'{a[0] or b[0]}"{a[1]}{b[1]}"'
    return None


def _split_string(token: str) -> tuple[str, str] | None:
    """A one-line literal's prefix ("" or "f") and body, else None."""
    if token[0] not in '"f':
        return None
    prefix = "f" if token.startswith('f"') else ""
    quoted = token[len(prefix) :]
    if len(quoted) < 2 or quoted[0] != '"' or quoted[-1] != '"' or quoted.startswith('"""'):
        return None
    return prefix, quoted[1:-1]
