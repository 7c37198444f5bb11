"""Topic tracks: which of a window's items belong to a configured topic, why, and how closely.

An item matches a topic by its labels, its title's tags, keywords (title or body) and the
paths it touches. How it matched says how much it is *about* the topic (`relevance`):

- 3, named: a matching label, title tag, or keyword in the title;
- 2, described: a keyword in the body only;
- 1, touched: a topic path only;
- 0, swept: neither label nor title, and the topic's paths are under half of the files of a
  PR touching BROAD_FILES or more (a vLLM main-to-main sync, a formatting sweep): it
  matches because it touches everything, and its body lists everything too.

A track lists its items most relevant first; within equal relevance, merged PRs first, by
importance (facts/importance.py), then the newest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from tidings.common.config import TopicConfig
from tidings.common.globs import glob_match
from tidings.facts.activity_data import Item, WindowData

# How much of a body is searched for keywords: the description, not pasted logs.
_BODY_CHARS = 3000
# A PR touching this many files matches many topics by its paths alone.
BROAD_FILES = 15
_BROAD_SHARE = 0.5  # under this share of its files in the topic's paths, it is not about it

NAMED, DESCRIBED, TOUCHED, SWEPT = 3, 2, 1, 0


@dataclass(frozen=True)
class TopicMatch:
    number: int
    reasons: tuple[str, ...]  # "label:rocm", "tag:[ROCm]", "keyword:MI300X", "path:csrc/x.cu"
    relevance: int = TOUCHED  # NAMED, DESCRIBED, TOUCHED or SWEPT (module docstring)


def _tag(tag: str) -> str:
    return tag if tag.startswith("[") else f"[{tag}]"


def _has_word(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text, re.IGNORECASE) is not None


def match_item(item: Item, paths: list[str], topic: TopicConfig) -> tuple[str, ...]:
    return _match(item, paths, topic)[0]


def _match(item: Item, paths: list[str], topic: TopicConfig) -> tuple[tuple[str, ...], int]:
    """The reasons `item` is in the topic, and how relevant it is (module docstring)."""
    reasons: list[str] = []
    labels = {label.lower(): label for label in item.labels}
    reasons += [f"label:{labels[w.lower()]}" for w in topic.labels if w.lower() in labels]
    title = item.title.lower()
    reasons += [f"tag:{_tag(t)}" for t in topic.title_tags if _tag(t).lower() in title]
    named = bool(reasons)
    body = (item.body or "")[:_BODY_CHARS]
    described = False
    for word in topic.keywords:
        if _has_word(word, item.title):
            reasons.append(f"keyword:{word}")
            named = True
        elif _has_word(word, body):
            reasons.append(f"keyword:{word}")
            described = True
    in_topic = [p for p in paths if any(glob_match(pattern, p) for pattern in topic.paths)]
    for pattern in topic.paths:
        hit = next((p for p in paths if glob_match(pattern, p)), None)
        if hit is not None:
            reasons.append(f"path:{hit}")
    if named:
        return tuple(reasons), NAMED
    files = max(item.changed_files, len(paths))
    if files >= BROAD_FILES and len(in_topic) < _BROAD_SHARE * files:
        return tuple(reasons), SWEPT
    return tuple(reasons), DESCRIBED if described else TOUCHED


def topic_matches(
    data: WindowData, topic: TopicConfig, importance: Sequence[int] = ()
) -> list[TopicMatch]:
    """The window's items in the topic, most relevant first; within equal relevance merged
    PRs (those in `importance`, most important first) by importance, then newest first."""
    found: list[TopicMatch] = []
    for number in data.active:
        item = data.items[number]
        paths = [f.path for f in data.files.get(number, [])]
        reasons, relevance = _match(item, paths, topic)
        if reasons:
            found.append(TopicMatch(number, reasons, relevance))
    rank = {n: k for k, n in enumerate(importance)}
    unranked = len(rank)
    found.sort(
        key=lambda m: (-m.relevance, m.number not in rank, rank.get(m.number, unranked), -m.number)
    )
    return found
