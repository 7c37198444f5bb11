"""The faithfulness guard: model text may only cite what the facts hold.

Every `#N`, `@login`, path, version and number in a model sentence must appear in the facts the
model was given for that task; a sentence that cites anything else, or carries a URL, is
dropped. What is left is plain text: the renderer escapes it, so mentions and references in it
are inert anyway, but a dropped sentence is one a reader never sees.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_SENTENCE = re.compile(r"(?<=[.!?;])\s+|(?<=[。！？；])")
_REF = re.compile(r"#(\d+)")
_MENTION = re.compile(r"@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\[bot\])?)")
_URL = re.compile(r"(?i)\b(?:https?|ftp)://|\bwww\.|\]\(")
_PATH = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-*]+)+/?")
_EXT = "py|cu|cuh|cpp|cc|c|h|hpp|rs|go|ts|js|md|toml|yaml|yml|json|txt|sh|cmake"
_FILE = re.compile(rf"(?<![A-Za-z0-9_/])[A-Za-z0-9_\-]+\.(?:{_EXT})\b")
_VERSION = re.compile(r"(?<![A-Za-z0-9_.])v?\d+(?:\.\d+){2,3}(?:[a-z0-9.+-]*)?(?![0-9])")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.#/])\d+(?:[.,]\d+)?")


@dataclass
class Facts:
    """What a task's model text may cite: built from the exact input the model was given."""

    numbers: set[int] = field(default_factory=set)  # item numbers
    logins: set[str] = field(default_factory=set)
    text: str = ""  # the input, serialised: paths and versions must appear in it verbatim
    values: set[float] = field(default_factory=set)  # every number in the input

    @classmethod
    def of(cls, payload: Any, *, numbers: set[int], logins: set[str]) -> Facts:
        text = json.dumps(payload, ensure_ascii=False, default=str)
        values = {_num(v) for v in re.findall(r"\d+(?:\.\d+)?", text)}
        values |= {float(n) for n in numbers}
        lowered = {x.lower() for x in logins}
        return cls(numbers=set(numbers), logins=lowered, text=text, values=values)


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def problems(sentence: str, facts: Facts) -> list[str]:
    """Why a sentence cannot stay (empty: it can)."""
    out: list[str] = []
    if _URL.search(sentence):
        out.append("a link")
    rest = sentence
    for match in _REF.finditer(sentence):
        if int(match.group(1)) not in facts.numbers:
            out.append(f"#{match.group(1)}")
    rest = _REF.sub(" ", rest)
    for match in _MENTION.finditer(rest):
        if match.group(1).lower() not in facts.logins:
            out.append(f"@{match.group(1)}")
    rest = _MENTION.sub(" ", rest)
    for pattern in (_PATH, _FILE, _VERSION):
        for match in pattern.finditer(rest):
            token = match.group(0).rstrip("/.")
            if token and token not in facts.text:
                out.append(token)
        rest = pattern.sub(" ", rest)
    for match in _NUMBER.finditer(rest):
        token = match.group(0)
        # "1,024" may be a thousands separator or a list ("128,128"): either reading will do.
        if _num(token) not in facts.values and not all(
            _num(part) in facts.values for part in token.split(",")
        ):
            out.append(token)
    return out


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def keep_faithful(text: str, facts: Facts) -> tuple[str, int]:
    """The text without the sentences that cite what the facts lack, and how many went."""
    kept: list[str] = []
    dropped = 0
    for sentence in sentences(text):
        if problems(sentence, facts):
            dropped += 1
        else:
            kept.append(sentence)
    joiner = "" if kept and all(_cjk_end(s) for s in kept) else " "
    return joiner.join(kept), dropped


def _cjk_end(sentence: str) -> bool:
    return sentence[-1] in "。！？；"
