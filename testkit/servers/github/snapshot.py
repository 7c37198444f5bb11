"""Snapshot files (JSON Lines of records) read into records for the fake."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from tidings.common import records as r


def _iter_records(path: str | Path) -> Iterator[r.Record]:
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                data = json.loads(line)
                if data.get("type") != "header":
                    yield r.RECORD_TYPES[data["type"]].model_validate(data)
