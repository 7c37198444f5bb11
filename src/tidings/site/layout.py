"""Where a report's files are in the site. All links are relative, so the site works from any
base path or straight from disk:

    index.html                                  projects
    search.html, pagefind/, pagefind/LANG/NAME/ search (site/search_page.py)
    OWNER/REPO/index.html                       reports newest first, charts
    OWNER/REPO/archive/YYYY-MM.html             a month's calendar
    OWNER/REPO/feed.xml, feed.LANG.xml          Atom
    OWNER/REPO/KIND/PERIOD.LANG.{html,md,json,pdf}
"""

from __future__ import annotations

from tidings.site.sources import Summary


def report_stem(r: Summary) -> str:
    """The report's files without their suffix: OWNER/REPO/KIND/PERIOD.LANG."""
    owner, name = r.owner_name
    return f"{owner}/{name}/{r.kind}/{r.period}.{r.lang}"
