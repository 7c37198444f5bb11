"""Reports as files: the one place a report becomes Markdown, JSON or PDF and reaches the disk.

- `render_report` turns a report into Markdown or JSON text, or PDF bytes.
- `write_report` writes one rendering to one file, atomically (`report --out`).
- `save_report` files a report's Markdown and JSON in a reports folder under the report's own
  name, `KIND/PERIOD.LANG.EXT` (`tidings run` and `tidings demo`; `site build` reads them),
  optionally only when its content changed; `make_pdfs` then gives saved reports their PDFs,
  several at once.

Every writer goes through `write_atomic`: a crash or Ctrl-C leaves the old file or the new
one, never half of one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, overload

from tidings.errors import InvocationError

if TYPE_CHECKING:
    from tidings.common.progress import Progress
    from tidings.report.model import DailyReport
    from tidings.report.weekly_model import WeeklyReport

    Report: TypeAlias = DailyReport | WeeklyReport

Format = Literal["md", "json", "pdf"]
FORMATS: tuple[Format, ...] = ("md", "json", "pdf")


def check_format(fmt: str) -> Format:
    """`fmt` as a Format, or a usage error naming the choices."""
    if fmt not in FORMATS:
        raise InvocationError(
            f"a report's format is one of {', '.join(FORMATS)}, not {fmt!r}", "e.g. md"
        )
    return fmt


def report_name(report: Report) -> str:
    """Where a report lives inside a reports folder, without extension: `daily/DATE.LANG` or
    `weekly/YYYY-Www.LANG`."""
    period = report.date if report.kind == "daily" else report.week
    return f"{report.kind}/{period}.{report.lang}"


@overload
def render_report(report: Report, fmt: Literal["md", "json"] = "md") -> str: ...
@overload
def render_report(report: Report, fmt: Literal["pdf"]) -> bytes: ...
@overload
def render_report(report: Report, fmt: Format) -> str | bytes: ...
def render_report(report: Report, fmt: Format = "md") -> str | bytes:
    """The report as Markdown, as JSON (the report model, docs/report.md) or as a PDF."""
    from tidings.report.weekly_model import WeeklyReport

    if fmt == "json":
        from tidings.common.textsafe import json_safe

        # json_safe: C1 and bidi controls as escapes, the same JSON value, safe to `cat`.
        return json_safe(_model_json(report)) + "\n"
    if fmt == "pdf":
        from tidings.render.pdf import report_pdf

        # From the JSON, as the site reads it: the same bytes as the site's PDF of the report.
        return report_pdf(render_report(report, "json"), Path(report_name(report) + ".json"))
    check_format(fmt)
    if isinstance(report, WeeklyReport):
        from tidings.render.weekly_markdown import render_weekly_markdown

        return render_weekly_markdown(report)
    from tidings.render.markdown import render_daily_markdown

    return render_daily_markdown(report)


def format_of(path: Path) -> Format:
    """The format a file name asks for by its extension."""
    suffix = path.suffix.lstrip(".")
    if suffix not in FORMATS:
        raise InvocationError(
            f"cannot tell the format of {path.name!r} from its extension",
            "name it .md, .json or .pdf, or say the format",
        )
    return suffix


def _model_json(report: Report) -> str:
    from pydantic_core import PydanticSerializationError

    try:
        return report.model_dump_json(indent=2)
    except PydanticSerializationError:
        # A lone surrogate from the data (half an emoji) has no UTF-8 spelling: U+FFFD.
        from tidings.common.textsafe import without_surrogates

        fixed = type(report).model_validate(without_surrogates(report.model_dump()))
        return fixed.model_dump_json(indent=2)


def write_report(report: Report, path: str | os.PathLike[str], fmt: Format | None = None) -> Path:
    """Write the report to `path` as `fmt` (default: by the file's extension), atomically."""
    from tidings.common.outputs import write_atomic

    target = Path(path)
    write_atomic(target, render_report(report, fmt or format_of(target)))
    return target


@dataclass(frozen=True)
class SavedReport:
    json_path: Path  # FOLDER/KIND/PERIOD.LANG.json; the Markdown is beside it
    written: bool  # False: the same report was already there (save_report's if_changed)

    @property
    def markdown_path(self) -> Path:
        return self.json_path.with_suffix(".md")


def _comparable(text: str) -> Any:
    data = json.loads(text)
    data.pop("generated_at", None)  # the weekly report also carries it at the top
    data.get("provenance", {}).pop("generated_at", None)
    return data


def _unchanged(json_path: Path, json_text: str) -> bool:
    if not json_path.is_file():
        return False
    try:
        return bool(_comparable(json_path.read_text("utf-8")) == _comparable(json_text))
    except (OSError, ValueError):
        return False  # unreadable or corrupt: rewrite it


def save_report(
    report: Report, folder: str | os.PathLike[str], *, if_changed: bool = False
) -> SavedReport:
    """File the report's Markdown and JSON under `folder` by its own name (`report_name`).

    With `if_changed`, nothing is written when the same report, bar its generation time, is
    already there: a re-run on unchanged data rewrites nothing, so a site rebuild after it
    touches nothing either."""
    json_path = Path(folder) / f"{report_name(report)}.json"
    if if_changed and _unchanged(json_path, render_report(report, "json")):
        return SavedReport(json_path, written=False)
    # Markdown first: a crash between the two leaves the old JSON, so the next run redoes both.
    write_report(report, json_path.with_suffix(".md"), "md")
    write_report(report, json_path, "json")
    return SavedReport(json_path, written=True)


def make_pdfs(json_paths: Sequence[Path], progress: Progress | None = None) -> list[Path]:
    """Give each saved report its current PDF beside its JSON (`PERIOD.LANG.pdf` and its key),
    rendering several at once; the PDFs made (the ones missing or stale)."""
    from tidings.render.pdf import make_report_pdfs

    return make_report_pdfs(json_paths, progress)
