"""The site's Atom feeds (the documents themselves: site/atom.py): the whole site's, and each
project's, one per language and one with each report once."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from datetime import UTC, datetime

from tidings.common.config import Lang
from tidings.render.html import Words, html_lang
from tidings.site.atom import FeedEntry, atom_feed, entry_id
from tidings.site.context import SiteContext
from tidings.site.layout import report_stem
from tidings.site.sources import Summary

FEED_ENTRIES = 100  # a feed holds the newest reports; older ones stay on the site

Feed = tuple[str, str, str]  # (title, href, hreflang) of an Atom feed, for <head> and pages


def one_per_period(reports: Sequence[Summary], lang: Lang) -> list[Summary]:
    """Each report once: in `lang` (the site's) when it exists in it, else the other."""
    chosen: dict[tuple[str, str, str], Summary] = {}
    for r in reports:
        slot = (r.repo, r.kind, r.period)
        if slot not in chosen or r.lang == lang:
            chosen[slot] = r
    return list(chosen.values())


def write_feed(
    ctx: SiteContext,
    rel: str,
    feed_id: str,
    title: str,
    home: str,
    reports: Sequence[Summary],
    lang: Lang | None = None,
) -> None:
    """An Atom feed of `reports`, newest first, at most FEED_ENTRIES of them."""
    ordered = sorted(reports, key=lambda r: (r.end, r.kind, r.lang), reverse=True)
    folder = posixpath.dirname(rel) or "."
    entries = [
        FeedEntry(
            id=entry_id(r.repo, r.kind, r.period, r.lang),
            title=r.title,
            href=ctx.base(report_stem(r) + ".html")
            or posixpath.relpath(report_stem(r) + ".html", folder),
            updated=r.end,
            summary=r.summary,
            lang=r.lang,
        )
        for r in ordered[:FEED_ENTRIES]
    ]
    ctx.put_page(
        rel,
        atom_feed(
            feed_id=feed_id,
            title=title,
            self_href=ctx.base(rel) or rel.rsplit("/", 1)[-1],
            home_href=ctx.base(home) or posixpath.relpath(home, folder),
            entries=entries,
            fallback_updated=datetime(2000, 1, 1, tzinfo=UTC),
            lang=html_lang(lang) if lang else None,
        ),
    )


def project_feeds(
    ctx: SiteContext, repo: str, owner: str, name: str, project: str, reports: list[Summary]
) -> None:
    """A feed per language (feed.zh.xml, feed.en.xml), and feed.xml with each report
    once (in the site's language where there), the address older sites published."""
    home = f"{owner}/{name}/index.html"
    for lang in sorted({r.lang for r in reports}):
        title = Words(lang).tr("site_reports", project=project)
        write_feed(
            ctx,
            f"{owner}/{name}/feed.{lang}.xml",
            entry_id(repo, "feed", "all", lang),
            title,
            home,
            [r for r in reports if r.lang == lang],
            lang,
        )
    write_feed(
        ctx,
        f"{owner}/{name}/feed.xml",
        entry_id(repo, "feed", "all", "all"),
        ctx.words.tr("site_reports", project=project),
        home,
        one_per_period(reports, ctx.cfg.language),
    )


def feed_links(ctx: SiteContext, project: str, langs: Sequence[Lang], prefix: str) -> list[Feed]:
    """A project's feeds as (title, href, hreflang): one per language, then all."""
    words = ctx.words
    feeds = [
        (
            words.tr("site_feed_lang", lang=Words(lang).tr("site_lang_name")) + " · " + project,
            f"{prefix}feed.{lang}.xml",
            html_lang(lang),
        )
        for lang in sorted(langs, key=lambda code: (code != ctx.cfg.language, code))
    ]
    if len(langs) > 1:
        feeds.append((words.tr("site_feed_once") + " · " + project, f"{prefix}feed.xml", ""))
    return feeds
