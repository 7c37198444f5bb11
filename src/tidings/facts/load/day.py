"""One daily window's facts (facts/daily.py `DayFacts`): its rows, its counts and those of the
days before, and the hot PR threads' review record.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.engine import Connection

from tidings.common.config import RepoConfig
from tidings.facts.coverage import unknown_counts
from tidings.facts.daily import HISTORY, DayFacts, day_facts
from tidings.facts.load.coverage import has_api_items
from tidings.facts.load.reviews import load_review_notes
from tidings.facts.load.roles import load_roles
from tidings.facts.load.stats import data_as_of, item_lists
from tidings.facts.load.window import load_window
from tidings.facts.roles import Roles
from tidings.facts.windows import Window, previous


def load_day(
    conn: Connection,
    repo_id: int,
    repo: RepoConfig,
    window: Window,
    *,
    history: int = HISTORY,
    roles: Roles | None = None,
) -> DayFacts:
    """The window's facts; `history` previous windows give the baseline (0: none, as the
    weekly report's days need none). `roles` saves reloading them for several windows."""
    roles = roles if roles is not None else load_roles(conn, repo_id, repo)
    lists = item_lists(conn, repo_id, window)
    past = [item_lists(conn, repo_id, previous(window, k)).counts() for k in range(1, history + 1)]
    data = load_window(conn, repo_id, repo.name, window.start, window.end, roles=roles)
    unknown = unknown_counts(data, lists.merged_prs, has_api_items(conn, repo_id))
    facts = day_facts(repo, window, data, lists, past, data_as_of(conn, repo_id), unknown)
    # The hot PR threads' review record, before the window too (a handful of PRs).
    prs = [d.number for d in facts.hot if data.items[d.number].kind == "pr"]
    if not prs:
        return facts
    notes = load_review_notes(conn, repo_id, prs, window.end, roles, repo.bots)
    hot = [replace(d, review_notes=notes.get(d.number, [])) for d in facts.hot]
    return replace(facts, hot=hot)
