"""PRs whose details fail even when asked for alone, set aside so they block nothing else.

A PR GitHub cannot answer (a query that times out for it whatever its size, an answer that keeps
coming back in the wrong shape) used to stop every sync at the same place, forever: the work list
is in number order and the steps after PR details never ran. Such a PR is now *quarantined*: the
sync notes it, goes on with the other PRs and the later steps, and retries it on later runs
with a growing gap — the next run, then after 2, 4, 8… runs (at most every `MAX_GAP` runs) —
until it answers. Kept in `sync_state`, one stream per PR (`quarantine:NUMBER`, the cursor a JSON
object), so no migration is needed and a snapshot carries it. The GitHub source decides when a
PR is set aside (sources/github/details.py); this module keeps the record of it.

The same record, under `reread:NUMBER`, schedules a PR whose details came back incomplete (a
part refused with FORBIDDEN, a connection shorter than its count): GitHub often answers in
full on a later try, so it is read again on every later run, at most `MAX_REREADS` times in a
row, instead of only once the PR changes.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.store import schema
from tidings.store.db import Store
from tidings.store.gaps import put_state

PREFIX = "quarantine:"
REREAD = "reread:"
MAX_GAP = 64  # runs between two tries, at most
MAX_REREADS = 8  # incomplete reads of one PR in a row before its gap is taken as lasting


@dataclass
class Quarantined:
    number: int
    failures: int  # failed runs in a row
    wait: int  # runs still to skip before the next try
    reason: str  # the last failure, one line

    @property
    def due(self) -> bool:
        return self.wait <= 0


def stream(number: int, prefix: str = PREFIX) -> str:
    return f"{prefix}{number}"


def gap_after(failures: int) -> int:
    """Runs to skip after the `failures`-th failure in a row: retried on the next run after
    the first, then after 2, 4, 8… runs."""
    return min(MAX_GAP, 2 ** max(0, failures - 1)) - 1


def load(conn: Connection, repo_id: int, prefix: str = PREFIX) -> dict[int, Quarantined]:
    t = schema.sync_state
    rows = conn.execute(
        sa.select(t.c.stream, t.c.cursor).where(
            t.c.repo_id == repo_id, t.c.stream.startswith(prefix, autoescape=True)
        )
    )
    out: dict[int, Quarantined] = {}
    for name, cursor in rows:
        number = name.removeprefix(prefix)
        try:
            data = json.loads(cursor or "{}")
            entry = Quarantined(
                number=int(number),
                failures=int(data["failures"]),
                wait=int(data["wait"]),
                reason=str(data.get("reason") or ""),
            )
        except (ValueError, KeyError, TypeError):
            continue  # not ours to interpret: a hand-edited snapshot, say
        out[entry.number] = entry
    return out


def save(
    store: Store, conn: Connection, repo_id: int, entry: Quarantined, prefix: str = PREFIX
) -> None:
    data = {k: v for k, v in asdict(entry).items() if k != "number"}
    put_state(store, conn, repo_id, stream(entry.number, prefix), data)


def release(
    store: Store, conn: Connection, repo_id: int, number: int, prefix: str = PREFIX
) -> None:
    put_state(store, conn, repo_id, stream(number, prefix), None)
