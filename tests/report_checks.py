"""Independent checks of a rendered Markdown report: structure, links and mentions.

The checks parse the Markdown with markdown-it-py (CommonMark plus GitHub's tables,
strikethrough and autolinks) and look at what a reader's renderer would build, so a title that
sneaks in a heading, a link, an image or raw HTML fails them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markdown_it import MarkdownIt
from markdown_it.token import Token

ITEM_URL = re.compile(r"^https://github\.com/(?P<repo>[^/]+/[^/]+)/(issues|pull)/(?P<n>\d+)$")
PROFILE_URL = re.compile(r"^https://github\.com/(apps/)?(?P<login>[A-Za-z0-9-]+)$")
# A mention GitHub would turn into a ping: @ followed by a login character. Our own mentions
# live only inside link text, where GitHub does not ping.
BARE_MENTION = re.compile(r"(?<![\w`])@[A-Za-z0-9]")
BARE_REF = re.compile(r"(?<![\w\[`/])#\d")


def parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"linkify": True}).enable(["table", "strikethrough", "linkify"])
    # GitHub autolinks URLs with a scheme and `www.` names, not every word with a dot in it
    # (README.md); linkify-it's fuzzy mode would over-report, so keep to schemes and www.
    md.linkify.set({"fuzzy_link": False, "fuzzy_email": False})
    md.linkify.add("www.", "http:")
    return md


def walk(tokens: Iterable[Token]) -> Iterable[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from walk(token.children)


def headings(markdown: str) -> list[tuple[str, str]]:
    tokens = parser().parse(markdown)
    out = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            out.append((token.tag, tokens[i + 1].content))
    return out


def links(markdown: str) -> list[str]:
    return [
        str(t.attrs.get("href", ""))
        for t in walk(parser().parse(markdown))
        if t.type == "link_open"
    ]


def _text_outside_links(markdown: str) -> Iterable[str]:
    for block in parser().parse(markdown):
        depth = 0
        for token in block.children or []:
            if token.type == "link_open":
                depth += 1
            elif token.type == "link_close":
                depth -= 1
            elif token.type == "text" and depth == 0:
                yield token.content


def check_structure(
    markdown: str,
    *,
    repo: str,
    numbers: set[int],
    logins: set[str],
    expected_headings: list[tuple[str, str]] | None = None,
) -> None:
    """Fail if the report holds anything the renderer did not put there on purpose."""
    tokens = list(walk(parser().parse(markdown)))
    kinds = {t.type for t in tokens}
    assert "html_inline" not in kinds and "html_block" not in kinds, "raw HTML got through"
    assert "image" not in kinds, "an image got through"
    assert "table_open" not in kinds, "a table got through"
    assert "fence" not in kinds and "code_block" not in kinds, "a code block got through"
    for href in links(markdown):
        item = ITEM_URL.match(href)
        if item:
            assert item["repo"] == repo, href
            assert int(item["n"]) in numbers, f"link to #{item['n']}, which is not in the store"
            continue
        profile = PROFILE_URL.match(href)
        assert profile, f"unexpected link {href!r}"
        login = profile["login"] + ("[bot]" if profile.group(1) else "")
        assert login in logins, f"profile link to {login!r}, who is not in the store"
    for text in _text_outside_links(markdown):
        assert not BARE_MENTION.search(text), f"bare mention in {text!r}"
        assert not BARE_REF.search(text), f"bare issue reference in {text!r}"
    if expected_headings is not None:
        assert headings(markdown) == expected_headings
