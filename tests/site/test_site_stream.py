"""The site build holds one report at a time and skips what did not change (issue #14): lists,
feeds, charts and links come from summaries kept in the manifest, an unchanged report file is
never parsed, and the Markdown written beside a report's JSON is published as it is."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

import tidings.site.pdfs as site_pdfs
import tidings.site.sources as site_sources
from tidings.common.config import SiteConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.render.files import report_name, save_report
from tidings.render.markdown import render_markdown
from tidings.report.daily import build_daily
from tidings.report.kinds import Report
from tidings.report.weekly import build_weekly
from tidings.site.build import build_site
from tidings.site.manifest import MANIFEST
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 20, tzinfo=UTC)
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"]
NO_SEARCH = SiteConfig(search=False)


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> list[Report]:
    """The demo's daily reports of DAYS in both languages and the week's in English."""
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('stream') / 'demo.db'}")
    try:
        import_snapshot(store, SAMPLE_PATH)
        settings = load_config(CONFIG_PATH).repo(REPO)
        found: list[Report] = [
            build_daily(store, settings, date.fromisoformat(day), lang, now=NOW)
            for day in DAYS
            for lang in ("en", "zh")
        ]
        found.append(build_weekly(store, settings, 2026, 11, "en", now=NOW))
        return found
    finally:
        store.close()


def save(folder: Path, chosen: list[Report]) -> None:
    """As `tidings run` files them: Markdown and JSON side by side."""
    for report in chosen:
        save_report(report, folder)


def site_files(folder: Path) -> dict[str, bytes]:
    """The published files, without the manifest and Pagefind's index (not byte-reproducible,
    docs/site.md)."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != MANIFEST and "pagefind" not in p.relative_to(folder).parts
    }


def test_a_rebuild_with_nothing_new_parses_no_report(
    tmp_path: Path, reports: list[Report], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    save(src, reports)
    first = build_site(src, out, NO_SEARCH, pdf=False)
    # Each report parsed twice: once for its summary, once to render its page.
    assert first.reports == 9 and first.reports_parsed == 18
    assert first.markdown_reused == 9 and first.markdown_rendered == 0
    before = site_files(out)

    calls: list[str] = []
    real = site_sources.validate_report

    def counting(data: dict, where: object) -> object:  # type: ignore[type-arg]
        calls.append(str(where))
        return real(data, where)  # type: ignore[arg-type]

    monkeypatch.setattr(site_sources, "validate_report", counting)
    again = build_site(src, out, NO_SEARCH, pdf=False)
    assert calls == [] and again.reports_parsed == 0 and again.written == []
    assert again.to_dict()["reports_parsed"] == 0

    # Touched, not changed (a checkout, a copy): hashed again, still not parsed, no page made.
    for path in src.rglob("*.json"):
        os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    touched = build_site(src, out, NO_SEARCH, pdf=False)
    assert calls == [] and touched.written == [MANIFEST]  # the new stats recorded
    assert site_files(out) == before

    # One new day after the last: it is parsed for its summary and its page, and so are the
    # pages whose links change: the day before it ("next") and its week (the week's days);
    # no other report is read.
    later = next(r for r in reports if r.kind == "daily" and r.lang == "en")
    moved = later.model_copy(update={"date": "2026-03-13"})
    save(src, [moved])
    added = build_site(src, out, NO_SEARCH, pdf=False)
    parsed = sorted(Path(c).name for c in calls)
    assert parsed == [
        "2026-03-12.en.json",
        "2026-03-13.en.json",
        "2026-03-13.en.json",
        "2026-W11.en.json",
    ]
    assert added.reports_parsed == 4


def test_built_a_bit_at_a_time_equals_built_at_once(tmp_path: Path, reports: list[Report]) -> None:
    """Pages made from summaries the manifest kept are the bytes of pages made from freshly
    parsed reports: a site grown report by report equals one built in one go (search on, so
    the pages' search filters are part of it)."""
    cfg = SiteConfig()
    grown_src, grown = tmp_path / "grown-reports", tmp_path / "grown"
    for k in (3, 6, len(reports)):
        save(grown_src, reports[:k])
        build_site(grown_src, grown, cfg, pdf=False)
    once_src, once = tmp_path / "once-reports", tmp_path / "once"
    save(once_src, reports)
    build_site(once_src, once, cfg, pdf=False)
    grown_files, once_files = site_files(grown), site_files(once)
    assert grown_files.keys() == once_files.keys()
    differ = [rel for rel in once_files if grown_files[rel] != once_files[rel]]
    assert differ == []
    assert any(rel.endswith("/index.html") for rel in once_files)


def test_the_markdown_beside_a_report_is_published_as_written(
    tmp_path: Path, reports: list[Report]
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    daily, bare = reports[0], reports[2]  # 2026-03-09 en (with Markdown), 2026-03-10 en
    save(src, [daily, bare])
    (src / f"{report_name(bare)}.md").unlink()  # a JSON alone, e.g. a download
    written = src / f"{report_name(daily)}.md"
    written.write_text(written.read_text("utf-8") + "\nWritten with the report.\n", "utf-8")
    result = build_site(src, out, NO_SEARCH, pdf=False)
    assert result.markdown_reused == 1 and result.markdown_rendered == 1
    page = out / PROJECT_DIR / f"{report_name(daily)}.md"
    assert page.read_bytes() == written.read_bytes()
    rendered = out / PROJECT_DIR / f"{report_name(bare)}.md"
    assert rendered.read_text("utf-8") == render_markdown(bare)

    # Only the Markdown changed: that report's page is made again (its download too).
    written.write_text("# Replaced\n", "utf-8")
    again = build_site(src, out, NO_SEARCH, pdf=False)
    assert again.reports_parsed == 1 and again.markdown_reused == 1
    assert page.read_text("utf-8") == "# Replaced\n"


def test_a_changed_report_is_read_again_even_with_its_old_mtime(
    tmp_path: Path, reports: list[Report]
) -> None:
    """Same size, the old mtime put back (`touch -r`, `cp -p`): the change time and then the
    hash still show the change, so the page follows the file."""
    src, out = tmp_path / "reports", tmp_path / "site"
    daily = reports[0]
    save(src, [daily])
    build_site(src, out, NO_SEARCH, pdf=False)
    path = src / f"{report_name(daily)}.json"
    info = path.stat()
    text = path.read_text("utf-8")
    assert '"project": "RapidInfer"' in text
    path.write_text(text.replace('"project": "RapidInfer"', '"project": "RapidInfeR"'), "utf-8")
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns
    result = build_site(src, out, NO_SEARCH, pdf=False)
    assert result.reports_parsed == 2  # its summary and its page
    assert "RapidInfeR" in (out / "index.html").read_text("utf-8")


def test_an_edited_manifest_costs_a_parse_never_a_wrong_page(
    tmp_path: Path, reports: list[Report]
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    weekly = reports[-1]
    save(src, [reports[0], weekly])
    build_site(src, out, NO_SEARCH, pdf=False)
    before = site_files(out)
    manifest = json.loads((out / MANIFEST).read_text("utf-8"))
    files = manifest["inputs"]["files"]
    daily_rel = f"{report_name(reports[0])}.json"
    weekly_rel = f"{report_name(weekly)}.json"
    files[daily_rel]["report"]["title"] = "<script>alert(1)</script>"  # trusted: same hash
    files[daily_rel]["report"]["lang"] = "fr"  # not a language: the entry is not used
    files[weekly_rel]["report"]["risk_tags"] = [["rm -rf", 3]]  # not a risk tag
    (out / MANIFEST).write_text(json.dumps(manifest), "utf-8")
    result = build_site(src, out, NO_SEARCH, pdf=False)
    assert result.reports_parsed == 2  # both summaries made again from the files
    assert site_files(out) == before


def test_pdfs_the_site_renders_are_made_in_batches(
    tmp_path: Path, reports: list[Report], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bare archive's PDFs are rendered a batch at a time, not all pages held at once."""
    batches: list[int] = []

    def fake_render(htmls: list[str]) -> Iterator[bytes]:
        batches.append(len(htmls))
        for html in htmls:
            yield b"%PDF-fake " + str(len(html)).encode()

    monkeypatch.setattr(site_pdfs, "render_pdfs", fake_render)
    monkeypatch.setattr(site_pdfs, "PDF_BATCH", 2)
    src, out = tmp_path / "reports", tmp_path / "site"
    for report in reports[:5]:
        path = src / f"{report_name(report)}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report.model_dump_json(indent=2) + "\n", "utf-8")
    result = build_site(src, out, NO_SEARCH, pdf=True)
    assert batches == [2, 2, 1] and result.pdfs_made == 5
    assert len(list(out.rglob("*.pdf"))) == 5


PROJECT_DIR = "tidings-demo/rapidinfer"
