"""The store on SQLite and PostgreSQL: migrations, idempotent upserts, exact round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import Records, seed, ts
from tidings.common import records as r
from tidings.errors import TidingsWarning
from tidings.sources.snapshot import export_snapshot, import_snapshot
from tidings.store import Store, schema
from tidings.store.migrate import current_revision
from tidings.store.rows import read_records, write_records
from tidings.store.types import TEXT_MARK, escape_text, unescape_text


def _every_type(rec: Records) -> list[r.Record]:
    """One of each record type, with non-ASCII text, None fields and JSON columns."""
    return [
        rec.repo("acme/widgets", description="Ünïcödé 仓库 🚀", default_branch="main"),
        rec.issue(
            1,
            "2026-02-24T01:00:00Z",
            title="崩溃: ROCm 上的 FP4 — “quotes”",
            body=None,
            labels=["bug", "rocm", "ü"],
            reactions={"+1": 3, "heart": 1},
            state_reason=None,
        ),
        rec.pr(
            2,
            "2026-02-24T02:00:00Z",
            merged_at="2026-02-24T05:00:00Z",
            merged_by="dave",
            additions=10,
            deletions=2,
            changed_files=2,
            labels=[],
            author=None,
            author_type=None,
            detail_updated_at=ts("2026-02-24T05:00:00Z"),
            merge_commit_sha="5" * 40,
            patch_sha="5" * 40,
        ),
        rec.comment(1, "2026-02-24T03:00:00Z", id=11, body="ça va? 好的", reactions={"eyes": 2}),
        rec.review(2, "2026-02-24T04:00:00Z", id=21, state="CHANGES_REQUESTED", body=None),
        rec.review_comment(2, "2026-02-24T04:00:00Z", id=31, review_id=21, line=None),
        rec.file(2, "docs/readme.md", None, None, status="added"),
        rec.file(2, "src/ü.py", 5, 1),
        rec.thread(2, 31, resolved=None, outdated=True),
        rec.commit(2, "4" * 40, "2026-02-24T04:30:00Z"),
        rec.commit(2, "e" * 40, None),
        rec.closing_ref(2, 1),
        rec.sync_state("issues", cursor="2026-02-24T05:00:00Z"),
    ]


def _dump(store: Store, full_name: str = "acme/widgets") -> list[str]:
    with store.engine.connect() as conn:
        return [
            x.model_dump_json() for x in read_records(conn, store.require_repo(conn, full_name))
        ]


def test_migrates_to_head(store: Store) -> None:
    from alembic.script import ScriptDirectory

    from tidings.store.migrate import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert current_revision(store.engine) == head
    names = set(sa.inspect(store.engine).get_table_names())
    assert set(schema.metadata.tables) <= names
    store.migrate()  # a second upgrade is a no-op
    assert current_revision(store.engine) == head


def test_head_constant_is_alembics_head() -> None:
    """A store at HEAD opens without loading Alembic (store/migrate.py): HEAD must name the
    newest migration, or every store would be seen as behind and locked for an upgrade."""
    from alembic.script import ScriptDirectory

    from tidings.store.migrate import HEAD, alembic_config

    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD


def test_round_trip_every_record_type(store: Store, rec: Records) -> None:
    written = _every_type(rec)
    seed(store, written)
    got = _dump(store)
    assert got == [x.model_dump_json() for x in written]


def test_upsert_is_idempotent_and_updates(store: Store, rec: Records) -> None:
    records = _every_type(rec)
    seed(store, records)
    seed(store, records)
    before = _dump(store)
    assert len(before) == len(records)
    changed = rec.issue(
        1, "2026-02-24T01:00:00Z", title="renamed", state="closed", closed_at="2026-02-25T00:00:00Z"
    )
    seed(store, [records[0], changed])
    after = _dump(store)
    assert len(after) == len(before)
    assert '"title":"renamed"' in after[1]


def test_mark_deleted(store: Store, rec: Records) -> None:
    repo_id = seed(store, [rec.repo(), rec.issue(1), rec.comment(1, id=1), rec.comment(1, id=2)])
    with store.begin() as conn:
        assert store.mark_deleted(conn, schema.comments, repo_id, [2, 99]) == 1
    with store.engine.connect() as conn:
        flags = dict(conn.execute(sa.select(schema.comments.c.id, schema.comments.c.deleted)).all())
    assert flags == {1: False, 2: True}


def test_cursors(store: Store, rec: Records) -> None:
    repo_id = seed(store, [rec.repo()])
    with store.begin() as conn:
        assert store.get_cursor(conn, repo_id, "issues") is None
        store.set_cursor(conn, repo_id, "issues", "2026-02-24T00:00:00Z")
        store.set_cursor(conn, repo_id, "issues", "2026-02-25T00:00:00Z")
        store.set_cursor(conn, repo_id, "comments", None)
    with store.engine.connect() as conn:
        assert store.get_cursor(conn, repo_id, "issues") == "2026-02-25T00:00:00Z"
        assert store.get_cursor(conn, repo_id, "comments") is None


def test_rolled_back_transaction_leaves_nothing(store: Store, rec: Records) -> None:
    seed(store, [rec.repo()])
    try:
        with store.begin() as conn:
            write_records(store, conn, store.require_repo(conn, "acme/widgets"), [rec.issue(7)])
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert len(_dump(store)) == 1


def test_a_value_the_store_cannot_hold_is_named_in_one_line(store: Store, rec: Records) -> None:
    """The last guard for every writer (the GitHub sync included): a StoreError naming the row,
    not PostgreSQL's bare "integer out of range" or SQLite's OverflowError traceback."""
    from tidings.errors import StoreError

    seed(store, [rec.repo(), rec.issue(1)])
    cases = [
        (schema.items, rec.issue(3_000_000_000), "items number=3000000000: number 3000000000"),
        (schema.comments, rec.comment(1, id=2**64), f"comments id={2**64}: id {2**64}"),
        (
            schema.items,
            rec.issue(2, updated_at="9999-12-31T23:59:59Z"),
            "items number=2: updated_at 9999-12-31T23:59:59Z",
        ),
    ]
    for table, record, named in cases:
        with pytest.raises(StoreError) as info, store.begin() as conn:
            row = r.to_row(record) | {"repo_id": store.require_repo(conn, "acme/widgets")}
            store.upsert(conn, table, [row])
        assert info.value.one_line().startswith(f"cannot store {named} is out of range")
    assert len(_dump(store)) == 2  # nothing written


@pytest.mark.postgres
def test_postgres_reads_late_times_back_whatever_the_server_time_zone(
    pg_url: str, rec: Records
) -> None:
    """A server set to Asia/Shanghai handed 9999-12-31T23:59:59Z back as year 10000, which no
    datetime holds: every read of such a row (reports, export, sync) failed. Sessions are UTC."""
    store = Store.open(pg_url)
    repo_id = seed(store, [rec.repo(), rec.issue(1)])
    with store.begin() as conn:  # as a store written before the range check could hold it
        conn.execute(
            sa.text("UPDATE items SET closed_at = '9999-12-31T23:59:59Z' WHERE number = 1")
        )
    store.close()
    url = sa.make_url(pg_url)
    options = f"{url.query['options']} -ctimezone=Asia/Shanghai"
    eastern = Store.open(url.update_query_dict({"options": options}).render_as_string(False))
    try:
        with eastern.engine.connect() as conn:
            item = next(x for x in read_records(conn, repo_id) if isinstance(x, r.ItemRecord))
        assert item.closed_at == ts("9999-12-31T23:59:59Z")
    finally:
        eastern.close()


# -- text PostgreSQL would refuse (issue #10, case 5) ------------------------------------------

NUL_BODY = "binary log:\x00\x01\x00 end"
MARKED = "\ufdd0 starts with the escape marker"


def _nul_records(rec: Records) -> list[r.Record]:
    """NUL and the escape marker in every kind of text column, JSON ones included."""
    return [
        rec.repo("acme/widgets", description="nul \x00 in a description"),
        rec.issue(1, title="title\x00", body=NUL_BODY, labels=["la\x00bel", MARKED, "plain"]),
        rec.pr(2, head_ref="branch\x00", body=MARKED),
        rec.comment(1, id=11, body=NUL_BODY, author="a\x00b"),
        rec.comment(1, id=12, body="\x00"),
        rec.review(2, id=21, body=MARKED + "\x00"),
        rec.review_comment(2, id=31, body=NUL_BODY, diff_hunk="@@ -1 +1 @@\n-\x00\n+x"),
        rec.file(2, "src/plain.py", patch="+\x00 added"),
        rec.sync_state("issues", cursor="2026-02-24T05:00:00Z"),
    ]


def test_nul_and_marker_text_round_trip_on_both_backends(store: Store, rec: Records) -> None:
    written = _nul_records(rec)
    seed(store, written)
    seed(store, written)  # the upsert path too
    assert _dump(store) == [x.model_dump_json() for x in written]
    with store.engine.connect() as conn:
        raw = dict(conn.execute(sa.text("SELECT id, body FROM comments")).all())
        plain = conn.execute(sa.text("SELECT path FROM pr_files")).scalar_one()
    assert plain == "src/plain.py"  # ordinary text is stored as it is
    if store.dialect == "postgresql":
        assert raw[11] == "\ufdd0" + json.dumps(NUL_BODY, ensure_ascii=False)
        assert "\x00" not in raw[11] + raw[12]
    else:
        assert raw[11] == NUL_BODY


LONE = "half an emoji: \ud83d, and its other half alone: \ude00"


def _lone_surrogate_records(rec: Records) -> list[r.Record]:
    """What GitHub's JSON can spell ("\\ud83d" with no pair): a str no UTF-8 encoder takes,
    in every kind of text column, JSON ones included (#25)."""
    return [
        rec.repo("acme/widgets", description=LONE),
        rec.issue(1, title="title \ud83d", body=LONE, labels=["la\ud83dbel", "plain"]),
        rec.pr(2, head_ref="branch\udfff", body=LONE, author="\ud800"),
        rec.comment(1, id=11, body=LONE),
        rec.review(2, id=21, body=LONE + "\x00"),
        rec.review_comment(2, id=31, body=LONE, diff_hunk="@@ -1 +1 @@\n-\ud83d\n+x"),
        rec.file(2, "src/\ud83d.py", patch="+\ud83d added"),
    ]


def test_lone_surrogates_round_trip_on_both_backends(store: Store, rec: Records) -> None:
    written = _lone_surrogate_records(rec)
    seed(store, written)
    seed(store, written)  # the upsert path too
    with store.engine.connect() as conn:
        read = list(read_records(conn, store.require_repo(conn, "acme/widgets")))
    assert [x.model_dump() for x in read] == [x.model_dump() for x in written]
    with store.engine.connect() as conn:
        raw = conn.execute(sa.text("SELECT body FROM comments WHERE id = 11")).scalar_one()
    # Stored as the marker and a JSON literal that spells the surrogate \\ud83d: valid UTF-8.
    assert raw == TEXT_MARK + json.dumps(LONE) and raw.encode("utf-8")


def test_a_snapshot_of_lone_surrogates_is_utf8_with_replacements_and_says_so(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    seed(store, _lone_surrogate_records(rec))
    path = tmp_path / "snap.jsonl"
    with pytest.warns(TidingsWarning, match=r"7 records hold text no UTF-8 file can hold"):
        export_snapshot(store, "acme/widgets", path)
    text = path.read_bytes().decode("utf-8")  # valid UTF-8, every line
    assert "title \ufffd" in text and "\\ud83d" not in text
    other = Store.open(f"sqlite:///{tmp_path / 'other.db'}")
    try:
        import_snapshot(other, path)  # and it imports
    finally:
        other.close()


def test_nul_in_cached_model_answers(store: Store) -> None:
    value = {"summary": "a\x00b", "items": ["\x00", MARKED], "\x00key": 1}
    row = {
        "key": "k" * 64,
        "kind": "daily",
        "model": "m\x00",
        "created_at": ts("2026-02-24T00:00:00Z"),
        "value": value,
        "prompt_tokens": 1,
        "completion_tokens": 2,
    }
    with store.begin() as conn:
        store.upsert(conn, schema.llm_cache, [row])
    with store.engine.connect() as conn:
        got = conn.execute(sa.select(schema.llm_cache)).mappings().one()
    assert got["value"] == value and got["model"] == "m\x00"


@given(st.text())
def test_text_escape_is_reversible_and_leaves_ordinary_text_alone(text: str) -> None:
    stored_text = escape_text(text)
    assert "\x00" not in stored_text
    assert unescape_text(stored_text) == text
    if "\x00" not in text and not text.startswith(TEXT_MARK):
        assert stored_text == text


@given(st.text(st.characters(codec=None, exclude_categories=())))
def test_text_with_lone_surrogates_escapes_to_encodable_text(text: str) -> None:
    stored_text = escape_text(text)
    stored_text.encode("utf-8")  # no lone surrogate is left to refuse it
    assert unescape_text(stored_text) == text


# -- ids per repository (issue #10, case 6) ---------------------------------------------------


def test_same_comment_and_review_ids_in_two_repositories(store: Store, rec: Records) -> None:
    def repo(name: str, body: str) -> list[r.Record]:
        return [
            rec.repo(name),
            rec.issue(1),
            rec.pr(2),
            rec.comment(1, id=11, body=body),
            rec.review(2, id=21, body=body),
            rec.review_comment(2, id=31, review_id=21, body=body),
        ]

    first, second = repo("acme/widgets", "first"), repo("other/widgets", "second")
    seed(store, first)
    seed(store, second)
    assert _dump(store, "acme/widgets") == [x.model_dump_json() for x in first]
    assert _dump(store, "other/widgets") == [x.model_dump_json() for x in second]
    repo_id = seed(store, [rec.repo("acme/widgets")])
    with store.begin() as conn:
        assert store.mark_deleted(conn, schema.comments, repo_id, [11]) == 1
    assert '"deleted":true' not in "".join(_dump(store, "other/widgets"))
