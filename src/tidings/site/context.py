"""What every part of a site build shares: the settings, the file writer, the site's words,
and the record of the files besides the reports' own that this build made."""

from __future__ import annotations

from dataclasses import dataclass, field

from tidings.common.config import SiteConfig
from tidings.render.html import PageChrome, Words
from tidings.site.output import BuildResult, Output
from tidings.site.search_bundles import BUNDLE_BYTES


@dataclass
class SiteContext:
    cfg: SiteConfig
    output: Output
    search: bool  # the site has a search page (pages link to it and carry filters)
    # The most HTML one search bundle indexes (site/search_bundles.py).
    search_bundle_bytes: int = BUNDLE_BYTES
    words: Words = field(init=False)
    # Files besides the reports' own (project, month and search pages, feeds, the index)
    # this build made: a later build that no longer makes one removes it.
    made: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.words = Words(self.cfg.language)

    @property
    def result(self) -> BuildResult:
        return self.output.result

    def base(self, rel: str) -> str | None:
        """`rel`'s absolute address when the site has a base URL."""
        if not self.cfg.base_url:
            return None
        return self.cfg.base_url.rstrip("/") + "/" + rel

    def chrome(self, home_href: str) -> PageChrome:
        """The chrome of a page that is not a report's own."""
        words = self.words
        return PageChrome(
            site_title=self.cfg.title,
            home_href=home_href,
            footer=words.tr("site_generated_by"),
            search_href=home_href.replace("index.html", "search.html") if self.search else None,
            search_label=words.tr("site_search"),
        )

    def put_page(self, rel: str, content: str | bytes) -> None:
        """A page that is not a report's own (project, month, feed, search): recorded, so
        a later build that no longer makes it removes it."""
        self.made.add(rel)
        self.output.put(rel, content)
