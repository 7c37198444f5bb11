"""Short excerpts of people's own words, for reports written without a model.

PR and issue bodies open with templates ("### What this PR does / why we need it?"), HTML
comments, checklists and pasted logs. An excerpt skips those and keeps the first sentences a
person actually wrote.
"""

from __future__ import annotations

import re

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_FENCE = re.compile(r"```.*?(```|\Z)", re.DOTALL)
_NOISE_LINE = re.compile(
    r"^\s*(#{1,6}\s|>|[-*]\s*\[[ xX]\]|\|.*\||-{3,}|={3,}|signed-off-by:|co-authored-by:|"
    r"- vllm version:|- vllm main:|https?://\S+\s*$)",
    re.IGNORECASE,
)
# "Fixes #12." leads many descriptions; the sentence after it is the description.
_CLOSING_PREFIX = re.compile(
    r"^\s*(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s+(?:[\w.-]+/[\w.-]+)?#\d+[.,:;]?\s*",
    re.IGNORECASE,
)
_TEMPLATE_ANSWERS = re.compile(r"^\s*(n/?a|none|no\.?|yes\.?|tbd|todo)\s*$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[。！？])\s*|(?<=[.!?])\s+")


# A first paragraph shorter than this ("Tried it:") introduces the next one; keep reading.
_MIN_USEFUL = 40


def excerpt(text: str | None, limit: int = 200) -> str:
    """The first plain sentences of `text`, at most `limit` characters, or "" if none."""
    if not text:
        return ""
    text = _FENCE.sub("\n\n", _HTML_COMMENT.sub(" ", text))
    kept: list[str] = []
    for raw in text.splitlines():
        line = _CLOSING_PREFIX.sub("", raw)
        if not line.strip() or _NOISE_LINE.match(line) or _TEMPLATE_ANSWERS.match(line):
            if kept and len(" ".join(kept)) >= _MIN_USEFUL:
                break  # the first paragraph is the point; stop at its end
            continue
        kept.append(line.strip().lstrip("-*• ").strip())
    flat = " ".join(" ".join(kept).split())
    if len(flat) <= limit:
        return flat
    sentences = _SENTENCE_END.split(flat)
    out = ""
    for sentence in sentences:
        joined = f"{out}{sentence}" if out.endswith(("。", "！", "？")) else f"{out} {sentence}"
        if len(joined.strip()) > limit:
            break
        out = joined.strip()
    return out if out else flat[: limit - 1].rstrip() + "…"
