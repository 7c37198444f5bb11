"""Which issues or PRs has GitHub lost? Narrowed by counting creation ranges, then asked for.

The repository totals say *that* the store holds items GitHub no longer has (deleted, or
transferred to another repository), not which. Listing every number to find them costs a query
per 100 stored items (~360 for a year of vLLM's PRs) and is refused when a count moves between
its pages. GitHub's GraphQL connections cannot be narrowed by number or creation time (in its
schema `issues` filters by update time, labels, states…, `pullRequests` by states, labels and
refs), but its search can count: `search(query: "repo:O/R is:pr created:A..B", type: ISSUE)
{ issueCount }`, several such counts aliased into one query. So:

1. The stored live items of the kind, oldest first, are cut into up to `FAN_OUT` ranges of
   about equal size, never splitting a second (search times are whole seconds).
2. GitHub counts each range (`SEARCHES` counts a query). A range where it counts fewer than
   the store holds has lost something; the others are done with.
3. A lossy range of more than `LEAF` items (and more than one second) is cut again (1.); the
   numbers of a smaller one are the candidates.
4. Each candidate is asked for by number (`issueOrPullRequest(number:)`, `LOOKUPS` a query):
   GitHub answers NOT_FOUND for a deleted item and for one transferred away alike (apache/
   devlake#7969). Only that answer marks anything deleted: a count only narrows the search,
   so a lagging search index or a wrong count can cost queries but never a live item.

**Cost.** With k items lost among n stored, each of the ⌈log_F(n / LEAF)⌉ levels counts at most
k ranges' parts (⌈k·F / SEARCHES⌉ queries), and the lookups take ⌈k·LEAF / LOOKUPS⌉: about
k·(log₈(n/100) + 1) queries. For one loss among 36,000 PRs that is 3 counting queries and 1
lookup, against 360 for the listing; docs/benchmarks.md has the measured figures
(`python benchmarks/deletions.py`).

**Counts that move.** Every range is counted on its own (no count is derived from another by
subtraction), so a count moving mid-search touches one range only, and never fails the search.
An item created meanwhile is newer than everything the store holds, so it falls in no range at
all. One deleted meanwhile is found with its range if that is counted after, else by a later
check, like a deletion just after the sync. A deletion the search index has not caught up with
leaves the totals' surplus unexplained: reconcile.py keeps the check owed (store/owed.py) and a
later sync looks again.

When the search would cost as much as listing every number (a small store, many losses at
once, or search counts that disagree with the totals everywhere), `find_gone` says so (None)
before spending more, and reconcile.py lists the numbers instead.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from math import ceil

from tidings.sources.github import queries, shapes
from tidings.sources.github.context import SyncContext

FAN_OUT = 8  # parts a lossy range is cut into
SEARCHES = 8  # counts a query: GitHub runs each as a search, so a query holds a few
LEAF = 100  # a lossy range this small has its numbers asked for
LOOKUPS = 100  # numbers asked for a query
LISTING_PAGE = 100  # numbers a page of the listing it replaces (queries.item_numbers)

Dated = tuple[int, datetime]  # (number, created_at to the second, UTC)


@dataclass
class Found:
    """What a search found: numbers GitHub says are gone, and what it cost."""

    gone: list[int] = field(default_factory=list)
    asked: int = 0  # candidates asked for by number
    queries: int = 0


def listing_cost(held: int) -> int:
    """Queries the full listing of `held` numbers costs."""
    return max(1, ceil(held / LISTING_PAGE))


def search_cost(largest: int, lossy: int, losses: int, extra: int = 0) -> int:
    """Queries a search costs at most from here: `lossy` ranges (the largest of `largest`
    items) hold `losses` lost items between them, and `extra` numbers are to be asked for
    anyway."""
    queries = 0
    size = largest
    while size > LEAF:
        parts = min(FAN_OUT, ceil(size / LEAF))
        queries += ceil(lossy * parts / SEARCHES)
        lossy = min(losses, lossy * parts)
        size = ceil(size / parts)
    return queries + ceil((lossy * size + extra) / LOOKUPS)


def find_gone(
    ctx: SyncContext,
    kind: str,
    held: Sequence[tuple[int, datetime | None]],
    surplus: int,
    repo_name: str,
) -> Found | None:
    """The numbers of `held` (live stored items of `kind`, oldest first) GitHub no longer has,
    `surplus` being how many more the store holds than GitHub counts; None when searching
    would cost as much as listing every number (the module docstring)."""
    dated = [(n, _second(t)) for n, t in held if t is not None]
    # An item with no creation time falls in no range: it is asked for directly.
    candidates = [n for n, t in held if t is None]
    budget = listing_cost(len(held))
    if search_cost(len(dated), 1, surplus, len(candidates)) >= budget:
        return None
    found = Found()
    frontier: list[Sequence[Dated]] = [dated] if dated else []
    while frontier:
        parts = [part for span in frontier for part in _cut(span)]
        counts = _count(ctx, kind, repo_name, parts, found)
        frontier = []
        for part, count in zip(parts, counts, strict=True):
            if len(part) <= count:
                continue
            if len(part) <= LEAF or part[0][1] == part[-1][1]:
                candidates.extend(n for n, _ in part)
            else:
                frontier.append(part)
        # Still cheaper than the listing from here? Search counts that disagree with the
        # totals (more lossy ranges than items lost) make it dearer at every level.
        remaining = search_cost(
            max((len(s) for s in frontier), default=0),
            len(frontier),
            max(surplus, len(frontier)),
            len(candidates),
        )
        if remaining >= budget:
            return None
    found.asked = len(candidates)
    found.gone = _look_up(ctx, sorted(candidates), found)
    return found


def _second(value: datetime) -> datetime:
    return value.astimezone(UTC).replace(microsecond=0)


def _cut(span: Sequence[Dated]) -> list[Sequence[Dated]]:
    """`span` in up to FAN_OUT parts of about LEAF or more items each, about equal in size,
    each boundary moved to the nearest change of second (a second is never split)."""
    changes = [i for i in range(1, len(span)) if span[i][1] != span[i - 1][1]]
    parts = min(FAN_OUT, ceil(len(span) / LEAF))
    if parts <= 1 or not changes:
        return [span]
    cuts: set[int] = set()
    for p in range(1, parts):
        target = round(p * len(span) / parts)
        at = bisect_left(changes, target)
        near = [changes[i] for i in (at - 1, at) if 0 <= i < len(changes)]
        cuts.add(min(near, key=lambda c: abs(c - target)))
    bounds = [0, *sorted(cuts), len(span)]
    return [span[a:b] for a, b in pairwise(bounds)]


def _count(
    ctx: SyncContext, kind: str, repo_name: str, parts: Sequence[Sequence[Dated]], found: Found
) -> list[int]:
    """GitHub's count of the items of `kind` created in each part's time range."""
    qualifier = "is:issue" if kind == "issue" else "is:pr"
    counts: list[int] = []
    for start in range(0, len(parts), SEARCHES):
        batch = parts[start : start + SEARCHES]
        variables = {
            f"q{i}": f"repo:{repo_name} {qualifier} created:{_iso(p[0][1])}..{_iso(p[-1][1])}"
            for i, p in enumerate(batch)
        }
        data = ctx.client.graphql(
            queries.search_counts(len(batch)),
            variables,
            check=shapes.search_counts(len(batch)),
            what="search counts",
        )
        found.queries += 1
        counts.extend(int(data[f"s{i}"]["issueCount"]) for i in range(len(batch)))
    return counts


def _look_up(ctx: SyncContext, numbers: Sequence[int], found: Found) -> list[int]:
    """Which of `numbers` GitHub answers NOT_FOUND for. One refused to this token (FORBIDDEN)
    is not known to be gone, so it is kept."""
    gone: list[int] = []
    for start in range(0, len(numbers), LOOKUPS):
        batch = numbers[start : start + LOOKUPS]
        data, errors = ctx.client.graphql_answer(
            queries.items_by_number(batch),
            ctx.vars,
            check=shapes.items_by_number(batch),
            what="issues and pull requests by number",
        )
        found.queries += 1
        repo = data["repository"]
        gone.extend(
            n
            for n in batch
            if repo[f"n{n}"] is None and shapes.not_found_at(errors, ["repository", f"n{n}"])
        )
    return gone


def _iso(value: datetime) -> str:
    return value.strftime("%Y-%m-%dT%H:%M:%SZ")
