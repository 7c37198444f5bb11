"""What every report's provenance footer says about itself, shared by the daily and weekly
builders: the window in UTC, and what a model wrote."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from tidings.facts.windows import Window, utc_offset
from tidings.report.model import LLMRun, Prose

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.result import Analysis


def window_utc(window: Window) -> str:
    """`2026-02-24T03:31:00Z ~ 2026-02-25T03:31:00Z`."""
    info = window.to_dict()
    return f"{info['start']} ~ {info['end']}"


def local_time(moment: datetime, timezone: str) -> str:
    """`2026-03-13 22:00 (UTC+8)`: a moment as the report's window shows its ends."""
    at = moment.astimezone(ZoneInfo(timezone))
    return f"{at:%Y-%m-%d %H:%M} ({utc_offset(at)})"


def prose_values(node: object) -> list[Prose]:
    """Every Prose value in a report model, in field order."""
    if isinstance(node, Prose):
        return [node]
    if isinstance(node, list):
        return [p for x in node for p in prose_values(x)]
    if isinstance(node, BaseModel):
        return [p for name in type(node).model_fields for p in prose_values(getattr(node, name))]
    return []


def record_llm(report: Any, texts: Analysis) -> None:
    """Say in `report.provenance` what the model wrote: never how this run got the answers
    (calls or cache hits), which would make a re-run on unchanged data rewrite the report."""
    by = Counter(p.by for p in prose_values(report))
    usage = texts.usage
    report.provenance.llm = LLMRun(
        model=texts.model,
        dropped_sentences=usage.dropped_sentences,
        fallbacks=usage.failures,
        model_parts=by["llm"],
        rules_parts=by["rules"],
    )
    if by["llm"]:
        report.provenance.writer = "mixed" if by["rules"] else "llm"
