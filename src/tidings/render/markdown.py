"""Markdown of the daily report (and, from render/weekly_markdown.py, of the weekly one), through
Jinja2 templates (one template per kind, both languages).

Templates never see raw untrusted text: every title, body excerpt, login and prose value goes
through a filter from render/escape.py, and every link is built by render/markdown_common.py
from the repository name and number, not taken from the data.
"""

from __future__ import annotations

from tidings.render.escape import md_code, md_inline
from tidings.render.markdown_common import (
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

    def reason(text: str) -> str:
        kind, _, value = text.partition(":")
        return tr(f"reason_{kind}", v=md_code(value))

    def part(name: str, value: float) -> str:
        if name.startswith("label:"):
            return tr("part_label", name=md_code(name[6:]), v=f"{value:g}")
        return tr(f"part_{name}", v=f"{value:g}")

    sep = TEXT[lang]["list_sep"]

    def score_parts(change: m.KeyChange) -> str:
        return sep.join(part(name, value) for name, value in change.score_parts.items())

    def issue_link(number: int) -> str:
        return number_link(number, f"{report.repo_url}/issues/{number}")

    def list_counts() -> str:
        return sep.join(
            f"{tr('a_' + key)} {count}" for key, count in report.provenance.list_counts.items()
        )

    text = (
        markdown_env()
        .get_template("daily.md.j2")
        .render(
            r=report,
            tr=tr,
            who=who,
            author=author,
            person=person,
            first_timer=first_timer,
            state=state,
            reason=reason,
            sep=sep,
            score_parts=score_parts,
            issue_link=issue_link,
            list_counts=list_counts,
        )
    )
    return tidy(text)


def render_markdown(report: m.DailyReport | WeeklyReport) -> str:
    """A report of either kind as Markdown."""
    if isinstance(report, m.DailyReport):
        return render_daily_markdown(report)
    return render_weekly_markdown(report)
