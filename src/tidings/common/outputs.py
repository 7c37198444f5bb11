"""Writing output files: whole or not at all, and as readable as any file the user creates.

A file is written to a temporary name beside its target and renamed over it, so a crash or a
full disk never leaves half a file under the real name, and a failed write removes its
temporary file. The temporary file is created with `open(…, 0o666)` and the kernel applies the
umask (and any default ACL) exactly as for a plain `open()`: 0644 under umask 022. `mkstemp`
would make every report, page and PDF 0600, which web servers answer with 403 and GitHub Pages'
artifact upload rejects.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tidings.errors import TidingsError

TEMP_SUFFIX = ".tmp"
NO_SPACE_FIX = "free disk space and run it again"
_NO_SPACE = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def is_temp_name(name: str) -> bool:
    """A temporary file this module makes (`.NAME.XXXXXXXX.tmp`): never a published file."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def current_umask() -> int:
    """The process's umask, read without changing it where the system allows (Linux 4.7+):
    setting it to read it back races with other threads creating files."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The permission bits a new file gets from `open()` under the current umask."""
    return 0o666 & ~current_umask()


def is_disk_full(exc: OSError) -> bool:
    return exc.errno in _NO_SPACE


def write_error(path: Path, exc: OSError, fix: str = "choose a writable location") -> TidingsError:
    """The one-line error for a failed write: a full disk says so, whatever the caller's fix."""
    if is_disk_full(exc):
        return TidingsError(f"cannot write {path}: no space left on the device", NO_SPACE_FIX)
    return TidingsError(f"cannot write {path}: {exc.strerror or exc}", fix)


_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFIFO: "a pipe (FIFO)",
    stat.S_IFSOCK: "a socket",
}


def target_of(path: Path, shown: Path | None = None) -> Path:
    """Where a write of `path` lands: `path` when it is absent or a regular file; through a
    symlink, the file it points to (written in place of that file, the link kept, on
    purpose: a link is how people point a name elsewhere). Anything else (a device such as
    /dev/null, a pipe, a socket, a folder) is refused: the rename that makes a write whole
    would replace it with a regular file."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise write_error(shown or path, exc) from exc
    if stat.S_ISLNK(mode):
        try:
            resolved = path.resolve()
        except (OSError, RuntimeError) as exc:  # a loop of links (RuntimeError before 3.13)
            raise TidingsError(
                f"cannot write {shown or path}: its symlinks never reach a file ({exc})",
                "give a file path that does not exist yet or is a regular file",
            ) from exc
        return path if resolved == path else target_of(resolved, shown or path)
    if stat.S_ISREG(mode):
        return path
    kind = _KINDS.get(stat.S_IFMT(mode), "not a regular file")
    raise TidingsError(
        f"cannot write {shown or path}: it is {kind}, and tidings writes whole regular files "
        "(it would replace it)",
        "give a file path that does not exist yet or is a regular file",
    )


def temp_name(directory: Path, name: str) -> Path:
    """A fresh temporary name in `directory` for a file about to be written as `name`."""
    return directory / f".{name}.{secrets.token_hex(4)}{TEMP_SUFFIX}"


def open_temp(tmp: Path) -> int:
    """Create `tmp` (which must not exist) for writing, with the umask applied: its fd."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_BINARY", 0)
    return os.open(tmp, flags, 0o666)


class _Sink:
    """The writable end of `atomic_file`: every byte goes through `os.write`."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> int:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        return len(data)


@contextmanager
def atomic_file(
    path: Path,
    *,
    fix: str = "choose a writable location",
    durable: bool = True,
    shown: Path | None = None,
) -> Iterator[_Sink]:
    """Write `path` through the yielded sink; it appears, whole, only when the block ends
    without an error. Any failure removes the temporary file; an OSError becomes one line.
    `durable`: fsync before the rename (a site build skips it for its thousands of pages:
    a killed process loses nothing the page cache holds, and the site is swapped in whole).
    `shown`: the path errors name, when `path` is a staging copy of it."""
    path = target_of(path, shown)
    # The name is chosen before the file exists and the cleanup below covers its creation: a
    # Ctrl-C landing just after the file appears still removes it.
    tmp = temp_name(path.parent, path.name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_temp(tmp)
    except BaseException as exc:
        if not isinstance(exc, FileExistsError):  # a name clash: that file is not ours
            _remove(tmp)
        if isinstance(exc, OSError):
            raise write_error(shown or path, exc, fix) from exc
        raise
    try:
        try:
            yield _Sink(fd)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as exc:
        _remove(tmp)
        if isinstance(exc, OSError):
            raise write_error(shown or path, exc, fix) from exc
        raise


def _remove(tmp: Path) -> None:
    # Cleaning up must not hide why the write failed: on a read-only file system the unlink
    # fails too (the file was never made), and the cause to report is the first error.
    with contextlib.suppress(OSError):
        tmp.unlink(missing_ok=True)


def write_atomic(
    path: Path, text: str | bytes, *, fix: str = "choose a writable --out location"
) -> None:
    """Write `text` (or bytes) to `path` via a temporary file in the same folder and an
    atomic rename."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    with atomic_file(path, fix=fix) as sink:
        sink.write(data)
