"""Finding report JSON files and reading them into typed reports (report/kinds.py).

A report is found by its content, not its path: any `*.json` under the folder whose object has
`kind`, `repo` and `lang` is one. `tidings demo` (DIR/daily/...) and `tidings run`
(REPORTS/OWNER/REPO/daily/...) layouts both work, and so does a folder of downloads.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from tidings.config import Lang
from tidings.errors import TidingsError
from tidings.render.html import safe_url
from tidings.report.kinds import Report, report_kind, validate_report
from tidings.report.model import DailyReport


@dataclass
class ReportFile:
    """A report found in the reports folder: its typed model, and the file it came from."""

    path: Path
    raw: bytes  # the JSON as written: the site's JSON download is these bytes
    report: Report
    period: str  # YYYY-MM-DD for daily, YYYY-Www for weekly: the page's file name
    markdown_path: Path | None  # a Markdown file written beside the JSON, if any

    @property
    def kind(self) -> str:
        return self.report.kind

    @property
    def repo(self) -> str:
        return self.report.repo

    @property
    def lang(self) -> Lang:
        return self.report.lang

    @property
    def owner_name(self) -> tuple[str, str]:
        owner, name = self.repo.split("/", 1)
        return owner, name

    @property
    def project(self) -> str:
        return self.report.project or self.repo.split("/", 1)[1]

    @property
    def repo_url(self) -> str:
        """The repository's web URL for the site's links: the report's own when it is a plain
        http(s) URL (GitHub Enterprise included), else github.com's — never a javascript: one."""
        return safe_url(self.report.repo_url) or f"https://github.com/{self.repo}"

    @property
    def generated_at(self) -> datetime:
        moment = self.report.provenance.generated_at
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _period(report: Report, path: Path) -> str:
    period = report.date if isinstance(report, DailyReport) else report.week
    return period or path.name.split(".", 1)[0]


_PERIOD_SAFE = set("0123456789-WQw_")


def read_report(path: Path) -> ReportFile | None:
    """The report in `path`, or None when the file is JSON but not a tidings report."""
    return parse_report(path, path.read_bytes())


def parse_report(path: Path, raw: bytes) -> ReportFile | None:
    """The report in `raw` (JSON read from, or about to be written to, `path`), or None when
    it is JSON but not a tidings report."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if report_kind(data) is None:
        return None
    report = validate_report(data, path)
    period = _period(report, path)
    if not set(period) <= _PERIOD_SAFE:  # it becomes a file name
        raise TidingsError(
            f"{path}: report period {period!r} is not a date or an ISO week",
            "regenerate the report with `tidings report`",
        )
    sibling = path.with_suffix(".md")
    return ReportFile(
        path=path,
        raw=raw,
        report=report,
        period=period,
        markdown_path=sibling if sibling.is_file() else None,
    )


def find_reports(
    root: Path, exclude: Path | None = None, warnings: list[str] | None = None
) -> list[ReportFile]:
    """Every report under `root`, in a stable order (repository, kind, period, language).

    `exclude` is a folder to leave out: the site itself when it is built inside the reports
    folder (`tidings demo` writes DIR/daily and DIR/site), whose JSON downloads are copies.
    Two files holding the same report (an old copy in a subfolder, a download saved beside
    the original) publish the one generated last; each copy passed over adds a line to
    `warnings`."""
    skip = exclude.resolve() if exclude is not None else None
    if not root.is_dir():
        raise TidingsError(
            f"reports folder {root} not found", "pass --from DIR with report JSON files"
        )
    # Built sites under the folder hold copies of reports (their JSON downloads): leave out
    # every folder with a site manifest, e.g. DIR/site beside the demo's DIR/daily.
    sites = [p.parent.resolve() for p in root.rglob(".tidings-site.json")]
    copies: dict[tuple[str, str, str, str], list[ReportFile]] = {}
    for path in sorted(root.rglob("*.json")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        parents = path.resolve().parents
        if (skip is not None and skip in parents) or any(site in parents for site in sites):
            continue
        report = read_report(path)
        if report is not None:
            copies.setdefault((report.repo, report.kind, report.period, report.lang), []).append(
                report
            )
    found = []
    for group in copies.values():
        # The newest wins; equal or unknown times fall back to the path, so the choice is
        # the same on every build.
        group.sort(key=lambda r: (r.generated_at, str(r.path)))
        chosen = group[-1]
        found.append(chosen)
        for other in group[:-1]:
            if warnings is not None and other.raw != chosen.raw:  # a true copy is harmless
                warnings.append(
                    f"two copies of the {chosen.kind} report {chosen.repo} {chosen.period} "
                    f"({chosen.lang}): publishing {chosen.path} "
                    f"(generated {_when(chosen)}), not {other.path} (generated {_when(other)})"
                )
    return sorted(found, key=lambda r: (r.repo.lower(), r.kind, r.period, r.lang))


def _when(r: ReportFile) -> str:
    return r.generated_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
