"""Search lands on the section, and quotes in the other language carry `lang`.

Pagefind splits a page into sub-results at headings (h1-h6) that have an id
(https://pagefind.app/docs/sub-results); the ids were on the <section> around each heading,
so every sub-result linked to the page's top. The index itself is read here: Pagefind's
fragment files (gzip, `pagefind_dcd` then JSON) list each page's anchors.
"""

from __future__ import annotations

import gzip
import json
import re
from datetime import date
from pathlib import Path

import pytest

from tidings.common.config import SiteConfig, load_config
from tidings.demo import CONFIG_PATH, SAMPLE_PATH
from tidings.render.files import save_report
from tidings.render.html import render_html
from tidings.render.langs import marked, page_language
from tidings.report.daily import build_daily
from tidings.report.weekly import build_weekly
from tidings.site import search
from tidings.site.build import build_site
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

PROJECT = "tidings-demo/rapidinfer"
DAY = date(2026, 3, 13)
# Titles in the sample (sample.jsonl): an English one, and a Chinese one among English words.
ENGLISH_TITLE = "[ROCm] Tuned hipBLASLt and AITER GEMM configs for MI325X and MI300X (gfx942)"
CHINESE_TITLE = "[Performance][AMD]: MI300X 上 Qwen3-32B 的 decode 吞吐只有 H100 的 60%"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    opened = Store.open(f"sqlite:///{tmp_path_factory.mktemp('anchors') / 'demo.db'}")
    import_snapshot(opened, SAMPLE_PATH)
    return opened


def _titles() -> set[str]:
    found = set()
    for line in SAMPLE_PATH.read_text("utf-8").splitlines():
        record = json.loads(line)
        title = record.get("title") or (record.get("data") or {}).get("title")
        if title:
            found.add(title)
    return found


def test_the_titles_are_the_samples() -> None:
    assert {ENGLISH_TITLE, CHINESE_TITLE} <= _titles()


def _ids(page: str, tag: str) -> list[str]:
    return re.findall(rf'<{tag}\b[^>]*\bid="([^"]+)"', page)


def test_every_section_anchor_is_on_its_heading(store: Store) -> None:
    settings = load_config(CONFIG_PATH).repo(PROJECT)
    for report in [
        build_daily(store, settings, DAY, "zh"),
        build_weekly(store, settings, 2026, 10, "en"),
    ]:
        page = render_html(report, None)
        assert _ids(page, "section") == []
        headings = _ids(page, "h2") + _ids(page, "h3")
        assert "summary" in headings and "appendix" in headings
        # The table of contents links to headings, one id each.
        for target in re.findall(r'<nav class="toc".*?</nav>', page, re.S):
            for anchor in re.findall(r'href="#([^"]+)"', target):
                assert anchor in headings
        assert len(headings) == len(set(headings))


def test_foreign_runs_are_marked_by_script() -> None:
    with page_language("zh"):
        assert marked("最重要的合并是（Fix MTP accept rate）。") == (
            '最重要的合并是（<span lang="en">Fix MTP accept rate</span>）。'
        )
        assert marked("RapidInfer 共合并 29 个 PR") == "RapidInfer 共合并 29 个 PR"  # one name
        assert "lang" not in marked("Qwen3-32B 的 decode 吞吐")
        assert "<b>" not in marked("<b>Fix it now</b>")  # escaped, marked or not
    with page_language("en"):
        assert marked("quotes “中文一” and “中文二”") == (
            'quotes “<span lang="zh-CN">中文一</span>” and “<span lang="zh-CN">中文二</span>”'
        )
        assert "lang" not in marked("Fix MTP accept rate")
    assert marked("Fix MTP accept rate") == "Fix MTP accept rate"  # no page: nothing marked


def test_quotes_in_the_other_language_carry_lang(store: Store) -> None:
    settings = load_config(CONFIG_PATH).repo(PROJECT)
    zh = render_html(build_daily(store, settings, DAY, "zh"), None)
    assert f'<span lang="en">{ENGLISH_TITLE}</span>' in zh
    en = render_html(build_daily(store, settings, date(2026, 3, 12), "en"), None)
    assert '<span lang="zh-CN">上 Qwen3-32B 的 decode 吞吐只有</span>' in en
    assert '<span lang="en">' not in en and '<span lang="zh-CN">' not in zh


def _fragments(site: Path) -> dict[str, list[dict[str, object]]]:
    pages = {}
    for path in site.glob("pagefind/**/fragment/*.pf_fragment"):  # every bundle's
        raw = gzip.decompress(path.read_bytes())
        assert raw.startswith(b"pagefind_dcd")
        data = json.loads(raw[len(b"pagefind_dcd") :])
        pages[data["url"]] = data["anchors"]
    return pages


def test_pagefind_splits_report_pages_at_their_section_headings(
    store: Store, tmp_path: Path
) -> None:
    if search.executable() is None:
        pytest.skip(search.off_reason())  # the site's own rule: no Pagefind, no search
    settings = load_config(CONFIG_PATH).repo(PROJECT)
    reports = tmp_path / "reports"
    save_report(build_daily(store, settings, DAY, "zh"), reports)
    save_report(build_weekly(store, settings, 2026, 10, "en"), reports)
    site = tmp_path / "site"
    build_site(reports, site, SiteConfig(), pdf=False)
    fragments = _fragments(site)
    for rel in ("daily/2026-03-13.zh.html", "weekly/2026-W10.en.html"):
        page = (site / PROJECT / rel).read_text("utf-8")
        anchors = fragments[f"/{PROJECT}/{rel}"]
        found = {(a["element"], a["id"]) for a in anchors}
        # Every section heading of the page is an anchor Pagefind links a sub-result to.
        for level in ("h2", "h3"):
            for ident in _ids(page, level):
                assert (level, ident) in found
        assert ("h2", "summary") in found and ("h2", "appendix") in found
        assert not any(a["element"] == "section" for a in anchors)
