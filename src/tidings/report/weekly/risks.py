"""The weekly's risk observations: the merged PRs with risk tags, heaviest first, each with
what the rules saw, what to check, and its review threads."""

from __future__ import annotations

from tidings.common.config import Lang
from tidings.facts import risk
from tidings.facts.review_figures import ThreadFigures
from tidings.facts.risk import risk_score
from tidings.facts.slots import RiskText
from tidings.report import weekly_model as w
from tidings.report.model import Prose
from tidings.report.weekly.prs import risk_tags
from tidings.report.weekly.writer import WeekWriter
from tidings.words.weekly import tag_name, wt


def risk_observations(wr: WeekWriter) -> list[w.RiskObservation]:
    f = wr.facts
    out: list[w.RiskObservation] = []
    for n in wr.week.risky:
        tags = f.risks[n]
        names = wr.join([tag_name(wr.lang, t.tag) for t in tags])
        out.append(
            w.RiskObservation(
                item=wr.ref(n),
                risk_score=risk_score(tags),
                tags=risk_tags(tags),
                observation=wr.prose(
                    RiskText(n, "observation"),
                    wr.sentences(
                        [
                            wr.t(
                                "risk_observation",
                                n=len(tags),
                                score=f"{risk_score(tags):g}",
                                tags=names,
                            ),
                            wr.formatting_text(n, "risk_formatting"),
                        ]
                    ),
                ),
                follow_up=wr.prose(
                    RiskText(n, "follow_up"),
                    specific_follow_up(wr, n, tags),
                    wr.revert_refs(n),
                ),
                reverts=wr.reverted_ref(n),
                relands=wr.reland_prose(n),
                review_threads=review_threads(wr, n),
                files_without_diff=f.by_number[n].unread_diffs or None,
            )
        )
    return out


def review_threads(wr: WeekWriter, number: int) -> w.ReviewThreads | None:
    figures = wr.facts.threads.get(number)
    if figures is None:
        return None
    return w.ReviewThreads(
        threads=figures.threads,
        unresolved=figures.unresolved,
        resolved_without_commit=figures.resolved_without_commit,
        followed_by_commit=figures.followed_by_commit,
        text=Prose(text=thread_text(wr.lang, figures)),
    )


def thread_text(lang: Lang, f: ThreadFigures) -> str:
    """The rules' sentence on a PR's review threads: how many are still unresolved, how many
    were resolved with no commit after them, how many a later commit followed."""

    def one(key: str, n: int) -> str:  # the singular where English needs one
        return f"{key}_one" if n == 1 else key

    total = f.threads
    if f.unresolved:
        parts = [wt(lang, "th_unresolved", n=f.unresolved, total=total)]
    else:
        parts = [wt(lang, one("th_resolved", total), total=total)]
    if f.resolved_without_commit:
        parts.append(
            wt(lang, one("th_no_commit", f.resolved_without_commit), n=f.resolved_without_commit)
        )
    if f.followed_by_commit:
        parts.append(wt(lang, "th_followed", n=f.followed_by_commit))
    elif f.followed_by_commit == 0 and f.resolved_without_commit != total:
        # No commit after any thread: said here unless the part above said it of them all.
        parts.append(wt(lang, one("th_none_followed", total)))
    return wt(lang, "th_sep").join(parts)


def specific_follow_up(wr: WeekWriter, number: int, tags: list[risk.RiskTag]) -> str:
    """What to check on this PR in particular, or "" when only the general follow-ups
    (the section below, one line per tag) apply: the same advice is not repeated on
    every risk."""
    names = {t.tag for t in tags}
    if "revert" in names and number in wr.facts.reverts:
        return wr.t("fu_revert_one", n=wr.facts.reverts[number])
    for tag in tags:
        if tag.tag == "tests_removed" and tag.evidence and tag.evidence[0].path:
            name = tag.evidence[0].path.rsplit("/", 1)[-1]  # the path is in the line above
            return wr.t("fu_tests_removed_one", path=name)
    return ""
