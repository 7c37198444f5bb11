"""What a model reads for a week: the week's daily windows as the daily reports hand them to
it (so the week's PR cards are the dailies' cards), the evidence per day and for the week,
and the lists the weekly report shows."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection

from tidings.common.config import RepoConfig
from tidings.facts.daily import DayFacts
from tidings.facts.evidence import PREvidence
from tidings.facts.load.day import load_day
from tidings.facts.load.evidence import window_evidence
from tidings.facts.load.roles import load_roles
from tidings.facts.weekly import (
    WeekFacts,
    WeekInput,
    follow_up_groups,
    risk_counts,
    risky,
    themes,
)
from tidings.facts.windows import daily_window
from tidings.report.weekly.prs import KEY_PRS
from tidings.report.weekly.writer import THEMES


def daily_facts(
    conn: Connection, repo_id: int, repo: RepoConfig, year: int, week: int
) -> list[DayFacts]:
    """The week's daily windows as the daily report hands them to the model (the same facts,
    without the baseline no PR card reads), so the PR cards built from them are the daily
    report's cards."""
    monday = date.fromisocalendar(year, week, 1)
    roles = load_roles(conn, repo_id, repo)
    return [
        load_day(
            conn,
            repo_id,
            repo,
            daily_window(monday + timedelta(days=k), repo.tz, repo.cutoff_time),
            history=0,
            roles=roles,
        )
        for k in range(7)
    ]


def model_input(
    conn: Connection, repo_id: int, repo: RepoConfig, facts: WeekFacts, days: list[DayFacts]
) -> tuple[list[dict[int, PREvidence]], WeekInput]:
    """Evidence per daily window (so the week's PR cards are the dailies' cards) and for the
    week, with the lists the report will show, for the model."""
    per_day: list[dict[int, PREvidence]] = []
    for day in days:
        numbers = [n for n, item in day.data.items.items() if item.kind == "pr"]
        authors = {n: day.data.items[n].author for n in numbers}
        start, end = day.window.start, day.window.end
        merged = [p for p in facts.prs if start <= p.merged_at < end]
        per_day.append(
            window_evidence(
                conn, repo_id, repo, start, end, numbers, authors, merged=merged, tags=facts.risks
            )
        )
    week = window_evidence(
        conn,
        repo_id,
        repo,
        facts.window.start,
        facts.window.end,
        [p.number for p in facts.prs],
        {p.number: p.author for p in facts.prs},
        merged=facts.prs,
        tags=facts.risks,
    )
    return per_day, WeekInput(
        facts=facts,
        evidence=week,
        themes=themes(facts, THEMES),
        risky=risky(facts, repo.risk.top),
        follow_ups=follow_up_groups(facts),
        summary=summary_facts(facts),
    )


def summary_facts(f: WeekFacts) -> dict[str, Any]:
    """What the model's weekly summary may draw on: the figures of the rules' summary."""
    return {
        "week": f.window.label,
        "merged_prs": len(f.prs),
        "previous_week_merged_prs": len(f.prev_prs),
        "themes": [
            {"kind": x.kind, "name": x.name, "merged_prs": len(x.members)}
            for x in themes(f, THEMES)
        ],
        "risk_tags": dict(sorted(risk_counts(f).items(), key=lambda kv: (-kv[1], kv[0]))),
        "key_prs": [
            {
                "number": n,
                "title": f.by_number[n].title,
                # A git history gives a display name, no login.
                **(
                    {"author": None, "author_name": f.by_number[n].author}
                    if f.by_number[n].source == "git"
                    else {"author": f.by_number[n].author}
                ),
                "risk_tags": [t.tag for t in f.risks.get(n, [])],
            }
            for n in f.ranked[:KEY_PRS]
        ],
    }
