"""Full-text search of the whole archive with Pagefind: an index of static files made at build
time, searched in the reader's browser, offline, with no server.

Pagefind (PyPI `pagefind[extended]`: its extended binary segments Chinese text into words)
indexes the report pages' <main data-pagefind-body>, with the filters the pages declare
(project, kind, language, label, topic track). It keeps one index per page language; the
search page loads its own language's and merges the others, so a Chinese and an English query
both find their reports from one box.

The index is written to a temporary folder and handed back as bytes, so the site's writer
(site/output.py) publishes it like every other file: atomically, only the files whose bytes
changed, and removing fragments of an older index. Pagefind lists languages and filters in a
different order from run to run (`pagefind-entry.json` is rewritten with sorted keys; its
compressed filter and metadata files cannot be), so site/search_page.py runs it only when a page
changed: an unchanged site writes nothing.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

FOLDER = "pagefind"
# Pagefind's default UI puts filter names and values into the page as HTML (innerHTML), so a
# label named `<img src=x onerror=…>` would run on the search page. What the site hands it as
# a filter is made inert: each character that could start markup or an entity, or close an
# attribute, becomes its fullwidth twin, which reads the same and is never markup.
_INERT = str.maketrans({"<": "＜", ">": "＞", "&": "＆", '"': "＂", "'": "＇", "`": "｀"})
# Pagefind's other front ends: the search page uses its default UI (pagefind-ui.*).
UNUSED = ("pagefind-component-ui.", "pagefind-modular-ui.")


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


def off_reason() -> str:
    return (
        "search is off: the Pagefind binary is not installed "
        "(pip install 'pagefind[extended]' and build again)"
    )


class SearchError(Exception):
    """Pagefind ran and failed: the message is its last line of output."""


def build_index(site: Path, binary: Path) -> dict[str, bytes]:
    """The search index of the HTML pages under `site`: relative path (under pagefind/) ->
    bytes. Pages without `data-pagefind-body` (home, project and month pages, anything
    else in the folder) are not indexed."""
    with tempfile.TemporaryDirectory(prefix="tidings-search-") as tmp:
        out = Path(tmp) / FOLDER
        done = subprocess.run(
            [str(binary), "--site", str(site), "--output-path", str(out), "--silent"],
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
                files[f"{FOLDER}/{path.relative_to(out).as_posix()}"] = path.read_bytes()
    entry = f"{FOLDER}/pagefind-entry.json"
    if entry in files:
        data = json.loads(files[entry])
        files[entry] = json.dumps(data, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return files
