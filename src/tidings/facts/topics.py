"""Topic tracks: which of a window's items belong to a configured topic, and why."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tidings.config import TopicConfig
from tidings.facts.activity_data import Item, WindowData
from tidings.globs import glob_match

# How much of a body is searched for keywords: the description, not pasted logs.
_BODY_CHARS = 3000


@dataclass(frozen=True)
class TopicMatch:
    number: int
    reasons: tuple[str, ...]  # "label:rocm", "tag:[ROCm]", "keyword:MI300X", "path:csrc/x.cu"


def _tag(tag: str) -> str:
    return tag if tag.startswith("[") else f"[{tag}]"


def match_item(item: Item, paths: list[str], topic: TopicConfig) -> tuple[str, ...]:
    reasons: list[str] = []
    labels = {label.lower(): label for label in item.labels}
    reasons += [f"label:{labels[w.lower()]}" for w in topic.labels if w.lower() in labels]
    title = item.title.lower()
    reasons += [f"tag:{_tag(t)}" for t in topic.title_tags if _tag(t).lower() in title]
    text = f"{item.title}\n{(item.body or '')[:_BODY_CHARS]}"
    for word in topic.keywords:
        if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE):
            reasons.append(f"keyword:{word}")
    for pattern in topic.paths:
        hit = next((p for p in paths if glob_match(pattern, p)), None)
        if hit is not None:
            reasons.append(f"path:{hit}")
    return tuple(reasons)


def topic_matches(data: WindowData, topic: TopicConfig) -> list[TopicMatch]:
    """The window's items in the topic, newest number first."""
    found: list[TopicMatch] = []
    for number in sorted(data.active, reverse=True):
        item = data.items[number]
        paths = [f.path for f in data.files.get(number, [])]
        reasons = match_item(item, paths, topic)
        if reasons:
            found.append(TopicMatch(number, reasons))
    return found
