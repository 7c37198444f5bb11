"""The store on SQLite and PostgreSQL: migrations, idempotent upserts, exact round trips."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tests.factories import Records, seed, ts
from tidings import records as r
from tidings.store import Store, schema
from tidings.store.migrate import current_revision
from tidings.store.rows import read_records, write_records


def _every_type(rec: Records) -> list[r.Record]:
    """One of each record type, with non-ASCII text, None fields and JSON columns."""
    return [
        rec.repo("acme/widgets", description="Ünïcödé 仓库 🚀", default_branch="main"),
        rec.issue(
            1,
            "2026-02-24T01:00:00Z",
            title="崩溃: ROCm 上的 FP4 — “quotes”",
            body=None,
            labels=["bug", "rocm", "ü"],
            reactions={"+1": 3, "heart": 1},
            state_reason=None,
        ),
        rec.pr(
            2,
            "2026-02-24T02:00:00Z",
            merged_at="2026-02-24T05:00:00Z",
            merged_by="dave",
            additions=10,
            deletions=2,
            changed_files=2,
            labels=[],
            author=None,
            author_type=None,
            detail_updated_at=ts("2026-02-24T05:00:00Z"),
        ),
        rec.comment(1, "2026-02-24T03:00:00Z", id=11, body="ça va? 好的", reactions={"eyes": 2}),
        rec.review(2, "2026-02-24T04:00:00Z", id=21, state="CHANGES_REQUESTED", body=None),
        rec.review_comment(2, "2026-02-24T04:00:00Z", id=31, review_id=21, line=None),
        rec.file(2, "docs/readme.md", None, None, status="added"),
        rec.file(2, "src/ü.py", 5, 1),
        rec.closing_ref(2, 1),
        rec.sync_state("issues", cursor="2026-02-24T05:00:00Z"),
    ]


def _dump(store: Store, full_name: str = "acme/widgets") -> list[str]:
    with store.engine.connect() as conn:
        return [
            x.model_dump_json() for x in read_records(conn, store.require_repo(conn, full_name))
        ]


def test_migrates_to_head(store: Store) -> None:
    from alembic.script import ScriptDirectory

    from tidings.store.migrate import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert current_revision(store.engine) == head
    names = set(sa.inspect(store.engine).get_table_names())
    assert set(schema.metadata.tables) <= names
    store.migrate()  # a second upgrade is a no-op
    assert current_revision(store.engine) == head


def test_round_trip_every_record_type(store: Store, rec: Records) -> None:
    written = _every_type(rec)
    seed(store, written)
    got = _dump(store)
    assert got == [x.model_dump_json() for x in written]


def test_upsert_is_idempotent_and_updates(store: Store, rec: Records) -> None:
    records = _every_type(rec)
    seed(store, records)
    seed(store, records)
    before = _dump(store)
    assert len(before) == len(records)
    changed = rec.issue(
        1, "2026-02-24T01:00:00Z", title="renamed", state="closed", closed_at="2026-02-25T00:00:00Z"
    )
    seed(store, [records[0], changed])
    after = _dump(store)
    assert len(after) == len(before)
    assert '"title":"renamed"' in after[1]


def test_mark_deleted(store: Store, rec: Records) -> None:
    repo_id = seed(store, [rec.repo(), rec.issue(1), rec.comment(1, id=1), rec.comment(1, id=2)])
    with store.begin() as conn:
        assert store.mark_deleted(conn, schema.comments, repo_id, [2, 99]) == 1
    with store.engine.connect() as conn:
        flags = dict(conn.execute(sa.select(schema.comments.c.id, schema.comments.c.deleted)).all())
    assert flags == {1: False, 2: True}


def test_cursors(store: Store, rec: Records) -> None:
    repo_id = seed(store, [rec.repo()])
    with store.begin() as conn:
        assert store.get_cursor(conn, repo_id, "issues") is None
        store.set_cursor(conn, repo_id, "issues", "2026-02-24T00:00:00Z")
        store.set_cursor(conn, repo_id, "issues", "2026-02-25T00:00:00Z")
        store.set_cursor(conn, repo_id, "comments", None)
    with store.engine.connect() as conn:
        assert store.get_cursor(conn, repo_id, "issues") == "2026-02-25T00:00:00Z"
        assert store.get_cursor(conn, repo_id, "comments") is None


def test_rolled_back_transaction_leaves_nothing(store: Store, rec: Records) -> None:
    seed(store, [rec.repo()])
    try:
        with store.begin() as conn:
            write_records(store, conn, store.require_repo(conn, "acme/widgets"), [rec.issue(7)])
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert len(_dump(store)) == 1


def test_a_value_the_store_cannot_hold_is_named_in_one_line(store: Store, rec: Records) -> None:
    """The last guard for every writer (the GitHub sync included): a StoreError naming the row,
    not PostgreSQL's bare "integer out of range" or SQLite's OverflowError traceback."""
    from tidings.errors import StoreError

    seed(store, [rec.repo(), rec.issue(1)])
    cases = [
        (schema.items, rec.issue(3_000_000_000), "items number=3000000000: number 3000000000"),
        (schema.comments, rec.comment(1, id=2**64), f"comments id={2**64}: id {2**64}"),
        (
            schema.items,
            rec.issue(2, updated_at="9999-12-31T23:59:59Z"),
            "items number=2: updated_at 9999-12-31T23:59:59Z",
        ),
    ]
    for table, record, named in cases:
        with pytest.raises(StoreError) as info, store.begin() as conn:
            row = r.to_row(record) | {"repo_id": store.require_repo(conn, "acme/widgets")}
            store.upsert(conn, table, [row])
        assert info.value.one_line().startswith(f"cannot store {named} is out of range")
    assert len(_dump(store)) == 2  # nothing written


@pytest.mark.postgres
def test_postgres_reads_late_times_back_whatever_the_server_time_zone(
    pg_url: str, rec: Records
) -> None:
    """A server set to Asia/Shanghai handed 9999-12-31T23:59:59Z back as year 10000, which no
    datetime holds: every read of such a row (reports, export, sync) failed. Sessions are UTC."""
    store = Store.open(pg_url)
    repo_id = seed(store, [rec.repo(), rec.issue(1)])
    with store.begin() as conn:  # as a store written before the range check could hold it
        conn.execute(
            sa.text("UPDATE items SET closed_at = '9999-12-31T23:59:59Z' WHERE number = 1")
        )
    store.close()
    url = sa.make_url(pg_url)
    options = f"{url.query['options']} -ctimezone=Asia/Shanghai"
    eastern = Store.open(url.update_query_dict({"options": options}).render_as_string(False))
    try:
        with eastern.engine.connect() as conn:
            item = next(x for x in read_records(conn, repo_id) if isinstance(x, r.ItemRecord))
        assert item.closed_at == ts("9999-12-31T23:59:59Z")
    finally:
        eastern.close()
