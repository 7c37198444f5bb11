"""The demo site end to end: `tidings demo` builds it; a real Chromium (Debian's, through
Playwright) loads it from a loopback port; pdftotext/pdffonts read its PDFs; its feed parses.

Also a hostile site: the demo's reports with `<script>`, `<img onerror>`, `javascript:` links
and Markdown link tricks in every title, text, login and label, where the browser proves that
nothing ran and the PDF and feed show the payloads as text.

Chromium and poppler-utils are Debian packages (.ci/run installs them): missing, these tests
skip with the reason locally and fail under CI=true.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, urljoin, urlsplit

import pytest

from tests.site_support import (
    HOSTILE_LOGIN,
    SCRIPT,
    parse_page,
    require_tool,
    run_demo,
    write_hostile_reports,
)
from tidings.common.config import SiteConfig
from tidings.site.build import build_site
from tidings.site.serve import make_server

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO_DIR = "tidings-demo/rapidinfer"
DAY = "2026-03-10"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DOC_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
CJK = re.compile(r"[\u4e00-\u9fff]")
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    done = run_demo(out)
    assert done.returncode == 0, done.stderr
    assert str(out / "site") in done.stdout  # it says where the site is, on stdout
    return out


@pytest.fixture(scope="module")
def site(demo: Path) -> Path:
    return demo / "site"


@pytest.fixture(scope="module")
def hostile_site(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("hostile-reports")
    write_hostile_reports(demo / "daily", src, DAY)
    out = tmp_path_factory.mktemp("hostile-site")
    build_site(src, out, SiteConfig())
    return out


def _serve(root: Path) -> Iterator[str]:
    server = make_server(root, "127.0.0.1", 0)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        host, port = server.server_address[:2]
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    yield from _serve(site)


OTHER_DIR = "other-org/engine"


@pytest.fixture(scope="module")
def two_projects_url(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo's reports and a copy of them as a second project, Engine, in one site whose
    search is split into many small bundles (about three pages each) the search page merges."""
    src = tmp_path_factory.mktemp("two-projects")
    for path in demo_reports(demo):
        data = json.loads(path.read_text("utf-8"))
        for folder, repo, project in [("a", None, None), ("b", OTHER_DIR, "Engine")]:
            if repo:
                data |= {"repo": repo, "project": project, "repo_url": f"https://github.com/{repo}"}
            target = src / folder / path.parent.name / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(data), "utf-8")
    out = tmp_path_factory.mktemp("two-projects-site")
    result = build_site(src, out, SiteConfig(), pdf=False, search_bundle_bytes=100_000)
    assert result.projects == 2 and result.search_bundles >= 10
    yield from _serve(out)


@pytest.fixture(scope="module")
def hostile_url(hostile_site: Path) -> Iterator[str]:
    yield from _serve(hostile_site)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    require_tool(CHROMIUM, "the browser tests")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright package is missing: pip install -e '.[dev]'")
    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


class Visit:
    """A page load that records console errors, failed requests, dialogs and page errors."""

    def __init__(self, browser: object, **context: object) -> None:
        self.context = browser.new_context(**context)  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        self.page.on(
            "console", lambda m: self.problems.append(m.text) if m.type == "error" else None
        )
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed {r.url}"))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def go(self, url: str) -> int:
        response = self.page.goto(url, wait_until="load")
        return response.status if response else 0

    def close(self) -> None:
        self.context.close()


# -- the demo site in a browser -----------------------------------------------------------


def demo_reports(demo: Path) -> list[Path]:
    return sorted(demo.glob("daily/*.json")) + sorted(demo.glob("weekly/*.json"))


def test_every_page_loads_cleanly_and_every_internal_link_resolves(
    browser: object, base_url: str, site: Path
) -> None:
    visit = Visit(browser)
    seen: set[str] = set()
    queue = [base_url + "index.html"]
    checked_links = 0
    try:
        while queue:
            url = queue.pop()
            if url in seen:
                continue
            seen.add(url)
            assert visit.go(url) == 200, url
            assert visit.problems == [], (url, visit.problems)
            hrefs = visit.page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
            for href in hrefs:
                if not href.startswith(base_url):
                    assert href.startswith("https://github.com/"), (url, href)
                    continue
                checked_links += 1
                target, _, fragment = href.partition("#")
                rel = urlsplit(target).path.lstrip("/")
                assert (site / rel).is_file(), f"{url} links to missing {rel}"
                if fragment and target.endswith(".html"):
                    ids = parse_page((site / rel).read_text("utf-8")).ids
                    assert fragment in ids, f"{url}: no #{fragment} in {rel}"
                if target.endswith(".html"):
                    queue.append(target)
    finally:
        visit.close()
    # Home, search, the project page, its month page and a page per report (12 days x 2
    # languages, and the weeks): every page the site has.
    assert len(seen) == 4 + len(demo_reports(site.parent))
    assert len(seen) == len(list(site.glob("**/*.html")))
    assert checked_links > 24 * 10  # nav, downloads and contents of every report page


def test_report_page_has_the_sites_links_and_downloads(
    browser: object, base_url: str, site: Path
) -> None:
    visit = Visit(browser)
    try:
        visit.go(f"{base_url}{REPO_DIR}/daily/{DAY}.en.html")
        back = visit.page.get_by_role("link", name="« Back to RapidInfer Reports")
        assert back.get_attribute("href") == "../index.html"
        # The window's merged PRs on GitHub (its UTC span, end exclusive), not the repo root.
        github = visit.page.get_by_role("link", name="This window on GitHub")
        query = "is:pr merged:2026-03-10T01:00:00+00:00..2026-03-11T00:59:59+00:00"
        assert github.get_attribute("href") == (
            "https://github.com/tidings-demo/rapidinfer/pulls?q=" + quote(query, safe="")
        )
        for name, suffix in [("Markdown", ".md"), ("PDF", ".pdf"), ("JSON", ".json")]:
            href = visit.page.get_by_role("link", name=name, exact=True).get_attribute("href")
            assert href == f"{DAY}.en{suffix}"
            file = site / REPO_DIR / "daily" / href
            assert file.is_file() and file.stat().st_size > 500, file
            # The served bytes are the file's (what a reader downloads).
            response = visit.context.request.get(urljoin(visit.page.url, href))
            assert response.ok and response.body() == file.read_bytes()
        # Every item is linked to GitHub: each #N in the appendix is a link to that number.
        rows = visit.page.eval_on_selector_all(
            "section:has(> h2#appendix) td:first-child a",
            "els => els.map(e => [e.textContent, e.href])",
        )
        assert rows
        for text, href in rows:
            assert re.fullmatch(
                rf"https://github\.com/tidings-demo/rapidinfer/(pull|issues)/{text[1:]}", href
            )
        # The table of contents points at the sections, which exist.
        toc = visit.page.eval_on_selector_all("nav.toc a", "els => els.map(e => e.hash)")
        assert "#summary" in toc and "#appendix" in toc
        for anchor in toc:
            assert visit.page.locator(anchor).count() == 1
        assert visit.page.locator("script").count() == 0  # no JavaScript needed, none shipped
    finally:
        visit.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_report_screenshots_in_each_language(browser: object, base_url: str, lang: str) -> None:
    visit = Visit(browser, viewport={"width": 1000, "height": 1300})
    try:
        visit.go(f"{base_url}{REPO_DIR}/daily/{DAY}.{lang}.html")
        heading = visit.page.locator("h1").inner_text()
        if lang == "zh":
            assert heading == f"RapidInfer 开发动态报告 - {DAY}"
            body = visit.page.locator("main").inner_text()
            assert len(CJK.findall(body)) > 200
            # Rendered with a real CJK font, not boxes: the glyphs have width.
            width = visit.page.evaluate(
                "() => { const s = document.createElement('span'); s.textContent = '开发动态';"
                " document.body.appendChild(s); return s.getBoundingClientRect().width; }"
            )
            assert width > 30
        else:
            assert heading == f"RapidInfer development report - {DAY}"
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"report-{lang}.png"
        visit.page.screenshot(path=str(shot))
        assert shot.stat().st_size > 20_000
        assert visit.problems == []
        # README and docs/site.md show these (docs/images/, committed). A test run must not dirty
        # the checkout, so they are refreshed only on request: TIDINGS_UPDATE_SCREENSHOTS=1 pytest.
        if os.environ.get("TIDINGS_UPDATE_SCREENSHOTS") == "1":
            DOC_IMAGES.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(shot, DOC_IMAGES / f"report-{lang}.png")
    finally:
        visit.close()


def test_phone_width_and_dark_mode(browser: object, base_url: str) -> None:
    visit = Visit(browser, viewport={"width": 375, "height": 800}, color_scheme="dark")
    try:
        visit.go(f"{base_url}{REPO_DIR}/daily/{DAY}.zh.html")
        # Nothing wider than the phone's screen (tables scroll in their own box).
        overflow = visit.page.evaluate(
            "() => document.documentElement.scrollWidth - window.innerWidth"
        )
        assert overflow <= 0
        background = visit.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(13, 17, 23)"  # the dark palette
        ARTIFACTS.mkdir(exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / "report-zh-phone-dark.png"))
    finally:
        visit.close()


def test_project_page_lists_reports_newest_first_with_charts(
    browser: object, base_url: str, site: Path
) -> None:
    visit = Visit(browser)
    try:
        visit.go(f"{base_url}{REPO_DIR}/index.html")
        titles = visit.page.eval_on_selector_all(
            "#daily ul.reports > li > a:first-child", "els => els.map(e => e.textContent)"
        )
        days = [t.rsplit(" - ", 1)[1] for t in titles]
        assert days == sorted(days, reverse=True) and len(days) == 12
        assert visit.page.locator("#activity svg polyline").count() >= 3
        assert visit.page.locator("#labels svg rect").count() > 3
        risks = visit.page.locator("#risks")
        weeklies = [json.loads(p.read_text("utf-8")) for p in (site.parent).glob("weekly/*.json")]
        if any(w["executive_summary"]["by_risk_tag"] for w in weeklies):
            assert risks.locator("svg rect").count() > 0
        else:
            assert "No weekly report with risk tags yet." in risks.inner_text()
    finally:
        visit.close()


# -- hostile text -------------------------------------------------------------------------


def test_no_script_runs_from_hostile_text(browser: object, hostile_url: str) -> None:
    visit = Visit(browser)
    try:
        pages = [
            "index.html",
            f"{REPO_DIR}/index.html",
            f"{REPO_DIR}/daily/{DAY}.zh.html",
            f"{REPO_DIR}/daily/{DAY}.en.html",
        ]
        for rel in pages:
            assert visit.go(hostile_url + rel) == 200
            assert visit.page.evaluate("() => window.__pwned === undefined"), rel
            assert visit.dialogs == [], rel
            assert visit.page.locator("script").count() == 0, rel
            assert visit.page.locator("img").count() == 0, rel
            hrefs = visit.page.eval_on_selector_all(
                "a[href]", "els => els.map(e => e.getAttribute('href'))"
            )
            assert not [h for h in hrefs if "javascript" in h.lower()], rel
        # The payloads are shown as the text they are.
        body = visit.page.locator("main").inner_text()
        assert SCRIPT in body and "onerror" in body and "javascript:" in body
        assert f"@{HOSTILE_LOGIN}" in body  # a login that cannot be a profile is not a link
        # Clicking every link on the page runs nothing either.
        for link in visit.page.locator("a[href^='#']").all()[:20]:
            link.click()
        assert visit.page.evaluate("() => window.__pwned === undefined")
        assert visit.problems == []
    finally:
        visit.close()


def test_a_hostile_label_is_text_on_the_search_page(browser: object, hostile_url: str) -> None:
    # Pagefind's UI writes filter names and values into the page as HTML: a label named
    # `<img src=x onerror=…>` once ran on search.html. Search, open every filter panel, look.
    visit = Visit(browser)
    try:
        _search(visit, hostile_url, "onerror")
        for panel in visit.page.locator(".pagefind-ui__filter-name").all():
            panel.click()
        visit.page.wait_for_timeout(300)
        assert visit.page.evaluate("() => window.__pwned === undefined")
        assert visit.dialogs == []
        assert visit.page.locator(".pagefind-ui img, .pagefind-ui script").count() == 0
        labels = visit.page.locator(".pagefind-ui__filter-label").all_inner_texts()
        # Shown as the text it is, with fullwidth brackets that cannot open a tag.
        shown = "＜img src=x onerror=alert(＇label＇)＞ ("
        assert [x for x in labels if x.startswith(shown)], labels
        assert visit.problems == []
    finally:
        visit.close()


def test_hostile_text_is_inert_in_the_pdf(hostile_site: Path) -> None:
    pdftotext = require_tool("pdftotext", "the PDF tests")
    pdfinfo = require_tool("pdfinfo", "the PDF tests")
    pdf = hostile_site / REPO_DIR / "daily" / f"{DAY}.en.pdf"
    text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True).stdout
    assert "<script>window.__pwned" in " ".join(text.split())
    urls = subprocess.run([pdfinfo, "-url", str(pdf)], capture_output=True, text=True).stdout
    links = [line.split()[-1] for line in urls.splitlines()[1:] if line.strip()]
    assert links and all(u.startswith("https://github.com/tidings-demo/rapidinfer/") for u in links)
    raw = pdf.read_bytes()
    assert b"/JavaScript" not in raw and b"/JS " not in raw and b"/Launch" not in raw


def test_hostile_text_is_inert_in_the_feed(hostile_site: Path) -> None:
    # A feed per language (one report each), the project's and the site's (the report once).
    feeds = {"feed.zh.xml": 1, "feed.en.xml": 1, "feed.xml": 1}
    paths = {hostile_site / REPO_DIR / name: n for name, n in feeds.items()}
    paths[hostile_site / "feed.xml"] = 1
    for path, count in paths.items():
        root = ET.parse(path).getroot()
        entries = root.findall(f"{ATOM}entry")
        assert len(entries) == count, path
        for entry in entries:
            summary = entry.find(f"{ATOM}summary")
            assert summary is not None and summary.get("type") in (None, "text")
            assert SCRIPT in (summary.text or "")  # plain text, shown as such by readers
            assert list(summary) == []  # no child elements smuggled in
        assert "<script" not in path.read_text("utf-8")


def test_hostile_html_has_no_markup_from_the_data(hostile_site: Path) -> None:
    for path in hostile_site.rglob("*.html"):
        page = parse_page(path.read_text("utf-8"))
        foreign = [(t, a) for t, a in page.tags if t in {"script", "img", "iframe", "object"}]
        if path == hostile_site / "search.html":
            # The search page's own two scripts: Pagefind's, from the site, and its start.
            assert foreign == [("script", {"src": "pagefind/pagefind-ui.js"}), ("script", {})]
            continue
        assert not foreign, path
        for tag, attrs in page.tags:
            assert not [a for a in attrs if a.startswith("on")], (path, tag, attrs)
        for href in page.hrefs:
            assert (
                href.startswith(("https://github.com/", "data:,")) or not urlsplit(href).scheme
            ), (
                path,
                href,
            )


# -- PDF and feed of the demo -------------------------------------------------------------


def test_pdf_has_the_report_text_in_both_languages_and_a_cjk_font(site: Path) -> None:
    pdftotext = require_tool("pdftotext", "the PDF tests")
    pdffonts = require_tool("pdffonts", "the PDF tests")
    daily = site / REPO_DIR / "daily"
    expected = {
        "zh": [f"RapidInfer 开发动态报告 - {DAY}", "每日开发状态摘要", "附录：详细数据列表"],
        "en": [f"RapidInfer development report - {DAY}", "Daily status summary", "Appendix"],
    }
    for lang, headings in expected.items():
        report = json.loads((daily / f"{DAY}.{lang}.json").read_text("utf-8"))
        text = subprocess.run(
            [pdftotext, str(daily / f"{DAY}.{lang}.pdf"), "-"], capture_output=True, text=True
        ).stdout
        flat = " ".join(text.split())
        for heading in headings:
            assert heading in flat, (lang, heading)
        # The stats line, with the report's own numbers.
        s = report["stats"]
        if lang == "zh":
            line = (
                f"数据统计：新 Issue {s['new_issues']} | 关闭 Issue {s['closed_issues']} | "
                f"新 PR {s['new_prs']} | 合并 PR {s['merged_prs']} | "
                f"关闭未合并 PR {s['closed_unmerged_prs']}"
            )
        else:
            line = (
                f"Stats: New issues {s['new_issues']} | Closed issues {s['closed_issues']} | "
                f"New PRs {s['new_prs']} | Merged PRs {s['merged_prs']} | "
                f"Closed unmerged PRs {s['closed_unmerged_prs']}"
            )
        assert line in flat, (lang, line)
    fonts = subprocess.run(
        [pdffonts, str(daily / f"{DAY}.zh.pdf")], capture_output=True, text=True
    ).stdout
    cjk = [row for row in fonts.splitlines() if "CJK" in row]
    assert cjk and all(row.split()[-5] == "yes" for row in cjk), fonts  # embedded


def test_pdf_keeps_links_and_has_page_headers(site: Path) -> None:
    pdfinfo = require_tool("pdfinfo", "the PDF tests")
    pdftotext = require_tool("pdftotext", "the PDF tests")
    pdf = site / REPO_DIR / "daily" / f"{DAY}.zh.pdf"
    urls = subprocess.run([pdfinfo, "-url", str(pdf)], capture_output=True, text=True).stdout
    assert "https://github.com/tidings-demo/rapidinfer/pull/" in urls
    pages = int(
        re.search(
            r"Pages:\s+(\d+)",
            subprocess.run([pdfinfo, str(pdf)], capture_output=True, text=True).stdout,
        ).group(1)  # type: ignore[union-attr]
    )
    assert pages >= 2
    for page in (1, pages):
        text = subprocess.run(
            [pdftotext, "-f", str(page), "-l", str(page), str(pdf), "-"],
            capture_output=True,
            text=True,
        ).stdout
        # The page header carries the report's title on every page, the footer "N / total".
        assert f"RapidInfer 开发动态报告 - {DAY}" in text
        assert f"{page}/{pages}" in text.replace(" ", "")  # pdftotext drops the spaces


def test_feeds_are_atom_with_one_entry_per_report_and_stable_ids(site: Path, demo: Path) -> None:
    reports = demo_reports(demo)
    ids: dict[str, list[str]] = {}
    names = ["feed.zh.xml", "feed.en.xml", "feed.xml"]
    for name in names:
        feed = site / REPO_DIR / name
        root = ET.parse(feed).getroot()
        assert root.tag == f"{ATOM}feed"
        entries = root.findall(f"{ATOM}entry")
        ids[name] = [e.findtext(f"{ATOM}id") or "" for e in entries]
        for entry in entries:
            for field in ("id", "title", "updated"):
                assert entry.findtext(f"{ATOM}{field}"), field
            href = entry.find(f"{ATOM}link").get("href")  # type: ignore[union-attr]
            assert (feed.parent / href).is_file()
    # Each language's feed has that language's reports; together, every report once.
    assert len(ids["feed.zh.xml"]) == len(ids["feed.en.xml"]) == len(reports) // 2
    assert len(set(ids["feed.zh.xml"] + ids["feed.en.xml"])) == len(reports) >= 24
    # feed.xml (the address older versions published) has each report once, in the site's
    # language: no report twice, as when it mixed both languages.
    assert ids["feed.xml"] == ids["feed.en.xml"]
    site_feed = ET.parse(site / "feed.xml").getroot().findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}id") for e in site_feed] == ids["feed.en.xml"]
    # Stable: another build elsewhere, with a base URL, gives the same ids.
    other = build_site(
        demo, demo / "other-site", SiteConfig(base_url="https://example.org/r"), pdf=False
    )
    assert other.reports == len(reports)
    for name in names:
        again = ET.parse(demo / "other-site" / REPO_DIR / name).getroot()
        assert [e.findtext(f"{ATOM}id") for e in again.findall(f"{ATOM}entry")] == ids[name]
        link = again.find(f"{ATOM}entry/{ATOM}link").get("href")  # type: ignore[union-attr]
        assert link.startswith("https://example.org/r/tidings-demo/rapidinfer/")


def test_rebuilding_the_demo_site_changes_no_file(demo: Path, site: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    result = build_site(demo, site, SiteConfig(title="tidings demo"))
    assert result.written == [] and result.pdfs_made == 0
    after = {p: p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}
    assert after == before


def test_the_demo_makes_each_pdf_with_its_report_and_the_site_publishes_it(
    demo: Path, site: Path
) -> None:
    reports = demo_reports(demo)
    assert reports
    for report in reports:
        made = report.with_name(report.name.removesuffix(".json") + ".pdf")
        assert made.read_bytes().startswith(b"%PDF"), made
        published = site / REPO_DIR / report.parent.name / made.name
        assert published.read_bytes() == made.read_bytes(), published


# -- a reader's day: navigation, search, feeds, a phone (#13) -------------------------------


def _h1(visit: Visit) -> str:
    return str(visit.page.locator("h1").inner_text())


def test_reader_walks_home_project_month_day_week_and_next_day(
    browser: object, base_url: str
) -> None:
    visit = Visit(browser)
    try:
        visit.go(base_url + "index.html")
        # The home page's card: the latest daily and weekly, headline numbers, a sparkline.
        card = visit.page.locator("ul.cards > li").first
        assert "2026-03-13" in card.inner_text() and "2026-W11" in card.inner_text()
        assert card.locator("svg.spark polyline").count() >= 1
        card.get_by_role("link", name="RapidInfer", exact=True).click()
        assert _h1(visit) == "RapidInfer Reports"
        visit.page.locator("#archive").get_by_role("link", name="March 2026").click()
        assert _h1(visit) == "RapidInfer reports, March 2026"
        # The month's calendar: Monday first, each day with a report linked.
        assert visit.page.locator("table.calendar th").first.inner_text() == "Mon"
        visit.page.locator("table.calendar").get_by_role("link", name="10", exact=True).click()
        assert _h1(visit) == f"RapidInfer development report - {DAY}"
        visit.page.get_by_role("link", name="Week 2026-W11").click()
        assert _h1(visit).startswith("RapidInfer weekly report: 2026 week 11")
        days = visit.page.locator("nav.days a")
        assert days.all_inner_texts() == [f"03-{d:02d}" for d in range(9, 14)]  # the reports
        days.filter(has_text="03-10").click()
        assert _h1(visit) == f"RapidInfer development report - {DAY}"
        visit.page.locator("a[rel=next]").click()
        assert _h1(visit) == "RapidInfer development report - 2026-03-11"
        assert visit.page.locator("a[rel=prev]").get_attribute("href") == f"{DAY}.en.html"
        # A heading's permalink is a link to its own section.
        anchor = visit.page.locator("h2#appendix a.anchor")
        assert anchor.get_attribute("href") == "#appendix"
        assert visit.problems == []
    finally:
        visit.close()


def _search(visit: Visit, base_url: str, query: str) -> list[str]:
    """The pages (not sections) the site's search lists for `query`, as paths."""
    visit.go(base_url + "search.html?q=" + quote(query))
    visit.page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
    visit.page.wait_for_load_state("networkidle")
    return _results(visit)


def _results(visit: Visit) -> list[str]:
    links = visit.page.eval_on_selector_all(
        ".pagefind-ui__result-link", "els => els.map(e => e.getAttribute('href'))"
    )
    # A page's own link, not its sections' (#anchor) under it.
    return [urlsplit(href).path.split("/", 1)[1] for href in links if "#" not in href]


@pytest.mark.parametrize(
    ("query", "day", "week", "lang", "filter_name"),
    [
        ("恢复正常", "2026-03-12", None, "zh", "中文"),
        # #4303's title: opened that day, and in the week's AMD/ROCm track (named by its tag)
        ("MI355X", "2026-03-13", "2026-W11", "en", "English"),
    ],
)
def test_search_finds_the_report_in_chinese_and_english(
    browser: object,
    base_url: str,
    site: Path,
    query: str,
    day: str,
    week: str | None,
    lang: str,
    filter_name: str,
) -> None:
    # The word is in those reports only (a comment quoted in both languages, a title;
    # Pagefind segments Chinese words in the Chinese pages' index only).
    holding = sorted(
        p.relative_to(site).as_posix().removesuffix(".json") + ".html"
        for p in site.glob(f"{REPO_DIR}/*/*.json")
        if query in p.read_text("utf-8")
    )
    days = [f"{REPO_DIR}/daily/{day}.{x}.html" for x in ("en", "zh")]
    weeks = [f"{REPO_DIR}/weekly/{week}.{x}.html" for x in ("en", "zh")] if week else []
    assert holding == [*days, *weeks]
    visit = Visit(browser)
    try:
        found = _search(visit, base_url, query)
        # Both languages' indexes searched (the page's own is English), nothing else found.
        assert f"{REPO_DIR}/daily/{day}.{lang}.html" in found and set(found) <= set(holding)
        if lang == "en":
            assert sorted(found) == holding
        # Filtered by language: the reports in that language.
        visit.page.locator("summary", has_text="Language").click()
        visit.page.locator("label", has_text=filter_name).click()
        visit.page.wait_for_timeout(500)
        visit.page.wait_for_load_state("networkidle")
        assert sorted(_results(visit)) == [p for p in holding if p.endswith(f".{lang}.html")]
        assert visit.problems == []
        ARTIFACTS.mkdir(exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / f"search-{lang}.png"))
    finally:
        visit.close()


def test_one_search_finds_both_projects_across_their_bundles(
    browser: object, two_projects_url: str
) -> None:
    # #4303's title, in its day's and week's reports in both languages: in each project.
    holding = [
        f"{repo}/{kind}/{period}.{lang}.html"
        for repo in (REPO_DIR, OTHER_DIR)
        for kind, period in (("daily", "2026-03-13"), ("weekly", "2026-W11"))
        for lang in ("en", "zh")
    ]
    visit = Visit(browser)
    try:
        # The first results shown hold the word, from both projects.
        found = _search(visit, two_projects_url, "MI355X")
        assert len(found) == 5 and set(found) <= set(holding)
        assert {p.split("/")[0] + "/" + p.split("/")[1] for p in found} == {REPO_DIR, OTHER_DIR}
        # The project filter lists both; choosing one leaves its pages.
        visit.page.locator("summary", has_text="Project").click()
        assert visit.page.locator("label", has_text="RapidInfer").count() == 1
        visit.page.locator("label", has_text="Engine").click()
        visit.page.wait_for_timeout(500)
        visit.page.wait_for_load_state("networkidle")
        chosen = _results(visit)
        assert chosen and all(p.startswith(OTHER_DIR + "/") for p in chosen)
        assert visit.problems == []
        ARTIFACTS.mkdir(exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / "search-two-projects.png"), full_page=True)
    finally:
        visit.close()


@pytest.mark.parametrize(
    ("query", "days"),
    [
        ("MI355X", [("daily", "2026-03-13"), ("weekly", "2026-W11")]),
        ("恢复正常", [("daily", "2026-03-12")]),
    ],
)
def test_bundles_without_the_word_add_no_result(
    browser: object, two_projects_url: str, query: str, days: list[tuple[str, str]]
) -> None:
    # Pagefind answers a word an index lacks with the pages of its longest prefix ("mi" for
    # "mi355x"); of a dozen bundles, most lack it, and their pages outranked real ones until
    # the search page's module (site/search_filter.js) dropped them. Every result, past
    # "load more", holds the word.
    holding = {
        f"{repo}/{kind}/{period}.{lang}.html"
        for repo in (REPO_DIR, OTHER_DIR)
        for kind, period in days
        for lang in ("en", "zh")
    }
    visit = Visit(browser)
    try:
        _search(visit, two_projects_url, query)
        more = visit.page.locator("button.pagefind-ui__button", has_text="Load more")
        while more.count():
            more.click()
            visit.page.wait_for_load_state("networkidle")
        assert set(_results(visit)) == holding
        message = visit.page.locator(".pagefind-ui__message").inner_text()
        assert message.startswith(f"{len(holding)} results"), message
        assert visit.problems == []
    finally:
        visit.close()


def test_search_filters_by_topic_track_and_label(browser: object, base_url: str) -> None:
    visit = Visit(browser)
    try:
        _search(visit, base_url, "ROCm")
        panel = visit.page.locator("summary", has_text="Topic track")
        panel.click()
        assert visit.page.locator("label", has_text="AMD/ROCm").count() == 1
        visit.page.locator("summary", has_text="Label").click()
        assert visit.page.locator("label", has_text="rocm").count() >= 1
    finally:
        visit.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_subscribing_to_a_language_gives_that_language_only(
    browser: object, base_url: str, demo: Path, lang: str
) -> None:
    visit = Visit(browser)
    try:
        visit.go(f"{base_url}{REPO_DIR}/index.html")
        hreflang = "zh-CN" if lang == "zh" else "en"
        # The feed a reader's feed reader finds in the page's <head>, for that language.
        href = visit.page.locator(
            f"head link[rel=alternate][type='application/atom+xml'][hreflang='{hreflang}']"
        ).get_attribute("href")
        assert href == f"feed.{lang}.xml"
        response = visit.context.request.get(urljoin(visit.page.url, href))
        assert response.ok
        root = ET.fromstring(response.body())
        entries = root.findall(f"{ATOM}entry")
        expected = [p for p in demo_reports(demo) if p.name.endswith(f".{lang}.json")]
        assert len(entries) == len(expected) == 14
        for entry in entries:
            link = entry.find(f"{ATOM}link")
            assert link is not None and link.get("hreflang") == lang
            assert str(link.get("href")).endswith(f".{lang}.html")
            title = entry.findtext(f"{ATOM}title") or ""
            assert bool(CJK.search(title)) == (lang == "zh"), title
    finally:
        visit.close()


def test_pages_fit_a_phone_at_390_px(browser: object, base_url: str) -> None:
    visit = Visit(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        for rel in [
            "index.html",
            f"{REPO_DIR}/index.html",
            f"{REPO_DIR}/archive/2026-03.html",
            f"{REPO_DIR}/daily/{DAY}.zh.html",
            f"{REPO_DIR}/weekly/2026-W11.en.html",
            "search.html?q=ROCm",
        ]:
            visit.go(base_url + rel)
            if rel.startswith("search"):
                visit.page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
                visit.page.wait_for_load_state("networkidle")
            overflow = visit.page.evaluate(
                "() => document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, rel
        visit.go(f"{base_url}{REPO_DIR}/index.html")
        # The narrow drawing is the one shown, and its text is legible (>= 11 px tall).
        assert visit.page.locator("#activity svg.chart-wide").is_hidden()
        chart = visit.page.locator("#activity svg.chart-narrow")
        assert chart.is_visible()
        heights = chart.locator("text").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 11, heights
        ARTIFACTS.mkdir(exist_ok=True)
        visit.page.screenshot(path=str(ARTIFACTS / "project-phone.png"), full_page=True)
        if os.environ.get("TIDINGS_UPDATE_SCREENSHOTS") == "1":
            shutil.copyfile(ARTIFACTS / "project-phone.png", DOC_IMAGES / "project-phone.png")
        assert visit.problems == []
    finally:
        visit.close()


def test_home_and_project_screenshots(browser: object, base_url: str) -> None:
    visit = Visit(browser, viewport={"width": 1000, "height": 1100})
    try:
        for rel, name in [
            ("index.html", "home"),
            (f"{REPO_DIR}/index.html", "project"),
            ("search.html?q=ROCm", "search"),
        ]:
            visit.go(base_url + rel)
            if name == "search":
                visit.page.wait_for_selector(".pagefind-ui__result", timeout=15_000)
                visit.page.wait_for_load_state("networkidle")
            shot = ARTIFACTS / f"{name}.png"
            ARTIFACTS.mkdir(exist_ok=True)
            visit.page.screenshot(path=str(shot))
            if os.environ.get("TIDINGS_UPDATE_SCREENSHOTS") == "1":
                shutil.copyfile(shot, DOC_IMAGES / f"{name}.png")
        assert visit.problems == []
    finally:
        visit.close()
