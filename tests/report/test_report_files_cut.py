"""A PR whose file list GitHub gave only in part (it lists at most 3,000 files) says so in the
daily and weekly reports; every other PR's lines, and the reports' JSON, stay as they were."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from tidings.common.config import load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.render.markdown import render_daily_markdown
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store, schema
from tidings.store.gaps import write_gaps

NOW = datetime(2026, 3, 14, 2, 0, tzinfo=UTC)
DAY = date(2026, 3, 4)


@pytest.fixture
def demo(tmp_path: Path) -> Store:
    store = Store.open(f"sqlite:///{tmp_path / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    yield store
    store.close()


def _cut(store: Store, number: int, total: int) -> int:
    """Record PR `number` as GitHub's huge PRs come: `total` files changed, fewer listed."""
    t, f = schema.items, schema.pr_files
    with store.begin() as conn:
        repo_id = store.require_repo(conn, REPO)
        listed = conn.execute(
            sa.select(sa.func.count()).where(f.c.repo_id == repo_id, f.c.number == number)
        ).scalar_one()
        conn.execute(
            t.update()
            .where(t.c.repo_id == repo_id, t.c.number == number)
            .values(changed_files=total)
        )
        write_gaps(store, conn, repo_id, number, {"files": f"{listed} of {total} files available"})
    return int(listed)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_daily_key_change_says_the_file_list_is_cut(demo: Store, lang: str) -> None:
    config = load_config(CONFIG_PATH).repo(REPO)
    before = build_daily(demo, config, DAY, lang, now=NOW)  # type: ignore[arg-type]
    number = before.key_changes[0].item.number
    assert '"files_listed"' not in before.model_dump_json()
    listed = _cut(demo, number, 4321)
    after = build_daily(demo, config, DAY, lang, now=NOW)  # type: ignore[arg-type]
    change = next(k for k in after.key_changes if k.item.number == number)
    assert change.changed_files == 4321 and change.files_listed == listed
    dumped = json.loads(after.model_dump_json())
    cut = [k for k in dumped["key_changes"] if "files_listed" in k]
    assert [k["item"]["number"] for k in cut] == [number]
    note = (
        f"4321 个文件（GitHub 只列出其中 {listed} 个）"
        if lang == "zh"
        else f"files: 4321 (GitHub lists only {listed} of them)"
    )
    # (The size also weighs in the change's importance score, so its heading line moves too.)
    marker = "只列出" if lang == "zh" else "lists only"
    assert render_daily_markdown(after).count(note) == 1
    assert marker not in render_daily_markdown(before)


def test_weekly_key_pr_says_the_file_list_is_cut(demo: Store) -> None:
    config = load_config(CONFIG_PATH).repo(REPO)
    before = build_weekly(demo, config, 2026, 11, "en", now=NOW)
    pr = before.key_prs[0]
    listed = _cut(demo, pr.item.number, 3100)
    after = build_weekly(demo, config, 2026, 11, "en", now=NOW)
    got = next(p for p in after.key_prs if p.item.number == pr.item.number)
    assert (got.changed_files, got.files_listed) == (3100, listed)
    assert (pr.changed_files, pr.files_listed) == (listed, None)
    text = render_weekly_markdown(after)
    line = next(x for x in text.splitlines() if f"[#{pr.item.number}]" in x and "files: 3100" in x)
    assert f"files: 3100 (GitHub lists only {listed} of them; lines count those)" in line
