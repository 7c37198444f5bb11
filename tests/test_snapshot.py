"""Snapshots: exact round trips, and every kind of bad file refused without touching the store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.factories import Records, seed
from tests.store.test_store import _every_type, _nul_records
from tidings.common import records as r
from tidings.errors import SnapshotError, StoreError
from tidings.sources.snapshot import VERSION, export_snapshot, import_snapshot
from tidings.store import Store
from tidings.store.rows import read_records


def _body(path: Path) -> list[str]:
    """The snapshot without its header's export time."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header.pop("exported_at")
    return [json.dumps(header), *lines[1:]]


@pytest.fixture
def filled(store: Store, rec: Records) -> Store:
    seed(store, _every_type(rec))
    seed(store, [rec.repo("other/repo"), rec.issue(5, title="second repo")])
    return store


def test_round_trip_is_byte_identical(filled: Store, tmp_path: Path) -> None:
    first = tmp_path / "one.jsonl"
    counts = export_snapshot(filled, None, first)
    assert counts.repositories == ["acme/widgets", "other/repo"]

    fresh = Store.open(f"sqlite:///{tmp_path / 'fresh.db'}")
    imported = import_snapshot(fresh, first)
    assert imported.to_dict() == counts.to_dict()
    second = tmp_path / "two.jsonl"
    export_snapshot(fresh, None, second)
    assert _body(first) == _body(second)

    # Back into the same backend the first export came from.
    import_snapshot(filled, second)
    third = tmp_path / "three.jsonl"
    export_snapshot(filled, None, third)
    assert _body(third) == _body(first)


def test_header_shape(filled: Store, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    export_snapshot(filled, "ACME/widgets", out)
    lines = out.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header"
    assert header["format"] == "tidings-snapshot"
    assert header["version"] == VERSION
    assert header["tool"].startswith("tidings ")
    assert header["exported_at"].endswith("Z")
    assert header["repositories"][0]["full_name"] == "acme/widgets"
    assert sum(header["repositories"][0]["records"].values()) == len(lines) - 1
    assert json.loads(lines[1])["type"] == "repository"
    assert "仓库" in lines[1]  # stored as UTF-8, not \u escapes


def test_import_twice_is_idempotent(filled: Store, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    export_snapshot(filled, None, out)
    for _ in range(2):
        import_snapshot(filled, out)
    again = tmp_path / "again.jsonl"
    export_snapshot(filled, None, again)
    assert _body(again) == _body(out)


def test_import_upserts_into_existing_store(store: Store, rec: Records, tmp_path: Path) -> None:
    seed(store, [rec.repo(), rec.issue(1, title="old"), rec.issue(2)])
    src = Store.open(f"sqlite:///{tmp_path / 'src.db'}")
    seed(src, [rec.repo(), rec.issue(1, title="new"), rec.issue(3)])
    snap = tmp_path / "s.jsonl"
    export_snapshot(src, "acme/widgets", snap)
    import_snapshot(store, snap)
    out = tmp_path / "out.jsonl"
    export_snapshot(store, "acme/widgets", out)
    items = [json.loads(x) for x in out.read_text().splitlines()[1:] if '"type":"item"' in x]
    assert [(i["number"], i["title"]) for i in items] == [
        (1, "new"),
        (2, "issue 2"),
        (3, "issue 3"),
    ]


def test_export_unknown_repo_writes_nothing(store: Store, tmp_path: Path) -> None:
    out = tmp_path / "s.jsonl"
    with pytest.raises(StoreError, match="not in the store"):
        export_snapshot(store, "nobody/here", out)
    assert list(tmp_path.glob("*.jsonl*")) == [] or not out.exists()
    assert not any(p.name.startswith(".s.jsonl") for p in tmp_path.iterdir())


def _lines(filled: Store, tmp_path: Path) -> list[str]:
    good = tmp_path / "good.jsonl"
    export_snapshot(filled, None, good)
    return good.read_text(encoding="utf-8").splitlines(keepends=True)


def _edit_field(line: str, **changes: object) -> str:
    obj = json.loads(line)
    obj.update(changes)
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _future_header(lines: list[str]) -> list[str]:
    return [_edit_field(lines[0], version=VERSION + 1), *lines[1:]]


def _renamed_in_header(lines: list[str]) -> list[str]:
    header = json.loads(lines[0])
    header["repositories"][0]["full_name"] = "someone/else"
    return [json.dumps(header) + "\n", *lines[1:]]


BAD = {
    "bad JSON line": (
        lambda ls: [*ls[:3], '{"type": "item", "number": \n', *ls[4:]],
        4,
        "not valid JSON",
    ),
    # 50,000 nested arrays were a RecursionError traceback (#25).
    "nested 50,000 deep": (
        lambda ls: [*ls[:3], '{"type": "item", "x": ' + "[" * 50_000 + "]" * 50_000 + "}\n"],
        4,
        "nested too deeply",
    ),
    "unknown type": (
        lambda ls: [*ls[:3], _edit_field(ls[3], type="gizmo"), *ls[4:]],
        4,
        "unknown record type 'gizmo'",
    ),
    "wrong field type": (
        lambda ls: [*ls[:2], _edit_field(ls[2], number="two"), *ls[3:]],
        3,
        "field 'number'",
    ),
    "unknown field": (
        lambda ls: [*ls[:2], _edit_field(ls[2], colour="red"), *ls[3:]],
        3,
        "unknown field 'colour'",
    ),
    "missing header": (lambda ls: ls[1:], 1, "missing header"),
    "future version": (_future_header, 1, f"version {VERSION + 1} is newer"),
    "truncated mid-line": (lambda ls: [*ls[:-1], ls[-1][: len(ls[-1]) // 2]], None, "truncated"),
    "truncated at a line end": (lambda ls: ls[:-2], None, "truncated"),
    "empty file": (lambda ls: [], 1, "empty file"),
    "header disagrees": (_renamed_in_header, 2, "not where the header lists it"),
    "duplicate record": (lambda ls: [*ls[:3], ls[2], *ls[4:]], 4, "duplicate item"),
    # Values the store cannot hold: PostgreSQL failed mid-import on them with a bare driver
    # error, SQLite with a traceback (OverflowError), or they were stored and broke later reads.
    "comment id above 2**63": (
        lambda ls: [*ls[:4], _edit_field(ls[4], id=2**63), *ls[5:]],
        5,
        "comment record id 9223372036854775808 is out of range",
    ),
    "PR number above 2**31": (
        lambda ls: [*ls[:3], _edit_field(ls[3], number=3_000_000_000), *ls[4:]],
        4,
        "item record number 3000000000 is out of range",
    ),
    "line number above 2**31": (
        lambda ls: [*ls[:6], _edit_field(ls[6], original_line=2**31), *ls[7:]],
        7,
        "review_comment record original_line 2147483648 is out of range",
    ),
    "year 9999": (
        lambda ls: [*ls[:2], _edit_field(ls[2], updated_at="9999-12-31T23:59:59Z"), *ls[3:]],
        3,
        "item record updated_at 9999-12-31T23:59:59Z is out of range",
    ),
    "year 10000 once in UTC": (
        lambda ls: [*ls[:4], _edit_field(ls[4], created_at="9999-12-31T23:59:59-01:00"), *ls[5:]],
        5,
        "comment record field 'created_at': Value error, timestamp 9999-12-31T23:59:59-01:00 is "
        "out of range",
    ),
    # Format 2's records (lines 10-12: a review thread, two PR commits) are checked alike.
    "thread's resolved not a boolean": (
        lambda ls: [*ls[:9], _edit_field(ls[9], resolved="yes"), *ls[10:]],
        10,
        "review_thread record field 'resolved': Input should be a valid boolean",
    ),
    "thread without its comment": (
        lambda ls: [*ls[:9], ls[9].replace('"comment_id":31,', ""), *ls[10:]],
        10,
        "review_thread record field 'comment_id': Field required",
    ),
    "thread comment id above 2**63": (
        lambda ls: [*ls[:9], _edit_field(ls[9], comment_id=2**63), *ls[10:]],
        10,
        "review_thread record comment_id 9223372036854775808 is out of range",
    ),
    "duplicate thread": (
        lambda ls: [*ls[:10], ls[9], *ls[11:]],
        11,
        "duplicate review_thread record (first on line 10)",
    ),
    "commit time in year 9999": (
        lambda ls: [*ls[:10], _edit_field(ls[10], committed_at="9999-01-01T00:00:00Z"), *ls[11:]],
        11,
        "pr_commit record committed_at 9999-01-01T00:00:00Z is out of range",
    ),
    "commit without a sha": (
        lambda ls: [*ls[:10], _edit_field(ls[10], sha=None), *ls[11:]],
        11,
        "pr_commit record field 'sha': Input should be a valid string",
    ),
    # PostgreSQL refused it mid-import with a bare driver error; SQLite stored it.
    "commit sha past its column": (
        lambda ls: [*ls[:10], _edit_field(ls[10], sha="f" * 65), *ls[11:]],
        11,
        "pr_commit record sha is 65 characters long (the store holds at most 64)",
    ),
    "format 2 records under a version 1 header": (
        lambda ls: [_edit_field(ls[0], version=1), *ls[1:]],
        3,  # item 1's `patch_sha` (null here): a version 1 reader knew no such field
        "item field 'patch_sha' came with snapshot format version 2, but the header says version 1",
    ),
    "before 1970": (
        lambda ls: [*ls[:5], _edit_field(ls[5], submitted_at="1969-12-31T23:59:59Z"), *ls[6:]],
        6,
        "review record submitted_at 1969-12-31T23:59:59Z is out of range (the store holds years "
        "1970–2099)",
    ),
}


@pytest.mark.slow_on_postgres  # many cases, each a fresh store: SQLite is enough to iterate on
@pytest.mark.parametrize("case", list(BAD))
def test_malformed_snapshot_leaves_store_unchanged(
    case: str, filled: Store, tmp_path: Path
) -> None:
    lines = _lines(filled, tmp_path)
    edit, line_no, problem = BAD[case]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(edit(lines)), encoding="utf-8")
    before = tmp_path / "before.jsonl"
    export_snapshot(filled, None, before)
    # Change the would-be import so that a partial write would show.
    (tmp_path / "changed.jsonl").write_text(
        "".join(
            edit([_edit_field(x, title="CHANGED") if '"type":"item"' in x else x for x in lines])
        ),
        encoding="utf-8",
    )

    for path in (bad, tmp_path / "changed.jsonl"):
        with pytest.raises(SnapshotError) as info:
            import_snapshot(filled, path)
        message = info.value.one_line()
        assert "\n" not in message
        assert str(path) in message
        if line_no is not None:
            assert f"line {line_no}:" in message
        else:
            assert ", line " in message
        assert problem in message
        assert "—" in message  # carries a fix

    after = tmp_path / "after.jsonl"
    export_snapshot(filled, None, after)
    assert _body(after) == _body(before)


def test_the_extreme_values_the_store_holds_round_trip(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    """The limits are the columns' own: the largest and smallest values import and come back
    exactly, on both backends."""
    source = Store.open(f"sqlite:///{tmp_path / 'source.db'}")
    top = 2**31 - 1
    seed(
        source,
        [
            rec.repo(),
            rec.issue(top, "1970-01-01T00:00:00Z", updated_at="2099-12-31T23:59:59Z"),
            rec.comment(top, "2099-12-31T23:59:59Z", id=2**63 - 1),
            rec.review(top, "1970-01-01T00:00:00Z", id=-(2**63), comments_count=top),
            rec.review_comment(top, id=1, line=-(2**31), review_id=2**63 - 1),
        ],
    )
    first = tmp_path / "first.jsonl"
    export_snapshot(source, None, first)
    source.close()
    import_snapshot(store, first)
    second = tmp_path / "second.jsonl"
    export_snapshot(store, None, second)
    assert _body(second) == _body(first)


@pytest.mark.postgres
def test_sqlite_and_postgresql_exports_are_identical(sqlite_url: str, pg_url: str, tmp_path):
    """The demo sample (non-ASCII paths and text included) exports to the same bytes from both."""
    from tidings.demo import SAMPLE_PATH

    outputs = []
    for url in (sqlite_url, pg_url):
        store = Store.open(url)
        try:
            import_snapshot(store, SAMPLE_PATH)
            out = tmp_path / f"{len(outputs)}.jsonl"
            export_snapshot(store, None, out)
            outputs.append(out.read_text(encoding="utf-8").splitlines()[1:])
        finally:
            store.close()
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 600


@pytest.mark.postgres
def test_nul_text_moves_from_sqlite_to_postgresql_byte_for_byte(
    sqlite_url: str, pg_url: str, tmp_path: Path, rec: Records
) -> None:
    """Issue #10, case 5: NUL in text used to make the import (and every sync) fail on
    PostgreSQL; now the snapshot goes there and back unchanged."""
    bodies = []
    source = tmp_path / "from-sqlite.jsonl"
    for url, src, out in (
        (sqlite_url, None, source),
        (pg_url, source, tmp_path / "from-pg.jsonl"),
        (f"sqlite:///{tmp_path / 'back.db'}", tmp_path / "from-pg.jsonl", tmp_path / "back.jsonl"),
    ):
        store = Store.open(url)
        try:
            if src is None:
                seed(store, _nul_records(rec))
            else:
                import_snapshot(store, src)
            export_snapshot(store, None, out)
        finally:
            store.close()
        bodies.append(_body(out))
    assert "\\u0000" in "".join(bodies[0])  # JSON's spelling of NUL, in the file
    assert bodies[0] == bodies[1] == bodies[2]


def test_another_repositorys_snapshot_with_the_same_ids_lands_beside(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    """Issue #10, case 6: importing a snapshot whose comment and review ids collide with
    another repository's used to move those rows over, leaving the first with none."""

    def repo(name: str) -> list[r.Record]:
        return [
            rec.repo(name),
            rec.issue(1),
            rec.pr(2),
            rec.comment(1, id=11, body=f"in {name}"),
            rec.review(2, id=21, body=f"in {name}"),
            rec.review_comment(2, id=31, review_id=21, body=f"in {name}"),
        ]

    seed(store, repo("acme/widgets"))
    before = tmp_path / "before.jsonl"
    export_snapshot(store, "acme/widgets", before)

    other = Store.open(f"sqlite:///{tmp_path / 'ghe.db'}")
    try:
        seed(other, repo("acme/widgets-enterprise"))
        snap = tmp_path / "ghe.jsonl"
        export_snapshot(other, None, snap)
    finally:
        other.close()
    import_snapshot(store, snap)

    after = tmp_path / "after.jsonl"
    export_snapshot(store, "acme/widgets", after)
    assert _body(after) == _body(before)
    both = tmp_path / "both.jsonl"
    counts = export_snapshot(store, None, both)
    assert counts.records["comment"] == counts.records["review"] == 2
    assert counts.records["review_comment"] == 2


def _git_store(store: Store, rec: Records) -> Store:
    seed(
        store,
        [
            rec.repo(),
            rec.issue(1, "2026-02-24T03:31:00Z"),
            rec.git_pr(2, merged="2026-02-24T09:00:00Z"),
        ],
    )
    return store


def _items_by_number(store: Store) -> dict[int, r.ItemRecord]:
    with store.engine.connect() as conn:
        found = list(read_records(conn, store.require_repo(conn, "acme/widgets")))
    return {x.number: x for x in found if isinstance(x, r.ItemRecord)}


def test_an_unknown_open_time_round_trips_as_null(store: Store, rec: Records, tmp_path: Path):
    """A git PR's created_at is unknown (issue #22): exported as null, imported as NULL."""
    out = tmp_path / "s.jsonl"
    export_snapshot(_git_store(store, rec), None, out)
    items = [json.loads(x) for x in out.read_text().splitlines() if '"type":"item"' in x]
    assert [(i["number"], i["created_at"]) for i in items] == [
        (1, "2026-02-24T03:31:00Z"),
        (2, None),
    ]
    fresh = Store.open(f"sqlite:///{tmp_path / 'fresh.db'}")
    import_snapshot(fresh, out)
    got = _items_by_number(fresh)
    assert got[2].created_at is None and got[2].merged_at is not None
    assert got[1].created_at is not None


def test_an_older_snapshots_git_pr_loses_its_commit_time(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    """Before format 3 a git PR carried a commit time as created_at: it imports as unknown;
    an API item keeps its time."""
    out = tmp_path / "s.jsonl"
    export_snapshot(_git_store(store, rec), None, out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    old = [_edit_field(lines[0], version=2)] + [
        _edit_field(x, created_at="2026-02-24T08:00:00Z") if '"number":2,' in x else x
        for x in lines[1:]
    ]
    (tmp_path / "old.jsonl").write_text("".join(old), encoding="utf-8")
    fresh = Store.open(f"sqlite:///{tmp_path / 'fresh.db'}")
    import_snapshot(fresh, tmp_path / "old.jsonl")
    got = _items_by_number(fresh)
    assert got[2].created_at is None
    assert got[1].created_at is not None and got[1].created_at.isoformat().startswith(
        "2026-02-24T03:31"
    )


def test_a_null_open_time_under_a_version_2_header_is_refused(
    store: Store, rec: Records, tmp_path: Path
) -> None:
    out = tmp_path / "s.jsonl"
    export_snapshot(_git_store(store, rec), None, out)
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    (tmp_path / "bad.jsonl").write_text(
        "".join([_edit_field(lines[0], version=2), *lines[1:]]), encoding="utf-8"
    )
    with pytest.raises(
        SnapshotError, match="'created_at' null came with snapshot format version 3"
    ):
        import_snapshot(Store.open(f"sqlite:///{tmp_path / 'fresh.db'}"), tmp_path / "bad.jsonl")
