"""An Atom feed per project with feedgen: one entry per report, ids that never change.

An entry's id names the report (repository, kind, period, language), not where the site is
hosted, so moving the site or rebuilding it never makes readers see old reports as new. Dates
come from the reports (their window end), never from the build clock, so a rebuild with no new
report writes the same bytes. Text goes through textsafe.clean: XML 1.0 cannot hold most control
characters at all (lxml refuses them), and feed readers should not be handed the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from feedgen.feed import FeedGenerator
from lxml import etree

from tidings.common.textsafe import clean

ATOM_NS = "http://www.w3.org/2005/Atom"
XML_NS = "http://www.w3.org/XML/1998/namespace"


@dataclass(frozen=True)
class FeedEntry:
    id: str
    title: str
    href: str
    updated: datetime  # timezone-aware
    summary: str  # plain text: feedgen writes it as XML text, readers show it as text
    lang: str


def entry_id(repo: str, kind: str, period: str, lang: str) -> str:
    return f"https://github.com/{repo}#tidings-{kind}-{period}-{lang}"


def atom_feed(
    *,
    feed_id: str,
    title: str,
    self_href: str,
    home_href: str,
    entries: Sequence[FeedEntry],
    fallback_updated: datetime,
    lang: str | None = None,
) -> bytes:
    """The feed's XML; `entries` in the order readers should see them (newest first);
    `lang` the language of a feed whose entries all share one."""
    fg = FeedGenerator()
    fg.id(clean(feed_id))
    fg.title(clean(title))
    fg.link(href=clean(home_href), rel="alternate")
    fg.link(href=clean(self_href), rel="self")
    fg.generator("tidings")
    fg.updated(max((e.updated for e in entries), default=fallback_updated))
    for item in entries:
        fe = fg.add_entry(order="append")
        fe.id(clean(item.id))
        fe.title(clean(item.title))
        fe.link(href=clean(item.href), rel="alternate", type="text/html", hreflang=item.lang)
        fe.updated(item.updated)
        fe.published(item.updated)
        fe.summary(clean(item.summary))
    root = etree.fromstring(fg.atom_str(pretty=False))
    if lang:
        root.set(f"{{{XML_NS}}}lang", lang)
    # feedgen 1.0 drops an entry link's rel, type and hreflang (its loop variable shadows
    # the link's data): set them here, so a reader knows each entry's language.
    for element, item in zip(root.iterfind(f"{{{ATOM_NS}}}entry"), entries, strict=True):
        link = element.find(f"{{{ATOM_NS}}}link")
        if link is not None:
            link.set("rel", "alternate")
            link.set("type", "text/html")
            link.set("hreflang", item.lang)
    etree.indent(root, space="  ")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)
