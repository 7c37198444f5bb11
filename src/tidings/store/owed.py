"""The repository totals check a GitHub sync owes, kept until one succeeds.

The totals check (sources/github/reconcile.py) is how deleted and transferred issues and PRs
are found: `since` listings never report them. It used to run only when a listing changed, so
a deletion that happened during a sync whose check failed (an error, or a verdict refused as
implausible) was never found by the quiet syncs after it. Now the debt is written down: a
listing page that changes the store marks the check owed in the same transaction, and only a
check that accounts for every surplus item clears it, so a crash, an error or a refusal leaves
it owed and a later quiet sync pays it.

A check that ran to the end without accounting for everything (GitHub's search lagging behind
a deletion, or an answer refused as implausible) is retried with a growing gap, as
quarantine.py retries a PR: the next run, then after 2, 4, 8… runs (at most every `MAX_GAP`),
so a lasting disagreement costs a quiet sync a few queries now and then, not on every run. A
new change makes it due at once.

Kept in `sync_state` under `owed:totals` (the cursor a JSON object), so no migration is needed
and a snapshot carries it. Like gaps.py's rows, its `updated_at` stays empty: it says nothing
about how far a sync got.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema
from tidings.store.db import Store
from tidings.store.gaps import put_state
from tidings.store.quarantine import gap_after

TOTALS = "owed:totals"


@dataclass(frozen=True)
class Owed:
    tries: int  # checks in a row that ran but did not account for everything
    wait: int  # runs still to skip before the next try
    reason: str  # why it is owed, one line

    @property
    def due(self) -> bool:
        return self.wait <= 0


def owe_totals(store: Store, conn: Connection, repo_id: int, reason: str) -> None:
    """A listing changed the store: the totals check is owed, and due on this run."""
    _save(store, conn, repo_id, Owed(tries=0, wait=0, reason=reason))


def totals_owed(conn: Connection, repo_id: int) -> Owed | None:
    t = schema.sync_state
    cursor = conn.execute(
        sa.select(t.c.cursor).where(t.c.repo_id == repo_id, t.c.stream == TOTALS)
    ).scalar_one_or_none()
    if cursor is None:
        return None
    try:
        data = json.loads(cursor)
        return Owed(
            tries=int(data["tries"]), wait=int(data["wait"]), reason=str(data.get("reason") or "")
        )
    except (ValueError, KeyError, TypeError):
        # Unreadable (a hand-edited snapshot, say): owed, and due, is the safe reading.
        return Owed(tries=0, wait=0, reason="unreadable record")


def settle_totals(store: Store, conn: Connection, repo_id: int) -> None:
    """The check accounted for every surplus item: nothing is owed."""
    put_state(store, conn, repo_id, TOTALS, None)


def defer_totals(
    store: Store, conn: Connection, repo_id: int, before: Owed | None, reason: str
) -> Owed:
    """The check ran but left something unexplained: owed still, next due after a gap."""
    tries = (before.tries if before else 0) + 1
    owed = Owed(tries=tries, wait=gap_after(tries), reason=reason)
    _save(store, conn, repo_id, owed)
    return owed


def skip_totals(store: Store, conn: Connection, repo_id: int, owed: Owed) -> None:
    """A run that let a deferred check wait: one run fewer to go."""
    _save(store, conn, repo_id, Owed(tries=owed.tries, wait=owed.wait - 1, reason=owed.reason))


def _save(store: Store, conn: Connection, repo_id: int, owed: Owed) -> None:
    data = {"tries": owed.tries, "wait": owed.wait, "reason": owed.reason}
    put_state(store, conn, repo_id, TOTALS, data)
