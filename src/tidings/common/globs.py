"""Path globs as used in config: `*` stays within a path segment, `**` spans segments.

`vllm/platforms/rocm.py`, `csrc/rocm/**`, `**/test_*.py`, `vllm/v1/*/sched*.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache


class GlobError(ValueError):
    pass


@lru_cache(maxsize=4096)
def compile_glob(pattern: str) -> re.Pattern[str]:
    if not pattern or pattern.strip() != pattern:
        raise GlobError(f"empty or space-padded glob {pattern!r}")
    if pattern.startswith("/"):
        raise GlobError(f"glob {pattern!r} must be relative to the repository root")
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**", i):
            before_ok = i == 0 or pattern[i - 1] == "/"
            after = pattern[i + 2 : i + 3]
            if not before_ok or after not in ("", "/"):
                raise GlobError(f"glob {pattern!r}: '**' must be a whole path segment")
            if after == "/":
                out.append("(?:[^/]+/)*")
                i += 3
            else:
                out.append(".*")
                i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                raise GlobError(f"glob {pattern!r}: '[' without a closing ']'")
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end
        elif ch == "]":
            raise GlobError(f"glob {pattern!r}: ']' without an opening '['")
        else:
            out.append(re.escape(ch))
        i += 1
    # A pattern naming a directory also matches everything under it.
    try:
        return re.compile("".join(out) + "(?:/.*)?\\Z")
    except re.error as exc:  # a class the regex engine refuses: `[z-a]`, a bad range
        raise GlobError(f"glob {pattern!r}: {exc.msg}") from exc


def glob_match(pattern: str, path: str) -> bool:
    return compile_glob(pattern).match(path) is not None


def any_match(patterns: Sequence[str], path: str) -> bool:
    return any(glob_match(p, path) for p in patterns)
