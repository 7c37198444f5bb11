"""The values the store holds, checked before a write so a bad one is named in one line.

PostgreSQL refuses an integer outside its column's type (INTEGER is 32-bit, BIGINT 64-bit) and
SQLite anything beyond 64 bits, each with a driver error that names neither the record nor the
fix — and a PR number such as `(#3000000000)` in a commit subject then failed every later git
sync. Times are held to 1970–2099: tidings' sources (GitHub, git) count from the Unix epoch, so
anything outside is a broken clock or an edit, and a far-future time would pin sync cursors and
cannot be read back at all on a PostgreSQL session east of UTC when it is near year 9999.

The same limits apply on both backends, so a store moves between them losslessly.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from functools import cache
from typing import Any

import sqlalchemy as sa

from tidings.store.types import LosslessString, UTCDateTime, escape_text

INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
END = datetime(2100, 1, 1, tzinfo=UTC)  # exclusive
TIME_RANGE = f"{EARLIEST.year}–{END.year - 1}"


@cache
def _checks(
    table: sa.Table,
) -> tuple[tuple[tuple[str, int, int], ...], tuple[str, ...], tuple[tuple[str, int], ...]]:
    ints: list[tuple[str, int, int]] = []
    times: list[str] = []
    strings: list[tuple[str, int]] = []
    for column in table.columns:
        kind = column.type
        if isinstance(kind, sa.BigInteger):  # before Integer: BigInteger is a subclass
            ints.append((column.name, *INT64))
        elif isinstance(kind, sa.Integer):
            ints.append((column.name, *INT32))
        elif isinstance(kind, UTCDateTime):
            times.append(column.name)
        elif isinstance(kind, LosslessString):
            length = getattr(kind.impl_instance, "length", None)
            if length:
                strings.append((column.name, length))
    return tuple(ints), tuple(times), tuple(strings)


def row_problem(table: sa.Table, row: Mapping[str, Any]) -> str | None:
    """Why the store cannot hold `row` of `table`, or None when it can."""
    ints, times, strings = _checks(table)
    # A plain loop without isinstance: this runs for every row every writer stores.
    try:
        for name, low, high in ints:
            value = row.get(name)
            if value is not None and (value < low or value > high):
                return f"{name} {value} is out of range (the store holds {low} to {high})"
        for name in times:
            value = row.get(name)
            if value is not None and (value < EARLIEST or value >= END):
                shown = value.astimezone(UTC).isoformat().replace("+00:00", "Z")
                return f"{name} {shown} is out of range (the store holds years {TIME_RANGE})"
        for name, most in strings:
            value = row.get(name)
            # PostgreSQL refuses a VARCHAR(n) value past n, SQLite keeps it: measured as stored
            # on PostgreSQL (types.escape_text) so both hold the same values.
            if value is not None and len(escape_text(value)) > most:
                return f"{name} is {len(value)} characters long (the store holds at most {most})"
    except TypeError:
        return None  # not a number or an aware time: the column type itself will object
    return None


def row_name(table: sa.Table, row: Mapping[str, Any]) -> str:
    """The row's key for messages, e.g. `items number=3000000000`."""
    key = [c.name for c in table.primary_key.columns if c.name != "repo_id"]
    return f"{table.name} " + " ".join(f"{name}={row.get(name)!r}" for name in key)
