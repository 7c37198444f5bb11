"""Migration 0004: comment, review and review comment ids become keys per repository (issue
#10, case 6), and a store at 0003 keeps its rows."""

from __future__ import annotations

import sqlalchemy as sa

from tests.factories import seed, ts
from tidings.common import records as r
from tidings.store import Store
from tidings.store.migrate import current_revision, upgrade
from tidings.store.rows import write_records


def head() -> str | None:
    from alembic.script import ScriptDirectory

    from tidings.store.migrate import alembic_config

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def test_migration_0004_keeps_rows_and_makes_ids_per_repository(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    try:
        upgrade(engine, "0003")
        when = "2026-02-24T00:00:00Z"
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO repositories (full_name) VALUES ('a/b')"))
            first = conn.execute(sa.text("SELECT id FROM repositories")).scalar_one()
            conn.execute(
                sa.text(
                    "INSERT INTO comments (id, repo_id, number, body, created_at, updated_at,"
                    " reactions, deleted) VALUES (7, :r, 1, 'kept', :t, :t, '{}', false)"
                ),
                {"r": first, "t": ts(when) if engine.dialect.name == "postgresql" else when},
            )
    finally:
        engine.dispose()
    store = Store.open(db_url)
    try:
        assert current_revision(store.engine) == head()
        for table in ("comments", "reviews", "review_comments"):
            key = sa.inspect(store.engine).get_pk_constraint(table)["constrained_columns"]
            assert key == ["repo_id", "id"], table
        other = seed(store, [r.RepositoryRecord(full_name="c/d")])
        with store.begin() as conn:
            write_records(
                store,
                conn,
                other,
                [
                    r.CommentRecord(
                        id=7, number=1, body="other", created_at=ts(when), updated_at=ts(when)
                    )
                ],
            )
        with store.engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT repo_id, body FROM comments ORDER BY repo_id"))
            assert rows.all() == [(first, "kept"), (other, "other")]
    finally:
        store.close()
