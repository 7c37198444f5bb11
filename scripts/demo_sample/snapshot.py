"""The snapshot file's text, exactly as `tidings export` writes it."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

from demo_sample.build import build
from demo_sample.model import Story
from tidings.common import records as r
from tidings.sources.snapshot import FORMAT, VERSION

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "tidings" / "demo" / "sample.jsonl"


def render(story: Story) -> str:
    """The snapshot file's text, byte for byte: a header line, then one record a line."""
    records = build(story)
    counts = dict.fromkeys(r.RECORD_TYPES, 0)
    for record in records:
        counts[record.type] += 1  # type: ignore[attr-defined]
    header = {
        "type": "header",
        "format": FORMAT,
        # The format `tidings export` writes: the demo has no review threads' state or PR
        # commits (it has no GraphQL details to come from), so they count zero.
        "version": VERSION,
        "tool": story.frame.tool,
        "exported_at": story.frame.exported_at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "repositories": [{"full_name": story.frame.repository, "records": counts}],
    }
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"))]
    lines += [record.model_dump_json() for record in records]
    return "\n".join(lines) + "\n"
