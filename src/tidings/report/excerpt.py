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

_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1|\Z)", re.DOTALL | re.MULTILINE)
_DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.DOTALL | re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.*?)\s*#*\s*$")
# A bold line standing alone as a heading ("**Summary**", "**Test plan:**").
_BOLD_HEADING = re.compile(r"^\s*\*\*([^*]{2,60}?):?\*\*:?\s*$")
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
_NOISE_LINE = re.compile(
    r"^\s*(?:>|[-*+]\s*\[[ xX]\]|\|.*\||[-=*_]{3,}\s*$|signed-off-by:|co-authored-by:|"
    r"reviewed-by:|change-id:|cherry[- ]picked from|[-*+]?\s*vllm (?:version|main):|"
    r"(?:original (?:pr|author)|merge commit):|\(cherry picked)",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
_TEMPLATE_ANSWERS = re.compile(
    r"^\s*(?:n/?a|none|no|yes|tbd|todo|nothing|无|否|是)\s*[.。!]?\s*$", re.IGNORECASE
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)?")
_LINK = re.compile(r"\[([^\]]*)\]\(\s*[^)\s]*\s*(?:\"[^\"]*\"\s*)?\)?")
_REF_LINK_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+", re.MULTILINE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*(?:>|$)")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# "Come from: <url>", "please refer: <url>", "See <url>": a label whose only content was a link.
_LABEL_BEFORE_URL = re.compile(
    r"(?:^|(?<=[\s(]))(?:come from|comes from|please refer(?: to)?|refer(?: to)?|see(?: also)?|"
    r"ref|related|link|issue|rfc|详见|参考|来自)\s*[:：]?\s*(?=\x00)",
    re.IGNORECASE,
)
# Sentences that only point elsewhere: "Fixes #12.", "Related to #13220.", "implement #12073".
_POINTER = re.compile(
    r"^\s*(?:also\s+)?(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|related(?: to)?|relates to|"
    r"part of|follow[- ]?up(?: (?:of|from|to))?|implements?|see|ref|refs|cc|co-?authored)\b"
    r"[^.!?。]*?(?:[\w.-]+/[\w.-]+)?#\d+(?:\s*\([^()]*\))?[\s.,:;)]*",
    re.IGNORECASE,
)
_EMPHASIS = re.compile(r"(\*\*|__|~~)(.+?)\1")
_SENTENCE_END = re.compile(r"(?<=[。！？])\s*|(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[])")
_TITLE_CONTINUATION = re.compile(r"^\s*…")  # GitHub moves a long title's tail into the body
# "Draft.", "WIP:" opening a body: the PR's state, which the report already shows.
_PROCESS_MARK = re.compile(
    r"^(?:draft|wip|work in progress|do not merge|don't merge|dnm)\s*[.:!\-–—]+\s*", re.IGNORECASE
)
# A paragraph's closing label that introduced a table, a log or code now dropped ("Results:").
_TRAILING_LABEL = re.compile(r"(?<=[.!?。！？])\s*[^.!?。！？]{1,40}[:：]$")

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
    body = _strip_blocks(text)
    paragraphs = _paragraphs(body if comment else _summary_section(body))
    kept: list[str] = []
    for para in paragraphs:
        clean = _clean(para, pointers=not comment)
        if not (_useful(clean) or (comment and clean and not _TEMPLATE_ANSWERS.match(clean))):
            continue
        kept.append(clean)
        # The first paragraph is the point; a short one ("Tried it:") introduces the next.
        if len(" ".join(kept)) >= min(limit, _ENOUGH):
            break
    flat = " ".join(" ".join(kept).split())
    if not flat or (title is not None and _same(flat, title)):
        return ""
    return _cut(flat, limit)


def sentences(text: str | None) -> list[str]:
    """Every plain sentence of `text`, cleaned as excerpts are (no URL, tag, template line,
    table or code block), in order, from every section."""
    if not text:
        return []
    out: list[str] = []
    lines = _strip_blocks(text).splitlines()
    bare = "\n".join("" if _heading(line) is not None else line for line in lines)
    for para in _paragraphs(bare):
        clean = _clean(para)
        out += [s.strip() for s in _SENTENCE_END.split(clean) if s.strip()]
    return out


def cut(text: str, limit: int) -> str:
    """`text` at most `limit` characters: whole sentences, else at a word, never inside a code
    span; "" when that leaves too little to say anything."""
    return _cut(" ".join(text.split()), limit)


def _strip_blocks(text: str) -> str:
    text = text.replace("\r\n", "\n")
    text = _HTML_COMMENT.sub(" ", text)
    text = _DETAILS.sub("\n\n", text)
    text = _FENCE.sub("\n\n", text)
    return _REF_LINK_DEF.sub("", text)


# A template's questions, also when pasted without heading marks.
_TEMPLATE_QUESTION = re.compile(
    r"^\W*(?:what this (?:pr|pull request) does|does this (?:pr|pull request) introduce|"
    r"how was this (?:patch|pr|change) tested|why we need it)",
    re.IGNORECASE,
)


def _heading(line: str) -> str | None:
    m = _HEADING.match(line) or _BOLD_HEADING.match(line)
    if m:
        return m.group(1).strip()
    if _TEMPLATE_QUESTION.match(line) and len(line) < 120:
        return line.strip(" *#:_")
    return None


def _summary_section(text: str) -> str:
    """The body of the first summary-like section; else the text before the first heading;
    else every section that is not about testing, checklists or logs."""
    sections: list[tuple[str | None, list[str]]] = [(None, [])]
    for line in text.splitlines():
        name = _heading(line)
        if name is not None:
            sections.append((name, []))
        else:
            sections[-1][1].append(line)
    for name, lines in sections:
        if name is not None and _SUMMARY.search(name) and "\n".join(lines).strip():
            return "\n".join(lines)
    preamble = "\n".join(sections[0][1])
    if preamble.strip() and any(_useful(_clean(p)) for p in _paragraphs(preamble)):
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
        if _LIST_ITEM.match(raw):
            flush()
            current.append(_LIST_ITEM.sub("", raw, count=1).strip())
            continue
        current.append(raw.strip())
    flush()
    return out


# Inline code is quoted as written: `set[str]`, `</think>` and `f()` are not links, tags or
# empty parentheses. Each span is set aside while the rest is cleaned, unless it holds a URL:
# an excerpt never carries an address (`curl http://…/x.sh | sh` loses it, as prose does).
INLINE_CODE = re.compile(r"(`+)(?=\S)(.+?)\1")
_HELD = re.compile(r"\x01(\d+)\x02")


def _clean(para: str, *, pointers: bool = True) -> str:
    held: list[str] = []

    def hold(m: re.Match[str]) -> str:
        if _URL.search(m.group(0)):
            return m.group(0)
        held.append(m.group(0))
        return f"\x01{len(held) - 1}\x02"

    text = _clean_prose(INLINE_CODE.sub(hold, para), pointers=pointers)
    return _HELD.sub(lambda m: held[int(m.group(1))], text)


def _clean_prose(para: str, *, pointers: bool) -> str:
    text = _IMAGE.sub(" ", para)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _TAG.sub(" ", text)
    text = _URL.sub("\x00", text)
    text = _LABEL_BEFORE_URL.sub("", text)
    text = text.replace("\x00", "")
    text = _EMPHASIS.sub(lambda m: m.group(2), text)
    text = text.replace("**", "").replace("[", " ").replace("]", " ")
    text = " ".join(text.split())
    while pointers and (m := _POINTER.match(text)) is not None and m.end() > 0:
        text = text[m.end() :].lstrip(" .,:;-")
    if pointers:
        text = _PROCESS_MARK.sub("", text)
    text = re.sub(r"\(\s*\)|\s+([,.;:])", lambda m: m.group(1) or "", text).strip(" -–—;,")
    text = _TRAILING_LABEL.sub("", text)
    if text.endswith((":", "：")):
        text = text[:-1].rstrip() + ("。" if text.endswith("：") else ".")
    return text.lstrip(" :")


def _useful(text: str) -> bool:
    if not text or _TEMPLATE_ANSWERS.match(text):
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


def _cut(flat: str, limit: int) -> str:
    if len(flat) <= limit:
        return flat
    out = ""
    for sentence in _SENTENCE_END.split(flat):
        joined = f"{out}{sentence}" if out.endswith(("。", "！", "？")) else f"{out} {sentence}"
        if len(joined.strip()) > limit:
            break
        out = joined.strip()
    # Whole sentences, unless they leave most of the room empty ("Draft." before a long one).
    if out and len(out) * 3 >= limit:
        return out
    # One long sentence: cut at a word boundary, never inside a word or a code span.
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    if cut.count("`") % 2:
        cut = cut[: cut.rfind("`")]
    cut = cut.rstrip(" ,;:-")
    # A code span too long for the room leaves a word or two ("Accepts…"): say nothing instead.
    return cut + "…" if len(cut) * 3 >= limit else ""
