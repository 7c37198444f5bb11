"""How far the store's copy of a repository reaches, and whether a window lies inside it.

A report on a window is only honest when the store holds the whole window: a day past the
last sync would otherwise read as a confident "quiet window". The store's data for a
repository *reaches* the later of two times:

- the **last sync**: the newest time a sync wrote its state for the repository (a GitHub sync
  marks its completion, even when nothing changed; a git sync marks every run, so pull the
  clone first; a snapshot carries the sync state of the store it was exported from);
- the **newest update**: the newest `updated_at` of its issues and PRs, which is all a store
  built from a snapshot without sync state (such as the demo's sample) can show.

A window is **covered** when it has ended (its end is not after now) and the data reaches its
end. `tidings report daily|weekly` and `tidings stats` refuse any other window with one line
and exit 1, unless given `--allow-partial`. facts/load/coverage.py reads the two times.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from tidings.errors import UncoveredWindowError
from tidings.facts.activity_data import WindowData
from tidings.facts.actors import is_git_name
from tidings.facts.stats import GIT_ONLY_UNKNOWN, GIT_UNKNOWN
from tidings.facts.windows import Window, utc_offset


@dataclass(frozen=True)
class Coverage:
    last_synced: datetime | None  # newest sync-state write (GitHub or git sync)
    latest_update: datetime | None  # newest item updated_at

    @property
    def reaches(self) -> datetime | None:
        known = [t for t in (self.last_synced, self.latest_update) if t is not None]
        return max(known) if known else None


def _at(moment: datetime, tz: ZoneInfo) -> str:
    local = moment.astimezone(tz)
    return f"{local:%Y-%m-%d %H:%M} ({utc_offset(local)})"


def uncovered(
    window: Window, cov: Coverage, repo: str, now: datetime | None = None
) -> UncoveredWindowError | None:
    """Why `window` is not covered (an error to raise or to show as a warning), or None."""
    moment = now or datetime.now(UTC)
    flag = "or pass --allow-partial to report what the store holds"
    if window.end > moment:
        return UncoveredWindowError(
            f"{window.label} has not ended yet: its window closes {_at(window.end, window.tz)}",
            f"report it after then (and after a sync), {flag}",
        )
    reaches = cov.reaches
    if reaches is None:
        return UncoveredWindowError(
            f"the store holds no data for {repo} yet", f"run `tidings sync {repo}` first, {flag}"
        )
    if reaches < window.end:
        where = (
            f"the store has no data for {window.label} of {repo}"
            if reaches <= window.start
            else f"the store's data for {repo} stops inside {window.label}"
        )
        return UncoveredWindowError(
            f"{where}: it reaches {_at(reaches, window.tz)}, the window closes "
            f"{_at(window.end, window.tz)}",
            f"run `tidings sync {repo}` to bring it up to date, {flag}",
        )
    return None


def data_stops_inside(window: Window, cov: Coverage) -> datetime | None:
    """Where the store's data stops when that is before the window's end (a partial window:
    one that has not ended, or that no sync has reached the end of), else None. A report of
    such a window says so in its header; with no data at all it stops at the window's start."""
    reaches = cov.reaches
    if reaches is None:
        return window.start
    return max(reaches, window.start) if reaches < window.end else None


def git_prs(data: WindowData, merged: list[int]) -> list[int]:
    """The window's merged PRs that came from a git clone."""
    return [n for n in merged if n in data.items and is_git_name(data.items[n].author_type)]


def unknown_counts(data: WindowData, merged: list[int], api_data: bool) -> tuple[str, ...]:
    """The headline counts the window's sources cannot know (one representation: the report
    prints "—" for them, and the model is given null, never 0). A store with nothing from the
    API knows only merges, in every window, one without a merge included: its quiet day is
    not a day nobody opened an issue."""
    if not api_data:
        return GIT_ONLY_UNKNOWN
    return GIT_UNKNOWN if git_prs(data, merged) else ()


def opened_unknown(unknown: tuple[str, ...]) -> bool:
    """Whether who opened the window's PRs is unknown: then its authors are ranked by what they
    merged, the one thing a git clone records."""
    return "new_prs" in unknown
