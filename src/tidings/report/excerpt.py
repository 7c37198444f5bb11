"""Short excerpts of people's own words, for reports written without a model.

PR and issue bodies open with templates ("### What this PR does / why we need it?"), HTML
comments and tags, checklists, pasted logs, links and "Come from https://…" lines, and a body
read from a git commit is hard-wrapped, so a Markdown link may straddle two lines. An excerpt
reads the author's own summary section when the body has one (the preamble otherwise), joins
each paragraph's lines before anything is cut, drops every URL, tag and template line, and
keeps the first sentences a person actually wrote. When nothing good is left, or what is left
only repeats the title, it returns "" and the caller shows the title instead.
"""

from __future__ import annotations

import re

from tidings.facts.prose import (
    LIST_ITEM,
    SENTENCE_END,
    TEMPLATE_ANSWERS,
    TRAILER,
    clean,
    cut,
    heading,
    strip_blocks,
)

# Sections whose text says what the change is and why; the first one present is read.
_SUMMARY = re.compile(
    r"what (this|the) (pr|pull request|change) does|why we need|^summary|^description|"
    r"^motivation|^purpose|^overview|^what\b|^why\b|^changes?\b|^background|"
    r"概述|描述|简介|目的|动机|背景|改动|修改内容",
    re.IGNORECASE,
)
# Sections that never hold a summary: testing, user-facing answers, checklists, logs.
_NOT_SUMMARY = re.compile(
    r"test|user[- ]facing|checklist|check list|before submitting|essential elements|"
    r"release note|documentation update|screenshot|log|benchmark|result|accuracy|"
    r"performance|how to|reproduc|environment|cc\b|测试|检查",
    re.IGNORECASE,
)
# An excerpt is prose only: quotes, checklists, tables, rules and trailers are not.
_NOISE_LINE = re.compile(
    rf"^\s*(?:>|[-*+]\s*\[[ xX]\]|\|.*\||[-=*_]{{3,}}\s*$|{TRAILER})", re.IGNORECASE
)
_TITLE_CONTINUATION = re.compile(r"^\s*…")  # GitHub moves a long title's tail into the body

# A paragraph with less than this much to say is a label or a pointer, not a summary.
_MIN_LETTERS = 24
_MIN_CJK = 8
_ENOUGH = 40  # a first paragraph this long is the summary; the next ones are detail
_WORD = re.compile(r"[(\"'`]?[A-Za-z][a-z'-]*[)\"'`.,;:!?]*")


def excerpt(
    text: str | None, limit: int = 200, *, title: str | None = None, comment: bool = False
) -> str:
    """The first plain sentences of `text`'s summary, at most `limit` characters, or "" when
    nothing a reader would learn from is left (or it only repeats `title`).

    A `comment` is quoted as its author wrote it: a short "Thanks, LGTM." or "See #12" is
    what they said, not a template, so nothing is too short and pointers stay."""
    if not text:
        return ""
    body = strip_blocks(text)
    paragraphs = _paragraphs(body if comment else _summary_section(body))
    kept: list[str] = []
    for para in paragraphs:
        kept_text = clean(para, pointers=not comment)
        if not (
            _useful(kept_text) or (comment and kept_text and not TEMPLATE_ANSWERS.match(kept_text))
        ):
            continue
        kept.append(kept_text)
        # The first paragraph is the point; a short one ("Tried it:") introduces the next.
        if len(" ".join(kept)) >= min(limit, _ENOUGH):
            break
    flat = " ".join(" ".join(kept).split())
    if not flat or (title is not None and _same(flat, title)):
        return ""
    return cut(flat, limit)


def sentences(text: str | None) -> list[str]:
    """Every plain sentence of `text`, cleaned as excerpts are (no URL, tag, template line,
    table or code block), in order, from every section."""
    if not text:
        return []
    out: list[str] = []
    lines = strip_blocks(text).splitlines()
    bare = "\n".join("" if heading(line) is not None else line for line in lines)
    for para in _paragraphs(bare):
        out += [s.strip() for s in SENTENCE_END.split(clean(para)) if s.strip()]
    return out


def _summary_section(text: str) -> str:
    """The body of the first summary-like section; else the text before the first heading;
    else every section that is not about testing, checklists or logs."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        name = heading(line)
        if name is not None:
            sections.append((name, []))
        else:
            sections[-1][1].append(line)
    for name, lines in sections:
        if name is not None and _SUMMARY.search(name) and "\n".join(lines).strip():
            return "\n".join(lines)
    preamble = "\n".join(sections[0][1])
    if preamble.strip() and any(_useful(clean(p)) for p in _paragraphs(preamble)):
        return preamble
    return "\n".join(
        "\n".join(lines)
        for name, lines in sections[1:]
        if name is not None and not _NOT_SUMMARY.search(name)
    )


def _paragraphs(text: str) -> list[str]:
    """Paragraphs and list items, each with its hard-wrapped lines joined."""
    out: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            out.append(" ".join(current))
            current.clear()

    for raw in text.splitlines():
        if not raw.strip() or _NOISE_LINE.match(raw) or _TITLE_CONTINUATION.match(raw):
            flush()
            continue
        if LIST_ITEM.match(raw):
            flush()
            current.append(LIST_ITEM.sub("", raw, count=1).strip())
            continue
        current.append(raw.strip())
    flush()
    return out


def _useful(text: str) -> bool:
    if not text or TEMPLATE_ANSWERS.match(text):
        return False
    letters = len(re.findall(r"[A-Za-z]", text))
    cjk = len(re.findall(r"[\u3400-\u9fff]", text))
    tokens = text.split()
    # Prose is mostly plain words; a run of paths or identifiers is a file list or a log.
    words = sum(1 for w in tokens if _WORD.fullmatch(w))
    return cjk >= _MIN_CJK or (
        letters >= _MIN_LETTERS and words >= 4 and words * 5 >= len(tokens) * 2
    )


def _same(text: str, title: str) -> bool:
    """Whether `text` says no more than the title (tags and punctuation aside)."""

    def norm(s: str) -> str:
        return re.sub(r"[\W_]+", " ", s).strip().lower()

    a = norm(text)
    bare = norm(re.sub(r"^\s*(?:\[[^\]]*\]\s*)+", "", title))
    whole = norm(title)  # the tags' words too: "[Doc]add x" cleans to "Doc add x"
    return not a or any(a == b or (len(a) <= len(b) + 3 and a in b) for b in (bare, whole))
