"""The site's search page (search.html) and Pagefind's index of the report pages beside it
(pagefind/). Running Pagefind is site/search.py."""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

from tidings.errors import TidingsError
from tidings.render.html import html_lang, render_template
from tidings.site import search
from tidings.site.context import SiteContext


def pagefind_lang(lang: str) -> str:
    """The index name Pagefind gives a page of `lang` (from its <html lang>)."""
    return html_lang(lang).lower()  # type: ignore[arg-type]


def write_search(
    ctx: SiteContext, languages: Iterable[str], before: set[str], binary: Path
) -> None:
    """The search page and Pagefind's index of the report pages. The index is made again
    only when a page changed or went (or a file of it is missing): a build that adds
    nothing pays nothing for search. `before`: the files the last build made."""
    words, cfg, output = ctx.words, ctx.cfg, ctx.output
    langs = sorted({pagefind_lang(code) for code in languages} - {pagefind_lang(cfg.language)})
    page = render_template(
        "html/search.html.j2",
        html_lang=html_lang(cfg.language),
        page_title=words.tr("site_search_title") + " · " + cfg.title,
        description=words.tr("site_search_hint"),
        canonical=ctx.base("search.html"),
        feed_href=None,
        feed_title="",
        chrome=ctx.chrome("index.html"),
        tr=words.tr,
        merge=langs,
    )
    ctx.put_page("search.html", page)
    pages_changed = any(
        rel.endswith(".html") and rel != "search.html"
        for rel in ctx.result.written + ctx.result.removed
    )
    old = {rel for rel in before if rel.startswith(search.FOLDER + "/")}
    if old and not pages_changed and all(output.exists(rel) for rel in old):
        ctx.made |= old
        return
    try:
        index = search.build_index(output.root, binary)
    except (search.SearchError, OSError, subprocess.SubprocessError) as exc:
        raise TidingsError(
            f"the search index failed: {exc}",
            "set `search = false` under [site] to build without search, and report it",
        ) from exc
    for rel, data in index.items():
        ctx.put_page(rel, data)
