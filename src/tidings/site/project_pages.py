"""A project's page (OWNER/REPO/index.html: the newest reports, charts, months), with its month
pages and feeds, and its card on the home page."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from tidings.render.html import html_lang, render_template
from tidings.site import activity
from tidings.site.archive import Archive, month_words
from tidings.site.context import SiteContext
from tidings.site.feeds import Feed, feed_links, project_feeds
from tidings.site.month_pages import write_month_pages
from tidings.site.rows import Row, rows
from tidings.site.sources import Summary

LATEST_DAILY = 14  # rows on a project page; the month pages hold the rest
LATEST_WEEKLY = 8


@dataclass
class Project:
    """A project on the home page."""

    repo: str
    project: str
    href: str
    prefix: str
    feeds: list[Feed]
    count: int
    latest: str
    repo_url: str
    latest_daily: Row | None
    latest_weekly: Row | None
    spark: Markup
    reports: list[Summary]


def write_project(ctx: SiteContext, repo: str, reports: list[Summary], archive: Archive) -> Project:
    """The project's page, month pages and feeds; its card for the home page."""
    owner, name = reports[0].owner_name
    lang = ctx.cfg.language
    words = ctx.words
    project = reports[-1].project
    repo_url = reports[-1].repo_url
    listed = rows(reports, lang)
    langs = sorted({r.lang for r in reports})
    feeds = feed_links(ctx, project, langs, "")
    days = activity.per_day(reports, lang)
    activity_chart, labels = activity.daily_charts(days, words)
    risks = activity.risk_chart(reports, lang, words)
    months = [
        (
            words.tr("site_month_label", **month_words(m.month)),
            f"archive/{m.month}.html",
            words.tr("site_month_count", daily=len(m.daily), weekly=len(m.weekly)),
        )
        for m in archive.months()
    ]
    page = render_template(
        "html/project.html.j2",
        html_lang=html_lang(lang),
        page_title=words.tr("site_reports", project=project),
        description=words.tr("site_reports", project=project) + " — " + repo,
        canonical=ctx.base(f"{owner}/{name}/index.html"),
        feed_href=None,
        feed_title="",
        feeds=feeds,
        chrome=ctx.chrome("../../index.html"),
        tr=words.tr,
        project=project,
        repo=repo,
        repo_url=repo_url,
        weekly=listed["weekly"][:LATEST_WEEKLY],
        daily=listed["daily"][:LATEST_DAILY],
        more_weekly=len(listed["weekly"]) > LATEST_WEEKLY,
        more_daily=len(listed["daily"]) > LATEST_DAILY,
        months=months,
        activity_chart=activity_chart,
        labels_chart=labels,
        risks_chart=risks,
    )
    ctx.put_page(f"{owner}/{name}/index.html", page)
    write_month_pages(ctx, owner, name, project, reports, archive, feeds)
    project_feeds(ctx, repo, owner, name, project, reports)
    latest_daily = listed["daily"][0] if listed["daily"] else None
    latest_weekly = listed["weekly"][0] if listed["weekly"] else None
    return Project(
        repo=repo,
        project=project,
        href=f"{owner}/{name}/index.html",
        prefix=f"{owner}/{name}/",
        feeds=feed_links(ctx, project, langs, f"{owner}/{name}/"),
        count=len(listed["daily"]) + len(listed["weekly"]),
        latest=max(r.period for r in reports if r.kind == "daily")
        if latest_daily
        else max(r.period for r in reports),
        repo_url=repo_url,
        latest_daily=latest_daily,
        latest_weekly=latest_weekly,
        spark=activity.sparkline(days, words),
        reports=reports,
    )
