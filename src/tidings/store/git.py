"""What a git sync writes: merged PRs read from a clone, beside what GitHub's API wrote.

A PR from git (`source = "git"`) is the clone's view: no login, no labels, no reviews. So a
git sync never overwrites an item the API wrote; for such an item it only adds what the clone
alone knows, the diff hunks of its files (or its files, when the API gave none). An item
from git is replaced whole by a later API sync, which keeps those hunks (store/files.py).

The clone's hunks of a PR's merge commit are its diff, whole (no 3,000-line cut), so the item
is marked as having its patches for that commit (`patch_sha`): the API sync's REST listing of
its files (sources/github/patches.py) is then skipped while GitHub's merge commit is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.common.records import ItemRecord, PRFileRecord
from tidings.store import schema
from tidings.store.db import Store
from tidings.store.rows import record_rows, write_records


@dataclass
class GitWrite:
    items_written: int = 0  # PR items inserted or updated from git
    api_items_kept: int = 0  # PRs the API already holds: only their added lines were added
    pr_files: int = 0


def write_git_prs(
    store: Store,
    conn: Connection,
    repo_id: int,
    prs: Sequence[tuple[ItemRecord, Sequence[PRFileRecord]]],
) -> GitWrite:
    """Write merged PRs and their files from a clone (see the module docstring)."""
    done = GitWrite()
    if not prs:
        return done
    it, pf = schema.items, schema.pr_files
    numbers = [item.number for item, _ in prs]
    sources = dict(
        conn.execute(
            sa.select(it.c.number, it.c.source).where(
                it.c.repo_id == repo_id, it.c.number.in_(numbers)
            )
        ).all()
    )
    have_files: dict[int, set[str]] = {}
    for number, path in conn.execute(
        sa.select(pf.c.number, pf.c.path).where(pf.c.repo_id == repo_id, pf.c.number.in_(numbers))
    ):
        have_files.setdefault(number, set()).add(path)
    items: list[ItemRecord] = []
    diffed: list[tuple[int, str]] = []
    for item, files in prs:
        if item.merge_commit_sha:
            diffed.append((item.number, item.merge_commit_sha))
        rows = record_rows(repo_id, files).get("pr_file", [])
        done.pr_files += len(rows)
        if item.number in sources and sources[item.number] != "git":
            done.api_items_kept += 1
            known = have_files.get(item.number)
            if not known:
                store.replace_children(conn, pf, repo_id, item.number, rows)
                continue
            for row in rows:  # keep GitHub's rows; add what only the clone knows
                if row["path"] in known and row["patch"] is not None:
                    conn.execute(
                        pf.update()
                        .where(
                            pf.c.repo_id == repo_id,
                            pf.c.number == item.number,
                            pf.c.path == row["path"],
                        )
                        .values(patch=row["patch"])
                    )
            continue
        items.append(item)
        store.replace_children(conn, pf, repo_id, item.number, rows)
    write_records(store, conn, repo_id, items)
    done.items_written += len(items)
    _mark_diffed(conn, repo_id, diffed)
    return done


def _mark_diffed(conn: Connection, repo_id: int, diffed: Sequence[tuple[int, str]]) -> None:
    """Mark each PR's patches read for its merge commit, where that is the commit the clone
    read (a PR the API stored with another merge commit keeps its own mark). One statement
    for the batch."""
    if not diffed:
        return
    it = schema.items
    conn.execute(
        it.update()
        .where(
            it.c.repo_id == repo_id,
            sa.tuple_(it.c.number, it.c.merge_commit_sha).in_(list(diffed)),
            sa.or_(it.c.patch_sha.is_(None), it.c.patch_sha != it.c.merge_commit_sha),
        )
        .values(patch_sha=it.c.merge_commit_sha)
    )
