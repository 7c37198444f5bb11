"""The static site: home, project pages, report pages with downloads, feeds and charts.

Built from report JSON files (site/sources.py), deterministically: the same reports give the
same bytes, and a file is written only when its bytes differ, so a rebuild with nothing new
touches nothing and a rebuild with one new report touches only the pages that list it. PDFs,
the expensive part, are made when their reports are written (render/pdf.py) and copied from
there when current; otherwise made here in parallel (render/pdf.py again), keyed in a small
manifest. A report gone from the source takes its files with it.

Memory does not grow with the archive: the lists, feeds, charts and links are built from a small
summary of each report (site/sources.py), kept in the manifest with the report file's stat and
hash, so an unchanged report is not parsed at all; a report is read whole (its typed model,
report/kinds.py) only while its own page is rendered, one at a time. The Markdown written beside
a report's JSON is published as it is, not rendered again.

Layout (all links relative, so the site works from any base path or straight from disk):

    index.html                                  projects
    OWNER/REPO/index.html                       reports newest first, charts
    OWNER/REPO/feed.xml                         Atom
    OWNER/REPO/KIND/PERIOD.LANG.{html,md,json,pdf}
"""

from __future__ import annotations

import calendar
import hashlib
import json
import os
import posixpath
import stat
import subprocess
from collections import Counter, defaultdict
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from markupsafe import Markup

from tidings.common.config import GiscusConfig, Lang, SiteConfig
from tidings.common.outputs import atomic_file, file_mode, write_error
from tidings.common.progress import Progress
from tidings.errors import TidingsError
from tidings.render.fonts import fonts_key, missing_fonts
from tidings.render.html import (
    Giscus,
    PageChrome,
    Words,
    html_lang,
    render_html,
    render_template,
)
from tidings.render.markdown import render_markdown
from tidings.render.pdf import current_pdf, pdf_key, print_html, render_pdfs, skipped_line
from tidings.report.model import DailyReport
from tidings.report.weekly_model import WeeklyReport
from tidings.site import charts, publish, search
from tidings.site.archive import Archive, labels_of, month_of, month_words, window_searches
from tidings.site.feed import FeedEntry, atom_feed, entry_id
from tidings.site.sources import (
    InputCache,
    ReportFile,
    Summary,
    find_reports,
    holds_reports,
    parse_report,
)
from tidings.words.weekly import tag_name

MANIFEST = ".tidings-site.json"
LATEST_DAILY = 14  # rows on a project page; the month pages hold the rest
LATEST_WEEKLY = 8
FEED_ENTRIES = 100  # a feed holds the newest reports; older ones stay on the site
PDF_BATCH = 32  # PDFs the site renders itself are made in batches: their pages are not all held

Feed = tuple[str, str, str]  # (title, href, hreflang) of an Atom feed, for <head> and pages


@dataclass
class Row:
    """A report period in a list: the site language's copy, and badges for each language."""

    period: str
    title: str
    href: str
    langs: list[tuple[str, str, str]]  # (language name, href, code)
    stats: dict[str, int | None] | None  # a daily report's numbers (None: unknown)
    merged: int | None  # a weekly report's merged PRs


@dataclass
class Project:
    """A project on the home page."""

    repo: str
    project: str
    href: str
    prefix: str
    feeds: list[Feed]
    count: int
    latest: str
    repo_url: str
    latest_daily: Row | None
    latest_weekly: Row | None
    spark: Markup
    reports: list[Summary]


def pagefind_lang(lang: str) -> str:
    """The index name Pagefind gives a page of `lang` (from its <html lang>)."""
    return html_lang(lang).lower()  # type: ignore[arg-type]


@dataclass
class BuildResult:
    out: Path
    reports: int = 0
    projects: int = 0
    written: list[str] = field(default_factory=list)  # relative paths whose bytes changed
    unchanged: int = 0
    pdfs_made: int = 0  # rendered by the site
    pdfs_copied: int = 0  # made when their reports were written, published as they are
    removed: list[str] = field(default_factory=list)  # files of reports no longer there
    warnings: list[str] = field(default_factory=list)  # e.g. two copies of one report
    # Report files parsed: new or changed ones (for their summaries) and the reports whose
    # pages were rendered; 0 when nothing changed.
    reports_parsed: int = 0
    markdown_reused: int = 0  # Markdown published as written beside the report's JSON
    markdown_rendered: int = 0  # rendered here: the report had no Markdown beside it

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "projects": self.projects,
            "reports": self.reports,
            "files_written": len(self.written),
            "files_unchanged": self.unchanged,
            "pdfs_made": self.pdfs_made,
            "pdfs_copied": self.pdfs_copied,
            "files_removed": len(self.removed),
            "reports_parsed": self.reports_parsed,
            "markdown_reused": self.markdown_reused,
            "markdown_rendered": self.markdown_rendered,
            "warnings": self.warnings,
        }


class Output:
    """Writes files under a root (the staging folder) only when their bytes differ, each
    atomically. Errors name the file as it will be published, under `shown`."""

    def __init__(self, root: Path, result: BuildResult, shown: Path | None = None) -> None:
        self.root = root
        self.shown = shown or root
        self.result = result
        # Files of older versions were written 0600 (mkstemp); the same bytes with those
        # modes are written again so the published copy follows the umask.
        self.mode = file_mode()

    def inside(self, rel: str) -> Path | None:
        """`rel` under the root, or None when it would lead out of it. Paths are made from
        report JSON (repository, period) and the last build's manifest, which anyone could
        have edited; the name checks upstream should stop `..`, and this makes sure."""
        pure = PurePosixPath(rel)
        if not rel or pure.is_absolute() or any(p in {"", ".", ".."} for p in rel.split("/")):
            return None
        path = self.root / rel
        root = self.root.resolve()
        if root not in path.resolve().parents:  # e.g. through a symlinked folder
            return None
        return path

    def put(self, rel: str, content: bytes | str) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        path = self.inside(rel)
        if path is None:
            raise TidingsError(
                f"refusing to write {rel!r}: it is outside the site folder {self.root}",
                "check the report files' repository names (OWNER/REPO)",
            )
        try:
            if self.exists(rel) and path.stat().st_size == len(data) and path.read_bytes() == data:
                self.result.unchanged += 1
                return
        except OSError as exc:
            raise write_error(self.shown / rel, exc, "choose a writable --out folder") from exc
        fix = "choose a writable --out folder"
        with atomic_file(path, fix=fix, durable=False, shown=self.shown / rel) as sink:
            sink.write(data)
        self.result.written.append(rel)

    def exists(self, rel: str) -> bool:
        """The file is there and may stay: not one an older tidings left 0600 (mkstemp's
        mode) where the umask now gives more, which is written again."""
        try:
            info = (self.root / rel).stat()
        except OSError:
            return False
        legacy = stat.S_IMODE(info.st_mode) == 0o600 and self.mode != 0o600
        return stat.S_ISREG(info.st_mode) and not legacy

    def remove(self, rel: str) -> None:
        """Delete a file this site wrote before, and its folders once they are empty."""
        path = self.inside(rel)
        if path is None:  # an edited manifest: never delete outside the site
            return
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise TidingsError(
                f"cannot remove {self.shown / rel}: {exc.strerror}",
                "choose a writable --out folder",
            ) from exc
        self.result.removed.append(rel)
        folder = path.parent
        while folder != self.root and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """A hash of the code and templates that shape pages: a new tidings (or a local edit)
    rebuilds every page once instead of trusting pages an older renderer made."""
    from tidings import _version

    root = Path(_version.__file__).parent
    digest = hashlib.sha256(_version.__version__.encode())
    files = sorted((root / "render").rglob("*")) + sorted((root / "words").glob("*.py"))
    files += sorted((root / "report").glob("*.py"))  # the models summaries are read with
    files += [
        root / "site" / name for name in ("build.py", "charts.py", "archive.py", "sources.py")
    ]
    for file in files:
        if file.is_file() and file.suffix in {".py", ".j2"}:
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


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


def risk_counts(report: WeeklyReport) -> dict[str, int]:
    """How often each risk tag fired in a weekly report's merged PRs, most common first."""
    return {row.name: row.count for row in report.executive_summary.by_risk_tag}


def _group(reports: Sequence[Summary]) -> dict[str, list[Summary]]:
    by_repo: dict[str, list[Summary]] = defaultdict(list)
    for r in reports:
        by_repo[r.repo].append(r)
    return dict(sorted(by_repo.items(), key=lambda kv: kv[0].lower()))


class SiteBuilder:
    """Builds the site `out` into `root`: its staging copy (site/publish.py), or `out` itself."""

    def __init__(
        self, cfg: SiteConfig, out: Path, *, pdf: bool | None = None, root: Path | None = None
    ) -> None:
        self.cfg = cfg
        self.out = out
        root = root or out
        self.pdf = cfg.pdf if pdf is None else pdf
        self.result = BuildResult(out=out)
        self.output = Output(root, self.result, shown=out)
        self.words = Words(cfg.language)
        manifest = root / MANIFEST
        saved: Any = None
        self.saved_inputs: Any = None  # the last build's record of its inputs (sources.py)
        try:
            saved = json.loads(manifest.read_text("utf-8"))
            self.saved_inputs = saved.pop("inputs", None)
            self.manifest: dict[str, str] = dict(saved["pdf"])
            self.pages: dict[str, str] = dict(saved.get("pages", {}))
        except (OSError, ValueError, KeyError, TypeError):
            self.manifest, self.pages = {}, {}
        # A hand-edited manifest may name pages outside the folder: they were never published
        # here, so they count neither for removal nor for "would remove every report".
        self.pages = {stem: key for stem, key in self.pages.items() if self.output.inside(stem)}
        self.new_manifest: dict[str, str] = {}
        self.new_pages: dict[str, str] = {}
        # The fonts too, when there are PDFs: a font installed makes every PDF again.
        self.settings_key = json.dumps(
            [cfg.model_dump(mode="json"), self.pdf and fonts_key(), _code_digest()],
            sort_keys=True,
        )
        self.pdf_jobs: list[tuple[str, str]] = []
        self.pdfs_queued = 0
        self.pdfs_unreadable: list[Lang] = []  # left out: no font covers their language
        self.progress: Progress | None = None
        # Files besides the reports' own (project, month and search pages, feeds, the
        # index): those of the last build, and this one's.
        files = saved.get("files", []) if isinstance(saved, dict) else []
        self.files: set[str] = {
            f for f in files if isinstance(f, str) and self.output.inside(f) is not None
        }
        self.new_files: set[str] = set()
        self.languages: set[Lang] = set()
        self.search_binary = search.executable() if cfg.search else None
        self.search = self.search_binary is not None

    def base(self, rel: str) -> str | None:
        if not self.cfg.base_url:
            return None
        return self.cfg.base_url.rstrip("/") + "/" + rel

    # -- report pages ---------------------------------------------------------------------
    def report_paths(self, r: Summary) -> str:
        owner, name = r.owner_name
        return f"{owner}/{name}/{r.kind}/{r.period}.{r.lang}"

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
        self.result.reports_parsed += 1
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
                self.result.markdown_reused += 1
                return data
        self.result.markdown_rendered += 1
        return render_markdown(report.report)

    def build_report(
        self, r: Summary, siblings: set[tuple[str, str, Lang]], archive: Archive
    ) -> None:
        stem = self.report_paths(r)
        leaf = stem.rsplit("/", 1)[1]
        other = "en" if r.lang == "zh" else "zh"
        has_other = (r.kind, r.period, other) in siblings
        words = Words(r.lang)
        nav = archive.nav(r, words)
        # A PDF of boxes is worse than none: without a font for its language the page offers
        # no PDF, and offers it again once the font is there (the key below changes).
        pdf = self.pdf and not missing_fonts(r.lang)
        if self.pdf and not pdf:
            self.pdfs_unreadable.append(r.lang)
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
                    str(self.search).encode(),
                    str(pdf).encode(),
                    self.settings_key.encode(),
                ]
            )
        ).hexdigest()
        self.new_pages[stem] = key
        outputs = [".html", ".json"] + ([".pdf"] if pdf else [])
        if self.pages.get(stem) == key and all(self.output.exists(stem + x) for x in outputs):
            if pdf:
                self.new_manifest[stem + ".pdf"] = self.manifest.get(stem + ".pdf", "")
            self.result.unchanged += len(outputs) + (1 if self.output.exists(stem + ".md") else 0)
            return
        full = self.read(r)
        markdown = self.markdown(r, full)
        downloads = [("Markdown", f"{leaf}.md")]
        if pdf:
            downloads.append(("PDF", f"{leaf}.pdf"))
        downloads.append(("JSON", f"{leaf}.json"))
        lang_name = Words(r.lang).tr("site_lang_name")
        chrome = PageChrome(
            site_title=self.cfg.title,
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
            discussion_href=_discussion_href(self.cfg),
            giscus=_giscus(self.cfg),
            prev=nav.prev,
            next=nav.next,
            up=nav.up,
            month=nav.month,
            children=nav.children,
            searches=window_searches(r.repo_url, full.report.window.start, full.report.window.end),
            search_href="../../../search.html" if self.search else None,
            search_label=words.tr("site_search"),
            filters=self.filters(r, full) if self.search else (),
        )
        page = render_html(full.report, chrome, canonical=self.base(stem + ".html"))
        self.output.put(stem + ".html", page)
        self.output.put(stem + ".json", full.raw)
        self.output.put(stem + ".md", markdown)
        if pdf:
            self.queue_pdf(stem + ".pdf", full)
        elif self.pdf:  # one made before, perhaps without the font: not published
            self.output.remove(stem + ".pdf")

    def filters(self, r: Summary, full: ReportFile) -> tuple[tuple[str, str], ...]:
        """The page's search filters, named in the site's language so the search page shows
        one set of them: project, kind, language, labels, topic tracks."""
        tr = self.words.tr
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

    def queue_pdf(self, rel: str, r: ReportFile) -> None:
        """The report's PDF: already in the site, or made beside the report when it was
        written (copied), or, when neither is current, rendered here."""
        html = print_html(r.report)
        key = pdf_key(html)
        self.new_manifest[rel] = key
        if self.manifest.get(rel) == key and self.output.exists(rel):
            self.result.unchanged += 1
            return
        made = current_pdf(r.path, key)
        if made is not None:
            self.output.put(rel, made)
            self.result.pdfs_copied += 1
            return
        self.pdf_jobs.append((rel, html))
        self.pdfs_queued += 1
        if len(self.pdf_jobs) >= PDF_BATCH:
            self.make_pdfs(self.progress)

    def make_pdfs(self, progress: Progress | None) -> None:
        """Render the queued PDFs (a batch: the queue never holds more than PDF_BATCH pages)."""
        jobs, self.pdf_jobs = self.pdf_jobs, []
        if not jobs:
            return
        with closing(render_pdfs([html for _, html in jobs])) as results:
            for (rel, _), data in zip(jobs, results, strict=True):
                self.output.put(rel, data)
                self.result.pdfs_made += 1
                if progress:
                    progress("PDF", self.result.pdfs_made, self.pdfs_queued)

    # -- project pages --------------------------------------------------------------------
    def rows(self, reports: Sequence[Summary], prefix: str = "") -> dict[str, list[Row]]:
        """One row per report period, newest first, by kind: the site language's copy as the
        main link, every language as a badge. `prefix` leads from the page to the project."""
        lang = self.cfg.language
        rows: dict[str, list[Row]] = {"weekly": [], "daily": []}
        by_period: dict[tuple[str, str], list[Summary]] = defaultdict(list)
        for r in reports:
            by_period[(r.kind, r.period)].append(r)
        for (kind, period), group in sorted(
            by_period.items(), key=lambda kv: kv[0][1], reverse=True
        ):
            group.sort(key=lambda r: (r.lang != lang, r.lang))
            first = group[0]
            rows[kind].append(
                Row(
                    period=period,
                    title=first.title,
                    href=f"{prefix}{kind}/{period}.{group[0].lang}.html",
                    langs=[
                        (
                            Words(r.lang).tr("site_lang_name"),
                            f"{prefix}{kind}/{period}.{r.lang}.html",
                            r.lang,
                        )
                        for r in group
                    ],
                    stats=first.stats_dict,
                    merged=first.merged,
                )
            )
        return rows

    def project_feeds(self, project: str, langs: Sequence[Lang], prefix: str) -> list[Feed]:
        """The project's feeds as (title, href, hreflang): one per language, then all."""
        words = self.words
        feeds = [
            (
                words.tr("site_feed_lang", lang=Words(lang).tr("site_lang_name")) + " · " + project,
                f"{prefix}feed.{lang}.xml",
                html_lang(lang),
            )
            for lang in sorted(langs, key=lambda code: (code != self.cfg.language, code))
        ]
        if len(langs) > 1:
            feeds.append((words.tr("site_feed_once") + " · " + project, f"{prefix}feed.xml", ""))
        return feeds

    def chrome(self, home_href: str) -> PageChrome:
        words = self.words
        return PageChrome(
            site_title=self.cfg.title,
            home_href=home_href,
            footer=words.tr("site_generated_by"),
            search_href=home_href.replace("index.html", "search.html") if self.search else None,
            search_label=words.tr("site_search"),
        )

    def build_project(self, repo: str, reports: list[Summary], archive: Archive) -> Project:
        owner, name = reports[0].owner_name
        lang = self.cfg.language
        words = self.words
        project = reports[-1].project
        repo_url = reports[-1].repo_url
        rows = self.rows(reports)
        langs = sorted({r.lang for r in reports})
        feeds = self.project_feeds(project, langs, "")
        per_day = self.per_day(reports)
        activity, labels = self.daily_charts(per_day)
        risks = self.risk_chart(reports)
        months = [
            (
                words.tr("site_month_label", **month_words(m.month)),
                f"archive/{m.month}.html",
                words.tr("site_month_count", daily=len(m.daily), weekly=len(m.weekly)),
            )
            for m in archive.months()
        ]
        page = render_template(
            "html/project.html.j2",
            html_lang=html_lang(lang),
            page_title=words.tr("site_reports", project=project),
            description=words.tr("site_reports", project=project) + " — " + repo,
            canonical=self.base(f"{owner}/{name}/index.html"),
            feed_href=None,
            feed_title="",
            feeds=feeds,
            chrome=self.chrome("../../index.html"),
            tr=words.tr,
            project=project,
            repo=repo,
            repo_url=repo_url,
            weekly=rows["weekly"][:LATEST_WEEKLY],
            daily=rows["daily"][:LATEST_DAILY],
            more_weekly=len(rows["weekly"]) > LATEST_WEEKLY,
            more_daily=len(rows["daily"]) > LATEST_DAILY,
            months=months,
            activity_chart=activity,
            labels_chart=labels,
            risks_chart=risks,
        )
        self.put_page(f"{owner}/{name}/index.html", page)
        self.build_months(owner, name, project, reports, archive, feeds)
        self.build_feeds(repo, owner, name, project, reports)
        latest_daily = rows["daily"][0] if rows["daily"] else None
        latest_weekly = rows["weekly"][0] if rows["weekly"] else None
        last = max(per_day) if per_day else None
        spark_days = (
            [date.fromisoformat(last) - timedelta(days=k) for k in range(29, -1, -1)]
            if last
            else []
        )
        merged = [
            dict(per_day[d.isoformat()].stats or ()).get("merged_prs")
            if d.isoformat() in per_day
            else None
            for d in spark_days
        ]
        return Project(
            repo=repo,
            project=project,
            href=f"{owner}/{name}/index.html",
            prefix=f"{owner}/{name}/",
            feeds=self.project_feeds(project, langs, f"{owner}/{name}/"),
            count=len(rows["daily"]) + len(rows["weekly"]),
            latest=max(r.period for r in reports if r.kind == "daily")
            if latest_daily
            else max(r.period for r in reports),
            repo_url=repo_url,
            latest_daily=latest_daily,
            latest_weekly=latest_weekly,
            spark=charts.sparkline(merged, words.tr("site_spark")),
            reports=reports,
        )

    def put_page(self, rel: str, content: str | bytes) -> None:
        """A page that is not a report's own (project, month, feed, search): recorded, so
        a later build that no longer makes it removes it."""
        self.new_files.add(rel)
        self.output.put(rel, content)

    def build_months(
        self,
        owner: str,
        name: str,
        project: str,
        reports: list[Summary],
        archive: Archive,
        feeds: list[Feed],
    ) -> None:
        """A page per month: a calendar of its days and its weeks, each linked to its report."""
        words = self.words
        months = archive.months()
        weekdays = words.tr("site_weekdays").split()
        for k, month in enumerate(months):
            in_month = [r for r in reports if month_of(r.kind, r.period) == month.month]
            rows = self.rows(in_month, prefix="../")
            by_day = {row.period: row for row in rows["daily"]}
            year, number = (int(x) for x in month.month.split("-"))
            weeks = [
                [
                    (day.day, by_day.get(day.isoformat())) if day.month == number else None
                    for day in week
                ]
                for week in calendar.Calendar().monthdatescalendar(year, number)
            ]
            newer = months[k - 1].month if k > 0 else None
            older = months[k + 1].month if k + 1 < len(months) else None
            label = words.tr("site_month_label", **month_words(month.month))
            page = render_template(
                "html/month.html.j2",
                html_lang=html_lang(self.cfg.language),
                page_title=words.tr(
                    "site_month_title", project=project, **month_words(month.month)
                ),
                description=words.tr(
                    "site_month_count", daily=len(month.daily), weekly=len(month.weekly)
                ),
                canonical=self.base(f"{owner}/{name}/archive/{month.month}.html"),
                feed_href=None,
                feed_title="",
                feeds=[(t, "../" + h, lg) for t, h, lg in feeds],
                chrome=self.chrome("../../../index.html"),
                tr=words.tr,
                project=project,
                label=label,
                weekdays=weekdays,
                weeks=weeks,
                weekly=rows["weekly"],
                daily=rows["daily"],
                newer=(newer, f"{newer}.html") if newer else None,
                older=(older, f"{older}.html") if older else None,
            )
            self.put_page(f"{owner}/{name}/archive/{month.month}.html", page)

    def per_day(self, reports: Sequence[Summary]) -> dict[str, Summary]:
        """One daily report per day (both languages hold the same numbers): the site
        language's when there."""
        per_day: dict[str, Summary] = {}
        for r in reports:
            if r.kind != "daily":
                continue
            if r.period not in per_day or r.lang == self.cfg.language:
                per_day[r.period] = r
        return per_day

    def daily_charts(self, per_day: dict[str, Summary]) -> tuple[Markup, Markup]:
        if not per_day:
            return Markup(""), Markup("")
        last = date.fromisoformat(max(per_day))
        days = [last - timedelta(days=k) for k in range(29, -1, -1)]
        points: list[charts.DayCounts] = []
        label_counts: Counter[str] = Counter()
        timezone = ""
        for day in days:
            found = per_day.get(day.isoformat())
            stats = found.stats_dict if found else None
            if found is None or stats is None:
                points.append(charts.DayCounts(day.isoformat(), None, None, None))
                continue
            timezone = found.timezone
            points.append(
                charts.DayCounts(
                    day.isoformat(),
                    _total(stats, "new_issues", "new_prs"),
                    stats["merged_prs"],
                    _total(stats, "closed_issues", "closed_unmerged_prs"),
                )
            )
            for label, count in found.merged_labels:
                label_counts[label] += count
        words = self.words
        activity = charts.activity_chart(
            points,
            [
                words.tr("site_series_new"),
                words.tr("site_series_merged"),
                words.tr("site_series_closed"),
            ],
            words.tr("site_chart_activity"),
            y_title=words.tr("site_axis_items"),
            x_title=words.tr("site_axis_date", tz=timezone),
        )
        top = sorted(label_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
        return activity, charts.bar_chart(
            top, words.tr("site_chart_labels"), x_title=words.tr("site_axis_prs")
        )

    def risk_chart(self, reports: list[Summary]) -> Markup:
        per_week: dict[str, Summary] = {}
        for r in reports:
            if r.kind == "weekly" and (r.period not in per_week or r.lang == self.cfg.language):
                per_week[r.period] = r
        rows: list[tuple[str, dict[str, int]]] = [
            (week, {name: n for name, n in per_week[week].risk_tags})
            for week in sorted(per_week)[-12:]
        ]
        lang = self.cfg.language
        names: dict[str, str] = {
            name: tag_name(lang, name) for r in per_week.values() for name, _ in r.risk_tags
        }
        return charts.stacked_chart(
            rows, self.words.tr("site_chart_risks"), names, x_title=self.words.tr("site_axis_tags")
        )

    def feed(
        self,
        rel: str,
        feed_id: str,
        title: str,
        home: str,
        reports: Sequence[Summary],
        lang: Lang | None = None,
    ) -> None:
        """An Atom feed of `reports`, newest first, at most FEED_ENTRIES of them."""
        ordered = sorted(reports, key=lambda r: (r.end, r.kind, r.lang), reverse=True)
        folder = posixpath.dirname(rel) or "."
        entries = [
            FeedEntry(
                id=entry_id(r.repo, r.kind, r.period, r.lang),
                title=r.title,
                href=self.base(self.report_paths(r) + ".html")
                or posixpath.relpath(self.report_paths(r) + ".html", folder),
                updated=r.end,
                summary=r.summary,
                lang=r.lang,
            )
            for r in ordered[:FEED_ENTRIES]
        ]
        self.put_page(
            rel,
            atom_feed(
                feed_id=feed_id,
                title=title,
                self_href=self.base(rel) or rel.rsplit("/", 1)[-1],
                home_href=self.base(home) or posixpath.relpath(home, folder),
                entries=entries,
                fallback_updated=datetime(2000, 1, 1, tzinfo=UTC),
                lang=html_lang(lang) if lang else None,
            ),
        )

    def one_per_period(self, reports: Sequence[Summary]) -> list[Summary]:
        """Each report once: in the site's language when it exists in it, else the other."""
        chosen: dict[tuple[str, str, str], Summary] = {}
        for r in reports:
            slot = (r.repo, r.kind, r.period)
            if slot not in chosen or r.lang == self.cfg.language:
                chosen[slot] = r
        return list(chosen.values())

    def build_feeds(
        self, repo: str, owner: str, name: str, project: str, reports: list[Summary]
    ) -> None:
        """A feed per language (feed.zh.xml, feed.en.xml), and feed.xml with each report
        once (in the site's language where there), the address older sites published."""
        home = f"{owner}/{name}/index.html"
        for lang in sorted({r.lang for r in reports}):
            title = Words(lang).tr("site_reports", project=project)
            self.feed(
                f"{owner}/{name}/feed.{lang}.xml",
                entry_id(repo, "feed", "all", lang),
                title,
                home,
                [r for r in reports if r.lang == lang],
                lang,
            )
        self.feed(
            f"{owner}/{name}/feed.xml",
            entry_id(repo, "feed", "all", "all"),
            self.words.tr("site_reports", project=project),
            home,
            self.one_per_period(reports),
        )

    def remove_gone(self, repos: set[str]) -> None:
        """A report no longer in the reports folder leaves the site: its page and downloads,
        and its project's page and feed when it was the project's last report; so do the
        month pages, feeds and search files this build no longer makes. Only files the last
        build recorded are touched, so nothing else in --out is ever deleted."""
        for stem in sorted(set(self.pages) - set(self.new_pages)):
            for suffix in (".html", ".json", ".md", ".pdf"):
                self.output.remove(stem + suffix)
        live = {"/".join(stem.split("/", 2)[:2]).lower() for stem in self.new_pages}
        live |= {repo.lower() for repo in repos}
        for project in sorted({"/".join(stem.split("/", 2)[:2]) for stem in self.pages}):
            if project.lower() not in live:
                self.output.remove(f"{project}/index.html")
                self.output.remove(f"{project}/feed.xml")

    def remove_unmade(self) -> None:
        """Pages, feeds and search files an earlier build made and this one did not."""
        for rel in sorted(self.files - self.new_files):
            self.output.remove(rel)

    # -- search ---------------------------------------------------------------------------
    def build_search(self) -> None:
        """The search page and Pagefind's index of the report pages. The index is made again
        only when a page changed or went (or a file of it is missing): a build that adds
        nothing pays nothing for search."""
        words = self.words
        langs = sorted(
            {pagefind_lang(code) for code in self.languages} - {pagefind_lang(self.cfg.language)}
        )
        page = render_template(
            "html/search.html.j2",
            html_lang=html_lang(self.cfg.language),
            page_title=words.tr("site_search_title") + " · " + self.cfg.title,
            description=words.tr("site_search_hint"),
            canonical=self.base("search.html"),
            feed_href=None,
            feed_title="",
            chrome=self.chrome("index.html"),
            tr=words.tr,
            merge=langs,
        )
        self.put_page("search.html", page)
        pages_changed = any(
            rel.endswith(".html") and rel != "search.html"
            for rel in self.result.written + self.result.removed
        )
        old = {rel for rel in self.files if rel.startswith(search.FOLDER + "/")}
        if old and not pages_changed and all(self.output.exists(rel) for rel in old):
            self.new_files |= old
            return
        try:
            index = search.build_index(self.output.root, self.search_binary)  # type: ignore[arg-type]
        except (search.SearchError, OSError, subprocess.SubprocessError) as exc:
            raise TidingsError(
                f"the search index failed: {exc}",
                "set `search = false` under [site] to build without search, and report it",
            ) from exc
        for rel, data in index.items():
            self.put_page(rel, data)

    # -- the whole site -------------------------------------------------------------------
    def build(
        self, reports: list[Summary], inputs: InputCache, progress: Progress | None = None
    ) -> BuildResult:
        """Build the site from the reports' summaries; `inputs` (the scan that found them)
        is kept in the manifest for the next build."""
        self.progress = progress
        self.result.reports_parsed = inputs.parsed
        published = set(self.pages)
        if published and not published & {self.report_paths(r) for r in reports}:
            raise TidingsError(
                f"none of the {len(reports)} reports found is one of the {len(published)} "
                f"published in {self.out}: the build would remove every published report",
                f"check --from; to start a new site, delete {self.out} first",
            )
        self.languages = {r.lang for r in reports}
        projects = []
        grouped = _group(reports)
        total = len(reports)
        done = 0
        for repo, group in grouped.items():
            siblings = {(r.kind, r.period, r.lang) for r in group}
            archive = Archive(group)
            for r in group:
                self.build_report(r, siblings, archive)
                done += 1
                if progress:
                    progress("pages", done, total)
            projects.append(self.build_project(repo, group, archive))
        self.make_pdfs(progress)
        if self.pdfs_unreadable:
            self.result.warnings.append(skipped_line(self.pdfs_unreadable))
        words = self.words
        home = render_template(
            "html/home.html.j2",
            html_lang=html_lang(self.cfg.language),
            page_title=self.cfg.title,
            description=words.tr("site_home_description", n=len(projects)),
            canonical=self.base("index.html"),
            feed_href=None,
            feed_title="",
            feeds=[(words.tr("site_feed_site"), "feed.xml", "")],
            chrome=self.chrome("index.html"),
            tr=words.tr,
            projects=projects,
        )
        self.put_page("index.html", home)
        self.feed(
            "feed.xml",
            "tag:tidings,site:" + self.cfg.title,
            self.cfg.title,
            "index.html",
            self.one_per_period(reports),
        )
        self.remove_gone(set(grouped))
        if self.search:
            self.build_search()  # after the gone pages left the folder it indexes
        self.remove_unmade()
        kept = {rel: key for rel, key in self.manifest.items() if rel[:-4] in self.new_pages}
        manifest = {
            "pdf": dict(sorted((self.new_manifest if self.pdf else kept).items())),
            "pages": dict(sorted(self.new_pages.items())),
            "files": sorted(self.new_files),
            "inputs": inputs.to_json(),
        }
        # Compact: the C encoder writes it in one piece (an indented dump is built from many
        # small strings, a peak that grew with the archive).
        self.output.put(
            MANIFEST, json.dumps(manifest, sort_keys=True, separators=(",", ":")) + "\n"
        )
        self.result.reports = len(reports)
        self.result.projects = len(projects)
        return self.result


def _scan_and_build(
    builder: SiteBuilder, source: Path, warnings: list[str], progress: Progress | None
) -> BuildResult:
    """Find the reports under `source` with the help of the last build's record of them
    (read by `builder` under the build lock), then build. Nothing is written before the
    reports are found, so a wrong --from leaves the site as it was."""
    inputs = InputCache.load(builder.saved_inputs, source, _code_digest())
    builder.saved_inputs = None  # held once, by the cache, which drops what it reads
    copies: list[str] = []
    reports = find_reports(source, exclude=builder.out, warnings=copies, cache=inputs)
    warnings[:0] = copies
    if not reports:
        raise TidingsError(
            f"no reports found in {source}",
            "pass --from the folder that `tidings run` writes reports to (report JSON files)",
        )
    return builder.build(reports, inputs, progress)


def check_folders(source: Path, out: Path) -> None:
    """Refuse folder pairs that would lose reports: the site replaces its folder on every
    build, so the reports must not live in it. (A site inside the reports folder is fine:
    `tidings demo` writes DIR/daily and DIR/site, and the site's copies are not read back.)"""
    src, dst = source.resolve(), out.resolve()
    if src == dst:
        raise TidingsError(
            f"--from and --out are the same folder ({source})",
            "build the site into its own folder, e.g. --out site",
        )
    if dst in src.parents:
        raise TidingsError(
            f"--from {source} is inside --out {out}: every build replaces that folder",
            "keep the reports outside the site folder",
        )
    if dst.is_dir() and not (dst / MANIFEST).is_file() and holds_reports(dst):
        # e.g. --out reports/daily: the site would be built into the reports it reads
        raise TidingsError(
            f"--out {out} holds reports and no site built by tidings",
            "build the site into its own folder, e.g. --out site",
        )


def build_site(
    source: Path,
    out: Path,
    cfg: SiteConfig | None = None,
    *,
    pdf: bool | None = None,
    progress: Progress | None = None,
) -> BuildResult:
    """Build the site from the report JSON files under `source` and publish it at `out`
    whole: built beside it and swapped in (site/publish.py). Nothing at `out` changes when
    the build fails, finds no reports, or would remove every report published there."""
    check_folders(source, out)
    warnings: list[str] = []
    target = publish.published_folder(out)
    cfg = cfg or SiteConfig()
    if cfg.search and search.executable() is None:
        warnings.append(search.off_reason())
    with publish.build_lock(target):
        publish.recover(target)
        staging, dropped, in_place = None, 0, ""
        if target.is_dir() and os.path.ismount(target):
            in_place = "is a mount point"  # cannot be renamed
        else:
            try:
                staging, dropped = publish.stage(target)
            except PermissionError:  # e.g. a web root you own in a folder you do not
                in_place = "is in a folder you cannot write to"
            except OSError as exc:
                raise write_error(
                    publish.staging_path(target), exc, "choose a writable --out folder"
                ) from exc
        if staging is None:
            warnings.append(
                f"{out} {in_place}: built in place, file by file, not swapped in whole "
                "(docs/site.md)"
            )
            publish.remove_temp_files(target)
            builder = SiteBuilder(cfg, out, pdf=pdf, root=target)
            result = _scan_and_build(builder, source, warnings, progress)
        else:
            try:
                builder = SiteBuilder(cfg, out, pdf=pdf, root=staging)
                result = _scan_and_build(builder, source, warnings, progress)
                if result.written or result.removed or dropped or not target.exists():
                    publish.swap(staging, target)
                else:
                    publish.discard(staging)  # nothing changed: the published site untouched
            except BaseException:
                publish.discard(staging)
                raise
    result.warnings = warnings + result.warnings  # the build's own (PDFs left out) last
    return result


def _total(stats: dict[str, int | None], *keys: str) -> int | None:
    """The sum of some of a day's counts; None when any is unknown (a git-only store's new
    and closed items), so the chart leaves a gap rather than plotting a zero."""
    values = [stats[k] for k in keys]
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)
