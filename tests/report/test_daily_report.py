"""The daily report on the demo sample: numbers, lists, references and structure.

The oracle here reads sample.jsonl directly with json and zoneinfo, not through tidings, so a
counting bug in facts/ cannot hide behind the same bug in the test.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests import report_checks
from tidings.common.config import load_config
from tidings.demo import CONFIG_PATH, QUIET_DAY, REPO, SAMPLE_PATH
from tidings.render.markdown import render_daily_markdown
from tidings.report.daily import build_daily
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

TZ = ZoneInfo("Asia/Shanghai")
DAYS = [date(2026, 3, 2) + timedelta(days=k) for k in range(12)]
NOW = datetime(2026, 3, 14, 2, 0, tzinfo=UTC)
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _raw() -> list[dict]:
    lines = SAMPLE_PATH.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[1:]]


def _t(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value.replace("Z", "+00:00"))


def oracle(day: date) -> dict[str, list[int]]:
    start = datetime(day.year, day.month, day.day, 9, 0, tzinfo=TZ)
    end = start + timedelta(days=1)  # Shanghai has no DST

    def inside(v: str | None) -> bool:
        moment = _t(v)
        return moment is not None and start <= moment < end

    lists: dict[str, list[int]] = {
        k: []
        for k in ("new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs")
    }
    for rec in _raw():
        if rec["type"] != "item" or rec["deleted"]:
            continue
        n, pr = rec["number"], rec["kind"] == "pr"
        if inside(rec["created_at"]):
            lists["new_prs" if pr else "new_issues"].append(n)
        closed = rec["state"] == "closed" and inside(rec["closed_at"])
        if pr and inside(rec["merged_at"]):
            lists["merged_prs"].append(n)
        elif pr and closed and rec["merged_at"] is None:
            lists["closed_unmerged_prs"].append(n)
        elif not pr and closed:
            lists["closed_issues"].append(n)
    return {k: sorted(v) for k, v in lists.items()}


def known_logins() -> set[str]:
    logins = set()
    for rec in _raw():
        for key in ("author", "merged_by"):
            if rec.get(key):
                logins.add(rec[key])
    return logins


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('demo') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    return store


@pytest.fixture(scope="module")
def repo_config():
    return load_config(CONFIG_PATH).repo(REPO)


EXPECTED_ZH = [
    ("h1", "RapidInfer 开发动态报告 - {day}"),
    ("h2", "📊 每日开发状态摘要"),
    ("h2", "🎯 AMD/ROCm 相关动态"),
    ("h2", "💬 高热度讨论分析"),
    ("h2", "🔥 热门话题与趋势分析"),
    ("h2", "🛠️ 重点技术变更"),
    ("h2", "📈 开发活跃度观察"),
    ("h2", "💡 值得关注的问题"),
    ("h2", "📋 附录：详细数据列表"),
]
EXPECTED_EN = [
    ("h1", "RapidInfer development report - {day}"),
    ("h2", "📊 Daily status summary"),
    ("h2", "🎯 AMD/ROCm"),
    ("h2", "💬 Hot discussions"),
    ("h2", "🔥 Hot topics and trends"),
    ("h2", "🛠️ Key technical changes"),
    ("h2", "📈 Activity"),
    ("h2", "💡 Worth watching"),
    ("h2", "📋 Appendix: complete lists"),
]
APPENDIX = {
    "zh": ["新增 Issue", "已关闭 Issue", "新增 PR", "已合并 PR", "关闭但未合并的 PR"],
    "en": ["New issues", "Closed issues", "New PRs", "Merged PRs", "Closed without merging"],
}
KEYS = ["new_issues", "closed_issues", "new_prs", "merged_prs", "closed_unmerged_prs"]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("day", DAYS, ids=str)
def test_every_day_counts_lists_links_and_sections(demo_store, repo_config, day, lang):
    report = build_daily(demo_store, repo_config, day, lang, now=NOW)
    want = oracle(day)
    # The stats line and the appendix equal the independent oracle, list for list.
    assert report.stats.model_dump() == {k: len(v) for k, v in want.items()}
    for key in KEYS:
        assert sorted(ref.number for ref in getattr(report.appendix, key)) == want[key]
    assert report.provenance.list_counts == {k: len(v) for k, v in want.items()}

    text = render_daily_markdown(report)
    stats_line = {
        "zh": "**数据统计**：新 Issue {} | 关闭 Issue {} | 新 PR {} | 合并 PR {} | "
        "关闭未合并 PR {}",
        "en": "**Stats**: New issues {} | Closed issues {} | New PRs {} | Merged PRs {} | "
        "Closed unmerged PRs {}",
    }[lang].format(*(len(want[k]) for k in KEYS))
    assert stats_line in text.splitlines()

    numbers = {rec["number"] for rec in _raw() if rec["type"] == "item"}
    expected = EXPECTED_ZH if lang == "zh" else EXPECTED_EN
    sections = [(tag, title.format(day=day.isoformat())) for tag, title in expected]
    if report.quiet:
        # A quiet day is the title, the stats and one line: no empty sections.
        sections = sections[:2]
    else:
        sections += [
            ("h3", f"{name} ({len(want[k])})") for name, k in zip(APPENDIX[lang], KEYS, strict=True)
        ]
    report_checks.check_structure(
        text,
        repo=REPO,
        numbers=numbers,
        logins=known_logins(),
        expected_headings=sections,
    )
    if report.quiet:
        return
    # Every appendix entry links its item: the lists are complete in the text too.
    appendix = text.split("## " + expected[-1][1], 1)[1]
    linked = [int(n) for n in re.findall(r"^- \[#(\d+)\]", appendix, re.MULTILINE)]
    assert sorted(linked) == sorted(n for k in KEYS for n in want[k])


def test_quiet_day_is_one_line(demo_store, repo_config):
    day = date.fromisoformat(QUIET_DAY)
    assert all(not v for v in oracle(day).values())
    report = build_daily(demo_store, repo_config, day, "zh", now=NOW)
    assert report.quiet
    text = render_daily_markdown(report)
    summary = text.split("## 📊 每日开发状态摘要\n\n", 1)[1].split("\n", 1)[0]
    assert (
        summary == "本窗口较为平静：没有新增、关闭或合并的 Issue 与 PR（窗口内评论与审查 1 条）。"
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("day", ["2026-03-04", "2026-03-08"])
def test_golden(demo_store, repo_config, day, lang):
    """Whole reports, read line by line against the sample when they were written."""
    report = build_daily(demo_store, repo_config, date.fromisoformat(day), lang, now=NOW)
    text = render_daily_markdown(report)
    golden = GOLDEN / f"daily-{day}.{lang}.md"
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_summary_names_the_hottest_discussion_and_the_top_merge(demo_store, repo_config, lang):
    """As the seed's summary names "the one discussion that mattered": 2026-03-04's is #4223
    (8 comments and reviews from 8 people: the demo's OOM thread), its top merge #4215."""
    from tidings.render.html import render_daily_html

    report = build_daily(demo_store, repo_config, date(2026, 3, 4), lang, now=NOW)
    assert report.hot_discussions[0].item.number == 4223
    assert report.key_changes[0].item.number == 4215
    summary = report.summary.text
    assert summary.by == "rules" and summary.refs == [4215, 4223]
    expected = {
        "zh": (
            "热度最高的讨论是 #4223（",
            "：本窗口 8 条评论/审查，8 位参与者。",
            "最重要的合并是 #4215（",
        ),
        "en": (
            "The hottest discussion was #4223 (",
            "): 8 comments and reviews from 8 people in the window.",
            "The most important merge was #4215 (",
        ),
    }[lang]
    for part in expected:
        assert part in summary.text
    # Both numbers are links in the Markdown and the page.
    md = render_daily_markdown(report)
    page = render_daily_html(report)
    for number, path in ((4223, "issues"), (4215, "pull")):
        url = f"https://github.com/{REPO}/{path}/{number}"
        assert f"[#{number}]({url})" in md.split("## ", 2)[1]
        assert f'href="{url}"' in page.split('id="summary"', 1)[1].split("</section>", 1)[0]
