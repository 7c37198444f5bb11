"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, String, Text
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine


class UTCDateTime(TypeDecorator[datetime]):
    """Aware UTC datetimes in, aware UTC datetimes out.

    PostgreSQL keeps a native ``timestamptz``; SQLite keeps ``YYYY-MM-DDTHH:MM:SSZ`` text, which
    sorts and compares correctly as a string, so window queries work the same on both.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(String(20))
        return dialect.type_descriptor(DateTime(timezone=True))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use UTC-aware datetimes")
        value = value.astimezone(UTC).replace(microsecond=0)
        if dialect.name == "sqlite":
            return value.strftime("%Y-%m-%dT%H:%M:%SZ")
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):
            # fromisoformat reads our own `YYYY-MM-DDTHH:MM:SSZ` about ten times faster than
            # strptime, which dominated loading a busy week's rows.
            return datetime.fromisoformat(value).replace(tzinfo=UTC)
        return value.astimezone(UTC)


# -- text that PostgreSQL would refuse -----------------------------------------------------
#
# PostgreSQL's text types cannot hold NUL (U+0000), and JSONB refuses "\u0000" in its strings;
# SQLite keeps both. GitHub text (a pasted binary log in a comment) can contain NUL, and one
# such row used to fail every sync on PostgreSQL. So on PostgreSQL only, a string that contains
# NUL, or that happens to start with the marker below, is stored as the marker followed by the
# string as a JSON string literal (which spells NUL as the six characters \u0000). Every other
# string is stored as it is, so queries, ordering and the database's own tools see ordinary
# text. Reading reverses it exactly, so the store and its snapshots hold the same text on both
# backends, byte for byte (docs/snapshot.md). The marker is U+FDD0, a Unicode noncharacter:
# reserved for a program's internal use and never meant to appear in interchanged text.

TEXT_MARK = "\ufdd0"
# A lone UTF-16 surrogate: GitHub's JSON can spell one ("\\ud83d", half an emoji cut by a
# truncation), Python's json decodes it into a str, and no UTF-8 encoder takes it — neither
# SQLite's nor PostgreSQL's driver, so one such title once stopped every later sync. On both
# backends such a string is stored the same way as NUL on PostgreSQL: the marker and a JSON
# literal, where the surrogate is the six characters \ud83d. Lossless: reading gives it back.
_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_text(value: str, *, nul: bool = True) -> str:
    """`value` as a backend can store it; `nul`: NUL must go too (PostgreSQL)."""
    if (nul and "\x00" in value) or value.startswith(TEXT_MARK) or _SURROGATE.search(value):
        literal = json.dumps(value, ensure_ascii=False)
        return TEXT_MARK + _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", literal)
    return value


def unescape_text(value: str) -> str:
    if value.startswith(TEXT_MARK):
        try:
            return str(json.loads(value[len(TEXT_MARK) :]))
        except ValueError:  # an older SQLite row starting with the marker, stored as it was
            return value
    return value


def _escape_json(value: Any) -> Any:
    if isinstance(value, str):
        return escape_text(value)
    if isinstance(value, dict):
        return {escape_text(str(k)): _escape_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escape_json(v) for v in value]
    return value


def _unescape_json(value: Any) -> Any:
    if isinstance(value, str):
        return unescape_text(value)
    if isinstance(value, dict):
        return {unescape_text(k): _unescape_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_unescape_json(v) for v in value]
    return value


class _Lossless(TypeDecorator[str]):
    """Shared by LosslessString and LosslessText: escapes on PostgreSQL only."""

    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        if value is None:
            return value
        return escape_text(value, nul=dialect.name == "postgresql")  # SQLite keeps NUL

    def process_result_value(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return value
        return unescape_text(value)


class LosslessString(_Lossless):
    """`String(n)` whose text survives PostgreSQL unchanged (see TEXT_MARK)."""

    impl = String
    cache_ok = True  # SQLAlchemy asks each TypeDecorator class to say so itself


class LosslessText(_Lossless):
    """`Text` whose text survives PostgreSQL unchanged (see TEXT_MARK)."""

    impl = Text
    cache_ok = True  # SQLAlchemy asks each TypeDecorator class to say so itself


class LosslessJSON(TypeDecorator[Any]):
    """JSON (JSONB on PostgreSQL) whose strings and keys survive PostgreSQL unchanged."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(JSONB())
        return dialect.type_descriptor(JSON())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name != "postgresql":
            return value
        return _escape_json(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        if value is None or dialect.name != "postgresql":
            return value
        return _unescape_json(value)


JSONType = LosslessJSON()
