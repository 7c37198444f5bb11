"""What the model must answer: one pydantic schema per task, validated on every answer.

The JSON schemas sent to the endpoint are generated from these models. They carry no length or
range keywords (OpenAI's strict mode and some vLLM versions reject them); the bounds are
enforced here, after the answer arrives. Change a schema or a prompt: bump PROMPT_VERSION, and
every cached answer made under the old one is ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

PROMPT_VERSION = "2026-12-04.1"  # #21: descriptions, diffs, related items, author_name

MAX_ITEM_TEXT = 400  # characters in one per-item field
MAX_SECTION_TEXT = 900  # characters in one section paragraph
MAX_NOTES = 3
MAX_IMPORTANCE = 2  # the model may move a PR's importance by at most this many points
MAX_THEME_NAME = 80  # characters in a highlight theme's name
MAX_THEMES = 8


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _bounded(limit: int) -> Callable[[str], str]:
    def check(value: str) -> str:
        text = " ".join(value.split())
        if not text:
            raise ValueError("must not be empty")
        if len(text) > limit:
            raise ValueError(f"must be at most {limit} characters, got {len(text)}")
        return text

    return check


class PRNote(_Answer):
    text: str
    evidence: str  # a verbatim quote from the card that supports the note

    _t = field_validator("text", "evidence")(_bounded(MAX_ITEM_TEXT))


class PRAnswer(_Answer):
    number: int
    summary: str
    why: str  # why the change matters to the project's users or developers
    importance: int
    notes: list[PRNote]

    _s = field_validator("summary", "why")(_bounded(MAX_ITEM_TEXT))

    @field_validator("importance")
    @classmethod
    def _importance(cls, value: int) -> int:
        if abs(value) > MAX_IMPORTANCE:
            raise ValueError(f"must be between -{MAX_IMPORTANCE} and {MAX_IMPORTANCE}")
        return value

    @field_validator("notes")
    @classmethod
    def _notes(cls, value: list[PRNote]) -> list[PRNote]:
        if len(value) > MAX_NOTES:
            raise ValueError(f"at most {MAX_NOTES} notes")
        return value


class PRBatch(_Answer):
    items: list[PRAnswer]


class Viewpoint(_Answer):
    login: str
    stance: str

    _s = field_validator("stance")(_bounded(MAX_ITEM_TEXT))


class HotAnswer(_Answer):
    number: int
    core_topic: str
    viewpoints: list[Viewpoint]
    contention: str
    status: str

    _t = field_validator("core_topic", "contention", "status")(_bounded(MAX_ITEM_TEXT))


class HotBatch(_Answer):
    items: list[HotAnswer]


class SectionAnswer(_Answer):
    text: str

    _t = field_validator("text")(_bounded(MAX_SECTION_TEXT))


class ThemeGroup(_Answer):
    """A technical direction of the week and the merged PRs that carry it."""

    theme: str
    text: str
    numbers: list[int]

    _n = field_validator("theme")(_bounded(MAX_THEME_NAME))
    _t = field_validator("text")(_bounded(MAX_ITEM_TEXT))


class HighlightsAnswer(_Answer):
    themes: list[ThemeGroup]

    @field_validator("themes")
    @classmethod
    def _count(cls, value: list[ThemeGroup]) -> list[ThemeGroup]:
        if not 1 <= len(value) <= MAX_THEMES:
            raise ValueError(f"give between 1 and {MAX_THEMES} themes")
        return value


class RiskAnswer(_Answer):
    number: int
    observation: str
    follow_up: str

    _t = field_validator("observation", "follow_up")(_bounded(MAX_ITEM_TEXT))


class RiskBatch(_Answer):
    items: list[RiskAnswer]


class KeyedText(_Answer):
    """One paragraph per entry of a section's list (a theme, a follow-up group)."""

    key: str
    text: str

    _t = field_validator("text")(_bounded(MAX_ITEM_TEXT))


class KeyedBatch(_Answer):
    items: list[KeyedText]


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the strict form OpenAI accepts (all fields required)."""
    schema = model.model_json_schema()

    def strict(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["required"] = list(node["properties"])
                node["additionalProperties"] = False
            node.pop("title", None)
            for value in node.values():
                strict(value)
        elif isinstance(node, list):
            for value in node:
                strict(value)

    strict(schema)
    return schema
