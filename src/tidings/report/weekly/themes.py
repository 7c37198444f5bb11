"""The weekly's key changes by theme (merged PRs sharing a label, title tag or directory)
and the grouping of the full merged list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tidings.facts.importance import top_dirs
from tidings.facts.risk import MergedPR
from tidings.facts.slots import ThemeText
from tidings.facts.weekly import Theme
from tidings.report import weekly_model as w
from tidings.report.weekly.writer import WeekWriter

THEME_ITEMS = 3  # PRs listed under a theme


def key_changes(
    wr: WeekWriter, themes_: Sequence[Theme], prs: dict[int, w.WeeklyPR]
) -> list[w.ThemeChanges]:
    out: list[w.ThemeChanges] = []
    tagged = wr.week.tag_counts
    for theme in themes_:
        members: list[MergedPR] = [wr.prs[n] for n in theme.members]
        adds = sum(p.additions for p in members)
        dels = sum(p.deletions for p in members)
        dirs = top_dirs([(x.path, x.lines) for p in members for x in p.files])
        total = tagged.get(theme.name.lower(), 0) if theme.kind == "tag" else 0
        kinds = Counter(wr.kind(p) for p in members)
        mix = wr.join(
            [
                wr.t("count_kind", kind=wr.t(f"kind_{k}"), n=n)
                for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
            ]
        )
        text = wr.t(
            "theme_text",
            count=len(members),
            tagged=wr.t("theme_tagged", name=theme.name, total=total, other=total - len(members))
            if total > len(members)
            else "",
            additions=adds,
            deletions=dels,
            authors=len({p.author for p in members}),
            dirs=wr.join(list(dirs)) or "-",
            mix=mix,
        )
        out.append(
            w.ThemeChanges(
                kind=theme.kind,
                name=theme.name,
                count=len(members),
                additions=adds,
                deletions=dels,
                items=[prs[n] for n in theme.members[:THEME_ITEMS]],
                text=wr.prose(ThemeText(theme.kind, theme.name), text),
            )
        )
    return out


def merged_groups(wr: WeekWriter) -> list[w.MergedGroup]:
    out = [w.MergedGroup(kind=x.kind, name=x.name, numbers=list(x.members)) for x in wr.week.themes]
    bots = [n for n in wr.facts.ranked if n in wr.facts.bots]
    if bots:
        out.append(w.MergedGroup(kind="bot", name="bot", numbers=bots))
    return out
