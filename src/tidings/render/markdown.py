"""Markdown from the report model, through Jinja2 templates (one template, both languages).

Templates never see raw untrusted text: every title, body excerpt, login and prose value goes
through a filter from render/escape.py, and every link is built here from the repository name
and number, not taken from the data.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined

from tidings.names import profile_path
from tidings.render.escape import md_code, md_fixed, md_inline
from tidings.report import model as m
from tidings.report.text import TEXT, t

_GHOST_PROFILE = "https://github.com/ghost"


# A link target Markdown cannot misread: http(s), and none of the characters that end a link
# destination or start another construct. A report read back from JSON may carry anything.
_LINK_URL = re.compile(r"https?://[^\s()<>\[\]`\\\"']+")


def number_link(number: int, url: str) -> str:
    """`[#N](url)`, or an inert `#N` when the URL is not one a link can safely hold."""
    if not _LINK_URL.fullmatch(url):
        return md_inline(f"#{number}")
    return f"[#{number}]({url})"


def item_link(ref: m.ItemRef) -> str:
    return number_link(ref.number, ref.url)


def login_link(login: str | None, lang: str = "en", web_url: str = "https://github.com") -> str:
    """A profile link. `@` only inside link text, where GitHub does not make a mention.

    Only a string GitHub could have issued as a login becomes a link; anything else (a hostile
    snapshot's `<script>` or `x)[y](http://...)`) is shown as the inert text it is."""
    if login is None:
        return md_inline(TEXT[lang]["ghost"])  # type: ignore[index]
    path = profile_path(login)
    if path is None:
        return md_inline(f"@{login}")
    return f"[@{md_inline(login)}]({web_url}/{path})"


def author_text(ref: m.ItemRef, lang: str = "en") -> str:
    """Who wrote an item: a git author's name as plain text (anyone can set it to anything,
    so it is never a link or a mention), else the login's profile link."""
    if ref.author_name is not None:
        return md_inline(ref.author_name)
    return login_link(ref.author, lang)


@lru_cache(maxsize=1)
def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("tidings.render", "templates"),
        autoescape=False,  # Markdown: escaping is done by the filters below, explicitly
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_inline
    env.filters["code"] = md_code
    env.filters["fixed"] = md_fixed
    env.filters["link"] = item_link
    env.filters["apply"] = lambda value, fn: fn(value)
    return env


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
        _env()
        .get_template("daily.md.j2")
        .render(
            r=report,
            tr=tr,
            who=who,
            author=author,
            person=person,
            state=state,
            reason=reason,
            sep=sep,
            score_parts=score_parts,
            issue_link=issue_link,
            list_counts=list_counts,
        )
    )
    # Collapse the blank lines template logic leaves behind; Markdown needs at most one.
    lines: list[str] = []
    for line in text.splitlines():
        if line.strip() == "" and lines and lines[-1].strip() == "":
            continue
        lines.append(line.rstrip())
    return "\n".join(lines).strip() + "\n"


def render_weekly_markdown(report: object) -> str:
    """The weekly report's Markdown (render/weekly_markdown.py), here beside the daily one."""
    from tidings.render.weekly_markdown import render_weekly_markdown as render

    return render(report)  # type: ignore[arg-type]
