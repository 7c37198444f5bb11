"""Evaluation on real data: the vllm-ascend first-parent history through the git source.

The records in ../shared/data are rendered into the bytes `git log` prints
(tests/gitlog_fixture.py) and fed through the same parser and store writer as a clone. The
oracle reads the records with json and zoneinfo only, not through tidings.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from tests.gitlog_fixture import REPO, load_records, render_log, shared_or_skip, split_rename
from tidings.config import parse_config
from tidings.facts.stats import item_lists, path_churn
from tidings.facts.windows import weekly_window
from tidings.sources.git import ingest, parse_log
from tidings.store import Store, schema

TZ = ZoneInfo("Asia/Shanghai")
CONFIG = f"""
[[repos]]
name = "{REPO}"
display_name = "vLLM Ascend"
timezone = "Asia/Shanghai"
language = "zh"
core_paths = ["vllm_ascend/worker/**", "vllm_ascend/core/**"]
"""


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    return load_records(shared_or_skip())


@pytest.fixture(scope="module")
def ascend(tmp_path_factory: pytest.TempPathFactory, records) -> tuple[Store, Any]:
    path = tmp_path_factory.mktemp("ascend") / "ascend.db"
    store = Store.open(f"sqlite:///{path}")
    report = ingest(store, REPO, parse_log(render_log(records)), records[0]["sha"])
    yield store, report
    store.close()


@pytest.fixture(scope="module")
def repo_config():
    return parse_config(CONFIG).repo(REPO)


def week_of(record: dict[str, Any]) -> tuple[int, int]:
    local = datetime.fromisoformat(record["committed_at"]).astimezone(TZ)
    year, week, _ = local.isocalendar()
    return year, week


def test_every_pr_numbered_record_is_ingested(ascend, records) -> None:
    store, report = ascend
    prs = [r for r in records if r["pr_number"] is not None]
    assert len(prs) == 4732
    assert (report.commits, report.prs, report.skipped) == (4734, 4732, 2)
    with store.engine.connect() as conn:
        numbers = set(conn.execute(sa.select(schema.items.c.number)).scalars())
        files = conn.execute(sa.select(sa.func.count()).select_from(schema.pr_files)).scalar()
    assert numbers == {r["pr_number"] for r in prs}
    assert files == sum(len(r["files"]) for r in prs)


def test_weekly_merged_counts_equal_the_records_for_every_week(ascend, records) -> None:
    store, _ = ascend
    want: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in records:
        if r["pr_number"] is not None:
            want[week_of(r)].append(r["pr_number"])
    assert len(want[(2026, 32)]) == 111 and len(want[(2026, 33)]) == 104
    with store.engine.connect() as conn:
        for (year, week), numbers in sorted(want.items()):
            window = weekly_window(year, week, TZ)
            got = item_lists(conn, 1, window).merged_prs
            assert got == sorted(numbers), f"{year}-W{week:02d}"


@pytest.mark.parametrize("week", [32, 33])
def test_hot_directories_and_files_equal_the_records(ascend, records, week: int) -> None:
    store, _ = ascend
    dirs: Counter[str] = Counter()
    files: Counter[str] = Counter()
    for r in records:
        if r["pr_number"] is None or week_of(r) != (2026, week):
            continue
        for f in r["files"]:
            _, path = split_rename(f["path"])
            churn = (f["additions"] or 0) + (f["deletions"] or 0)
            files[path] += churn
            parts = path.split("/")[:-1][:2]
            dirs["/".join(parts) or "."] += churn
    with store.engine.connect() as conn:
        top_paths, top_dirs = path_churn(conn, 1, weekly_window(2026, week, TZ), top=10)

    def top(counter: Counter[str]) -> list[tuple[str, int]]:
        return sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:10]

    assert [(c.path, c.churn) for c in top_dirs] == top(dirs)
    assert [(c.path, c.churn) for c in top_paths] == top(files)


def test_week_boundaries_use_the_configured_timezone(ascend, records) -> None:
    # The same records counted in UTC weeks differ somewhere from Shanghai weeks; the store
    # agrees with the records in both, so the window, not the data, decides.
    store, _ = ascend
    differ = 0
    with store.engine.connect() as conn:
        for year, week in [(2025, 13), (2025, 14), (2026, 32), (2026, 33)]:
            counts = []
            for tz in (TZ, ZoneInfo("UTC")):
                want = sum(
                    1
                    for r in records
                    if r["pr_number"]
                    and datetime.fromisoformat(r["committed_at"]).astimezone(tz).isocalendar()[:2]
                    == (year, week)
                )
                got = len(item_lists(conn, 1, weekly_window(year, week, tz)).merged_prs)
                assert got == want
                counts.append(got)
            differ += counts[0] != counts[1]
    assert differ == 2  # 2025-W13 and W14: Monday-morning merges in Shanghai
