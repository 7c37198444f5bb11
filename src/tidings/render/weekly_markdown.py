"""Markdown from the weekly report model, through templates/weekly.md.j2 (both languages).

As for the daily report: untrusted values (titles, names, paths, added lines, prose) pass
through render/escape.py, and links are built from the repository name and number only.
"""

from __future__ import annotations

import re
from datetime import datetime

from tidings.config import Lang
from tidings.render.escape import md_code, md_inline
from tidings.render.markdown_common import item_link, login_link, markdown_env, tidy
from tidings.report import weekly_model as w
from tidings.report.model import ItemRef
from tidings.report.weekly_model import Evidence, RiskTag
from tidings.words.weekly import TEXT, tag_name, wt

# Evidence entries shown per tag in the Markdown (the JSON has them all, up to five).
SHOWN_EVIDENCE = 2
_LEADING_TAGS = re.compile(r"^\s*(?:\[[^\[\]]{1,40}\]\s*:?\s*)+")


def bare_title(title: str) -> str:
    """A title without its leading `[Tag]`s, where the group and the kind beside it say them."""
    return _LEADING_TAGS.sub("", title).strip() or title


def _evidence(lang: Lang, tag: RiskTag, e: Evidence) -> str:
    def tr(key: str, **values: object) -> str:
        return wt(lang, key, **values)

    n = e.numbers
    path = md_code(e.path) if e.path else ""
    match tag.tag:
        case "missing_tests" if not e.path:
            return tr("ev_missing_tests", **n)
        case "tests_removed" if n.get("disabled"):
            return tr("ev_tests_disabled", path=path, line=md_code(e.line or ""))
        case "dependency_change" if n.get("pin"):
            return tr("ev_pin", path=path, line=md_code(e.line or ""))
        case "tests_removed" if n.get("deleted_file"):
            return tr("ev_tests_removed_deleted", path=path, deletions=n.get("deletions", 0))
        case "tests_removed":
            return tr("ev_tests_removed", path=path, **n)
        case "large_change":
            return tr("ev_large_change", **n)
        case "assert_validation" | "revert":
            return tr(f"ev_{tag.tag}", path=path, line=md_code(e.line or ""))
        case "no_approval" | "follow_up_promised":
            return tr(f"ev_{tag.tag}", **n)
    if e.path and "lines" in n:
        return tr("ev_path_lines", path=path, lines=n["lines"])
    return path or md_inline(e.line)


def render_weekly_markdown(report: w.WeeklyReport) -> str:
    lang = report.lang
    sep = TEXT[lang]["list_sep"]

    def tr(key: str, **values: object) -> str:
        return wt(lang, key, **values)

    def who(pr: w.WeeklyPR) -> str:
        if pr.author_name is not None:  # a git name: plain text, never a profile link
            return md_inline(pr.author_name)
        return login_link(pr.item.author, lang)

    def tag_label(tag: RiskTag) -> str:
        return tag_name(lang, tag.tag)

    def tags_line(tags: list[RiskTag]) -> str:
        return sep.join(tag_label(t) for t in tags) if tags else tr("appendix_none")

    def evidence(tag: RiskTag) -> str:
        shown = [_evidence(lang, tag, e) for e in tag.evidence[:SHOWN_EVIDENCE]]
        return "; ".join(shown)

    def links(refs: list[ItemRef], total: int) -> str:
        text = sep.join(item_link(r) for r in refs)
        if total > len(refs):
            text += " " + tr("fu_more", n=total - len(refs))
        return text

    def trend(row: w.TrendRow, count: bool) -> str:
        # A percentage only where it means something: from a small base ("+11653%" from 1 line
        # to 118) the two numbers the row already shows say it; a jump is "about N times".
        small = row.previous < (5 if count else 50)
        if row.previous == 0:
            change = tr("trend_new")
        elif row.change is None or row.change == 0 or small:
            change = ""
        elif row.value >= 3 * row.previous:
            change = tr("trend_times", x=round(row.value / row.previous))
        else:
            sign = "+" if row.change > 0 else "−"
            change = tr("trend_change", sign=sign, pct=round(abs(row.change) * 100))
        name = md_code(row.name) if not count else md_inline(row.name)
        key = "trend_row_count" if count else "trend_row"
        return tr(
            key, name=name, value=row.value, previous=row.previous, change=change, prs=row.prs
        )

    def score_parts(pr: w.WeeklyPR) -> str:
        """Why a PR ranks where it does: the parts of its importance, in words."""
        parts = []
        for name, value in pr.score_parts.items():
            if name.startswith("label:"):
                parts.append(tr("part_label", name=md_code(name[6:]), v=f"{value:g}"))
            else:
                parts.append(tr(f"part_{name}", v=f"{value:g}"))
        return sep.join(parts)

    def group_title(g: w.MergedGroup) -> str:
        if g.kind == "bot":
            return tr("appendix_bots")
        return theme_title(g.kind, g.name)

    def reason(text: str) -> str:
        kind, _, value = text.partition(":")
        if kind == "path":  # the file's name: its directory is the track's own
            value = value.rsplit("/", 1)[-1]
        return tr(f"reason_{kind}", v=md_code(value))

    def theme_title(kind: str, name: str) -> str:
        shown = md_code(name) if kind == "path" else md_inline(name)
        return tr(f"theme_title_{kind}", name=shown)

    def sources() -> str:
        parts = [tr(f"source_{k}", n=v) for k, v in report.provenance.sources.items()]
        return sep.join(parts) or "-"

    def stamp(moment: datetime | None) -> str:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else tr("unknown")

    text = (
        markdown_env()
        .get_template("weekly.md.j2")
        .render(
            r=report,
            tr=tr,
            sep=sep,
            who=who,
            tags_line=tags_line,
            tag_label=tag_label,
            risk_name=lambda name: tag_name(lang, name),
            evidence=evidence,
            links=links,
            trend=trend,
            reason=reason,
            group_title=group_title,
            score_parts=score_parts,
            bare_title=bare_title,
            theme_title=theme_title,
            sources=sources,
            stamp=stamp,
            repo_link=md_inline(report.repo),
        )
    )
    return tidy(text)
