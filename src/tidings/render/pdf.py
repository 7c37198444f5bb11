"""PDF from the report's HTML with WeasyPrint (print CSS in templates/html/style.css.j2).

The PDF is the HTML page without site chrome, laid out for A4: the report title in every page
header, page numbers, links kept as PDF links, table rows never split across pages. Chinese
needs a CJK font on the machine: Debian's fonts-noto-cjk provides 'Noto Sans CJK SC'.
"""

from __future__ import annotations

from tidings.errors import TidingsError

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
    return HTML(string=html).write_pdf(stylesheets=[CSS(string="@media print {" + PRINT_CSS + "}")])
