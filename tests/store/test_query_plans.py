"""Every query a report or a quiet re-sync runs reads its window through an index, not the
repository's whole history (issue #14; the indexes are migration 0005's, the statistics
store/planner.py's).

The queries are not listed here by hand: each test records every SELECT the real code runs
(daily, weekly and stats reports; a quiet re-sync against the loopback GitHub) and asks the
database for its plan.

What is asserted, per backend:
- SQLite, with the statistics ANALYZE leaves after a sync, aged (`aged`): the row counts in
  sqlite_stat1 multiplied as if the store held `AGE` times the history, every other figure
  (rows per day, per item) left as measured. SQLite documents editing sqlite_stat1 for exactly
  this, making a small test database plan like a big one; without it the planner rightly reads
  a table of a few hundred rows whole. Asserted: no plan reads a big table whole (`SCAN items`)
  or through nothing narrower than the repository (`SEARCH items USING INDEX ... (repo_id=?)`),
  which for a one-repository store is the same.
- PostgreSQL: on a test-sized table its planner rightly prefers a sequential scan to any index,
  and its statistics cannot be edited, so the plans are taken with `enable_seqscan = off` and
  the assertion is weaker: no query needs a sequential scan of a big table. At this size it
  still picks an index on `repo_id` alone now and then where a narrower one exists, so that is
  not asserted; benchmarks/history.py measures PostgreSQL at a year of vLLM-scale data instead.

A few reads cover the whole history by design; `WHOLE_HISTORY` names them and says why each
stays cheap. Anything else that reads a whole table fails here with its SQL and plan.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.generate import REPO, generate_week, generate_weeks
from testkit.seed import seed
from testkit.servers.github import FakeGitHub
from tests.sources.github import test_github_sync as github_sync
from tidings import api
from tidings.common.config import RepoConfig
from tidings.store import Store, schema
from tidings.store.planner import analysed_rows

BIG = ("items", "comments", "reviews", "review_comments", "pr_files", "closing_refs")
START = datetime(2026, 1, 5, tzinfo=UTC)  # a Monday; six weeks of history from here
WEEKS = 6
DAY = date(2026, 2, 11)  # the Wednesday of the last week
WEEK = (2026, 7)

# Reads of a whole repository that are meant: a pattern of the SQL, and why it stays cheap.
WHOLE_HISTORY = {
    # SQLite answers max() from the end of ix_items_repo_updated: one index entry.
    r"SELECT max\(items\.updated_at\)": "one index entry (min/max optimisation)",
    # Stops at the first row that came from the API; only a git-only store reads further.
    r"coalesce\(items\.source": "LIMIT 1 existence probe",
    # Who has ever merged a PR is a whole-history fact (facts/roles.py), read from the narrow
    # covering index ix_items_repo_kind_merger, never from the rows.
    r"items\.merged_by, max\(items\.number\)": "narrow covering index, merged PRs only",
    # store/planner.py's drift check after a sync: one count over the narrowest index.
    r"^SELECT count\(\*\) FROM items$": "planner drift check, narrowest index",
}
# Partial indexes hold only the rows a query wants: reading one whole is not reading history.
PARTIAL = {
    index.name
    for table in schema.metadata.tables.values()
    for index in table.indexes
    if index.dialect_options["sqlite"]["where"] is not None
}


def _meant(sql: str) -> bool:
    return any(re.search(pattern, sql) for pattern in WHOLE_HISTORY)


@contextmanager
def recorded(store: Store) -> Iterator[list[tuple[str, Any]]]:
    """Every SELECT run on the store's engine inside the block, once each."""
    seen: dict[str, Any] = {}

    def note(_conn: Any, _cursor: Any, statement: str, params: Any, _ctx: Any, many: bool) -> None:
        if not many and statement.lstrip().upper().startswith("SELECT"):
            seen.setdefault(statement, params)

    statements: list[tuple[str, Any]] = []
    sa.event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield statements  # filled when the block ends
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
        statements.extend(seen.items())


def plan(store: Store, statement: str, params: Any) -> list[str]:
    with store.engine.connect() as conn:
        if store.dialect == "sqlite":
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", params).all()
            return [row[3] for row in rows]
        conn.exec_driver_sql("SET enable_seqscan = off")
        rows = conn.exec_driver_sql(f"EXPLAIN {statement}", params).all()
        return [row[0].strip() for row in rows]


def whole_reads(store: Store, lines: list[str]) -> list[str]:
    """The plan's steps that read a big table whole."""
    bad = []
    for line in lines:
        if store.dialect == "sqlite":
            match = re.match(r"(SCAN|SEARCH) (\w+)", line)
            if match and match[2] in BIG:
                partial = any(f"INDEX {name} " in line for name in PARTIAL)
                if match[1] == "SCAN" or (re.search(r"\(repo_id=\?\)$", line) and not partial):
                    bad.append(line)
        elif re.search(rf"Seq Scan on ({'|'.join(BIG)})\b", line):
            bad.append(line)
    return bad


def assert_indexed(store: Store, statements: list[tuple[str, Any]]) -> int:
    """Fail on any statement that reads a big table whole; returns how many were checked."""
    problems = []
    checked = 0
    for statement, params in statements:
        if not any(re.search(rf"\b{t}\b", statement) for t in BIG):
            continue
        checked += 1
        lines = plan(store, statement, params)
        if whole_reads(store, lines) and not _meant(statement.strip()):
            problems.append(f"{' '.join(statement.split())[:300]}\n    plan: {lines}")
    assert not problems, "queries that read a whole table:\n" + "\n".join(problems)
    return checked


AGE = 50  # ~ six weeks of history aged to six years


def aged(store: Store) -> None:
    """Make SQLite's planner see a store AGE times as old (see the module docstring): each
    index's row count, and the rows per repository (its first column where that is repo_id,
    which in a one-repository store equals the row count), times AGE."""
    if store.dialect != "sqlite":
        return
    with store.begin() as conn:
        rows = conn.execute(sa.text("SELECT tbl, idx, stat FROM sqlite_stat1")).all()
        for tbl, idx, stat in rows:
            if tbl not in BIG or not stat:
                continue
            numbers = stat.split()
            total = numbers[0]
            numbers = [
                str(int(n) * AGE) if i == 0 or n == total else n for i, n in enumerate(numbers)
            ]
            conn.execute(
                sa.text("UPDATE sqlite_stat1 SET stat = :stat WHERE tbl = :tbl AND idx IS :idx"),
                {"stat": " ".join(numbers), "tbl": tbl, "idx": idx},
            )
    store.engine.dispose()  # new connections load the new statistics


def _history(store: Store) -> None:
    """Six weeks of activity, as syncs would have left them (statistics included)."""
    for week in generate_weeks(WEEKS, merged=30, start=START):
        seed(store, week)
    with store.begin() as conn:
        store.set_cursor(conn, store.require_repo(conn, REPO), "synced", None)
    store.refresh_planner(force=True)
    aged(store)


def test_reports_read_only_their_window(store: Store) -> None:
    _history(store)
    repo = RepoConfig(name=REPO, timezone="UTC")
    with recorded(store) as statements:
        api.build_daily(store, repo, DAY, "en", llm=False)
        api.build_weekly(store, repo, WEEK, "en", llm=False)
        api.stats(store, repo, day=DAY)
    # The daily, weekly and stats paths together run a few dozen distinct queries.
    assert assert_indexed(store, statements) >= 20


def test_a_whole_table_read_is_caught(store: Store) -> None:
    """The check itself can fail: a query by a column no index leads with reads it all."""
    _history(store)
    with recorded(store) as statements, store.engine.connect() as conn:
        conn.execute(sa.select(schema.items.c.number).where(schema.items.c.title == "x"))
    with pytest.raises(AssertionError, match="read a whole table"):
        assert_indexed(store, statements)


@pytest.mark.slow_on_postgres
def test_quiet_resync_reads_no_history(store: Store) -> None:
    """A full sync from the loopback GitHub, then a quiet one: the quiet one's queries."""
    week = generate_week(0, prs=80, issues=40, comments_and_reviews=300, pr_files=200)
    with FakeGitHub(week, token=github_sync.TOKEN) as fake:
        github_sync.sync(store, fake)
        # The sync refreshed the planner's statistics on its way out (Store.sync_lock).
        with store.engine.connect() as conn:
            assert analysed_rows(conn) == 120
        aged(store)
        fake.advance(3600)
        with recorded(store) as statements:
            report = github_sync.sync(store, fake)
    assert report.not_modified >= 3  # quiet indeed: the listings answered 304
    assert assert_indexed(store, statements) >= 3
    # No item changed, so no comment is counted (reconcile.py counts candidates only).
    counts = [s for s, _ in statements if re.search(r"comments\.number, count\(\*\)", s)]
    assert not counts, counts


def test_planner_statistics_follow_the_store(store: Store) -> None:
    """Refreshed when the store grew by more than the drift, left alone otherwise."""
    with store.engine.connect() as conn:
        assert analysed_rows(conn) is None or analysed_rows(conn) == 0
    first = list(generate_weeks(2, merged=30, start=START))
    seed(store, first[0])
    assert store.refresh_planner() is True  # never analysed, now holds rows
    with store.engine.connect() as conn:
        held = analysed_rows(conn)
    assert held is not None and held > 0
    assert store.refresh_planner() is False  # nothing changed: one count, no ANALYZE
    seed(store, first[1])  # doubles the items
    assert store.refresh_planner() is True
    with store.engine.connect() as conn:
        assert analysed_rows(conn) == 2 * held


def test_a_snapshot_import_refreshes_the_statistics(store: Store, tmp_path: Path) -> None:
    source = Store.open(f"sqlite:///{tmp_path / 'source.db'}")
    try:
        seed(source, next(generate_weeks(1, merged=30, start=START)))
        api.export_snapshot(source, REPO, tmp_path / "snap.jsonl")
    finally:
        source.close()
    api.import_snapshot(store, tmp_path / "snap.jsonl")
    with store.engine.connect() as conn:
        assert analysed_rows(conn) == conn.execute(sa.text("SELECT count(*) FROM items")).scalar()


BIG_STORE_ITEMS = 20_000  # a few months of vLLM: enough for PostgreSQL to weigh a whole read


def _many_checked_items(store: Store) -> int:
    """BIG_STORE_ITEMS issues and PRs, every one's details fetched and counts checked, as a
    store a few months old looks to a quiet re-sync; then ANALYZE, as store/planner.py does."""
    with store.begin() as conn:
        repo_id = store.repo_id(conn, REPO, create=True)
        assert repo_id is not None
        conn.execute(
            sa.text(
                "INSERT INTO items (repo_id, number, kind, title, body, state, locked, labels,"
                " reactions, created_at, updated_at, detail_updated_at, checked_updated_at,"
                " comments_count, deleted)"
                " SELECT :repo, n, CASE WHEN n % 4 = 0 THEN 'issue' ELSE 'pr' END, 'title',"
                # Bodies as long as real ones, so the table is as many pages as a real one.
                " repeat('body ', 150), 'closed', false, '[]', '{}', t, t,"
                " CASE WHEN n % 4 = 0 THEN NULL ELSE t END, t, n % 7, false"
                " FROM generate_series(1, :count) AS n,"
                " LATERAL (SELECT timestamptz '2025-01-01' + n * interval '10 minutes') AS x(t)"
            ),
            {"repo": repo_id, "count": BIG_STORE_ITEMS},
        )
    store.refresh_planner(force=True)
    return repo_id


@pytest.mark.postgres
def test_postgres_finds_nothing_to_check_through_the_partial_indexes(pg_url: str) -> None:
    """PostgreSQL cannot estimate `checked_updated_at != updated_at` and guesses a third of the
    items match: asked for the whole answer at once it read every item (a quiet re-sync's two
    item queries grew with history, issue #14). Its own plan, with sequential scans allowed,
    must walk the partial indexes, even priced for spinning disks (a server tuned so)."""
    from tidings.store import items

    store = Store.open(_with_option(pg_url, "-crandom_page_cost=4"))
    try:
        repo_id = _many_checked_items(store)
        with recorded(store) as statements, store.engine.connect() as conn:
            assert items.unchecked(conn, repo_id) == []
            assert items.stale_prs(conn, repo_id) == []
        plans = {}
        with store.engine.connect() as conn:
            for statement, params in statements:
                if "FROM items" in statement:
                    rows = conn.exec_driver_sql(f"EXPLAIN {statement}", params).all()
                    plans[statement] = "\n".join(row[0] for row in rows)
    finally:
        store.close()
    assert len(plans) == 2
    for statement, text in plans.items():
        assert "Seq Scan" not in text, f"{statement}\n{text}"
        assert re.search(r"ix_items_repo_(unchecked|undetailed)", text), text


@pytest.mark.postgres
def test_postgres_sessions_price_random_reads_for_ssds_unless_configured(pg_url: str) -> None:
    """A window's reviews and files are read by PR number; with PostgreSQL's spinning-disk
    default the planner read whole tables instead (store/db.py). Only an untuned setting is
    overridden: one given in the URL (as a DBA's in postgresql.conf) stays."""
    from tidings.store.db import SSD_RANDOM_PAGE_COST

    def cost(url: str) -> str:
        store = Store.open(url)
        try:
            with store.engine.connect() as conn:
                return str(conn.exec_driver_sql("SHOW random_page_cost").scalar())
        finally:
            store.close()

    with sa.create_engine(pg_url).connect() as plain:
        server = plain.exec_driver_sql(
            "SELECT setting, source FROM pg_settings WHERE name = 'random_page_cost'"
        ).one()
    if tuple(server) == ("4", "default"):
        assert cost(pg_url) == SSD_RANDOM_PAGE_COST
    else:  # a tuned server: its value is kept
        assert cost(pg_url) == server[0]
    assert cost(_with_option(pg_url, "-crandom_page_cost=2")) == "2"


def _with_option(pg_url: str, option: str) -> str:
    """The URL with a server setting added to its connection options (as a DBA's would be)."""
    url = sa.make_url(pg_url)
    options = f"{url.query.get('options', '')} {option}".strip()
    return url.update_query_dict({"options": options}).render_as_string(hide_password=False)
