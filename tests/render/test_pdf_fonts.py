"""A zh PDF is never a page of boxes: without a font covering Chinese it is refused (asked for)
or left out with one warning (a by-product), and installing the font makes it again.

The machine without CJK fonts is this one, with fontconfig pointed at a fonts.conf whose only
font is a Latin one (FONTCONFIG_FILE), in a subprocess: fontconfig is read once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from tests.site_support import require_tool
from tidings.common.config import load_config
from tidings.demo import CONFIG_PATH, SAMPLE_PATH
from tidings.errors import TidingsError
from tidings.render import fonts, pdf
from tidings.render.files import render_report
from tidings.report.daily import build_daily
from tidings.report.kinds import load_report
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

PROJECT = "tidings-demo/rapidinfer"
WEEK = "2026-W10"


def _no_chinese(monkeypatch: pytest.MonkeyPatch, key: str = "latin only") -> None:
    monkeypatch.setattr(fonts, "_survey", lambda: fonts._Survey((), key))


def test_english_needs_no_cjk_font_and_chinese_does(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chinese(monkeypatch)
    assert fonts.missing_fonts("en") is None
    assert fonts.missing_fonts("zh") is not None
    refusal = fonts.fonts_error("zh")
    assert refusal is not None and "fonts-noto-cjk" in refusal.one_line()
    assert fonts.fonts_error("en") is None
    # fontconfig not there to ask: nobody is refused on a guess
    monkeypatch.setattr(fonts, "_survey", lambda: fonts._Survey(None, "no-fontconfig"))
    assert fonts.missing_fonts("zh") is None


def test_the_pdf_key_changes_with_the_fonts(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chinese(monkeypatch, "before")
    before = pdf.pdf_key("<html></html>")
    _no_chinese(monkeypatch, "after")
    assert pdf.pdf_key("<html></html>") != before


def test_the_chinese_fonts_are_fontconfigs() -> None:
    fc_list = require_tool("fc-list", "the font check's comparison with fontconfig")
    listed = subprocess.run(
        [fc_list, ":lang=zh", "file"], capture_output=True, text=True, check=True
    ).stdout
    expected = sorted({line.strip().rstrip(":") for line in listed.splitlines() if line.strip()})
    assert list(fonts.chinese_fonts() or ()) == expected


def test_a_zh_pdf_asked_for_is_refused_before_weasyprint(
    monkeypatch: pytest.MonkeyPatch, sqlite_store: Store
) -> None:
    import_snapshot(sqlite_store, SAMPLE_PATH)
    settings = load_config(CONFIG_PATH).repo(PROJECT)
    _no_chinese(monkeypatch)

    def never(html: str) -> bytes:
        raise AssertionError("WeasyPrint called for a PDF that would show boxes")

    monkeypatch.setattr(pdf, "html_to_pdf", never)
    zh = build_daily(sqlite_store, settings, date(2026, 3, 10), "zh")
    with pytest.raises(TidingsError, match="covers Chinese"):
        render_report(zh, "pdf")
    monkeypatch.setattr(pdf, "html_to_pdf", lambda html: b"%PDF-1.7 stand-in")
    en = build_daily(sqlite_store, settings, date(2026, 3, 10), "en")
    assert render_report(en, "pdf") == b"%PDF-1.7 stand-in"


# -- a machine without CJK fonts, then with them ------------------------------------------------


@pytest.fixture
def no_cjk_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine whose one font covers English and not Chinese."""
    fc_list = require_tool("fc-list", "the tests without CJK fonts")

    def files(query: str) -> set[str]:
        out = subprocess.run([fc_list, query, "file"], capture_output=True, text=True, check=True)
        return {line.strip().rstrip(":") for line in out.stdout.splitlines() if line.strip()}

    latin = sorted(f for f in files(":lang=en") - files(":lang=zh") if f.endswith(".ttf"))
    if not latin:
        pytest.skip("no font on this machine covers English without Chinese (apt-get fonts-dejavu)")
    fonts_dir = tmp_path / "fonts"
    fonts_dir.mkdir()
    (fonts_dir / Path(latin[0]).name).symlink_to(latin[0])
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n'
        f"  <dir>{fonts_dir}</dir>\n  <cachedir>{tmp_path / 'fc-cache'}</cachedir>\n"
        "</fontconfig>\n",
        "utf-8",
    )
    env = {k: v for k, v in os.environ.items() if k not in {"TIDINGS_DB", "FONTCONFIG_PATH"}}
    env["FONTCONFIG_FILE"] = str(conf)
    return env


def _tidings(cwd: Path, env: dict[str, str] | None, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tidings.cli", "--db", f"sqlite:///{cwd / 'demo.db'}", *args],
        cwd=cwd,
        env=env if env is not None else {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"},
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def _pdf_text(path: Path) -> str:
    pdftotext = require_tool("pdftotext", "the PDF tests")
    return subprocess.run(
        [pdftotext, str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.slow
def test_without_cjk_fonts_zh_pdfs_are_refused_or_left_out_then_made(
    tmp_path: Path, no_cjk_env: dict[str, str]
) -> None:
    assert _tidings(tmp_path, None, "import", str(SAMPLE_PATH)).returncode == 0
    weekly = ["--config", str(CONFIG_PATH), "report", "weekly", PROJECT, "--week", WEEK]

    # Asked for: refused, one line naming the packages, nothing written.
    done = _tidings(tmp_path, no_cjk_env, *weekly, "--lang", "zh", "--out", "w.zh.pdf")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "fonts-noto-cjk" in done.stderr
    assert not (tmp_path / "w.zh.pdf").exists()
    # English needs no CJK font.
    done = _tidings(tmp_path, no_cjk_env, *weekly, "--lang", "en", "--out", "w.en.pdf")
    assert done.returncode == 0, done.stderr
    assert "RapidInfer" in _pdf_text(tmp_path / "w.en.pdf")

    # A by-product (the site's downloads): the zh PDF left out with one warning line.
    reports = tmp_path / "reports"
    for lang in ("zh", "en"):
        out = reports / PROJECT / "weekly" / f"{WEEK}.{lang}.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        done = _tidings(tmp_path, None, *weekly, "--lang", lang, "--out", str(out))
        assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    build = ["site", "build", "--from", str(reports), "--out", str(site), "--pdf", "--json"]
    done = _tidings(tmp_path, no_cjk_env, *build)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len([w for w in warnings if "PDF" in w]) == 1 and "fonts-noto-cjk" in done.stderr
    assert json.loads(done.stdout)["pdfs_made"] == 1  # the English one
    page = site / PROJECT / "weekly" / WEEK
    assert (page.with_suffix(".en.pdf")).is_file()
    assert not (page.with_suffix(".zh.pdf")).exists()
    assert f"{WEEK}.zh.pdf" not in page.with_suffix(".zh.html").read_text("utf-8")
    assert f"{WEEK}.en.pdf" in page.with_suffix(".en.html").read_text("utf-8")

    # Fonts installed (the machine's own config): both PDFs made again, the zh one readable.
    done = _tidings(tmp_path, None, *build)
    assert done.returncode == 0, done.stderr
    assert "PDF" not in done.stderr
    assert json.loads(done.stdout)["pdfs_made"] == 2  # the English one too: its key changed
    text = _pdf_text(page.with_suffix(".zh.pdf"))
    assert "周报" in text and "RapidInfer" in text
    assert f"{WEEK}.zh.pdf" in page.with_suffix(".zh.html").read_text("utf-8")


@pytest.mark.slow
def test_pdfs_beside_reports_skip_zh_without_fonts_and_are_made_once_installed(
    tmp_path: Path, no_cjk_env: dict[str, str]
) -> None:
    """What `run` and `demo` do (report_files.make_pdfs): leave zh out with one warning."""
    assert _tidings(tmp_path, None, "import", str(SAMPLE_PATH)).returncode == 0
    weekly = ["--config", str(CONFIG_PATH), "report", "weekly", PROJECT, "--week", WEEK]
    paths = []
    for lang in ("zh", "en"):
        out = tmp_path / f"{WEEK}.{lang}.json"
        assert _tidings(tmp_path, None, *weekly, "--lang", lang, "--out", str(out)).returncode == 0
        assert load_report(out.read_bytes(), out) is not None
        paths.append(str(out))
    script = (
        "import json, sys, warnings\n"
        "from pathlib import Path\n"
        "from tidings.render.files import make_pdfs\n"
        "with warnings.catch_warnings(record=True) as said:\n"
        "    warnings.simplefilter('always')\n"
        "    made = make_pdfs([Path(p) for p in sys.argv[1:]])\n"
        "print(json.dumps([[p.name for p in made], [str(w.message) for w in said]]))\n"
    )

    def make(env: dict[str, str] | None) -> tuple[list[str], list[str]]:
        done = subprocess.run(
            [sys.executable, "-c", script, *paths],
            env=env if env is not None else dict(os.environ),
            capture_output=True,
            text=True,
            check=True,
            timeout=600,
        )
        made, said = json.loads(done.stdout)
        return made, said

    made, said = make(no_cjk_env)
    assert made == [f"{WEEK}.en.pdf"]
    assert len(said) == 1 and said[0].startswith("1 zh PDF not made")
    assert "fonts-noto-cjk" in said[0]
    made, said = make(None)
    assert made == [f"{WEEK}.zh.pdf", f"{WEEK}.en.pdf"] and said == []
    assert "周报" in _pdf_text(tmp_path / f"{WEEK}.zh.pdf")
    made, said = make(None)
    assert made == []  # current: nothing made twice
