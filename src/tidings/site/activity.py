"""A project's charts, from its reports' summaries: the last 30 days' activity and merged PRs'
labels (daily reports), the last 12 weeks' risk tags (weekly reports), the home card's
sparkline of merged PRs. The drawing is site/charts.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date, timedelta

from markupsafe import Markup

from tidings.common.config import Lang
from tidings.render.html import Words
from tidings.report.weekly_model import WeeklyReport
from tidings.site import charts
from tidings.site.sources import Summary
from tidings.words.weekly import tag_name


def risk_counts(report: WeeklyReport) -> dict[str, int]:
    """How often each risk tag fired in a weekly report's merged PRs, most common first."""
    return {row.name: row.count for row in report.executive_summary.by_risk_tag}


def _total(stats: dict[str, int | None], *keys: str) -> int | None:
    """The sum of some of a day's counts; None when any is unknown (a git-only store's new
    and closed items), so the chart leaves a gap rather than plotting a zero."""
    values = [stats[k] for k in keys]
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def per_day(reports: Sequence[Summary], lang: Lang) -> dict[str, Summary]:
    """One daily report per day (both languages hold the same numbers): the one in `lang`
    (the site's) when there."""
    found: dict[str, Summary] = {}
    for r in reports:
        if r.kind != "daily":
            continue
        if r.period not in found or r.lang == lang:
            found[r.period] = r
    return found


def daily_charts(days_found: dict[str, Summary], words: Words) -> tuple[Markup, Markup]:
    """The activity chart and the merged PRs' labels chart of the last 30 days."""
    if not days_found:
        return Markup(""), Markup("")
    last = date.fromisoformat(max(days_found))
    days = [last - timedelta(days=k) for k in range(29, -1, -1)]
    points: list[charts.DayCounts] = []
    label_counts: Counter[str] = Counter()
    timezone = ""
    for day in days:
        found = days_found.get(day.isoformat())
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


def risk_chart(reports: list[Summary], lang: Lang, words: Words) -> Markup:
    """Risk tags of the last 12 weekly reports, a stacked bar a week."""
    per_week: dict[str, Summary] = {}
    for r in reports:
        if r.kind == "weekly" and (r.period not in per_week or r.lang == lang):
            per_week[r.period] = r
    rows: list[tuple[str, dict[str, int]]] = [
        (week, {name: n for name, n in per_week[week].risk_tags}) for week in sorted(per_week)[-12:]
    ]
    names: dict[str, str] = {
        name: tag_name(lang, name) for r in per_week.values() for name, _ in r.risk_tags
    }
    return charts.stacked_chart(
        rows, words.tr("site_chart_risks"), names, x_title=words.tr("site_axis_tags")
    )


def sparkline(days_found: dict[str, Summary], words: Words) -> Markup:
    """Merged PRs a day over the 30 days up to the last daily report."""
    last = max(days_found) if days_found else None
    spark_days = (
        [date.fromisoformat(last) - timedelta(days=k) for k in range(29, -1, -1)] if last else []
    )
    merged = [
        dict(days_found[d.isoformat()].stats or ()).get("merged_prs")
        if d.isoformat() in days_found
        else None
        for d in spark_days
    ]
    return charts.sparkline(merged, words.tr("site_spark"))
