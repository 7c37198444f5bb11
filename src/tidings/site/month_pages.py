"""A project's month pages (OWNER/REPO/archive/YYYY-MM.html): a calendar of the month's days and
its weeks, each linked to its report; the project page lists only the newest."""

from __future__ import annotations

import calendar

from tidings.render.html import html_lang, render_template
from tidings.site.archive import Archive, month_of, month_words
from tidings.site.context import SiteContext
from tidings.site.feeds import Feed
from tidings.site.rows import rows
from tidings.site.sources import Summary


def write_month_pages(
    ctx: SiteContext,
    owner: str,
    name: str,
    project: str,
    reports: list[Summary],
    archive: Archive,
    feeds: list[Feed],
) -> None:
    """A page per month: a calendar of its days and its weeks, each linked to its report."""
    words = ctx.words
    months = archive.months()
    weekdays = words.tr("site_weekdays").split()
    for k, month in enumerate(months):
        in_month = [r for r in reports if month_of(r.kind, r.period) == month.month]
        listed = rows(in_month, ctx.cfg.language, prefix="../")
        by_day = {row.period: row for row in listed["daily"]}
        year, number = (int(x) for x in month.month.split("-"))
        weeks = [
            [
                (day.day, by_day.get(day.isoformat())) if day.month == number else None
                for day in week
            ]
            for week in calendar.Calendar().monthdatescalendar(year, number)
        ]
        newer = months[k - 1].month if k > 0 else None
        older = months[k + 1].month if k + 1 < len(months) else None
        label = words.tr("site_month_label", **month_words(month.month))
        page = render_template(
            "html/month.html.j2",
            html_lang=html_lang(ctx.cfg.language),
            page_title=words.tr("site_month_title", project=project, **month_words(month.month)),
            description=words.tr(
                "site_month_count", daily=len(month.daily), weekly=len(month.weekly)
            ),
            canonical=ctx.base(f"{owner}/{name}/archive/{month.month}.html"),
            feed_href=None,
            feed_title="",
            feeds=[(t, "../" + h, lg) for t, h, lg in feeds],
            chrome=ctx.chrome("../../../index.html"),
            tr=words.tr,
            project=project,
            label=label,
            weekdays=weekdays,
            weeks=weeks,
            weekly=listed["weekly"],
            daily=listed["daily"],
            newer=(newer, f"{newer}.html") if newer else None,
            older=(older, f"{older}.html") if older else None,
        )
        ctx.put_page(f"{owner}/{name}/archive/{month.month}.html", page)
