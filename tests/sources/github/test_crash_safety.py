"""A sync killed with SIGKILL mid-way, then re-run, leaves the store an uninterrupted sync leaves.

The sync runs as a real `tidings sync` process against the loopback GitHub. The fake holds the
K-th request open until the test has killed the process, so the kill lands at a known point:
while paging the issues stream, the comment streams, or the GraphQL detail batches.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from testkit.generate import REPO, generate_week
from testkit.servers.github import FakeGitHub
from tidings.common import records as r
from tidings.common.config import GitHubConfig
from tidings.sources.github.sync import sync_repository
from tidings.sources.snapshot import export_snapshot
from tidings.store import Store

TOKEN = "ghp_CRASHTEST0123456789abcdef"


@pytest.fixture(scope="module")
def week() -> list[r.Record]:
    # Several pages per stream with per_page=100 and several GraphQL batches.
    return generate_week(3, prs=160, issues=60, comments_and_reviews=700, pr_files=400)


@pytest.fixture
def fake(week: list[r.Record]) -> Iterator[FakeGitHub]:
    with FakeGitHub(week, token=TOKEN) as gh:
        yield gh


def _config(tmp_path: Path, gh: FakeGitHub) -> Path:
    path = tmp_path / "tidings.toml"
    path.write_text(
        f'[github]\napi_url = "{gh.api_url}"\ngraphql_url = "{gh.graphql_url}"\n'
        "max_retries = 2\ntimeout = 20\n",
        encoding="utf-8",
    )
    return path


def _sync(db: str, config: Path, tmp_path: Path) -> subprocess.Popen[str]:
    exe = Path(sys.executable).with_name("tidings")
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    env["GITHUB_TOKEN"] = TOKEN
    return subprocess.Popen(
        [str(exe), "--db", db, "--config", str(config), "sync", REPO, "--json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _export(db: str, path: Path) -> list[str]:
    store = Store.open(db)
    try:
        export_snapshot(store, REPO, path)
    finally:
        store.close()
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    # Sync-state rows carry the wall-clock time they were written; everything else must match.
    return [line for line in lines if '"type":"sync_state"' not in line]


def _cursors(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [line.split('"updated_at"')[0] for line in lines if '"type":"sync_state"' in line]


@dataclass(frozen=True)
class Reference:
    """One uninterrupted sync of the week: what every killed-and-rerun sync must end up with."""

    requests: int
    export: list[str]
    cursors: list[str]


@pytest.fixture(scope="module")
def reference(week: list[r.Record], tmp_path_factory: pytest.TempPathFactory) -> Reference:
    # The same records make the same fake, so one clean sync (in this process: the same sync
    # code the command runs) serves every kill point.
    tmp_path = tmp_path_factory.mktemp("clean")
    clean_db = f"sqlite:///{tmp_path / 'clean.db'}"
    with FakeGitHub(week, token=TOKEN) as gh:
        store = Store.open(clean_db)
        try:
            github = GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url)
            sync_repository(store, REPO, github=github, token=TOKEN)
        finally:
            store.close()
        total = len(gh.requests)
    assert total >= 10, f"the sync made only {total} requests"
    export = _export(clean_db, tmp_path / "clean.jsonl")
    return Reference(total, export, _cursors(tmp_path / "clean.jsonl"))


# Each kill point costs a killed sync and a re-run in fresh processes (the fast loop crashes a
# sync in-process instead: test_github_sync.py's test_killed_sync_resumes_to_the_same_store).
@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.1, 0.3, 0.5, 0.7, 0.9])
def test_sigkill_mid_sync_then_rerun_equals_uninterrupted(
    fake: FakeGitHub, reference: Reference, tmp_path: Path, fraction: float
) -> None:
    config = _config(tmp_path, fake)
    kill_at = max(2, round(reference.requests * fraction))

    # The victim: held at its kill_at-th request, killed there, then re-run.
    reached = threading.Event()
    release = threading.Event()
    seen = 0
    lock = threading.Lock()

    def hold(_gh: FakeGitHub, _request: object) -> None:
        nonlocal seen
        with lock:
            seen += 1
            mine = seen
        if mine == kill_at:
            reached.set()
            release.wait(30)

    fake.on_request(hold)
    victim_db = f"sqlite:///{tmp_path / 'victim.db'}"
    victim = _sync(victim_db, config, tmp_path)
    try:
        assert reached.wait(60), "the sync never reached the kill point"
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait(30)
    finally:
        release.set()
    assert victim.returncode == -signal.SIGKILL

    rerun = _sync(victim_db, config, tmp_path)
    _out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert "Traceback" not in err
    assert _export(victim_db, tmp_path / "victim.jsonl") == reference.export
    assert _cursors(tmp_path / "victim.jsonl") == reference.cursors


@pytest.mark.slow  # six `tidings` processes; test_cli.py checks the token in its errors quickly
def test_token_never_written_anywhere(fake: FakeGitHub, tmp_path: Path) -> None:
    """Sync, export, stats and report with a distinctive token, then grep every output."""
    config = _config(tmp_path, fake)
    db_path = tmp_path / "grep.db"
    db = f"sqlite:///{db_path}"
    proc = _sync(db, config, tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    exe = Path(sys.executable).with_name("tidings")
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    env["GITHUB_TOKEN"] = TOKEN
    outputs = [out, err]
    for args in (
        ["export", REPO, str(tmp_path / "snap.jsonl")],
        ["stats", REPO, "--week", "2026-W08", "--json"],
        ["report", "daily", REPO, "--date", "2026-02-18", "--format", "json"],
        ["report", "daily", REPO, "--date", "2026-02-18", "--out", str(tmp_path / "r.md")],
        # A failure path too: a bad repository name echoes arguments back.
        ["sync", f"{REPO}-missing"],
    ):
        done = subprocess.run(
            [str(exe), "--db", db, "--config", str(config), *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        outputs += [done.stdout, done.stderr]
    for text in outputs:
        assert TOKEN not in text
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "grep.db" for p in files)
    for path in files:
        assert TOKEN.encode() not in path.read_bytes(), path
