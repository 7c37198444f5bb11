"""The long commands on a real terminal: they finish, draw progress bars and never print a
secret; Ctrl-C stops them within seconds with one line and exit 130, leaving the store and the
output folders as a re-run expects.

Every command runs under a pseudo-terminal (pexpect), as a user runs it in a shell: piped,
Rich draws no live display at all, which is how a recursion in the redacting stream once hung
`demo`, `sync`, `site build` and `run` on every terminal while every test passed. Ctrl-C is the
terminal's interrupt character, so the whole foreground process group gets SIGINT, PDF workers
included, exactly as in a shell.

The child process blocks once the terminal's buffer is full, so `Terminal` keeps reading while
it waits for anything.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pexpect
import pytest

from testkit.generate import REPO, generate_week
from testkit.servers.github import FakeGitHub
from testkit.servers.openai import FakeOpenAI
from tests.sources.github.test_crash_safety import _cursors, _export
from tidings.common import records as r

EXE = Path(sys.executable).with_name("tidings")
TOKEN = "ghp_TERMINALtest0123456789abcdef"
LLM_KEY = "sk-terminal-test-0123456789"
HIDE_CURSOR = "\x1b[?25l"  # a Rich live display starts by hiding the cursor ...
SHOW_CURSOR = "\x1b[?25h"  # ... and shows it again when it stops
BAR = "━"  # Rich's bar segment
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]")
INTERRUPT_LINE = "error: interrupted"
STOP_WITHIN = 10.0  # "within seconds", with room for a loaded CI machine


# -- the terminal ------------------------------------------------------------------------------


def _env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        # Anything that would make Rich think this is not a colour terminal, or size it.
        if k not in {"TIDINGS_DB", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "LINES", "TERM"}
        and not k.startswith("TTY_")
    }
    env["TERM"] = "xterm-256color"
    env["GITHUB_TOKEN"] = TOKEN
    env.update(extra)
    return env


def plain_lines(output: str) -> list[str]:
    """What a person sees line by line: escape sequences gone, each line's last redraw kept."""
    text = ANSI.sub("", output).replace("\r\n", "\n")
    return [line.split("\r")[-1].rstrip() for line in text.split("\n")]


class Terminal:
    """One command on its own pseudo-terminal, 120 columns wide."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.args = args
        self.child = pexpect.spawn(
            str(EXE),
            args,
            cwd=str(cwd),
            env=env or _env(),
            encoding="utf-8",
            codec_errors="replace",
            dimensions=(40, 120),
        )
        self.output = ""
        self.ended = False

    def _read(self) -> None:
        try:
            self.output += self.child.read_nonblocking(65536, timeout=0.05)
        except pexpect.TIMEOUT:
            pass
        except pexpect.EOF:
            self.ended = True

    def wait_for(self, condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if self.ended:
                pytest.fail(f"`tidings {' '.join(self.args)}` ended before {what}:\n{self.tail}")
            if time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"no {what} within {timeout:g}s:\n{self.tail}")
            self._read()

    def seen(self, text: str) -> Callable[[], bool]:
        return lambda: text in self.output

    def interrupt(self) -> float:
        """Type Ctrl-C; the moment it was typed."""
        self.child.sendintr()
        return time.monotonic()

    def finish(self, timeout: float) -> int:
        """Read to the end; the exit status. Fails (and kills the command) if it hangs."""
        deadline = time.monotonic() + timeout
        while not self.ended:
            if time.monotonic() > deadline:
                self.kill()
                pytest.fail(f"`tidings {' '.join(self.args)}` hung ({timeout:g}s):\n{self.tail}")
            self._read()
        self.child.close()
        assert self.child.signalstatus is None, f"killed by signal {self.child.signalstatus}"
        return int(self.child.exitstatus)

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)

    @property
    def tail(self) -> str:
        return "\n".join(plain_lines(self.output)[-15:])

    @property
    def lines(self) -> list[str]:
        return [line for line in plain_lines(self.output) if line.strip()]


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    started: list[Terminal] = []
    yield started
    for term in started:  # a failed test leaves nothing running
        term.kill()


def assert_drew_progress(term: Terminal, *labels: str) -> None:
    assert HIDE_CURSOR in term.output and SHOW_CURSOR in term.output, term.tail
    assert BAR in term.output
    text = "\n".join(plain_lines(term.output))
    for label in labels:
        assert label in text, f"no {label!r} bar on the terminal:\n{term.tail}"


def assert_no_secret(term: Terminal) -> None:
    for secret in (TOKEN, LLM_KEY):
        assert secret not in term.output
    assert "Traceback" not in term.output


def assert_interrupted(term: Terminal, typed_at: float) -> None:
    """Exit 130 within seconds, and exactly one line after the progress display."""
    status = term.finish(timeout=STOP_WITHIN + 20)
    took = time.monotonic() - typed_at
    assert status == 130, term.tail
    assert took < STOP_WITHIN, f"Ctrl-C took {took:.1f}s to stop the command"
    after_display = term.output.rsplit(SHOW_CURSOR, 1)[-1]
    # "^C" is the terminal echoing the keystroke (as in any shell), not the command's output.
    lines = [line for line in plain_lines(after_display) if line.replace("^C", "").strip()]
    assert lines == [INTERRUPT_LINE], term.tail
    for noise in ("Traceback", "KeyboardInterrupt", "Aborted"):
        assert noise not in term.output
    assert_no_secret(term)


# -- processes and files -----------------------------------------------------------------------


def _process(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a live process, from /proc."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return int(fields[1]), fields[0], fields[19]


def children(pid: int) -> dict[int, str]:
    """The child processes of `pid` with their start times (to tell a reused pid apart)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (info := _process(int(entry.name))) and info[0] == pid:
            found[int(entry.name)] = info[2]
    return found


def wait_for_pdf_workers(term: Terminal) -> dict[int, str]:
    """Wait until the PDF phase is under way: its worker processes (one per core) are running,
    or, on a single core where pages print in-process, the first PDF is done."""
    expected = min(2, os.cpu_count() or 1)
    if expected == 1:
        term.wait_for(term.seen("PDF"), "the PDF bar")
        return {}
    workers: dict[int, str] = {}

    def started() -> bool:
        workers.update(children(term.child.pid))
        return len(workers) >= expected

    term.wait_for(started, "PDF worker processes")
    return workers


def assert_all_gone(processes: dict[int, str], within: float = 5.0) -> None:
    deadline = time.monotonic() + within
    while True:
        alive = {
            pid
            for pid, start in processes.items()
            if (info := _process(pid)) and info[2] == start and info[1] != "Z"
        }
        if not alive:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"child processes outlived the command: {sorted(alive)}")
        time.sleep(0.1)


def assert_files_whole(folder: Path) -> None:
    """No temp file left, and every file a reader may open is complete."""
    leftovers = [p for p in folder.rglob("*") if p.name.endswith(".tmp")]
    assert not leftovers, leftovers
    for path in folder.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".json":
            json.loads(data)
        elif path.suffix == ".html":
            assert data.rstrip().endswith(b"</html>"), path
        elif path.suffix == ".pdf":
            assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF"), path
        elif path.name.endswith(".pdf.key"):
            # The key is written after its PDF: when there is one, it vouches for a whole PDF.
            record = json.loads(data)
            pdf = path.with_name(path.name.removesuffix(".key"))
            assert hashlib.sha256(pdf.read_bytes()).hexdigest() == record["pdf_sha256"], pdf


# -- data ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def week() -> list[r.Record]:
    # The week before today: `tidings run`'s last closed days have activity for a model.
    start = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return generate_week(
        7,
        prs=120,
        issues=40,
        comments_and_reviews=500,
        pr_files=300,
        start=start - timedelta(days=8),
    )


@pytest.fixture
def github(week: list[r.Record]) -> Iterator[FakeGitHub]:
    with FakeGitHub(week, token=TOKEN) as gh:
        yield gh


def _config(folder: Path, gh: FakeGitHub, llm: FakeOpenAI | None = None) -> Path:
    text = (
        f'[[repos]]\nname = "{REPO}"\n\n'
        f'[github]\napi_url = "{gh.api_url}"\ngraphql_url = "{gh.graphql_url}"\n'
        "max_retries = 3\ntimeout = 20\n"
    )
    if llm is not None:
        text += (
            f'\n[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake-model"\n'
            'api_key_env = "TIDINGS_TEST_LLM_KEY"\ntimeout = 60\n'
        )
    path = folder / "tidings.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _sync_piped(db: str, config: Path, cwd: Path) -> None:
    """An ordinary sync with its output piped: the reference the terminal runs must match."""
    done = subprocess.run(
        [str(EXE), "--db", db, "--config", str(config), "sync", REPO, "--json"],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def demo_reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo's 28 daily and weekly report files, without PDFs or a site."""
    out = tmp_path_factory.mktemp("demo-reports")
    done = subprocess.run(
        [str(EXE), "demo", "--out", str(out), "--no-pdf", "--no-site"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    (out / "demo.db").unlink()
    return out


# -- the long commands finish on a terminal ----------------------------------------------------


@pytest.mark.slow
def test_demo_on_a_terminal(tmp_path: Path, terminals: list[Terminal]) -> None:
    out = tmp_path / "demo"
    term = Terminal(["demo", "--out", str(out), "--no-pdf"], tmp_path)
    terminals.append(term)
    assert term.finish(timeout=120) == 0, term.tail
    assert_drew_progress(term, "daily reports", "weekly reports", "pages")
    assert_no_secret(term)
    assert any(line.startswith("built the site in") for line in term.lines)
    assert (out / "site" / "index.html").is_file()


@pytest.mark.slow
def test_demo_with_pdfs_on_a_terminal_after_ctrl_c_in_the_pdf_phase(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Interrupted while printing PDFs, then run again: the re-run completes every PDF."""
    out = tmp_path / "demo"
    args = ["demo", "--out", str(out), "--no-site"]
    first = Terminal(args, tmp_path)
    terminals.append(first)
    first.wait_for(first.seen("PDF"), "the PDF bar")
    assert_interrupted(first, first.interrupt())
    assert_files_whole(out)
    assert len(list(out.rglob("*.pdf"))) < 28  # the interrupt landed mid-way

    again = Terminal(args, tmp_path)
    terminals.append(again)
    assert again.finish(timeout=300) == 0, again.tail
    assert_drew_progress(again, "daily reports", "PDF")
    assert_no_secret(again)
    assert_files_whole(out)
    reports = sorted(out.rglob("*.json"))
    assert len(reports) == 28
    for report in reports:
        key = report.with_name(report.name.removesuffix(".json") + ".pdf.key")
        assert key.is_file(), f"{report.name} has no current PDF after the re-run"


@pytest.mark.slow
def test_sync_on_a_terminal_with_a_retry_warning_under_the_bars(
    tmp_path: Path, github: FakeGitHub, terminals: list[Terminal]
) -> None:
    # A 502 makes the client log a retry warning while the bars are live: the line goes through
    # Rich's stderr proxy into the redacting console, the path that once recursed forever.
    github.inject("502", api="rest", path_contains="issues", times=1)
    config = _config(tmp_path, github)
    db = f"sqlite:///{tmp_path / 'sync.db'}"
    term = Terminal(["--db", db, "--config", str(config), "sync", REPO], tmp_path)
    terminals.append(term)
    assert term.finish(timeout=120) == 0, term.tail
    assert_drew_progress(term, "pull request details")
    assert_no_secret(term)
    assert any("HTTP 502" in line and "retry 1" in line for line in term.lines), term.tail
    assert f"synced {REPO}" in "\n".join(term.lines)
    assert github.count(status=502) == 1


@pytest.mark.slow
def test_site_build_on_a_terminal(
    tmp_path: Path, demo_reports: Path, terminals: list[Terminal]
) -> None:
    site = tmp_path / "site"
    args = ["site", "build", "--from", str(demo_reports), "--out", str(site), "--no-pdf"]
    term = Terminal(args, tmp_path)
    terminals.append(term)
    assert term.finish(timeout=120) == 0, term.tail
    assert_drew_progress(term, "pages")
    assert_no_secret(term)
    assert f"site {site}" in "\n".join(term.lines)
    assert_files_whole(site)


@pytest.mark.slow
def test_run_with_a_model_on_a_terminal(
    tmp_path: Path, github: FakeGitHub, terminals: list[Terminal]
) -> None:
    with FakeOpenAI() as llm:
        config = _config(tmp_path, github, llm)
        db = f"sqlite:///{tmp_path / 'run.db'}"
        args = ["--db", db, "--config", str(config), "run", "--days", "2", "--no-pdf"]
        term = Terminal(args, tmp_path, _env(TIDINGS_TEST_LLM_KEY=LLM_KEY))
        terminals.append(term)
        assert term.finish(timeout=180) == 0, term.tail
        assert llm.calls > 0  # the model's thread pool ran
    assert_drew_progress(term, "pull request details", f"{REPO} daily", "pages")
    assert_no_secret(term)
    assert "tidings run" in "\n".join(term.lines)
    assert (tmp_path / "site" / "index.html").is_file()


def test_output_printed_under_live_bars_is_redacted(tmp_path: Path) -> None:
    """Anything printed while the bars are live (print, logging, warnings, the consoles) goes
    through Rich's proxies and still reaches the terminal redacted, without hanging."""
    script = (
        "import logging, sys, warnings\n"
        "from tidings.cli import console\n"
        "from tidings.errors import register_secret\n"
        f"register_secret({TOKEN!r})\n"
        "with console.progress_display() as progress:\n"
        "    progress('stage', 1, 2)\n"
        f"    print('stdout', {TOKEN!r})\n"
        f"    print('stderr', {TOKEN!r}, file=sys.stderr)\n"
        f"    logging.getLogger('tidings').warning('log %s', {TOKEN!r})\n"
        f"    warnings.warn('warn ' + {TOKEN!r}, stacklevel=1)\n"
        f"    console.err.print('console', {TOKEN!r}, markup=False)\n"
        "print('done')\n"
    )
    child = pexpect.spawn(
        sys.executable,
        ["-c", script],
        cwd=str(tmp_path),
        env=_env(),
        encoding="utf-8",
        dimensions=(40, 120),
        timeout=30,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    text = "\n".join(plain_lines(child.before))
    for what in ("stdout ***", "stderr ***", "log ***", "warn ***", "console ***", "done"):
        assert what in text, text
    assert TOKEN not in child.before
    assert HIDE_CURSOR in child.before  # the bars really were live


# -- Ctrl-C --------------------------------------------------------------------------------------


@pytest.mark.slow  # the fast loop kills a sync mid-way in test_crash_safety.py
@pytest.mark.parametrize("fraction", [0.2, 0.5, 0.8])
def test_ctrl_c_mid_sync_then_rerun_equals_uninterrupted(
    tmp_path: Path, github: FakeGitHub, terminals: list[Terminal], fraction: float
) -> None:
    config = _config(tmp_path, github)
    clean_db = f"sqlite:///{tmp_path / 'clean.db'}"
    _sync_piped(clean_db, config, tmp_path)
    total = len(github.requests)
    assert total >= 10, f"the sync made only {total} requests"
    stop_at = max(2, round(total * fraction))
    reference = _export(clean_db, tmp_path / "clean.jsonl")

    # The fake holds the stop_at-th request open until the test has typed Ctrl-C.
    github.reset_log()
    reached, release = threading.Event(), threading.Event()
    seen = 0
    lock = threading.Lock()

    def hold(_gh: FakeGitHub, _request: object) -> None:
        nonlocal seen
        with lock:
            seen += 1
            mine = seen
        if mine == stop_at:
            reached.set()
            release.wait(30)

    github.on_request(hold)
    db = f"sqlite:///{tmp_path / 'victim.db'}"
    term = Terminal(["--db", db, "--config", str(config), "sync", REPO], tmp_path)
    terminals.append(term)
    try:
        term.wait_for(reached.is_set, f"request {stop_at} of {total}")
        typed_at = term.interrupt()
        assert_interrupted(term, typed_at)
    finally:
        release.set()
    assert len(github.requests) <= stop_at  # it stopped there, it did not carry on

    _sync_piped(db, config, tmp_path)
    assert _export(db, tmp_path / "victim.jsonl") == reference
    assert _cursors(tmp_path / "victim.jsonl") == _cursors(tmp_path / "clean.jsonl")


@pytest.mark.slow
def test_ctrl_c_during_demo_pdfs_ends_the_workers_and_leaves_whole_files(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    out = tmp_path / "demo"
    term = Terminal(["demo", "--out", str(out), "--no-site"], tmp_path)
    terminals.append(term)
    workers = wait_for_pdf_workers(term)
    assert_interrupted(term, term.interrupt())
    assert_all_gone(workers)
    assert_files_whole(out)
    assert len(list(out.rglob("*.pdf"))) < 28  # the interrupt landed mid-way


@pytest.mark.slow
def test_ctrl_c_during_site_pdfs_keeps_the_published_site_whole(
    tmp_path: Path, demo_reports: Path, terminals: list[Terminal]
) -> None:
    reports = tmp_path / "reports"
    for path in sorted(demo_reports.glob("daily/*.json"))[:8]:  # four days: PDFs for seconds
        (reports / "daily").mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, reports / "daily" / path.name)
    site = tmp_path / "site"
    published = Terminal(
        ["site", "build", "--from", str(reports), "--out", str(site), "--no-pdf"], tmp_path
    )
    terminals.append(published)
    assert published.finish(timeout=120) == 0, published.tail

    term = Terminal(["site", "build", "--from", str(reports), "--out", str(site)], tmp_path)
    terminals.append(term)
    workers = wait_for_pdf_workers(term)
    assert_interrupted(term, term.interrupt())
    assert_all_gone(workers)
    assert_files_whole(site)
    assert (site / "index.html").is_file()

    again = Terminal(
        ["site", "build", "--from", str(reports), "--out", str(site), "--no-pdf"], tmp_path
    )
    terminals.append(again)
    assert again.finish(timeout=120) == 0, again.tail
    assert_files_whole(site)


@pytest.mark.slow
def test_ctrl_c_while_model_calls_are_running_stops_at_once(
    tmp_path: Path, github: FakeGitHub, terminals: list[Terminal]
) -> None:
    """The model answers after 60 s: Ctrl-C must not wait for the calls in flight."""
    with FakeOpenAI(latency=60) as llm:
        config = _config(tmp_path, github, llm)
        db = f"sqlite:///{tmp_path / 'run.db'}"
        args = ["--db", db, "--config", str(config), "run", "--days", "2", "--no-pdf"]
        term = Terminal(args, tmp_path, _env(TIDINGS_TEST_LLM_KEY=LLM_KEY))
        terminals.append(term)
        term.wait_for(lambda: llm.calls >= 2, "two model calls in flight")
        assert_interrupted(term, term.interrupt())
    # The store is usable and the next run completes (the model answering at once now).
    with FakeOpenAI() as llm:
        config = _config(tmp_path, github, llm)
        args = ["--db", db, "--config", str(config), "run", "--days", "2", "--no-pdf"]
        again = Terminal(args, tmp_path, _env(TIDINGS_TEST_LLM_KEY=LLM_KEY))
        terminals.append(again)
        assert again.finish(timeout=180) == 0, again.tail
    assert_files_whole(tmp_path / "reports")
    assert_files_whole(tmp_path / "site")


@pytest.mark.slow
def test_sigint_to_the_command_alone_during_pdfs_ends_the_workers(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """`kill -INT` from a supervisor or `timeout -s INT` reaches only the command, not its
    workers: it ends them itself instead of waiting for the pages they are printing."""
    out = tmp_path / "demo"
    term = Terminal(["demo", "--out", str(out), "--no-site"], tmp_path)
    terminals.append(term)
    workers = wait_for_pdf_workers(term)
    typed_at = time.monotonic()
    os.kill(term.child.pid, signal.SIGINT)
    assert_interrupted(term, typed_at)
    assert_all_gone(workers)
    assert_files_whole(out)


@pytest.mark.slow
def test_ctrl_c_twice_still_one_line_and_exit_130(
    tmp_path: Path, terminals: list[Terminal]
) -> None:
    """People press Ctrl-C twice: the second one, landing while the first one cleans up or
    while Python exits, must not print a traceback or kill the process before its exit code."""
    out = tmp_path / "demo"
    term = Terminal(["demo", "--out", str(out), "--no-site"], tmp_path)
    terminals.append(term)
    workers = wait_for_pdf_workers(term)
    typed_at = term.interrupt()
    time.sleep(0.1)
    term.interrupt()
    assert_interrupted(term, typed_at)
    assert_all_gone(workers)
    assert_files_whole(out)
