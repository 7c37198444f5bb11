"""The reports' PDFs on the site. PDFs, the expensive part, are made when their reports are
written (render/pdf.py) and copied from there when current; otherwise made here, in parallel
and in batches (render/pdf.py again), keyed in the build's manifest."""

from __future__ import annotations

from contextlib import closing

from tidings.common.config import Lang
from tidings.common.progress import Progress
from tidings.render.pdf import current_pdf, pdf_key, print_html, render_pdfs
from tidings.site.output import Output
from tidings.site.sources import ReportFile

PDF_BATCH = 32  # PDFs the site renders itself are made in batches: their pages are not all held


class PdfQueue:
    """The PDFs of the report pages this build renders, and the keys of every PDF it publishes
    (`made`, for the next build's manifest)."""

    def __init__(self, output: Output, saved: dict[str, str]) -> None:
        self.output = output
        self.saved = saved  # the last build's keys: PDF path -> key of its print page
        self.made: dict[str, str] = {}
        self.jobs: list[tuple[str, str]] = []
        self.queued = 0
        self.unreadable: list[Lang] = []  # left out: no font covers their language
        self.progress: Progress | None = None

    def keep(self, rel: str) -> None:
        """The PDF of a page that did not change stays, with its key."""
        self.made[rel] = self.saved.get(rel, "")

    def queue(self, rel: str, r: ReportFile) -> None:
        """The report's PDF: already in the site, or made beside the report when it was
        written (copied), or, when neither is current, rendered here."""
        result = self.output.result
        html = print_html(r.report)
        key = pdf_key(html)
        self.made[rel] = key
        if self.saved.get(rel) == key and self.output.exists(rel):
            result.unchanged += 1
            return
        made = current_pdf(r.path, key)
        if made is not None:
            self.output.put(rel, made)
            result.pdfs_copied += 1
            return
        self.jobs.append((rel, html))
        self.queued += 1
        if len(self.jobs) >= PDF_BATCH:
            self.make()

    def make(self) -> None:
        """Render the queued PDFs (a batch: the queue never holds more than PDF_BATCH pages)."""
        jobs, self.jobs = self.jobs, []
        if not jobs:
            return
        result = self.output.result
        with closing(render_pdfs([html for _, html in jobs])) as results:
            for (rel, _), data in zip(jobs, results, strict=True):
                self.output.put(rel, data)
                result.pdfs_made += 1
                if self.progress:
                    self.progress("PDF", result.pdfs_made, self.queued)
