"""Which report pages go into which search bundle, so that a change re-indexes a bounded part.

One Pagefind index of the whole archive costs memory and time in proportion to the archive
(docs/benchmarks.md: 94 / 339 / 659 MiB for 104 / 417 / 834 busy reports), and any change
re-indexes all of it. So the pages are split into bundles of at most `BUNDLE_BYTES` of HTML
each, one language per bundle, and the search page merges them in the browser.

A bundle holds a run of pages in an order that follows time: a page's key is the last day its
report covers, then its repository and kind. A bundle is named by its first key (the first
bundle by "", so every page has one), and the names are kept from one build to the next. A new
day's reports sort last, into the last bundle, and an edited report into the bundle that held
it, so a build re-indexes the bundles its new and changed pages fall in, never the archive. A
bundle grown past the limit is cut (the first part as full as the limit allows, so an archive
that only grows fills its bundles), an emptied one goes, and neighbours small enough together
are joined.

Why time and not one bundle per project: the browser pays for every bundle it merges (about 8
requests each), and a site of 500 projects would have at least 500 of them, while a daily run
would re-index 500 (every project's newest reports). By time, one day of every project is one
or two bundles. The cost: a project added with a long history, or removed, touches the bundles
of the days it spans.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from tidings.site.archive import week_days

# 120 busy days of benchmarks/site.py: Pagefind's peak was 105 MiB for them in English, 98 MiB
# marked as Chinese (its base is about 20 MiB, 65 MiB with Chinese, then about 12 MiB a MB).
BUNDLE_BYTES = 8_000_000


@dataclass(frozen=True)
class Page:
    key: str  # the order bundles follow (page_key)
    stem: str  # OWNER/REPO/KIND/PERIOD.LANG
    size: int  # bytes of its HTML


@dataclass
class Bundle:
    low: str  # the first key it may hold; "" for the first bundle
    pages: list[Page] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(p.size for p in self.pages)


def page_key(stem: str) -> str:
    """`stem`'s place in time: the last day its report covers, repository, kind. A weekly
    report is written after its Sunday, so it sorts with that day, among the newest."""
    owner, name, kind, leaf = stem.split("/")
    period = leaf.rsplit(".", 1)[0]
    day = week_days(period)[6] if kind == "weekly" else period
    return f"{day} {owner}/{name} {kind}"


def plan(
    pages: Iterable[Page], bounds: Iterable[object], limit: int = BUNDLE_BYTES
) -> list[Bundle]:
    """The bundles of one language's pages, given the bounds (bundle names) of the last build.
    The first bundle's name is always ""."""
    lows = sorted({b for b in bounds if isinstance(b, str)} | {""})
    bundles = [Bundle(low) for low in lows]
    for page in sorted(pages, key=lambda p: p.key):
        bundles[bisect_right(lows, page.key) - 1].pages.append(page)
    # An emptied bundle goes; its range joins the one before. The first keeps its name "",
    # taking the next one's pages when it has none.
    kept = [b for b in bundles if b.pages or not b.low]
    while len(kept) > 1 and not kept[0].pages:
        kept[1].low = ""
        del kept[0]
    cut = [piece for bundle in kept for piece in _cut(bundle, limit)]
    joined = [cut[0]]
    for bundle in cut[1:]:
        if joined[-1].size + bundle.size <= limit // 2:
            joined[-1].pages += bundle.pages
        else:
            joined.append(bundle)
    return joined


def _cut(bundle: Bundle, limit: int) -> list[Bundle]:
    """`bundle` in pieces of at most `limit` bytes (a bigger page alone), each but the last
    as full as it can be."""
    pieces = [Bundle(bundle.low)]
    size = 0
    for page in bundle.pages:
        if pieces[-1].pages and size + page.size > limit:
            pieces.append(Bundle(page.key))
            size = 0
        pieces[-1].pages.append(page)
        size += page.size
    return pieces
