"""How a project's reports link to each other: previous and next, a day's week and a week's
days, months, and each report's window as GitHub searches.

Everything here is built from the reports' kinds, periods and languages (the site's own file
names) and from the repository URL: no report text becomes a link. Pure functions of the
list of reports, so a page's links can be part of its cache key (site/report_pages.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from urllib.parse import quote

from tidings.common.config import Lang
from tidings.render.html import Words, safe_url
from tidings.site.sources import Summary

MONTH_NAMES = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

Link = tuple[str, str]  # (label, href)


def week_of(day: str) -> str:
    """The ISO week a day belongs to, as weekly reports name it: 2026-W11."""
    year, week, _ = date.fromisoformat(day).isocalendar()
    return f"{year}-W{week:02d}"


def week_days(week: str) -> list[str]:
    """The seven days (Monday first) of an ISO week `YYYY-Www`."""
    year, number = week.split("-W")
    monday = date.fromisocalendar(int(year), int(number), 1)
    return [(monday + timedelta(days=k)).isoformat() for k in range(7)]


def month_of(kind: str, period: str) -> str:
    """The month (YYYY-MM) a report is listed under: a day's own, a week's Thursday's (the
    ISO rule: a week belongs to the month holding most of its days)."""
    if kind == "weekly":
        return week_days(period)[3][:7]
    return period[:7]


def month_words(month: str) -> dict[str, object]:
    """The values words.site's month labels take."""
    year, number = month.split("-")
    return {"year": year, "month": int(number), "month_name": MONTH_NAMES[int(number) - 1]}


@dataclass(frozen=True)
class Nav:
    """A report page's links to its neighbours (hrefs relative to the page)."""

    prev: Link | None = None
    next: Link | None = None
    up: Link | None = None  # a day's week
    month: Link | None = None
    children: tuple[Link, ...] = ()  # a week's days

    def key(self) -> list[object]:
        """The links as JSON-able data: a page is rendered again when they change."""
        return [self.prev, self.next, self.up, self.month, list(self.children)]


@dataclass
class Month:
    month: str  # YYYY-MM
    daily: list[str] = field(default_factory=list)  # periods, ascending
    weekly: list[str] = field(default_factory=list)


class Archive:
    """One project's reports, indexed for navigation."""

    def __init__(self, reports: Sequence[Summary]) -> None:
        self.periods: dict[tuple[str, Lang], list[str]] = defaultdict(list)
        self.langs: dict[tuple[str, str], set[Lang]] = defaultdict(set)
        for r in reports:
            self.langs[(r.kind, r.period)].add(r.lang)
        for (kind, period), langs in sorted(self.langs.items()):
            for lang in langs:
                self.periods[(kind, lang)].append(period)

    def lang_for(self, kind: str, period: str, lang: Lang) -> Lang | None:
        """`lang` when that report exists in it, else another language it exists in."""
        langs = self.langs.get((kind, period), set())
        if lang in langs:
            return lang
        return min(langs) if langs else None

    def months(self) -> list[Month]:
        """Months holding reports, newest first."""
        found: dict[str, Month] = {}
        for kind, period in sorted(self.langs):
            month = found.setdefault(month_of(kind, period), Month(month_of(kind, period)))
            (month.daily if kind == "daily" else month.weekly).append(period)
        return [found[m] for m in sorted(found, reverse=True)]

    def nav(self, r: Summary, words: Words) -> Nav:
        """Previous/next of the same kind and language, a day's week or a week's days (in
        the page's language when there, else the other), and the month page."""
        kind, period, lang = r.kind, r.period, r.lang
        own = self.periods[(kind, lang)]
        at = own.index(period)

        def label(k: str, p: str) -> str:
            return p if k == "daily" else words.tr("site_week_label", week=p)

        def href(k: str, p: str, lg: Lang) -> str:
            leaf = f"{p}.{lg}.html"
            return leaf if k == kind else f"../{k}/{leaf}"

        prev = (label(kind, own[at - 1]), href(kind, own[at - 1], lang)) if at > 0 else None
        nxt = (
            (label(kind, own[at + 1]), href(kind, own[at + 1], lang)) if at + 1 < len(own) else None
        )
        up = None
        children: list[Link] = []
        if kind == "daily":
            week = week_of(period)
            found = self.lang_for("weekly", week, lang)
            if found:
                up = (label("weekly", week), href("weekly", week, found))
        else:
            for day in week_days(period):
                found = self.lang_for("daily", day, lang)
                if found:
                    children.append((day[5:], href("daily", day, found)))
        month = month_of(kind, period)
        return Nav(
            prev=prev,
            next=nxt,
            up=up,
            month=(words.tr("site_month_label", **month_words(month)), f"../archive/{month}.html"),
            children=tuple(children),
        )


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S+00:00")


def window_searches(repo_url: str, start: datetime, end: datetime) -> dict[str, str]:
    """GitHub searches for a report's window, one per number the report counts, and
    "window" (merged PRs: a report's key changes) for the page's action bar. Ranges are
    GitHub's inclusive `A..B` in UTC, ending a second before the window's exclusive end.
    Empty when the repository URL is not a plain http(s) URL."""
    base = safe_url(repo_url.rstrip("/"))
    if base is None:
        return {}
    span = f"{_stamp(start)}..{_stamp(end - timedelta(seconds=1))}"

    def search(page: str, query: str) -> str:
        return f"{base}/{page}?q={quote(query, safe='')}"

    queries = {
        "new_issues": ("issues", f"is:issue created:{span}"),
        "closed_issues": ("issues", f"is:issue closed:{span}"),
        "new_prs": ("pulls", f"is:pr created:{span}"),
        "merged_prs": ("pulls", f"is:pr merged:{span}"),
        "closed_unmerged_prs": ("pulls", f"is:pr is:unmerged closed:{span}"),
    }
    links = {name: search(page, query) for name, (page, query) in queries.items()}
    links["window"] = links["merged_prs"]
    return links


def labels_of(refs: Iterable[Iterable[str]]) -> list[str]:
    """The distinct labels of some items, sorted."""
    return sorted({label for labels in refs for label in labels})
