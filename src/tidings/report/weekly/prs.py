"""Each merged PR as the weekly lists it (the key-PR quick view, the merged list, and the
entries under themes and highlights), and the rules' account of what it is."""

from __future__ import annotations

from tidings.common.globs import any_match
from tidings.facts import risk
from tidings.facts.importance import top_dirs
from tidings.facts.risk import MergedPR, risk_score
from tidings.facts.slots import PRSummary, PRWhy
from tidings.report import weekly_model as w
from tidings.report.model import Prose
from tidings.report.weekly.writer import WeekWriter


def risk_tags(tags: list[risk.RiskTag]) -> list[w.RiskTag]:
    """The rules' tags as the report states them (its own models, the same fields)."""
    return [
        w.RiskTag(
            tag=t.tag,
            weight=t.weight,
            evidence=[
                w.Evidence(path=e.path, line=e.line, numbers=dict(e.numbers)) for e in t.evidence
            ],
        )
        for t in tags
    ]


def describe(wr: WeekWriter, pr: MergedPR, *, quote: bool = True) -> str:
    """The rules' account of a PR: what kind of change, how big, where, whether tests
    moved with it, and (with `quote`) a short quote of its own summary when it has one
    worth reading."""
    kind = wr.kind(pr)
    if pr.number in wr.facts.bots:
        return wr.t("pr_bot", kind=wr.t(f"kind_{kind}"))
    if kind == "revert" and pr.number in wr.facts.reverts:
        target = wr.facts.reverts[pr.number]
        title = wr.facts.reverted.get(target) or (wr.prs[target].title if target in wr.prs else "")
        label = (
            wr.t("pr_revert", n=target, title=title)
            if title
            else wr.t("pr_revert_unknown", n=target)
        )
    elif (again := wr.reland_text(pr.number)) is not None:
        label = again
    else:
        label = wr.t(f"kind_{kind}")
    area = wr.area(pr)
    tested = any(any_match(wr.repo.test_paths, f.path) for f in pr.files)
    code = sum(
        f.lines for f in pr.files if not any_match(wr.repo.test_paths, f.path)
    )  # fmt: skip
    tests = ""
    # Compared as words: an area that reads "tests" says it already.
    if tested and kind != "test" and area != wr.t("area_tests"):
        tests = wr.t("pr_tests_with")
    elif (
        not tested
        and kind in ("fix", "feature", "refactor", "perf", "code")
        and (code >= wr.repo.risk.missing_tests_min_lines)
    ):
        tests = wr.t("pr_tests_without")
    text = wr.t(
        "pr_desc",
        kind=label,
        files=pr.files_total or len(pr.files),
        additions=pr.additions,
        deletions=pr.deletions,
        where=wr.t("pr_where", area=area) if area else "",
        tests=tests,
    ) + wr.formatting_text(pr.number, "pr_formatting")
    said = wr.quote(pr.body, pr.title) if quote else ""
    return text + (wr.t("pr_quote", quote=said) if said else wr.t("period"))


def weekly_pr(wr: WeekWriter, number: int) -> w.WeeklyPR:
    pr = wr.prs[number]
    scored = wr.facts.scores.get(number)
    tags = wr.facts.risks.get(number, [])
    git = pr.source == "git"
    dirs = list(top_dirs([(f.path, f.lines) for f in pr.files]))
    summary = wr.prose(PRSummary(number), describe(wr, pr), wr.revert_refs(number))
    return w.WeeklyPR(
        item=wr.ref(number),
        source="git" if git else "api",
        author_name=pr.author if git else None,
        additions=pr.additions,
        deletions=pr.deletions,
        changed_files=pr.files_total or len(pr.files),
        files_listed=len(pr.files) if pr.files_total else None,
        files_without_diff=pr.unread_diffs or None,
        reviews_incomplete=pr.reviews_incomplete,
        top_dirs=dirs,
        score=scored.score if scored else 0.0,
        score_parts=scored.parts if scored else {},
        risk_tags=risk_tags(tags),
        risk_score=risk_score(tags),
        summary=summary,
        why=wr.llm_only(PRWhy(number)),
        stated_effect=wr.effect(pr.body, summary),
        reverts=wr.reverted_ref(number),
        relands=wr.reland_refs(number),
        kind=wr.kind(pr),
        bot=number in wr.facts.bots,
        notes=[
            Prose(text=x, by="llm")
            for x in (wr.texts.notes.get(number, []) if wr.texts else [])[:3]
        ],
    )


def merged_prs(wr: WeekWriter) -> dict[int, w.WeeklyPR]:
    """Every merged PR's entry, by number (in importance order)."""
    return {n: weekly_pr(wr, n) for n in wr.facts.ranked}
