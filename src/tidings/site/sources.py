"""Finding report JSON files and reading them into typed reports, dispatching on `kind`.

A report is found by its content, not its path: any `*.json` under the folder whose object has
`kind`, `repo` and `lang` is one. `tidings demo` (DIR/daily/...) and `tidings run`
(REPORTS/OWNER/REPO/daily/...) layouts both work, and so does a folder of downloads.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from tidings.config import REPO_NAME
from tidings.errors import TidingsError

KINDS = ("daily", "weekly")


@dataclass(frozen=True)
class KindSpec:
    """How a kind of report is read and rendered. `model` None: shown by the generic page."""

    kind: str
    model: type[BaseModel] | None
    markdown: Callable[[Any], str] | None
    html: Callable[..., str] | None


def kind_spec(kind: str) -> KindSpec:
    """The reader and renderers of a kind; weekly ones are picked up once report/weekly.py and
    its renderers exist, and until then weekly reports use the generic page."""
    if kind == "daily":
        from tidings.render.html import render_daily_html
        from tidings.render.markdown import render_daily_markdown
        from tidings.report.model import DailyReport

        return KindSpec("daily", DailyReport, render_daily_markdown, render_daily_html)
    model = _optional("tidings.report.weekly", "WeeklyReport")
    markdown = _optional("tidings.render.markdown", f"render_{kind}_markdown")
    html = _optional("tidings.render.html", f"render_{kind}_html")
    # A model without its HTML renderer would lose nothing by the generic page, so keep the
    # three together: typed only when all exist.
    if model is None or html is None:
        return KindSpec(kind, None, markdown, None)
    return KindSpec(kind, model, markdown, html)


def _optional(module: str, name: str) -> Any:
    try:
        mod = __import__(module, fromlist=[name])
    except ImportError:
        return None
    return getattr(mod, name, None)


@dataclass
class ReportFile:
    path: Path
    raw: bytes  # the JSON as written: the site's JSON download is these bytes
    data: dict[str, Any]
    kind: str
    repo: str
    lang: str
    period: str  # YYYY-MM-DD for daily, YYYY-Www for weekly
    report: Any  # the typed model, or None for the generic page
    markdown_path: Path | None  # a Markdown file written beside the JSON, if any

    @property
    def owner_name(self) -> tuple[str, str]:
        owner, name = self.repo.split("/", 1)
        return owner, name

    @property
    def project(self) -> str:
        return str(self.data.get("project") or self.repo.split("/", 1)[1])

    @property
    def repo_url(self) -> str:
        """The repository's web URL for the site's links: the report's own when it is a plain
        http(s) URL (GitHub Enterprise included), else github.com's — never a javascript: one."""
        from tidings.render.html import safe_url

        url = self.data.get("repo_url")
        return safe_url(url if isinstance(url, str) else None) or f"https://github.com/{self.repo}"


def _period(data: dict[str, Any], path: Path) -> str:
    for key in ("date", "week", "period"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return path.name.split(".", 1)[0]


_PERIOD_SAFE = set("0123456789-WQw_")


def read_report(path: Path) -> ReportFile | None:
    """The report in `path`, or None when the file is JSON but not a tidings report."""
    return parse_report(path, path.read_bytes())


def parse_report(path: Path, raw: bytes) -> ReportFile | None:
    """The report in `raw` (JSON read from, or about to be written to, `path`)."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or data.get("kind") not in KINDS:
        return None
    repo, lang = data.get("repo"), data.get("lang")
    if not isinstance(repo, str) or not REPO_NAME.match(repo) or lang not in ("zh", "en"):
        return None
    period = _period(data, path)
    if not set(period) <= _PERIOD_SAFE:  # it becomes a file name
        raise TidingsError(
            f"{path}: report period {period!r} is not a date or an ISO week",
            "regenerate the report with `tidings report`",
        )
    spec = kind_spec(data["kind"])
    report = None
    if spec.model is not None:
        try:
            report = spec.model.model_validate(data)
        except ValidationError as exc:
            raise TidingsError(
                f"{path}: not a valid {data['kind']} report ({exc.errors()[0]['msg']})",
                "regenerate it with this version of tidings",
            ) from exc
    sibling = path.with_suffix(".md")
    return ReportFile(
        path=path,
        raw=raw,
        data=data,
        kind=data["kind"],
        repo=repo,
        lang=lang,
        period=period,
        report=report,
        markdown_path=sibling if sibling.is_file() else None,
    )


def generated_at(data: dict[str, Any]) -> datetime | None:
    """When a report was generated (`provenance.generated_at`, or the weekly's top-level
    `generated_at`), None when it does not say."""
    prov = data.get("provenance")
    for value in (
        prov.get("generated_at") if isinstance(prov, dict) else None,
        data.get("generated_at"),
    ):
        if isinstance(value, str):
            try:
                moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
            except ValueError:
                continue
            return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return None


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
        group.sort(key=lambda r: (generated_at(r.data) or _NEVER, str(r.path)))
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


_NEVER = datetime.min.replace(tzinfo=UTC)


def _when(r: ReportFile) -> str:
    moment = generated_at(r.data)
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC") if moment else "at an unknown time"
