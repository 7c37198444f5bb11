"""Building a weekly report from facts, with the deterministic writer's prose.

Every number, reference and tag comes from facts/ (weekly.py, week_bundle.py, risk.py,
importance.py, change_kinds.py); every sentence here states only what those facts show. With
a model (`analysis`), `Prose` values change, never the facts around them: a PR's `summary` and
`notes` come from the per-PR map answers of the week's daily windows (the same cards as the
daily reports, so cache hits once the days were reported; highlights and theme lists show
those summaries), and the opening summary from one reduce call over the week's figures.
Everything passes the same validation and faithfulness guard as the daily report; whatever
fails keeps the rules' text.

    build.py        build_weekly: the facts and their lists (facts/week_bundle.py, computed
                    once), the model's texts, the report put together
    writer.py       what the sections share: words, links, a PR's kind and area, quotes
    prs.py          each merged PR's entry (key PRs, the merged list) and its description
    summary.py      the opening summary and the coverage note
    highlights.py   highlights
    risks.py        risk observations and review-thread sentences
    executive.py    the executive summary
    themes.py       key changes by theme, the merged list's groups
    trends.py       module trends
    tracks.py       topic tracks
    follow_ups.py   follow-ups
"""

from tidings.report.weekly.build import build_weekly
from tidings.report.weekly_model import WeeklyReport

__all__ = ["WeeklyReport", "build_weekly"]
