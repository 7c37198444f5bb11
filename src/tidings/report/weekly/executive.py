"""The weekly's executive summary: merged PRs against last week, and the week's labels,
title tags and risk tags by count."""

from __future__ import annotations

from tidings.facts.slots import Section
from tidings.facts.week_bundle import COUNTED
from tidings.report import weekly_model as w
from tidings.report.weekly.writer import WeekWriter
from tidings.words.weekly import tag_name


def executive(wr: WeekWriter) -> w.ExecutiveSummary:
    f = wr.facts
    labels = wr.week.labels[:COUNTED]
    tags = wr.week.tags[:COUNTED]
    by_risk = [w.RiskCount(name=k, count=n) for k, n in wr.week.risk_counts]
    merged, prev = len(f.prs), len(f.prev_prs)
    if prev:
        pct = round(abs(merged - prev) * 100 / prev)
        key = "exec_change_same" if merged == prev else (
            "exec_change_up" if merged > prev else "exec_change_down"
        )  # fmt: skip
        change = wr.t(key, pct=pct)
    else:
        change = wr.t("exec_change_none")
    parts = [wr.t("exec_text", merged=merged, prev=prev, change=change)]
    if labels:
        parts.append(
            wr.t(
                "exec_labels",
                labels=wr.join([wr.t("count_pr", name=x.name, count=x.value) for x in labels[:4]]),
            )
        )
    if tags:
        parts.append(
            wr.t(
                "exec_tags",
                tags=wr.join([wr.t("count_pr", name=x.name, count=x.value) for x in tags[:4]]),
            )
        )
    if by_risk:
        parts.append(
            wr.t(
                "exec_risks",
                tags=wr.join(
                    [
                        wr.t("exec_risk_item", name=tag_name(wr.lang, x.name), count=x.count)
                        for x in by_risk[:4]
                    ]
                ),
            )
        )
        parts.append(wr.t(f"exec_means_{by_risk[0].name}", n=by_risk[0].count))
    return w.ExecutiveSummary(
        merged_prs=merged,
        previous_merged_prs=prev,
        by_label=[w.NameCount(name=x.name, count=x.value) for x in labels],
        by_title_tag=[w.NameCount(name=x.name, count=x.value) for x in tags],
        by_risk_tag=by_risk,
        text=wr.prose(Section("exec"), wr.sentences(parts)),
    )
