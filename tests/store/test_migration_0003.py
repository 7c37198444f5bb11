"""Migration 0003: a store at 0002 (with PR files) gains `pr_files.patch`, NULL for old rows."""

from __future__ import annotations

import sqlalchemy as sa

from tidings.store import Store
from tidings.store.migrate import current_revision, upgrade


def test_0002_store_upgrades_and_keeps_its_files(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    try:
        upgrade(engine, "0002")
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO repositories (full_name) VALUES ('acme/widgets')"))
            repo_id = conn.execute(sa.text("SELECT id FROM repositories")).scalar_one()
            conn.execute(
                sa.text(
                    "INSERT INTO pr_files (repo_id, number, path, additions, deletions) "
                    "VALUES (:r, 7, 'src/a.py', 3, 1)"
                ),
                {"r": repo_id},
            )
        assert "patch" not in {c["name"] for c in sa.inspect(engine).get_columns("pr_files")}
    finally:
        engine.dispose()
    store = Store.open(db_url)  # opening migrates to head
    try:
        assert current_revision(store.engine) not in (None, "0001", "0002")
        with store.engine.connect() as conn:
            row = conn.execute(sa.text("SELECT path, additions, patch FROM pr_files")).one()
        assert tuple(row) == ("src/a.py", 3, None)
    finally:
        store.close()
