"""`clone` on a repository: `tidings run` fetches the clone and reads the merged PRs' diffs from
it, so the GitHub sync lists no PR's files (#24). The loopback GitHub serves a generated week
whose merged PRs are the squash commits of a real git repository (testkit/clone.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import sqlalchemy as sa

import tidings
from testkit.clone import write_origin
from testkit.generate import REPO, quick_week
from testkit.servers.github import FakeGitHub
from tidings.store import Store, schema

TOKEN = "clone-run-token"


def _run(tmp: Path, records: list, clone: Path | None) -> tuple[int, Store]:
    """Run once into a fresh store; the loopback GitHub's file listings it asked for."""
    repo: dict[str, object] = {"name": REPO}
    if clone is not None:
        repo["clone"] = str(clone)
    with FakeGitHub(records, token=TOKEN) as gh:
        config = tidings.Config.model_validate(
            {
                "repos": [repo],
                "github": {"api_url": gh.api_url, "patch_days": 3650},
                "site": {"pdf": False, "reports_dir": str(tmp / "reports")},
            }
        )
        store = Store.open(f"sqlite:///{tmp / 'store.db'}")
        result = tidings.run(
            store, config, days=1, site=False, pdf=False, token=TOKEN, full_history=True
        )
        assert result.ok, result
        return gh.count(path_contains="/files"), store


def test_run_reads_the_diffs_from_the_clone_and_lists_no_files(tmp_path: Path) -> None:
    records = write_origin(quick_week(3), tmp_path / "origin.git")
    clone = tmp_path / "clone.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(tmp_path / "origin.git"), str(clone)], check=True
    )
    merged = {r.number for r in records if getattr(r, "merged_at", None) is not None}
    assert len(merged) == 60

    # Without the clone: a file listing per merged PR (two for one with 100+ files).
    (tmp_path / "api").mkdir()
    listings, store = _run(tmp_path / "api", records, None)
    store.close()
    assert len(merged) <= listings <= len(merged) + 5

    (tmp_path / "git").mkdir()
    listings, store = _run(tmp_path / "git", records, clone)
    try:
        assert listings == 0
        it, pf = schema.items, schema.pr_files
        with store.begin() as conn:
            marked = set(
                conn.execute(
                    sa.select(it.c.number).where(
                        it.c.merged_at.is_not(None), it.c.patch_sha == it.c.merge_commit_sha
                    )
                ).scalars()
            )
            with_hunks = set(
                conn.execute(sa.select(pf.c.number).where(pf.c.patch.is_not(None))).scalars()
            )
            sources = set(
                conn.execute(sa.select(it.c.source).where(it.c.number.in_(merged))).scalars()
            )
        # Every merged PR: its diff from the clone, GitHub's record (the API replaced git's).
        assert marked == merged and merged <= with_hunks and sources == {None}
    finally:
        store.close()
