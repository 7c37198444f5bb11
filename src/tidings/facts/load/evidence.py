"""What a model may read about a window's PRs beyond their text (facts/evidence.py): the merged
PRs with their patches and their inline review threads.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy.engine import Connection

from tidings.common.config import RepoConfig
from tidings.facts.evidence import PREvidence, pr_evidence
from tidings.facts.load.merged import load_merged
from tidings.facts.load.reviews import load_threads
from tidings.facts.risk import MergedPR, RiskTag


def window_evidence(
    conn: Connection,
    repo_id: int,
    repo: RepoConfig,
    start: datetime,
    end: datetime,
    numbers: Iterable[int],
    authors: dict[int, str | None],
    *,
    merged: list[MergedPR] | None = None,
    tags: dict[int, list[RiskTag]] | None = None,
) -> dict[int, PREvidence]:
    """Evidence for the PRs in `numbers`; `merged`/`tags` when the caller already has them
    (the weekly facts do), else loaded for [start, end)."""
    wanted = set(numbers)
    if merged is None:
        merged = load_merged(conn, repo_id, start, end)
    threads = load_threads(conn, repo_id, wanted, authors, repo.bots)
    return pr_evidence(wanted, repo, merged, threads, tags)
