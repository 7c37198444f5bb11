"""Re-lands: a PR that brings back a reverted change, linked to the PR it brings back and to
the revert it undoes.

A re-land is no revert (it undoes an undo), and no risk in itself: its own diff is judged by
the rules like any PR's. What a reader needs is the history, so it is a link, not a tag: the
weekly says "re-lands #6357 (reverted by #6459)" wherever it shows the PR. The text says what
it can (reverts.reland_ref: `Reapply "X (#6041)" (#6227)`, "This PR reverts "[X] Revert …"
#6459"); the store answers the rest: the revert's commit names the revert, and the revert's
own text (or its link) names the PR it reverted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tidings.facts.reverts import ByNumber, BySha, ByTitle, RelandRef, link, revert_ref


@dataclass(frozen=True, slots=True)
class Reland:
    """The PR a re-land brings back and the revert it undoes, where known."""

    original: int | None
    revert: int | None


def link_reland(
    ref: RelandRef,
    number: int,
    merged_at: datetime,
    by_sha: BySha,
    by_title: ByTitle,
    by_number: ByNumber | None,
) -> Reland:
    """The re-land's PRs: the text's, else the store's (the revert by its commit, the
    original by what the revert reverts, else by the quoted title)."""
    revert = ref.revert
    if revert is None and ref.sha:
        revert = by_sha(ref.sha)
    original = ref.original
    if original is None and revert is not None and by_number is not None:
        original = reverted_by(revert, by_sha, by_title, by_number)
    if original is None and ref.title:
        original = by_title(ref.title, merged_at)
    return Reland(_not(original, number), _not(revert, number))


def reverted_by(revert: int, by_sha: BySha, by_title: ByTitle, by_number: ByNumber) -> int | None:
    """The PR that `revert` reverts, if the store holds it and it is a revert."""
    known = by_number(revert)
    if known is None:
        return None
    title, body, merged_at = known
    ref = revert_ref(title, body, revert)
    if ref is None:
        return None
    return ref.number or link(ref, revert, merged_at, by_sha, by_title)


def _not(value: int | None, number: int) -> int | None:
    return None if value == number else value
