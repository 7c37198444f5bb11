"""A report of a partial window says so in its header, in every format and language.

The demo's sample stops on 2026-03-13 at 22:00 Shanghai time (its newest `updated_at`,
14:00:18Z, read from the sample below), inside the day 2026-03-13 (it ends 03-14 09:00) and
the week 2026-W11 (it ends 03-16 09:00); the day before and the week before are whole.
"""

from __future__ import annotations

import json
import re
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from tests.site_support import require_tool
from tidings.common.config import RepoConfig, SiteConfig, load_config
from tidings.demo import CONFIG_PATH, SAMPLE_PATH
from tidings.render.files import render_report, save_report
from tidings.render.html import render_html
from tidings.render.markdown import render_markdown
from tidings.report.daily import build_daily
from tidings.report.kinds import Report
from tidings.report.weekly import build_weekly
from tidings.site.build import build_site
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

PROJECT = "tidings-demo/rapidinfer"
DAY_END = "2026-03-14 09:00 (UTC+8)"
WEEK_END = "2026-03-16 09:00 (UTC+8)"
UNTIL = "2026-03-13 22:00 (UTC+8)"


def _newest_update() -> datetime:
    newest = ""
    for line in SAMPLE_PATH.read_text("utf-8").splitlines():
        record = json.loads(line)
        stamp = record.get("updated_at") or (record.get("data") or {}).get("updated_at") or ""
        newest = max(newest, stamp)
    return datetime.fromisoformat(newest.replace("Z", "+00:00"))


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    opened = Store.open(f"sqlite:///{tmp_path_factory.mktemp('partial') / 'demo.db'}")
    import_snapshot(opened, SAMPLE_PATH)
    return opened


@pytest.fixture(scope="module")
def settings() -> RepoConfig:
    return load_config(CONFIG_PATH).repo(PROJECT)


def _daily(store: Store, settings: RepoConfig, day: str, lang: str) -> Report:
    return build_daily(store, settings, date.fromisoformat(day), lang)  # type: ignore[arg-type]


def _weekly(store: Store, settings: RepoConfig, week: int, lang: str) -> Report:
    return build_weekly(store, settings, 2026, week, lang)  # type: ignore[arg-type]


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def expected(lang: str, end: str) -> str:
    if lang == "zh":
        return f"部分窗口：数据截至 {UNTIL}，窗口结束于 {end}"
    return f"Partial window: the data stops at {UNTIL}, the window ends at {end}"


def test_the_sample_stops_where_the_header_says() -> None:
    assert _newest_update() == datetime(2026, 3, 13, 14, 0, 18, tzinfo=UTC)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_partial_day_and_week_are_marked_in_json_markdown_and_html(
    store: Store, settings: RepoConfig, lang: str
) -> None:
    for report, end in [
        (_daily(store, settings, "2026-03-13", lang), DAY_END),
        (_weekly(store, settings, 11, lang), WEEK_END),
    ]:
        data = json.loads(render_report(report, "json"))
        assert datetime.fromisoformat(data["window"]["data_until"]) == _newest_update()
        line = expected(lang, end)
        assert line in render_markdown(report)
        page = render_html(report, None)
        assert 'class="partial"' in page and line in _text(page)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_whole_day_and_week_carry_no_mark(store: Store, settings: RepoConfig, lang: str) -> None:
    for report in [_daily(store, settings, "2026-03-12", lang), _weekly(store, settings, 10, lang)]:
        assert "data_until" not in json.loads(render_report(report, "json"))["window"]
        assert "⚠️" not in render_markdown(report).split("##", 1)[0]
        assert 'class="partial"' not in render_html(report, None)


def test_the_site_page_and_feed_say_partial(
    store: Store, settings: RepoConfig, tmp_path: Path
) -> None:
    reports = tmp_path / "reports"
    for lang in ("zh", "en"):
        save_report(_daily(store, settings, "2026-03-13", lang), reports)
        save_report(_daily(store, settings, "2026-03-12", lang), reports)
    site = tmp_path / "site"
    build_site(reports, site, SiteConfig(search=False), pdf=False)
    folder = site / PROJECT
    page = (folder / "daily" / "2026-03-13.zh.html").read_text("utf-8")
    assert expected("zh", DAY_END) in _text(page)
    assert "部分窗口" not in (folder / "daily" / "2026-03-12.zh.html").read_text("utf-8")
    for lang, word in (("zh", "部分窗口"), ("en", "Partial window")):
        feed = (folder / f"feed.{lang}.xml").read_text("utf-8")
        summaries = re.findall(r"<summary[^>]*>([^<]*)", feed)
        marked = [s for s in summaries if word in s]
        assert len(summaries) == 2 and len(marked) == 1 and marked[0].startswith("⚠️")


@pytest.mark.slow
def test_the_pdf_says_partial(store: Store, settings: RepoConfig, tmp_path: Path) -> None:
    pdftotext = require_tool("pdftotext", "the PDF tests")
    for lang in ("zh", "en"):
        out = tmp_path / f"w11.{lang}.pdf"
        out.write_bytes(render_report(_weekly(store, settings, 11, lang), "pdf"))
        text = subprocess.run(
            [pdftotext, str(out), "-"], capture_output=True, text=True, check=True
        ).stdout
        assert expected(lang, WEEK_END) in " ".join(text.split()).replace("( UTC", "(UTC")
