"""Many machines (#14, docs/scale.md): `tidings run --queue` and three `tidings worker`
processes on one PostgreSQL store, one of them killed mid-job."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from testkit.fleet import fleet
from testkit.servers.github import FakeGitHub, Request
from tests.sources.github.test_github_sync import stored
from tidings import api
from tidings.cli import main
from tidings.common.config import Config, parse_config
from tidings.errors import ConfigError, InvocationError
from tidings.jobs import queue
from tidings.store import Store

TIDINGS = Path(sys.executable).with_name("tidings")
TOKEN = "ghp_queuetoken000000000000000000000000"
VICTIM = "fleet/quiet-007"  # the repository whose worker is killed mid-sync


class Hold:
    """Holds the first request for VICTIM until released: its job caught mid-way."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.release = threading.Event()
        self._first = True
        self._lock = threading.Lock()

    def __call__(self, _fake: FakeGitHub, request: Request) -> None:
        if f"/repos/{VICTIM}" not in request.path:
            return
        with self._lock:
            first, self._first = self._first, False
        if first:
            self.held.set()
            self.release.wait(60)


def _config(tmp: Path, api_url: str, names: list[str]) -> Path:
    repos = "".join(f'[[repos]]\nname = "{n}"\n\n' for n in names)
    path = tmp / "tidings.toml"
    path.write_text(
        repos + f'[github]\napi_url = "{api_url}"\nmax_retries = 1\ntimeout = 10\n\n'
        "[site]\npdf = false\n",
        encoding="utf-8",
    )
    return path


def _jobs(url: str) -> list[tuple[str, str, dict[str, object]]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT task_name, status, args FROM procrastinate_jobs"))
            return [(r[0], r[1], r[2]) for r in rows]
    finally:
        engine.dispose()


@pytest.mark.slow
@pytest.mark.postgres
def test_three_workers_one_killed_write_every_report_once_and_the_store_of_one_machine(
    pg_url: str, tmp_path: Path
) -> None:
    repos = fleet(28, 2, now=datetime.now(UTC), seed=11)
    assert len(repos) == 30
    hold = Hold()
    queue_dir, alone_dir = tmp_path / "queue", tmp_path / "alone"
    queue_dir.mkdir()
    alone_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"} | {"GITHUB_TOKEN": TOKEN}
    with FakeGitHub([r for rs in repos.values() for r in rs], token=TOKEN) as gh:
        config_path = _config(queue_dir, gh.api_url, list(repos))
        config = Config.model_validate(
            {
                "repos": [{"name": n} for n in repos],
                "github": {"api_url": gh.api_url, "max_retries": 1},
                "site": {
                    "pdf": False,
                    "reports_dir": str(queue_dir / "reports"),
                    "out_dir": str(queue_dir / "site"),
                },
            }
        )
        gh.on_request(hold)
        queued = api.enqueue_run(pg_url, config, days=2, pdf=False)
        assert len(queued.queued) == 30 and queued.site
        # Enqueued again for the same window: nothing new goes on the queue.
        assert api.enqueue_run(pg_url, config, days=2, pdf=False).already == list(queued.queued)
        logs = [queue_dir / f"worker{k}.log" for k in range(3)]
        workers = [
            subprocess.Popen(
                [str(TIDINGS), "--db", pg_url, "--config", str(config_path), "worker",
                 "--concurrency", "2", "--heartbeat", "0.5", "--stalled-after", "3"],
                cwd=queue_dir,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log.open("wb"),
            )
            for log in logs
        ]  # fmt: skip
        try:
            assert hold.held.wait(90), "no worker took the victim's job"
            victim = _worker_of(logs, VICTIM)
            workers[victim].send_signal(signal.SIGKILL)
            workers[victim].wait(10)
            hold.release.set()
            _wait_until_done(pg_url, queue_dir / "site" / "index.html", deadline=240)
        finally:
            hold.release.set()
            for proc in workers:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            for proc in workers:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
        text = [log.read_text("utf-8", "replace") for log in logs]
        for k, lines in enumerate(text):
            assert "Traceback" not in lines, (k, lines[-2000:])
            assert TOKEN not in lines
        # The killed worker's job went back on the queue and another worker finished it.
        assert any("its worker stopped answering" in t for t in text)
        finishers = [k for k, t in enumerate(text) if f"{VICTIM}: ok (" in t]
        assert len(finishers) == 1 and finishers[0] != victim
        jobs = _jobs(pg_url)
        sync_jobs = [j for j in jobs if j[0] == "tidings.sync"]
        assert len(sync_jobs) == 30 and {j[1] for j in sync_jobs} == {"succeeded"}
        assert {j[2]["repo"] for j in sync_jobs} == set(repos)
        # Every report written once, by one worker, across all three logs.
        written = Counter(
            m.group(2)
            for t in text
            for m in re.finditer(r"INFO tidings\.jobs\.queue: (\S+): wrote (\S+)", t)
        )
        assert set(written.values()) == {1}
        on_disk = sorted(
            str(p.relative_to(queue_dir / "reports"))
            for p in (queue_dir / "reports").rglob("*.json")
        )
        assert sorted(written) == on_disk and len(on_disk) == 30 * 3  # 2 days and a week
        assert sum("site: built" in t for t in text) == 1  # once, after the day's jobs

        # The same run on one machine, into a store of its own: the same store.
        gh.clear_faults()
        alone = Store.open(f"sqlite:///{alone_dir / 'alone.db'}")
        together = Store.open(pg_url)
        try:
            one = config.model_copy(deep=True)
            one.site.reports_dir = str(alone_dir / "reports")
            result = api.run(alone, one, days=2, site=False, pdf=False, token=TOKEN)
            assert result.ok
            for name in repos:
                assert stored(together, name) == stored(alone, name), name
        finally:
            alone.close()
            together.close()


def _worker_of(logs: list[Path], repo: str, wait: float = 30) -> int:
    """Which worker's log says it started `repo`'s job."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for k, log in enumerate(logs):
            if f"tidings.jobs.queue: {repo}: started" in log.read_text("utf-8", "replace"):
                return k
        time.sleep(0.1)
    raise AssertionError(f"no worker log says it started {repo}")


def _wait_until_done(url: str, site_index: Path, deadline: float) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        jobs = _jobs(url)
        if site_index.is_file() and not [j for j in jobs if j[1] in ("todo", "doing")]:
            return
        time.sleep(0.5)
    raise AssertionError(f"the queue did not empty: {Counter((j[0], j[1]) for j in _jobs(url))}")


def test_the_queue_refuses_a_sqlite_store_with_one_line(tmp_path: Path) -> None:
    config = Config.model_validate({"repos": [{"name": "a/b"}]})
    with pytest.raises(InvocationError) as info:
        api.enqueue_run(f"sqlite:///{tmp_path / 'x.db'}", config)
    assert info.value.one_line().startswith("the queue needs a PostgreSQL store")
    assert info.value.exit_code == 2


# -- retries (docs/scale.md: "A failed job is retried") --------------------------------------


@pytest.fixture
def quick_site(monkeypatch: pytest.MonkeyPatch) -> None:
    # The site job's wait for the last sync jobs: seconds in production, a blink here.
    monkeypatch.setattr(queue, "SITE_POLL", 0.05)


def _retry_config(tmp: Path, api_url: str, names: list[str], retries: int) -> Config:
    # One try per request (max_retries = 0): a 502 fails the sync at once, and the queue's
    # retries, with waits of a fraction of a second, are what is tested.
    return Config.model_validate(
        {
            "repos": [{"name": n} for n in names],
            "github": {"api_url": api_url, "max_retries": 0, "timeout": 10},
            "queue": {"retries": retries, "retry_wait": 0.05, "retry_max_wait": 0.2},
            "site": {
                "pdf": False,
                "reports_dir": str(tmp / "reports"),
                "out_dir": str(tmp / "site"),
            },
        }
    )


def _work_until_idle(url: str, config: Config, deadline: float = 60) -> None:
    """In-process workers (`--once`) one after another until no job waits or runs: a
    `--once` worker stops when no job is due, and a retry is due a moment later."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        api.work(url, config, once=True, concurrency=2, token=TOKEN)
        if not [j for j in _jobs(url) if j[1] in ("todo", "doing")]:
            return
        time.sleep(0.05)
    raise AssertionError(f"the queue did not empty: {Counter((j[0], j[1]) for j in _jobs(url))}")


def _sync_jobs(url: str) -> dict[str, tuple[str, int]]:
    """Each repository's sync job: (status, attempts so far)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text(
                    "SELECT args->>'repo', status, attempts FROM procrastinate_jobs "
                    "WHERE task_name = 'tidings.sync'"
                )
            )
            return {r[0]: (r[1], r[2]) for r in rows}
    finally:
        engine.dispose()


def _queue_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tidings.jobs.queue"]


@pytest.mark.postgres
def test_a_job_failing_twice_on_502s_is_retried_and_done_with_nothing_lost(
    pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, quick_site: None
) -> None:
    caplog.set_level(logging.INFO, logger="tidings.jobs.queue")
    repos = fleet(1, 0, now=datetime.now(UTC), seed=5)
    (name,) = repos
    with FakeGitHub(repos[name], token=TOKEN) as gh:
        config = _retry_config(tmp_path, gh.api_url, [name], retries=3)
        # Mid-sync, after the issues listing was stored: the retry resumes a half-done sync.
        fault = gh.inject("502", skip=3, times=2)
        api.enqueue_run(pg_url, config, days=2, pdf=False)
        _work_until_idle(pg_url, config)
        assert fault.hits == 2
        assert _sync_jobs(pg_url) == {name: ("succeeded", 3)}
        lines = _queue_lines(caplog)
        assert [line.split(": HTTP")[0] for line in lines if " failed: " in line] == [
            f"{name}: try 1 of 4 failed: GitHub kept failing GET /repos/{name}/pulls/comments",
            f"{name}: try 2 of 4 failed: GitHub kept failing GET /repos/{name}",
        ]
        assert all(line.endswith("trying again in 0.05 s") or "0.1 s" in line
                   for line in lines if " failed: " in line)  # fmt: skip
        assert sum(line.startswith(f"{name}: ok (") for line in lines) == 1
        # Each report written once, and only by the try that got through.
        written = Counter(line.split(": wrote ")[1] for line in lines if ": wrote " in line)
        on_disk = sorted(
            str(p.relative_to(tmp_path / "reports")) for p in (tmp_path / "reports").rglob("*.json")
        )
        assert set(written.values()) == {1} and sorted(written) == on_disk
        assert len(on_disk) == 3  # two days and a week
        assert (tmp_path / "site" / "index.html").is_file()

        # Nothing lost: the same store as one clean sync of that repository.
        gh.clear_faults()
        alone = Store.open(f"sqlite:///{tmp_path / 'alone.db'}")
        together = Store.open(pg_url)
        try:
            one = config.model_copy(deep=True)
            one.site.reports_dir = str(tmp_path / "alone-reports")
            assert api.run(alone, one, days=2, site=False, pdf=False, token=TOKEN).ok
            assert stored(together, name) == stored(alone, name)
        finally:
            alone.close()
            together.close()


@pytest.mark.postgres
def test_a_job_that_would_fail_the_same_way_is_tried_once(
    pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, quick_site: None
) -> None:
    caplog.set_level(logging.INFO, logger="tidings.jobs.queue")
    repos = fleet(1, 0, now=datetime.now(UTC), seed=6)
    (name,) = repos
    missing = "fleet/no-such-repo"
    with FakeGitHub(repos[name], token=TOKEN) as gh:
        config = _retry_config(tmp_path, gh.api_url, [name, missing], retries=3)
        api.enqueue_run(pg_url, config, days=2, pdf=False)
        _work_until_idle(pg_url, config)
        asked = [r for r in gh.requests if missing in r.path]
    assert _sync_jobs(pg_url) == {name: ("succeeded", 1), missing: ("failed", 1)}
    assert len(asked) == 1  # one try: its first request, refused with a 404
    lines = [line for line in _queue_lines(caplog) if line.startswith(missing)]
    assert lines[-1].startswith(f"{missing}: failed, not retried (it would fail the same way): ")
    assert lines[-1].endswith("; the next run tries it again")
    assert "not found" in lines[-1] or "no such" in lines[-1]
    assert not [line for line in lines if " try " in line]


@pytest.mark.postgres
def test_a_job_out_of_retries_is_reported_by_the_worker_and_the_next_run(
    pg_url: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    quick_site: None,
) -> None:
    caplog.set_level(logging.INFO, logger="tidings.jobs.queue")
    repos = fleet(2, 0, now=datetime.now(UTC), seed=7)
    down, fine = sorted(repos)
    with FakeGitHub([r for rs in repos.values() for r in rs], token=TOKEN) as gh:
        config = _retry_config(tmp_path, gh.api_url, sorted(repos), retries=2)
        gh.inject("502", path_contains=f"/repos/{down}", times=None)
        api.enqueue_run(pg_url, config, days=2, pdf=False)
        _work_until_idle(pg_url, config)
        assert _sync_jobs(pg_url) == {down: ("failed", 3), fine: ("succeeded", 1)}
        lines = [line for line in _queue_lines(caplog) if line.startswith(down)]
        failures = [line for line in lines if "failed" in line]
        assert [line.split(":")[1] for line in failures] == [
            " try 1 of 3 failed",
            " try 2 of 3 failed",
            " failed after 3 tries, the last",
        ]
        assert failures[-1] == (
            f"{down}: failed after 3 tries, the last: GitHub kept failing GET /repos/{down}: "
            "HTTP 502 (1 tries) — GitHub may be having trouble (see githubstatus.com); run the "
            "sync again later; the next run tries it again"
        )

        # The next `tidings run --queue` names it, and queues it again.
        monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
        config_path = _config(tmp_path, gh.api_url, sorted(repos))
        capsys.readouterr()
        with pytest.raises(SystemExit) as done:
            main(["--db", pg_url, "--config", str(config_path), "run", "--queue", "--days", "2"])
        assert done.value.code == 0
        err = capsys.readouterr().err
        assert (
            f"warning: the last job failed for {down} — the workers' logs say why; queued again now"
        ) in err
        assert fine not in err.split("warning:")[1]
        # Its latest job is the one waiting now, so a third run says nothing more of it.
        again = api.enqueue_run(pg_url, config, days=2, pdf=False)
        assert again.failed_before == [] and again.already == sorted(repos)


@pytest.mark.postgres
def test_the_site_is_built_while_a_retry_waits_and_again_after_it(
    pg_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, quick_site: None
) -> None:
    caplog.set_level(logging.INFO, logger="tidings.jobs.queue")
    repos = fleet(2, 0, now=datetime.now(UTC), seed=8)
    down, fine = sorted(repos)
    with FakeGitHub([r for rs in repos.values() for r in rs], token=TOKEN) as gh:
        config = _retry_config(tmp_path, gh.api_url, sorted(repos), retries=1)
        config.queue.retry_wait = config.queue.retry_max_wait = 3600  # waits past this test
        gh.inject("502", path_contains=f"/repos/{down}", times=None)
        api.enqueue_run(pg_url, config, days=2, pdf=False)
        api.work(pg_url, config, once=True, concurrency=1, token=TOKEN)
    assert _sync_jobs(pg_url) == {down: ("todo", 1), fine: ("succeeded", 1)}
    lines = _queue_lines(caplog)
    # The reports there are, published now rather than in an hour.
    assert f"site: built {tmp_path / 'site'}/" in "\n".join(lines)
    assert (tmp_path / "site" / "index.html").is_file()
    waits = [line for line in lines if "wait for a retry" in line or "waits for a retry" in line]
    assert len(waits) == 1 and waits[0].startswith(
        f"site: 1 repository waits for a retry ({down} at "
    )
    # One site job waits for the retry's moment, to build again after it.
    engine = sa.create_engine(pg_url)
    try:
        with engine.connect() as conn:
            retry_at, site_at = (
                conn.execute(
                    sa.text(
                        "SELECT scheduled_at FROM procrastinate_jobs "
                        "WHERE status = 'todo' AND task_name = :task"
                    ),
                    {"task": task},
                ).scalar_one()
                for task in ("tidings.sync", "tidings.site")
            )
    finally:
        engine.dispose()
    assert site_at == retry_at and retry_at > datetime.now(UTC) + timedelta(minutes=50)


@pytest.mark.postgres
def test_a_job_whose_worker_dies_on_its_last_try_fails_rather_than_going_round_for_ever(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tidings.jobs.queue")
    config = Config.model_validate({"repos": [{"name": "a/last"}, {"name": "a/first"}]})
    api.enqueue_run(pg_url, config, days=1, site=False)
    engine = sa.create_engine(pg_url)
    try:
        with engine.begin() as conn:  # both taken by a worker that then died (no worker row)
            conn.execute(
                sa.text(
                    "UPDATE procrastinate_jobs SET status = 'doing', "
                    "attempts = CASE args->>'repo' WHEN 'a/last' THEN 1 ELSE 0 END"
                )
            )
    finally:
        engine.dispose()
    store = Store.open(pg_url)
    try:
        app = queue.make_app(store, config.queue)

        async def reap_once() -> None:
            async with app.open_async():
                reaper = asyncio.create_task(queue._reap(app, 1.0, retries=1))
                await asyncio.sleep(0.8)
                reaper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reaper

        asyncio.run(reap_once())
    finally:
        store.close()
    assert _sync_jobs(pg_url) == {"a/last": ("failed", 2), "a/first": ("todo", 1)}
    assert sorted(_queue_lines(caplog)) == [
        "a/first: its worker stopped answering; the job goes back on the queue",
        "a/last: failed after 2 tries, the last: its worker stopped answering; "
        "the next run tries it again",
    ]


@pytest.mark.parametrize(
    ("written", "seconds"),
    [("30s", 30), ("5m", 300), ("1.5h", 5400), ("1d", 86400), (90, 90), (0.25, 0.25)],
)
def test_a_retry_wait_is_seconds_or_a_duration(written: object, seconds: float) -> None:
    config = Config.model_validate({"queue": {"retry_wait": written, "retry_max_wait": "1d"}})
    assert config.queue.retry_wait == seconds


def test_retry_waits_double_up_to_the_cap() -> None:
    config = parse_config('[queue]\nretries = 6\nretry_wait = "5m"\nretry_max_wait = "1h"\n')
    waits = [config.queue.wait_before(k) / 60 for k in range(6)]
    assert waits == [5, 10, 20, 40, 60, 60]
    assert parse_config("").queue.retries == 3  # on by default


@pytest.mark.parametrize("written", ["5 minutes", "5", "-1s", "1w", True, "", "m"])
def test_a_bad_retry_wait_is_one_line_naming_the_key(written: object) -> None:
    value = "true" if written is True else f'"{written}"'
    with pytest.raises(ConfigError) as info:
        parse_config(f"[queue]\nretry_wait = {value}\n")
    assert info.value.one_line().startswith("tidings.toml: queue.retry_wait: must be a duration")
    assert info.value.exit_code == 2


@pytest.mark.slow
@pytest.mark.postgres
def test_a_once_worker_takes_back_a_killed_workers_job(pg_url: str, tmp_path: Path) -> None:
    """`tidings worker --once` said "No job found" while a killed worker's job waited for a
    reaper only a long-running worker lives to run (#25): it reaps first."""
    repos = {VICTIM: fleet(8, 0, now=datetime.now(UTC), seed=3)[VICTIM]}
    hold = Hold()
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"} | {"GITHUB_TOKEN": TOKEN}
    with FakeGitHub([r for rs in repos.values() for r in rs], token=TOKEN) as gh:
        config_path = _config(tmp_path, gh.api_url, list(repos))
        config = Config.model_validate(
            {
                "repos": [{"name": VICTIM}],
                "github": {"api_url": gh.api_url, "max_retries": 1},
                "site": {"pdf": False, "reports_dir": str(tmp_path / "reports"),
                         "out_dir": str(tmp_path / "site")},
            }
        )  # fmt: skip
        gh.on_request(hold)
        api.enqueue_run(pg_url, config, days=1, site=False, pdf=False)
        log = tmp_path / "killed.log"
        args = ["--db", pg_url, "--config", str(config_path), "worker", "--heartbeat", "0.5",
                "--stalled-after", "2"]  # fmt: skip
        killed = subprocess.Popen(
            [str(TIDINGS), *args], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
        )  # fmt: skip
        try:
            assert hold.held.wait(90), log.read_text("utf-8", "replace")[-3000:]
            killed.send_signal(signal.SIGKILL)
            killed.wait(10)
        finally:
            hold.release.set()
        time.sleep(3)  # past --stalled-after: the job's worker is silent
        once = subprocess.run(
            [str(TIDINGS), *args, "--once"], cwd=tmp_path, env=env, capture_output=True,
            text=True, timeout=180,
        )  # fmt: skip
        assert once.returncode == 0, once.stderr
        assert "its worker stopped answering; the job goes back on the queue" in once.stderr
        assert [(name, status) for name, status, _ in _jobs(pg_url)] == [
            (queue.SYNC_TASK, "succeeded")
        ]
