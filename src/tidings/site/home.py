"""The home page (index.html: a card per project) and the whole site's feed."""

from __future__ import annotations

from collections.abc import Sequence

from tidings.render.html import html_lang, render_template
from tidings.site.context import SiteContext
from tidings.site.feeds import one_per_period, write_feed
from tidings.site.project_pages import Project
from tidings.site.sources import Summary


def write_home(ctx: SiteContext, projects: Sequence[Project], reports: Sequence[Summary]) -> None:
    words, cfg = ctx.words, ctx.cfg
    home = render_template(
        "html/home.html.j2",
        html_lang=html_lang(cfg.language),
        page_title=cfg.title,
        description=words.tr("site_home_description", n=len(projects)),
        canonical=ctx.base("index.html"),
        feed_href=None,
        feed_title="",
        feeds=[(words.tr("site_feed_site"), "feed.xml", "")],
        chrome=ctx.chrome("index.html"),
        tr=words.tr,
        projects=projects,
    )
    ctx.put_page("index.html", home)
    write_feed(
        ctx,
        "feed.xml",
        "tag:tidings,site:" + cfg.title,
        cfg.title,
        "index.html",
        one_per_period(reports, cfg.language),
    )
