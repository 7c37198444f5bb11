"""A PR's child lists, its changed files and closing references, as a sync writes them.

A complete list replaces what the store holds; a partial one (a file list GitHub stopped at
3,000, a continuation the PR vanished from) only adds to it, since a row missing from a partial
list proves nothing. Patches come only from a git sync (GitHub's details give none) and are kept
when GitHub's rows replace the clone's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.records import ClosingRefRecord, PRFileRecord, Record, to_row
from tidings.store import schema
from tidings.store.db import Store
from tidings.store.rows import Skip, admit


def _rows(repo_id: int, records: Sequence[Record]) -> list[dict[str, Any]]:
    rows = []
    for record in records:
        row = to_row(record)
        row["repo_id"] = repo_id
        rows.append(row)
    return rows


def stored_patches(conn: Connection, repo_id: int, number: int) -> dict[str, str]:
    """Path -> added lines of PR `number`'s files, for the files a git sync gave a patch."""
    pf = schema.pr_files
    return {
        path: patch
        for path, patch in conn.execute(
            sa.select(pf.c.path, pf.c.patch).where(
                pf.c.repo_id == repo_id, pf.c.number == number, pf.c.patch.is_not(None)
            )
        )
    }


def write_children(
    store: Store,
    conn: Connection,
    table: sa.Table,
    repo_id: int,
    number: int,
    rows: Sequence[dict[str, Any]],
    complete: bool,
) -> None:
    """A PR's files or closing refs: replaced by a complete list, only added to by a partial
    one."""
    if complete:
        store.replace_children(conn, table, repo_id, number, rows)
    else:
        store.upsert(conn, table, rows)


def write_pr_files(
    store: Store,
    conn: Connection,
    repo_id: int,
    number: int,
    files: Sequence[PRFileRecord],
    complete: bool,
    skip: Skip,
) -> int:
    """Write PR `number`'s files as GitHub lists them (`complete`: every file GitHub has), less
    any the store cannot hold; how many were written."""
    pf = schema.pr_files
    rows = admit(pf, _rows(repo_id, files), skip)
    # GitHub does not give patches here; keep the added lines a git sync stored (the risk
    # rules read them) for the files both sources know.
    patches = stored_patches(conn, repo_id, number)
    for row in rows:
        row["patch"] = patches.get(row["path"], row["patch"])
    write_children(store, conn, pf, repo_id, number, rows, complete and len(rows) == len(files))
    return len(rows)


def write_closing_refs(
    store: Store,
    conn: Connection,
    repo_id: int,
    number: int,
    refs: Sequence[ClosingRefRecord],
    complete: bool,
    skip: Skip,
) -> int:
    """Write the issues PR `number` closes, like `write_pr_files`."""
    table = schema.closing_refs
    rows = admit(table, _rows(repo_id, refs), skip)
    write_children(store, conn, table, repo_id, number, rows, complete and len(rows) == len(refs))
    return len(rows)
