"""Markdown of the daily report (and, from render/weekly_markdown.py, of the weekly one), through
Jinja2 templates (one template per kind, both languages).

Templates never see raw untrusted text: every title, body excerpt, login and prose value goes
through a filter from render/escape.py, and every link is built by render/markdown_common.py
from the repository name and number, not taken from the data.
"""

from __future__ import annotations

from tidings.render import common as c
from tidings.render.escape import md_inline
from tidings.render.markdown_common import (
    MarkdownWriter,
    ProseLinks,
    author_text,
    login_link,
    markdown_env,
    number_link,
    tidy,
)
from tidings.render.weekly_markdown import render_weekly_markdown
from tidings.report import model as m
from tidings.report.weekly_model import WeeklyReport
from tidings.words.daily import TEXT, t

__all__ = ["render_daily_markdown", "render_markdown"]


def render_daily_markdown(report: m.DailyReport) -> str:
    lang = report.lang
    wr = MarkdownWriter(TEXT[lang])
    sep = wr.sep

    def tr(key: str, **values: object) -> str:
        return t(lang, key, **values)

    def who(login: str | None) -> str:
        return login_link(login, lang)

    def author(ref: m.ItemRef) -> str:
        return author_text(ref, lang)

    def person(count: m.Count) -> str:
        return md_inline(count.login) if count.git_name else login_link(count.login, lang)

    def first_timer(x: m.FirstTimer) -> str:
        return md_inline(x.login) if x.git_name else login_link(x.login, lang)

    def state(ref: m.ItemRef) -> str:
        if ref.draft and ref.state == "open":
            return tr("state_draft")
        return tr(f"state_{ref.state}")

    def issue_link(number: int) -> str:
        return number_link(number, f"{report.repo_url}/issues/{number}")

    text = (
        markdown_env()
        .get_template("daily.md.j2")
        .render(
            r=report,
            tr=tr,
            says=ProseLinks(report),
            who=who,
            author=author,
            person=person,
            first_timer=first_timer,
            state=state,
            reasons=lambda texts: c.reasons(wr, texts),
            sep=sep,
            score_parts=lambda change: c.score_parts(wr, change.score_parts),
            issue_link=issue_link,
            unread=lambda n: c.unread_diffs(wr, n),
            stats=c.stat_cells(report),
            needs_api=c.needs_api(report),
            partial=c.partial_window(report),
            footer=c.daily_footer(wr, report),
            footer_llm=c.llm_footer(wr, report.provenance.llm),
        )
    )
    return tidy(text)


def render_markdown(report: m.DailyReport | WeeklyReport) -> str:
    """A report of either kind as Markdown."""
    if isinstance(report, m.DailyReport):
        return render_daily_markdown(report)
    return render_weekly_markdown(report)
