"""A git-only store of the real vllm-ascend history never says a PR was opened (issue #22).

The shared records are rendered as `git log` output (testkit/gitlog.py) and read by the git
source, as from a clone. A clone records merges only: when a PR was opened, and anything of
issues or unmerged PRs, is unknown. The 2026-08-05 daily and the 2026-W05 weekly, in zh and
en, in Markdown, HTML and JSON, must state no figure or claim about opening ("新开"/"新增"/
"opened"/"new"), and no "none" ("无") where the source cannot know.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from typing import Any

import lxml.html
import pytest

from testkit.gitlog import ASCEND, REPO, load_records, render_log
from tests.shared import shared_or_skip
from tidings.common.config import RepoConfig, parse_config
from tidings.render.html import render_daily_html, render_weekly_html
from tidings.render.markdown import render_daily_markdown
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.sources.git import ingest, parse_log
from tidings.store import Store

DAY = date(2026, 8, 5)
NOW = datetime(2026, 8, 24, tzinfo=UTC)
CONFIG = f"""
[[repos]]
name = "{REPO}"
timezone = "Asia/Shanghai"
cutoff = "09:00"
language = "zh"

[[repos.topics]]
title = "MoE"
keywords = ["moe", "expert"]
paths = ["vllm_ascend/ops/fused_moe/**"]

[[repos.topics]]
title = "Nothing"
keywords = ["no-such-word-anywhere"]
"""

# A figure or a claim about opening: what git cannot know. Sentences saying it is unknown
# ("新开与关闭的 Issue、PR 数 git 无从得知", "does not know when a PR was opened") carry no
# figure and name no opener, so they do not match.
OPENING_CLAIMS = [
    r"新开 ?(PR|Issue) ?\d",  # "新开 PR 5 个"
    r"由 \S.{0,40}新开",  # "本窗口由 Sijie Fu 新开"
    r"新增 ?(PR|Issue) ?[(（]?\d",  # "新增 PR (0)", "新增 PR 0"
    r"新 ?(PR|Issue) \d",  # "新 PR 0" in the stats line
    r"(?i)\bopened by\b",
    r"(?i)\bnew (issues|PRs)[ :(]*\d",  # "New PRs (0)", "New PRs 0"
    r"(?i)\bopened (PRs|issues): \d",
    r"(?i)\b\d+ new\b(?!\))",  # "Pull requests: 0 new" (a trend's "(previous 0, new)" is churn)
    r"(?i)\bnew (issues|PRs) and PRs\)",  # the ranking's "(new issues and PRs)"
    r"新开 Issue/PR",  # the ranking's old label
]
# "None" where the source cannot know: an empty appendix list or an empty-looking count.
NONE_CLAIMS = [
    r"^- 无$",
    r"^- none$",
    r"\(0\)$",
    r"本窗口没有与 \S+ 相关的条目",
    r"No items related",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    records = load_records(
        shared_or_skip(ASCEND, "these tests read the shared vllm-ascend history")
    )
    path = tmp_path_factory.mktemp("gitonly") / "ascend.db"
    opened = Store.open(f"sqlite:///{path}")
    ingest(opened, REPO, parse_log(render_log(records)), records[0]["sha"])
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def repo() -> RepoConfig:
    return parse_config(CONFIG).repo(REPO)


def _page_text(html: str) -> str:
    return str(lxml.html.fromstring(html).text_content())


def _claims(text: str, patterns: list[str]) -> list[str]:
    found = []
    for line in text.splitlines():
        # First-time contributors are knowable from git history: another part of #22 finds
        # them; this test is about openings.
        if line.startswith(("- 首次贡献者", "- First-time contributors")):
            continue
        found += [line for p in patterns if re.search(p, line.strip())]
    return found


def test_the_patterns_catch_what_the_reports_used_to_say() -> None:
    """The control: the old reports' sentences are caught by the patterns above."""
    old = [
        "本窗口合并（+54/−226，19 个文件）、本窗口由 Wang Kunpeng 新开：“The current”",
        "本窗口与 MoE 相关的条目 4 个：合并 PR 4 个、新开 PR 4 个，新开 Issue 0 个、关闭 0 个。",
        "### 新增 PR (0)",
        "- 无",
        "条目数：新增 Issue 0、已关闭 Issue 0、新增 PR 0、已合并 PR 15",
        "- 最活跃的作者（新开 Issue/PR）：Sijie Fu",
        "merged (+1/−2, 3 files), opened by Sijie Fu",
        "Pull requests: 0 new, 15 merged",
        "### New PRs (0)",
        "- Most active authors (new issues and PRs): Sijie Fu",
    ]
    for line in old:
        assert _claims(line, OPENING_CLAIMS + NONE_CLAIMS), line


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_git_only_daily_says_no_pr_was_opened_and_no_count_is_none(
    store: Store, repo: RepoConfig, lang: str
) -> None:
    report = build_daily(store, repo, DAY, lang, now=NOW)  # type: ignore[arg-type]
    assert report.stats.merged_prs == 15  # the records' merges in the window
    md = render_daily_markdown(report)
    page = _page_text(render_daily_html(report))
    for text in (md, page):
        assert _claims(text, OPENING_CLAIMS) == []
        assert _claims(text, NONE_CLAIMS) == []
    # What is unknown says so: "—" in the stats line, the appendix and the footer.
    assert md.count("—") >= 4 * 3
    assert report.activity.authors_by == "merged"
    ranking = {"zh": "最活跃的作者（合并 PR", "en": "Most active authors (merged PRs"}[lang]
    assert ranking in md and ranking in page
    # The JSON: null, never 0 or [], for every count a clone cannot know.
    data = json.loads(report.model_dump_json())
    for key in ("new_issues", "closed_issues", "new_prs", "closed_unmerged_prs"):
        assert data["stats"][key] is None and data["appendix"][key] is None, key
        assert data["provenance"]["list_counts"][key] is None, key
    assert {t["metric"] for t in data["summary"]["trends"]} == {"merged_prs"}
    # No item note in a topic track says it was opened: tracks count merges only.
    moe = next(t for t in report.topics if t.title == "MoE")
    assert moe.items and all("opened" not in x.note.text for x in moe.items)
    assert _claims(moe.analysis.text, OPENING_CLAIMS) == []
    assert ("无从得知" if lang == "zh" else "unknown") in moe.analysis.text
    nothing = next(t for t in report.topics if t.title == "Nothing")
    assert ("合并 PR" if lang == "zh" else "merged PR") in nothing.analysis.text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_git_only_weekly_says_no_pr_was_opened(store: Store, repo: RepoConfig, lang: str) -> None:
    report = build_weekly(store, repo, 2026, 5, lang, now=NOW)  # type: ignore[arg-type]
    assert report.merged
    md = render_weekly_markdown(report)
    page = _page_text(render_weekly_html(report))
    for text in (md, page):
        assert _claims(text, OPENING_CLAIMS) == []
        assert _claims(text, NONE_CLAIMS) == []
    data = json.loads(report.model_dump_json())
    tracks = {t["title"]: t for t in data["tracks"]}
    # Other items of a track (issues, unmerged PRs) are unknown on a clone: null, never 0.
    assert tracks["MoE"]["merged_prs"] > 0 and tracks["MoE"]["other_items"] is None
    assert tracks["Nothing"]["merged_prs"] == 0 and tracks["Nothing"]["other_items"] is None
