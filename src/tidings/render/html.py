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
from functools import lru_cache
from typing import Any, Literal

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from tidings.common.config import Lang
from tidings.common.names import profile_path
from tidings.common.textsafe import clean
from tidings.render import common as c
from tidings.render.escape import clip
from tidings.render.langs import marked, page_language
from tidings.report import model as m
from tidings.report import weekly_model as w
from tidings.words import daily as daily_words
from tidings.words import site as site_words
from tidings.words import weekly as weekly_words
from tidings.words.plural import agree, fill

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
    environment.filters["dates"] = unbroken_dates
    return environment


def fill_markup(template: str, **values: object) -> Markup:
    """A sentence of ours, escaped, around values that are escaped unless already Markup."""
    return escape(agree(template, values)).format(**values)


# "2026-03-10", "03-15", "2026-W11": a browser may break a line after any hyphen.
_DATE = re.compile(r"\d{2,4}-(?:W\d{2}|\d{2})(?:-\d{2})?")


def unbroken_dates(text: str) -> Markup:
    """`text`, escaped, with each date kept on one line ("03-\n15)" in a phone's title)."""
    out, last = Markup(""), 0
    for found in _DATE.finditer(text):
        out += text[last : found.start()]
        out += Markup('<span class="nw">{}</span>').format(found.group())
        last = found.end()
    return out + text[last:]


_CODE_SPAN = re.compile(r"(`+)([^`]+?)\1")


def heading(level: int, anchor: str, text: object, permalink: str | None) -> Markup:
    """A section heading carrying its section's id, so `#anchor` lands on it and Pagefind
    splits the page there (its sub-results are the headings h1-h6 that have an id; an id
    on the <section> around it made every sub-result link to the page's top). On site pages
    (`permalink` is the link's accessible name) with a `#` link to `anchor`, so a reader can
    copy a link to the section."""
    if permalink is None:
        return Markup('<h{0} id="{1}">{2}</h{0}>').format(level, anchor, text)
    return Markup(
        '<h{0} id="{1}">{2} <a class="anchor" href="#{1}" aria-label="{3}" '
        "data-pagefind-ignore>#</a></h{0}>"
    ).format(level, anchor, text, permalink)


def summary_line(text: str, limit: int = 200) -> str:
    """A page's meta description: its opening text on one line, cut at a word."""
    flat = " ".join(_CODE_SPAN.sub(r"\2", text).split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0] if " " in flat[:limit] else flat[:limit]
    return cut.rstrip(",;:，；：") + "…"


def prose(text: str | None, limit: int | None = None) -> Markup:
    """Plain report text as HTML: escaped, with its `code spans` shown as code (inert either
    way, so nothing a stranger wrote can become markup) and, on a report page, its runs in the
    other language marked with `lang` (render/langs.py); `limit` cuts it as the Markdown does."""
    text = clip(text, limit) if limit is not None else text or ""
    out: list[Markup] = []
    pos = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(marked(text[pos : match.start()]))
        out.append(code(match.group(2)))
        pos = match.end()
    out.append(marked(text[pos:]))
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
        return fill(self.table[key], **values)

    def trm(self, key: str, **values: object) -> Markup:
        return fill_markup(self.table[key], **values)

    def join(self, parts: Iterable[str | Markup]) -> Markup:
        return escape(self.sep).join(parts)


class HtmlWriter(c.Writer):
    """render/common.py's decisions written as HTML: data escaped (its `code spans` as code),
    our sentences escaped too, with the pieces already made Markup put in as they are."""

    def text(self, value: str | None) -> str:
        return prose(value)

    def code(self, value: str) -> str:
        return code(value)

    def fixed(self, value: str) -> str:
        return escape(value)

    def say(self, key: str, **values: object) -> str:
        return fill_markup(self.table[key], **values)

    def join(self, parts: Iterable[str], sep: str | None = None) -> str:
        return escape(self.sep if sep is None else sep).join(parts)

    def plain(self, value: str) -> str:
        return escape(value)


def code(text: str) -> Markup:
    return Markup("<code>{}</code>").format(text)


def unread_mark(wr: HtmlWriter, n: int | None) -> Markup:
    """The "3 files without a diff" mark, its reason on hover (and in the page's text for
    print and screen readers via the title)."""
    mark = c.unread_diffs(wr, n)
    if not mark:
        return Markup("")
    return Markup('<span class="gap-mark" title="{}">⚠ {}</span>').format(
        wr.table["unread_diffs_why"], Markup(mark)
    )


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

    def __init__(self, report: m.DailyReport | w.WeeklyReport, words: Words) -> None:
        self.repo_url = safe_url(report.repo_url.rstrip("/"))
        self.words = words
        self.known = c.known_refs(report)

    def item_url(self, ref: m.ItemRef) -> str | None:
        return self.number_url(ref.number, ref.kind)

    def number_url(self, number: int, kind: Literal["issue", "pr"]) -> str | None:
        if self.repo_url is None:
            return None
        return f"{self.repo_url}/{c.item_path(number, kind)}"

    def says(self, value: m.Prose | None, limit: int | None = None) -> Markup:
        """Report prose as `prose` shows it; in the model's, its citations of the report's own
        items and people (render/common.py `known_refs`) are links, built here like every
        other. The rules' prose quotes titles and bodies: only the numbers its writer placed
        (`Prose.refs`) are links in it."""
        if value is None:
            return Markup("")
        known = self.known
        if value.by != "llm":
            if not value.refs:
                return prose(value.text, limit)
            known = known.cited_by_rules(value.refs)
        text = clip(value.text, limit) if limit is not None else clean(value.text)
        out: list[Markup] = []
        for piece in c.prose_pieces(text, known):
            match piece:
                case str():
                    out.append(marked(piece))
                case c.CodePiece():
                    out.append(code(piece.text))
                case c.ItemPiece():
                    out.append(link(self.number_url(piece.number, piece.kind), f"#{piece.number}"))
                case c.PersonPiece():
                    out.append(self.who(piece.login))
        return Markup("").join(out)

    def written(self, text: str, by: str) -> Markup:
        """A model-written string that is no `Prose` (a highlight's theme), by its section's
        writer; the rules' is escaped as it always was (no code spans: a label's name)."""
        return self.says(m.Prose(text=text, by="llm")) if by == "llm" else escape(text)

    def ref_link(self, ref: m.ItemRef) -> Markup:
        return link(self.item_url(ref), f"#{ref.number}")

    def issue_link(self, number: int) -> Markup:
        return link(self.number_url(number, "issue"), f"#{number}")

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
    links = ReportLinks(report, words)
    wr = HtmlWriter(words.table)

    def people(counts: list[m.Count]) -> Markup:
        return words.join(words.trm("act_count", who=links.person(x), n=x.count) for x in counts)

    def first_timers(xs: list[m.FirstTimer]) -> Markup:
        # A git author's name is text anyone can set: never a profile link.
        return words.join(escape(x.login) if x.git_name else links.who(x.login) for x in xs)

    title = report_title(report)
    with page_language(report.lang):  # its quotes in the other language marked
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
            says=links.says,
            issue_link=links.issue_link,
            who=links.who,
            author=links.author,
            reasons=lambda texts: c.reasons(wr, texts),
            score_parts=lambda change: c.score_parts(wr, change.score_parts),
            unread=lambda n: unread_mark(wr, n),
            people=people,
            first_timers=first_timers,
            stats=c.stat_cells(report),
            needs_api=c.needs_api(report),
            partial=c.partial_window(report),
            footer_line=c.daily_footer(wr, report),
            footer_llm=c.llm_footer(wr, report.provenance.llm),
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
        "heading": lambda level, anchor, text: heading(level, anchor, text, permalink),
    }


def render_template(name: str, **context: Any) -> str:
    return env().get_template(name).render(**context).rstrip() + "\n"


# -- the weekly report ---------------------------------------------------------------------


def weekly_sections(report: w.WeeklyReport) -> list[tuple[str, str]]:
    """(anchor, heading) of each section of the weekly page, in page order."""

    def wtr(key: str, **values: object) -> str:
        return weekly_words.wt(report.lang, key, **values)

    sections = [("highlights", wtr("h_highlights"))]
    sections += [
        (f"track-{k}", wtr("h_tracks", title=t.title)) for k, t in enumerate(report.tracks, start=1)
    ]
    for anchor, key in [
        ("risks", "h_risks"),
        ("summary", "h_exec"),
        ("changes", "h_changes"),
        ("trends", "h_trends"),
        ("key-prs", "h_key"),
        ("follow-ups", "h_follow"),
        ("appendix", "h_appendix"),
    ]:
        sections.append((anchor, wtr(key)))
    return sections


def render_weekly_html(
    report: w.WeeklyReport, chrome: PageChrome | None = None, *, canonical: str | None = None
) -> str:
    """The weekly report (report/weekly_model.py) as one self-contained HTML page."""
    lang = report.lang
    words = Words(lang)
    links = ReportLinks(report, words)
    table = weekly_words.TEXT[lang]
    wr = HtmlWriter(table)

    def wtr(key: str, **values: object) -> str:
        return weekly_words.wt(lang, key, **values)

    def wtrm(key: str, **values: object) -> Markup:
        return fill_markup(table[key], **values)

    def who(pr: w.WeeklyPR) -> Markup:
        if pr.author_name is not None:  # a git author name: text, never a profile link
            return escape(pr.author_name)
        return links.who(pr.item.author)

    def refs(items: list[m.ItemRef], total: int) -> Markup:
        text = words.join(links.ref_link(r) for r in items)
        if total > len(items):
            text += Markup(" ") + wtr("fu_more", n=total - len(items))
        return text

    places = c.title_places(report)

    def shows_title(section: str, ref: m.ItemRef) -> bool:
        return c.shows_title(places, section, ref)

    def item_in(section: str, ref: m.ItemRef) -> Markup:
        """An item as `item` shows it, its title left out where an earlier section showed it
        (render/common.py `title_places`)."""
        if shows_title(section, ref) or not ref.title:
            return links.item(ref)
        return links.item(ref.model_copy(update={"title": ""}))

    title = report_title(report)
    with page_language(report.lang):  # its quotes in the other language marked
        return render_template(
            "html/weekly.html.j2",
            r=report,
            **page_context(lang, title, report.summary.text, chrome, canonical),
            sections=weekly_sections(report),
            partial=c.partial_window(report),
            tr=words.tr,
            wtr=wtr,
            wtrm=wtrm,
            join=wr.join,
            code=code,
            item=links.item,
            item_in=item_in,
            shows_title=shows_title,
            ref_link=links.ref_link,
            says=links.says,
            written=links.written,
            who=who,
            tags_line=lambda tags: c.tags_line(wr, lang, tags),
            tag_name=lambda name: weekly_words.tag_name(lang, name),
            evidence=lambda tag: c.evidence(wr, tag),
            unread=lambda n: unread_mark(wr, n),
            trend=lambda row, count: c.trend_row(wr, row, count),
            reasons=lambda texts: c.reasons(wr, texts, file_name=True),
            groups=c.appendix_groups(report),
            group_title=lambda g: c.group_title(wr, g),
            score_parts=lambda pr: c.score_parts(wr, pr.score_parts),
            bare_title=c.bare_title,
            theme_title=lambda kind, name: c.theme_title(wr, kind, name),
            summary_limit=c.THEME_SUMMARY_LIMIT,
            refs=refs,
            stamp=lambda moment: c.stamp(moment, wtr("unknown")),
            footer_line=c.weekly_footer(wr, report),
            footer_llm=c.llm_footer(wr, report.provenance.llm),
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
