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

from tidings.textsafe import clean


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
) -> bytes:
    """The feed's XML; `entries` in the order readers should see them (newest first)."""
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
    return fg.atom_str(pretty=True)
