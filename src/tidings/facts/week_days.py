"""A week's seven daily windows, cut in memory from the rows read for the week.

With a model, a weekly report hands it every merged PR's card as the daily report of that
day did, so the card hashes alike and the day's cached answer is reused (analysis/
card_sets.py). The cards are built from each day's facts; reading those from the store again
for each day cost a weekly seven more window reads. Each day's rows are instead cut from the
week's `WindowData` (facts/load/window.py read it once, and a day lies inside its week), and
are what facts/load/window.py would read for the day, row for row and in the same order
(tests/facts/test_week_days.py holds it on both backends):

- the day's conversation, and the items it touched or that were opened, closed or merged in
  it, are among the week's (a day's window lies inside the week's);
- what an item links, names, reverts, replied or reviewed is the same in any window that
  holds it, as are its files and read gaps; the items a day's items link or name are in the
  week's items or among those it names;
- a first merge in the day is a first merge in the week, and the week's items hold every
  merge of its author up to the day's end.

One read differs in principle: a revert whose text names no PR is linked through the store to
a PR merged before it, and for a revert with neither a merge nor an opening time (an item no
source stores: the API gives every item's opening, a git clone every PR's merge) "before"
would be the window's end; the cut keeps the week's link.

The day's facts skip what no PR card reads: the baseline of earlier days, as the weekly's days
always did, and the hot threads' review notes (cards of threads are no part of a weekly).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from tidings.common.config import RepoConfig
from tidings.facts.activity_data import Item, WindowData
from tidings.facts.actors import is_git_name
from tidings.facts.coverage import unknown_counts
from tidings.facts.daily import DayFacts, day_facts
from tidings.facts.stats import ItemDates, lists_of
from tidings.facts.weekly import WeekFacts
from tidings.facts.windows import days_of


def week_days(week: WeekFacts, repo: RepoConfig, dates: Iterable[ItemDates]) -> list[DayFacts]:
    """The week's daily windows' facts, Monday first, as the daily report's model reads them:
    each cut from the week's rows; `dates`, the week's items opened, closed or merged
    (facts/load/stats.py `item_dates`), give each day's counts."""
    rows = list(dates)
    out: list[DayFacts] = []
    for window in days_of(week.window):
        data = cut_window(week.data, window.start, window.end)
        lists = lists_of(rows, window)
        unknown = unknown_counts(data, lists.merged_prs, week.api_data)
        out.append(day_facts(repo, window, data, lists, [], week.data_as_of, unknown))
    return out


def cut_window(week: WindowData, start: datetime, end: datetime) -> WindowData:
    """The rows of the window [start, end) inside `week`'s, as if read for it alone."""
    if not week.start <= start <= end <= week.end:
        raise ValueError(f"[{start}, {end}) is not inside [{week.start}, {week.end})")
    data = WindowData(repo=week.repo, start=start, end=end, roles=week.roles)
    data.activity = [c for c in week.activity if data.in_window(c.created_at)]
    touched = {c.number for c in data.activity}
    # By number, as the loader reads them; then the items they link, by number too.
    data.items = {
        n: week.items[n] for n in sorted(week.active) if n in touched or _dated(data, week.items[n])
    }
    data.active = set(data.items)
    _cut_links(week, data)
    prs = sorted(n for n, item in data.items.items() if item.kind == "pr")
    data.files = {n: week.files[n] for n in prs if n in week.files}
    held = set(prs)
    data.files_cut = week.files_cut & held
    data.unread_diffs = {n: k for n, k in week.unread_diffs.items() if n in held}
    data.maintainer_replied = week.maintainer_replied & data.active
    data.first_review_at = {n: t for n, t in week.first_review_at.items() if n in data.active}
    _cut_named(week, data)
    data.first_merges = _first_merges(week, data)
    data.git_history_complete = week.git_history_complete
    return data


def _dated(data: WindowData, item: Item) -> bool:
    """Opened, closed or merged in the window."""
    return any(data.in_window(x) for x in (item.created_at, item.closed_at, item.merged_at))


def _cut_links(week: WindowData, data: WindowData) -> None:
    """The closing references of the window's items, in the loader's order, and the items on
    their other side that the window does not hold."""
    pairs = sorted((pr, issue) for pr, issues in week.closes.items() for issue in issues)
    for pr, issue in pairs:
        if pr in data.active or issue in data.active:
            data.closes.setdefault(pr, []).append(issue)
            data.closed_by.setdefault(issue, []).append(pr)
    for n in sorted((set(data.closes) | set(data.closed_by)) - set(data.items)):
        if n in week.items:
            data.items[n] = week.items[n]


def _cut_named(week: WindowData, data: WindowData) -> None:
    """What the window's items name and revert, and the named items it does not hold."""
    for n in sorted(data.active):
        if n in week.mentions:
            data.mentions[n] = week.mentions[n]
        if n in week.reverts:
            data.reverts[n] = week.reverts[n]
    wanted = {m.number for found in data.mentions.values() for m in found}
    wanted |= set(data.reverts.values())
    for n in sorted(wanted - set(data.items)):
        item = week.items.get(n) or week.named.get(n)
        if item is not None:
            data.named[n] = item


def _first_merges(week: WindowData, data: WindowData) -> frozenset[str]:
    """The git authors whose first merged PR is in the window: of those whose first is in the
    week, the ones whose earliest merge among the week's items (every merge of theirs up to
    the week's end, none before its start) falls in the window."""
    names = {
        item.author.lower()
        for item in data.items.values()
        if item.author and is_git_name(item.author_type) and data.in_window(item.merged_at)
    } & week.first_merges
    first: dict[str, datetime] = {}
    for item in week.items.values():
        if item.kind == "pr" and item.merged_at is not None and item.author:
            key = item.author.lower()
            if key in names and (key not in first or item.merged_at < first[key]):
                first[key] = item.merged_at
    return frozenset(k for k in names if data.in_window(first.get(k)))
