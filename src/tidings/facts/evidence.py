"""What a model may read about a PR beyond its text: risk tags with the added lines around
their evidence, the PR's added code, and its inline review threads.

Loaded only when a model writes the report (a rules-only run never pays for it), by
facts/load/evidence.py. The same PR gets the same evidence whichever report loads it (the tags
of a PR merged in the window, its threads by number), so a PR card built for a daily report
and for its week hash alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from tidings.common.config import RepoConfig
from tidings.facts.risk import MergedPR, RiskTag, assess_all
from tidings.facts.threads import ReviewThread


@dataclass(frozen=True)
class PREvidence:
    merged: MergedPR | None  # set when the PR merged in the window: its files with patches
    tags: list[RiskTag] = field(default_factory=list)
    threads: list[ReviewThread] = field(default_factory=list)


def pr_evidence(
    numbers: Iterable[int],
    repo: RepoConfig,
    merged: Iterable[MergedPR],
    threads: Mapping[int, list[ReviewThread]],
    tags: Mapping[int, list[RiskTag]] | None = None,
) -> dict[int, PREvidence]:
    """Evidence for the PRs in `numbers`, by number: those merged in the window (`merged`)
    with their risk tags (`tags`, or assessed here), each with its threads."""
    wanted = set(numbers)
    by_number = {p.number: p for p in merged if p.number in wanted}
    if tags is None:
        tags = assess_all(by_number.values(), repo)
    return {
        n: PREvidence(
            merged=by_number.get(n),
            tags=list(tags.get(n, [])) if n in by_number else [],
            threads=threads.get(n, []),
        )
        for n in sorted(wanted)
    }
