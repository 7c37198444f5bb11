"""Publishing a site whole: build in a staging folder beside it, then swap the two.

A reader (a web server, `tidings serve`, a Pages upload) must never see a site half built: pages
linking to an index or feed that does not exist yet. So a build never writes into the published
folder `OUT`:

1. Under a lock (`flock` on OUT's parent folder: one build per folder at a time), clean up
   after a build that was killed (below).
2. Stage: `.OUT.tidings-new` beside OUT starts as a copy of OUT made of hard links (no bytes
   copied; a file system without hard links gets real copies), leaving out our temporary
   files (`.NAME.XXXXXXXX.tmp`). Files in OUT that tidings did not write are carried over.
3. Build into the staging folder. A page is replaced by writing a new file and renaming it
   over the link, so a staged change never reaches the published copy's inode; an unchanged
   file stays the very same file (same inode, same mtime).
4. Swap, when anything changed: on Linux, `renameat2(RENAME_EXCHANGE)` exchanges the two
   folders in one atomic step, then the old site (now at the staging name) is deleted.
   Where that call is missing, OUT is renamed to `.OUT.tidings-old` and the staging folder to
   OUT: two renames with a moment between them in which OUT does not exist. Nothing changed:
   the staging folder is deleted and OUT is left exactly as it was.

kill -9 at any point leaves OUT the old whole site or the new whole one, plus leftovers the
next build removes: a staging folder (deleted), or after a kill between the two fallback renames
no OUT and a `.tidings-old` folder (renamed back to OUT, then built again).

An OUT that is a mount point (e.g. a container volume) cannot be renamed, and an OUT in a folder
the user cannot write to has no room for a staging folder: either is built in place, each file
replaced atomically but the site not swapped as a whole, with a warning. An OUT that is a
symbolic link is followed: the folder it points to is the one swapped.
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tidings.common.outputs import is_temp_name, write_error
from tidings.errors import TidingsError

STAGING = ".{}.tidings-new"
OLD = ".{}.tidings-old"


def staging_path(out: Path) -> Path:
    return out.with_name(STAGING.format(out.name))


def old_path(out: Path) -> Path:
    return out.with_name(OLD.format(out.name))


def published_folder(out: Path) -> Path:
    """The folder a build publishes to: `out` made absolute, through a symbolic link."""
    real = out.resolve()
    if real.exists() and not real.is_dir():
        raise TidingsError(f"--out {out} is a file, not a folder", "pass a folder for the site")
    return real


@contextmanager
def build_lock(out: Path) -> Iterator[None]:
    """Hold the lock on `out`'s parent folder for one build; another build of a site in the
    same folder fails at once instead of deleting this one's staging folder."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory locks to take
        yield
        return
    parent = out.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(parent, os.O_RDONLY)
    except OSError as exc:
        raise write_error(out, exc, "choose a writable --out folder") from exc
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            raise TidingsError(
                f"another site build is running in {parent}", "wait for it to finish"
            ) from exc
        yield
    finally:
        os.close(fd)  # closing releases the lock


def recover(out: Path) -> None:
    """Undo what a killed build left beside `out`."""
    old, staging = old_path(out), staging_path(out)
    try:
        if not out.exists() and old.is_dir():
            os.rename(old, out)  # killed between the fallback's two renames: the old site
        for leftover in (staging, old):
            if leftover.is_dir() and not leftover.is_symlink():
                shutil.rmtree(leftover)
    except OSError as exc:
        raise TidingsError(
            f"cannot clean up after an earlier build beside {out}: {exc.strerror}",
            f"remove {staging} and {old} by hand",
        ) from exc


def stage(out: Path) -> tuple[Path, int]:
    """A staging folder holding what `out` holds, as hard links, and how many temporary files
    it left out (a site holding any must be swapped even when no page changed)."""
    staging = staging_path(out)
    staging.mkdir()
    try:
        dropped = _link_tree(out, staging) if out.is_dir() else 0
    except BaseException:
        discard(staging)
        raise
    return staging, dropped


def remove_temp_files(out: Path) -> None:
    """Delete temporary files a failed write left in a site built in place."""
    for folder, _, files in os.walk(out):
        for name in files:
            if is_temp_name(name):
                (Path(folder) / name).unlink(missing_ok=True)


def _link_tree(src: Path, dst: Path) -> int:
    dropped = 0
    for folder, dirs, files in os.walk(src):
        here = Path(folder)
        target = dst / here.relative_to(src)
        for name in dirs:
            if (here / name).is_symlink():
                os.symlink(os.readlink(here / name), target / name)
            else:
                (target / name).mkdir()
                shutil.copymode(here / name, target / name)
        dirs[:] = [name for name in dirs if not (here / name).is_symlink()]
        for name in files:
            if is_temp_name(name):
                dropped += 1  # a write that never finished (a full disk, a kill): not a page
                continue
            source = here / name
            if source.is_symlink():
                os.symlink(os.readlink(source), target / name)
            elif source.is_file():
                try:
                    os.link(source, target / name, follow_symlinks=False)
                except OSError as exc:
                    if exc.errno not in {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP}:
                        raise
                    shutil.copy2(source, target / name)
    return dropped


def discard(staging: Path) -> None:
    """Delete a staging folder, best effort: the next build retries."""
    shutil.rmtree(staging, ignore_errors=True)


def swap(staging: Path, out: Path) -> None:
    """Put the staged site at `out` and delete the one it replaces."""
    try:
        if not out.exists():
            os.rename(staging, out)
            return
        if _exchange(staging, out):
            shutil.rmtree(staging)  # the old site, now under the staging name
            return
        old = old_path(out)
        os.rename(out, old)
        os.rename(staging, out)
        shutil.rmtree(old)
    except OSError as exc:
        raise TidingsError(
            f"cannot publish the new site at {out}: {exc.strerror}",
            "check that the folder and its parent are writable",
        ) from exc


def _exchange(a: Path, b: Path) -> bool:
    """Atomically exchange two paths (Linux 3.15+, glibc 2.28+); False where unsupported."""
    if sys.platform != "linux":
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p]
    renameat2.argtypes += [ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in {errno.EINVAL, errno.ENOSYS, errno.ENOTSUP}:
        return False  # a file system (or kernel) without exchange: fall back to two renames
    raise OSError(code, os.strerror(code), str(b))
