"""Several tidings at once on one store, and databases that are not (this tidings') stores.

Every test runs on SQLite and PostgreSQL. Processes are started with `spawn`, as a scheduler or
a second terminal would start them: nothing is shared but the database.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.generate import REPO, generate_week
from testkit.servers.github import FakeGitHub, Request
from tests.sources.github.test_github_sync import TOKEN, served, stored
from tests.store_worker import open_store
from tests.test_snapshot import _body
from tidings.cli import main
from tidings.common import records as r
from tidings.common.config import GitHubConfig
from tidings.errors import StoreError
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import SyncReport, sync_repository
from tidings.sources.snapshot import export_snapshot
from tidings.store import Store, schema
from tidings.store.migrate import current_revision, head_revision

TIDINGS = Path(sys.executable).with_name("tidings")


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _version_rows(url: str) -> list[str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return list(conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars())
    finally:
        engine.dispose()


# -- a fresh store opened by several processes at once ------------------------------------------


@pytest.mark.slow_on_postgres
def test_four_processes_open_a_fresh_store_at_once(db_url: str) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(4)
    results = ctx.Queue()
    workers = [ctx.Process(target=open_store, args=(db_url, barrier, results)) for _ in range(4)]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert outcomes == ["ok"] * 4
    assert _version_rows(db_url) == [head_revision()]  # migrated once, to head
    assert set(schema.metadata.tables) | {"alembic_version"} == _tables(db_url)


@pytest.mark.slow
def test_four_imports_into_a_fresh_store_at_once(db_url: str, tmp_path: Path, rec: Any) -> None:
    """The same through the CLI, as four cron jobs would: each exits 0, with no error line."""
    from tests.factories import seed
    from tests.store.test_store import _every_type

    source = Store.open(f"sqlite:///{tmp_path / 'source.db'}")
    try:
        seed(source, _every_type(rec))
        snap = tmp_path / "snap.jsonl"
        export_snapshot(source, None, snap)
    finally:
        source.close()
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"}
    procs = [
        subprocess.Popen(
            [str(TIDINGS), "--db", db_url, "import", str(snap)],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    done = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    for p in procs:
        for stream in (p.stdout, p.stderr):
            if stream:
                stream.close()
    assert [code for code, _ in done] == [0] * 4, [err for _, err in done]
    assert not any("error" in err for _, err in done)
    assert _version_rows(db_url) == [head_revision()]
    store = Store.open(db_url)
    try:
        again = tmp_path / "again.jsonl"
        export_snapshot(store, None, again)
    finally:
        store.close()
    assert _body(again) == _body(snap)


def test_a_failed_migration_leaves_nothing_behind(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole upgrade is one transaction on both backends: SQLite included, where pysqlite
    used to commit each CREATE TABLE on its own and a crash left half a schema."""
    import alembic.op

    def boom(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("killed half-way through the upgrade")

    # Revision 0002 creates a table, then alters `items` in a batch: fail at the alteration.
    monkeypatch.setattr(alembic.op, "batch_alter_table", boom)
    with pytest.raises(RuntimeError, match="half-way"):
        Store.open(db_url)
    assert _tables(db_url) == set()
    monkeypatch.undo()
    store = Store.open(db_url)  # and the next run starts cleanly
    try:
        assert current_revision(store.engine) == head_revision()
    finally:
        store.close()


# -- two syncs of one repository -----------------------------------------------------------------


@pytest.fixture(scope="module")
def week() -> list[r.Record]:
    return generate_week(3, prs=20, issues=10, comments_and_reviews=60, pr_files=40)


class Gate:
    """Holds the first request the fake GitHub gets until `open()`: a sync caught mid-way."""

    def __init__(self) -> None:
        self.held = threading.Event()
        self.release = threading.Event()
        self._first = True
        self._lock = threading.Lock()

    def __call__(self, _fake: FakeGitHub, _request: Request) -> None:
        with self._lock:
            first, self._first = self._first, False
        if first:
            self.held.set()
            self.release.wait(60)

    def open(self) -> None:
        self.release.set()


@pytest.fixture
def gated(week: list[r.Record]) -> Iterator[tuple[FakeGitHub, Gate]]:
    gate = Gate()
    with FakeGitHub(week, token=TOKEN) as gh:
        gh.on_request(gate)
        try:
            yield gh, gate
        finally:
            gate.open()


def _sync(store: Store, gh: FakeGitHub) -> SyncReport:
    client = GitHubClient(
        gh.api_url,
        gh.graphql_url,
        TOKEN,
        timeout=30.0,
        max_retries=2,
        sleep=lambda _s: None,
        secondary_min_wait=0.01,
        backoff_base=0.001,
    )
    github = GitHubConfig(api_url=gh.api_url, graphql_url=gh.graphql_url)
    with client:
        return sync_repository(store, REPO, github=github, token=TOKEN, client=client)


class Worker(threading.Thread):
    def __init__(self, store: Store, gh: FakeGitHub) -> None:
        super().__init__(daemon=True)
        self.store, self.gh = store, gh
        self.report: SyncReport | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.report = _sync(self.store, self.gh)
        except BaseException as exc:
            self.error = exc


def test_a_second_sync_of_a_repository_waits_for_the_first(
    db_url: str, gated: tuple[FakeGitHub, Gate], caplog: pytest.LogCaptureFixture
) -> None:
    gh, gate = gated
    first_store, second_store = Store.open(db_url), Store.open(db_url)
    try:
        first = Worker(first_store, gh)
        first.start()
        assert gate.held.wait(30)  # the first sync is inside, its first request held
        second = Worker(second_store, gh)
        second.start()
        deadline = time.monotonic() + 30
        while "another tidings sync" not in caplog.text and time.monotonic() < deadline:
            time.sleep(0.05)
        # The second one is waiting: it has sent nothing while the first is held.
        assert f"another tidings sync of {REPO} is running; waiting up to" in caplog.text
        assert gh.requests == []
        gate.open()
        first.join(60)
        second.join(60)
        assert first.error is None and second.error is None, (first.error, second.error)
        assert first.report is not None and second.report is not None
        assert first.report.items > 0
        # The second ran after the first had committed everything: nothing left to fetch.
        assert second.report.items == second.report.pr_details == 0
        assert second.report.graphql_requests == 0
        assert second.report.rest_requests == second.report.not_modified
        assert stored(second_store, REPO) == served(gh, REPO)
    finally:
        first_store.close()
        second_store.close()


@pytest.mark.slow_on_postgres
def test_a_sync_that_waits_too_long_fails_with_one_line(
    db_url: str, gated: tuple[FakeGitHub, Gate]
) -> None:
    gh, gate = gated
    first_store, second_store = Store.open(db_url), Store.open(db_url)
    second_store.lock_wait = 0.5
    try:
        first = Worker(first_store, gh)
        first.start()
        assert gate.held.wait(30)
        with pytest.raises(StoreError) as info:
            _sync(second_store, gh)
        assert info.value.one_line() == (
            f"another tidings sync of {REPO} is running (waited 0.5 s for it) — "
            "wait for it to finish, then re-run"
        )
        assert info.value.transient  # a queue job waits and tries again (tidings.jobs.queue)
        assert gh.requests == []  # it touched nothing
        gate.open()
        first.join(60)
        assert first.error is None
        # The store is exactly what the one sync made, and a later sync finds nothing new.
        assert stored(second_store, REPO) == served(gh, REPO)
        assert _sync(second_store, gh).items == 0
    finally:
        first_store.close()
        second_store.close()


def test_syncs_of_two_repositories_run_side_by_side(db_url: str) -> None:
    """The lock is per repository: holding one does not hold up another."""
    other = Store.open(db_url)
    store = Store.open(db_url)
    store.lock_wait = 0.2
    try:
        with other.sync_lock("someone/else"), store.sync_lock(REPO):
            pass
        with (
            other.sync_lock(REPO.upper()),  # GitHub names are case-insensitive
            pytest.raises(StoreError, match="another tidings sync"),
            store.sync_lock(REPO),
        ):
            pass
    finally:
        other.close()
        store.close()


@pytest.mark.slow
def test_two_sync_commands_at_once(db_url: str, gated: tuple[FakeGitHub, Gate], tmp_path: Path):
    """`tidings sync` twice at once: both exit 0, the second says it waits, the store is right."""
    gh, gate = gated
    (tmp_path / "tidings.toml").write_text(
        f'[github]\napi_url = "{gh.api_url}"\nmax_retries = 1\n', encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if k != "TIDINGS_DB"} | {"GITHUB_TOKEN": TOKEN}

    procs: list[subprocess.Popen[bytes]] = []

    def start(name: str) -> Path:
        err = tmp_path / f"{name}.err"
        with err.open("wb") as handle:
            procs.append(
                subprocess.Popen(
                    [str(TIDINGS), "--db", db_url, "sync", REPO, "--json"],
                    cwd=tmp_path,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=handle,
                )
            )
        return err

    try:
        start("first")
        assert gate.held.wait(60)
        second_err = start("second")
        deadline = time.monotonic() + 60
        while b"waiting up to" not in second_err.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.1)
        gate.open()
        assert [proc.wait(120) for proc in procs] == [0, 0], (tmp_path / "first.err").read_text()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    message = second_err.read_text(encoding="utf-8")
    assert f"another tidings sync of {REPO} is running; waiting up to 600 s" in message
    assert "error" not in message
    store = Store.open(db_url)
    try:
        assert stored(store, REPO) == served(gh, REPO)
    finally:
        store.close()


# -- databases that are not this tidings' stores ----------------------------------------------


def _execute(url: str, *statements: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    code = done.value.code
    return code if isinstance(code, int) else 1, capsys.readouterr().err


def test_another_applications_database_is_refused_untouched(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _execute(
        db_url,
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO customers VALUES (1, 'Ada')",
    )
    with pytest.raises(StoreError) as info:
        Store.open(db_url)
    message = info.value.one_line()
    assert "is not a tidings store" in message and "'customers'" in message
    assert "new SQLite file or an empty PostgreSQL database" in message
    assert _tables(db_url) == {"customers"}  # nothing of ours was added
    if db_url.startswith("sqlite"):  # nor the lasting WAL journal mode
        engine = sa.create_engine(db_url)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "delete"
        engine.dispose()

    code, err = _run(capsys, "--db", db_url, "repos")
    assert code == 1
    assert err.startswith("error: database ") and err.count("\n") == 1
    assert "Traceback" not in err
    assert _tables(db_url) == {"customers"}


def test_another_alembic_application_is_refused(db_url: str) -> None:
    _execute(
        db_url,
        "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
        "INSERT INTO alembic_version VALUES ('ae1027a6acf')",
        "CREATE TABLE orders (id INTEGER PRIMARY KEY)",
    )
    with pytest.raises(StoreError, match=r"is not a tidings store.*'orders'"):
        Store.open(db_url)
    assert _tables(db_url) == {"alembic_version", "orders"}


def test_a_store_with_a_table_of_the_users_own_still_opens(db_url: str) -> None:
    Store.open(db_url).close()
    _execute(db_url, "CREATE TABLE my_notes (id INTEGER PRIMARY KEY)")
    store = Store.open(db_url)
    try:
        assert store.repositories() == []
    finally:
        store.close()


def test_a_store_from_a_newer_tidings_is_one_line(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Store.open(db_url).close()
    _execute(db_url, "UPDATE alembic_version SET version_num = '0099'")
    with pytest.raises(StoreError) as info:
        Store.open(db_url)
    assert info.value.one_line().startswith("this store (")
    assert "was written by a newer tidings (schema revision '0099'" in info.value.one_line()
    assert "— upgrade tidings (pip install -U tidings)" in info.value.one_line()

    code, err = _run(capsys, "--db", db_url, "repos")
    assert code == 1
    assert err.startswith("error: this store (") and "newer tidings" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert _version_rows(db_url) == ["0099"]  # left as it was


def test_half_a_store_without_a_version_is_named(db_url: str) -> None:
    """What an older tidings left when killed during its first migration on SQLite."""
    engine = sa.create_engine(db_url)
    try:
        schema.repositories.create(engine)
    finally:
        engine.dispose()
    with pytest.raises(StoreError, match="holds part of a tidings store but no schema version"):
        Store.open(db_url)
