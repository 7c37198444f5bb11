"""Many repositories at once for the fake GitHub: the scale benchmark's 500 and the queue
test's 30 (docs/scale.md). Each is a `generate_week` under its own name, its own seed, busy
or quiet, in the last full week before `now`, so a first sync bounded to the last 14 days
reads all of it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from testkit.generate import REPO, generate_week
from tidings.common.records import ClosingRefRecord, Record, RepositoryRecord

# A quiet repository's week: a few items, a few comments (most of a fleet is this).
QUIET = {"prs": 3, "issues": 2, "comments_and_reviews": 12, "pr_files": 6}
# A busy one's: a fifth of the vLLM-scale week (testkit.generate.quick_week's shape).
BUSY = {"prs": 140, "issues": 40, "comments_and_reviews": 1000, "pr_files": 600}


def last_full_week(now: datetime) -> datetime:
    """Monday 00:00 UTC of the last ISO week that ended before `now`."""
    today = now.astimezone(UTC).date()
    monday = today - timedelta(days=today.weekday() + 7)
    return datetime(monday.year, monday.month, monday.day, tzinfo=UTC)


def fleet_name(k: int, busy: bool) -> str:
    return f"fleet/{'busy' if busy else 'quiet'}-{k:03d}"


def renamed(records: list[Record], full_name: str) -> list[Record]:
    """`records` of `generate_week`'s repository as the records of `full_name`."""
    out: list[Record] = []
    for record in records:
        if isinstance(record, RepositoryRecord):
            record = record.model_copy(update={"full_name": full_name, "url": None})
        elif isinstance(record, ClosingRefRecord) and record.issue_repo == REPO:
            record = record.model_copy(update={"issue_repo": full_name})
        out.append(record)
    return out


def fleet(
    quiet: int, busy: int, *, now: datetime | None = None, seed: int = 0
) -> dict[str, list[Record]]:
    """`busy` busy and `quiet` quiet repositories' records, by name (busy ones first)."""
    start = last_full_week(now or datetime.now(UTC))
    repos: dict[str, list[Record]] = {}
    for k in range(busy):
        name = fleet_name(k, True)
        repos[name] = renamed(generate_week(seed * 10_000 + k, start=start, **BUSY), name)
    for k in range(quiet):
        name = fleet_name(k, False)
        records = generate_week(seed * 10_000 + 5_000 + k, start=start, **QUIET)
        repos[name] = renamed(records, name)
    return repos
