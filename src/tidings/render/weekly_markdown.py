"""Markdown from the weekly report model, through templates/weekly.md.j2 (both languages).

As for the daily report: untrusted values (titles, names, paths, added lines, prose) pass
through render/escape.py, and links are built from the repository name and number only. What
the Markdown and the HTML decide alike (evidence, trend wording, titles, reasons, score parts)
is render/common.py's.
"""

from __future__ import annotations

from tidings.render import common as c
from tidings.render.escape import md_inline
from tidings.render.markdown_common import (
    MarkdownWriter,
    ProseLinks,
    item_link,
    login_link,
    markdown_env,
    tidy,
)
from tidings.report import weekly_model as w
from tidings.report.model import ItemRef
from tidings.words.weekly import TEXT, tag_name, wt


def render_weekly_markdown(report: w.WeeklyReport) -> str:
    lang = report.lang
    wr = MarkdownWriter(TEXT[lang])
    sep = wr.sep

    def tr(key: str, **values: object) -> str:
        return wt(lang, key, **values)

    def who(pr: w.WeeklyPR) -> str:
        if pr.author_name is not None:  # a git name: plain text, never a profile link
            return md_inline(pr.author_name)
        return login_link(pr.item.author, lang)

    def links(refs: list[ItemRef], total: int) -> str:
        text = sep.join(item_link(r) for r in refs)
        if total > len(refs):
            text += " " + tr("fu_more", n=total - len(refs))
        return text

    places = c.title_places(report)

    def title(section: str, ref: ItemRef) -> str:
        """A space and the item's title where this section shows it, else nothing."""
        return f" {md_inline(ref.title)}" if c.shows_title(places, section, ref) else ""

    text = (
        markdown_env()
        .get_template("weekly.md.j2")
        .render(
            r=report,
            tr=tr,
            says=ProseLinks(report),
            sep=sep,
            who=who,
            title=title,
            tags_line=lambda tags: c.tags_line(wr, lang, tags),
            tag_label=lambda tag: tag_name(lang, tag.tag),
            risk_name=lambda name: tag_name(lang, name),
            evidence=lambda tag: c.evidence(wr, tag),
            unread=lambda n: c.unread_diffs(wr, n),
            links=links,
            trend=lambda row, count: c.trend_row(wr, row, count),
            reasons=lambda texts: c.reasons(wr, texts, file_name=True),
            groups=c.appendix_groups(report),
            group_title=lambda g: c.group_title(wr, g),
            score_parts=lambda pr: c.score_parts(wr, pr.score_parts),
            bare_title=c.bare_title,
            theme_title=lambda kind, name: c.theme_title(wr, kind, name),
            footer=c.weekly_footer(wr, report),
            footer_llm=c.llm_footer(wr, report.provenance.llm),
            stamp=lambda moment: c.stamp(moment, tr("unknown")),
            repo_link=md_inline(report.repo),
            partial=c.partial_window(report),
            summary_limit=c.THEME_SUMMARY_LIMIT,
        )
    )
    return tidy(text)
