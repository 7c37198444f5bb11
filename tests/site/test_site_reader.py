"""The reader's site without a browser (#13): links between reports, month pages, the
window's GitHub searches, feeds per language, search on and off, charts' axes, meta tags.
(tests/site/test_site_demo.py walks the same site in Chromium.)"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.site.test_site import DAYS, NOW, PROJECT, write_reports
from tests.site_support import parse_page
from tidings.common.config import SiteConfig
from tidings.report.model import DailyReport
from tidings.report.weekly import build_weekly
from tidings.site import charts
from tidings.site.archive import month_of, week_days, week_of, window_searches
from tidings.site.build import build_site

ATOM = "{http://www.w3.org/2005/Atom}"
# The reports fixtures of test_site.py (the demo store, its daily reports).
from tests.site.test_site import demo_store, reports, settings  # noqa: E402, F401


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, reports, demo_store, settings) -> Path:  # type: ignore[no-untyped-def]  # noqa: F811
    """Four days in English, the first two also in Chinese, and week 11 in English only."""
    src = tmp_path_factory.mktemp("reader") / "reports"
    write_reports(src, reports, [(d, "en") for d in DAYS] + [(d, "zh") for d in DAYS[:2]])
    weekly = build_weekly(demo_store, settings, 2026, 11, "en", now=NOW)
    path = src / PROJECT / "weekly" / "2026-W11.en.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(weekly.model_dump_json(indent=2), "utf-8")
    out = src.parent / "site"
    build_site(src, out, SiteConfig(base_url="https://example.org/r/"), pdf=False)
    return out


def _page(site: Path, rel: str) -> str:
    return (site / PROJECT / rel).read_text("utf-8")


def _links(html: str) -> dict[str, str]:
    """rel=prev/next links and the pager's others, by their text."""
    parsed = parse_page(html)
    found = {}
    for tag, attrs in parsed.tags:
        if tag == "a" and attrs.get("rel") in {"prev", "next"}:
            found[str(attrs["rel"])] = str(attrs["href"])
    return found


def test_calendar_helpers() -> None:
    assert week_of("2026-03-10") == "2026-W11" and week_of("2026-01-01") == "2026-W01"
    assert week_days("2026-W11") == [f"2026-03-{d:02d}" for d in range(9, 16)]
    # A week belongs to the month of its Thursday: 2025-W01 (Dec 30 .. Jan 5) is January's.
    assert month_of("weekly", "2025-W01") == "2025-01"
    assert month_of("daily", "2024-12-30") == "2024-12"


def test_a_day_links_to_its_neighbours_its_week_and_its_month(site: Path) -> None:
    page = _page(site, f"daily/{DAYS[1]}.en.html")
    assert _links(page) == {"prev": f"{DAYS[0]}.en.html", "next": f"{DAYS[2]}.en.html"}
    hrefs = parse_page(page).hrefs
    assert "../weekly/2026-W11.en.html" in hrefs and "../archive/2026-03.html" in hrefs
    # The first day has no previous one, the last no next one: no dead links.
    assert _links(_page(site, f"daily/{DAYS[0]}.en.html")) == {"next": f"{DAYS[1]}.en.html"}
    assert _links(_page(site, f"daily/{DAYS[3]}.en.html")) == {"prev": f"{DAYS[2]}.en.html"}
    # Neighbours are of the same language: the Chinese pages link only each other ...
    assert _links(_page(site, f"daily/{DAYS[1]}.zh.html")) == {"prev": f"{DAYS[0]}.zh.html"}
    # ... and the week, which has no Chinese report, in English.
    assert "../weekly/2026-W11.en.html" in parse_page(_page(site, f"daily/{DAYS[1]}.zh.html")).hrefs


def test_a_week_links_to_its_days(site: Path) -> None:
    page = parse_page(_page(site, "weekly/2026-W11.en.html"))
    days = [h for h in page.hrefs if h.startswith("../daily/")]
    assert days == [f"../daily/{d}.en.html" for d in DAYS]
    assert "../archive/2026-03.html" in page.hrefs


def test_the_month_page_is_a_calendar_of_its_reports(site: Path) -> None:
    page = _page(site, "archive/2026-03.html")
    cells = re.findall(r'<td><a href="([^"]+)" title="[^"]*">(\d+)</a></td>', page)
    assert cells == [(f"../daily/{d}.en.html", str(int(d[-2:]))) for d in DAYS]
    assert "../weekly/2026-W11.en.html" in parse_page(page).hrefs
    # The project page lists the month, with its counts.
    project = _page(site, "index.html")
    assert 'href="archive/2026-03.html">March 2026</a>' in project
    assert "4 daily, 1 weekly" in project


def test_the_window_is_a_github_search_not_the_repository() -> None:
    start = datetime(2026, 3, 10, 1, tzinfo=UTC)
    end = datetime(2026, 3, 11, 1, tzinfo=UTC)
    links = window_searches("https://github.com/o/r/", start, end)
    span = "2026-03-10T01:00:00+00:00..2026-03-11T00:59:59+00:00"
    expected = {
        "new_issues": ("/o/r/issues", f"is:issue created:{span}"),
        "closed_issues": ("/o/r/issues", f"is:issue closed:{span}"),
        "new_prs": ("/o/r/pulls", f"is:pr created:{span}"),
        "merged_prs": ("/o/r/pulls", f"is:pr merged:{span}"),
        "closed_unmerged_prs": ("/o/r/pulls", f"is:pr is:unmerged closed:{span}"),
        "window": ("/o/r/pulls", f"is:pr merged:{span}"),
    }
    for name, (path, query) in expected.items():
        url = urlsplit(links[name])
        assert (url.netloc, url.path, parse_qs(url.query)["q"]) == ("github.com", path, [query])
    assert window_searches("javascript:alert(1)//", start, end) == {}


def test_each_stat_links_to_its_search(site: Path, reports) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    report: DailyReport = reports[(DAYS[1], "en")]
    page = _page(site, f"daily/{DAYS[1]}.en.html")
    stats = page.split('<p class="stats">')[1].split("</p>")[0]
    linked = re.findall(r'<a href="([^"]+)"><b>(\d+)</b></a>', stats)
    assert [int(n) for _, n in linked] == [
        report.stats.new_issues,
        report.stats.closed_issues,
        report.stats.new_prs,
        report.stats.merged_prs,
        report.stats.closed_unmerged_prs,
    ]
    assert all("q=is%3A" in href for href, _ in linked)


def test_a_feed_per_language_and_each_report_once_in_the_others(site: Path) -> None:
    def entries(rel: str) -> list[tuple[str, str]]:
        root = ET.parse(site / rel).getroot()
        return [
            (e.findtext(f"{ATOM}id") or "", e.find(f"{ATOM}link").get("hreflang") or "")  # type: ignore[union-attr]
            for e in root.findall(f"{ATOM}entry")
        ]

    zh, en = entries(f"{PROJECT}/feed.zh.xml"), entries(f"{PROJECT}/feed.en.xml")
    assert len(zh) == 2 and {lang for _, lang in zh} == {"zh"}
    assert len(en) == 5 and {lang for _, lang in en} == {"en"}
    assert (
        ET.parse(site / PROJECT / "feed.zh.xml")
        .getroot()
        .get("{http://www.w3.org/XML/1998/namespace}lang")
        == "zh-CN"
    )
    assert entries(f"{PROJECT}/feed.xml") == en == entries("feed.xml")  # no report twice
    # Every page's <head> names its feeds; a report page its own language's.
    head = parse_page(_page(site, f"daily/{DAYS[0]}.zh.html"))
    feeds = [a for t, a in head.tags if t == "link" and a.get("type") == "application/atom+xml"]
    assert [(a["href"], a["hreflang"]) for a in feeds] == [("../feed.zh.xml", "zh-CN")]
    project = parse_page(_page(site, "index.html"))
    feeds = [a for t, a in project.tags if t == "link" and a.get("type") == "application/atom+xml"]
    assert [a["href"] for a in feeds] == ["feed.en.xml", "feed.zh.xml", "feed.xml"]


def test_meta_description_and_open_graph(site: Path, reports) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    page = parse_page(_page(site, f"daily/{DAYS[0]}.en.html"))
    meta = {
        str(a.get("property") or a.get("name")): str(a["content"])
        for t, a in page.tags
        if t == "meta" and "content" in a
    }
    summary = reports[(DAYS[0], "en")].summary.text.text
    assert meta["description"] == meta["og:description"]
    assert summary.startswith(meta["description"].rstrip("…")) and len(meta["description"]) <= 201
    assert meta["og:title"] == f"RapidInfer development report - {DAYS[0]}"
    assert meta["og:type"] == "article" and meta["og:locale"] == "en_US"
    assert meta["og:url"] == f"https://example.org/r/{PROJECT}/daily/{DAYS[0]}.en.html"


def test_headings_have_permalinks_on_the_site_not_in_the_pdf(site: Path, reports) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tidings.render.pdf import print_html

    page = _page(site, f"daily/{DAYS[0]}.en.html")
    anchors = re.findall(r'<a class="anchor" href="#([^"]+)"', page)
    ids = parse_page(page).ids
    assert "summary" in anchors and "appendix-merged-prs" in anchors
    assert set(anchors) <= ids
    assert 'class="anchor"' not in print_html(reports[(DAYS[0], "en")])


def test_backticks_in_titles_are_code_everywhere(reports) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tidings.render.html import render_daily_html

    report: DailyReport = reports[(DAYS[1], "en")]
    ref = report.appendix.merged_prs[0]
    titled = ref.model_copy(update={"title": "Fix `torch.compile` <b>x</b>"})
    appendix = report.appendix.model_copy(update={"merged_prs": [titled]})
    page = render_daily_html(report.model_copy(update={"appendix": appendix}))
    assert "Fix <code>torch.compile</code> &lt;b&gt;x&lt;/b&gt;" in page


def test_search_is_off_in_one_line_without_pagefind(
    tmp_path: Path,
    reports,  # type: ignore[no-untyped-def]  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(DAYS[0], "en"), (DAYS[0], "zh")])
    first = build_site(src, out, SiteConfig(), pdf=False)
    assert first.warnings == []
    assert (out / "search.html").is_file() and (out / "pagefind" / "pagefind-entry.json").is_file()
    # One bundle a language: the search page's own (English) and the Chinese one it merges.
    entries = [
        json.loads(p.read_text("utf-8")) for p in out.glob("pagefind/**/pagefind-entry.json")
    ]
    assert sorted(lang for entry in entries for lang in entry["languages"]) == ["en", "zh-cn"]
    assert "form" in (out / PROJECT / "daily" / f"{DAYS[0]}.en.html").read_text("utf-8")
    # The binary gone: the site still builds, says so in one line, and offers no search.
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "no-such-pagefind"))
    second = build_site(src, out, SiteConfig(), pdf=False)
    assert second.warnings == [
        "search is off: the Pagefind binary is not installed "
        "(pip install 'pagefind[extended]' and build again)"
    ]
    assert not (out / "search.html").exists() and not (out / "pagefind").exists()
    page = (out / PROJECT / "daily" / f"{DAYS[0]}.en.html").read_text("utf-8")
    assert "<form" not in page and "search.html" not in page
    # Turned off in the settings: no warning, no search either.
    third = build_site(src, out, SiteConfig(search=False), pdf=False)
    assert third.warnings == [] and not (out / "search.html").exists()


def test_an_unchanged_site_does_not_index_again(
    tmp_path: Path,
    reports,  # type: ignore[no-untyped-def]  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tidings.site import search

    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, reports, [(DAYS[0], "en")])
    build_site(src, out, SiteConfig(), pdf=False)
    calls: list[Path] = []
    real = search.build_index
    monkeypatch.setattr(search, "build_index", lambda *a: calls.append(a[0]) or real(*a))
    assert build_site(src, out, SiteConfig(), pdf=False).written == [] and calls == []
    (out / "pagefind" / "pagefind-entry.json").unlink()  # a file of the index missing
    again = build_site(src, out, SiteConfig(), pdf=False)
    assert len(calls) == 1 and "pagefind/pagefind-entry.json" in again.written


def test_nice_axes() -> None:
    assert charts.nice_axis(11) == (12, 2)  # not 40
    assert charts.nice_axis(40) == (40, 10)
    assert charts.nice_axis(46) == (50, 10)
    assert charts.nice_axis(7) == (8, 2)
    assert charts.nice_axis(0) == (1, 1)
    assert charts.nice_axis(1234) == (1500, 500)
    for peak in range(1, 500):
        top, step = charts.nice_axis(peak)
        assert peak <= top < peak + step and top // step <= 6


def test_the_activity_chart_starts_at_the_first_report_with_axis_titles() -> None:
    days = [charts.DayCounts(f"2026-03-{d:02d}", None, None, None) for d in range(1, 21)]
    days += [charts.DayCounts(f"2026-03-{d:02d}", 11, 3, 2) for d in range(21, 31)]
    svg = str(charts.activity_chart(days, ["new", "merged", "closed"], "t", "per day", "date"))
    wide = svg.split('class="chart chart-narrow"')[0]
    assert "03-20" not in wide and ">03-21<" in wide  # no run of empty days first
    ticks = re.findall(r'text-anchor="end">(\d+)</text>', wide)
    assert ticks == ["0", "2", "4", "6", "8", "10", "12"]
    assert ">per day</text>" in wide and ">date</text>" in wide
    assert svg.count("<svg") == 2  # wide and narrow


def test_risk_legend_in_the_readers_words(site: Path) -> None:
    legend = _page(site, "index.html").split('id="risks"')[1].split("</section>")[0]
    assert "<svg" in legend  # week 11 of the demo has risk tags
    assert ">core path change<" in legend and "core_path" not in legend


def test_demo_dates_are_what_the_tests_assume() -> None:
    assert DAYS[0] == "2026-03-09" and date.fromisoformat(DAYS[-1]).isocalendar()[1] == 11
