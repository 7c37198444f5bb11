"""The weekly's opening: the summary paragraph, and what the sources cover."""

from __future__ import annotations

from collections.abc import Sequence

from tidings.facts.slots import Section
from tidings.facts.weekly import Theme
from tidings.report import weekly_model as w
from tidings.report.model import Prose
from tidings.report.weekly.writer import WeekWriter
from tidings.words.weekly import tag_name


def summary(
    wr: WeekWriter,
    year: int,
    week: int,
    first: str,
    last: str,
    themes_: Sequence[Theme],
    observations: list[w.RiskObservation],
) -> Prose:
    values = {"year": year, "week": week, "first": first, "last": last}
    facts = wr.facts
    if not facts.prs:
        return Prose(text=wr.t("summary_empty", project=wr.repo.project, **values))
    parts = [
        wr.t(
            "summary",
            project=wr.repo.project,
            merged=len(facts.prs),
            prev=len(facts.prev_prs),
            **values,
        )
    ]
    directions = [x for x in themes_ if not x.generic][:3] or themes_[:3]
    if directions:
        named = [wr.theme_label(x.kind, x.name) for x in directions]
        parts.append(wr.t("summary_directions", themes=wr.join(named)))
    if facts.reverts:
        pairs = [
            wr.t("summary_revert_item", revert=n, reverted=m)
            for n, m in sorted(facts.reverts.items())
        ]
        parts.append(wr.t("summary_reverts", n=len(facts.reverts), list=wr.join(pairs)))
    relands = [
        wr.t("summary_reland_item", reland=n, what=what)
        for n in sorted(facts.relands)
        if (what := wr.reland_text(n)) is not None
    ]
    if relands:
        parts.append(wr.t("summary_relands", n=len(relands), list=wr.join(relands)))
    if facts.bots:
        parts.append(wr.t("summary_bots", n=len(facts.bots)))
    counts = wr.week.risk_counts
    if counts:
        listed = wr.join(
            [wr.t("exec_risk_item", name=tag_name(wr.lang, k), count=n) for k, n in counts[:2]]
        )
        parts.append(
            wr.t(
                "summary_risks",
                total=sum(n for _, n in counts),
                tags=listed,
                observed=len(observations),
            )
        )
    else:
        parts.append(wr.t("summary_norisk"))
    cited = [n for pair in facts.reverts.items() for n in pair]
    cited += [n for r in facts.relands for n in (r, *wr.revert_refs(r))]
    return wr.prose(Section("summary"), wr.sentences(parts), cited)


def coverage(wr: WeekWriter) -> w.Coverage:
    git = wr.facts.sources.get("git", 0)
    api = wr.facts.sources.get("api", 0)
    if not git:
        return w.Coverage(api_prs=api, git_prs=0, needs_api=[], text=None)
    needs = ["labels", "reviews", "comments", "unresolved_threads"]
    if not wr.facts.api_data:
        needs.append("issues")
    missing = wr.join([wr.t(f"need_{k}") for k in needs])
    text = wr.t("coverage", git=git, missing=missing, repo=wr.repo.name)
    return w.Coverage(api_prs=api, git_prs=git, needs_api=needs, text=Prose(text=text))
