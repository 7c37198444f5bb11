"""Moved: a report's PDF and its freshness belong to rendering (render/pdf.py).

These names stay importable from here for callers written before the move (cli.py, runner.py).
"""

from tidings.render.pdf import make_report_pdfs, report_pdf

__all__ = ["make_report_pdfs", "report_pdf"]
