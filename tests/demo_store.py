"""The demo's store, configuration and a model client on the fake OpenAI server, for tests
that count what one report build reads and calls (tests/facts, tests/report)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testkit.servers.openai import FakeOpenAI
from tidings.analysis.analyst import Analyst
from tidings.analysis.cache import LLMCache
from tidings.analysis.provider import Provider, ProviderSettings
from tidings.common.config import RepoConfig, load_config
from tidings.demo import CONFIG_PATH, REPO, SAMPLE_PATH
from tidings.sources.snapshot import import_snapshot
from tidings.store import Store


def open_demo_store(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Store]:
    """A SQLite store holding the demo's sample, closed when the generator ends."""
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp(name) / 'demo.db'}")
    import_snapshot(store, SAMPLE_PATH)
    yield store
    store.close()


def demo_repo() -> RepoConfig:
    return load_config(CONFIG_PATH).repo(REPO)


def fake_analyst(llm: FakeOpenAI) -> Analyst:
    """An analyst on the fake model, one request at a time, with no cache."""
    provider = Provider(ProviderSettings(base_url=llm.base_url, model="fake-model", timeout=5.0))
    return Analyst(provider, LLMCache(None), max_concurrency=1)
