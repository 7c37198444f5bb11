"""A report's own page and downloads: HTML, its JSON as written, its Markdown and its PDF.

A report is read whole (its typed model, report/kinds.py) only while its own page is rendered,
one at a time, and only when the page is not already right: a page is a function of its
report, its neighbours' links and the settings, keyed in the build's manifest. The Markdown
written beside a report's JSON is published as it is, not rendered again.
"""

from __future__ import annotations

import hashlib
import json

from tidings.common.config import GiscusConfig, Lang, SiteConfig
from tidings.errors import TidingsError
from tidings.render.fonts import missing_fonts
from tidings.render.html import Giscus, PageChrome, Words, html_lang, render_html
from tidings.render.markdown import render_markdown
from tidings.report.model import DailyReport
from tidings.site import search
from tidings.site.archive import Archive, labels_of, window_searches
from tidings.site.context import SiteContext
from tidings.site.layout import report_stem
from tidings.site.pdfs import PdfQueue
from tidings.site.sources import ReportFile, Summary, parse_report


def _giscus(cfg: SiteConfig) -> Giscus | None:
    d = cfg.discussion
    if isinstance(d, GiscusConfig):
        return Giscus(d.repo, d.repo_id, d.category, d.category_id, d.mapping)
    return None


def _discussion_href(cfg: SiteConfig) -> str | None:
    d = cfg.discussion
    if isinstance(d, str):
        return d
    if isinstance(d, GiscusConfig):
        return f"https://github.com/{d.repo}/discussions"
    return None


class ReportPages:
    """Writes report pages, skipping those whose key matches the last build's."""

    def __init__(
        self,
        ctx: SiteContext,
        pdfs: PdfQueue,
        *,
        saved: dict[str, str],
        settings_key: str,
        pdf: bool,
    ) -> None:
        self.ctx = ctx
        self.pdfs = pdfs
        self.saved = saved  # the last build's pages: stem -> key
        self.made: dict[str, str] = {}  # this build's
        self.settings_key = settings_key
        self.pdf = pdf

    def read(self, r: Summary) -> ReportFile:
        """The whole report behind a summary, for its page."""
        try:
            found = parse_report(r.path, r.path.read_bytes())
        except OSError as exc:
            raise TidingsError(
                f"cannot read {r.path}: {exc.strerror}", "check the reports folder"
            ) from exc
        if found is None or (found.repo, found.kind, found.period, found.lang) != (
            r.repo,
            r.kind,
            r.period,
            r.lang,
        ):
            raise TidingsError(
                f"{r.path} changed while the site was being built", "build the site again"
            )
        self.ctx.result.reports_parsed += 1
        return found

    def markdown(self, r: Summary, report: ReportFile) -> str | bytes:
        """The report's Markdown: the file written beside its JSON when there is one (it is
        the report's Markdown, made when the report was), else rendered from the report."""
        if r.markdown is not None:
            try:
                data = r.markdown.read_bytes()
            except OSError:
                pass  # gone since the scan: rendered below
            else:
                self.ctx.result.markdown_reused += 1
                return data
        self.ctx.result.markdown_rendered += 1
        return render_markdown(report.report)

    def build(self, r: Summary, siblings: set[tuple[str, str, Lang]], archive: Archive) -> None:
        ctx, output = self.ctx, self.ctx.output
        stem = report_stem(r)
        leaf = stem.rsplit("/", 1)[1]
        other = "en" if r.lang == "zh" else "zh"
        has_other = (r.kind, r.period, other) in siblings
        words = Words(r.lang)
        nav = archive.nav(r, words)
        # A PDF of boxes is worse than none: without a font for its language the page offers
        # no PDF, and offers it again once the font is there (the key below changes).
        pdf = self.pdf and not missing_fonts(r.lang)
        if self.pdf and not pdf:
            self.pdfs.unreadable.append(r.lang)
        # A page is a function of its report, its twin's existence, its neighbours (the
        # links to them), the settings, whether it has a PDF and this code: when none
        # changed since the last build, its files are already right.
        key = hashlib.sha256(
            b"\0".join(
                [
                    r.sha256.encode(),
                    (r.markdown_sha256 or "").encode(),
                    str(has_other).encode(),
                    json.dumps(nav.key()).encode(),
                    str(ctx.search).encode(),
                    str(pdf).encode(),
                    self.settings_key.encode(),
                ]
            )
        ).hexdigest()
        self.made[stem] = key
        outputs = [".html", ".json"] + ([".pdf"] if pdf else [])
        if self.saved.get(stem) == key and all(output.exists(stem + x) for x in outputs):
            if pdf:
                self.pdfs.keep(stem + ".pdf")
            ctx.result.unchanged += len(outputs) + (1 if output.exists(stem + ".md") else 0)
            return
        full = self.read(r)
        markdown = self.markdown(r, full)
        downloads = [("Markdown", f"{leaf}.md")]
        if pdf:
            downloads.append(("PDF", f"{leaf}.pdf"))
        downloads.append(("JSON", f"{leaf}.json"))
        lang_name = Words(r.lang).tr("site_lang_name")
        chrome = PageChrome(
            site_title=ctx.cfg.title,
            home_href="../../../index.html",
            footer=words.tr("site_generated_by"),
            project=r.project,
            back_href="../index.html",
            github_href=r.repo_url,
            feed_href=f"../feed.{r.lang}.xml",
            feeds=(
                (
                    words.tr("site_feed_lang", lang=lang_name) + " · " + r.project,
                    f"../feed.{r.lang}.xml",
                    html_lang(r.lang),
                ),
            ),
            downloads=tuple(downloads),
            other_lang_href=f"{r.period}.{other}.html" if has_other else None,
            other_lang=other if has_other else None,
            discussion_href=_discussion_href(ctx.cfg),
            giscus=_giscus(ctx.cfg),
            prev=nav.prev,
            next=nav.next,
            up=nav.up,
            month=nav.month,
            children=nav.children,
            searches=window_searches(r.repo_url, full.report.window.start, full.report.window.end),
            search_href="../../../search.html" if ctx.search else None,
            search_label=words.tr("site_search"),
            filters=self.filters(r, full) if ctx.search else (),
        )
        page = render_html(full.report, chrome, canonical=ctx.base(stem + ".html"))
        output.put(stem + ".html", page)
        output.put(stem + ".json", full.raw)
        output.put(stem + ".md", markdown)
        if pdf:
            self.pdfs.queue(stem + ".pdf", full)
        elif self.pdf:  # one made before, perhaps without the font: not published
            output.remove(stem + ".pdf")

    def filters(self, r: Summary, full: ReportFile) -> tuple[tuple[str, str], ...]:
        """The page's search filters, named in the site's language so the search page shows
        one set of them: project, kind, language, labels, topic tracks."""
        tr = self.ctx.words.tr
        report = full.report
        found = [
            (tr("site_filter_project"), r.project),
            (tr("site_filter_kind"), tr(f"site_{r.kind}")),
            (tr("site_filter_lang"), Words(r.lang).tr("site_lang_name")),
        ]
        if isinstance(report, DailyReport):
            appendix = report.appendix
            refs = [
                *(appendix.new_issues or ()),
                *(appendix.closed_issues or ()),
                *(appendix.new_prs or ()),
                *appendix.merged_prs,
                *(appendix.closed_unmerged_prs or ()),
            ]
            labels = labels_of(ref.labels for ref in refs)
            topics = sorted({track.title for track in report.topics})
        else:
            labels = labels_of(
                [[row.name for row in report.executive_summary.by_label]]
                + [pr.item.labels for pr in report.merged]
            )
            topics = []
        found += [(tr("site_filter_label"), label) for label in labels]
        found += [(tr("site_filter_topic"), topic) for topic in topics]
        return tuple((search.inert(name), search.inert(value)) for name, value in found)
