"""Many repositories on one machine (#14, docs/scale.md): the shared GitHub budget, the pool,
the staleness order, the bounded first sync and failures kept to their repository."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from testkit.fleet import fleet, last_full_week, renamed
from testkit.generate import generate_week, generate_weeks
from testkit.servers.github import FakeGitHub
from tests.sources.github.test_github_sync import served, stored
from tidings import api
from tidings.common.config import Config, RepoConfig
from tidings.errors import SourceError, TidingsError
from tidings.jobs.runner import by_staleness, first_sync_start, run_repositories
from tidings.sources.github.auth import resolve_tokens
from tidings.sources.github.budget import RESERVE, GitHubBudget
from tidings.sources.github.client import GitHubClient
from tidings.sources.github.sync import SYNCED_STREAM
from tidings.store import Store
from tidings.store.freshness import SYNCED_STREAM as FRESHNESS_STREAM

TOKEN = "ghp_scaletoken0000000000000000000000"
OTHER = "ghp_scaletoken1111111111111111111111"
NOW = datetime(2026, 3, 12, 3, 0, tzinfo=UTC)  # a Thursday


def test_the_freshness_query_reads_the_row_the_sync_writes() -> None:
    assert FRESHNESS_STREAM == SYNCED_STREAM


# -- the budget ---------------------------------------------------------------------------------


def test_tokens_go_round_robin_by_repository_and_a_spent_one_hands_over() -> None:
    budget = GitHubBudget([TOKEN, OTHER, TOKEN], clock=lambda: 1000.0)
    assert len(budget.tokens) == 2  # the same token twice is one budget
    assert [budget.token_for(k) for k in range(4)] == [TOKEN, OTHER, TOKEN, OTHER]
    spent = budget.state(TOKEN).limits["core"]
    spent.remaining, spent.reset_at = RESERVE - 1, 2000.0
    assert budget.token_for(0) == OTHER  # TOKEN is nearly spent, OTHER unreported (fresh)
    other = budget.state(OTHER).limits["graphql"]
    other.remaining, other.reset_at = 5, 2000.0
    assert budget.token_for(0) == TOKEN  # both low: the one with more left
    spent.reset_at = 900.0  # TOKEN's window has reset since: its old count means nothing
    assert budget.token_for(0) == TOKEN


def test_a_secondary_limit_pauses_every_client_of_that_token_and_no_other() -> None:
    now = [1000.0]
    slept: list[tuple[str, float]] = []
    budget = GitHubBudget(
        [TOKEN, OTHER], clock=lambda: now[0], sleep=lambda s: slept.append(("sleep", s))
    )
    budget.pause(TOKEN, 30)  # this (test) thread was told to back off: it waits in its retry

    def other_thread() -> None:
        with budget.request(TOKEN):
            pass
        with budget.request(OTHER):
            pass

    worker = threading.Thread(target=other_thread)
    worker.start()
    worker.join()
    assert slept == [("sleep", 30.0)]  # another client of TOKEN waited; OTHER did not
    with budget.request(TOKEN):  # the thread that hit the limit does not wait twice
        pass
    assert len(slept) == 1


def test_requests_in_flight_never_exceed_the_cap() -> None:
    records = generate_week(1, prs=8, issues=4, comments_and_reviews=30, pr_files=10)
    budget = GitHubBudget([TOKEN], max_in_flight=2)
    with FakeGitHub(records, token=TOKEN, latency=0.02) as gh:

        def listing() -> None:
            with GitHubClient(gh.api_url, gh.graphql_url, TOKEN, budget=budget) as client:
                for _ in range(3):
                    client.get("/repos/bench/inference-engine/issues", {"state": "all"})

        threads = [threading.Thread(target=listing) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert gh.count(api="rest") == 18
    assert budget.peak_in_flight == 2  # six clients at once, two on the wire


def test_clients_of_one_token_share_what_github_said_about_its_budget() -> None:
    budget = GitHubBudget([TOKEN])
    first = GitHubClient("http://127.0.0.1:9", "http://127.0.0.1:9/graphql", TOKEN, budget=budget)
    second = GitHubClient("http://127.0.0.1:9", "http://127.0.0.1:9/graphql", TOKEN, budget=budget)
    first._note_graphql_budget({"remaining": 7, "cost": 3, "resetAt": "2026-03-12T04:00:00Z"})
    assert second._limits["graphql"].remaining == 7
    assert second._limits["graphql"].cost == 3
    first.close()
    second.close()


def test_more_tokens_come_from_the_variables_named_in_token_envs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("TIDINGS_SECOND", OTHER)
    monkeypatch.delenv("TIDINGS_THIRD", raising=False)
    assert resolve_tokens("GITHUB_TOKEN", ["TIDINGS_SECOND"]) == [TOKEN, OTHER]
    with pytest.raises(SourceError) as info:
        resolve_tokens("GITHUB_TOKEN", ["TIDINGS_SECOND", "TIDINGS_THIRD"])
    line = info.value.one_line()
    assert "TIDINGS_THIRD is not set" in line and OTHER not in line and TOKEN not in line


# -- the runner ---------------------------------------------------------------------------------


def _config(names: list[str], **run: Any) -> Config:
    return Config.model_validate({"repos": [{"name": n} for n in names], "run": run})


def _mark_synced(store: Store, name: str, when: datetime) -> None:
    import sqlalchemy as sa

    from tidings.store import schema

    with store.begin() as conn:
        repo_id = store.repo_id(conn, name, create=True)
        assert repo_id is not None
        store.set_cursor(conn, repo_id, SYNCED_STREAM, None)
        conn.execute(
            schema.sync_state.update()
            .where(schema.sync_state.c.repo_id == repo_id)
            .values(updated_at=when)
        )
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.sync_state)).scalar()


def test_work_goes_stalest_first_and_outcomes_keep_the_configs_order(
    sqlite_url: str, tmp_path: Path
) -> None:
    store = Store.open(sqlite_url)
    try:
        _mark_synced(store, "a/old", NOW - timedelta(days=3))
        _mark_synced(store, "a/fresh", NOW - timedelta(hours=1))
        cfg = _config(["a/fresh", "a/never", "a/old"])
        assert [r.name for r in by_staleness(store, cfg.repos)] == ["a/never", "a/old", "a/fresh"]
        seen: list[str] = []

        def sync(_store: Store, repo: RepoConfig) -> dict[str, int]:
            seen.append(repo.name)
            raise TidingsError(f"no such repository {repo.name}", "check it")

        outcomes = run_repositories(
            cfg, store, sync=sync, reports_dir=tmp_path, days=1, now=NOW, concurrency=1
        )
        assert seen == ["a/never", "a/old", "a/fresh"]
        assert [o.repo for o in outcomes] == ["a/fresh", "a/never", "a/old"]
    finally:
        store.close()


def test_repositories_run_side_by_side_and_a_failure_stays_with_its_repository(
    sqlite_url: str, tmp_path: Path
) -> None:
    store = Store.open(sqlite_url)
    names = [f"a/r{k}" for k in range(6)]
    running, peak = [0], [0]
    lock = threading.Lock()

    def sync(_store: Store, repo: RepoConfig) -> dict[str, int]:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.1)
        with lock:
            running[0] -= 1
        if repo.name == "a/r2":
            raise TidingsError("GitHub refused a/r2", "check the token")
        if repo.name == "a/r4":
            raise ValueError("a bug in one repository's data")
        with _store.begin() as conn:  # an empty repository, synced: quiet reports
            _store.set_cursor(
                conn, _store.repo_id(conn, repo.name, create=True), SYNCED_STREAM, None
            )
        return {}

    try:
        outcomes = run_repositories(
            _config(names), store, sync=sync, reports_dir=tmp_path, days=1, now=NOW, concurrency=3
        )
    finally:
        store.close()
    assert peak[0] == 3
    failed = {o.repo: o.error for o in outcomes if not o.ok}
    assert failed == {
        "a/r2": "GitHub refused a/r2 — check the token",
        "a/r4": "ValueError: a bug in one repository's data",
    }
    # The others got their reports (the last closed day's and the last week's, in English).
    for o in outcomes:
        if o.ok:
            assert len(o.checked) == 2, o


def test_a_first_sync_starts_at_the_monday_before_the_look_back() -> None:
    repo = RepoConfig(name="a/b", timezone="Asia/Shanghai", cutoff="09:00")
    # 11:00 Thursday 03-12 in Shanghai; 14 days back is Thursday 02-26, whose week starts 02-23.
    start = first_sync_start(repo, NOW, 14, 7)
    assert start == datetime(2026, 2, 23, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    # Reports due further back than the look-back move it too.
    assert first_sync_start(repo, NOW, 3, 20) == datetime(2026, 2, 16, 1, 0, tzinfo=UTC)
    # A look-back of one day still covers the week `tidings run` reports on, the one holding
    # the day a week ago (03-05: W10, from Monday 03-02).
    assert first_sync_start(repo, NOW, 1, 1) == datetime(2026, 3, 2, 1, 0, tzinfo=UTC)


def test_a_first_run_reads_the_look_back_and_full_history_reads_everything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = datetime.now(UTC)
    # Ten weeks ago and last week, with numbers and ids that never meet.
    weeks = list(generate_weeks(11, merged=3, start=last_full_week(now) - timedelta(weeks=10)))
    name = "a/history"
    records = renamed(weeks[0], name) + renamed(weeks[10], name)[1:]
    monkeypatch.chdir(tmp_path)
    with FakeGitHub(records, token=TOKEN) as gh:
        cfg = Config.model_validate(
            {"repos": [{"name": name}], "github": {"api_url": gh.api_url, "max_retries": 1}}
        )
        bounded = Store.open(f"sqlite:///{tmp_path / 'bounded.db'}")
        full = Store.open(f"sqlite:///{tmp_path / 'full.db'}")
        try:
            api.run(bounded, cfg, days=2, site=False, pdf=False, token=TOKEN)
            listings = [q for q in gh.requests if q.path.endswith("/issues")]
            assert listings and all("since" in q.query for q in listings)
            gh.reset_log()
            api.run(full, cfg, days=2, site=False, pdf=False, token=TOKEN, full_history=True)
            assert stored(full, name) == served(gh, name)
            have = stored(bounded, name)
            assert 0 < len(have) < len(stored(full, name))
            # What it holds is what GitHub has of the look-back: all of the recent week.
            want_recent = {x for x in served(gh, name) if x in have}
            assert want_recent == set(have)
            # Its second run resumes from its cursors: no `since` from the look-back again.
            gh.reset_log()
            result = api.run(bounded, cfg, days=2, site=False, pdf=False, token=TOKEN)
            assert result.ok
            assert gh.count(api="graphql") == 0
            assert all(q.not_modified for q in gh.requests if q.path.endswith("/issues"))
        finally:
            bounded.close()
            full.close()


def test_repositories_spread_over_the_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    repos = fleet(4, 0, now=datetime.now(UTC), seed=5)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("TIDINGS_SECOND", OTHER)
    with FakeGitHub([r for rs in repos.values() for r in rs], token=TOKEN) as gh:
        gh.extra_tokens.add(OTHER)
        cfg = Config.model_validate(
            {
                "repos": [{"name": n} for n in repos],
                "github": {"api_url": gh.api_url, "token_envs": ["TIDINGS_SECOND"]},
                "run": {"concurrency": 2},
            }
        )
        result = api.run(f"sqlite:///{tmp_path / 's.db'}", cfg, days=1, site=False, pdf=False)
        assert result.ok, [o.error for o in result.repositories]
        # Two repositories each: the same number of requests, since the four are alike in size.
        assert set(gh.by_token) == {TOKEN, OTHER}
        assert 0.5 < gh.by_token[TOKEN] / gh.by_token[OTHER] < 2
