"""A PR's child lists, its changed files and closing references, as a sync writes them.

A complete list replaces what the store holds; a partial one (a file list GitHub stopped at
3,000, a continuation the PR vanished from) only adds to it, since a row missing from a partial
list proves nothing. Patches come from a git sync or from GitHub's REST file listing of merged
PRs (sources/github/patches.py), never from the GraphQL details, which keep them when their
rows replace the stored ones; a file GitHub gives no patch for keeps the one a clone gave.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tidings.common.records import ClosingRefRecord, PRFileRecord, Record, to_row
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


def stored_patches(
    conn: Connection, repo_id: int, numbers: Sequence[int]
) -> dict[int, dict[str, str]]:
    """PR -> path -> added lines, for the files of PRs `numbers` a git sync gave a patch."""
    pf = schema.pr_files
    found: dict[int, dict[str, str]] = {}
    for number, path, patch in conn.execute(
        sa.select(pf.c.number, pf.c.path, pf.c.patch).where(
            pf.c.repo_id == repo_id, pf.c.number.in_(list(numbers)), pf.c.patch.is_not(None)
        )
    ):
        found.setdefault(number, {})[path] = patch
    return found


@dataclass
class ChildBatch:
    """The child rows (files, closing refs, threads, commits) of a page of PRs, written
    together when the page's transaction ends: per table one DELETE and one INSERT for the PRs
    whose lists are complete and one upsert for the partial ones, not a pair a PR, and the
    page's stored patches read in one SELECT. On a remote PostgreSQL each is a round trip."""

    repo_id: int
    patches: dict[int, dict[str, str]] = field(default_factory=dict)
    _replace: dict[str, tuple[sa.Table, list[int], list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    _add: dict[str, tuple[sa.Table, list[dict[str, Any]]]] = field(default_factory=dict)

    def read_patches(self, conn: Connection, numbers: Sequence[int]) -> None:
        """The patches a git sync stored on the files of PRs `numbers` (stored_patches)."""
        self.patches.update(stored_patches(conn, self.repo_id, numbers))

    def add(
        self, table: sa.Table, number: int, rows: Sequence[dict[str, Any]], complete: bool
    ) -> None:
        if complete:
            entry = self._replace.setdefault(table.name, (table, [], []))
            entry[1].append(number)
            entry[2].extend(rows)
        else:
            self._add.setdefault(table.name, (table, []))[1].extend(rows)

    def flush(self, store: Store, conn: Connection) -> None:
        for table, numbers, rows in self._replace.values():
            store.replace_children(conn, table, self.repo_id, numbers, rows)
        for table, rows in self._add.values():
            store.upsert(conn, table, rows)
        self._replace.clear()
        self._add.clear()


def write_children(
    store: Store,
    conn: Connection,
    table: sa.Table,
    repo_id: int,
    number: int,
    rows: Sequence[dict[str, Any]],
    complete: bool,
    batch: ChildBatch | None = None,
) -> None:
    """A PR's files or closing refs: replaced by a complete list, only added to by a partial
    one; with `batch`, when the batch is flushed."""
    if batch is not None:
        batch.add(table, number, rows, complete)
    elif complete:
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
    batch: ChildBatch | None = None,
) -> int:
    """Write PR `number`'s files as GitHub lists them (`complete`: every file GitHub has), less
    any the store cannot hold; how many were written."""
    pf = schema.pr_files
    rows = admit(pf, _rows(repo_id, files), skip)
    # GitHub does not give patches here; keep the added lines a git sync stored (the risk
    # rules read them) for the files both sources know.
    if batch is not None:
        patches = batch.patches.get(number, {})
    else:
        patches = stored_patches(conn, repo_id, [number]).get(number, {})
    for row in rows:
        row["patch"] = patches.get(row["path"], row["patch"])
    whole = complete and len(rows) == len(files)
    write_children(store, conn, pf, repo_id, number, rows, whole, batch)
    return len(rows)


def write_closing_refs(
    store: Store,
    conn: Connection,
    repo_id: int,
    number: int,
    refs: Sequence[ClosingRefRecord],
    complete: bool,
    skip: Skip,
    batch: ChildBatch | None = None,
) -> int:
    """Write the issues PR `number` closes, like `write_pr_files`."""
    table = schema.closing_refs
    rows = admit(table, _rows(repo_id, refs), skip)
    whole = complete and len(rows) == len(refs)
    write_children(store, conn, table, repo_id, number, rows, whole, batch)
    return len(rows)


def write_threads(
    store: Store,
    conn: Connection,
    repo_id: int,
    number: int,
    threads: Sequence[tuple[int, bool, bool]],
    complete: bool,
    batch: ChildBatch | None = None,
) -> int:
    """PR `number`'s review threads as (first comment id, resolved, outdated), replaced by a
    complete list, added to by a partial one; how many were written."""
    rows = [
        {"repo_id": repo_id, "number": number, "comment_id": c, "resolved": r, "outdated": o}
        for c, r, o in {c: (c, r, o) for c, r, o in threads}.values()
    ]
    write_children(store, conn, schema.review_threads, repo_id, number, rows, complete, batch)
    return len(rows)


def write_commits(
    store: Store,
    conn: Connection,
    repo_id: int,
    number: int,
    commits: Sequence[tuple[str, datetime]],
    complete: bool,
    batch: ChildBatch | None = None,
) -> int:
    """PR `number`'s commits as (sha, commit time), like `write_threads`."""
    rows = [
        {"repo_id": repo_id, "number": number, "sha": sha, "committed_at": at}
        for sha, at in dict(commits).items()
    ]
    write_children(store, conn, schema.pr_commits, repo_id, number, rows, complete, batch)
    return len(rows)


@dataclass(frozen=True, order=True)
class PatchWork:
    """A merged PR whose patches are not those of its current commit."""

    number: int
    sha: str  # the commit they are fetched for (merge, else head; "" when GitHub gave neither)
    changed_files: int  # GitHub's count of the PR's changed files (0: not known)


def patch_work(conn: Connection, repo_id: int, merged_since: datetime) -> list[PatchWork]:
    """Merged PRs (merged at or after `merged_since`) whose patches were never fetched or were
    fetched for another commit, by number."""
    it = schema.items
    sha = sa.func.coalesce(it.c.merge_commit_sha, it.c.head_sha, "")
    rows = conn.execute(
        sa.select(it.c.number, sha, sa.func.coalesce(it.c.changed_files, 0)).where(
            it.c.repo_id == repo_id,
            it.c.kind == "pr",
            it.c.deleted.is_(False),
            it.c.merged_at >= merged_since,
            # A git-only PR has no GitHub record to list files of; an API sync replaces it.
            sa.or_(it.c.source.is_(None), it.c.source != "git"),
            sa.or_(it.c.patch_sha.is_(None), it.c.patch_sha != sha),
        )
    )
    # Sorted here: an ORDER BY number would lead the planner to walk every item by its key
    # rather than the few merged in the window by `ix_items_repo_merged`.
    return sorted(PatchWork(number, sha, changed) for number, sha, changed in rows)


def write_patches(
    conn: Connection, repo_id: int, number: int, patches: Mapping[str, str], sha: str
) -> int:
    """Store PR `number`'s patches (path -> hunks) on its stored files and mark them fetched
    for `sha`. Files absent from `patches` keep what they hold (a clone's hunks, say): GitHub
    giving none is no evidence the file changed no line. How many files took a patch."""
    pf = schema.pr_files
    written = 0
    for path, patch in patches.items():
        result = conn.execute(
            pf.update()
            .where(pf.c.repo_id == repo_id, pf.c.number == number, pf.c.path == path)
            .values(patch=patch)
        )
        written += result.rowcount or 0
    it = schema.items
    conn.execute(
        it.update().where(it.c.repo_id == repo_id, it.c.number == number).values(patch_sha=sha)
    )
    return written
