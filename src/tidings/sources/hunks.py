"""A file's diff in the one form the store keeps: zero-context hunks.

The risk rules (facts/risk.py) read a file's change as hunks of removed and added lines, each
hunk one run of changed lines with nothing unchanged between. A clone gives that form directly
(`git log -p --unified=0`, sources/git.py); GitHub's REST file listing gives unified hunks with
three lines of context, which `zero_context` cuts at every context line into the hunks git
would have printed, with their `@@ -a,b +c,d @@` headers renumbered. So a PR synced either way
stores the same text for the same change, and the rules give the same tags.
"""

from __future__ import annotations

import re

# Hunk text kept per file: enough for the rules, bounded for generated or vendored files.
PATCH_MAX_CHARS = 32_000

_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def bound(text: str) -> str:
    """`text` cut at a line end within PATCH_MAX_CHARS."""
    if len(text) <= PATCH_MAX_CHARS:
        return text
    return text[: text.rfind("\n", 0, PATCH_MAX_CHARS) + 1].rstrip("\n")


def _span(start: int, count: int) -> str:
    # Git's own spelling: a count of 1 is left out; an empty side names the line before it.
    first = start if count else start - 1
    return f"{first}" if count == 1 else f"{first},{count}"


def zero_context(patch: str) -> str | None:
    """A unified diff's hunks (any context) as zero-context hunks; None if it has no hunk
    (GitHub's patch of a mode-only change is empty)."""
    out: list[str] = []
    removed: list[str] = []
    added: list[str] = []
    old = new = run_old = run_new = 0
    seen = False

    def flush() -> None:
        if removed or added:
            out.append(f"@@ -{_span(run_old, len(removed))} +{_span(run_new, len(added))} @@")
            out.extend(removed)
            out.extend(added)
        removed.clear()
        added.clear()

    for line in patch.split("\n"):
        header = _HEADER.match(line) if line.startswith("@@") else None
        if header is not None:
            flush()
            seen = True
            a, b, c, d = header.groups()
            # The next line of each side: a side whose count is 0 starts after line a (or c).
            old = int(a) + (0 if b is None or int(b) else 1)
            new = int(c) + (0 if d is None or int(d) else 1)
            run_old, run_new = old, new
            continue
        if not seen or line.startswith("\\"):  # file headers; "\ No newline at end of file"
            continue
        if line.startswith("-"):
            if not removed and not added:
                run_old, run_new = old, new
            removed.append(line)
            old += 1
        elif line.startswith("+"):
            if not removed and not added:
                run_old, run_new = old, new
            added.append(line)
            new += 1
        else:  # a context line (" x", or "" where a tool trimmed its space) ends the run
            flush()
            old += 1
            new += 1
            run_old, run_new = old, new
    flush()
    return "\n".join(out) if seen else None
