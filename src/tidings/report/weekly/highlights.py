"""The weekly's highlights: the model's technical directions when it wrote them, else the
rules' pick of the week's most telling merged PRs."""

from __future__ import annotations

from collections.abc import Sequence

from tidings.facts.slots import PRSummary
from tidings.facts.weekly import Theme
from tidings.report import weekly_model as w
from tidings.report.model import Prose
from tidings.report.weekly.prs import describe
from tidings.report.weekly.themes import THEME_ITEMS
from tidings.report.weekly.writer import WeekWriter

HIGHLIGHTS = 5


def highlights(
    wr: WeekWriter, themes_: Sequence[Theme], prs: dict[int, w.WeeklyPR]
) -> list[w.Highlight]:
    """The model's technical directions when it wrote them (members checked in
    analysis); else reverts first, then the most important PR of each leading theme,
    then the next ones."""
    groups = wr.texts.highlights if wr.texts is not None else []
    if groups:
        return [
            w.Highlight(
                theme=g.theme,
                item=wr.ref(g.numbers[0]),
                text=Prose(text=g.text, by="llm"),
                more=[wr.ref(n) for n in g.numbers[1:]],
            )
            for g in groups
        ]
    facts = wr.facts
    picked: list[tuple[str, int]] = [
        (wr.t("highlight_revert"), n) for n in facts.ranked if n in facts.reverts
    ][:2]
    for theme in themes_:
        if theme.members and theme.members[0] not in {n for _, n in picked}:
            picked.append((wr.theme_label(theme.kind, theme.name), theme.members[0]))
        if len(picked) == HIGHLIGHTS:
            break
    chosen = {n for _, n in picked}
    for n in facts.ranked:
        if len(picked) >= HIGHLIGHTS:
            break
        if n not in chosen and n not in facts.bots:
            picked.append(("", n))
            chosen.add(n)
    # A Chinese report quotes a PR once: under its theme when it is listed there.
    under_themes = {n for x in themes_ for n in x.members[:THEME_ITEMS]}
    return [
        w.Highlight(
            theme=theme,
            item=wr.ref(n),
            text=wr.prose(PRSummary(n), describe(wr, wr.prs[n], quote=False), wr.revert_refs(n))
            if wr.lang == "zh" and n in under_themes
            else prs[n].summary,
        )
        for theme, n in picked
    ]
