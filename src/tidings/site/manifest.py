"""The build's record of itself (`.tidings-site.json` in the site folder), read at the start of a
build and written at its end: each report page's key (what it was made from), each PDF's key,
the other files the build made, and the scan of the reports folder (site/sources.py).

Only files this record names are ever removed, so nothing else in --out is touched. Anyone can
edit the record, so names leading out of the folder are dropped as it is read.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from tidings.site.output import Output

MANIFEST = ".tidings-site.json"


@dataclass
class Manifest:
    """The last build's record, as read."""

    pdf: dict[str, str] = field(default_factory=dict)  # PDF path -> its print page's key
    pages: dict[str, str] = field(default_factory=dict)  # report stem -> its page's key
    files: set[str] = field(default_factory=set)  # other files the build made
    inputs: Any = None  # the scan of the reports folder (sources.InputCache)
    search: dict[str, Any] = field(default_factory=dict)  # the search bundles (search_page.py)


def read_manifest(root: Path, inside: Callable[[str], Path | None]) -> Manifest:
    """The record in `root`; empty when it is missing or unreadable. `inside` tells whether a
    name stays in the folder (Output.inside)."""
    saved: Any = None
    found = Manifest()
    try:
        saved = json.loads((root / MANIFEST).read_text("utf-8"))
        found.inputs = saved.pop("inputs", None)
        found.pdf = dict(saved["pdf"])
        found.pages = dict(saved.get("pages", {}))
    except (OSError, ValueError, KeyError, TypeError):
        found.pdf, found.pages = {}, {}
    # A hand-edited manifest may name pages outside the folder: they were never published
    # here, so they count neither for removal nor for "would remove every report".
    found.pages = {stem: key for stem, key in found.pages.items() if inside(stem)}
    files = saved.get("files", []) if isinstance(saved, dict) else []
    found.files = {f for f in files if isinstance(f, str) and inside(f) is not None}
    search = saved.get("search") if isinstance(saved, dict) else None
    found.search = search if isinstance(search, dict) else {}
    return found


def write_manifest(
    output: Output,
    pdf: dict[str, str],
    pages: dict[str, str],
    files: set[str],
    inputs: Any,
    search: dict[str, Any],
) -> None:
    manifest = {
        "pdf": dict(sorted(pdf.items())),
        "pages": dict(sorted(pages.items())),
        "files": sorted(files),
        "inputs": inputs,
        "search": search,
    }
    # Compact: the C encoder writes it in one piece (an indented dump is built from many
    # small strings, a peak that grew with the archive).
    output.put(MANIFEST, json.dumps(manifest, sort_keys=True, separators=(",", ":")) + "\n")


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of the code and templates that shape pages: a new tidings (or a local edit)
    rebuilds every page once instead of trusting pages an older renderer made."""
    from tidings import _version

    root = Path(_version.__file__).parent
    digest = hashlib.sha256(_version.__version__.encode())
    files = sorted((root / "render").rglob("*")) + sorted((root / "words").glob("*.py"))
    files += sorted((root / "report").glob("*.py"))  # the models summaries are read with
    # Every module of the site: the page builders are several small modules.
    files += sorted((root / "site").glob("*.py"))
    for file in files:
        if file.is_file() and file.suffix in {".py", ".j2"}:
            digest.update(file.name.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()
