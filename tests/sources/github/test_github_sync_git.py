"""An API sync after a git sync: GitHub's rows win, the clone's added lines stay."""

from __future__ import annotations

import sqlalchemy as sa

from testkit.generate import REPO, generate_week
from testkit.servers.github import FakeGitHub
from tests.sources.github.test_github_sync import TOKEN, sync
from tidings.common import records as r
from tidings.store import Store, schema
from tidings.store.rows import update_repository, write_records


def test_api_sync_keeps_patches_from_git(sqlite_store: Store) -> None:
    week = generate_week(0, prs=30, issues=5, comments_and_reviews=40, pr_files=60)
    files = [x for x in week if isinstance(x, r.PRFileRecord)]
    target = files[0]
    with sqlite_store.begin() as conn:
        repo_id = sqlite_store.repo_id(conn, REPO, create=True) or 0
        update_repository(conn, repo_id, next(x for x in week if x.type == "repository"))
        write_records(
            sqlite_store,
            conn,
            repo_id,
            [
                target.model_copy(update={"patch": "    assert ok"}),
                r.PRFileRecord(number=target.number, path="only/in/git.py", patch="x = 1"),
            ],
        )
    with FakeGitHub(week, token=TOKEN) as gh:
        sync(sqlite_store, gh)
    f = schema.pr_files
    with sqlite_store.engine.connect() as conn:
        rows = {
            row.path: row for row in conn.execute(sa.select(f).where(f.c.number == target.number))
        }
    served = {x.path for x in files if x.number == target.number}
    # GitHub's file list replaces the clone's; the added lines of a file both know survive.
    assert set(rows) == served
    assert rows[target.path].patch == "    assert ok"
    assert rows[target.path].additions == target.additions
    assert all(row.patch is None for path, row in rows.items() if path != target.path)
