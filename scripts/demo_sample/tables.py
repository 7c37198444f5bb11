"""TOML tables read field by field, so a misspelt or misplaced field is an error, not ignored."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, TypeVar

from demo_sample.model import StoryError

T = TypeVar("T")


class Table:
    """One TOML table; `done()` fails on any field that no reader asked for."""

    def __init__(self, data: dict[str, Any], where: str) -> None:
        self._data = data
        self._used: set[str] = set()
        self.where = where

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def get(self, key: str, kind: type[T]) -> T:
        value = self.optional(key, kind)
        if value is None:
            raise StoryError(f"{self.where}: `{key}` is missing")
        return value

    def optional(self, key: str, kind: type[T]) -> T | None:
        if key not in self._data:
            return None
        self._used.add(key)
        value = self._data[key]
        # A TOML boolean is a Python int too: `commits = true` is a mistake, not 1.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise StoryError(f"{self.where}: `{key}` should be a {kind.__name__}, not {value!r}")
        return value

    def texts(self, key: str) -> list[str]:
        values = self.optional(key, list) or []
        if not all(isinstance(v, str) for v in values):
            raise StoryError(f"{self.where}: `{key}` should be a list of strings")
        return values

    def counts(self, key: str) -> dict[str, int]:
        """A table of counts, such as reactions (`{ "+1" = 3, heart = 1 }`), in written order."""
        table = self.table(key)
        if table is None:
            return {}
        counts = table.rest()
        for name, value in counts.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise StoryError(f"{table.where}: `{name}` should be a positive count")
        return counts

    def table(self, key: str) -> Table | None:
        value = self.optional(key, dict)
        return None if value is None else Table(value, f"{self.where}, {key}")

    def tables(self, key: str) -> list[Table]:
        values = self.optional(key, list) or []
        if not all(isinstance(v, dict) for v in values):
            raise StoryError(f"{self.where}: `{key}` should be a list of tables")
        return [Table(v, f"{self.where}, {key} {i + 1}") for i, v in enumerate(values)]

    def rest(self) -> dict[str, Any]:
        """Every field not read yet, in written order (a table whose keys are its data)."""
        rest = {k: v for k, v in self._data.items() if k not in self._used}
        self._used.update(rest)
        return rest

    def done(self) -> None:
        unknown = [k for k in self._data if k not in self._used]
        if unknown:
            names = ", ".join(f"`{k}`" for k in unknown)
            raise StoryError(
                f"{self.where}: unknown field {names} (misspelt, or in the wrong table?)"
            )


def read(path: Path) -> Table:
    """A TOML file as a Table; every text loses one final line break (see `_trim`)."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise StoryError(f"{path.name}: {e}") from None
    return Table(_trim(data), path.name)


def _trim(value: Any) -> Any:
    # A multi-line text is written with the closing ''' on a line of its own, which TOML reads
    # as a final line break; the text is what lies between the quotes' lines.
    if isinstance(value, str):
        return value.removesuffix("\n")
    if isinstance(value, dict):
        return {k: _trim(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trim(v) for v in value]
    return value
