"""Written files follow the umask like a plain open(), and a full disk is one line with nothing
left behind: reports, their PDFs, site pages and snapshots.

The umask is set per test (022 and 027) and restored; a full disk is simulated by making
`os.write` fail with ENOSPC — in this process, or in a `tidings export` child through a
sitecustomize module on its PYTHONPATH.
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.factories import finished_sync
from tidings.common.config import parse_config
from tidings.common.outputs import current_umask, file_mode, write_atomic
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.errors import TidingsError
from tidings.jobs.runner import run_repositories
from tidings.render import pdf as pdf_module
from tidings.site.build import build_site
from tidings.sources.snapshot import export_snapshot, import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 03-13 and week 10 have closed


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('outputs') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    return store


@pytest.fixture(params=[0o022, 0o027], ids=["umask022", "umask027"])
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


@pytest.fixture
def fake_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for WeasyPrint (the modes are the point here, not the pages), kept in this
    process so the stand-in is the one called."""
    monkeypatch.setattr(pdf_module, "html_to_pdf", lambda html: b"%PDF-1.7 stand-in\n")
    monkeypatch.setattr(pdf_module.os, "cpu_count", lambda: 1)


def modes(folder: Path) -> dict[str, int]:
    return {
        str(p.relative_to(folder)): stat.S_IMODE(p.stat().st_mode)
        for p in sorted(folder.rglob("*"))
    }


def test_the_umask_is_read_without_changing_it(umask: int) -> None:
    assert current_umask() == umask
    assert current_umask() == umask  # reading it twice: it was not reset to something else
    assert file_mode() == 0o666 & ~umask


def test_reports_pdfs_site_and_snapshot_follow_the_umask(
    umask: int, tmp_path: Path, demo_store: Store, fake_pdf: None
) -> None:
    file_bits, dir_bits = 0o666 & ~umask, 0o777 & ~umask  # 644/755 or 640/750
    cfg = parse_config(CONFIG_PATH.read_text("utf-8") + '\n[site]\nlanguages = ["en"]\n')
    reports = tmp_path / "reports"
    (outcome,) = run_repositories(
        cfg, demo_store, sync=finished_sync, reports_dir=reports, days=1, now=NOW, pdf=True
    )
    assert outcome.ok and outcome.pdfs_made == 2
    site = tmp_path / "site"
    build_site(reports, site, cfg.site, pdf=True)
    snapshot = tmp_path / "snap.jsonl"
    export_snapshot(demo_store, REPO, snapshot)

    written = {**modes(reports), **{f"site/{k}": v for k, v in modes(site).items()}}
    kinds = {Path(name).suffix for name in written}
    assert {".json", ".md", ".pdf", ".key", ".html", ".xml"} <= kinds
    for name, mode in written.items():
        is_dir = (reports / name).is_dir() or (tmp_path / name).is_dir()
        assert mode == (dir_bits if is_dir else file_bits), f"{name}: {oct(mode)}"
    assert stat.S_IMODE(snapshot.stat().st_mode) == file_bits
    assert stat.S_IMODE(site.stat().st_mode) == dir_bits  # the swapped-in folder too


def test_a_site_written_0600_by_an_older_tidings_is_rewritten_readable(
    tmp_path: Path, demo_store: Store, fake_pdf: None
) -> None:
    old = os.umask(0o022)
    try:
        cfg = parse_config(CONFIG_PATH.read_text("utf-8") + '\n[site]\nlanguages = ["en"]\n')
        reports, site = tmp_path / "reports", tmp_path / "site"
        run_repositories(cfg, demo_store, sync=finished_sync, reports_dir=reports, now=NOW)
        build_site(reports, site, cfg.site, pdf=False)
        files = [p for p in site.rglob("*") if p.is_file()]
        for path in files:
            path.chmod(0o600)  # what mkstemp left
        again = build_site(reports, site, cfg.site, pdf=False)
        # Every file written again; the search index is made again too, and Pagefind names
        # some of its files differently from run to run (docs/site.md), so it is left out.
        pages = sorted(str(p.relative_to(site)) for p in files)
        assert sorted(p for p in again.written if not p.startswith("pagefind/")) == [
            p for p in pages if not p.startswith("pagefind/")
        ]
        assert set(modes(site).values()) <= {0o644, 0o755}
        assert build_site(reports, site, cfg.site, pdf=False).written == []
    finally:
        os.umask(old)


def full_disk(monkeypatch: pytest.MonkeyPatch, after: int = 0) -> list[int]:
    """Make os.write fail with ENOSPC once `after` writes have gone through (to files only:
    the terminal's fds 0-2 still work). Returns the count of writes let through."""
    real = os.write
    done = [0]

    def write(fd: int, data: bytes) -> int:
        if fd > 2:
            if done[0] >= after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            done[0] += 1
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    return done


def test_a_full_disk_keeps_the_old_file_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out" / "report.md"
    write_atomic(target, "old\n")
    full_disk(monkeypatch)
    with pytest.raises(TidingsError) as caught:
        write_atomic(target, "new\n" * 1000)
    assert "no space left" in caught.value.cause
    assert caught.value.fix.startswith("free disk space")
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["report.md"]


def test_export_to_a_full_disk_is_one_error_and_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_store: Store
) -> None:
    full_disk(monkeypatch)
    with pytest.raises(TidingsError) as caught:
        export_snapshot(demo_store, REPO, tmp_path / "snap.jsonl")
    assert "free disk space" in caught.value.one_line()
    assert list(tmp_path.iterdir()) == []


SITECUSTOMIZE = """\
import errno, os
_write = os.write
def _full(fd, data):
    if fd > 2:  # files, not the terminal
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _write(fd, data)
os.write = _full
"""


def test_cli_export_to_a_full_disk_prints_one_line(tmp_path: Path, demo_store: Store) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    out = tmp_path / "out"
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    env["PYTHONPATH"] = os.pathsep.join([str(hook), *sys.path])
    db = str(demo_store.engine.url)
    done = subprocess.run(
        [sys.executable, "-m", "tidings.cli", "--db", db, "export", REPO, str(out / "snap.jsonl")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: cannot write ")
    assert "no space left on the device — free disk space" in done.stderr
    assert list(out.iterdir()) == []


# -- what is at the path ----------------------------------------------------------------------


def test_a_symlink_is_written_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "new"


@pytest.mark.parametrize("kind", ["fifo", "folder", "link to a fifo", "link to /dev/null"])
def test_what_is_not_a_regular_file_is_refused_and_left_as_it_was(
    tmp_path: Path, kind: str
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    target = {
        "fifo": fifo,
        "folder": tmp_path,
        "link to a fifo": tmp_path / "l1",
        "link to /dev/null": tmp_path / "l2",
    }[kind]
    if kind == "link to a fifo":
        target.symlink_to(fifo)
    elif kind == "link to /dev/null":
        target.symlink_to("/dev/null")
    before = os.lstat(target)
    with pytest.raises(TidingsError) as caught:
        write_atomic(target, "x")
    assert "tidings writes whole regular files" in caught.value.one_line()
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_loop_of_symlinks_is_one_error(tmp_path: Path) -> None:
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(TidingsError, match="never reach a file"):
        write_atomic(tmp_path / "a", "x")


def test_cli_out_to_a_device_is_one_line_and_exit_1(tmp_path: Path, demo_store: Store) -> None:
    link = tmp_path / "null.md"
    link.symlink_to("/dev/null")
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    db = str(demo_store.engine.url)
    args = ["report", "daily", REPO, "--date", "2026-03-05", "--no-llm", "--out", str(link)]
    done = subprocess.run(
        [sys.executable, "-m", "tidings.cli", "--db", db, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "is a device" in done.stderr
    assert link.is_symlink()


def test_a_read_only_file_system_is_one_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As on a read-only mount: creating the temporary file fails, and so does removing it.
    def refuse(*_args: object, **_kwargs: object) -> int:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(os, "open", refuse)
    monkeypatch.setattr(os, "unlink", refuse)
    with pytest.raises(TidingsError) as caught:
        write_atomic(tmp_path / "x.md", "text")
    assert caught.value.one_line().startswith(f"cannot write {tmp_path / 'x.md'}: Read-only")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="/dev/full is Linux's; CI has it")
@pytest.mark.parametrize("args", [["repos"], ["report", "daily", REPO, "--date", "2026-03-05"]])
def test_stdout_on_a_full_device_is_one_line_and_exit_1(
    demo_store: Store, tmp_path: Path, args: list[str]
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "tidings.cli", "--db", str(demo_store.engine.url), *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert errors == [
        "error: cannot write to standard output: No space left on device — free disk space "
        "and run it again"
    ]
    assert "Traceback" not in done.stderr
