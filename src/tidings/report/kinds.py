"""The kinds of report and their typed models: what a report JSON file is read back into.

A JSON object is a tidings report when its `kind` names one of `MODELS` and its `repo` and
`lang` are what a report writes; it is then validated into that kind's model. Render and site
read reports only through these models, never as raw dicts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tidings.common.config import LANGS
from tidings.common.names import REPO_NAME
from tidings.errors import TidingsError
from tidings.report.model import DailyReport
from tidings.report.weekly_model import WeeklyReport

Report = DailyReport | WeeklyReport
MODELS: dict[str, type[DailyReport] | type[WeeklyReport]] = {
    "daily": DailyReport,
    "weekly": WeeklyReport,
}
KINDS = tuple(MODELS)


def report_kind(data: object) -> str | None:
    """The kind of a report's JSON object, or None when the object is not a tidings report."""
    if not isinstance(data, dict) or data.get("kind") not in MODELS:
        return None
    repo, lang = data.get("repo"), data.get("lang")
    if not isinstance(repo, str) or not REPO_NAME.match(repo) or lang not in LANGS:
        return None
    return str(data["kind"])


def validate_report(data: dict[str, Any], where: Path | str) -> Report:
    """The typed report of a JSON object `report_kind` accepted; a one-line error naming
    `where` when it does not fit its kind's model (an older or edited file)."""
    kind = str(data.get("kind"))
    try:
        return MODELS[kind].model_validate(data)
    except ValidationError as exc:
        raise TidingsError(
            f"{where}: not a valid {kind} report ({exc.errors()[0]['msg']})",
            "regenerate it with this version of tidings",
        ) from exc


def load_report(raw: bytes | str, where: Path | str) -> Report | None:
    """The typed report in `raw` (JSON read from, or about to be written to, `where`), or None
    when it is not a tidings report."""
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    if report_kind(data) is None:
        return None
    return validate_report(data, where)
