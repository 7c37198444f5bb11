"""Writing the site's files: only those whose bytes differ, each atomically, never outside the
site's folder; and the tally of what a build wrote, kept and removed."""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from tidings.common.outputs import atomic_file, file_mode, write_error
from tidings.errors import TidingsError


@dataclass
class BuildResult:
    out: Path
    reports: int = 0
    projects: int = 0
    written: list[str] = field(default_factory=list)  # relative paths whose bytes changed
    unchanged: int = 0
    pdfs_made: int = 0  # rendered by the site
    pdfs_copied: int = 0  # made when their reports were written, published as they are
    removed: list[str] = field(default_factory=list)  # files of reports no longer there
    warnings: list[str] = field(default_factory=list)  # e.g. two copies of one report
    # Report files parsed: new or changed ones (for their summaries) and the reports whose
    # pages were rendered; 0 when nothing changed.
    reports_parsed: int = 0
    markdown_reused: int = 0  # Markdown published as written beside the report's JSON
    markdown_rendered: int = 0  # rendered here: the report had no Markdown beside it
    search_bundles: int = 0  # the search page's indexes (site/search_bundles.py)
    search_bundles_indexed: int = 0  # made again by this build: their pages changed
    search_pages_indexed: int = 0  # the pages of those

    def to_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "projects": self.projects,
            "reports": self.reports,
            "files_written": len(self.written),
            "files_unchanged": self.unchanged,
            "pdfs_made": self.pdfs_made,
            "pdfs_copied": self.pdfs_copied,
            "files_removed": len(self.removed),
            "reports_parsed": self.reports_parsed,
            "markdown_reused": self.markdown_reused,
            "markdown_rendered": self.markdown_rendered,
            "search_bundles": self.search_bundles,
            "search_bundles_indexed": self.search_bundles_indexed,
            "search_pages_indexed": self.search_pages_indexed,
            "warnings": self.warnings,
        }


class Output:
    """Writes files under a root (the staging folder) only when their bytes differ, each
    atomically. Errors name the file as it will be published, under `shown`."""

    def __init__(self, root: Path, result: BuildResult, shown: Path | None = None) -> None:
        self.root = root
        self.shown = shown or root
        self.result = result
        # Files of older versions were written 0600 (mkstemp); the same bytes with those
        # modes are written again so the published copy follows the umask.
        self.mode = file_mode()

    def inside(self, rel: str) -> Path | None:
        """`rel` under the root, or None when it would lead out of it. Paths are made from
        report JSON (repository, period) and the last build's manifest, which anyone could
        have edited; the name checks upstream should stop `..`, and this makes sure."""
        pure = PurePosixPath(rel)
        if not rel or pure.is_absolute() or any(p in {"", ".", ".."} for p in rel.split("/")):
            return None
        path = self.root / rel
        root = self.root.resolve()
        if root not in path.resolve().parents:  # e.g. through a symlinked folder
            return None
        return path

    def put(self, rel: str, content: bytes | str) -> None:
        data = content.encode("utf-8") if isinstance(content, str) else content
        path = self.inside(rel)
        if path is None:
            raise TidingsError(
                f"refusing to write {rel!r}: it is outside the site folder {self.root}",
                "check the report files' repository names (OWNER/REPO)",
            )
        try:
            if self.exists(rel) and path.stat().st_size == len(data) and path.read_bytes() == data:
                self.result.unchanged += 1
                return
        except OSError as exc:
            raise write_error(self.shown / rel, exc, "choose a writable --out folder") from exc
        fix = "choose a writable --out folder"
        with atomic_file(path, fix=fix, durable=False, shown=self.shown / rel) as sink:
            sink.write(data)
        self.result.written.append(rel)

    def exists(self, rel: str) -> bool:
        """The file is there and may stay: not one an older tidings left 0600 (mkstemp's
        mode) where the umask now gives more, which is written again."""
        try:
            info = (self.root / rel).stat()
        except OSError:
            return False
        legacy = stat.S_IMODE(info.st_mode) == 0o600 and self.mode != 0o600
        return stat.S_ISREG(info.st_mode) and not legacy

    def remove(self, rel: str) -> None:
        """Delete a file this site wrote before, and its folders once they are empty."""
        path = self.inside(rel)
        if path is None:  # an edited manifest: never delete outside the site
            return
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise TidingsError(
                f"cannot remove {self.shown / rel}: {exc.strerror}",
                "choose a writable --out folder",
            ) from exc
        self.result.removed.append(rel)
        folder = path.parent
        while folder != self.root and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
