"""The static site: home, project pages, report pages with downloads, feeds and charts.

Built from report JSON files (site/sources.py), deterministically: the same reports give the
same bytes, and a file is written only when its bytes differ (site/output.py), so a rebuild
with nothing new touches nothing and a rebuild with one new report touches only the pages that
list it. A report gone from the source takes its files with it (site/cleanup.py). The site is
built beside the published one and swapped in whole (site/publish.py).

Memory does not grow with the archive: the lists, feeds, charts and links are built from a small
summary of each report (site/sources.py), kept in the manifest (site/manifest.py) with the
report file's stat and hash, so an unchanged report is not parsed at all; a report is read whole
only while its own page is rendered, one at a time (site/report_pages.py).

This module runs a build in order; the parts are their own modules: report pages and their
PDFs (report_pages.py, pdfs.py), project and month pages with their charts (project_pages.py,
month_pages.py, activity.py), feeds (feeds.py), the home page (home.py) and search
(search_page.py). The layout of the folder is site/layout.py.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tidings.common.config import SiteConfig
from tidings.common.outputs import write_error
from tidings.common.progress import Progress
from tidings.errors import TidingsError
from tidings.render.fonts import fonts_key
from tidings.render.pdf import skipped_line
from tidings.site import publish, search
from tidings.site.archive import Archive
from tidings.site.cleanup import remove_gone, remove_unmade
from tidings.site.context import SiteContext
from tidings.site.home import write_home
from tidings.site.layout import report_stem
from tidings.site.manifest import MANIFEST, code_digest, read_manifest, write_manifest
from tidings.site.output import BuildResult, Output
from tidings.site.pdfs import PdfQueue
from tidings.site.project_pages import Project, write_project
from tidings.site.report_pages import ReportPages
from tidings.site.search_bundles import BUNDLE_BYTES
from tidings.site.search_page import write_search
from tidings.site.sources import InputCache, Summary, find_reports, holds_reports


def _group(reports: Sequence[Summary]) -> dict[str, list[Summary]]:
    by_repo: dict[str, list[Summary]] = defaultdict(list)
    for r in reports:
        by_repo[r.repo].append(r)
    return dict(sorted(by_repo.items(), key=lambda kv: kv[0].lower()))


class SiteBuilder:
    """Builds the site `out` into `root`: its staging copy (site/publish.py), or `out` itself."""

    def __init__(
        self,
        cfg: SiteConfig,
        out: Path,
        *,
        pdf: bool | None = None,
        root: Path | None = None,
        search_bundle_bytes: int = BUNDLE_BYTES,
    ) -> None:
        self.cfg = cfg
        self.out = out
        root = root or out
        self.pdf = cfg.pdf if pdf is None else pdf
        self.result = BuildResult(out=out)
        self.output = Output(root, self.result, shown=out)
        self.saved = read_manifest(root, self.output.inside)
        self.saved_inputs = self.saved.inputs  # the last build's record of its inputs
        self.saved.inputs = None
        self.search_binary = search.executable() if cfg.search else None
        self.ctx = SiteContext(
            cfg,
            self.output,
            search=self.search_binary is not None,
            search_bundle_bytes=search_bundle_bytes,
        )
        self.pdfs = PdfQueue(self.output, self.saved.pdf)
        # The fonts too, when there are PDFs: a font installed makes every PDF again.
        settings_key = json.dumps(
            [cfg.model_dump(mode="json"), self.pdf and fonts_key(), code_digest()],
            sort_keys=True,
        )
        self.report_pages = ReportPages(
            self.ctx, self.pdfs, saved=self.saved.pages, settings_key=settings_key, pdf=self.pdf
        )

    def build(
        self, reports: list[Summary], inputs: InputCache, progress: Progress | None = None
    ) -> BuildResult:
        """Build the site from the reports' summaries; `inputs` (the scan that found them)
        is kept in the manifest for the next build."""
        self.pdfs.progress = progress
        self.result.reports_parsed = inputs.parsed
        published = set(self.saved.pages)
        if published and not published & {report_stem(r) for r in reports}:
            raise TidingsError(
                f"none of the {len(reports)} reports found is one of the {len(published)} "
                f"published in {self.out}: the build would remove every published report",
                f"check --from; to start a new site, delete {self.out} first",
            )
        grouped = _group(reports)
        projects = self._write_projects(grouped, len(reports), progress)
        self.pdfs.make()
        if self.pdfs.unreadable:
            self.result.warnings.append(skipped_line(self.pdfs.unreadable))
        write_home(self.ctx, projects, reports)
        made_pages = self.report_pages.made
        remove_gone(self.output, self.saved.pages, made_pages, grouped)
        search_state: dict[str, Any] = {}
        if self.search_binary is not None:
            search_state = write_search(
                self.ctx,
                made_pages,
                self.saved.files,
                self.saved.search,
                self.search_binary,
                progress,
            )
        remove_unmade(self.output, self.saved.files, self.ctx.made)
        kept = {rel: key for rel, key in self.saved.pdf.items() if rel[:-4] in made_pages}
        write_manifest(
            self.output,
            pdf=self.pdfs.made if self.pdf else kept,
            pages=made_pages,
            files=self.ctx.made,
            inputs=inputs.to_json(),
            search=search_state,
        )
        self.result.reports = len(reports)
        self.result.projects = len(projects)
        return self.result

    def _write_projects(
        self, grouped: dict[str, list[Summary]], total: int, progress: Progress | None
    ) -> list[Project]:
        """Each project's report pages, then its own pages; its card for the home page."""
        projects = []
        done = 0
        for repo, group in grouped.items():
            siblings = {(r.kind, r.period, r.lang) for r in group}
            archive = Archive(group)
            for r in group:
                self.report_pages.build(r, siblings, archive)
                done += 1
                if progress:
                    progress("pages", done, total)
            projects.append(write_project(self.ctx, repo, group, archive))
        return projects


def _scan_and_build(
    builder: SiteBuilder, source: Path, warnings: list[str], progress: Progress | None
) -> BuildResult:
    """Find the reports under `source` with the help of the last build's record of them
    (read by `builder` under the build lock), then build. Nothing is written before the
    reports are found, so a wrong --from leaves the site as it was."""
    inputs = InputCache.load(builder.saved_inputs, source, code_digest())
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
    search_bundle_bytes: int = BUNDLE_BYTES,
) -> BuildResult:
    """Build the site from the report JSON files under `source` and publish it at `out`
    whole: built beside it and swapped in (site/publish.py). Nothing at `out` changes when
    the build fails, finds no reports, or would remove every report published there.
    `search_bundle_bytes`: the most report HTML one search bundle indexes (a smaller one
    splits a small archive, as benchmarks and tests do)."""
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
            builder = SiteBuilder(
                cfg, out, pdf=pdf, root=target, search_bundle_bytes=search_bundle_bytes
            )
            result = _scan_and_build(builder, source, warnings, progress)
        else:
            try:
                builder = SiteBuilder(
                    cfg, out, pdf=pdf, root=staging, search_bundle_bytes=search_bundle_bytes
                )
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
