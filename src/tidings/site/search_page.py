"""The site's search page (search.html) and the search bundles beside it (pagefind/).

The report pages are split into bundles (site/search_bundles.py), each a Pagefind index of one
language (site/search.py runs Pagefind). The search page's own bundle is at pagefind/, with
Pagefind's script, styles and WebAssembly: the first bundle of the site's language (its oldest
pages, which rarely change). Every other bundle, at pagefind/LANG/NAME/, holds only its index,
and the search page merges them (Pagefind's `mergeIndex`), so one query searches every project
and both languages. A bundle is made again only when its pages are not the ones it was made
from (their keys, site/report_pages.py) or a file of it is missing: a build that adds nothing
pays nothing for search, and one new report pays for its bundle.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from tidings.common.config import LANGS
from tidings.common.progress import Progress
from tidings.errors import TidingsError
from tidings.render.html import html_lang, render_template
from tidings.site import search
from tidings.site.context import SiteContext
from tidings.site.search_bundles import Bundle, Page, page_key, plan

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# Where the search page loads Pagefind from: a module of ours over Pagefind's own.
FILTER_FOLDER = "search_ui"  # no GitHub login holds "_": never an owner's folder
FILTER_SCRIPT = Path(__file__).with_name("search_filter.js")
FRAGMENT = ".pf_fragment"
# Pagefind's `termSimilarity` (default 1.0) on the search page: how strongly a word close to
# the query's length outranks a longer or shorter one (search.html.j2 says why).
TERM_SIMILARITY = 5.0


def pagefind_lang(lang: str) -> str:
    """The index name Pagefind gives a page of `lang` (from its <html lang>)."""
    return html_lang(lang).lower()  # type: ignore[arg-type]


@dataclass(frozen=True)
class Placed:
    """A bundle and where it is published."""

    lang: str
    bundle: Bundle
    folder: str
    primary: bool  # the search page's own: at pagefind/, with Pagefind's script

    def signature(self, binary: str, pages: Mapping[str, str]) -> str:
        """What the bundle is made from: its place, its pages with their keys, Pagefind."""
        made_from = [
            binary,
            self.folder,
            self.primary,
            [[p.stem, pages[p.stem]] for p in self.bundle.pages],
        ]
        return hashlib.sha256(json.dumps(made_from).encode()).hexdigest()

    def owns(self, rel: str) -> bool:
        """`rel` is a file of this bundle (the primary's folder holds the others' folders)."""
        return folder_of(rel) == self.folder


def folder_of(rel: str) -> str | None:
    """The bundle folder a file of the site is in, if any: pagefind/LANG/NAME/… or pagefind/…"""
    parts = rel.split("/")
    if len(parts) < 2 or parts[0] != search.FOLDER:
        return None
    if parts[1] in LANGS:
        return "/".join(parts[:3]) if len(parts) > 3 else None
    return search.FOLDER


def _folder(lang: str, low: str) -> str:
    """A bundle's folder, named by its first key: a day, and a hash (keys hold slashes)."""
    digest = hashlib.sha256(low.encode()).hexdigest()[:10]
    day = low[:10]
    name = f"{day}-{digest}" if _DAY.fullmatch(day) else "start" if not low else digest
    return f"{search.FOLDER}/{lang}/{name}"


def place(ctx: SiteContext, pages: Iterable[str], bounds: Mapping[str, Any]) -> list[Placed]:
    """The bundles of this build's report pages (stems), the search page's own first."""
    by_lang: dict[str, list[Page]] = defaultdict(list)
    for stem in pages:
        try:
            size = (ctx.output.root / f"{stem}.html").stat().st_size
        except OSError:
            size = 0
        by_lang[stem.rsplit(".", 1)[1]].append(Page(page_key(stem), stem, size))
    if not by_lang:
        return []
    own = ctx.cfg.language if ctx.cfg.language in by_lang else min(by_lang)
    placed = []
    for lang in sorted(by_lang, key=lambda code: (code != own, code)):
        saved = bounds.get(lang)
        old = saved if isinstance(saved, list) else []
        planned = plan(by_lang[lang], old, ctx.search_bundle_bytes)
        for k, bundle in enumerate(planned):
            primary = lang == own and k == 0
            folder = search.FOLDER if primary else _folder(lang, bundle.low)
            placed.append(Placed(lang, bundle, folder, primary))
    return placed


def write_search(
    ctx: SiteContext,
    pages: Mapping[str, str],
    before: set[str],
    saved: Mapping[str, Any],
    binary: Path,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The search page and its bundles. `pages`: this build's report pages (stem -> key);
    `before` and `saved`: the files the last build made and its record of the bundles.
    Returns this build's record of the bundles, for the manifest."""
    bounds = saved.get("bounds")
    placed = place(ctx, pages, bounds if isinstance(bounds, dict) else {})
    _write_page(ctx, [p for p in placed if not p.primary])
    made = ctx.result
    made.search_bundles = len(placed)
    old_signatures = saved.get("signatures")
    old = old_signatures if isinstance(old_signatures, dict) else {}
    signatures: dict[str, str] = {}
    key = search.binary_key(binary)
    by_folder: dict[str | None, set[str]] = defaultdict(set)
    for rel in before:
        by_folder[folder_of(rel)].add(rel)
    stale = []
    files_of: dict[str, set[str]] = {}
    for bundle in placed:
        signature = bundle.signature(key, pages)
        signatures[bundle.folder] = signature
        files = by_folder.get(bundle.folder, set())
        if old.get(bundle.folder) == signature and files and all(map(ctx.output.exists, files)):
            ctx.made |= files
            files_of[bundle.folder] = files
        else:
            stale.append(bundle)
    for k, bundle in enumerate(stale):
        files_of[bundle.folder] = _index(ctx, bundle, binary)
        made.search_bundles_indexed += 1
        made.search_pages_indexed += len(bundle.bundle.pages)
        if progress:
            progress("search", k + 1, len(stale))
    _write_filter(ctx, [files_of[p.folder] for p in placed])
    return {
        "bounds": {
            lang: [p.bundle.low for p in placed if p.lang == lang]
            for lang in sorted({p.lang for p in placed})
        },
        "signatures": dict(sorted(signatures.items())),
    }


def _index(ctx: SiteContext, bundle: Placed, binary: Path) -> set[str]:
    """Run Pagefind over the bundle's pages and publish its files; returns them."""
    pages = [f"{p.stem}.html" for p in bundle.bundle.pages]
    try:
        files = search.build_index(ctx.output.root, pages, binary)
    except (search.SearchError, OSError, subprocess.SubprocessError) as exc:
        raise TidingsError(
            f"the search index failed: {exc}",
            "set `search = false` under [site] to build without search, and report it",
        ) from exc
    put = set()
    for name, data in files.items():
        if bundle.primary or search.is_data(name):
            put.add(f"{bundle.folder}/{name}")
            ctx.put_page(f"{bundle.folder}/{name}", data)
    return put


def _write_filter(ctx: SiteContext, bundle_files: list[set[str]]) -> None:
    """The module the search page loads in place of Pagefind's (search_filter.js says why),
    and the map from each page's fragment id to the number of its bundle."""
    bundle_of = {
        PurePosixPath(rel).name.removesuffix(FRAGMENT): k
        for k, files in enumerate(bundle_files)
        for rel in files
        if rel.endswith(FRAGMENT) and PurePosixPath(rel).parent.name == "fragment"
    }
    ctx.put_page(f"{FILTER_FOLDER}/pages.json", json.dumps(bundle_of, sort_keys=True))
    ctx.put_page(f"{FILTER_FOLDER}/pagefind.js", FILTER_SCRIPT.read_bytes())


def _write_page(ctx: SiteContext, merged: list[Placed]) -> None:
    words, cfg = ctx.words, ctx.cfg
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
        merge=[{"path": p.folder + "/", "language": pagefind_lang(p.lang)} for p in merged],
        bundle_path=FILTER_FOLDER + "/",
        term_similarity=TERM_SIMILARITY,
    )
    ctx.put_page("search.html", page)
