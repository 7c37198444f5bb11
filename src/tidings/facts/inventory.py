"""What the store holds: one line per repository, for `tidings repos` (facts/load/inventory.py
counts it)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class RepoSummary(BaseModel):
    full_name: str
    issues: int
    prs: int
    comments: int
    reviews: int
    latest_update: datetime | None  # newest item updated_at: how fresh the data is
    last_synced: datetime | None  # newest sync cursor write
