"""HTML from the report model, through Jinja2 templates with autoescape on.

The page's structure comes from the model's fields, never from its text: every title, body
excerpt, login and prose value reaches the page as escaped text, and every link is built here
from the repository URL, an item number or a login that matches GitHub's login syntax. Nothing
in the data can add a tag, an attribute or a link. The same HTML (with print CSS) is the PDF's
source, so the PDF inherits all of this.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from tidings.config import Lang
from tidings.names import profile_path
from tidings.report import model as m
from tidings.report import weekly_model as w
from tidings.textsafe import clean
from tidings.words import daily as daily_words
from tidings.words import site as site_words
from tidings.words import weekly as weekly_words

GITHUB = "https://github.com"
_HTTP_URL = re.compile(r"^https?://[^\s\"'<>`\\]+$")


def safe_url(url: str | None) -> str | None:
    """`url` when it is a plain http(s) URL; anything else (javascript:, data:, ...) is None."""
    if url and _HTTP_URL.match(url):
        return url
    return None


@dataclass(frozen=True)
class Giscus:
    repo: str
    repo_id: str
    category: str
    category_id: str
    mapping: str = "pathname"


@dataclass(frozen=True)
class PageChrome:
    """The site around a page: navigation, downloads, discussion. None renders a bare page."""

    site_title: str
    home_href: str
    footer: str
    project: str = ""
    back_href: str = ""
    github_href: str = ""
    feed_href: str | None = None
    downloads: tuple[tuple[str, str], ...] = ()
    other_lang_href: str | None = None
    other_lang: str | None = None
    discussion_href: str | None = None
    giscus: Giscus | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    # Navigation between reports (site/archive.py): (title, href) pairs, built from the
    # site's own file names, never from report text.
    prev: tuple[str, str] | None = None
    next: tuple[str, str] | None = None
    up: tuple[str, str] | None = None  # a day's week
    month: tuple[str, str] | None = None  # the month page the report is listed on
    children: tuple[tuple[str, str], ...] = ()  # a week's days
    # The report's numbers as GitHub searches for the same window (site/archive.py):
    # stat name -> URL; "window" is the action bar's link.
    searches: Mapping[str, str] = field(default_factory=dict)
    search_href: str | None = None  # the site's search page, when the site has search
    search_label: str = ""
    # Pagefind filters of the page (name, value): project, kind, labels, topic tracks.
    filters: tuple[tuple[str, str], ...] = ()
    feeds: tuple[tuple[str, str, str], ...] = ()  # (title, href, hreflang) for <head>


def _no_controls(value: Any) -> Any:
    """Every value a page prints, without control characters (textsafe.clean), whether text
    or Markup this module built around text. Removing them cannot make markup: `<`, `>`, `&`
    and quotes are escaped already and are no control characters."""
    if isinstance(value, Markup):
        return Markup(clean(value))
    if isinstance(value, str):
        return clean(value)
    return value


@lru_cache(maxsize=1)
def env() -> Environment:
    environment = Environment(
        loader=PackageLoader("tidings.render", "templates"),
        autoescape=True,  # every page: data is text unless this module made it Markup
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_no_controls,
    )
    environment.filters["apply"] = lambda value, fn: fn(value)
    environment.filters["prose"] = prose
    return environment


_CODE_SPAN = re.compile(r"(`+)([^`]+?)\1")


def heading(
    level: int, anchor: str, text: object, permalink: str | None, *, own_id: bool
) -> Markup:
    """A section heading; on site pages (`permalink` is the link's accessible name) with a
    `#` link to `anchor`, so a reader can copy a link to the section. `own_id`: the heading
    carries the id itself (else its <section> does)."""
    ident = Markup(' id="{}"').format(anchor) if own_id else Markup("")
    if permalink is None:
        return Markup("<h{0}{1}>{2}</h{0}>").format(level, ident, text)
    return Markup(
        '<h{0}{1}>{2} <a class="anchor" href="#{3}" aria-label="{4}" data-pagefind-ignore>#</a>'
        "</h{0}>"
    ).format(level, ident, text, anchor, permalink)


def summary_line(text: str, limit: int = 200) -> str:
    """A page's meta description: its opening text on one line, cut at a word."""
    flat = " ".join(_CODE_SPAN.sub(r"\2", text).split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0] if " " in flat[:limit] else flat[:limit]
    return cut.rstrip(",;:，；：") + "…"


def prose(text: str | None) -> Markup:
    """Plain report text as HTML: escaped, with its `code spans` shown as code (inert either
    way, so nothing a stranger wrote can become markup)."""
    text = text or ""
    out: list[Markup] = []
    pos = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(escape(text[pos : match.start()]))
        out.append(code(match.group(2)))
        pos = match.end()
    out.append(escape(text[pos:]))
    return Markup("").join(out)


class Words:
    """A page's words in one language, the daily report's and the site's (words/): `tr` gives
    text (escaped by the template), `trm` formats a sentence around Markup pieces (links,
    code) and escapes everything else."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang
        self.table = {**daily_words.TEXT[lang], **site_words.TEXT[lang]}
        self.sep = self.table["list_sep"]

    def tr(self, key: str, **values: object) -> str:
        return self.table[key].format(**values)

    def trm(self, key: str, **values: object) -> Markup:
        return escape(self.table[key]).format(**values)

    def join(self, parts: Iterable[str | Markup]) -> Markup:
        return escape(self.sep).join(parts)


def code(text: str) -> Markup:
    return Markup("<code>{}</code>").format(text)


def link(href: str | None, text: object) -> Markup:
    url = safe_url(href)
    if url is None:
        return escape(text)
    return Markup('<a href="{}">{}</a>').format(url, text)


def profile_url(login: str | None) -> str | None:
    """The login's GitHub profile, or None when the string is not a login GitHub issues."""
    path = profile_path(login)
    return f"{GITHUB}/{path}" if path else None


class ReportLinks:
    """Links of one report: items from its repository URL and numbers, people from logins."""

    def __init__(self, repo_url: str, words: Words) -> None:
        self.repo_url = safe_url(repo_url.rstrip("/"))
        self.words = words

    def item_url(self, ref: m.ItemRef) -> str | None:
        if self.repo_url is None:
            return None
        return f"{self.repo_url}/{'pull' if ref.kind == 'pr' else 'issues'}/{ref.number}"

    def ref_link(self, ref: m.ItemRef) -> Markup:
        return link(self.item_url(ref), f"#{ref.number}")

    def issue_link(self, number: int) -> Markup:
        url = f"{self.repo_url}/issues/{number}" if self.repo_url else None
        return link(url, f"#{number}")

    def who(self, login: str | None) -> Markup:
        if login is None:
            return escape(self.words.tr("ghost"))
        return link(profile_url(login), f"@{login}")

    def author(self, ref: m.ItemRef) -> Markup:
        """A git author's name as text (anyone can set it: never a link), else `who`."""
        if ref.author_name is not None:
            return escape(ref.author_name)
        return self.who(ref.author)

    def person(self, count: m.Count) -> Markup:
        return escape(count.login) if count.git_name else self.who(count.login)

    def state(self, ref: m.ItemRef) -> Markup:
        key = "draft" if ref.draft and ref.state == "open" else ref.state
        css = "open" if key == "draft" else key
        return Markup('<span class="badge {}">{}</span>').format(css, self.words.tr(f"state_{key}"))

    def item(self, ref: m.ItemRef) -> Markup:
        return Markup("{} {} {} {}").format(
            self.words.tr(ref.kind), self.ref_link(ref), prose(ref.title), self.state(ref)
        )


def _footer_line(report: m.DailyReport, words: Words) -> str:
    p = report.provenance
    counts = words.sep.join(
        f"{words.tr('a_' + key)} {count}" for key, count in p.list_counts.items()
    )
    return words.tr(
        "footer",
        version=p.tool_version,
        window=p.window_utc,
        as_of=p.data_as_of.strftime("%Y-%m-%dT%H:%M:%SZ") if p.data_as_of else words.tr("unknown"),
        generated=p.generated_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
        counts=counts,
        writer=words.tr("writer_" + p.writer),
    )


def daily_sections(report: m.DailyReport, words: Words) -> list[tuple[str, str]]:
    """(anchor, heading) of each section, in page order: the table of contents."""
    sections = [("summary", words.tr("h_summary"))]
    if report.quiet:
        return sections
    sections += [
        (f"topic-{k}", words.tr("h_topic", title=track.title))
        for k, track in enumerate(report.topics, start=1)
    ]
    for anchor, key in [
        ("hot", "h_hot"),
        ("trends", "h_trends"),
        ("changes", "h_changes"),
        ("activity", "h_activity"),
        ("watch", "h_watch"),
        ("appendix", "h_appendix"),
    ]:
        sections.append((anchor, words.tr(key)))
    return sections


def report_title(report: m.DailyReport | w.WeeklyReport) -> str:
    """A report's title, as its page, its PDF's header, the site's lists and feeds show it."""
    if isinstance(report, m.DailyReport):
        return daily_words.t(report.lang, "title", project=report.project, date=report.date)
    win = report.window
    return weekly_words.wt(
        report.lang,
        "title",
        project=report.project,
        year=win.year,
        week=win.number,
        first=win.first_day[5:],
        last=win.last_day[5:],
    )


def render_daily_html(
    report: m.DailyReport, chrome: PageChrome | None = None, *, canonical: str | None = None
) -> str:
    """The daily report as one self-contained HTML page (inline CSS, no script)."""
    words = Words(report.lang)
    links = ReportLinks(report.repo_url, words)

    def reason(text: str) -> Markup:
        kind, _, value = text.partition(":")
        if f"reason_{kind}" not in words.table:
            return escape(text)
        return words.trm(f"reason_{kind}", v=code(value))

    def part(name: str, value: float) -> Markup:
        if name.startswith("label:"):
            return words.trm("part_label", name=code(name[6:]), v=f"{value:g}")
        if f"part_{name}" not in words.table:
            return escape(f"{name} {value:g}")
        return words.trm(f"part_{name}", v=f"{value:g}")

    def score_parts(change: m.KeyChange) -> Markup:
        return words.join(part(name, value) for name, value in change.score_parts.items())

    def people(counts: list[m.Count]) -> Markup:
        return words.join(words.trm("act_count", who=links.person(c), n=c.count) for c in counts)

    title = report_title(report)
    return render_template(
        "html/daily.html.j2",
        r=report,
        **page_context(report.lang, title, report.summary.text.text, chrome, canonical),
        sections=daily_sections(report, words),
        tr=words.tr,
        trm=words.trm,
        join=words.join,
        code=code,
        item=links.item,
        ref_link=links.ref_link,
        issue_link=links.issue_link,
        who=links.who,
        author=links.author,
        reason=reason,
        score_parts=score_parts,
        people=people,
        footer_line=_footer_line(report, words),
    )


def html_lang(lang: Lang) -> str:
    return "zh-CN" if lang == "zh" else "en"


def page_context(
    lang: Lang, title: str, summary: str, chrome: PageChrome | None, canonical: str | None
) -> dict[str, Any]:
    """What base.html.j2 needs of a report page: title, language, the description and Open
    Graph tags a shared link previews with, feeds, and the headings' permalinks."""
    words = Words(lang)
    permalink = words.tr("site_permalink") if chrome else None
    return {
        "html_lang": html_lang(lang),
        "page_title": title,
        "page_h1": title,
        "description": summary_line(summary),
        "og_type": "article",
        "canonical": safe_url(canonical),
        "feed_href": chrome.feed_href if chrome else None,
        "feed_title": chrome.project if chrome else "",
        "feeds": chrome.feeds if chrome else (),
        "chrome": chrome,
        "heading": lambda level, anchor, text, own_id=False: heading(
            level, anchor, text, permalink, own_id=own_id
        ),
    }


def render_template(name: str, **context: Any) -> str:
    return env().get_template(name).render(**context).rstrip() + "\n"


# -- the weekly report ---------------------------------------------------------------------


def render_weekly_html(
    report: w.WeeklyReport, chrome: PageChrome | None = None, *, canonical: str | None = None
) -> str:
    """The weekly report (report/weekly_model.py) as one self-contained HTML page."""
    lang = report.lang
    words = Words(lang)
    links = ReportLinks(report.repo_url, words)
    table = weekly_words.TEXT[lang]
    tag_name = weekly_words.tag_name

    def wtr(key: str, **values: object) -> str:
        return weekly_words.wt(lang, key, **values)

    def wtrm(key: str, **values: object) -> Markup:
        return escape(table[key]).format(**values)

    def who(pr: w.WeeklyPR) -> Markup:
        if pr.author_name is not None:  # a git author name: text, never a profile link
            return escape(pr.author_name)
        return links.who(pr.item.author)

    def tags_line(tags: list[w.RiskTag]) -> str:
        return words.sep.join(tag_name(lang, t.tag) for t in tags) if tags else wtr("appendix_none")

    def evidence(tag: w.RiskTag) -> Markup:
        shown: list[Markup] = []
        for e in tag.evidence[:3]:
            n = dict(e.numbers)
            path = code(e.path) if e.path else Markup("")
            key = f"ev_{tag.tag}"
            if tag.tag == "tests_removed" and n.get("deleted_file"):
                key = "ev_tests_removed_deleted"
            if tag.tag == "tests_removed" and n.get("disabled"):
                key = "ev_tests_disabled"
            if tag.tag == "dependency_change" and n.get("pin"):
                key = "ev_pin"
            if key in {"ev_assert_validation", "ev_revert", "ev_tests_disabled", "ev_pin"}:
                shown.append(wtrm(key, path=path, line=code(e.line or "")))
                continue
            if key in table and not (tag.tag == "missing_tests" and e.path):
                try:
                    shown.append(wtrm(key, path=path, **n))
                    continue
                except (KeyError, IndexError):
                    pass  # numbers of another shape: fall back to the path and line
            if e.path and "lines" in n:
                shown.append(wtrm("ev_path_lines", path=path, lines=n["lines"]))
            else:
                shown.append(path if e.path else escape(e.line or ""))
        return Markup("; ").join(shown)

    def trend(row: w.TrendRow, count: bool) -> Markup:
        if row.previous == 0:
            change = wtr("trend_new")
        elif row.change is None or row.change == 0:
            change = ""
        else:
            sign = "+" if row.change > 0 else "−"
            change = wtr("trend_change", sign=sign, pct=round(abs(row.change) * 100))
        name = escape(row.name) if count else code(row.name)
        key = "trend_row_count" if count else "trend_row"
        return wtrm(
            key, name=name, value=row.value, previous=row.previous, change=change, prs=row.prs
        )

    def theme_title(kind: str, name: str) -> Markup:
        return wtrm(f"theme_title_{kind}", name=code(name) if kind == "path" else name)

    def refs(items: list[m.ItemRef], total: int) -> Markup:
        text = words.join(links.ref_link(r) for r in items)
        if total > len(items):
            text += Markup(" ") + wtr("fu_more", n=total - len(items))
        return text

    def stamp(moment: datetime | None) -> str:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else wtr("unknown")

    p = report.provenance
    sources = words.sep.join(wtr(f"source_{k}", n=v) for k, v in p.sources.items()) or "-"
    footer = wtr(
        "footer",
        version=p.tool_version,
        window=p.window_utc,
        as_of=stamp(p.data_as_of),
        generated=stamp(p.generated_at),
        merged=p.merged_prs,
        sources=sources,
        writer=wtr("writer_" + p.writer),
    )
    sections = [
        ("highlights", wtr("h_highlights")),
        ("risks", wtr("h_risks")),
        ("summary", wtr("h_exec")),
        ("changes", wtr("h_changes")),
        ("trends", wtr("h_trends")),
        ("key-prs", wtr("h_key")),
        ("follow-ups", wtr("h_follow")),
        ("appendix", wtr("h_appendix")),
    ]
    title = report_title(report)
    return render_template(
        "html/weekly.html.j2",
        r=report,
        **page_context(lang, title, report.summary.text, chrome, canonical),
        sections=sections,
        tr=words.tr,
        wtr=wtr,
        wtrm=wtrm,
        join=words.join,
        code=code,
        item=links.item,
        ref_link=links.ref_link,
        who=who,
        tags_line=tags_line,
        tag_name=lambda name: tag_name(lang, name),
        evidence=evidence,
        trend=trend,
        theme_title=theme_title,
        refs=refs,
        stamp=stamp,
        footer_line=footer,
    )


def render_html(
    report: m.DailyReport | w.WeeklyReport,
    chrome: PageChrome | None = None,
    *,
    canonical: str | None = None,
) -> str:
    """A report of either kind as one self-contained HTML page; `chrome` None: the bare page
    its PDF is printed from."""
    if isinstance(report, m.DailyReport):
        return render_daily_html(report, chrome, canonical=canonical)
    return render_weekly_html(report, chrome, canonical=canonical)
