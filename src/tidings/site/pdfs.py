"""A report's PDF, made once where the report is written and published by the site.

A PDF is a rendering of one report, like its Markdown and JSON, so `tidings run`, `tidings
demo` and `tidings report --format pdf` make it when they write the report: `DATE.LANG.pdf`
beside `DATE.LANG.json`, with `DATE.LANG.pdf.key` saying what it was made from. The site
copies that PDF when it is current and renders one itself only when it is not (a folder of
bare JSON, a report edited by hand, a new renderer).

"Current" is decided by the PDF's key: a hash of the print HTML (the exact page the site
prints: `print_html`), the print CSS and the WeasyPrint version. The site computes the same
key from the report it reads, so a change to the report, its templates or the PDF renderer
makes the stored PDF stale instead of silently published. The key file also holds the PDF's
own hash, so a PDF replaced or cut short on disk is not trusted either.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Generator, Sequence
from contextlib import closing
from pathlib import Path

from tidings.outputs import write_atomic
from tidings.site.sources import ReportFile, kind_spec, parse_report, read_report
from tidings.workers import process_pool

Progress = Callable[[str, int, int | None], None]
KEY_SUFFIX = ".pdf.key"


def print_html(r: ReportFile) -> str:
    """The page a report's PDF is printed from: its HTML without the site's chrome."""
    from tidings.render.html import render_generic_html

    spec = kind_spec(r.kind)
    if spec.html is not None and r.report is not None:
        return spec.html(r.report, None)
    from tidings.site.build import report_title

    return render_generic_html(r.data, report_title(r), r.lang)  # type: ignore[arg-type]


def pdf_key(html: str) -> str:
    """What a PDF depends on: its HTML, the print CSS and the WeasyPrint that lays it out."""
    from importlib.metadata import PackageNotFoundError, version

    from tidings.render.pdf import PRINT_CSS

    try:
        engine = version("weasyprint")
    except PackageNotFoundError:
        engine = "none"
    parts = [html, PRINT_CSS, engine]
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
    from tidings.render.pdf import html_to_pdf

    return html_to_pdf(html)


def render_pdfs(htmls: Sequence[str]) -> Generator[bytes, None, None]:
    """PDFs of pages in order, made in parallel (one process per core) when there are several.

    Close the iterator when stopping early (`contextlib.closing`): that ends the workers."""
    workers = min(len(htmls), os.cpu_count() or 1)
    if workers <= 1:
        yield from map(_pdf_job, htmls)
        return
    with process_pool(workers) as pool:
        yield from pool.map(_pdf_job, htmls, chunksize=1)


def make_report_pdfs(paths: Sequence[Path], progress: Progress | None = None) -> list[Path]:
    """Give each report JSON in `paths` its current PDF; the PDF files made (the ones that
    were missing or stale)."""
    due: list[tuple[Path, str, str]] = []
    for path in paths:
        report = read_report(path)
        if report is None:
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
    return [pdf_path(path) for path, _, _ in due]


def report_pdf(json_text: str, where: Path) -> bytes:
    """The PDF of a report given as its JSON text: the page the site would print."""
    report = parse_report(where, json_text.encode("utf-8"))
    if report is None:
        raise ValueError("not a tidings report")
    return _pdf_job(print_html(report))
