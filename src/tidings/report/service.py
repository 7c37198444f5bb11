"""The one route to a report: `tidings.build_daily/build_weekly`, `tidings run`, the queue's
jobs and the demo all build their reports here, so every one of them gets the same checks.

A `ReportService` is bound to one repository in one store (with the model layer or without,
one `now`). Before it builds a window it checks two things the report's numbers depend on:

- **coverage** (facts/coverage.py): the window has ended and the store's data reaches its end.
  Otherwise it raises `UncoveredWindowError`, or with `allow_partial` builds the report anyway
  (its header says where the data stops) and keeps the reason in `warnings`;
- **maintainer teams**: a team in `maintainer_teams` that no sync has listed counts nobody as a
  maintainer, so the roles quietly fall back to GitHub's association — said once per service.

The caller decides what a warning becomes: the API raises a TidingsWarning, `run` keeps it in
its result, the demo (whose sample ends mid-day by design) leaves it to the report's header.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING

from tidings.common.config import Lang, RepoConfig
from tidings.facts.coverage import uncovered
from tidings.facts.load.coverage import coverage
from tidings.facts.windows import Window, daily_window, weekly_window
from tidings.store import Store

if TYPE_CHECKING:
    from tidings.analysis.analyst import Analyst
    from tidings.report.model import DailyReport
    from tidings.report.weekly_model import WeeklyReport


@dataclass
class ReportService:
    store: Store
    repo: RepoConfig
    analysis: Analyst | None = None
    web_url: str = "https://github.com"
    now: datetime | None = None
    # What the caller should pass on: unlisted teams (once), windows built partial.
    warnings: list[str] = field(default_factory=list)
    _teams_checked: bool = field(default=False, repr=False)

    def daily(self, day: date, lang: Lang, *, allow_partial: bool = False) -> DailyReport:
        """The day's report (its window starts at the repository's cut-off)."""
        from tidings.report.daily import build_daily

        self._check_teams()
        self.check(daily_window(day, self.repo.tz, self.repo.cutoff_time), allow_partial)
        return build_daily(
            self.store,
            self.repo,
            day,
            lang,
            web_url=self.web_url,
            now=self.now,
            analysis=self.analysis,
        )

    def weekly(
        self, year: int, week: int, lang: Lang, *, allow_partial: bool = False
    ) -> WeeklyReport:
        """The ISO week's report."""
        from tidings.report.weekly import build_weekly

        window = weekly_window(year, week, self.repo.tz, self.repo.cutoff_time)
        self._check_teams()
        self.check(window, allow_partial)
        return build_weekly(
            self.store,
            self.repo,
            year,
            week,
            lang,
            web_url=self.web_url,
            now=self.now,
            analysis=self.analysis,
        )

    def check(self, window: Window, allow_partial: bool = False) -> None:
        """Raise UncoveredWindowError for a window the store does not cover, or with
        `allow_partial` keep why in `warnings`."""
        with self.store.engine.connect() as conn:
            repo_id = self.store.require_repo(conn, self.repo.name)
            problem = uncovered(window, coverage(conn, repo_id), self.repo.name, self.now)
        if problem is None:
            return
        if not allow_partial:
            raise problem
        self.warnings.append(f"{problem.cause} — the numbers cover only what the store holds")

    def _check_teams(self) -> None:
        if self._teams_checked or not self.repo.maintainer_teams:
            return
        self._teams_checked = True
        from tidings.store.teams import read_teams

        with self.store.engine.connect() as conn:
            repo_id = self.store.repo_id(conn, self.repo.name)
            listed = read_teams(conn, repo_id) if repo_id is not None else {}
        for team in self.repo.maintainer_teams:
            if team.lower() not in listed:
                self.warnings.append(
                    f"team {team} (maintainer_teams) has not been listed by a sync, so its "
                    f"members count by their GitHub association only — run tidings sync "
                    f"{self.repo.name} (a private team needs a token with read:org)"
                )

    def take_warnings(self) -> list[str]:
        """The warnings so far, each handed out once."""
        taken, self.warnings = self.warnings, []
        return taken
