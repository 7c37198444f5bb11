"""The effect a PR says it has, in its own words: "TPOT 48 ms -> 45.4 ms", "reduces the
communication volume by nearly 50%", "2× faster". Readers of the seed reports value a change's
measured effect above its description; the rules writer cannot judge one, but it can find the
sentence where the author states it and quote it, marked as the PR's claim.

A sentence counts when it holds a measured change: two numbers joined by an arrow or by
"from … to", a percentage or a multiple beside a word of change, or a Chinese 提升/降低 with a
number. Numbers inside inline code (`512 % 128`) and timeouts are not effects.
"""

from __future__ import annotations

import re

from tidings.common.config import Lang
from tidings.facts.prose import INLINE_CODE, cut
from tidings.report.excerpt import sentences

# Room for the quoted sentence: in a Chinese report an English quote costs more to read.
EFFECT_CHARS: dict[Lang, int] = {"zh": 120, "en": 180}

_NUM = r"~?\d[\d,]*(?:\.\d+)?"
_UNIT = (
    r"(?:\s*(?:%|×|x\b|倍|tok(?:en)?s?/s\b|tps\b|qps\b|it/s\b|ms\b|µs\b|us\b|ns\b|s\b|sec\b|"
    r"seconds?\b|mins?\b|minutes?\b|h\b|hours?\b|[KMGT]i?B\b|[KMG]\b|秒|分钟|小时))"
)
_METRIC = re.compile(
    r"throughput|latency|ttft|tpot|itl|qps|tps|tok/s|tokens?/s|memory|time|duration|speed|"
    r"bandwidth|bubble|吞吐|时延|延迟|耗时|显存|内存|速度",
    re.IGNORECASE,
)
_CHANGE_VERB = (
    r"(?:improv\w*|reduc\w*|speed\w*(?: up)?|boost\w*|increas\w*|decreas\w*|lower\w*|cut\w*|"
    r"sav\w*|shrink\w*|gain\w*|drop\w*)"
)
_CHANGE_WORD = rf"(?:{_CHANGE_VERB}|faster|slower|fewer|less)"
# 48 ms -> 45.4 ms, 878 tps → 899 tps, 2,930 → 3,610 tok/s
_ARROW = re.compile(rf"{_NUM}{_UNIT}?\s*(?:->|→|=>|⇒)\s*{_NUM}{_UNIT}?")
# from 3.8ms to 2.8ms, from 46% to 98%
_FROM_TO = re.compile(
    rf"(?<!ranging )(?<!range )\bfrom\s+{_NUM}{_UNIT}?\s+to\s+{_NUM}{_UNIT}", re.IGNORECASE
)
_EFFECT = [
    _ARROW,
    _FROM_TO,
    # 从 0.9 s 降到 1.9 s
    re.compile(rf"从\s*{_NUM}{_UNIT}?\s*\S{{0,3}}?(?:到|至|变成|变为)\s*{_NUM}{_UNIT}"),
    # ~72% TTFT improvement, 22% perf boost, 1.5x faster
    re.compile(rf"{_NUM}\s*(?:%|×|x\b)\s*(?:[\w/-]+\s+){{0,2}}{_CHANGE_WORD}", re.IGNORECASE),
    # reduces the communication volume by nearly 50%, saved 1.48 GB
    re.compile(
        rf"{_CHANGE_VERB}\s+(?:[\w/.-]+\s+){{0,5}}?(?:by\s+)?(?:about\s+|nearly\s+|roughly\s+|"
        rf"up to\s+|around\s+|~)?{_NUM}\s*(?:%|×|x\b|倍|[KMGT]i?B\b)",
        re.IGNORECASE,
    ),
    # 提升 30%, 降低 2 倍, 性能提升约 1.2 倍
    re.compile(rf"(?:提升|提高|降低|减少|节省|加速|缩短)\s*(?:了|约|近|超过)?\s*{_NUM}\s*(?:%|倍)"),
]
_NOT_EFFECT = re.compile(r"timeout|超时", re.IGNORECASE)
_TABLE_ROW = re.compile(r"(?:\s\|\s.*){3}")  # a table pasted without its leading pipes


def _states_effect(sentence: str) -> bool:
    prose = INLINE_CODE.sub(" ", sentence)
    if _NOT_EFFECT.search(prose) or _TABLE_ROW.search(prose):
        return False
    for pattern in _EFFECT:
        m = pattern.search(prose)
        if m is None:
            continue
        # A bare "a -> b" needs a unit or a metric word: "3 -> 4" alone may be a version; and
        # "from 0 to 16K" is a range unless something in the sentence changed or was measured.
        if pattern is _ARROW and not (re.search(_UNIT, m.group()) or _METRIC.search(prose)):
            continue
        if pattern is _FROM_TO and not (
            _METRIC.search(prose) or re.search(_CHANGE_WORD, prose, re.IGNORECASE)
        ):
            continue
        return True
    return False


def stated_effect(body: str | None, limit: int, *, already: str = "") -> str:
    """The first sentence of `body` that states a measured effect, at most `limit`
    characters, or "" when there is none or `already` (the quote shown beside it) has it."""
    for sentence in sentences(body):
        if not _states_effect(sentence):
            continue
        said = cut(sentence, limit)
        if not said or not _states_effect(said):
            continue  # the cut lost the number
        if " ".join(sentence.split())[:40] in " ".join(already.split()):
            return ""
        return said
    return ""
