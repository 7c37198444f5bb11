"""The static site: home, project pages, report pages with downloads, feeds and charts.

Built from report JSON files (site/sources.py), deterministically: the same reports give the
same bytes, and a file is written only when its bytes differ, so a rebuild with nothing new
touches nothing and a rebuild with one new report touches only the pages that list it. PDFs,
the expensive part, are made when their reports are written (render/pdf.py) and copied from
there when current; otherwise made here in parallel (render/pdf.py again), keyed in a small
manifest. Reports are read as their typed models (site/sources.py, report/kinds.py). A report gone
from the source takes its files with it.

Layout (all links relative, so the site works from any base path or straight from disk):

    index.html                                  projects
    OWNER/REPO/index.html                       reports newest first, charts
    OWNER/REPO/feed.xml                         Atom
    OWNER/REPO/KIND/PERIOD.LANG.{html,md,json,pdf}
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections import Counter, defaultdict
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Any

from markupsafe import Markup

from tidings.config import GiscusConfig, Lang, SiteConfig
from tidings.errors import TidingsError
from tidings.outputs import atomic_file, file_mode, write_error
from tidings.progress import Progress
from tidings.render.html import (
    Giscus,
    PageChrome,
    Words,
    render_html,
    render_template,
    report_title,
)
from tidings.render.markdown import render_markdown
from tidings.render.pdf import current_pdf, pdf_key, print_html, render_pdfs
from tidings.report.model import DailyReport
from tidings.report.weekly_model import WeeklyReport
from tidings.site import charts, publish
from tidings.site.feed import FeedEntry, atom_feed, entry_id
from tidings.site.sources import ReportFile, find_reports

MANIFEST = ".tidings-site.json"


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
    files += [root / "site" / "build.py", root / "site" / "charts.py"]
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


def _summary(r: ReportFile) -> str:
    """The report's opening paragraph: the feed entry's summary."""
    report = r.report
    if isinstance(report, DailyReport):
        return report.summary.text.text
    return report.summary.text


def _updated(r: ReportFile) -> datetime:
    """When a report's window ended: its feed entry's time."""
    return r.report.window.end


def risk_counts(report: WeeklyReport) -> dict[str, int]:
    """How often each risk tag fired in a weekly report's merged PRs, most common first."""
    return {row.name: row.count for row in report.executive_summary.by_risk_tag}


def _group(reports: Sequence[ReportFile]) -> dict[str, list[ReportFile]]:
    by_repo: dict[str, list[ReportFile]] = defaultdict(list)
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
        try:
            saved = json.loads(manifest.read_text("utf-8"))
            self.manifest: dict[str, str] = dict(saved["pdf"])
            self.pages: dict[str, str] = dict(saved.get("pages", {}))
        except (OSError, ValueError, KeyError, TypeError):
            self.manifest, self.pages = {}, {}
        # A hand-edited manifest may name pages outside the folder: they were never published
        # here, so they count neither for removal nor for "would remove every report".
        self.pages = {stem: key for stem, key in self.pages.items() if self.output.inside(stem)}
        self.new_manifest: dict[str, str] = {}
        self.new_pages: dict[str, str] = {}
        self.settings_key = json.dumps(
            [cfg.model_dump(mode="json"), self.pdf, _code_digest()], sort_keys=True
        )
        self.pdf_jobs: list[tuple[str, str]] = []

    def base(self, rel: str) -> str | None:
        if not self.cfg.base_url:
            return None
        return self.cfg.base_url.rstrip("/") + "/" + rel

    # -- report pages ---------------------------------------------------------------------
    def report_paths(self, r: ReportFile) -> str:
        owner, name = r.owner_name
        return f"{owner}/{name}/{r.kind}/{r.period}.{r.lang}"

    def build_report(self, r: ReportFile, siblings: set[tuple[str, str, Lang]]) -> None:
        stem = self.report_paths(r)
        leaf = stem.rsplit("/", 1)[1]
        other = "en" if r.lang == "zh" else "zh"
        has_other = (r.kind, r.period, other) in siblings
        # A page is a function of its report, its twin's existence, the settings and this
        # code: when none changed since the last build, its files are already right.
        key = hashlib.sha256(
            b"\0".join(
                [
                    r.raw,
                    r.markdown_path.read_bytes() if r.markdown_path else b"",
                    str(has_other).encode(),
                    self.settings_key.encode(),
                ]
            )
        ).hexdigest()
        self.new_pages[stem] = key
        outputs = [".html", ".json"] + ([".pdf"] if self.pdf else [])
        if self.pages.get(stem) == key and all(self.output.exists(stem + x) for x in outputs):
            if self.pdf:
                self.new_manifest[stem + ".pdf"] = self.manifest.get(stem + ".pdf", "")
            self.result.unchanged += len(outputs) + (1 if self.output.exists(stem + ".md") else 0)
            return
        markdown = render_markdown(r.report)
        downloads = [("Markdown", f"{leaf}.md")]
        if self.pdf:
            downloads.append(("PDF", f"{leaf}.pdf"))
        downloads.append(("JSON", f"{leaf}.json"))
        words = Words(r.lang)
        chrome = PageChrome(
            site_title=self.cfg.title,
            home_href="../../../index.html",
            footer=words.tr("site_generated_by"),
            project=r.project,
            back_href="../index.html",
            github_href=r.repo_url,
            feed_href="../feed.xml",
            downloads=tuple(downloads),
            other_lang_href=f"{r.period}.{other}.html" if has_other else None,
            other_lang=other if has_other else None,
            discussion_href=_discussion_href(self.cfg),
            giscus=_giscus(self.cfg),
        )
        page = render_html(r.report, chrome, canonical=self.base(stem + ".html"))
        self.output.put(stem + ".html", page)
        self.output.put(stem + ".json", r.raw)
        self.output.put(stem + ".md", markdown)
        if self.pdf:
            self.queue_pdf(stem + ".pdf", r)

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

    def make_pdfs(self, progress: Progress | None) -> None:
        jobs = self.pdf_jobs
        with closing(render_pdfs([html for _, html in jobs])) as results:
            for done, ((rel, _), data) in enumerate(zip(jobs, results, strict=True), start=1):
                self.output.put(rel, data)
                if progress:
                    progress("PDF", done, len(jobs))
        self.result.pdfs_made = len(jobs)

    # -- project pages --------------------------------------------------------------------
    def build_project(self, repo: str, reports: list[ReportFile]) -> dict[str, Any]:
        owner, name = reports[0].owner_name
        lang = self.cfg.language
        words = self.words
        project = reports[-1].project
        repo_url = reports[-1].repo_url
        rows: dict[str, list[dict[str, Any]]] = {"weekly": [], "daily": []}
        by_period: dict[tuple[str, str], list[ReportFile]] = defaultdict(list)
        for r in reports:
            by_period[(r.kind, r.period)].append(r)
        for (kind, period), group in sorted(
            by_period.items(), key=lambda kv: kv[0][1], reverse=True
        ):
            group.sort(key=lambda r: (r.lang != lang, r.lang))
            main = group[0]
            report = main.report
            stats = report.stats.model_dump() if isinstance(report, DailyReport) else None
            rows[kind].append(
                {
                    "period": period,
                    "title": report_title(report),
                    "href": f"{kind}/{period}.{main.lang}.html",
                    "langs": [
                        (
                            Words(r.lang).tr("site_lang_name"),
                            f"{kind}/{period}.{r.lang}.html",
                            r.lang,
                        )
                        for r in group
                    ],
                    "stats": stats,
                }
            )
        activity, labels = self.daily_charts(reports)
        risks = self.risk_chart(reports)
        page = render_template(
            "html/project.html.j2",
            html_lang="zh-CN" if lang == "zh" else "en",
            page_title=words.tr("site_reports", project=project),
            canonical=self.base(f"{owner}/{name}/index.html"),
            feed_href="feed.xml",
            feed_title=words.tr("site_reports", project=project),
            chrome=PageChrome(
                site_title=self.cfg.title,
                home_href="../../index.html",
                footer=words.tr("site_generated_by"),
            ),
            tr=words.tr,
            project=project,
            repo=repo,
            repo_url=repo_url,
            weekly=rows["weekly"],
            daily=rows["daily"],
            activity_chart=activity,
            labels_chart=labels,
            risks_chart=risks,
        )
        self.output.put(f"{owner}/{name}/index.html", page)
        self.build_feed(repo, owner, name, project, reports)
        latest = max((r.period for r in reports if r.kind == "daily"), default="")
        return {
            "repo": repo,
            "project": project,
            "href": f"{owner}/{name}/index.html",
            "feed": f"{owner}/{name}/feed.xml",
            "count": len(by_period),
            "latest": latest or max(r.period for r in reports),
            "repo_url": repo_url,
        }

    def daily_charts(self, reports: list[ReportFile]) -> tuple[Markup, Markup]:
        # One report per day (both languages hold the same numbers): prefer the site language.
        per_day: dict[str, ReportFile] = {}
        for r in reports:
            if r.kind != "daily":
                continue
            if r.period not in per_day or r.lang == self.cfg.language:
                per_day[r.period] = r
        if not per_day:
            return Markup(""), Markup("")
        last = date.fromisoformat(max(per_day))
        days = [last - timedelta(days=k) for k in range(29, -1, -1)]
        points: list[charts.DayCounts] = []
        label_counts: Counter[str] = Counter()
        for day in days:
            found = per_day.get(day.isoformat())
            report = found.report if found else None
            if not isinstance(report, DailyReport):
                points.append(charts.DayCounts(day.isoformat(), None, None, None))
                continue
            stats = report.stats
            points.append(
                charts.DayCounts(
                    day.isoformat(),
                    stats.new_issues + stats.new_prs,
                    stats.merged_prs,
                    stats.closed_issues + stats.closed_unmerged_prs,
                )
            )
            for ref in report.appendix.merged_prs:
                for label in ref.labels:
                    label_counts[label] += 1
        words = self.words
        activity = charts.activity_chart(
            points,
            [
                words.tr("site_series_new"),
                words.tr("site_series_merged"),
                words.tr("site_series_closed"),
            ],
            words.tr("site_chart_activity"),
        )
        top = sorted(label_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:15]
        return activity, charts.bar_chart(top, words.tr("site_chart_labels"))

    def risk_chart(self, reports: list[ReportFile]) -> Markup:
        per_week: dict[str, WeeklyReport] = {}
        for r in reports:
            if isinstance(r.report, WeeklyReport) and (
                r.period not in per_week or r.lang == self.cfg.language
            ):
                per_week[r.period] = r.report
        rows = [(week, risk_counts(per_week[week])) for week in sorted(per_week)[-12:]]
        return charts.stacked_chart(rows, self.words.tr("site_chart_risks"))

    def build_feed(
        self, repo: str, owner: str, name: str, project: str, reports: list[ReportFile]
    ) -> None:
        rel = f"{owner}/{name}/feed.xml"
        ordered = sorted(reports, key=lambda r: (_updated(r), r.kind, r.lang), reverse=True)
        entries = [
            FeedEntry(
                id=entry_id(repo, r.kind, r.period, r.lang),
                title=report_title(r.report),
                href=self.base(self.report_paths(r) + ".html")
                or f"{r.kind}/{r.period}.{r.lang}.html",
                updated=_updated(r),
                summary=_summary(r),
                lang=r.lang,
            )
            for r in ordered
        ]
        self.output.put(
            rel,
            atom_feed(
                feed_id=entry_id(repo, "feed", "all", "all"),
                title=self.words.tr("site_reports", project=project),
                self_href=self.base(rel) or "feed.xml",
                home_href=self.base(f"{owner}/{name}/index.html") or "index.html",
                entries=entries,
                fallback_updated=datetime(2000, 1, 1, tzinfo=UTC),
            ),
        )

    def remove_gone(self, repos: set[str]) -> None:
        """A report no longer in the reports folder leaves the site: its page and downloads,
        and its project's page and feed when it was the project's last report. Only files
        the last build recorded are touched, so nothing else in --out is ever deleted."""
        for stem in sorted(set(self.pages) - set(self.new_pages)):
            for suffix in (".html", ".json", ".md", ".pdf"):
                self.output.remove(stem + suffix)
        live = {"/".join(stem.split("/", 2)[:2]).lower() for stem in self.new_pages}
        live |= {repo.lower() for repo in repos}
        for project in sorted({"/".join(stem.split("/", 2)[:2]) for stem in self.pages}):
            if project.lower() not in live:
                self.output.remove(f"{project}/index.html")
                self.output.remove(f"{project}/feed.xml")

    # -- the whole site -------------------------------------------------------------------
    def build(self, reports: list[ReportFile], progress: Progress | None = None) -> BuildResult:
        published = set(self.pages)
        if published and not published & {self.report_paths(r) for r in reports}:
            raise TidingsError(
                f"none of the {len(reports)} reports found is one of the {len(published)} "
                f"published in {self.out}: the build would remove every published report",
                f"check --from; to start a new site, delete {self.out} first",
            )
        projects = []
        grouped = _group(reports)
        total = len(reports)
        done = 0
        for repo, group in grouped.items():
            siblings = {(r.kind, r.period, r.lang) for r in group}
            for r in group:
                self.build_report(r, siblings)
                done += 1
                if progress:
                    progress("pages", done, total)
            projects.append(self.build_project(repo, group))
        self.make_pdfs(progress)
        words = self.words
        home = render_template(
            "html/home.html.j2",
            html_lang="zh-CN" if self.cfg.language == "zh" else "en",
            page_title=self.cfg.title,
            canonical=self.base("index.html"),
            feed_href=None,
            feed_title="",
            chrome=PageChrome(
                site_title=self.cfg.title,
                home_href="index.html",
                footer=words.tr("site_generated_by"),
            ),
            tr=words.tr,
            projects=projects,
        )
        self.output.put("index.html", home)
        self.remove_gone(set(grouped))
        kept = {rel: key for rel, key in self.manifest.items() if rel[:-4] in self.new_pages}
        manifest = {
            "pdf": dict(sorted((self.new_manifest if self.pdf else kept).items())),
            "pages": dict(sorted(self.new_pages.items())),
        }
        self.output.put(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True) + "\n")
        self.result.reports = len(reports)
        self.result.projects = len(projects)
        return self.result


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
    if dst.is_dir() and not (dst / MANIFEST).is_file() and find_reports(dst):
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
    reports = find_reports(source, exclude=out, warnings=warnings)
    if not reports:
        raise TidingsError(
            f"no reports found in {source}",
            "pass --from the folder that `tidings run` writes reports to (report JSON files)",
        )
    target = publish.published_folder(out)
    cfg = cfg or SiteConfig()
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
            result = SiteBuilder(cfg, out, pdf=pdf, root=target).build(reports, progress)
        else:
            try:
                result = SiteBuilder(cfg, out, pdf=pdf, root=staging).build(reports, progress)
                if result.written or result.removed or dropped or not target.exists():
                    publish.swap(staging, target)
                else:
                    publish.discard(staging)  # nothing changed: the published site untouched
            except BaseException:
                publish.discard(staging)
                raise
    result.warnings = warnings
    return result
