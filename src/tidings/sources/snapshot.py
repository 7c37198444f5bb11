"""Snapshots: the store as versioned JSON Lines, for backups, hand-off and test fixtures.

The format is documented in docs/snapshot.md. Export writes to a temporary file beside the
target and renames it into place, so a crash never leaves half a snapshot under the real name.
Import reads the whole file twice: once to validate every line, then again inside one
transaction to write, so a bad line anywhere leaves the store exactly as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from pydantic import ValidationError
from pydantic_core import PydanticSerializationError

from tidings._version import __version__
from tidings.common import records as r
from tidings.common.outputs import atomic_file, write_error
from tidings.common.textsafe import without_surrogates
from tidings.errors import SnapshotError, TidingsWarning
from tidings.store.db import Store
from tidings.store.limits import row_problem
from tidings.store.rows import (
    TABLES,
    read_records,
    repository_names,
    update_repository,
    write_records,
)

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

FORMAT = "tidings-snapshot"
# 2: review threads' state, PR commits and items' patch_sha; 3: an item's created_at may be
# null, unknown (a PR read from a git clone) (docs/snapshot.md, Versioning).
VERSION = 3
# Before this version a PR read from a git clone carried a commit time as its created_at.
_UNKNOWN_OPENED = 3
# What each version added. A file whose header names an older version cannot hold them (it
# was edited or mislabelled); a file of that older version imports without them.
_SINCE_TYPE = {"review_thread": 2, "pr_commit": 2}
_SINCE_FIELD = {"item": {"patch_sha": 2}}
# Import writes this many records per upsert batch; keeps memory flat on big snapshots.
_BATCH = 2000
_FIX = "repair or re-create the snapshot with `tidings export OWNER/REPO FILE.jsonl`"
# Count types in a fixed order so the header is byte-stable.
_TYPES = tuple(r.RECORD_TYPES)


def _empty_counts() -> dict[str, int]:
    return dict.fromkeys(_TYPES, 0)


@dataclass
class SnapshotCounts:
    """What an export wrote or an import read: record counts per type, and the repositories."""

    repositories: list[str] = field(default_factory=list)
    records: dict[str, int] = field(default_factory=_empty_counts)

    @property
    def total(self) -> int:
        return sum(self.records.values())

    def to_dict(self) -> dict[str, Any]:
        return {"repositories": self.repositories, "records": self.records, "total": self.total}


# -- export -------------------------------------------------------------------------------


def export_snapshot(
    store: Store, full_name: str | None, path: str | os.PathLike[str]
) -> SnapshotCounts:
    """Write one repository (or all, when `full_name` is None) to `path` as a snapshot."""
    target = Path(path)
    counts = SnapshotCounts()
    per_repo: list[dict[str, Any]] = []
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise SnapshotError(
            f"cannot write {target}: folder {directory} does not exist", "create it first"
        )
    # The header carries per-repository counts (so import can spot a file cut at a line
    # boundary), but they are only known after reading: write the body to an unnamed temp
    # file beside the target (the same disk, and nothing left behind even by kill -9), then
    # the header plus body to a second one that is renamed into place.
    try:
        with tempfile.TemporaryFile("w+b", dir=directory) as body:
            with store.engine.connect() as conn, conn.begin():
                for name in repository_names(store, conn, full_name):
                    repo_counts = _write_repo(conn, store.require_repo(conn, name), body)
                    counts.repositories.append(name)
                    for kind, n in repo_counts.items():
                        counts.records[kind] += n
                    per_repo.append({"full_name": name, "records": repo_counts})
            header = {
                "type": "header",
                "format": FORMAT,
                "version": VERSION,
                "tool": f"tidings {__version__}",
                "exported_at": r.now_utc().strftime("%Y-%m-%dT%H:%M:%SZ"),
                "repositories": per_repo,
            }
            line = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode()
            body.seek(0)
            with atomic_file(target, fix="check the path") as out:
                out.write(line + b"\n")
                shutil.copyfileobj(body, out)
    except OSError as exc:  # the unnamed body file: same folder, same causes
        raise write_error(target, exc, "check the path") from exc
    return counts


def _write_repo(conn: Connection, repo_id: int, out: IO[bytes]) -> dict[str, int]:
    counts = _empty_counts()
    replaced: list[str] = []
    for record in read_records(conn, repo_id):
        try:
            line = record.model_dump_json()
        except PydanticSerializationError:
            line = _with_replacements(record)
            replaced.append(_record_name(record))
        out.write(line.encode() + b"\n")
        counts[record.type] += 1  # type: ignore[attr-defined]
    if replaced:
        shown = ", ".join(replaced[:3]) + (
            f" and {len(replaced) - 3} more" if len(replaced) > 3 else ""
        )
        warnings.warn(
            f"{len(replaced)} records hold text no UTF-8 file can hold (a lone surrogate, half "
            f"an emoji, in {shown}): written with U+FFFD in its place; the store keeps the "
            "original",
            TidingsWarning,
            stacklevel=2,
        )
    return counts


def _with_replacements(record: r.Record) -> str:
    # A lone surrogate has no UTF-8 spelling, and Pydantic's parser refuses its JSON escape.
    return type(record).model_validate(without_surrogates(record.model_dump())).model_dump_json()


def _record_name(record: r.Record) -> str:
    number = getattr(record, "number", None) or getattr(record, "issue_number", None)
    return f"{record.type} #{number}" if number else str(record.type)  # type: ignore[attr-defined]


# -- reading and validating -----------------------------------------------------------------


class _Reader:
    """Yields (repository name, record) from a snapshot, raising SnapshotError on any flaw."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header: dict[str, Any] = {}
        self.version = VERSION

    def fail(self, line_no: int, problem: str, fix: str = _FIX) -> SnapshotError:
        return SnapshotError(f"{self.path}, line {line_no}: {problem}", fix)

    def __iter__(self) -> Iterator[tuple[str, r.Record]]:
        try:
            handle = self.path.open("rb")
        except OSError as exc:
            raise SnapshotError(
                f"cannot read snapshot {self.path}: {exc.strerror}",
                "check the path and its permissions",
            ) from exc
        with handle:
            yield from self._records(handle)

    def _lines(self, handle: IO[bytes]) -> Iterator[tuple[int, str]]:
        line_no = 0
        for line_no, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                raise self.fail(line_no, "truncated: the last line has no newline")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise self.fail(line_no, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
            if not text.strip():
                raise self.fail(line_no, "blank line")
            yield line_no, text
        if line_no == 0:
            raise self.fail(1, "empty file, expected the snapshot header")

    def _records(self, handle: IO[bytes]) -> Iterator[tuple[str, r.Record]]:
        current: str | None = None
        section_line = 0
        expected: list[dict[str, Any]] = []
        seen: dict[str, int] = {}
        # Two rows with one key would make PostgreSQL's upsert fail mid-import; catch it here.
        keys: dict[tuple[Any, ...], int] = {}
        line_no = 0
        for line_no, text in self._lines(handle):
            obj = self._json(line_no, text)
            kind = obj.get("type")
            if line_no == 1:
                expected = self._check_header(obj)
                continue
            if kind == "header":
                raise self.fail(line_no, "a second header; only the first line may be a header")
            cls = r.RECORD_TYPES.get(kind) if isinstance(kind, str) else None
            if cls is None or not isinstance(kind, str):
                known = ", ".join(_TYPES)
                raise self.fail(line_no, f"unknown record type {kind!r} (expected one of {known})")
            self._check_version(line_no, kind, obj)
            try:
                record = cls.model_validate_json(text, strict=True)
            except ValidationError as exc:
                raise self.fail(line_no, _validation_problem(kind, exc)) from exc
            if isinstance(record, r.ItemRecord):
                record = self._opened(line_no, record)
            if kind in TABLES and (problem := row_problem(TABLES[kind], vars(record))):
                # Refused like any other flaw (all or nothing), before the store sees it.
                raise self.fail(line_no, f"{kind} record {problem}")
            if isinstance(record, r.RepositoryRecord):
                if current is not None:
                    self._check_count(line_no, section_line, current, seen, expected)
                current, section_line = record.full_name, line_no
                seen = _empty_counts()
            elif current is None:
                raise self.fail(line_no, f"a {kind} record before any repository record")
            key = _key(current, record)
            if key in keys:
                raise self.fail(line_no, f"duplicate {kind} record (first on line {keys[key]})")
            keys[key] = line_no
            seen[kind] += 1
            yield current, record
        if current is not None:
            self._check_count(line_no + 1, section_line, current, seen, expected)
        if expected:
            names = ", ".join(e["full_name"] for e in expected)
            raise self.fail(
                line_no + 1, f"truncated: the header lists {names} but the file ends before them"
            )

    def _json(self, line_no: int, text: str) -> dict[str, Any]:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise self.fail(
                line_no, f"not valid JSON ({exc.msg} at character {exc.pos + 1})"
            ) from exc
        except RecursionError as exc:  # `[[[[…` thousands deep: no record nests like that
            raise self.fail(line_no, "nested too deeply to be a record") from exc
        if not isinstance(obj, dict):
            raise self.fail(line_no, f"expected a JSON object, got {type(obj).__name__}")
        return obj

    def _check_version(self, line_no: int, kind: str, obj: dict[str, Any]) -> None:
        """Refuse what the header's format version did not have yet."""
        news = [(f"{kind} records", _SINCE_TYPE.get(kind, 1))]
        news += [
            (f"{kind} field {k!r}", v) for k, v in _SINCE_FIELD.get(kind, {}).items() if k in obj
        ]
        for what, since in news:
            if since > self.version:
                raise self.fail(
                    line_no,
                    f"{what} came with snapshot format version {since}, "
                    f"but the header says version {self.version}",
                )

    def _opened(self, line_no: int, item: r.ItemRecord) -> r.ItemRecord:
        """An item's created_at as this version says it: an older file's git PR carries a
        commit time there, which is not when the PR was opened, so it imports as unknown."""
        if self.version >= _UNKNOWN_OPENED:
            return item
        if item.created_at is None:
            raise self.fail(
                line_no,
                f"item field 'created_at' null came with snapshot format version "
                f"{_UNKNOWN_OPENED}, but the header says version {self.version}",
            )
        return item.model_copy(update={"created_at": None}) if item.source == "git" else item

    def _check_header(self, obj: dict[str, Any]) -> list[dict[str, Any]]:
        if obj.get("type") != "header" or obj.get("format") != FORMAT:
            raise self.fail(
                1,
                f"missing header: the first line must be a {FORMAT} header",
                "this is not a tidings snapshot; export one with `tidings export`",
            )
        version = obj.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise self.fail(1, f"header version must be an integer, got {version!r}")
        if version > VERSION:
            raise self.fail(
                1,
                f"snapshot format version {version} is newer than this tidings reads ({VERSION})",
                "upgrade tidings (pip install -U tidings) to import it",
            )
        if version < 1:
            raise self.fail(1, f"unknown snapshot format version {version}")
        self.version = version
        repos = obj.get("repositories")
        if not isinstance(repos, list) or not all(_valid_repo_entry(e) for e in repos):
            raise self.fail(
                1, 'header "repositories" must be a list of {"full_name", "records"} objects'
            )
        self.header = obj
        return list(repos)

    def _check_count(
        self,
        line_no: int,
        section_line: int,
        name: str,
        seen: dict[str, int],
        expected: list[dict[str, Any]],
    ) -> None:
        """At a section's end (`line_no`): does it match the header's next entry?"""
        if not expected or expected[0]["full_name"] != name:
            raise self.fail(section_line, f"repository {name} is not where the header lists it")
        want = expected.pop(0)["records"]
        for kind in _TYPES:
            if seen.get(kind, 0) != want.get(kind, 0):
                raise self.fail(
                    line_no,
                    f"truncated or edited: {name} has {seen.get(kind, 0)} {kind} records "
                    f"but the header says {want.get(kind, 0)}",
                )


def _key(repo: str, record: r.Record) -> tuple[Any, ...]:
    """The record's primary key in the store. Comment and review ids count per repository:
    another GitHub (Enterprise) or a renamed repository's snapshot may reuse them."""
    kind = record.type  # type: ignore[attr-defined]
    if kind == "repository":
        return (kind, repo.lower())
    pk = [c.name for c in TABLES[kind].primary_key.columns if c.name != "repo_id"]
    return (kind, repo.lower(), *(getattr(record, name) for name in pk))


def _valid_repo_entry(entry: object) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("full_name"), str)
        and isinstance(entry.get("records"), dict)
        and all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
            for k, v in entry["records"].items()
        )
    )


def _validation_problem(kind: str, exc: ValidationError) -> str:
    err = exc.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(p) for p in err["loc"]) or "(record)"
    if err["type"] == "extra_forbidden":
        return f"{kind} record has unknown field {where!r}"
    return f"{kind} record field {where!r}: {err['msg']}"


def read_snapshot(path: str | os.PathLike[str]) -> Iterator[tuple[str, r.Record]]:
    """Every (repository, record) of a snapshot, validated line by line as it is read."""
    return iter(_Reader(Path(path)))


# -- import -----------------------------------------------------------------------------------


def import_snapshot(store: Store, path: str | os.PathLike[str]) -> SnapshotCounts:
    """Validate the whole snapshot, then upsert it into the store in one transaction."""
    counts = SnapshotCounts()
    for name, record in read_snapshot(path):
        if isinstance(record, r.RepositoryRecord):
            counts.repositories.append(name)
        counts.records[record.type] += 1  # type: ignore[attr-defined]

    with store.begin() as conn:
        repo_id = 0
        batch: list[r.Record] = []
        # Reading again (rather than keeping pass one's records) keeps memory flat; a file
        # changed in between fails validation here and the transaction rolls back.
        for name, record in read_snapshot(path):
            if isinstance(record, r.RepositoryRecord):
                write_records(store, conn, repo_id, batch)
                batch = []
                repo_id = store.repo_id(conn, name, create=True) or 0
                update_repository(conn, repo_id, record)
                continue
            batch.append(record)
            if len(batch) >= _BATCH:
                write_records(store, conn, repo_id, batch)
                batch = []
        write_records(store, conn, repo_id, batch)
    store.refresh_planner()  # a large import leaves the planner's statistics stale
    return counts
