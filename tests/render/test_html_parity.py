"""The HTML reports (site pages and the PDFs printed from them) show what the Markdown shows:
the weekly's topic tracks, reverts, kinds of change and score parts, trend wording and the
appendix's groups; the daily's unknown counts, coverage note and git-only lines. Each test
reads the page's structure, in both languages."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import lxml.html
import pytest

from tests.sources.test_git_source import synced_git_day
from tidings.common.config import LANGS, RepoConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.render import common as c
from tidings.render.html import HtmlWriter, render_daily_html, render_weekly_html
from tidings.render.markdown import render_daily_markdown
from tidings.render.markdown_common import MarkdownWriter
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report import model as m
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.report.weekly_model import TrendRow, WeeklyReport
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store
from tidings.words import daily as daily_words
from tidings.words import weekly as weekly_words

NOW = datetime(2026, 3, 20, tzinfo=UTC)


def _section(doc: Any, anchor: str) -> Any:
    """The <section> whose heading carries `anchor` (ids are on headings, for Pagefind)."""
    return doc.get_element_by_id(anchor).getparent()


@pytest.fixture(scope="module")
def demo_weeks(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], WeeklyReport]:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('parity') / 'demo.db'}")
    try:
        import_snapshot(store, SAMPLE_PATH)
        settings = load_config(CONFIG_PATH).repo(REPO)
        return {
            (week, lang): build_weekly(store, settings, 2026, week, lang, now=NOW)
            for week in (10, 11)
            for lang in LANGS
        }
    finally:
        store.close()


@pytest.fixture(scope="module")
def weeks(demo_weeks: dict[tuple[int, str], WeeklyReport]) -> dict[str, WeeklyReport]:
    """Demo week 10 (a revert, a bot PR, the AMD/ROCm track) in both languages."""
    return {lang: demo_weeks[(10, lang)] for lang in LANGS}


def _doc(html: str) -> Any:
    return lxml.html.fromstring(html)


def _text(node: Any) -> str:
    return " ".join(node.text_content().split())


@pytest.mark.parametrize("lang", LANGS)
def test_weekly_html_shows_the_topic_tracks(weeks: dict[str, WeeklyReport], lang: str) -> None:
    report = weeks[lang]
    assert report.tracks and report.tracks[0].items
    doc = _doc(render_weekly_html(report))
    toc = doc.xpath("//nav[contains(@class,'toc')]//a/@href")
    for k, track in enumerate(report.tracks, start=1):
        assert f"#track-{k}" in toc
        section = _section(doc, f"track-{k}")
        assert track.title in _text(section.find("h2"))
        linked = [a.text for a in section.xpath(".//li/a")]
        assert [f"#{x.item.number}" for x in track.items] == linked
        # The reasons in words, a path as its file name (as in the Markdown).
        first = section.xpath(".//li")[0]
        matched = weekly_words.wt(lang, "track_matched", reasons="").strip()
        assert matched in _text(first)
        codes = [x.text for x in first.xpath(".//span[@class='muted']/code")]
        reasons = track.items[0].reasons
        assert codes == [r.split(":", 1)[1].rsplit("/", 1)[-1] for r in reasons]


@pytest.mark.parametrize("lang", LANGS)
def test_weekly_html_names_what_a_revert_reverts(weeks: dict[str, WeeklyReport], lang: str) -> None:
    report = weeks[lang]
    label = weekly_words.wt(lang, "reverts_line")
    url = "https://github.com/tidings-demo/rapidinfer/pull/4217"
    observed = next(o for o in report.risk_observations if o.item.number == 4254)
    key = next(p for p in report.key_prs if p.item.number == 4254)
    assert observed.reverts and key.reverts and key.reverts.number == 4217
    doc = _doc(render_weekly_html(report))
    for section in ("risks", "key-prs"):
        node = _section(doc, section)
        lines = [s.getparent() for s in node.xpath(".//strong") if s.text == label]
        assert len(lines) == 1, section
        assert url in lines[0].xpath(".//a/@href"), section
        if lang == "en":
            assert "Fuse RMSNorm and FP8 quantization" in _text(lines[0])
        else:  # zh names a PR's title once, at its first mention: #4217 is a highlight
            assert "Fuse RMSNorm" not in _text(lines[0])
    if lang == "zh":
        highlights = _text(_section(doc, "highlights"))
        assert "#4217 Fuse RMSNorm and FP8 quantization" in highlights.replace("[Perf] ", "")
    # The Markdown names it in both places too.
    md = render_weekly_markdown(report)
    assert md.count(f"**{label}**") == 2


@pytest.mark.parametrize("lang", LANGS)
def test_weekly_key_prs_show_their_kind_and_score_parts(
    weeks: dict[str, WeeklyReport], lang: str
) -> None:
    report = weeks[lang]
    doc = _doc(render_weekly_html(report))
    rows = _section(doc, "key-prs").xpath(".//tbody/tr")
    assert len(rows) == len(report.key_prs)
    for row, pr in zip(rows, report.key_prs, strict=True):
        text = _text(row)
        assert weekly_words.wt(lang, f"kind_{pr.kind}") + weekly_words.wt(lang, "colon") in text
        size = weekly_words.wt(lang, "part_size", v=f"{pr.score_parts['size']:g}")
        assert size in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_weekly_appendix_is_grouped_by_theme_bots_last(
    weeks: dict[str, WeeklyReport], lang: str
) -> None:
    report = weeks[lang]
    doc = _doc(render_weekly_html(report))
    appendix = _section(doc, "appendix")
    heads = [_text(th) for th in appendix.xpath(".//tr[@class='group']/th")]
    assert len(heads) == len(report.merged_groups) > 2
    assert heads[-1].startswith(weekly_words.wt(lang, "appendix_bots"))
    for body, group in zip(appendix.xpath(".//tbody"), report.merged_groups, strict=True):
        numbers = [a.text for a in body.xpath(".//td[1]/a")]
        assert numbers == [f"#{n}" for n in group.numbers]
    # Every merged PR once, its kind of change and its title without the leading tags.
    assert sum(len(g.numbers) for g in report.merged_groups) == report.merged_prs
    revert = next(r for r in appendix.xpath(".//tr") if "#4254" in _text(r))
    assert weekly_words.wt(lang, "kind_revert") in _text(revert)


def test_trend_rows_are_worded_alike_in_both_formats() -> None:
    md, html = MarkdownWriter(weekly_words.TEXT["en"]), HtmlWriter(weekly_words.TEXT["en"])
    jump = TrendRow(name="vllm/x", value=1334, previous=57, change=22.4, prs=3)
    small = TrendRow(name="vllm/y", value=118, previous=1, change=117.0, prs=1)
    rise = TrendRow(name="bug", value=7, previous=5, change=0.4, prs=7)
    new = TrendRow(name="vllm/z", value=40, previous=0, change=None, prs=1)
    for wr in (md, html):
        assert "about 23 times the previous week" in c.trend_row(wr, jump, False)
        assert "%" not in c.trend_row(wr, small, False)
        assert "times" not in c.trend_row(wr, small, False)
        assert ", +40%" in c.trend_row(wr, rise, True)
        assert ", new" in c.trend_row(wr, new, False)
    assert c.trend_row(html, jump, False).startswith("<code>vllm/x</code>")
    assert c.trend_row(md, jump, False).startswith("`vllm/x`")


@pytest.mark.parametrize("lang", LANGS)
def test_weekly_html_trend_rows_match_the_markdown(
    demo_weeks: dict[tuple[int, str], WeeklyReport], lang: str
) -> None:
    report = demo_weeks[(11, lang)]  # week 10 has no previous week: every row is new
    doc = _doc(render_weekly_html(report))
    items = _section(doc, "trends").xpath(".//li")
    t = report.module_trends
    rows = [(row, True) for row in (*t.labels, *t.title_tags)]
    rows += [(row, False) for row in (*t.directories, *t.hot_files)]
    assert len(items) == len(rows)
    md = render_weekly_markdown(report)
    times = weekly_words.wt(lang, "trend_times", x=0).split("0")[0]
    assert sum(times in _text(li) for li in items) == md.count(times) > 0
    # No percentage from a small base: the two numbers the row shows say it.
    for li, (row, count) in zip(items, rows, strict=True):
        if 0 < row.previous < (c.SMALL_BASE_COUNT if count else c.SMALL_BASE_LINES):
            assert "%" not in _text(li), _text(li)


# -- the daily report, read from a git clone ---------------------------------------------------


@pytest.fixture(scope="module")
def git_days(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A day whose merged PRs come only from a git clone: git cannot know the other counts."""
    store = synced_git_day(tmp_path_factory.mktemp("git-daily"))
    try:
        repo = RepoConfig(name="acme/engine")
        return {
            lang: build_daily(store, repo, date(2026, 8, 6), lang, now=NOW.replace(month=9))
            for lang in LANGS
        }
    finally:
        store.close()


@pytest.mark.parametrize("lang", LANGS)
def test_git_only_daily_html_shows_a_dash_for_what_git_cannot_know(
    git_days: dict[str, Any], lang: str
) -> None:
    report = git_days[lang]
    assert report.coverage is not None and report.stats.merged_prs == 2
    unknown = set(report.coverage.unknown)
    assert {"new_issues", "closed_issues", "closed_unmerged_prs"} <= unknown
    words = daily_words.TEXT[lang]
    doc = _doc(render_daily_html(report))
    stats = _text(doc.xpath("//p[@class='stats']")[0])
    for key in c.STAT_KEYS:
        count = words["unknown_count"] if key in unknown else getattr(report.stats, key)
        assert f"{words[key]} {count}" in stats, (key, stats)
    assert f"{words['merged_prs']} 2" in stats
    # The coverage note, and lists git cannot fill said to need the API, not "none".
    notes = [_text(p) for p in doc.xpath("//p[@class='muted']")]
    assert any(n.startswith("ℹ️") and "GitHub API" in n for n in notes)
    activity = _text(_section(doc, "activity"))
    assert words["act_needs_api"] in activity and words["act_latency_git"] in activity
    # The Markdown says the same.
    md = render_daily_markdown(report)
    assert words["act_needs_api"] in md and f"{words['new_issues']} —" in md
    # No discussion or watch list is knowable from a clone: "unknown", never "none" (#22).
    page = _text(doc.getroot() if hasattr(doc, "getroot") else doc)
    for text in (md, page):
        assert words["hot_unknown"] in text and words["watch_unknown"] in text
        assert words["hot_empty"] not in text and words["watch_empty"] not in text


def test_a_daily_with_every_count_known_shows_numbers(git_days: dict[str, Any]) -> None:
    day = git_days["en"]
    known = m.Stats(new_issues=0, closed_issues=0, new_prs=0, merged_prs=2, closed_unmerged_prs=0)
    lists = m.Appendix(
        new_issues=[],
        closed_issues=[],
        new_prs=[],
        merged_prs=day.appendix.merged_prs,
        closed_unmerged_prs=[],
    )
    report = day.model_copy(update={"coverage": None, "stats": known, "appendix": lists})
    stats = _text(_doc(render_daily_html(report)).xpath("//p[@class='stats']")[0])
    assert "—" not in stats and "New issues 0" in stats


@pytest.mark.parametrize("lang", LANGS)
def test_a_key_changes_model_notes_reach_the_page_as_well_as_the_markdown(
    git_days: dict[str, Any], lang: str
) -> None:
    """The daily page once dropped the notes a model wrote for a key change."""
    from tidings.report.model import Prose

    report = git_days[lang]
    assert report.key_changes
    first = report.key_changes[0]
    note = Prose(text="The new <cache> path has no test for eviction.", by="llm")
    changed = first.model_copy(update={"notes": [note]})
    report = report.model_copy(update={"key_changes": [changed, *report.key_changes[1:]]})
    words = daily_words.TEXT[lang]
    label = words["change_note"].split("{text}")[0]
    changes = _text(_section(_doc(render_daily_html(report)), "changes"))
    assert f"{label}The new <cache> path has no test for eviction." in changes
    assert label + "The new \\<cache\\> path" in render_daily_markdown(report)


@pytest.mark.parametrize("lang", LANGS)
def test_a_stated_effect_is_quoted_in_the_page_and_the_markdown(
    weeks: dict[str, WeeklyReport], lang: str
) -> None:
    """#4171 says "`swap` cuts p99 latency of preempted requests by 38% on long prompts"."""
    report = weeks[lang]
    (pr,) = [p for p in report.key_prs if p.item.number == 4171]
    assert pr.stated_effect is not None and "by 38%" in pr.stated_effect
    label = weekly_words.TEXT[lang]["key_effect"].split("{text}")[0]
    quoted = "swap cuts p99 latency of preempted requests by 38% on long prompts"
    page = _text(_section(_doc(render_weekly_html(report)), "key-prs"))
    assert label in page and quoted in page
    assert quoted.replace("swap", "`swap`", 1) in render_weekly_markdown(report)
