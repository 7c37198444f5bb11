"""Shared fixtures: a migrated store on SQLite and on PostgreSQL, and record builders."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.factories import Records
from tidings.store import Store

PG_ENV = "TIDINGS_TEST_PG_URL"


@pytest.hookimpl(tryfirst=True)  # before `-m` selects: the mark must be there by then
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked `slow_on_postgres` runs on both backends in the full suite, and on SQLite
    alone in the fast loop (`pytest -m "not slow"`): its PostgreSQL half gets `slow`."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if (
            callspec is not None
            and callspec.params.get("db_url") == "postgresql"
            and item.get_closest_marker("slow_on_postgres")
        ):
            item.add_marker(pytest.mark.slow)


def _pg_url_or_skip() -> str:
    url = os.environ.get(PG_ENV)
    if url:
        return url
    reason = (
        f"{PG_ENV} is not set, so the PostgreSQL half of the store tests cannot run "
        "(e.g. postgresql+psycopg://tidings:tidings@127.0.0.1:5432/tidings_test)"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}; CI=true requires it")
    pytest.skip(reason)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh, empty schema dropped afterwards."""
    base = _pg_url_or_skip()
    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(base)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    url = sa.make_url(base).update_query_dict({"options": f"-csearch_path={name}"})
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tidings.db'}"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    fixture = "sqlite_url" if request.param == "sqlite" else "pg_url"
    return request.getfixturevalue(fixture)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store.open(db_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def sqlite_store(sqlite_url: str) -> Iterator[Store]:
    s = Store.open(sqlite_url)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture(scope="session")
def rec() -> Records:
    return Records()


@pytest.fixture(autouse=True)
def _no_ambient_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Tests must not pick up a developer's ./tidings.toml, TIDINGS_DB or GitHub token.
    monkeypatch.chdir(tmp_path)
    for name in ("TIDINGS_DB", "TIDINGS_CONFIG", "GITHUB_TOKEN", "GH_TOKEN"):
        monkeypatch.delenv(name, raising=False)
