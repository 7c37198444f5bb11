"""The merged PRs of a window as the risk rules read them (facts/risk.py `MergedPR`): each with
its files and their patches, its reviews before the merge, what the sync could not read of it
(store/gaps.py), and each revert and re-land linked through the store.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.facts.load.lookups import store_lookups, store_texts
from tidings.facts.risk import MergedPR, PRFile, link_reverts
from tidings.store import schema
from tidings.store.gaps import read_gaps, unread_diffs


def load_merged(conn: Connection, repo_id: int, start: datetime, end: datetime) -> list[MergedPR]:
    """The PRs merged in [start, end) with their files and reviews: three queries."""
    it, f, rv = schema.items, schema.pr_files, schema.reviews
    rows = conn.execute(
        sa.select(
            it.c.number,
            it.c.title,
            it.c.body,
            it.c.author,
            it.c.author_type,
            it.c.labels,
            it.c.merged_at,
            it.c.source,
            it.c.detail_updated_at,
            it.c.unresolved_threads,
            it.c.changed_files,
        )
        .where(
            it.c.repo_id == repo_id,
            ~it.c.deleted,
            it.c.kind == "pr",
            it.c.merged_at >= start,
            it.c.merged_at < end,
        )
        .order_by(it.c.number)
    ).all()
    numbers = [r.number for r in rows]
    files: dict[int, list[PRFile]] = {n: [] for n in numbers}
    approvers: dict[int, set[str]] = {n: set() for n in numbers}
    reviews: dict[int, int] = dict.fromkeys(numbers, 0)
    merged_at = {r.number: r.merged_at for r in rows}
    gapped = read_gaps(conn, repo_id)
    cut = {n for n, gaps in gapped.items() if "files" in gaps}
    authors = {r.number: r.author for r in rows}
    for chunk in _chunks(numbers):
        for row in conn.execute(
            sa.select(
                f.c.number,
                f.c.path,
                f.c.previous_path,
                f.c.status,
                f.c.additions,
                f.c.deletions,
                f.c.patch,
            )
            .where(f.c.repo_id == repo_id, f.c.number.in_(chunk))
            .order_by(f.c.number, f.c.path)
        ):
            files[row.number].append(
                PRFile(
                    path=row.path,
                    previous_path=row.previous_path,
                    status=row.status,
                    additions=row.additions,
                    deletions=row.deletions,
                    patch=row.patch,
                )
            )
        for review in conn.execute(
            sa.select(rv.c.number, rv.c.author, rv.c.state, rv.c.submitted_at).where(
                rv.c.repo_id == repo_id, ~rv.c.deleted, rv.c.number.in_(chunk)
            )
        ):
            n = review.number
            if review.submitted_at is None or review.submitted_at > merged_at[n]:
                continue  # a pending draft, or a review after the merge: not what approved it
            reviews[n] += 1
            if review.state == "APPROVED" and review.author and review.author != authors[n]:
                approvers[n].add(review.author)
    prs = [
        MergedPR(
            number=r.number,
            title=r.title,
            body=r.body,
            author=r.author,
            author_type=r.author_type,
            labels=tuple(r.labels or ()),
            merged_at=r.merged_at,
            source=r.source,
            reviews_known=r.source != "git"
            and r.detail_updated_at is not None
            and not _review_gap(gapped.get(r.number, {})),
            reviews_incomplete=_review_gap(gapped.get(r.number, {})),
            approvers=tuple(sorted(approvers[r.number])),
            reviews=reviews[r.number],
            # A thread count from an incomplete read is the store's older one: not a fact.
            unresolved_threads=None
            if "reviewThreads" in gapped.get(r.number, {})
            else r.unresolved_threads,
            files=tuple(files[r.number]),
            files_total=r.changed_files if r.number in cut else None,
            unread_diffs=unread_diffs(gapped.get(r.number, {}), r.changed_files),
        )
        for r in rows
    ]
    return link_reverts(prs, *store_lookups(conn, repo_id), store_texts(conn, repo_id))


def _review_gap(gaps: dict[str, str]) -> bool:
    """Whether a PR's reviews or review threads were last read incomplete."""
    return "reviews" in gaps or "reviewThreads" in gaps


def _chunks(values: list[int], size: int = 500) -> Iterable[list[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]
