"""Records straight into a store, as a sync would leave them: the fixture writer of tests and
benchmarks (a sync or snapshot import is what they test; this only sets the scene)."""

from __future__ import annotations

from collections.abc import Iterable

from tidings.common import records as r
from tidings.store import Store
from tidings.store.rows import update_repository, write_records


def seed(store: Store, records: Iterable[r.Record]) -> int:
    """Write records into the store; the first must be the RepositoryRecord they belong to.
    Returns the repository's id."""
    head, *rest = records
    assert isinstance(head, r.RepositoryRecord), "seed() wants the repository record first"
    with store.begin() as conn:
        repo_id = store.repo_id(conn, head.full_name, create=True)
        assert repo_id is not None  # create=True
        update_repository(conn, repo_id, head)
        write_records(store, conn, repo_id, rest)
    return repo_id
