"""Making untrusted text inert in Markdown.

Titles, bodies, logins and model output come from strangers. In a report they must read as the
text they are and nothing more: no headings, lists, tables, links, images, HTML, mentions or
issue references of their own. Links and mentions in a report are made by the renderer only.
Control characters go first (textsafe.clean), before escaping: removing one afterwards could
join `@` to a name or `:` to `//` and undo an escape.
"""

from __future__ import annotations

import re

from tidings.common.textsafe import clean

# The characters that can open or close inline structure: emphasis, code, links, images, raw
# HTML, entities, table cells, strikethrough. Escaping only these keeps raw Markdown readable.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
# Characters that start a block (heading, quote, list, setext underline) at the start of a line.
_BLOCK_START = re.compile(r"^(#|>|-|\+|=)")
_ORDERED_START = re.compile(r"^(\d+)([.)])")
_MENTION = re.compile(r"@(?=[A-Za-z0-9])")
_ISSUE_REF = re.compile(r"#(?=\d)")
_ZWSP = "\u200b"


def one_line(text: str | None) -> str:
    """Collapse whitespace (newlines included) so text cannot start a new block."""
    return " ".join(clean(text or "").split())


_CODE_SPAN = re.compile(r"(`+)([^`]+?)\1")


def clip(text: str | None, limit: int | None = None) -> str:
    """Text on one line, cut to `limit` characters with an ellipsis: what a Markdown line and
    an HTML page show of a long excerpt, cut at the same place."""
    flat = one_line(text)
    if limit is not None and len(flat) > limit:
        flat = flat[: limit - 1].rstrip() + "…"
    return flat


def md_inline(text: str | None, *, limit: int | None = None) -> str:
    """Untrusted text as one inert line of Markdown, keeping its `code spans` readable.

    Code spans are inert by nature (no links, HTML or mentions inside), so they pass through
    as code; everything between them goes through `md_text`.
    """
    flat = clip(text, limit)
    out: list[str] = []
    pos = 0
    for match in _CODE_SPAN.finditer(flat):
        out.append(md_text(flat[pos : match.start()], at_start=pos == 0))
        out.append(md_code(match.group(2)))
        pos = match.end()
    out.append(md_text(flat[pos:], at_start=pos == 0))
    return "".join(out)


def md_text(text: str, *, at_start: bool = True) -> str:
    """Untrusted text as one inert line of Markdown.

    Backslash escapes stop emphasis, links, HTML and tables; a zero-width space after `@` stops
    GitHub mentions and one after `#` stops issue references (escapes do not, because GitHub finds
    both after rendering); one inside `://` and `www.` stops URL autolinks.
    """
    flat = _MENTION.sub("@" + _ZWSP, clean(text))
    flat = _ISSUE_REF.sub("#" + _ZWSP, flat)
    flat = flat.replace("www.", "www" + _ZWSP + ".").replace("://", ":" + _ZWSP + "//")
    escaped = _MD_SPECIAL.sub(r"\\\1", flat)
    if not at_start:
        return escaped
    escaped = _BLOCK_START.sub(r"\\\1", escaped)
    return _ORDERED_START.sub(r"\1\\\2", escaped)


# Machine-made values (a date, the window line, a version) have this shape: shown as they are.
# Anything else in their place came from a hand-edited report JSON and is escaped like any
# untrusted text. No `/`, `@`, `#`, `[`, `<`, `_`, `*` or `www.`: nothing here can link, ping
# or format.
_MACHINE = re.compile(r"(?!.*www\.)[0-9A-Za-z:+()., -]*(?: ~ [0-9A-Za-z:+()., -]*)?")


def md_fixed(text: object) -> str:
    """A value the report's code made, kept byte for byte when it looks like one."""
    flat = clean(str(text))
    return flat if _MACHINE.fullmatch(flat) else md_inline(flat)


def md_code(text: str) -> str:
    """Text as an inline code span that no backtick inside can close early."""
    flat = one_line(text)
    longest = max((len(m) for m in re.findall(r"`+", flat)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def md_quote(text: str | None, *, limit: int = 280) -> str:
    """An excerpt of someone's words, inert, for use inside a list item or blockquote."""
    return md_inline(text, limit=limit)
