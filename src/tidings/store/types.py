"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, String
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


JSONType = JSON().with_variant(JSONB(), "postgresql")
