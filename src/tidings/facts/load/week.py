"""One ISO week's facts (facts/weekly.py `WeekFacts`): the merged PRs of the week and the week
before, the week's items and conversation, and what its reverts and re-lands name; and, for a
model, its daily windows and evidence, read once for all seven days.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from tidings.common.config import RepoConfig
from tidings.facts.evidence import PREvidence, pr_evidence
from tidings.facts.load.coverage import has_api_items
from tidings.facts.load.lookups import reverted_titles
from tidings.facts.load.merged import load_merged
from tidings.facts.load.reviews import load_thread_figures, read_threads
from tidings.facts.load.roles import load_roles
from tidings.facts.load.stats import data_as_of, item_dates
from tidings.facts.load.window import load_window
from tidings.facts.risk import MergedPR
from tidings.facts.week_bundle import WeekBundle, WeekInput
from tidings.facts.week_days import week_days
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


# A window's PRs whose evidence a model reads: their numbers with their authors, and the
# window's merged PRs (their files and patches).
_Wanted = tuple[dict[int, str | None], list[MergedPR]]


def load_week_input(
    conn: Connection, repo_id: int, repo: RepoConfig, week: WeekBundle
) -> WeekInput:
    """What a model reads for the week: its seven daily windows cut from the week's rows
    (facts/week_days.py; one read of the week's item dates gives their counts), and the
    evidence of each day's PRs and of the week's merged PRs, from one read of their review
    threads. Each day's evidence is what the daily report's model reads, so a PR's card is
    the same in both."""
    facts = week.facts
    days = week_days(facts, repo, item_dates(conn, repo_id, facts.window))
    wanted: list[_Wanted] = []
    for day in days:
        items = day.data.items
        authors = {n: item.author for n, item in items.items() if item.kind == "pr"}
        merged = [p for p in facts.prs if day.data.in_window(p.merged_at)]
        wanted.append((authors, merged))
    wanted.append(({p.number: p.author for p in facts.prs}, facts.prs))
    rows = read_threads(conn, repo_id, {n for authors, _ in wanted for n in authors})
    evidence: list[dict[int, PREvidence]] = [
        pr_evidence(authors, repo, merged, rows.threads(authors, authors, repo.bots), facts.risks)
        for authors, merged in wanted
    ]
    return WeekInput(week, evidence=evidence[-1], days=days, day_evidence=evidence[:-1])
