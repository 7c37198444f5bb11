"""Migration 0007: items.created_at becomes nullable (unknown), a git PR's commit time is
dropped from it, and every row, index and other value of an old store is kept (issue #22)."""

from __future__ import annotations

import sqlalchemy as sa

from tests.factories import ts
from tidings.store import Store
from tidings.store.migrate import current_revision, upgrade

_INSERT = sa.text(
    "INSERT INTO items (repo_id, number, kind, title, state, locked, labels, created_at,"
    " updated_at, merged_at, reactions, comments_count, deleted, source)"
    " VALUES (:r, :n, 'pr', :title, 'closed', false, '[]', :t, :t, :t, '{}', 0, false, :source)"
)


def _index_names(engine: sa.Engine) -> set[str]:
    return {i["name"] or "" for i in sa.inspect(engine).get_indexes("items")}


def test_0006_store_upgrades_keeping_rows_and_forgetting_git_open_times(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    when = "2026-08-05T03:00:00Z"
    try:
        upgrade(engine, "0006")
        stamp = ts(when) if engine.dialect.name == "postgresql" else when
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO repositories (full_name) VALUES ('a/b')"))
            repo = conn.execute(sa.text("SELECT id FROM repositories")).scalar_one()
            conn.execute(
                _INSERT, {"r": repo, "n": 1, "title": "from the API", "t": stamp, "source": None}
            )
            conn.execute(
                _INSERT, {"r": repo, "n": 2, "title": "from git", "t": stamp, "source": "git"}
            )
        before = _index_names(engine)
        columns = {c["name"]: c for c in sa.inspect(engine).get_columns("items")}
        assert columns["created_at"]["nullable"] is False
    finally:
        engine.dispose()
    store = Store.open(db_url)  # opening migrates to head
    try:
        assert current_revision(store.engine) not in ("0005", "0006")
        columns = {c["name"]: c for c in sa.inspect(store.engine).get_columns("items")}
        assert columns["created_at"]["nullable"] is True
        assert columns["updated_at"]["nullable"] is False
        assert _index_names(store.engine) == before
        with store.engine.connect() as conn:
            rows = conn.execute(
                sa.text("SELECT number, title, created_at, merged_at FROM items ORDER BY number")
            ).all()
        (api, git) = rows
        assert api.title == "from the API" and api.created_at is not None
        assert ts(api.created_at) == ts(when)  # an API row keeps when it was opened
        assert git.title == "from git" and git.created_at is None  # unknown, not a commit time
        assert ts(git.merged_at) == ts(when)  # its merge is known and kept
    finally:
        store.close()


def test_the_partial_indexes_keep_their_predicates_on_sqlite(sqlite_url: str) -> None:
    """SQLite's copy of the table must not turn the partial indexes into whole ones."""
    store = Store.open(sqlite_url)
    try:
        with store.engine.connect() as conn:
            sql = dict(
                conn.execute(
                    sa.text("SELECT name, sql FROM sqlite_master WHERE tbl_name = 'items'")
                ).all()
            )
        assert "WHERE deleted IS 1" in sql["ix_items_repo_deleted"]
        assert "WHERE checked_updated_at IS NULL" in sql["ix_items_repo_unchecked"]
        assert "WHERE detail_updated_at IS NULL" in sql["ix_items_repo_undetailed"]
    finally:
        store.close()
