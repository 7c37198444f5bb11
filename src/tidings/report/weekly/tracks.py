"""The weekly's topic tracks: for each subject the maintainers follow, the week's merged PRs
and other items in it, most relevant first."""

from __future__ import annotations

from tidings.facts.slots import PRSummary, TrackItemText, TrackText
from tidings.facts.topics import SWEPT
from tidings.facts.weekly import TRACK_ITEMS, Track
from tidings.report import weekly_model as w
from tidings.report.weekly.prs import describe
from tidings.report.weekly.writer import WeekWriter


def tracks(wr: WeekWriter) -> list[w.TrackSection]:
    return [track_section(wr, track) for track in wr.facts.tracks]


def track_section(wr: WeekWriter, track: Track) -> w.TrackSection:
    facts = wr.facts
    merged = [m for m in track.matches if m.number in wr.prs]
    others = len(track.matches) - len(merged)
    items = [
        w.TrackItem(
            item=wr.ref(m.number),
            reasons=list(m.reasons),
            # Facts without the quote: the same PR is quoted under its theme.
            text=wr.prose(
                PRSummary(m.number),
                describe(wr, wr.prs[m.number], quote=False),
                wr.revert_refs(m.number),
            )
            if m.number in wr.prs
            else wr.prose(
                TrackItemText(m.number),
                wr.quote(facts.data.items[m.number].body, facts.data.items[m.number].title),
            ),
        )
        for m in track.matches[:TRACK_ITEMS]
    ]
    # The track's lead: its most relevant merged PR, the most important among equals;
    # never one that only sweeps through the topic's paths (facts/topics.py).
    lead = next((x for x in merged if x.relevance > SWEPT), None)
    if not track.matches:
        empty = "track_empty" if facts.others_known else "track_empty_git"
        text = wr.t(empty, title=track.title)
    else:
        parts = [
            wr.t(
                "track_text",
                title=track.title,
                merged=len(merged),
                others=wr.t("track_others", n=others) if others else "",
            )
        ]
        if lead is not None:
            top = wr.prs[lead.number]
            parts.append(wr.t("track_main", n=top.number, kind=wr.t(f"kind_{wr.kind(top)}")))
        text = wr.sentences(parts)
    cited = [lead.number] if lead is not None else []
    return w.TrackSection(
        title=track.title,
        merged_prs=len(merged),
        other_items=others if facts.others_known else None,
        items=items,
        text=wr.prose(TrackText(track.title), text, cited),
        unlisted=len(track.matches) - len(items),
    )
