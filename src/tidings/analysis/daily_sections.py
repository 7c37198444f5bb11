"""The daily reduce step's jobs: one per report section, each with its slot, the section's
facts (drawn from the `DayFacts` bundle the report writer lays out, with the map step's
summaries) and the logins it may cite."""

from __future__ import annotations

from typing import Any, NamedTuple

from tidings.analysis.budgets import MAX_SECTION_ITEMS
from tidings.analysis.result import Analysis
from tidings.facts.daily import DayFacts
from tidings.facts.slots import HotText, PRSummary, Section, Slot, TopicText


class DailyJob(NamedTuple):
    slot: Slot
    section: str  # the task's name (prompts.SECTION_TASK)
    payload: dict[str, Any]
    logins: set[str]


def section_jobs(out: Analysis, facts: DayFacts, hot_cards: list[dict[str, Any]]) -> list[DailyJob]:
    """One reduce job per report section: its slot, task, facts payload and citable logins.

    Every payload is drawn from `facts`, the bundle the report writer lays out."""
    data = facts.data

    def brief(n: int) -> dict[str, Any]:
        item = data.items[n]
        entry: dict[str, Any] = {
            "number": n,
            "kind": "pr" if item.kind == "pr" else "issue",
            "title": item.title,
            "state": item.display_state,
        }
        summary = out.text(PRSummary(n))
        if summary is not None:
            entry["summary"] = summary
        return entry

    jobs: list[DailyJob] = []
    scored = facts.key_changes
    baseline = facts.baseline
    change = {
        k: round(100 * (v - baseline[k]) / baseline[k])
        for k, v in facts.stats.items()
        if baseline.get(k)
    }
    # What the sources cannot know is null, never 0 (a git clone knows no PR's opening).
    stats: dict[str, int | None] = {
        k: (None if k in facts.unknown else v) for k, v in facts.stats.items()
    }
    summary = {
        "stats": stats,
        "mean_of_previous_7_windows": {k: v for k, v in baseline.items() if k not in facts.unknown},
        "change_percent": {k: v for k, v in change.items() if k not in facts.unknown},
        "busiest_areas": [
            {"kind": c.kind, "name": c.name, "items": len(c.members)} for c in facts.clusters[:3]
        ],
        "key_changes": [brief(s.number) for s in scored],
        "hot_discussions": [
            {
                "number": c["number"],
                "title": c["title"],
                "core_topic": out.text(HotText(c["number"], "core_topic")),
            }
            for c in hot_cards
        ],
        "topics": [{"title": t.title, "items": len(t.matches)} for t in facts.topics],
    }
    authors = {data.items[s.number].author or "" for s in scored}
    jobs.append(DailyJob(Section("summary"), "summary", summary, authors))
    for track in facts.topics:
        matches = track.matches
        if not matches:
            continue
        payload: dict[str, Any] = {
            "topic": track.title,
            "count": len(matches),
            # The newest items, with their map summaries; `count` says how many in all.
            "items": [
                brief(x.number) | {"matched_by": list(x.reasons)}
                for x in matches[:MAX_SECTION_ITEMS]
            ],
        }
        logins = {data.items[x.number].author or "" for x in matches}
        jobs.append(DailyJob(TopicText(track.title), "topic", payload, logins))
    if facts.clusters:
        payload = {
            "clusters": [
                {
                    "kind": c.kind,
                    "name": c.name,
                    "count": len(c.members),
                    "items": [{"number": n, "title": data.items[n].title} for n in c.members[:8]],
                }
                for c in facts.clusters
            ]
        }
        jobs.append(DailyJob(Section("trends"), "trends", payload, set()))
    act = facts.activity
    # A git clone alone holds no comments or reviews: who reviewed or commented is unknown
    # (null), and the people counted are the merged PRs' authors (facts/coverage.py).
    git_only = facts.git_only
    payload = {
        "human_participants": None if git_only else facts.participants,
        "human_authors_of_merged_prs": facts.participants if git_only else None,
        "top_authors_ranked_by": "prs_merged" if act.authors_by == "merged" else "items_opened",
        "top_authors": dict(act.top_authors),
        "top_reviewers": None if git_only else dict(act.top_reviewers),
        "top_commenters": None if git_only else dict(act.top_commenters),
        # Null when the sources cannot tell (facts/activity.py), never an empty "none".
        "first_time_contributors": [k for k, _ in act.first_timers]
        if act.first_timers_known
        else None,
        "review_latency_hours_median": act.review_latency_hours_median,
        "review_latency_sample": act.review_latency_sample,
    }
    logins = (
        {k for k, _ in act.top_authors}
        | {k for k, _ in act.top_reviewers}
        | {k for k, _ in act.top_commenters}
        | {k for k, _ in act.first_timers}
    )
    jobs.append(DailyJob(Section("activity"), "activity", payload, logins))
    if facts.watch:
        payload = {
            "count": len(facts.watch),
            "issues": [
                {
                    "number": w.number,
                    "title": data.items[w.number].title,
                    "reasons": list(w.reasons),
                    "comments_in_window": w.comments_in_window,
                    "reactions": data.items[w.number].reactions,
                    "age_days": w.age_days,
                }
                for w in facts.watch
            ],
        }
        logins = {data.items[w.number].author or "" for w in facts.watch}
        jobs.append(DailyJob(Section("watch"), "watch", payload, logins))
    return jobs
