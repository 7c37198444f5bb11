"""A report's PDF: made from its HTML with WeasyPrint, and kept current beside its JSON.

The PDF is the HTML page without site chrome (`print_html`), laid out for A4 (print CSS in
templates/html/style.css.j2): the report title in every page header, page numbers, links kept
as PDF links, table rows never split across pages. Chinese needs a CJK font on the machine:
Debian's fonts-noto-cjk provides 'Noto Sans CJK SC'. Without one (render/fonts.py), a PDF the
user asked for is refused (`report_pdf`, exit 1) and PDFs made beside reports or for the site
are left out with one warning: a PDF of boxes is never written.

A PDF is a rendering of one report, like its Markdown and JSON, so it is made when the report
is written: `DATE.LANG.pdf` beside `DATE.LANG.json`, with `DATE.LANG.pdf.key` saying what it
was made from (`make_report_pdfs`). The site copies that PDF when it is current and renders
one here only when it is not (a folder of bare JSON, a report edited by hand, a new renderer).

"Current" is decided by the PDF's key: a hash of the print HTML, the print CSS, the
WeasyPrint version and the font files fontconfig gives it. The site computes the same key
from the report it reads, so a change to the report, its templates, the PDF renderer or the
fonts makes the stored PDF stale instead of silently published. The key file also holds the
PDF's own hash, so a PDF replaced or cut short on disk is not trusted either.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import warnings
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path

from tidings.common.config import Lang
from tidings.common.outputs import write_atomic
from tidings.common.progress import Progress
from tidings.common.workers import process_pool
from tidings.errors import TidingsError, TidingsWarning
from tidings.render.fonts import CJK_PACKAGES, fonts_error, fonts_key, missing_fonts
from tidings.render.html import render_html
from tidings.report.kinds import Report, load_report

# Font subsets are rebuilt by fontTools, which stamps them with the current time unless
# SOURCE_DATE_EPOCH says otherwise (reproducible-builds.org); a fixed stamp makes the same
# report give the same PDF bytes on every build, so rebuilds and caches see no change.
_EPOCH = "0"


class _ScreenOnlyCss(logging.Filter):
    """The page's screen-only CSS (dark mode, SVG colours, narrow screens) means nothing on
    paper; WeasyPrint says so for every page, which would bury real warnings."""

    NOISE = ("Ignored `", "Invalid media type", "Expected a media type")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.NOISE)


logging.getLogger("weasyprint").addFilter(_ScreenOnlyCss())

# Cheaper layout for print: fixed layout for the long item tables (#, title, author) halves
# WeasyPrint's time on long reports. Their number column never wraps ("#4238" whole) and is
# wide enough for it; the author column breaks a login only at its hyphens, or, when one
# part is longer than the column, where it must. Other tables (the weekly summary's label
# counts) keep automatic layout, so a label is never cut in two ("documen/tation").
PRINT_CSS = """
html, body { font-family: 'Noto Sans CJK SC', 'Noto Sans', sans-serif; overflow-wrap: break-word; }
table.items { table-layout: fixed; }
table.items td:first-child, table.items th:first-child { width: 5em; white-space: nowrap; }
table.items td:last-child, table.items th:last-child { width: 11em; white-space: normal; }
table.items td:nth-child(2) { min-width: 0; }
"""


KEY_SUFFIX = ".pdf.key"


def html_to_pdf(html: str) -> bytes:
    """PDF bytes of an HTML page; the same input gives the same bytes (no dates embedded)."""
    try:
        # Imported on first use: WeasyPrint needs system libraries that a run without PDFs
        # does not, and takes a while to load.
        from weasyprint import CSS, HTML
    except (ImportError, OSError) as exc:  # OSError: pango or another system library missing
        raise TidingsError(
            f"PDF output needs WeasyPrint and its system libraries ({exc})",
            "pip install weasyprint (Debian: apt-get install libpango-1.0-0), or use --no-pdf",
        ) from exc
    with _source_date_epoch():
        return HTML(string=html).write_pdf(
            stylesheets=[CSS(string="@media print {" + PRINT_CSS + "}")]
        )


@contextmanager
def _source_date_epoch() -> Iterator[None]:
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = previous or _EPOCH
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]


def print_html(report: Report) -> str:
    """The page a report's PDF is printed from: its HTML without the site's chrome."""
    return render_html(report, None)


def pdf_key(html: str) -> str:
    """What a PDF depends on: its HTML, the print CSS, the WeasyPrint that lays it out and
    the fonts it finds (render/fonts.py: a font installed later makes the PDF again)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        engine = version("weasyprint")
    except PackageNotFoundError:
        engine = "none"
    parts = [html, PRINT_CSS, engine, fonts_key()]
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def pdf_path(json_path: Path) -> Path:
    return json_path.with_name(json_path.name.removesuffix(".json") + ".pdf")


def key_path(json_path: Path) -> Path:
    return json_path.with_name(json_path.name.removesuffix(".json") + KEY_SUFFIX)


def current_pdf(json_path: Path, key: str) -> bytes | None:
    """The PDF beside a report when it was made from the page with this key, else None."""
    try:
        saved = json.loads(key_path(json_path).read_text("utf-8"))
        if saved.get("key") != key:
            return None
        data = pdf_path(json_path).read_bytes()
    except (OSError, ValueError, AttributeError):
        return None
    if hashlib.sha256(data).hexdigest() != saved.get("pdf_sha256"):
        return None
    return data


def store_pdf(json_path: Path, key: str, data: bytes) -> None:
    """Write the PDF, then its key: a crash between the two leaves a PDF nobody trusts."""
    write_atomic(pdf_path(json_path), data)
    record = {"key": key, "pdf_sha256": hashlib.sha256(data).hexdigest()}
    write_atomic(key_path(json_path), json.dumps(record, sort_keys=True) + "\n")


def _pdf_job(html: str) -> bytes:
    return html_to_pdf(html)  # looked up at call time, so tests can stand in for WeasyPrint


def render_pdfs(htmls: Sequence[str]) -> Generator[bytes, None, None]:
    """PDFs of pages in order, made in parallel (one process per core) when there are several.

    Close the iterator when stopping early (`contextlib.closing`): that ends the workers."""
    workers = min(len(htmls), os.cpu_count() or 1)
    if workers <= 1:
        yield from map(_pdf_job, htmls)
        return
    with process_pool(workers) as pool:
        # Submitted one by one, not `pool.map`: map cancels its pending futures when closed by
        # an interrupt, and Python 3.11's pool then fails on them (a traceback) as it ends.
        futures = [pool.submit(_pdf_job, html) for html in htmls]
        for future in futures:
            yield future.result()


def make_report_pdfs(paths: Sequence[Path], progress: Progress | None = None) -> list[Path]:
    """Give each report JSON in `paths` its current PDF; the PDF files made (the ones that
    were missing or stale). Files that are not tidings reports are left alone."""
    due: list[tuple[Path, str, str]] = []
    unreadable: list[Lang] = []
    for path in paths:
        report = load_report(path.read_bytes(), path)
        if report is None:
            continue
        if missing_fonts(report.lang):
            unreadable.append(report.lang)
            continue
        html = print_html(report)
        key = pdf_key(html)
        if current_pdf(path, key) is None:
            due.append((path, key, html))
    with closing(render_pdfs([html for _, _, html in due])) as results:
        for done, ((path, key, _), data) in enumerate(zip(due, results, strict=True), start=1):
            store_pdf(path, key, data)
            if progress:
                progress("PDF", done, len(due))
    if unreadable:
        warnings.warn(skipped_line(unreadable), TidingsWarning, stacklevel=2)
    return [pdf_path(path) for path, _, _ in due]


def skipped_line(langs: Sequence[Lang]) -> str:
    """The one line for PDFs made as a by-product and left out for want of fonts."""
    n = len(langs)
    lang = langs[0]
    why = missing_fonts(lang) or ""
    return (
        f"{n} {lang} PDF{'s' if n != 1 else ''} not made: {why} — install a CJK font "
        f"({CJK_PACKAGES}) and run it again"
    )


def report_pdf(json_text: str, where: Path) -> bytes:
    """The PDF of a report given as its JSON text: the page the site would print."""
    report = load_report(json_text, where)
    if report is None:
        raise ValueError("not a tidings report")
    if (refusal := fonts_error(report.lang)) is not None:
        raise refusal
    return _pdf_job(print_html(report))
