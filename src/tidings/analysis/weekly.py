"""What the model reads for each weekly section: payloads drawn from the week's facts and the
per-PR answers, the very lists the weekly report lays out (facts/week_bundle.py computes them
once for both; nothing here recomputes one).

    weekly_highlights  the top merged PRs with their summaries, and last week's themes ->
                       themes, each with its #Ns
    weekly_risks       the risk observations' PRs with tags, code and review threads
    weekly_exec        label, title-tag and risk-tag counts, and last week's risk-tag
                       counts -> what they say
    weekly_themes      the key-change themes with their PRs and last week's size, and last
                       week's themes
    weekly_trends      directory, file, label and tag trends against last week
    weekly_follow_ups  the follow-up groups with their PRs' evidence
    weekly_summary     the opening paragraph (the report's own figures)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from tidings.analysis.cards import evidence_fields
from tidings.facts.slots import (
    FollowUpText,
    PRSummary,
    PRWhy,
    Slot,
    ThemeText,
    TrackItemText,
    TrackText,
)
from tidings.facts.week_bundle import COUNTED, WeekBundle, WeekInput
from tidings.facts.weekly import TRACK_ITEMS, Trend

HIGHLIGHT_PRS = 40  # the most important merged PRs the model groups into themes
THEME_PRS = 5
FOLLOW_PRS = 6
TREND_ROWS = 8  # of each module-trend table


class WeeklyJob(NamedTuple):
    """One weekly section's reduce call: the facts it reads, the logins it may cite and, for
    a section answered by key (themes, follow-ups, tracks), each key with its slot in the
    report, as the payload lists them."""

    section: str
    payload: dict[str, Any]
    logins: set[str]
    keys: tuple[tuple[str, Slot], ...] = ()


def theme_key(kind: str, name: str) -> str:
    return f"{kind}:{name}"


def brief(week: WeekInput, texts: dict[Slot, str], n: int) -> dict[str, Any]:
    """One merged PR as a section lists it: facts, and its model summary when there is one."""
    pr = week.facts.by_number[n]
    entry: dict[str, Any] = {
        "number": n,
        "title": pr.title,
        # A PR read from a git history has a display name, no login (cards.author_fields).
        **(
            {"author": None, "author_name": pr.author}
            if pr.source == "git"
            else {"author": pr.author}
        ),
        "labels": list(pr.labels),
        "additions": pr.additions,
        "deletions": pr.deletions,
        "risk_tags": [t.tag for t in week.facts.risks.get(n, [])],
    }
    if PRSummary(n) in texts:
        entry["summary"] = texts[PRSummary(n)]
    if PRWhy(n) in texts:
        entry["why"] = texts[PRWhy(n)]
    return entry


def evidence_figures(week: WeekInput, n: int) -> dict[str, Any]:
    """What the report states about a PR's review threads and unread files, as figures the
    model may cite (the guard ties each to what it counts)."""
    out: dict[str, Any] = {}
    figures = week.facts.threads.get(n)
    if figures is not None:
        out["review_thread_figures"] = {
            "review_threads_total": figures.threads,
            "review_threads_unresolved": figures.unresolved,
            "review_threads_resolved_without_commit": figures.resolved_without_commit,
            "review_threads_followed_by_commit": figures.followed_by_commit,
        }
    unread = week.facts.by_number[n].unread_diffs
    if unread:
        out["files_without_diff"] = unread
    return out


def _previous_themes(week: WeekBundle) -> list[dict[str, Any]]:
    return [
        {"kind": t.kind, "name": t.name, "merged_prs": len(t.members)} for t in week.previous_themes
    ]


def _rows(trends: Sequence[Trend]) -> list[dict[str, Any]]:
    return [
        {"name": x.name, "this_week": x.value, "previous_week": x.previous, "prs": x.prs}
        for x in trends[:TREND_ROWS]
    ]


def payloads(week: WeekInput, texts: dict[Slot, str]) -> list[WeeklyJob]:
    """A job for every weekly section with something to say."""
    f, lists = week.facts, week.bundle
    if not f.prs:
        return []
    by_number = f.by_number
    authors = {p.author or "" for p in f.prs}
    head = {"week": f.window.label, "merged_prs": len(f.prs)}
    # Last week's themes, grouped as this week's are; under a `previous_week_` key, so their
    # counts are earlier figures to the guard.
    before = {"previous_week_themes": _previous_themes(lists)}
    out: list[WeeklyJob] = []
    out.append(
        WeeklyJob(
            "weekly_highlights",
            head | {"prs": [brief(week, texts, n) for n in f.ranked[:HIGHLIGHT_PRS]]} | before,
            authors,
        )
    )
    if lists.risky:
        prs = []
        logins = set(authors)
        for n in lists.risky:
            fields = evidence_fields(week.evidence.get(n), diff_chars=0)
            logins |= {t["login"] or "" for t in fields["review_threads"]}
            entry = brief(week, texts, n) | {
                "risk_tags": fields["risk_tags"],
                "review_threads": fields["review_threads"],
            }
            prs.append(entry | evidence_figures(week, n))
        out.append(WeeklyJob("weekly_risks", {"prs": prs}, logins))
    out.append(
        WeeklyJob(
            "weekly_exec",
            head
            | {
                "previous_week_merged_prs": len(f.prev_prs),
                "merged_prs_by_label": {x.name: x.value for x in lists.labels[:COUNTED]},
                "merged_prs_by_title_tag": {x.name: x.value for x in lists.tags[:COUNTED]},
                "risk_tags_fired": dict(lists.risk_counts),
                "previous_week_risk_tags_fired": dict(lists.previous_risk_counts),
            },
            set(),
        )
    )
    if lists.key_themes:
        themes = [
            {
                "key": theme_key(t.kind, t.name),
                "kind": t.kind,
                "name": t.name,
                "merged_prs": len(t.members),
                "previous_week_merged_prs": lists.previous_size(t),
                "prs": [brief(week, texts, n) for n in t.members[:THEME_PRS]],
            }
            for t in lists.key_themes
        ]
        by_theme = tuple(
            (theme_key(t.kind, t.name), ThemeText(t.kind, t.name)) for t in lists.key_themes
        )
        out.append(WeeklyJob("weekly_themes", {"themes": themes} | before, authors, by_theme))
    if f.tracks:
        merged = set(by_number)
        tracks = []
        slots: list[tuple[str, Slot]] = []
        for track in f.tracks:
            track_key = f"track:{track.title}"
            slots.append((track_key, TrackText(track.title)))
            items = []
            for m in track.matches[:TRACK_ITEMS]:
                if m.number in merged:
                    items.append(brief(week, texts, m.number) | {"why_listed": list(m.reasons)})
                elif m.number in f.data.items:
                    item = f.data.items[m.number]
                    item_key = f"item:{m.number}"
                    slots.append((item_key, TrackItemText(m.number)))
                    items.append(
                        {
                            "key": item_key,
                            "number": m.number,
                            "kind": item.kind,
                            "state": item.state,
                            "title": item.title,
                            "why_listed": list(m.reasons),
                        }
                    )
            tracks.append(
                {
                    "key": track_key,
                    "title": track.title,
                    "merged_prs": sum(m.number in merged for m in track.matches),
                    "other_items": sum(m.number not in merged for m in track.matches)
                    if f.others_known
                    else None,
                    "items": items,
                }
            )
        out.append(WeeklyJob("weekly_tracks", {"tracks": tracks}, authors, tuple(slots)))
    if lists.directories:
        trends = {
            "changed_lines_by_directory": _rows(lists.directories),
            "changed_lines_by_file": _rows(lists.files),
            "merged_prs_by_label": _rows(lists.labels),
            "merged_prs_by_title_tag": _rows(lists.tags),
        }
        out.append(WeeklyJob("weekly_trends", head | trends, set()))
    if lists.follow_ups:
        groups = []
        named: set[str] = set()
        for g in lists.follow_ups:
            entries = []
            for n in g.numbers[:FOLLOW_PRS]:
                if n in by_number:
                    entries.append(
                        {
                            "number": n,
                            "title": by_number[n].title,
                            # Paths only: a flagged line is code, untrusted, in the risks.
                            "paths": [
                                e.path
                                for t in f.risks.get(n, [])
                                if t.tag == g.reason
                                for e in t.evidence[:3]
                                if e.path
                            ],
                        }
                    )
                    named.add(by_number[n].author or "")
                elif n in f.data.items:
                    item = f.data.items[n]
                    entries.append({"number": n, "title": item.title, "state": item.state})
            groups.append(
                {
                    "key": g.key,
                    "kind": g.kind,
                    "reason": g.reason,
                    "total": len(g.numbers),
                    "items": entries,
                }
            )
        by_group = tuple((g.key, FollowUpText(g.kind, g.reason)) for g in lists.follow_ups)
        out.append(WeeklyJob("weekly_follow_ups", {"groups": groups}, named, by_group))
    summary = summary_facts(lists, texts)
    logins = {x.get("author") or "" for x in summary["key_prs"]}
    out.append(WeeklyJob("weekly_summary", summary, logins))
    return out


def summary_facts(week: WeekBundle, texts: dict[Slot, str]) -> dict[str, Any]:
    """What the model's weekly summary may draw on: the figures of the rules' summary, and
    the key PRs with their model summaries."""
    f = week.facts
    key_prs = []
    for n in week.key_prs:
        pr = f.by_number[n]
        entry: dict[str, Any] = {
            "number": n,
            "title": pr.title,
            # A git history gives a display name, no login.
            **(
                {"author": None, "author_name": pr.author}
                if pr.source == "git"
                else {"author": pr.author}
            ),
            "risk_tags": [t.tag for t in f.risks.get(n, [])],
        }
        if PRSummary(n) in texts:
            entry["summary"] = texts[PRSummary(n)]
        key_prs.append(entry)
    return {
        "week": f.window.label,
        "merged_prs": len(f.prs),
        "previous_week_merged_prs": len(f.prev_prs),
        "themes": [
            {"kind": x.kind, "name": x.name, "merged_prs": len(x.members)} for x in week.key_themes
        ],
        "risk_tags": dict(week.risk_counts),
        "key_prs": key_prs,
    }
