"""How many SQL statements a full sync issues per PR: each is a round trip on a remote
PostgreSQL, so the PR details' child rows (files, threads, commits, closing refs) are written
per page of PRs, not per PR (store/files.py ChildBatch). A count, not a time."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from testkit.generate import REPO, quick_week
from testkit.servers.github import FakeGitHub
from tests.sources.github.test_github_sync import served, stored
from tidings.common.config import GitHubConfig
from tidings.sources.github.sync import sync_repository
from tidings.store import Store


def test_a_full_sync_writes_the_pr_details_children_by_the_page(tmp_path: Path) -> None:
    records = quick_week(1)
    prs = sum(1 for x in records if getattr(x, "kind", None) == "pr")
    merges = [x.merged_at for x in records if getattr(x, "merged_at", None) is not None]
    patch_days = (datetime.now(UTC) - min(merges)).days + 2
    statements: Counter[str] = Counter()
    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")

    @sa.event.listens_for(store.engine, "before_cursor_execute")
    def count(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        words = statement.split()
        table = words[2] if words[0] in ("INSERT", "DELETE") else ""
        statements[f"{words[0]} {table}".strip()] += 1

    try:
        with FakeGitHub(records, token="t") as gh:
            github = GitHubConfig(api_url=gh.api_url, patch_days=patch_days)
            report = sync_repository(store, REPO, github=github, token="t")
            assert report.pr_details == prs
            # Every child row as served (the batching loses nothing).
            assert stored(store, REPO) == served(gh, REPO)
    finally:
        store.close()
    pages = statements["DELETE pr_files"]
    assert 0 < pages < prs / 4  # a page of PRs, not one each
    for table in ("pr_files", "review_threads", "pr_commits"):
        assert statements[f"DELETE {table}"] == pages
    # Was 12.3 a PR on the vLLM-scale week (benchmarks/sync.py), 4.8 since.
    assert sum(statements.values()) / prs < 6, statements.most_common(8)
