"""What a model may read about a PR beyond its text: risk tags with the added lines around
their evidence, the PR's added code, and its inline review threads.

Loaded only when a model writes the report (a rules-only run never pays for it). The same PR
gets the same evidence whichever report loads it (the tags of a PR merged in the window, its
threads by number), so a PR card built for a daily report and for its week hash alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.engine import Connection

from tidings.config import RepoConfig
from tidings.facts.risk import MergedPR, RiskTag, assess_all, load_merged
from tidings.facts.threads import ReviewThread, load_threads


@dataclass(frozen=True)
class PREvidence:
    merged: MergedPR | None  # set when the PR merged in the window: its files with patches
    tags: list[RiskTag] = field(default_factory=list)
    threads: list[ReviewThread] = field(default_factory=list)


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
    by_number = {p.number: p for p in merged if p.number in wanted}
    if tags is None:
        tags = assess_all(by_number.values(), repo)
    threads = load_threads(conn, repo_id, wanted, authors, repo.bots)
    return {
        n: PREvidence(
            merged=by_number.get(n),
            tags=list(tags.get(n, [])) if n in by_number else [],
            threads=threads.get(n, []),
        )
        for n in sorted(wanted)
    }
