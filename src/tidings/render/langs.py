"""Quoted text in the other language, marked with `lang` on an HTML page.

A zh page quotes English PR titles, comment excerpts and descriptions; an en page quotes
Chinese ones. Without `lang` on them a screen reader reads an English title with Chinese
rules (and the browser and WeasyPrint pick fonts and line breaks for the wrong language).
Which runs are foreign is decided by script alone, which is cheap and good enough here:

- on a zh page, a stretch without CJK characters that holds at least two Latin words
  ("Fix MTP accept rate", not a lone name such as "RapidInfer" or "Qwen3-32B");
- on an en page, a stretch from a CJK character to a CJK character with at least two of them,
  holding only CJK, spaces and plain word characters in between (so a name inside a Chinese
  title stays in it, and two quotes joined by English stay apart).

The page's language is set for the duration of one page's rendering (`page_language`);
outside it (Markdown, plain text) nothing is marked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from markupsafe import Markup, escape

from tidings.common.config import Lang

_PAGE_LANG: ContextVar[Lang | None] = ContextVar("page_lang", default=None)

# CJK ideographs and kana, CJK punctuation, full-width forms: what ends a Latin run.
_CJK_CHAR = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_ANY = _CJK_CHAR + "\u3000-\u303f\uff00-\uffef"
# On a zh page, a Latin run lies inside a stretch without CJK text or CJK quote marks: from
# its first letter (with an opening bracket just before it) to its last letter, digit or
# closing mark.
_NON_CJK = re.compile(rf"[^{_CJK_ANY}“”‘’「」]+")
_LATIN_START = re.compile(r"[\[(]?[A-Za-z]")
_LATIN_END = re.compile(r"[A-Za-z0-9)\]…!?.%]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# A Chinese run on an en page.
_CJK_RUN = re.compile(rf"[{_CJK_CHAR}](?:[{_CJK_ANY}\w \-/.]*[{_CJK_CHAR}])?")
_CJK_IDEOGRAPH = re.compile(rf"[{_CJK_CHAR}]")

LANG_ATTR: dict[Lang, str] = {"zh": "en", "en": "zh-CN"}  # the foreign runs' `lang` value


@contextmanager
def page_language(lang: Lang) -> Iterator[None]:
    """Mark foreign runs as for a page in `lang` while the block renders it."""
    token = _PAGE_LANG.set(lang)
    try:
        yield
    finally:
        _PAGE_LANG.reset(token)


def _runs(text: str, lang: Lang) -> Iterator[tuple[int, int]]:
    if lang == "zh":
        for found in _NON_CJK.finditer(text):
            stretch = found.group()
            first = _LATIN_START.search(stretch)
            ends = [m.end() for m in _LATIN_END.finditer(stretch)]
            if first is None or not ends or ends[-1] <= first.start():
                continue
            run = stretch[first.start() : ends[-1]]
            if len(_LATIN_WORD.findall(run)) >= 2:
                yield found.start() + first.start(), found.start() + ends[-1]
    else:
        for found in _CJK_RUN.finditer(text):
            if len(_CJK_IDEOGRAPH.findall(found.group())) >= 2:
                yield found.span()


def marked(text: str) -> Markup:
    """`text` escaped, its runs in the other language wrapped in `<span lang=…>` when a page
    is being rendered."""
    lang = _PAGE_LANG.get()
    if lang is None or not text:
        return escape(text)
    out, last = Markup(""), 0
    for start, end in _runs(text, lang):
        out += escape(text[last:start])
        out += Markup('<span lang="{}">{}</span>').format(LANG_ATTR[lang], text[start:end])
        last = end
    return out + escape(text[last:])
