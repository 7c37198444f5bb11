"""What the daily and weekly Markdown renderers share: links, the template environment, tidying.

Every link is built here from a repository URL, an item number or a login that matches GitHub's
login syntax; nothing from the data becomes a link target or Markdown structure.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined

from tidings.common.config import Lang
from tidings.common.names import profile_path
from tidings.render import common as c
from tidings.render.common import Writer
from tidings.render.escape import clip, md_code, md_fixed, md_inline, md_text
from tidings.report import model as m
from tidings.report import weekly_model as w
from tidings.words.daily import TEXT
from tidings.words.plural import fill

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


def login_link(login: str | None, lang: Lang = "en", web_url: str = "https://github.com") -> str:
    """A profile link. `@` only inside link text, where GitHub does not make a mention.

    Only a string GitHub could have issued as a login becomes a link; anything else (a hostile
    snapshot's `<script>` or `x)[y](http://...)`) is shown as the inert text it is."""
    if login is None:
        return md_inline(TEXT[lang]["ghost"])
    path = profile_path(login)
    if path is None:
        return md_inline(f"@{login}")
    return f"[@{md_inline(login)}]({web_url}/{path})"


def author_text(ref: m.ItemRef, lang: Lang = "en") -> str:
    """Who wrote an item: a git author's name as plain text (anyone can set it to anything,
    so it is never a link or a mention), else the login's profile link."""
    if ref.author_name is not None:
        return md_inline(ref.author_name)
    return login_link(ref.author, lang)


class ProseLinks:
    """Model-written prose of one report as Markdown: its citations of the report's own
    items and people linked like the rule-written ones (`[#N](url)`, `[@login](profile)`),
    the URL built here from the report's repository URL; all else inert as `md_inline` makes
    it. Prose the rules wrote (quotes of titles and bodies among it) links only the numbers
    its writer placed (`Prose.refs`)."""

    def __init__(self, report: m.DailyReport | w.WeeklyReport) -> None:
        self.known = c.known_refs(report)
        self.repo_url = report.repo_url.rstrip("/")
        self.lang = report.lang

    def __call__(self, value: m.Prose | None, limit: int | None = None) -> str:
        if value is None:
            return ""
        if value.by != "llm":
            if not value.refs:
                return md_inline(value.text, limit=limit)
            return self.text(value.text, limit, self.known.cited_by_rules(value.refs))
        return self.text(value.text, limit)

    def written(self, text: str, by: str) -> str:
        """A model-written string that is no `Prose` (a highlight's theme), by its section's
        writer."""
        return self(m.Prose(text=text, by="llm" if by == "llm" else "rules"))

    def text(self, text: str, limit: int | None = None, known: c.KnownRefs | None = None) -> str:
        """Text the model wrote, with its known citations linked (or those of `known`)."""
        out: list[str] = []
        pieces = c.prose_pieces(clip(text, limit), self.known if known is None else known)
        for k, piece in enumerate(pieces):
            match piece:
                case str():
                    out.append(md_text(piece, at_start=k == 0))
                case c.CodePiece():
                    out.append(md_code(piece.text))
                case c.ItemPiece() | c.PersonPiece():
                    if out and out[-1].endswith("!"):
                        # `!` before `[...](...)` would make the link an image.
                        out[-1] = out[-1][:-1] + "\\!"
                    out.append(self._link(piece))
        return "".join(out)

    def _link(self, piece: c.ItemPiece | c.PersonPiece) -> str:
        if isinstance(piece, c.PersonPiece):
            return login_link(piece.login, self.lang)
        return number_link(piece.number, f"{self.repo_url}/{c.item_path(piece.number, piece.kind)}")


@lru_cache(maxsize=1)
def markdown_env() -> Environment:
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


def tidy(text: str) -> str:
    """A rendered template without trailing spaces and with the blank lines its logic leaves
    behind collapsed: Markdown needs at most one."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.strip() == "" and lines and lines[-1].strip() == "":
            continue
        lines.append(line.rstrip())
    return "\n".join(lines).strip() + "\n"


class MarkdownWriter(Writer):
    """render/common.py's decisions written as Markdown: data through render/escape.py, our
    sentences as they are."""

    def text(self, value: str | None) -> str:
        return md_inline(value)

    def code(self, value: str) -> str:
        return md_code(value)

    def fixed(self, value: str) -> str:
        return md_fixed(value)

    def say(self, key: str, **values: object) -> str:
        return fill(self.table[key], **values)

    def join(self, parts: Iterable[str], sep: str | None = None) -> str:
        return (self.sep if sep is None else sep).join(parts)

    def plain(self, value: str) -> str:
        return value  # our own words: no Markdown in them to escape
