"""First-time contributors on a git store (#22): a first merge is told from the history when
the git sync read it back to the repository's first commit, and is "unknown" (never "none")
when it did not: a shallow clone's sync, whose oldest commit git prints without parents too.

The clone: Wang Wei merges #11 (the first commit) and #13; Li Na merges #12, her first, and
automation (`docs-bot <docs@example.com>`, and a plain name whose email is GitHub Actions')
merges #14 and #15; all on 2026-08-06 in Shanghai (the clone's clock starts 15:06 there).
"""

from __future__ import annotations

import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

from testkit.servers.openai import FakeOpenAI, data_of
from tests.analysis.test_analysis import make_analyst
from tests.sources.test_git_source import Clone
from tidings.common.bots import GIT_BOT
from tidings.common.config import RepoConfig
from tidings.common.records import GIT_AUTHOR
from tidings.render.html import render_daily_html
from tidings.render.markdown import render_daily_markdown
from tidings.report.daily import build_daily
from tidings.sources.git import sync_git
from tidings.store import Store, schema
from tidings.store.history import ROOT_STREAM

REPO = RepoConfig(name="acme/engine", timezone="Asia/Shanghai")
DAY = date(2026, 8, 6)
NOW = datetime(2026, 9, 20, tzinfo=UTC)


def _clone(root: Path) -> Clone:
    clone = Clone(root / "clone")
    clone.write("engine/gemm.py", "def gemm(m):\n    return m\n")
    clone.commit("[Kernel] Fused GEMM (#11)")
    clone.write("engine/conv.py", "def conv(x):\n    return x\n")
    clone.commit("[Kernel] Conv (#12)", "--author", "Li Na <li.na@example.com>")
    clone.write("engine/gemm.py", "def gemm(m):\n    return m * 2\n")
    clone.commit("[Kernel] Faster GEMM (#13)")
    clone.write("docs/zh.po", "msgid x\n")
    clone.commit("[Doc] Translated docs (#14)", "--author", "docs-bot <docs@example.com>")
    clone.write("docs/times.yaml", "a: 1\n")
    clone.commit(
        "[CI] Update test times (#15)",
        "--author",
        "Nightly Updater <41898282+github-actions[bot]@users.noreply.github.com>",
    )
    return clone


@pytest.fixture
def clone(tmp_path: Path) -> Clone:
    return _clone(tmp_path)


def _synced(path: Path, db: Path) -> Store:
    store = Store.open(f"sqlite:///{db}")
    sync_git(store, REPO.name, path)
    return store


def _root(store: Store) -> str | None:
    t = schema.sync_state
    with store.engine.connect() as conn:
        return conn.execute(
            sa.select(t.c.cursor).where(t.c.stream == ROOT_STREAM)
        ).scalar_one_or_none()


def test_a_full_clone_names_first_merges_and_no_bot(clone: Clone, tmp_path: Path) -> None:
    store = _synced(clone.path, tmp_path / "full.db")
    try:
        assert _root(store) == clone.git("rev-list", "--max-parents=0", "HEAD")
        report = build_daily(store, REPO, DAY, "en", now=NOW)
        with store.engine.connect() as conn:
            types = dict(
                conn.execute(sa.select(schema.items.c.number, schema.items.c.author_type)).all()
            )
    finally:
        store.close()
    # The email, not the name, marks #15's author a bot; #14's name does.
    assert types == {11: GIT_AUTHOR, 12: GIT_AUTHOR, 13: GIT_AUTHOR, 14: GIT_AUTHOR, 15: GIT_BOT}
    act = report.activity
    assert [(f.login, f.item.number) for f in act.first_time_contributors] == [
        ("Wang Wei", 11),
        ("Li Na", 12),
    ]
    assert act.first_timers_known and act.first_timers_by_merge
    text = render_daily_markdown(report)
    assert "- First-time contributors (by first merged PR): Wang Wei, Li Na\n" in text


def test_a_shallow_clone_says_first_timers_are_unknown(clone: Clone, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{clone.path}", str(shallow)],
        check=True,
        capture_output=True,
    )
    store = _synced(shallow, tmp_path / "shallow.db")
    try:
        assert _root(store) is None
        reports = {lang: build_daily(store, REPO, DAY, lang, now=NOW) for lang in ("zh", "en")}
        with FakeOpenAI() as llm:
            build_daily(store, REPO, DAY, "en", now=NOW, analysis=make_analyst(llm, store))
            [activity] = [
                data_of(r.body)["facts"]
                for r in llm.requests
                if (data_of(r.body) or {}).get("task") == "activity"
            ]
    finally:
        store.close()
    # Only #14 and #15 were read: both bots', so this window knows it has no first-timer.
    assert reports["en"].activity.first_timers_known
    assert activity["first_time_contributors"] == []
    assert reports["en"].activity.first_timers_by_merge  # merges from git, by bots
    line = "- First-time contributors (by first merged PR): none\n"
    assert line in render_daily_markdown(reports["en"])


def test_a_shallow_clone_with_people_merging_says_unknown(clone: Clone, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "4", f"file://{clone.path}", str(shallow)],
        check=True,
        capture_output=True,
    )
    store = Store.open(f"sqlite:///{tmp_path / 'shallow.db'}")
    try:
        sync = sync_git(store, REPO.name, shallow)
        assert sync.root is None and any("shallow clone" in note for note in sync.notes)
        assert _root(store) is None
        reports = {lang: build_daily(store, REPO, DAY, lang, now=NOW) for lang in ("zh", "en")}
        with FakeOpenAI() as llm:
            build_daily(store, REPO, DAY, "en", now=NOW, analysis=make_analyst(llm, store))
            [activity] = [
                data_of(r.body)["facts"]
                for r in llm.requests
                if (data_of(r.body) or {}).get("task") == "activity"
            ]
    finally:
        store.close()
    # #12 (Li Na's first) and #13 are read, #11 is not: Wang Wei's #13 would pass for a first.
    assert activity["first_time_contributors"] is None  # null for the model, never []
    for lang, (unknown, none) in {
        "zh": ("首次贡献者：未知（", "首次贡献者：无"),
        "en": ("First-time contributors: unknown (", "First-time contributors: none"),
    }.items():
        act = reports[lang].activity
        assert act.first_time_contributors == [] and not act.first_timers_known
        for text in (render_daily_markdown(reports[lang]), render_daily_html(reports[lang])):
            assert unknown in text and none not in text
