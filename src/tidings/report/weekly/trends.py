"""The weekly's module trends: changed lines by directory and file, labels and title tags,
against last week."""

from __future__ import annotations

from collections.abc import Sequence

from tidings.facts.slots import Section
from tidings.facts.weekly import Trend
from tidings.report import weekly_model as w
from tidings.report.weekly.writer import WeekWriter


def _rows(trends: Sequence[Trend]) -> list[w.TrendRow]:
    return [
        w.TrendRow(name=x.name, value=x.value, previous=x.previous, change=x.change, prs=x.prs)
        for x in trends
    ]


def trends(wr: WeekWriter) -> w.ModuleTrends:
    dirs, files = wr.week.directories, wr.week.files
    if not dirs:
        text = wr.t("trends_empty")
    else:
        parts = [
            wr.t(
                "trends_text",
                dir=dirs[0].name,
                lines=dirs[0].value,
                prev=dirs[0].previous,
                file=files[0].name,
                flines=files[0].value,
            )
        ]
        rising = sorted(
            (x for x in dirs if x.value > x.previous),
            key=lambda x: (-(x.value - x.previous), x.name),
        )[:3]
        if rising:
            named = [
                wr.t("trends_rise_item", name=x.name, prev=x.previous, value=x.value)
                for x in rising
            ]
            parts.append(wr.t("trends_rising", dirs=wr.join(named)))
        left_out = wr.week.generated_churn
        if left_out:
            parts.append(wr.t("trends_generated", lines=left_out))
        text = wr.sentences(parts)
    return w.ModuleTrends(
        labels=_rows(wr.week.labels),
        title_tags=_rows(wr.week.tags),
        directories=_rows(dirs),
        hot_files=_rows(files),
        text=wr.prose(Section("module_trends"), text),
    )
