"""Writing output files so that a failure never leaves half a file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tidings.errors import TidingsError


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write `text` (or bytes) to `path` via a temporary file in the same folder and an
    atomic rename."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise TidingsError(
            f"cannot write {path}: {exc.strerror}", "choose a writable --out location"
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        fix = "free some disk space" if exc.errno == 28 else "choose a writable --out location"
        raise TidingsError(f"cannot write {path}: {exc.strerror}", fix) from exc
    except BaseException:  # Ctrl-C mid-write: no temp file left behind
        Path(tmp).unlink(missing_ok=True)
        raise
