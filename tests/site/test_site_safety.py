"""The published site is always whole, and nothing leaves or enters it by accident.

- A build killed with SIGKILL at any point (mid-write, between the fallback's two renames,
  after the exchange) leaves the old whole site or the new whole one; the next build cleans up.
- A full disk leaves the published site as it was, no temporary file anywhere, and says
  "free disk space"; an old build's `.tmp` leftover is not published.
- An empty or wrong `--from`, reports inside `--out`, or a build that would unpublish every
  report is refused with one line, the site untouched.
- Two copies of one report publish the newest, with a warning.
- PDF workers exit when the process that started them is killed.
- A second `tidings run` on unchanged data, with a model, writes no file and calls no model.
- `tidings serve` serves only regular files inside the site, and answers a hostile path
  (`/%00`, 5,000 characters, a symbolic link loop) with 400 or 404, never a traceback.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from tests.site_support import parse_page
from tidings.cli import main
from tidings.common.config import SiteConfig, load_config, parse_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.errors import TidingsError
from tidings.report.daily import build_daily
from tidings.site.build import build_site
from tidings.site.publish import old_path, staging_path
from tidings.site.serve import make_server
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store

NOW = datetime(2026, 3, 20, tzinfo=UTC)
DAYS = ["2026-03-09", "2026-03-10", "2026-03-11", "2026-03-12"]
PROJECT = "tidings-demo/rapidinfer"


@pytest.fixture(scope="module")
def report_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The demo's English daily reports of DAYS, as JSON text."""
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('safety') / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    settings = load_config(CONFIG_PATH).repo(REPO)
    try:
        return {
            day: build_daily(
                store, settings, date.fromisoformat(day), "en", now=NOW
            ).model_dump_json(indent=2)
            + "\n"
            for day in DAYS
        }
    finally:
        store.close()


def write_reports(folder: Path, report_json: dict[str, str], days: list[str]) -> None:
    for day in days:
        path = folder / PROJECT / "daily" / f"{day}.en.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(report_json[day], "utf-8")


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def _local(href: str) -> str | None:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return None  # external, or an anchor on the same page
    return unquote(parts.path)


def whole_site(site: Path) -> set[str]:
    """Check that every link of every page reachable from index.html, and of every feed,
    names a file in the site; the report pages found."""
    assert (site / "index.html").is_file(), "no home page"
    seen: set[Path] = set()
    todo = [site / "index.html"]
    reports: set[str] = set()
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        if page.suffix == ".xml":
            root = ET.fromstring(page.read_bytes())
            hrefs = [
                link.get("href") or "" for link in root.iter("{http://www.w3.org/2005/Atom}link")
            ]
        else:
            hrefs = parse_page(page.read_text("utf-8")).hrefs
        for href in hrefs:
            rel = _local(href)
            if rel is None:
                continue
            target = (page.parent / rel).resolve()
            assert target.is_file(), f"{page.relative_to(site)} links to missing {href}"
            if target.suffix in {".html", ".xml"}:
                todo.append(target)
            if "/daily/" in str(target) and target.suffix == ".html":
                reports.add(str(target.relative_to(site.resolve())))
    assert not [p for p in site.rglob("*.tmp")], "a temporary file is published"
    return reports


def pages(days: list[str]) -> set[str]:
    return {f"{PROJECT}/daily/{day}.en.html" for day in days}


# -- kill -9 mid-build ---------------------------------------------------------------------------

KILL_AT = """\
import os, shutil, signal, sys
from pathlib import Path
from tidings.common.config import SiteConfig
from tidings.site import build, output, publish

source, out, where, at = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], int(sys.argv[4])
count = [0]

def tick():
    count[0] += 1
    if count[0] == at:
        os.kill(os.getpid(), signal.SIGKILL)

if where == "write":  # before the at-th file is written into the staging folder
    put = output.Output.put
    def counted(self, rel, content):
        tick()
        return put(self, rel, content)
    output.Output.put = counted
elif where == "rename":  # a system without exchange: after the at-th of its two renames
    publish._exchange = lambda a, b: False
    rename = os.rename
    def counted(a, b):
        rename(a, b)
        tick()
    os.rename = counted
elif where == "exchange":  # after the exchange, before the old site is deleted
    rmtree = shutil.rmtree
    def counted(path, *args, **kwargs):
        tick()
        return rmtree(path, *args, **kwargs)
    shutil.rmtree = counted
build.build_site(source, out, SiteConfig(), pdf=False)
"""


def child_env() -> dict[str, str]:
    """This interpreter's import path, so a child runs the tidings under test."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def build_killed(source: Path, out: Path, where: str, at: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILL_AT, str(source), str(out), where, str(at)],
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, f"not killed: {done.returncode} {done.stderr}"


@pytest.mark.parametrize(
    ("where", "at"),
    [
        pytest.param("write", 1, marks=pytest.mark.slow),
        ("write", 5),
        pytest.param("write", 10, marks=pytest.mark.slow),
        ("exchange", 1),
        pytest.param("rename", 2, marks=pytest.mark.slow),
    ],
)
def test_sigkill_mid_build_leaves_a_whole_site(
    tmp_path: Path, report_json: dict[str, str], where: str, at: int
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:2])
    build_site(src, out, SiteConfig(), pdf=False)
    old = files_of(out)
    write_reports(src, report_json, DAYS[2:])
    build_killed(src, out, where, at)
    # The old site, byte for byte, or the new one whole.
    found = whole_site(out)
    assert found in (pages(DAYS[:2]), pages(DAYS))
    if found == pages(DAYS[:2]):
        assert files_of(out) == old
    again = build_site(src, out, SiteConfig(), pdf=False)
    assert whole_site(out) == pages(DAYS)
    assert not staging_path(out).exists() and not old_path(out).exists()
    assert (again.written == []) == (found == pages(DAYS))


def test_a_second_build_beside_a_running_one_stops_at_once(
    tmp_path: Path, report_json: dict[str, str]
) -> None:
    from tidings.site.publish import build_lock

    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:1])
    with build_lock(out), pytest.raises(TidingsError, match="another site build is running"):
        build_site(src, out, SiteConfig(), pdf=False)
    assert not out.exists() and not staging_path(out).exists()
    build_site(src, out, SiteConfig(), pdf=False)  # the lock went with its holder
    assert whole_site(out) == pages(DAYS[:1])


def test_sigkill_between_the_fallback_renames_is_recovered(
    tmp_path: Path, report_json: dict[str, str]
) -> None:
    """Where the two folders cannot be exchanged atomically, a kill between the two renames
    is the one moment without a site; the next build puts the old one back, then builds."""
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:2])
    build_site(src, out, SiteConfig(), pdf=False)
    write_reports(src, report_json, DAYS[2:])
    build_killed(src, out, "rename", 1)
    assert not out.exists() and whole_site(old_path(out)) == pages(DAYS[:2])
    build_site(src, out, SiteConfig(), pdf=False)
    assert whole_site(out) == pages(DAYS)
    assert not staging_path(out).exists() and not old_path(out).exists()


# -- a full disk -----------------------------------------------------------------------------------


def test_a_full_disk_leaves_the_site_as_it_was_and_no_temp_file(
    tmp_path: Path, report_json: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:2])
    build_site(src, out, SiteConfig(), pdf=False)
    before = files_of(out)
    write_reports(src, report_json, DAYS[2:])
    real, writes = os.write, [0]

    def write(fd: int, data: bytes) -> int:
        writes[0] += 1
        if fd > 2 and writes[0] > 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)

    with monkeypatch.context() as patch:
        patch.setattr(os, "write", write)
        with pytest.raises(TidingsError) as caught:
            build_site(src, out, SiteConfig(), pdf=False)
    line = caught.value.one_line()
    assert "no space left" in line and "free disk space" in line
    assert str(out) in line and ".tidings-new" not in line  # names the published file
    assert files_of(out) == before
    assert not list(tmp_path.rglob("*.tmp")) and not staging_path(out).exists()
    build_site(src, out, SiteConfig(), pdf=False)
    assert whole_site(out) == pages(DAYS)


def test_a_leftover_temp_file_is_not_published(tmp_path: Path, report_json: dict[str, str]) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:1])
    build_site(src, out, SiteConfig(), pdf=False)
    (out / ".index.html.0a1b2c3d.tmp").write_text("<half a page", "utf-8")  # an old version's
    (out / "CNAME").write_text("reports.example.org\n", "utf-8")  # the user's own file
    build_site(src, out, SiteConfig(), pdf=False)
    assert not list(out.rglob("*.tmp"))
    assert (out / "CNAME").read_text("utf-8") == "reports.example.org\n"


def test_no_room_for_a_staging_folder_builds_in_place_with_a_warning(
    tmp_path: Path, report_json: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A web root you own inside a folder you do not (simulated: the tests may run as root)."""
    from tidings.site import publish

    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:1])
    build_site(src, out, SiteConfig(), pdf=False)
    (out / ".index.html.0a1b2c3d.tmp").write_text("<half a page", "utf-8")
    write_reports(src, report_json, DAYS[1:2])

    def no_room(target: Path) -> tuple[Path, int]:
        raise PermissionError(errno.EACCES, "Permission denied", str(target))

    monkeypatch.setattr(publish, "stage", no_room)
    result = build_site(src, out, SiteConfig(), pdf=False)
    assert result.warnings == [
        f"{out} is in a folder you cannot write to: built in place, file by file, not swapped "
        "in whole (docs/site.md)"
    ]
    assert whole_site(out) == pages(DAYS[:2])  # also: no .tmp left


# -- builds that would lose the site ------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    captured = capsys.readouterr()
    return int(done.value.code or 0), captured.out, captured.err


def test_an_empty_or_wrong_from_is_refused(
    tmp_path: Path, report_json: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    src, out = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:2])
    build_site(src, out, SiteConfig(), pdf=False)
    before = files_of(out)
    (tmp_path / "empty").mkdir()
    code, _, err = _cli(capsys, "site", "build", "--no-pdf", "--from", "empty", "--out", "site")
    assert code == 1 and err.count("\n") == 1 and "no reports found in empty" in err
    # Reports of other days only: every published report would go.
    other = tmp_path / "other"
    write_reports(other, report_json, DAYS[2:])
    code, _, err = _cli(capsys, "site", "build", "--no-pdf", "--from", "other", "--out", "site")
    assert code == 1 and err.count("\n") == 1 and "remove every published report" in err
    assert files_of(out) == before
    # Deleting the site is how to start a new one.
    code, _, _ = _cli(capsys, "site", "build", "--no-pdf", "--from", "other", "--out", "new")
    assert code == 0 and whole_site(tmp_path / "new") == pages(DAYS[2:])


def test_reports_inside_the_site_folder_are_refused(
    tmp_path: Path, report_json: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    write_reports(tmp_path / "site" / "reports", report_json, DAYS[:1])
    code, _, err = _cli(capsys, "site", "build", "--from", "site/reports", "--out", "site")
    assert code == 1 and err.count("\n") == 1 and "is inside --out" in err
    code, _, err = _cli(capsys, "site", "build", "--from", "site", "--out", "site")
    assert code == 1 and err.count("\n") == 1 and "same folder" in err
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == ["reports"]
    # A site built into a folder of reports (not a site) would bury them.
    write_reports(tmp_path / "demo", report_json, DAYS[:1])
    code, _, err = _cli(capsys, "site", "build", "--from", "demo", "--out", f"demo/{PROJECT}")
    assert code == 1 and err.count("\n") == 1 and "holds reports and no site" in err
    # The other way round is the demo's layout (DIR/daily beside DIR/site): fine.
    code, _, _ = _cli(capsys, "site", "build", "--no-pdf", "--from", "demo", "--out", "demo/site")
    assert code == 0 and whole_site(tmp_path / "demo" / "site") == pages(DAYS[:1])


# -- two copies of one report -----------------------------------------------------------------


@pytest.mark.parametrize("copy_at", ["aaa-old/copy.json", "zzz-old/copy.json"])
def test_two_copies_publish_the_newest_with_a_warning(
    tmp_path: Path,
    report_json: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    copy_at: str,
) -> None:
    """The older copy sits before or after the newer one in path order: time decides."""
    src = tmp_path / "reports"
    write_reports(src, report_json, DAYS[:1])
    stale = json.loads(report_json[DAYS[0]])
    stale["provenance"]["generated_at"] = "2026-03-10T05:00:00Z"  # before NOW
    stale["summary"]["text"]["text"] = "STALE COPY of the summary"
    (src / copy_at).parent.mkdir()
    (src / copy_at).write_text(json.dumps(stale), "utf-8")
    code, _, err = _cli(capsys, "site", "build", "--no-pdf", "--from", "reports", "--out", "site")
    assert code == 0
    warnings = err.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("warning: two copies of the daily report")
    assert copy_at in warnings[0] and "generated 2026-03-10 05:00 UTC" in warnings[0]
    page = (tmp_path / "site" / PROJECT / "daily" / f"{DAYS[0]}.en.html").read_text("utf-8")
    assert "STALE COPY" not in page
    published = (tmp_path / "site" / PROJECT / "daily" / f"{DAYS[0]}.en.json").read_text("utf-8")
    assert published == report_json[DAYS[0]]


# -- PDF workers die with their parent -----------------------------------------------------------

POOL = """\
import time
from tidings.common.workers import new_process_pool

pool = new_process_pool(2)
jobs = [pool.submit(time.sleep, 120) for _ in range(2)]
while len(pool._processes) < 2:
    time.sleep(0.05)
print(" ".join(str(pid) for pid in pool._processes), flush=True)
time.sleep(120)
"""


def _running(pid: int) -> bool:
    """The process exists and is not a zombie waiting for a reaper."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] not in {"Z", "X"}


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


@pytest.mark.skipif(sys.platform != "linux", reason="reads worker state from Linux's /proc")
def test_pdf_workers_exit_when_their_parent_is_killed() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", POOL],
        env=child_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        workers = [int(pid) for pid in proc.stdout.readline().split()]
        assert len(workers) == 2, proc.stderr.read() if proc.stderr else ""
        # Each worker's initializer has run once its parent-watch thread is up.
        deadline = time.monotonic() + 20
        while not all(_threads(pid) >= 2 for pid in workers):
            assert time.monotonic() < deadline, "workers never started"
            time.sleep(0.05)
        assert all(_running(pid) for pid in workers)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 5
    while any(_running(pid) for pid in workers):
        assert time.monotonic() < deadline, f"orphaned PDF workers: {workers}"
        time.sleep(0.05)


# -- a re-run on unchanged data writes nothing -------------------------------------------------


def _disk_state(*folders: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p): (p.stat().st_ino, p.stat().st_mtime_ns)
        for folder in folders
        for p in [folder, *folder.rglob("*")]
    }


@pytest.mark.slow
def test_second_run_with_a_model_writes_nothing_and_calls_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from testkit.servers.github import FakeGitHub
    from testkit.servers.openai import FakeOpenAI
    from tidings.analysis.analyst import Analyst
    from tidings.jobs.runner import run_repositories
    from tidings.render import pdf as pdf_module
    from tidings.sources.github.sync import sync_repository

    # PDFs: a stand-in for WeasyPrint, in this process; what is remade is decided as ever.
    made: list[str] = []
    monkeypatch.setattr(pdf_module, "html_to_pdf", lambda html: made.append(html) or b"%PDF-1")
    monkeypatch.setattr(pdf_module.os, "cpu_count", lambda: 1)
    token = "ghp_rerun0123456789abcdef"
    store = Store.open(f"sqlite:///{tmp_path / 'run.db'}")
    reports, site = tmp_path / "reports", tmp_path / "site"
    now = datetime(2026, 3, 14, 3, 0, tzinfo=UTC)  # 03-12, 03-13 and week 10 have closed
    with FakeGitHub.from_snapshot(SAMPLE_PATH, token=token) as gh, FakeOpenAI() as llm:
        cfg = parse_config(
            CONFIG_PATH.read_text("utf-8")
            + f'\n[site]\nlanguages = ["en"]\n\n[github]\napi_url = "{gh.api_url}"\n'
            f'graphql_url = "{gh.graphql_url}"\n\n'
            f'[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake-model"\ntimeout = 10\n'
        )

        def run() -> tuple[list[str], int, int, list[str]]:
            analyst = Analyst.from_config(cfg.llm, store)
            (outcome,) = run_repositories(
                cfg,
                store,
                sync=lambda s, r: sync_repository(s, r.name, github=cfg.github, token=token),
                reports_dir=reports,
                days=2,
                now=now,
                analysis=analyst,
                pdf=True,
            )
            assert outcome.ok, outcome.error
            built = build_site(reports, site, cfg.site, pdf=True)
            return outcome.written, outcome.pdfs_made, analyst.usage().calls, built.written

        written, pdfs_made, calls, site_written = run()
        assert len(written) == 3 and pdfs_made == 3 and calls > 0 and site_written
        first = json.loads((reports / PROJECT / "daily" / "2026-03-13.en.json").read_text())
        assert first["provenance"]["llm"]["model_parts"] > 0  # the model did write it
        before, llm_calls, pdf_count = _disk_state(reports, site), llm.calls, len(made)
        written, pdfs_made, calls, site_written = run()
    assert (written, pdfs_made, calls, site_written) == ([], 0, 0, [])
    assert llm.calls == llm_calls and len(made) == pdf_count
    assert _disk_state(reports, site) == before  # not one file or folder touched


# -- serve -------------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path, report_json: dict[str, str]) -> Iterator[tuple[str, Path]]:
    src, site = tmp_path / "reports", tmp_path / "site"
    write_reports(src, report_json, DAYS[:1])
    build_site(src, site, SiteConfig(), pdf=False)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET", "utf-8")
    (site / "leak.txt").symlink_to(outside / "secret.txt")
    (site / "leakdir").symlink_to(outside, target_is_directory=True)
    (site / "alias.html").symlink_to("index.html")  # a link that stays inside is fine
    (site / ".git").mkdir()
    (site / ".git" / "config").write_text("[remote] SECRET", "utf-8")
    os.mkfifo(site / "pipe.html")  # opening it would block the server
    (site / "drafts").mkdir()
    (site / "drafts" / "note.txt").write_text("a file in a folder without index.html", "utf-8")
    server = make_server(site, "127.0.0.1", 0)
    threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    ).start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}", site
    finally:
        server.shutdown()
        server.server_close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def fetch(url: str) -> tuple[int, str, dict[str, str]]:
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(url, timeout=10) as response:
            return (
                response.status,
                response.read().decode("utf-8", "replace"),
                dict(response.headers),
            )
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace"), dict(exc.headers)


@pytest.mark.parametrize(
    "path",
    [
        "/leak.txt",  # a symbolic link to a file outside the site
        "/leakdir/secret.txt",  # through a linked folder
        "/.tidings-site.json",  # the build's manifest: a dotfile
        "/.git/config",
        "/drafts/",  # a folder without index.html: no listing
        "/tidings-demo/rapidinfer/daily/",
        "/../outside/secret.txt",
        "/%2e%2e/outside/secret.txt",
        "/nothing-here.html",
        "/pipe.html",
    ],
)
def test_serve_answers_404_outside_the_published_files(served: tuple[str, Path], path: str) -> None:
    base, _ = served
    status, body, _ = fetch(base + path)
    assert status == 404
    assert "SECRET" not in body and "note.txt" not in body and "Directory listing" not in body


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/%00", 400),  # no file name holds a NUL, and the os calls refuse one
        ("/index.html%00.txt", 400),
        ("/" + "a" * 5000, 404),  # a name too long for the file system
        ("/a" * 3000, 404),  # a path too long: 3,000 segments
        ("/loop", 404),  # a symbolic link loop
        ("/loop/index.html", 404),
    ],
)
def test_serve_answers_hostile_paths_without_a_traceback(
    served: tuple[str, Path], capfd: pytest.CaptureFixture[str], path: str, status: int
) -> None:
    """These used to raise inside the handler: a traceback on the terminal and the connection
    dropped without an answer."""
    base, site = served
    (site / "loop").symlink_to("loop2")
    (site / "loop2").symlink_to("loop")
    got, body, _ = fetch(base + path)
    assert got == status and "SECRET" not in body
    assert "Traceback" not in capfd.readouterr().err
    assert fetch(f"{base}/")[0] == 200  # and the server goes on serving


def test_serve_serves_the_site(served: tuple[str, Path]) -> None:
    base, site = served
    status, body, headers = fetch(f"{base}/")
    assert status == 200 and body == (site / "index.html").read_text("utf-8")
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    status, body, _ = fetch(f"{base}/alias.html")
    assert status == 200 and body == (site / "index.html").read_text("utf-8")
    status, _, headers = fetch(f"{base}/tidings-demo/rapidinfer")
    assert status == 301 and headers["Location"].endswith("/tidings-demo/rapidinfer/")
    status, body, _ = fetch(f"{base}/tidings-demo/rapidinfer/")
    assert status == 200 and re.search(r"rapidinfer", body, re.IGNORECASE)
    status, body, headers = fetch(f"{base}/{PROJECT}/feed.xml")
    assert status == 200 and headers["Content-Type"].startswith("application/atom+xml")
