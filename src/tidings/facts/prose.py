"""Reading what people wrote in Markdown: the pieces every reader of a PR or issue body shares.

Bodies open with templates ("### What this PR does / why we need it?"), HTML comments and tags,
checklists, pasted logs, links, "- vLLM main: <url>" lines and Signed-off-by trailers, and a
body read from a git commit is hard-wrapped, so a Markdown link may straddle two lines. Two
readers build on what is here: report/excerpt.py (the first sentences of a body's summary, for
a report written without a model) and facts/description.py (a PR's description as the model's
card gives it, template-free and ended at a sentence).
"""

from __future__ import annotations

import re

HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
FENCE = re.compile(r"^\s*(```|~~~).*?(?:^\s*\1|\Z)", re.DOTALL | re.MULTILINE)
DETAILS = re.compile(r"<details\b.*?(?:</details>|\Z)", re.DOTALL | re.IGNORECASE)
REF_LINK_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+", re.MULTILINE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(.*?)\s*#*\s*$")
# A bold line standing alone as a heading ("**Summary**", "**Test plan:**").
_BOLD_HEADING = re.compile(r"^\s*\*\*([^*]{2,60}?):?\*\*:?\s*$")
# A template's questions, also when pasted without heading marks.
TEMPLATE_QUESTION = re.compile(
    r"^\W*(?:what this (?:pr|pull request) does|does this (?:pr|pull request) introduce|"
    r"how was this (?:patch|pr|change) tested|why we need it)",
    re.IGNORECASE,
)
# Lines that only record where a change came from or who signed it: trailers, the vllm-ascend
# template's "- vLLM version:/- vLLM main:" lines, cherry-pick notes.
TRAILER = (
    r"signed-off-by:|co-authored-by:|reviewed-by:|change-id:|cherry[- ]picked from|"
    r"[-*+]?\s*vllm (?:version|main):|(?:original (?:pr|author)|merge commit):|\(cherry picked"
)
TRAILER_LINE = re.compile(rf"^\s*(?:{TRAILER})", re.IGNORECASE)
LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
TEMPLATE_ANSWERS = re.compile(
    r"^\s*(?:n/?a|none|no|yes|tbd|todo|nothing|无|否|是)\s*[.。!]?\s*$", re.IGNORECASE
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)?")
_LINK = re.compile(r"\[([^\]]*)\]\(\s*[^)\s]*\s*(?:\"[^\"]*\"\s*)?\)?")
_TAG = re.compile(r"</?[A-Za-z][^<>]*(?:>|$)")
# An address runs to the next space, but a ")" it did not open closes the sentence's
# parenthesis ("the PR (https://…/32118) changed"): balanced pairs stay in (wiki-style paths).
URL = re.compile(r"(?:https?://|www\.)[^\s()]*(?:\([^\s()]*\)[^\s()]*)*", re.IGNORECASE)
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
SENTENCE_END = re.compile(r"(?<=[。！？])\s*|(?<=[.!?])\s+(?=[A-Z0-9`\"'(\[])")
# "Draft.", "WIP:" opening a body: the PR's state, which the report already shows.
_PROCESS_MARK = re.compile(
    r"^(?:draft|wip|work in progress|do not merge|don't merge|dnm)\s*[.:!\-–—]+\s*", re.IGNORECASE
)
# A paragraph's closing label that introduced a table, a log or code now dropped ("Results:").
_TRAILING_LABEL = re.compile(r"(?<=[.!?。！？])\s*[^.!?。！？]{1,40}[:：]$")

# Inline code is quoted as written: `set[str]`, `</think>` and `f()` are not links, tags or
# empty parentheses. Each span is set aside while the rest is cleaned, unless it holds a URL:
# a cleaned text never carries an address (`curl http://…/x.sh | sh` loses it, as prose does).
INLINE_CODE = re.compile(r"(`+)(?=\S)(.+?)\1")
_HELD = re.compile(r"\x01(\d+)\x02")


def strip_blocks(text: str, *, fences: bool = True) -> str:
    """`text` without HTML comments, <details> blocks, reference-link definitions and (with
    `fences`) fenced code blocks, each block leaving a paragraph break."""
    text = text.replace("\r\n", "\n")
    text = HTML_COMMENT.sub(" ", text)
    text = DETAILS.sub("\n\n", text)
    if fences:
        text = FENCE.sub("\n\n", text)
    return REF_LINK_DEF.sub("", text)


def heading(line: str) -> str | None:
    """The text of a Markdown heading, a bold line standing as one, or a template question;
    None for any other line."""
    m = _HEADING.match(line) or _BOLD_HEADING.match(line)
    if m:
        return m.group(1).strip()
    if TEMPLATE_QUESTION.match(line) and len(line) < 120:
        return line.strip(" *#:_")
    return None


def clean(para: str, *, pointers: bool = True, labels: bool = True, edges: bool = True) -> str:
    """One paragraph as plain text: links kept as their words, images, tags and URLs gone,
    inline code as written. `pointers`: a leading "Fixes #12." goes too; `labels`: a closing
    label that introduced something dropped ("Results:") goes too; `edges`: dashes and
    separators left at either end go (not in a table cell, where "-14.2%" is a figure)."""
    held: list[str] = []

    def hold(m: re.Match[str]) -> str:
        if URL.search(m.group(0)):
            return m.group(0)
        held.append(m.group(0))
        return f"\x01{len(held) - 1}\x02"

    text = _clean_prose(INLINE_CODE.sub(hold, para), pointers=pointers, labels=labels, edges=edges)
    return _HELD.sub(lambda m: held[int(m.group(1))], text)


def _clean_prose(para: str, *, pointers: bool, labels: bool, edges: bool) -> str:
    text = _IMAGE.sub(" ", para)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = _TAG.sub(" ", text)
    text = URL.sub("\x00", text)
    text = _LABEL_BEFORE_URL.sub("", text)
    text = text.replace("\x00", "")
    text = _EMPHASIS.sub(lambda m: m.group(2), text)
    text = text.replace("**", "").replace("[", " ").replace("]", " ")
    text = " ".join(text.split())
    while pointers and (m := _POINTER.match(text)) is not None and m.end() > 0:
        text = text[m.end() :].lstrip(" .,:;-")
    if pointers:
        text = _PROCESS_MARK.sub("", text)
    text = re.sub(r"\(\s*\)|\s+([,.;:])", lambda m: m.group(1) or "", text)
    text = text.strip(" -–—;," if edges else " ")
    if not labels:
        return text.lstrip(" :")
    text = _TRAILING_LABEL.sub("", text)
    if text.endswith((":", "：")):
        text = text[:-1].rstrip() + ("。" if text.endswith("：") else ".")
    return text.lstrip(" :")


def split_sentences(text: str) -> list[str]:
    """`text`'s sentences, in order (a sentence ends at . ! ? before a capital, a digit or a
    quote, or at 。！？)."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def cut(text: str, limit: int) -> str:
    """`text` at most `limit` characters: whole sentences, else at a word, never inside a code
    span; "" when that leaves too little to say anything."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    out = ""
    for sentence in SENTENCE_END.split(flat):
        joined = f"{out}{sentence}" if out.endswith(("。", "！", "？")) else f"{out} {sentence}"
        if len(joined.strip()) > limit:
            break
        out = joined.strip()
    # Whole sentences, unless they leave most of the room empty ("Draft." before a long one).
    if out and len(out) * 3 >= limit:
        return out
    # One long sentence: cut at a word boundary, never inside a word or a code span.
    short = flat[: limit - 1]
    space = short.rfind(" ")
    if space > limit // 2:
        short = short[:space]
    if short.count("`") % 2:
        short = short[: short.rfind("`")]
    short = short.rstrip(" ,;:-")
    # A code span too long for the room leaves a word or two ("Accepts…"): say nothing instead.
    return short + "…" if len(short) * 3 >= limit else ""
