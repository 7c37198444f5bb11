"""A report's PDF is made when the report is written and published by the site as it is.

`tidings run` (and the demo, and `tidings report --format pdf`) make DATE.LANG.pdf beside the
JSON with a key file; `site build` copies a current one without calling WeasyPrint, and
renders again when the report, its print page or the PDF renderer changed. A report removed
from the reports folder leaves the site on the next build.
"""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.factories import finished_sync
from tests.site_support import require_tool
from tidings.cli import main
from tidings.common.config import SiteConfig, parse_config
from tidings.demo import CONFIG_PATH, SAMPLE_PATH
from tidings.errors import TidingsError
from tidings.jobs.runner import run_repositories
from tidings.render import pdf as pdf_module
from tidings.site import pdfs as site_pdfs
from tidings.site.build import build_site
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

PROJECT = "tidings-demo/rapidinfer"
NOW = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 11:00 in Shanghai: 03-13 closed, W10 closed
DAILY = f"{PROJECT}/daily/2026-03-13.en"
WEEKLY = f"{PROJECT}/weekly/2026-W10.en"


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('pdfs') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    return store


@pytest.fixture(scope="module")
def reports_dir(tmp_path_factory: pytest.TempPathFactory, demo_store: Store) -> Path:
    """What one `tidings run` wrote: a daily and a weekly report in English, with PDFs."""
    folder = tmp_path_factory.mktemp("reports")
    cfg = parse_config(CONFIG_PATH.read_text("utf-8") + '\n[site]\nlanguages = ["en"]\n')
    (outcome,) = run_repositories(
        cfg, demo_store, sync=finished_sync, reports_dir=folder, days=1, now=NOW, pdf=True
    )
    assert outcome.ok, outcome.error
    assert sorted(outcome.written) == [f"{DAILY}.json", f"{WEEKLY}.json"]
    assert outcome.pdfs_made == 2
    return folder


class Calls:
    """html_to_pdf, counted: the site must not call it for a report whose PDF is current."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pages: list[str] = []
        monkeypatch.setattr(pdf_module, "html_to_pdf", self)
        # In this process, where the count is kept (several PDFs go to worker processes).
        monkeypatch.setattr(pdf_module.os, "cpu_count", lambda: 1)

    def __call__(self, html: str) -> bytes:
        self.pages.append(html)
        return b"%PDF-1.7 rendered by the site\n"


def copy_reports(src: Path, dst: Path, *, pdf: bool = True) -> Path:
    for path in src.rglob("*"):
        if path.is_file() and (pdf or path.suffix in {".json", ".md"}):
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    return dst


def test_run_writes_each_reports_pdf_beside_it_once(reports_dir: Path, demo_store: Store) -> None:
    for stem in (DAILY, WEEKLY):
        made = reports_dir / f"{stem}.pdf"
        assert made.read_bytes().startswith(b"%PDF")
        key = json.loads((reports_dir / f"{stem}.pdf.key").read_text("utf-8"))
        assert set(key) == {"key", "pdf_sha256"}
    before = {p: p.stat().st_mtime_ns for p in reports_dir.rglob("*.pdf*")}
    cfg = parse_config(CONFIG_PATH.read_text("utf-8") + '\n[site]\nlanguages = ["en"]\n')
    (again,) = run_repositories(
        cfg, demo_store, sync=finished_sync, reports_dir=reports_dir, days=1, now=NOW, pdf=True
    )
    # Nothing changed: no report written, no PDF made, no file touched.
    assert again.written == [] and again.pdfs_made == 0
    assert {p: p.stat().st_mtime_ns for p in reports_dir.rglob("*.pdf*")} == before


@pytest.mark.slow
def test_run_remakes_a_missing_or_damaged_pdf(
    reports_dir: Path, demo_store: Store, tmp_path: Path
) -> None:
    folder = copy_reports(reports_dir, tmp_path / "reports")
    (folder / f"{DAILY}.pdf").write_bytes(b"%PDF cut short")
    (folder / f"{WEEKLY}.pdf").unlink()
    cfg = parse_config(CONFIG_PATH.read_text("utf-8") + '\n[site]\nlanguages = ["en"]\n')
    (outcome,) = run_repositories(
        cfg, demo_store, sync=finished_sync, reports_dir=folder, days=1, now=NOW, pdf=True
    )
    assert outcome.written == [] and outcome.pdfs_made == 2
    for stem in (DAILY, WEEKLY):
        assert (folder / f"{stem}.pdf").read_bytes() == (reports_dir / f"{stem}.pdf").read_bytes()
    (folder / f"{DAILY}.pdf.key").write_text("not json", "utf-8")
    both = [folder / f"{DAILY}.json", folder / f"{WEEKLY}.json"]
    assert pdf_module.make_report_pdfs(both) == [folder / f"{DAILY}.pdf"]


def test_site_publishes_current_pdfs_without_weasyprint(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls(monkeypatch)
    out = tmp_path / "site"
    result = build_site(reports_dir, out, SiteConfig())
    assert calls.pages == [] and result.pdfs_made == 0 and result.pdfs_copied == 2
    for stem in (DAILY, WEEKLY):
        assert (out / f"{stem}.pdf").read_bytes() == (reports_dir / f"{stem}.pdf").read_bytes()
    again = build_site(reports_dir, out, SiteConfig())
    assert again.written == [] and again.pdfs_copied == 0 and calls.pages == []


@pytest.mark.slow
def test_the_report_time_pdf_is_the_one_the_site_would_make(
    reports_dir: Path, tmp_path: Path
) -> None:
    # The site renders its own PDF of the bare JSON (no PDF beside it): the same bytes.
    bare = copy_reports(reports_dir, tmp_path / "bare", pdf=False)
    result = build_site(bare, tmp_path / "site", SiteConfig())
    assert result.pdfs_made == 2 and result.pdfs_copied == 0
    for stem in (DAILY, WEEKLY):
        own = (tmp_path / "site" / f"{stem}.pdf").read_bytes()
        assert own == (reports_dir / f"{stem}.pdf").read_bytes()


def test_site_renders_again_when_the_report_changed(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_reports(reports_dir, tmp_path / "reports")
    path = folder / f"{DAILY}.json"
    data = json.loads(path.read_text("utf-8"))
    data["summary"]["text"]["text"] = "Edited by hand after its PDF was made."
    path.write_text(json.dumps(data), "utf-8")
    calls = Calls(monkeypatch)
    out = tmp_path / "site"
    result = build_site(folder, out, SiteConfig())
    assert result.pdfs_made == 1 and result.pdfs_copied == 1
    assert len(calls.pages) == 1 and "Edited by hand" in calls.pages[0]
    assert (out / f"{DAILY}.pdf").read_bytes() == b"%PDF-1.7 rendered by the site\n"
    assert (out / f"{WEEKLY}.pdf").read_bytes() == (folder / f"{WEEKLY}.pdf").read_bytes()


def test_site_renders_again_when_the_renderer_changed(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls(monkeypatch)
    # A template change: the print page differs from the one the stored PDFs were made from.
    original = pdf_module.print_html
    monkeypatch.setattr(site_pdfs, "print_html", lambda r: original(r) + "<!-- new template -->")
    assert build_site(reports_dir, tmp_path / "a", SiteConfig()).pdfs_made == 2
    monkeypatch.setattr(site_pdfs, "print_html", original)
    # A print CSS (or WeasyPrint) change: the same page, a different key.
    monkeypatch.setattr(pdf_module, "PRINT_CSS", pdf_module.PRINT_CSS + "h1 { color: red }")
    result = build_site(reports_dir, tmp_path / "b", SiteConfig())
    assert result.pdfs_made == 2 and result.pdfs_copied == 0 and len(calls.pages) == 4


def test_site_does_not_trust_a_damaged_pdf(
    reports_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = copy_reports(reports_dir, tmp_path / "reports")
    (folder / f"{DAILY}.pdf").write_bytes(b"%PDF cut short")
    (folder / f"{WEEKLY}.pdf.key").unlink()
    calls = Calls(monkeypatch)
    result = build_site(folder, tmp_path / "site", SiteConfig())
    assert result.pdfs_made == 2 and len(calls.pages) == 2


def test_no_pdf_builds_ignore_them(reports_dir: Path, tmp_path: Path) -> None:
    build_site(reports_dir, tmp_path / "site", SiteConfig(), pdf=False)
    assert not list((tmp_path / "site").rglob("*.pdf"))
    page = (tmp_path / "site" / f"{DAILY}.html").read_text("utf-8")
    assert ".pdf" not in page


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


@pytest.mark.slow
def test_cli_report_format_pdf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    config = str(CONFIG_PATH)
    assert _cli(capsys, "--db", db, "import", str(SAMPLE_PATH))[0] == 0
    base = ["--db", db, "--config", config, "report"]
    code, _, err = _cli(capsys, *base, "daily", PROJECT, "--date", "2026-03-10", "--format", "pdf")
    assert code != 0 and "--out" in err and err.count("\n") == 1
    code, _, err = _cli(
        capsys, *base, "weekly", PROJECT, "--week", "2026-W10", "--lang", "zh",
        "--format", "pdf", "--out", "w10.pdf",
    )  # fmt: skip
    assert code == 0, err
    pdftotext = require_tool("pdftotext", "the PDF tests")
    text = subprocess.run(
        [pdftotext, str(tmp_path / "w10.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "RapidInfer" in text and "周报" in text


def test_a_removed_report_leaves_the_site(reports_dir: Path, tmp_path: Path) -> None:
    folder = copy_reports(reports_dir, tmp_path / "reports", pdf=False)
    out = tmp_path / "site"
    build_site(folder, out, SiteConfig(), pdf=False)
    (folder / f"{DAILY}.json").unlink()
    result = build_site(folder, out, SiteConfig(), pdf=False)
    pages = [rel for rel in result.removed if not rel.startswith("pagefind/")]  # old index
    assert sorted(pages) == [f"{DAILY}.html", f"{DAILY}.json", f"{DAILY}.md"]
    assert not (out / f"{DAILY}.html").exists() and not (out / PROJECT / "daily").exists()
    project = (out / PROJECT / "index.html").read_text("utf-8")
    assert "2026-03-13" not in project and "2026-W10" in project
    assert (out / PROJECT / "feed.xml").read_text("utf-8").count("<entry>") == 1
    manifest = json.loads((out / ".tidings-site.json").read_text("utf-8"))
    assert list(manifest["pages"]) == [WEEKLY]
    # The project's last report gone: its page and feed go too, and the home page forgets it.
    other = json.loads((folder / f"{WEEKLY}.json").read_text("utf-8"))
    other.update(repo="acme/other", project="Other", repo_url="https://github.com/acme/other")
    (folder / "other.json").write_text(json.dumps(other), "utf-8")
    build_site(folder, out, SiteConfig(), pdf=False)
    (folder / f"{WEEKLY}.json").unlink()
    build_site(folder, out, SiteConfig(), pdf=False)
    assert not (out / "tidings-demo").exists()
    assert "rapidinfer" not in (out / "index.html").read_text("utf-8").lower()
    assert (out / "acme" / "other" / "index.html").is_file()
    assert (out / ".tidings-site.json").is_file()
    # The very last report gone: that is a mistake (a wrong --from), not an empty site.
    (folder / "other.json").unlink()
    with pytest.raises(TidingsError, match="no reports found"):
        build_site(folder, out, SiteConfig(), pdf=False)
    assert (out / "acme" / "other" / "index.html").is_file()
