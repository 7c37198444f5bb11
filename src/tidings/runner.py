"""`tidings run`: the everyday job — sync every configured repository, write the reports that
are due, rebuild the site.

A repository that fails (network, rate limit, a bad setting) is recorded and the others still
run; the caller turns any failure into a non-zero exit. A report is written when it is new or
when its content changed (a late comment, a relabel): the comparison ignores `generated_at`,
so a re-run on unchanged data writes nothing and the site rebuild then touches nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from tidings.config import Config, RepoConfig
from tidings.errors import TidingsError
from tidings.facts.windows import daily_window
from tidings.outputs import write_atomic
from tidings.store import Store

Progress = Callable[[str, int, int | None], None]
Syncer = Callable[[Store, RepoConfig], Any]


@dataclass
class RepoOutcome:
    repo: str
    ok: bool = True
    synced: str = ""
    written: list[str] = field(default_factory=list)
    unchanged: int = 0
    pdfs_made: int = 0
    error: str | None = None
    checked: list[str] = field(default_factory=list)  # every report due this run


def closed_days(repo: RepoConfig, now: datetime, count: int) -> list[date]:
    """The `count` most recent days whose windows have ended by `now`, oldest first."""
    local_today = now.astimezone(repo.tz).date()
    latest = local_today
    while daily_window(latest, repo.tz, repo.cutoff_time).end > now:
        latest -= timedelta(days=1)
    return [latest - timedelta(days=k) for k in range(count - 1, -1, -1)]


def _comparable(text: str) -> Any:
    data = json.loads(text)
    data.pop("generated_at", None)  # the weekly report also carries it at the top
    data.get("provenance", {}).pop("generated_at", None)
    return data


def write_if_changed(json_path: Path, json_text: str, md_text: str) -> bool:
    """Write the report's JSON and Markdown unless the same report (bar its generation time)
    is already there. True when written."""
    if json_path.is_file():
        try:
            if _comparable(json_path.read_text("utf-8")) == _comparable(json_text):
                return False
        except (OSError, ValueError):
            pass  # unreadable or corrupt: rewrite it
    # Markdown first: a crash between the two leaves the old JSON, so the next run redoes both.
    write_atomic(json_path.with_suffix(".md"), md_text)
    write_atomic(json_path, json_text)
    return True


def report_daily(
    store: Store,
    repo: RepoConfig,
    days: list[date],
    langs: list[str],
    reports_dir: Path,
    outcome: RepoOutcome,
    analysis: Any = None,
    progress: Progress | None = None,
) -> None:
    from tidings.render.markdown import render_daily_markdown
    from tidings.report.daily import build_daily

    folder = reports_dir / repo.name / "daily"
    jobs = [(day, lang) for day in days for lang in langs]
    for done, (day, lang) in enumerate(jobs, start=1):
        kwargs = {"analysis": analysis} if analysis is not None else {}
        report = build_daily(store, repo, day, lang, **kwargs)  # type: ignore[arg-type]
        path = folder / f"{day.isoformat()}.{lang}.json"
        outcome.checked.append(str(path.relative_to(reports_dir)))
        if write_if_changed(
            path, report.model_dump_json(indent=2) + "\n", render_daily_markdown(report)
        ):
            outcome.written.append(str(path.relative_to(reports_dir)))
        else:
            outcome.unchanged += 1
        if progress:
            progress(f"{repo.name} daily", done, len(jobs))


def report_weekly(
    store: Store,
    repo: RepoConfig,
    now: datetime,
    langs: list[str],
    reports_dir: Path,
    outcome: RepoOutcome,
    analysis: Any = None,
) -> None:
    """The last closed ISO week's report, once the weekly builder exists (report/weekly.py,
    `build_weekly(store, repo, year, week, lang)` and `render_weekly_markdown`)."""
    try:
        from tidings.render.markdown import render_weekly_markdown  # type: ignore[attr-defined]
        from tidings.report.weekly import build_weekly  # type: ignore[import-not-found]
    except ImportError:
        return
    from tidings.facts.windows import weekly_window

    local = now.astimezone(repo.tz).date() - timedelta(days=7)
    year, week, _ = local.isocalendar()
    if weekly_window(year, week, repo.tz, repo.cutoff_time).end > now:
        return
    for lang in langs:
        kwargs = {"analysis": analysis} if analysis is not None else {}
        report = build_weekly(store, repo, year, week, lang, **kwargs)
        path = reports_dir / repo.name / "weekly" / f"{year}-W{week:02d}.{lang}.json"
        outcome.checked.append(str(path.relative_to(reports_dir)))
        if write_if_changed(
            path, report.model_dump_json(indent=2) + "\n", render_weekly_markdown(report)
        ):
            outcome.written.append(str(path.relative_to(reports_dir)))
        else:
            outcome.unchanged += 1


def run_repositories(
    cfg: Config,
    store: Store,
    *,
    sync: Syncer,
    reports_dir: Path,
    days: int = 7,
    now: datetime | None = None,
    analysis: Any = None,
    progress: Progress | None = None,
    pdf: bool = False,
) -> list[RepoOutcome]:
    """Sync and report on every repository in the config; one failure does not stop the rest.
    With `pdf`, each due report gets its PDF beside it, made only when the report (or the
    renderer) changed since its PDF was made (site/pdfs.py)."""
    moment = now or datetime.now(UTC)
    outcomes: list[RepoOutcome] = []
    for repo in cfg.repos:
        outcome = RepoOutcome(repo.name)
        outcomes.append(outcome)
        langs = list(cfg.site.languages or [repo.language])
        try:
            result = sync(store, repo)
            outcome.synced = _sync_summary(result)
            report_daily(
                store,
                repo,
                closed_days(repo, moment, days),
                langs,
                reports_dir,
                outcome,
                analysis=analysis,
                progress=progress,
            )
            report_weekly(store, repo, moment, langs, reports_dir, outcome, analysis)
            if pdf:
                from tidings.site.pdfs import make_report_pdfs

                paths = [reports_dir / rel for rel in outcome.checked]
                outcome.pdfs_made = len(make_report_pdfs(paths, progress))
        except TidingsError as exc:
            outcome.ok, outcome.error = False, exc.one_line()
        except Exception as exc:  # keep going: the other repositories still deserve reports
            outcome.ok, outcome.error = False, f"{type(exc).__name__}: {exc}"
    return outcomes


def _sync_summary(result: Any) -> str:
    data = result.to_dict() if hasattr(result, "to_dict") else result
    if not isinstance(data, dict):
        return ""
    parts = [f"{k} {v}" for k, v in data.items() if isinstance(v, int) and v]
    return ", ".join(parts[:4])


def outcome_table(outcomes: list[RepoOutcome]) -> Any:
    """What `tidings run` did, one row per repository."""
    from rich.table import Table
    from rich.text import Text

    from tidings.textsafe import clean

    table = Table(title="tidings run")
    for name in ("repository", "status", "synced", "reports written", "unchanged"):
        table.add_column(
            name, justify="right" if name in {"reports written", "unchanged"} else "left"
        )
    for o in outcomes:
        table.add_row(
            # Text, not markup: an error may quote brackets ("[bot]") that Rich would eat.
            Text(clean(o.repo)),
            Text(clean("ok" if o.ok else f"failed: {o.error}")),  # causes quote data
            Text(clean(o.synced or "-")),
            str(len(o.written)),
            str(o.unchanged),
        )
    return table
