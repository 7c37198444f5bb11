"""Review-thread figures and unread-diff marks in the weekly report, end to end: a week synced
from the fake GitHub (threads with their resolution, commits with their times, files GitHub
gives no patch for), written by the rules in both languages and rendered as Markdown, HTML
and JSON; and the same figures handed to the model, whose sentence citing them the guard
keeps and whose wrong number it drops."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.servers.github import FakeGitHub
from testkit.servers.openai import FakeOpenAI, data_of
from tests.analysis.test_analysis import make_analyst
from tests.sources.github.test_github_evidence import TOKEN, _records, sync
from tidings.analysis.guard import Facts, problems
from tidings.common import records as r
from tidings.common.config import load_config
from tidings.demo import CONFIG_PATH, REPO
from tidings.facts.load.reviews import load_thread_figures
from tidings.facts.review_figures import ThreadState, thread_figures
from tidings.render.html import render_weekly_html
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.weekly import build_weekly
from tidings.report.weekly.risks import thread_text
from tidings.report.weekly_model import WeeklyReport
from tidings.store import Store, schema
from tidings.store.gaps import unread_diffs

pytestmark = pytest.mark.slow_on_postgres

NOW = datetime(2026, 3, 20, tzinfo=UTC)
# Week 11 of the demo: #4244 (two threads by lin-qiao, 03-06) and #4271 (one thread by
# haruto-s, 03-10 10:29; merged 03-11 07:10) are among its risk observations.
UNRESOLVED_PR, SETTLED_PR = 4244, 4271


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub(_records(), token=TOKEN) as gh:
        yield gh


@pytest.fixture
def synced(store: Store, fake: FakeGitHub) -> Store:
    """The fake GitHub's week 11 with #4244's first thread left unresolved (the other
    resolved, no commit after either) and #4271's one thread resolved with a fix pushed after
    it, synced again so the details (and nothing of the patches) are read anew."""
    sync(store, fake)
    fake.set_unresolved(UNRESOLVED_PR, 1)
    fake.push_commit(SETTLED_PR, at=datetime(2026, 3, 11, 6, 0, tzinfo=UTC))
    again = sync(store, fake)
    assert again.pr_details >= 2 and again.patch_requests == 0
    return store


def weekly(store: Store, lang: str, analysis: Any = None) -> WeeklyReport:
    repo = load_config(CONFIG_PATH).repo(REPO)
    return build_weekly(store, repo, 2026, 11, lang, now=NOW, analysis=analysis)  # type: ignore[arg-type]


def _files(number: int) -> int:
    return sum(1 for x in _records() if isinstance(x, r.PRFileRecord) and x.number == number)


def _block(markdown: str, number: int) -> str:
    """The lines of a risk observation: its numbered line and the bullets under it."""
    section = markdown.split("## ⚠️", 1)[1].split("\n## ", 1)[0]
    out: list[str] = []
    inside = False
    for line in section.split("\n"):
        if line[:1].isdigit():
            inside = f"pull/{number})" in line
        if inside:
            out.append(line)
    return "\n".join(out)


def test_rule_report_states_thread_figures_and_unread_files(synced: Store) -> None:
    en, zh = weekly(synced, "en"), weekly(synced, "zh")
    observed = {o.item.number: o for o in en.risk_observations}
    assert {UNRESOLVED_PR, SETTLED_PR} <= set(observed)
    open_ = observed[UNRESOLVED_PR].review_threads
    assert open_ is not None
    assert (open_.threads, open_.unresolved) == (2, 1)
    assert (open_.resolved_without_commit, open_.followed_by_commit) == (1, 0)
    settled = observed[SETTLED_PR].review_threads
    assert settled is not None
    assert (settled.threads, settled.unresolved, settled.resolved_without_commit) == (1, 0, 0)
    assert settled.followed_by_commit == 1
    # The fake gives no patch for any demo file: every one is a file without a diff.
    assert observed[SETTLED_PR].files_without_diff == _files(SETTLED_PR) > 0

    md = render_weekly_markdown(en)
    unresolved = _block(md, UNRESOLVED_PR)
    assert (
        "**Review threads**: 1 of 2 still unresolved; 1 resolved with no commit after it; "
        "no commit after any of them"
    ) in unresolved
    assert (
        f"**{_files(UNRESOLVED_PR)} files without a diff**: their diff is not in the store"
        in unresolved
    )
    block = _block(md, SETTLED_PR)
    assert "**Review threads**: the only one resolved; 1 followed by a later commit" in block
    assert "unresolved" not in block and "no commit" not in block
    # The key-PR quick view, the themes and the appendix carry the mark too.
    key = md.split("## 🔎", 1)[1].split("\n## ", 1)[0]
    assert f"files: 8 · {_files(UNRESOLVED_PR)} files without a diff · importance" in key
    themes = md.split("## 🛠️", 1)[1].split("\n## ", 1)[0]
    line = next(x for x in themes.splitlines() if x.startswith("- [#4237]"))
    assert line.endswith(f"” · {_files(4237)} files without a diff")

    zmd = render_weekly_markdown(zh)
    assert "**审查线程**：2 个中 1 个仍未解决；1 个已解决但之后没有新提交；提出后都没有新提交" in (
        _block(zmd, UNRESOLVED_PR)
    )
    zblock = _block(zmd, SETTLED_PR)
    assert "**审查线程**：唯一的 1 个已解决；1 个之后有新提交" in zblock
    assert "未解决" not in zblock
    assert f"**{_files(SETTLED_PR)} 个文件无 diff**" in zblock

    html = render_weekly_html(en)
    assert (
        "<strong>Review threads</strong>: 1 of 2 still unresolved; 1 resolved with no commit "
        "after it; no commit after any of them"
    ) in html
    assert f"⚠ {_files(SETTLED_PR)} files without a diff</span>" in html
    assert 'class="gap-mark" title="their diff is not in the store (GitHub gave none' in html

    data = json.loads(en.model_dump_json())
    risk = {o["item"]["number"]: o for o in data["risk_observations"]}
    assert risk[UNRESOLVED_PR]["review_threads"]["unresolved"] == 1
    assert risk[SETTLED_PR]["files_without_diff"] == _files(SETTLED_PR)
    merged = {p["item"]["number"]: p for p in data["merged"]}
    assert merged[SETTLED_PR]["files_without_diff"] == _files(SETTLED_PR)


def test_figures_are_recounted_from_the_store(synced: Store) -> None:
    """The report's numbers are the store's: threads joined with their first comments,
    commits after them by commit time."""
    with synced.engine.connect() as conn:
        repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
        rt, rc, pc = schema.review_threads, schema.review_comments, schema.pr_commits
        rows = conn.execute(
            sa.select(rt.c.resolved, rc.c.created_at)
            .join(rc, sa.and_(rc.c.id == rt.c.comment_id, rc.c.number == rt.c.number))
            .where(rt.c.number == UNRESOLVED_PR)
        ).all()
        commits = (
            conn.execute(sa.select(pc.c.committed_at).where(pc.c.number == UNRESOLVED_PR))
            .scalars()
            .all()
        )
        loaded = load_thread_figures(conn, repo_id, [UNRESOLVED_PR], NOW)[UNRESOLVED_PR]
        gaps = conn.execute(
            sa.select(schema.sync_state.c.cursor).where(
                schema.sync_state.c.stream == f"gap:{SETTLED_PR}"
            )
        ).scalar_one()
    assert sum(1 for resolved, _ in rows if not resolved) == loaded.unresolved == 1
    assert all(c < t for _, t in rows for c in commits)  # no commit after any thread
    assert unread_diffs(json.loads(gaps)) == _files(SETTLED_PR)


def test_thread_figures_and_their_sentences() -> None:
    t0 = datetime(2026, 3, 6, tzinfo=UTC)
    later = datetime(2026, 3, 7, tzinfo=UTC)
    threads = [ThreadState(False, t0), ThreadState(True, t0), ThreadState(True, later)]
    f = thread_figures(threads, [datetime(2026, 3, 6, 12, tzinfo=UTC)])
    assert f is not None
    assert (f.threads, f.unresolved, f.resolved_without_commit, f.followed_by_commit) == (
        3,
        1,
        1,
        2,
    )
    assert thread_text("en", f) == (
        "1 of 3 still unresolved; 1 resolved with no commit after it; 2 followed by a later commit"
    )
    assert (
        thread_text("zh", f) == "3 个中 1 个仍未解决；1 个已解决但之后没有新提交；2 个之后有新提交"
    )
    # Commit times not known: no claim about commits at all.
    bare = thread_figures(threads, None)
    assert bare is not None and bare.resolved_without_commit is None
    assert thread_text("en", bare) == "1 of 3 still unresolved"
    # Every thread resolved, none followed by a commit: said once, not twice.
    quiet = thread_figures([ThreadState(True, t0), ThreadState(True, t0)], [t0])
    assert quiet is not None
    assert thread_text("en", quiet) == "all 2 resolved; 2 resolved with no commit after them"
    assert thread_figures([], [t0]) is None


def test_unread_diffs_reads_the_count_and_older_phrases() -> None:
    assert unread_diffs({}) == 0
    assert unread_diffs({"patches": "x", "unread_diffs": "7"}) == 7
    older = (
        "2 files without a patch from GitHub (binary, or too large for it to show): a.bin, b; "
        "3 files past 400,000 characters of hunks; 4 files past the first 300 not read"
    )
    assert unread_diffs({"patches": older}) == 9
    assert unread_diffs({"patches": "GitHub has no file list for the pull request"}, 12) == 12


def test_the_model_reads_the_figures_and_the_guard_checks_them(
    synced: Store, fake: FakeGitHub
) -> None:
    kept = f"#{UNRESOLVED_PR} has 1 of 2 review threads still unresolved."
    wrong = f"#{UNRESOLVED_PR} has 2 of 2 review threads still unresolved."

    def cite(body: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        data = data_of(body) or {}
        if data.get("task") == "weekly_risks":
            for item in answer["items"]:
                if item["number"] == UNRESOLVED_PR:
                    item["observation"] = kept
        return answer

    with FakeOpenAI() as llm:
        llm.transform = cite
        report = weekly(synced, "en", make_analyst(llm, synced))
        sent = next(data_of(q.body) for q in llm.requests if q.task == "weekly_risks")
    assert sent is not None
    prs = {p["number"]: p for p in sent["facts"]["prs"]}
    assert prs[UNRESOLVED_PR]["review_thread_figures"] == {
        "review_threads_total": 2,
        "review_threads_unresolved": 1,
        "review_threads_resolved_without_commit": 1,
        "review_threads_followed_by_commit": 0,
    }
    assert prs[SETTLED_PR]["files_without_diff"] == _files(SETTLED_PR)
    observed = {o.item.number: o for o in report.risk_observations}
    assert observed[UNRESOLVED_PR].observation.by == "llm"
    assert observed[UNRESOLVED_PR].observation.text == kept
    # The guard ties each number to what it counts: the total and the unresolved count pass,
    # a wrong count of unresolved threads does not, though 2 is a number the facts hold.
    facts = Facts.of(sent["facts"], numbers=set(prs), logins=set())
    assert problems(kept, facts) == []
    assert problems(wrong, facts) == [
        "2 unresolved review threads: the data has 0 and 1 unresolved review threads"
    ]
    zh_ok = f"#{UNRESOLVED_PR} 的 2 个审查线程中 1 个仍未解决。"
    zh_wrong = f"#{UNRESOLVED_PR} 有 2 个审查线程仍未解决。"
    assert problems(zh_ok, facts) == []
    assert problems(zh_wrong, facts) != []
    files = _files(SETTLED_PR)
    assert problems(f"#{SETTLED_PR} has {files} files without a diff.", facts) == []
    assert problems(f"#{SETTLED_PR} has {files + 40} files without a diff.", facts) != []
