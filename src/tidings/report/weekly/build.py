"""A weekly report from the week's facts: each section's writer (this package's other
modules) fills its part; with a model, its checked texts replace the rules' prose."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING

from tidings._version import __version__
from tidings.common.config import Lang, RepoConfig
from tidings.common.records import now_utc
from tidings.facts.coverage import data_stops_inside
from tidings.facts.load.coverage import coverage
from tidings.facts.load.week import load_week, load_week_input
from tidings.facts.week_bundle import week_bundle
from tidings.facts.windows import weekly_window
from tidings.report import weekly_model as w
from tidings.report.provenance import record_llm, window_utc
from tidings.report.weekly import summary as opening
from tidings.report.weekly.executive import executive
from tidings.report.weekly.follow_ups import follow_ups
from tidings.report.weekly.highlights import highlights
from tidings.report.weekly.prs import merged_prs
from tidings.report.weekly.risks import risk_observations
from tidings.report.weekly.themes import key_changes, merged_groups
from tidings.report.weekly.tracks import tracks
from tidings.report.weekly.trends import trends
from tidings.report.weekly.writer import WeekWriter
from tidings.report.weekly_model import WeeklyReport
from tidings.store import Store

if TYPE_CHECKING:  # the model layer (and its SDK) loads only when a model is used
    from tidings.analysis.analyst import Analyst
    from tidings.analysis.result import Analysis


def build_weekly(
    store: Store,
    repo: RepoConfig,
    year: int,
    week: int,
    lang: Lang,
    *,
    web_url: str = "https://github.com",
    now: datetime | None = None,
    analysis: Analyst | None = None,
) -> WeeklyReport:
    """The week's report; with `analysis`, a model writes every analytic section from the
    week's evidence (a summary and a why-it-matters line for every merged PR, reusing the
    daily per-PR analyses; highlight themes, risk observations, the executive summary, theme
    and trend paragraphs, follow-ups and the opening summary), and the rules' text fills in
    whatever it did not write or the guard rejected."""
    window = weekly_window(year, week, repo.tz, repo.cutoff_time)
    texts: Analysis | None = None
    with store.engine.connect() as conn:
        repo_id = store.require_repo(conn, repo.name)
        # The week's lists, computed once: the model reads what the writer lays out.
        bundle = week_bundle(load_week(conn, repo_id, repo, window), repo)
        until = data_stops_inside(window, coverage(conn, repo_id))
        if analysis is not None:
            model_input = load_week_input(conn, repo_id, repo, bundle)
    if analysis is not None:
        texts = analysis.analyse_week(model_input, lang)
    writer = WeekWriter(repo, lang, bundle, web_url, texts)
    report = _report(writer, now or now_utc())
    report.window.data_until = until
    if texts is not None:
        record_llm(report, texts)
    return report


def _report(wr: WeekWriter, now: datetime) -> WeeklyReport:
    f = wr.facts
    prs = merged_prs(wr)
    window = f.window
    year, week = (int(x) for x in window.label.split("-W"))
    # The label names the local Monday even when the cut-off fell in a DST gap.
    first = date.fromisocalendar(year, week, 1)
    last = first + timedelta(days=6)
    themes_ = wr.week.key_themes
    observations = risk_observations(wr)
    key_prs = [prs[n] for n in wr.week.key_prs]
    generated = now.astimezone(UTC).replace(microsecond=0)
    return w.WeeklyReport(
        repo=wr.repo.name,
        project=wr.repo.project,
        repo_url=f"{wr.web_url}/{wr.repo.name}",
        week=window.label,
        lang=wr.lang,
        window=w.WeekWindow(
            week=window.label,
            year=year,
            number=week,
            first_day=first.isoformat(),
            last_day=last.isoformat(),
            start=window.start,
            end=window.end,
            timezone=wr.repo.timezone,
            display=window.display(),
        ),
        summary=opening.summary(
            wr, year, week, first.strftime("%m-%d"), last.strftime("%m-%d"), themes_, observations
        ),
        merged_prs=len(f.prs),
        key_pr_count=len(key_prs),
        generated_at=generated,
        coverage=opening.coverage(wr),
        highlights=highlights(wr, themes_, prs),
        tracks=tracks(wr),
        risk_observations=observations,
        executive_summary=executive(wr),
        key_changes=key_changes(wr, themes_, prs),
        module_trends=trends(wr),
        key_prs=key_prs,
        follow_ups=follow_ups(wr),
        merged=[prs[n] for n in sorted(prs)],
        merged_groups=merged_groups(wr),
        provenance=w.WeeklyProvenance(
            tool_version=__version__,
            generated_at=generated,
            data_as_of=f.data_as_of,
            window_utc=window_utc(window),
            merged_prs=len(f.prs),
            sources=f.sources,
        ),
    )
