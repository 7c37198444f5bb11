"""What the model layer hands a report writer: texts keyed by slot, and what it cost."""

from __future__ import annotations

from dataclasses import dataclass, field

from tidings.analysis.provider import Usage
from tidings.facts.slots import Slot


@dataclass(frozen=True)
class HighlightGroup:
    """A technical direction the model proposed, with the week's merged PRs that carry it
    (each checked to be one)."""

    theme: str
    text: str
    numbers: tuple[int, ...]


@dataclass
class Analysis:
    """One window's model text: every text passed the guard; a slot with none keeps the
    rules' text (facts/slots.py names the slots)."""

    texts: dict[Slot, str] = field(default_factory=dict)
    highlights: list[HighlightGroup] = field(default_factory=list)
    importance: dict[int, int] = field(default_factory=dict)  # PR -> bounded adjustment
    notes: dict[int, list[str]] = field(default_factory=dict)  # PR -> guarded notes
    # This window's own counts (answers reused, sentences dropped, fallbacks); requests and
    # tokens are counted by the provider for the whole run (`Analyst.usage`).
    usage: Usage = field(default_factory=Usage)
    model: str = ""

    def text(self, slot: Slot) -> str | None:
        return self.texts.get(slot)
