"""Full-text search of the whole archive with Pagefind: indexes of static files made at build
time, searched in the reader's browser, offline, with no server.

Pagefind (PyPI `pagefind[extended]`: its extended binary segments Chinese text into words)
indexes the report pages' <main data-pagefind-body>, with the filters the pages declare
(project, kind, language, label, topic track). This module runs it over a given list of pages
(one search bundle, site/search_bundles.py); site/search_page.py decides which bundles to make
and the search page merges them in the browser.

Pagefind reads a folder, so the pages of a bundle are linked into a temporary one at their
paths in the site (a `--glob` listing the files made Pagefind three times slower). The
index is written to a temporary folder and handed back as bytes, so the site's writer
(site/output.py) publishes it like every other file: atomically, only the files whose bytes
changed, and removing fragments of an older index. Pagefind lists languages and filters in a
different order from run to run (`pagefind-entry.json` is rewritten with sorted keys; its
compressed filter and metadata files cannot be), so a bundle is made again only when one of
its pages changed: an unchanged site writes nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

FOLDER = "pagefind"
# Pagefind's default UI puts filter names and values into the page as HTML (innerHTML), so a
# label named `<img src=x onerror=…>` would run on the search page. What the site hands it as
# a filter is made inert: each character that could start markup or an entity, or close an
# attribute, becomes its fullwidth twin, which reads the same and is never markup.
_INERT = str.maketrans({"<": "＜", ">": "＞", "&": "＆", '"': "＂", "'": "＇", "`": "｀"})
# Pagefind's other front ends: the search page uses its default UI (pagefind-ui.*).
UNUSED = ("pagefind-component-ui.", "pagefind-modular-ui.")
# What a merged bundle needs: the browser runs the search page's own bundle's script and
# WebAssembly for every index it merges, and reads only these files from the others.
DATA_FOLDERS = ("index/", "fragment/", "filter/")
ENTRY = "pagefind-entry.json"


def inert(text: str) -> str:
    """`text` as Pagefind's UI may show it: no character it could read as markup."""
    return " ".join(text.translate(_INERT).split())


def executable() -> Path | None:
    """The Pagefind binary (the `pagefind` package's, or PAGEFIND_BINARY_PATH's), or None
    when it is not installed."""
    try:
        from pagefind.service import get_executable
    except ImportError:
        return None
    try:
        found = get_executable()
    except (FileNotFoundError, OSError):
        return None
    return found if found is not None and found.is_file() else None


def binary_key(binary: Path) -> str:
    """Which Pagefind made an index: another one (an upgrade) makes every bundle again, so
    the search page's script never reads an index of another version."""
    try:
        info = binary.stat()
    except OSError:
        return binary.name
    return f"{binary.name}:{info.st_size}:{info.st_mtime_ns}"


def off_reason() -> str:
    return (
        "search is off: the Pagefind binary is not installed "
        "(pip install 'pagefind[extended]' and build again)"
    )


class SearchError(Exception):
    """Pagefind ran and failed: the message is its last line of output."""


def is_data(rel: str) -> bool:
    """A file of the index itself (not Pagefind's script, styles or WebAssembly)."""
    return rel == ENTRY or rel.endswith(".pf_meta") or rel.startswith(DATA_FOLDERS)


def _link(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.symlink(source, target)
    except OSError:  # a file system without symbolic links
        shutil.copyfile(source, target)


def build_index(site: Path, pages: Sequence[str], binary: Path) -> dict[str, bytes]:
    """The search index of `pages` (HTML files, relative to `site`): file name in the bundle
    -> bytes. A page without `data-pagefind-body` is not indexed when another has one."""
    with tempfile.TemporaryDirectory(prefix="tidings-search-") as tmp:
        view, out = Path(tmp) / "site", Path(tmp) / FOLDER
        root = site.resolve()
        for rel in pages:
            _link(root / rel, view / rel)
        done = subprocess.run(
            [str(binary), "--site", str(view), "--output-path", str(out), "--silent"],
            capture_output=True,
            text=True,
            check=False,
            timeout=600,
        )
        if done.returncode != 0:
            lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
            raise SearchError(lines[-1])
        files: dict[str, bytes] = {}
        for path in sorted(out.rglob("*")):
            if path.is_file() and not path.name.startswith(UNUSED):
                files[path.relative_to(out).as_posix()] = path.read_bytes()
    if ENTRY in files:
        data = json.loads(files[ENTRY])
        files[ENTRY] = json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return files
