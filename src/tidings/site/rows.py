"""Reports as rows of a list (project and month pages, home cards): one row per period."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tidings.common.config import Lang
from tidings.render.html import Words
from tidings.site.sources import Summary


@dataclass
class Row:
    """A report period in a list: the site language's copy, and badges for each language."""

    period: str
    title: str
    href: str
    langs: list[tuple[str, str, str]]  # (language name, href, code)
    stats: dict[str, int | None] | None  # a daily report's numbers (None: unknown)
    merged: int | None  # a weekly report's merged PRs


def rows(reports: Sequence[Summary], lang: Lang, prefix: str = "") -> dict[str, list[Row]]:
    """One row per report period, newest first, by kind: the copy in `lang` (the site's) as
    the main link, every language as a badge. `prefix` leads from the page to the project."""
    found: dict[str, list[Row]] = {"weekly": [], "daily": []}
    by_period: dict[tuple[str, str], list[Summary]] = defaultdict(list)
    for r in reports:
        by_period[(r.kind, r.period)].append(r)
    for (kind, period), group in sorted(by_period.items(), key=lambda kv: kv[0][1], reverse=True):
        group.sort(key=lambda r: (r.lang != lang, r.lang))
        first = group[0]
        found[kind].append(
            Row(
                period=period,
                title=first.title,
                href=f"{prefix}{kind}/{period}.{group[0].lang}.html",
                langs=[
                    (
                        Words(r.lang).tr("site_lang_name"),
                        f"{prefix}{kind}/{period}.{r.lang}.html",
                        r.lang,
                    )
                    for r in group
                ],
                stats=first.stats_dict,
                merged=first.merged,
            )
        )
    return found
