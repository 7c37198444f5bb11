"""A PR's description as a reviewer reads it: the author's words without the template.

A PR body is the author's account of the change: what it does, the effect they measured
("cuts the step from 412us to 95us"), the bugs it lists, a benchmark table. Around that sit
the repository's template (its headings, "- vLLM version:/- vLLM main: <url>" lines, unticked
checklists, "No." under "Does this PR introduce any user-facing change?"), HTML comments,
Signed-off-by and Co-authored-by trailers, pasted logs and bare links. `describe` keeps the
first and drops the second, and ends within a character budget at a whole unit (a
paragraph's sentence, a list item, a table row, a short code block), never in the middle of
one; a "…" line says more followed. The text stays the author's: it is untrusted wherever a
card carries it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tidings.facts.prose import (
    LIST_ITEM,
    TEMPLATE_ANSWERS,
    TEMPLATE_QUESTION,
    TRAILER_LINE,
    URL,
    clean,
    cut,
    heading,
    split_sentences,
    strip_blocks,
)

# Headings that belong to a repository's PR template, not to the author: vLLM's and
# vllm-ascend's, GitHub's common ones. Any other heading ("Accuracy Tests") labels what follows.
_TEMPLATE_HEADING = re.compile(
    r"what (?:this|the) (?:pr|pull request|change) does|why we need|user[- ]facing|"
    r"how was (?:this|the) (?:patch|pr|change) tested|^purpose$|^test plan$|^test results?$|"
    r"documentation update|essential elements|checklist|check list|before submitting|"
    r"^summary$|^description$|^motivation$|^changes$|^release notes?$|^related issues?$|"
    r"^cc$|^fixes$",
    re.IGNORECASE,
)
_FENCE_OPEN = re.compile(r"^\s*(```|~~~)")
_RULE = re.compile(r"^\s*[-=*_]{3,}\s*$")
_CHECKBOX = re.compile(r"^\s*[-*+]\s*\[([ xX])\]\s*")
_TABLE_ROW = re.compile(r"^\s*\|")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_QUOTE = re.compile(r"^\s*>\s?")
_TITLE_CONTINUATION = re.compile(r"^\s*…")  # GitHub moves a long title's tail into the body
_HEADING_MARKS = re.compile(r"^#{1,6}\s+")
_WORDISH = re.compile(r"[A-Za-z0-9\u3400-\u9fff]")
# A commit body is hard-wrapped near 72 columns: a line continues its paragraph on the next
# line when the next line's first word would not have fitted on it; a line that had room for
# that word ended where its author ended it ("block size: 1k" under "Currently issue:").
_WRAP_WIDTH = 70

# A code block is kept when it is this short (a config snippet, a before/after figure); a
# longer one is a pasted log or a whole script, which the diff or the checks already show.
FENCE_LINES = 8
FENCE_CHARS = 400
MORE = "…"  # the last line of a description that was cut


@dataclass(frozen=True, slots=True)
class _Unit:
    text: str
    prose: bool  # sentences may be taken from it one by one (a table row or code may not)


def describe(body: str | None, limit: int) -> str:
    """`body` without its template, at most `limit` characters, ended at a whole unit;
    units are separated by newlines. "" when nothing of the author's is left."""
    units = _units(body or "")
    out: list[str] = []
    used = 0
    for k, unit in enumerate(units):
        cost = len(unit.text) + (1 if out else 0)
        more = 0 if k == len(units) - 1 else len(MORE) + 1  # room for the "…" line
        if used + cost + more <= limit:
            out.append(unit.text)
            used += cost
            continue
        room = limit - used - (1 if out else 0) - len(MORE) - 1
        head = _sentences_within(unit, room) if unit.prose else ""
        if not out and not head:
            # The first unit alone is over the budget and its first sentence too: a word cut.
            head = cut(unit.text, max(limit - len(MORE) - 1, 0))
        if head:
            out.append(head)
        while len(out) > 1 and out[-1].endswith((":", "：")):
            out.pop()  # a label, or a line introducing what was cut
        out.append(MORE)
        break
    return "\n".join(out)


def _sentences_within(unit: _Unit, room: int) -> str:
    """The unit's first whole sentences within `room` characters ("" when not one fits)."""
    prefix = "- " if unit.text.startswith("- ") else ""
    taken = ""
    for sentence in split_sentences(unit.text[len(prefix) :]):
        glue = "" if taken.endswith(("。", "！", "？")) else " "
        joined = f"{taken}{glue}{sentence}".strip()
        if len(prefix) + len(joined) > room:
            break
        taken = joined
    return prefix + taken if taken else ""


def _units(body: str) -> list[_Unit]:
    """The author's paragraphs, list items, table rows and short code blocks, in order."""
    lines = strip_blocks(body, fences=False).split("\n")
    if lines and _TITLE_CONTINUATION.match(lines[0]):
        lines = lines[1:]
    units: list[_Unit] = []
    para: list[str] = []
    label: str | None = None  # a heading waiting for its section's first unit

    def add(text: str, *, prose: bool) -> None:
        nonlocal label
        if label is not None:
            units.append(_Unit(label, prose=False))
            label = None
        units.append(_Unit(text, prose=prose))

    def flush() -> None:
        if not para:
            return
        raw = " ".join(para)
        para.clear()
        item = raw.startswith("\x00")
        text = _prose(raw.lstrip("\x00"))
        if text:
            add(f"- {text}" if item else text, prose=True)

    skipping = False  # inside an unticked checklist item, which may wrap
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        fence = _FENCE_OPEN.match(line)
        if fence:
            flush()
            block: list[str] = []
            while i < len(lines) and not lines[i].strip().startswith(fence.group(1)):
                block.append(lines[i].rstrip())
                i += 1
            i += 1  # the closing fence
            code = _code(block)
            if code:
                add(code, prose=False)
            elif label is None and units and units[-1].text.endswith((":", "：")):
                units.pop()  # "Command to start a server:" introduced the log just dropped
            continue
        name = heading(line)
        if name is not None:
            flush()
            label = _label(name)
            continue
        if not line.strip() or _RULE.match(line) or TRAILER_LINE.match(line.replace("**", "")):
            flush()
            skipping = False
            continue
        box = _CHECKBOX.match(line)
        if box:
            flush()
            skipping = box.group(1) == " "  # an unticked box is the template's, not the author's
            if not skipping:
                para.append("\x00" + line[box.end() :].strip())
            continue
        if _TABLE_ROW.match(line):
            flush()
            row = line.strip()
            # A hard-wrapped row continues until a line closes it.
            while not row.endswith("|") and i < len(lines) and lines[i].strip():
                row += " " + lines[i].strip()
                i += 1
            if not _TABLE_RULE.match(row):
                cells = [clean(c, pointers=False, labels=False, edges=False) for c in _cells(row)]
                if any(cells):
                    add("| " + " | ".join(cells) + " |", prose=False)
            continue
        if LIST_ITEM.match(line):
            flush()
            skipping = False
            para.append("\x00" + LIST_ITEM.sub("", line, count=1).strip())
            continue
        if skipping:
            continue
        text = _QUOTE.sub("", line).strip()
        if not text:  # an empty quoted line: a paragraph break inside the quote
            flush()
            continue
        if para and len(para[-1].lstrip("\x00")) + 1 + len(text.split()[0]) <= _WRAP_WIDTH:
            flush()  # the line had room for the next word: its author broke it
        para.append(text)
    flush()
    return units


def _label(name: str) -> str | None:
    """A heading the author wrote, as a label ("Accuracy Tests:"); None for a template's."""
    text = clean(name, pointers=False, labels=False).strip(" :：")
    if not text or _TEMPLATE_HEADING.search(text) or TEMPLATE_QUESTION.match(text):
        return None
    return text + ("：" if re.search(r"[\u3400-\u9fff]$", text) else ":")


def _prose(raw: str) -> str:
    """One paragraph or list item as plain text; "" when nothing of the author's is left (a
    template answer, or a label whose link was all it held)."""
    # A heading's marks left inside emphasis ("~~### Why patch X?~~") go with it.
    text = _HEADING_MARKS.sub("", clean(raw, pointers=False, labels=False))
    if not _WORDISH.search(text) or TEMPLATE_ANSWERS.match(text):
        return ""
    if URL.search(raw) and (len(text.split()) <= 1 or text.endswith((":", "："))):
        return ""  # "implement <url>", "- upstream PR: <url>": the link was the content
    return text


def _cells(row: str) -> list[str]:
    """A table row's cells; a `|` inside inline code is no border."""
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return re.split(r"(?<!\\)\|(?=(?:[^`]*`[^`]*`)*[^`]*$)", inner)


def _code(block: list[str]) -> str:
    lines = [URL.sub("", x).rstrip() for x in block]
    lines = [x for x in lines if x.strip()]
    text = "\n".join(lines)
    if not lines or len(lines) > FENCE_LINES or len(text) > FENCE_CHARS:
        return ""
    return "```\n" + text + "\n```"
