"""PDF from the report's HTML with WeasyPrint (print CSS in templates/html/style.css.j2).

The PDF is the HTML page without site chrome, laid out for A4: the report title in every page
header, page numbers, links kept as PDF links, table rows never split across pages. Chinese
needs a CJK font on the machine: Debian's fonts-noto-cjk provides 'Noto Sans CJK SC'.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

from tidings.errors import TidingsError

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

# Cheaper layout for print: breaking only long words (not anywhere) and fixed table layout
# halve WeasyPrint's time on long reports, and print has no narrow screens to wrap for.
PRINT_CSS = """
html, body { font-family: 'Noto Sans CJK SC', 'Noto Sans', sans-serif; overflow-wrap: break-word; }
table { table-layout: fixed; }
td:first-child, th:first-child { width: 5.5em; }
td:last-child, th:last-child { width: 10em; }
"""


def html_to_pdf(html: str) -> bytes:
    """PDF bytes of an HTML page; the same input gives the same bytes (no dates embedded)."""
    try:
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
