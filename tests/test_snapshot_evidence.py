"""Snapshots keep everything the reports and the sync read: table by table after a round trip
on SQLite and PostgreSQL, and a model-written weekly from the imported store equal to the
original's byte for byte. Format 2 added review threads, PR commits and items' patch_sha; a
version 1 file still imports."""

# ruff: noqa: F811  (the fixtures imported from test_analysis are redefined as parameters)
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from testkit.servers.openai import FakeOpenAI, data_of
from tests.analysis.test_analysis import demo_db, llm, make_analyst, repo_config  # noqa: F401
from tests.factories import Records, seed, ts
from tests.store.test_store import _every_type
from tidings.errors import SnapshotError
from tidings.render.files import render_report
from tidings.report.weekly import build_weekly
from tidings.sources.snapshot import VERSION, export_snapshot, import_snapshot
from tidings.store import Store, files, schema
from tidings.store.gaps import read_gaps, write_gaps

V1 = Path(__file__).parent / "data" / "snapshots" / "v1-acme-widgets.jsonl"
# Caches, not data: an import leaves them empty and nothing is wrong for it. The first sync
# after an import asks GitHub without validators (200s, not 304s); a model-written report
# calls the model again (its answers are keyed by content, so equal facts ask the same).
CACHES = {"http_cache", "llm_cache"}
CARRIED = {
    "repositories",
    "items",
    "comments",
    "reviews",
    "review_comments",
    "pr_files",
    "review_threads",
    "pr_commits",
    "closing_refs",
    "sync_state",
}
NO_PATCH = "1 file without a patch from GitHub (binary, or too large for it to show): logo.png"


def test_every_table_is_carried_or_a_cache() -> None:
    """A new table must be put in snapshots (records.py, store/rows.py) or called a cache."""
    assert set(schema.metadata.tables) == CARRIED | CACHES


def _tables(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every carried table's rows, repository ids as names (ids are the store's own)."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.engine.connect() as conn:
        names = dict(
            conn.execute(sa.select(schema.repositories.c.id, schema.repositories.c.full_name)).all()
        )
        for name in sorted(CARRIED):
            table = schema.metadata.tables[name]
            rows = []
            for row in conn.execute(sa.select(table)).mappings():
                values = dict(row)
                if name == "repositories":
                    values.pop("id")
                else:
                    values["repo_id"] = names[values["repo_id"]]
                rows.append(
                    tuple(
                        sorted(
                            (k, json.dumps(v, sort_keys=True, default=str))
                            for k, v in values.items()
                        )
                    )
                )
            out[name] = sorted(rows)
    return out


def _evidence_store(path: Path, rec: Records) -> Store:
    """A SQLite store holding every record type, written as the GitHub sync writes the
    evidence: threads and commits by a PR's details, patches and the files GitHub gave none
    for by the patch stage, in two repositories that share comment ids."""
    source = Store.open(f"sqlite:///{path}")
    for name in ("acme/widgets", "other/repo"):
        records = _every_type(rec)
        records[0] = rec.repo(name, description="Ünïcödé 仓库 🚀")
        repo_id = seed(source, [*records, rec.file(2, "logo.png", 0, 0)])
        with source.begin() as conn:
            files.write_threads(
                source, conn, repo_id, 2, [(31, True, False), (32, False, True)], True
            )
            files.write_commits(
                source,
                conn,
                repo_id,
                2,
                [("9" * 40, ts("2026-02-24T04:45:00Z")), ("8" * 40, ts("2026-02-24T03:10:00Z"))],
                True,
            )
            files.write_patches(
                conn, repo_id, 2, {"src/ü.py": "@@ -1 +1 @@\n-a\n+assert b"}, "5" * 40
            )
            write_gaps(source, conn, repo_id, 2, {"patches": NO_PATCH})
    return source


def test_round_trip_keeps_every_table_on_both_backends(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    """SQLite → snapshot → the backend under test (empty) → snapshot → SQLite: every carried
    table equal at each step, threads, commits, patch_sha and the no-patch record included."""
    source = _evidence_store(tmp_path / "source.db", rec)
    want = _tables(source)
    source.close()
    # Each table the test is about holds rows, so an equality below says something.
    assert all(want[name] for name in CARRIED), [n for n in CARRIED if not want[n]]
    assert sum(("patch_sha", json.dumps("5" * 40)) in row for row in want["items"]) == 2
    assert sum("gap:2" in str(row) for row in want["sync_state"]) == 2

    first = tmp_path / "first.jsonl"
    counts = export_snapshot(Store.open(f"sqlite:///{tmp_path / 'source.db'}"), None, first)
    assert counts.records["review_thread"] == 4 and counts.records["pr_commit"] == 4
    import_snapshot(store, first)
    assert _tables(store) == want

    second = tmp_path / "second.jsonl"
    export_snapshot(store, None, second)
    back = Store.open(f"sqlite:///{tmp_path / 'back.db'}")
    try:
        import_snapshot(back, second)
        assert _tables(back) == want
        with back.engine.connect() as conn:
            repo_id = back.require_repo(conn, "acme/widgets")
            assert read_gaps(conn, repo_id) == {2: {"patches": NO_PATCH}}
            # The patch stage finds nothing to do: the commit its patches were read for came too.
            assert files.patch_work(conn, repo_id, ts("2026-01-01T00:00:00Z")) == []
    finally:
        back.close()


def test_a_version_1_snapshot_still_imports(store: Store, rec: Records, tmp_path: Path) -> None:
    """A file the previous tidings wrote (format 1: no threads, commits or patch_sha) imports;
    its PRs' patch commit is unknown, so the next sync reads their patches again, and the
    threads and commits a store already holds are kept (an import never deletes rows)."""
    header = json.loads(V1.read_text(encoding="utf-8").splitlines()[0])
    assert header["version"] == 1 and "review_thread" not in header["repositories"][0]["records"]
    repo_id = seed(store, [rec.repo(), rec.pr(2), rec.thread(2, 31), rec.commit(2, "c" * 40)])

    counts = import_snapshot(store, V1)
    assert counts.records["item"] == 2 and counts.records["review_thread"] == 0
    with store.engine.connect() as conn:
        items = dict(conn.execute(sa.select(schema.items.c.number, schema.items.c.patch_sha)).all())
        assert items == {1: None, 2: None}
        assert [w.number for w in files.patch_work(conn, repo_id, ts("2026-01-01T00:00:00Z"))] == [
            2
        ]
        assert (
            conn.execute(sa.select(sa.func.count()).select_from(schema.review_threads)).scalar()
            == 1
        )
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.pr_commits)).scalar() == 1
        assert read_gaps(conn, repo_id)[2]["patches"].endswith("logo.png")

    # Written again, it is a current (version 3) file that says it holds one thread and one
    # commit.
    out = tmp_path / "again.jsonl"
    export_snapshot(store, None, out)
    header = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert header["version"] == VERSION == 3
    assert header["repositories"][0]["records"]["review_thread"] == 1
    assert header["repositories"][0]["records"]["pr_commit"] == 1


@pytest.mark.parametrize(
    "line",
    [
        '{"type":"review_thread","number":2,"comment_id":31,"resolved":true,"outdated":false}',
        '{"type":"pr_commit","number":2,"sha":"abc","committed_at":null}',
    ],
)
def test_a_version_1_file_with_format_2_records_is_refused(
    sqlite_store: Store, tmp_path: Path, line: str
) -> None:
    lines = V1.read_text(encoding="utf-8").splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join([*lines[:8], line + "\n", *lines[8:]]), encoding="utf-8")
    with pytest.raises(SnapshotError) as info:
        import_snapshot(sqlite_store, bad)
    kind = json.loads(line)["type"]
    assert info.value.one_line() == (
        f"{bad}, line 9: {kind} records came with snapshot format version 2, but the header "
        "says version 1 — repair or re-create the snapshot with "
        "`tidings export OWNER/REPO FILE.jsonl`"
    )
    with sqlite_store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.items)).scalar() == 0


# -- the reports ---------------------------------------------------------------------------


def _with_thread_evidence(demo: Path, path: Path) -> Store:
    """The demo store plus what the GitHub sync's PR details add: every inline thread on
    the week's PRs marked outdated by GitHub and resolved or not, and a commit after each."""
    shutil.copy(demo, path)
    store = Store.open(f"sqlite:///{path}")
    rc = schema.review_comments
    with store.begin() as conn:
        repo_id = conn.execute(sa.select(schema.repositories.c.id)).scalar_one()
        roots = conn.execute(
            sa.select(rc.c.number, rc.c.id, rc.c.created_at)
            .where(rc.c.in_reply_to_id.is_(None))
            .order_by(rc.c.number, rc.c.id)
        ).all()
        by_pr: dict[int, list[Any]] = {}
        for root in roots:
            by_pr.setdefault(root.number, []).append(root)
        for number, threads in by_pr.items():
            states = [(t.id, i % 2 == 0, True) for i, t in enumerate(threads)]
            files.write_threads(store, conn, repo_id, number, states, True)
            later = max(t.created_at for t in threads)
            commits = [(f"{number:04d}".ljust(40, "c"), later.replace(second=59))]
            files.write_commits(store, conn, repo_id, number, commits, True)
    return store


def _rules_weekly(store: Store, repo_config: Any) -> str:
    """The W10 weekly as JSON, written by the rules."""
    from tests.analysis.test_weekly_llm import NOW

    return render_report(build_weekly(store, repo_config, 2026, 10, "en", now=NOW), "json")


def _weekly(store: Store, repo_config: Any, llm: FakeOpenAI) -> tuple[str, Any]:
    """The W10 weekly as JSON, written by the fake model, and the facts its risk task saw."""
    from tests.analysis.test_weekly_llm import NOW

    llm.reset()
    report = build_weekly(
        store, repo_config, 2026, 10, "en", now=NOW, analysis=make_analyst(llm, store)
    )
    sent = next(data_of(q.body) for q in llm.requests if q.task == "weekly_risks")
    return render_report(report, "json"), sent


def test_weekly_from_the_imported_store_is_byte_identical(
    store: Store, demo_db: Path, repo_config: Any, llm: FakeOpenAI, tmp_path: Path
) -> None:
    """Risk observations read review threads: GitHub's outdated flag and resolution, and the
    commits after them. A round trip through a snapshot changes none of it."""
    source = _with_thread_evidence(demo_db, tmp_path / "source.db")
    snap = tmp_path / "demo.jsonl"
    export_snapshot(source, None, snap)  # before any report: neither store has an llm_cache
    import_snapshot(store, snap)
    want, want_sent = _weekly(source, repo_config, llm)
    got, got_sent = _weekly(store, repo_config, llm)
    assert got_sent == want_sent
    assert got == want
    # The rules' weekly states each risky PR's thread figures (resolved, commits after them).
    rules = _rules_weekly(source, repo_config)
    assert _rules_weekly(store, repo_config) == rules
    figures = [o.get("review_threads") for o in json.loads(rules)["risk_observations"]]
    assert any(f is not None and f["followed_by_commit"] for f in figures)
    threads = [t for p in want_sent["facts"]["prs"] for t in p["review_threads"]]
    assert threads and all(t["outdated"] for t in threads)
    assert {t["resolved"] for t in threads} == {True, False}
    assert all(t["commits_after"] == 1 for t in threads)

    # Without the threads' rows (what a format 1 snapshot gave) the report is another one: the
    # comment's line still stands, so the model hears of points no later commit touched.
    with store.begin() as conn:
        conn.execute(schema.review_threads.delete())
        conn.execute(schema.pr_commits.delete())
        conn.execute(schema.llm_cache.delete())
    lossy, _ = _weekly(store, repo_config, llm)
    assert "no later commit touched it" in lossy
    assert "no later commit touched it" not in want
    lossy_rules = json.loads(_rules_weekly(store, repo_config))["risk_observations"]
    assert all("review_threads" not in o for o in lossy_rules)
