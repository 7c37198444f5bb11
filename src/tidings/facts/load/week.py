"""One ISO week's facts (facts/weekly.py `WeekFacts`): the merged PRs of the week and the week
before, the week's items and conversation, and what its reverts and re-lands name.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from tidings.common.config import RepoConfig
from tidings.facts.load.coverage import has_api_items
from tidings.facts.load.lookups import reverted_titles
from tidings.facts.load.merged import load_merged
from tidings.facts.load.reviews import load_thread_figures
from tidings.facts.load.roles import load_roles
from tidings.facts.load.stats import data_as_of
from tidings.facts.load.window import load_window
from tidings.facts.weekly import WeekFacts, reverted_names, week_facts
from tidings.facts.windows import Window, previous


def load_week(conn: Connection, repo_id: int, repo: RepoConfig, window: Window) -> WeekFacts:
    prev_window = previous(window)
    prs = load_merged(conn, repo_id, window.start, window.end)
    prev_prs = load_merged(conn, repo_id, prev_window.start, prev_window.end)
    data = load_window(
        conn, repo_id, repo.name, window.start, window.end, roles=load_roles(conn, repo_id, repo)
    )
    return week_facts(
        repo,
        window,
        prs,
        prev_prs,
        data,
        as_of=data_as_of(conn, repo_id),
        reverted=reverted_titles(conn, repo_id, reverted_names(prs)),
        threads=load_thread_figures(conn, repo_id, {p.number for p in prs}, window.end),
        api_data=has_api_items(conn, repo_id),
    )
