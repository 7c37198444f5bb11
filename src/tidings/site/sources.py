"""Finding report JSON files, summing each up for the site's lists, and reading one whole.

A report is found by its content, not its path: any `*.json` under the folder whose object has
`kind`, `repo` and `lang` is one. `tidings demo` (DIR/daily/...) and `tidings run`
(REPORTS/OWNER/REPO/daily/...) layouts both work, and so does a folder of downloads.

The site holds one report whole at a time. Its lists, feeds, charts and navigation read a
`Summary` of each report (a few hundred bytes: title, numbers, feed text), which the last build
kept in its manifest (`InputCache`) with the file's size, times and hash: a file whose stat is
unchanged is not even read, one whose bytes are unchanged is hashed but not parsed, and only a
new or changed file is parsed (then dropped again). A report page that must be rendered again
reads its report with `read_report`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tidings.common.config import LANGS, Lang
from tidings.errors import TidingsError
from tidings.render.common import partial_window
from tidings.render.html import report_title, safe_url
from tidings.report.kinds import Report, report_kind, validate_report
from tidings.report.model import DailyReport
from tidings.words.weekly import RISK_TAG_NAMES

if TYPE_CHECKING:
    from tidings.common.risk_tags import RiskTagName

Pairs = tuple[tuple[str, int], ...]
# A daily report's counts; None: the sources cannot know it (report/model.py Stats).
StatPairs = tuple[tuple[str, int | None], ...]
KINDS = ("daily", "weekly")


@dataclass
class ReportFile:
    """A report read whole, for its own page: its typed model, and the file it came from."""

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


@dataclass(frozen=True)
class Summary:
    """What the site's lists, feeds, charts and links need of a report, and where it is.

    Made from the parsed report (`summarise`) or read back from the last build's manifest
    (`to_json`/`from_json`); either way a page built from it is the same bytes."""

    path: Path
    sha256: str  # of the JSON: part of the page's cache key, and how copies are compared
    markdown: Path | None  # the Markdown written beside the JSON, if any
    markdown_sha256: str | None
    repo: str
    kind: str
    period: str  # YYYY-MM-DD for daily, YYYY-Www for weekly: the page's file name
    lang: Lang
    project: str
    repo_url: str  # a plain http(s) URL (the report's own or github.com's), never javascript:
    generated_at: datetime
    title: str
    summary: str  # the opening paragraph: a feed entry's summary
    end: datetime  # when the window ended: a feed entry's time
    timezone: str
    stats: StatPairs | None = None  # a daily report's counts, in the model's order
    merged_labels: Pairs = ()  # a daily report's merged PRs' labels, counted
    merged: int | None = None  # a weekly report's merged PRs
    risk_tags: tuple[tuple[RiskTagName, int], ...] = ()  # a weekly's, most common first

    @property
    def owner_name(self) -> tuple[str, str]:
        owner, name = self.repo.split("/", 1)
        return owner, name

    @property
    def stats_dict(self) -> dict[str, int | None] | None:
        return dict(self.stats) if self.stats is not None else None

    def to_json(self) -> dict[str, Any]:
        """The summary as the manifest keeps it (paths are the cache's business)."""
        return {
            "repo": self.repo,
            "kind": self.kind,
            "period": self.period,
            "lang": self.lang,
            "project": self.project,
            "repo_url": self.repo_url,
            "generated_at": self.generated_at.isoformat(),
            "title": self.title,
            "summary": self.summary,
            "end": self.end.isoformat(),
            "timezone": self.timezone,
            "stats": [list(p) for p in self.stats] if self.stats is not None else None,
            "merged_labels": [list(p) for p in self.merged_labels],
            "merged": self.merged,
            "risk_tags": [list(p) for p in self.risk_tags],
        }

    @classmethod
    def from_json(
        cls,
        data: dict[str, Any],
        path: Path,
        sha256: str,
        markdown: Path | None,
        markdown_sha256: str | None,
    ) -> Summary:
        """A summary the manifest kept; KeyError, TypeError or ValueError when it is not one
        (an older tidings or an edited file: the report is then parsed again)."""

        def pairs(value: Any) -> Pairs:
            return tuple((str(k), int(v)) for k, v in value)

        def counts(value: Any) -> StatPairs:
            return tuple((str(k), None if v is None else int(v)) for k, v in value)

        lang = data["lang"]
        period = str(data["period"])
        risk_tags = pairs(data["risk_tags"])
        if (
            lang not in LANGS
            or not set(period) <= _PERIOD_SAFE
            or data["kind"] not in KINDS
            or any(name not in RISK_TAG_NAMES["en"] for name, _ in risk_tags)
        ):
            raise ValueError("not a summary")
        return cls(
            path=path,
            sha256=sha256,
            markdown=markdown,
            markdown_sha256=markdown_sha256,
            repo=str(data["repo"]),
            kind=str(data["kind"]),
            period=period,
            lang=lang,
            project=str(data["project"]),
            repo_url=str(data["repo_url"]),
            generated_at=datetime.fromisoformat(data["generated_at"]),
            title=str(data["title"]),
            summary=str(data["summary"]),
            end=datetime.fromisoformat(data["end"]),
            timezone=str(data["timezone"]),
            stats=counts(data["stats"]) if data["stats"] is not None else None,
            merged_labels=pairs(data["merged_labels"]),
            merged=int(data["merged"]) if data["merged"] is not None else None,
            risk_tags=risk_tags,  # type: ignore[arg-type]  # names checked above
        )


def summarise(
    r: ReportFile, sha256: str, markdown: Path | None, markdown_sha256: str | None
) -> Summary:
    report = r.report
    moment = report.provenance.generated_at
    common: dict[str, Any] = {
        "path": r.path,
        "sha256": sha256,
        "markdown": markdown,
        "markdown_sha256": markdown_sha256,
        "repo": report.repo,
        "kind": report.kind,
        "period": r.period,
        "lang": report.lang,
        "project": report.project or report.repo.split("/", 1)[1],
        # The repository's web URL for the site's links: the report's own when it is a plain
        # http(s) URL (GitHub Enterprise included), else github.com's — never a javascript: one.
        "repo_url": safe_url(report.repo_url) or f"https://github.com/{report.repo}",
        "generated_at": moment if moment.tzinfo else moment.replace(tzinfo=UTC),
        "title": report_title(report),
        "end": report.window.end,
        "timezone": report.window.timezone,
    }
    # A partial window's feed entry says so first, as its page's header does.
    partial = partial_window(report)
    opening = report.summary.text.text if isinstance(report, DailyReport) else report.summary.text
    common["summary"] = f"{partial} {opening}" if partial else opening
    if isinstance(report, DailyReport):
        labels: dict[str, int] = {}
        for ref in report.appendix.merged_prs:
            for label in ref.labels:
                labels[label] = labels.get(label, 0) + 1
        return Summary(
            **common,
            stats=tuple(report.stats.model_dump().items()),
            merged_labels=tuple(labels.items()),
        )
    return Summary(
        **common,
        merged=report.merged_prs,
        risk_tags=tuple((row.name, row.count) for row in report.executive_summary.by_risk_tag),
    )


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


# -- the input cache ------------------------------------------------------------------------


def _stat(path: Path) -> list[int] | None:
    """What tells a file changed without reading it: size, modification and change times
    (ctime too: `cp -p` or `touch -r` can put an old mtime on new bytes, not an old ctime)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return [info.st_size, info.st_mtime_ns, info.st_ctime_ns]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class InputCache:
    """The last build's record of its input files (`.tidings-site.json`'s "inputs"): for each
    JSON file under --from, its stat, its hash, its Markdown sibling's, and its summary (None:
    JSON that is not a report). Trusted only for the same --from and the same code (`code`:
    a new tidings may summarise differently); every entry is checked against the file."""

    root: Path
    code: str
    saved: dict[str, Any] = field(default_factory=dict)
    # this scan's record: rel -> (stat, sha256, Markdown's stat and sha256, summary)
    new: dict[str, tuple[Any, str, Any, Summary | None]] = field(default_factory=dict)
    parsed: int = 0  # reports parsed to make their summaries (new or changed files)

    @classmethod
    def load(cls, saved: Any, root: Path, code: str) -> InputCache:
        cache = cls(root=root.resolve(), code=code)
        if (
            isinstance(saved, dict)
            and saved.get("root") == str(cache.root)
            and saved.get("code") == code
            and isinstance(saved.get("files"), dict)
        ):
            cache.saved = saved["files"]
        return cache

    def to_json(self) -> dict[str, Any]:
        files = {}
        for rel, (stat, digest, md, summary) in sorted(self.new.items()):
            report = summary.to_json() if summary is not None else None
            files[rel] = {"stat": stat, "sha256": digest, "md": md, "report": report}
        return {"root": str(self.root), "code": self.code, "files": files}

    def _markdown(self, path: Path, old: Any) -> tuple[Path | None, str | None, Any]:
        sibling = path.with_suffix(".md")
        stat = _stat(sibling)
        if stat is None or not sibling.is_file():
            return None, None, None
        if isinstance(old, dict) and old.get("stat") == stat and isinstance(old.get("sha256"), str):
            return sibling, old["sha256"], old
        try:
            digest = _sha256(sibling.read_bytes())
        except OSError:
            return None, None, None
        return sibling, digest, {"stat": stat, "sha256": digest}

    def summary(self, path: Path, rel: str) -> Summary | None:
        """The summary of the file at `path`, `rel` under the root (None: not a report): from
        the last build's record when the file is unchanged, else parsed from the file."""
        old = self.saved.pop(rel, None)  # what is read is dropped: the record is not held twice
        old = old if isinstance(old, dict) else {}
        stat = _stat(path)
        raw: bytes | None = None
        if stat is not None and old.get("stat") == stat and isinstance(old.get("sha256"), str):
            digest = old["sha256"]
        else:
            raw = path.read_bytes()
            digest = _sha256(raw)
        markdown, markdown_sha, markdown_entry = self._markdown(path, old.get("md"))
        found: Summary | None = None
        known = old.get("sha256") == digest and "report" in old
        if known and old["report"] is None:
            self.new[rel] = (stat, digest, None, None)
            return None
        if known:
            try:
                found = Summary.from_json(old["report"], path, digest, markdown, markdown_sha)
            except (KeyError, TypeError, ValueError):
                found = None
        if found is None:
            raw = path.read_bytes() if raw is None else raw
            digest = _sha256(raw)  # the bytes parsed are the bytes hashed
            report = parse_report(path, raw)
            if report is None:
                self.new[rel] = (stat, digest, None, None)
                return None
            self.parsed += 1
            found = summarise(report, digest, markdown, markdown_sha)
        self.new[rel] = (stat, digest, markdown_entry, found)
        return found


def _json_files(root: Path, exclude: Path | None) -> Iterator[Path]:
    """The JSON files under `root` that may be reports, in path order: not in dot-folders,
    `exclude` (the site, when it is built inside the reports folder) or any folder holding a
    built site (its JSON downloads are copies, e.g. DIR/site beside the demo's DIR/daily)."""
    skip = exclude.resolve() if exclude is not None else None
    sites = [p.parent.resolve() for p in root.rglob(".tidings-site.json")]
    for path in sorted(root.rglob("*.json")):
        if any(part.startswith(".") for part in path.relative_to(root).parts):
            continue
        parents = path.resolve().parents
        if (skip is not None and skip in parents) or any(site in parents for site in sites):
            continue
        yield path


def _check_root(root: Path) -> None:
    if not root.is_dir():
        raise TidingsError(
            f"reports folder {root} not found", "pass --from DIR with report JSON files"
        )


def holds_reports(root: Path) -> bool:
    """Whether any report sits under `root` (stops at the first)."""
    _check_root(root)
    return any(read_report(path) is not None for path in _json_files(root, None))


def find_reports(
    root: Path,
    exclude: Path | None = None,
    warnings: list[str] | None = None,
    cache: InputCache | None = None,
) -> list[Summary]:
    """Every report under `root`, summed up, in a stable order (repository, kind, period,
    language); `cache` (the last build's record) spares parsing the unchanged ones and
    records this scan for the next build.

    `exclude` is a folder to leave out: the site itself when it is built inside the reports
    folder (`tidings demo` writes DIR/daily and DIR/site), whose JSON downloads are copies.
    Two files holding the same report (an old copy in a subfolder, a download saved beside
    the original) publish the one generated last; each copy passed over adds a line to
    `warnings`."""
    _check_root(root)
    cache = cache or InputCache(root=root.resolve(), code="")
    copies: dict[tuple[str, str, str, str], list[Summary]] = {}
    for path in _json_files(root, exclude):
        try:
            summary = cache.summary(path, path.relative_to(root).as_posix())
        except OSError as exc:
            raise TidingsError(
                f"cannot read {path}: {exc.strerror}", "check the reports folder's permissions"
            ) from exc
        if summary is not None:
            key = (summary.repo, summary.kind, summary.period, summary.lang)
            copies.setdefault(key, []).append(summary)
    found = []
    for group in copies.values():
        # The newest wins; equal or unknown times fall back to the path, so the choice is
        # the same on every build.
        group.sort(key=lambda r: (r.generated_at, str(r.path)))
        chosen = group[-1]
        found.append(chosen)
        for other in group[:-1]:
            if warnings is not None and other.sha256 != chosen.sha256:  # a true copy is harmless
                warnings.append(
                    f"two copies of the {chosen.kind} report {chosen.repo} {chosen.period} "
                    f"({chosen.lang}): publishing {chosen.path} "
                    f"(generated {_when(chosen)}), not {other.path} (generated {_when(other)})"
                )
    return sorted(found, key=lambda r: (r.repo.lower(), r.kind, r.period, r.lang))


def _when(r: Summary) -> str:
    return r.generated_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
