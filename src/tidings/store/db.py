"""Opening the store, migrating it, and the few write primitives everything else uses."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from platformdirs import user_data_dir
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, OperationalError, SQLAlchemyError

from tidings.common.records import now_utc
from tidings.errors import InvocationError, StoreError, hide_password, redact
from tidings.store import schema
from tidings.store.disk_errors import disk_error
from tidings.store.limits import row_name, row_problem

_CHUNK = 500


class InvalidStoreURL(StoreError, InvocationError):
    """--db / TIDINGS_DB is not a database URL at all: a usage error (exit 2)."""

    exit_code = 2


def _default_folder() -> Path:
    return Path(user_data_dir("tidings"))


def default_db_url() -> str:
    return f"sqlite:///{_default_folder() / 'tidings.db'}"


def _sqlite_folder(db_path: str) -> None:
    """Make sure a SQLite file's folder exists. Only the default store's folder (in the user
    data folder, which a new user has never made) is created; any other missing folder is
    most likely a typo in --db, and creating it would hide the store somewhere unexpected."""
    folder = Path(db_path).expanduser().parent
    if folder.is_dir():
        return
    if folder.absolute() != _default_folder().absolute():
        raise StoreError(
            f"folder {folder} for the database {db_path} does not exist",
            "create it first (mkdir -p) or fix the path in --db / TIDINGS_DB",
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the folder for {db_path}: {exc.strerror}",
            "pass --db with a writable path",
        ) from exc


def _safe_url(url: str) -> str:
    """The URL with any password hidden, for messages."""
    return hide_password(url)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    # Per connection only: the lasting journal mode is set once the database is known to be a
    # tidings store (Store.open), so a refused database is left exactly as it was.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


# PostgreSQL's default cost of a random page read, chosen for spinning disks.
_PG_DEFAULT_RANDOM_PAGE_COST = "4"
# What this session uses instead when nobody configured the server's (the value PostgreSQL's
# documentation and most hosted services use for SSDs).
SSD_RANDOM_PAGE_COST = "1.1"


def _postgres_session(dbapi_conn: Any, _record: Any) -> None:
    # Timestamps come back in the session's time zone; a server set to, say, Asia/Shanghai
    # would hand back late-9999 times as year 10000, which no datetime can hold. UTC always
    # reads back what was written.
    autocommit = dbapi_conn.autocommit
    dbapi_conn.autocommit = True
    cur = dbapi_conn.cursor()
    cur.execute("SET TIME ZONE 'UTC'")
    # A report reads a window's reviews, review comments and files by PR number. With the
    # spinning-disk default the planner prices those few hundred scattered index reads above
    # reading the whole table, so on a year-old store it read every review of every PR (25 ms
    # a query, growing with history; issue #14). Only a server nobody tuned is overridden,
    # and only in this session: a value set in postgresql.conf, for the role or the database,
    # or in the URL's options is left alone.
    cur.execute("SELECT setting, source FROM pg_settings WHERE name = 'random_page_cost'")
    row = cur.fetchone()
    if row is not None and tuple(row) == (_PG_DEFAULT_RANDOM_PAGE_COST, "default"):
        cur.execute(f"SET random_page_cost = {SSD_RANDOM_PAGE_COST}")
    cur.close()
    dbapi_conn.autocommit = autocommit


class Store:
    """A migrated database holding every repository tidings knows about."""

    def __init__(self, engine: Engine) -> None:
        from tidings.store.locks import REPO_LOCK_WAIT

        self.engine = engine
        # How long a sync waits for another sync of the same repository (store/locks.py).
        self.lock_wait = REPO_LOCK_WAIT

    @classmethod
    def open(cls, url: str, *, migrate: bool = True) -> Store:
        try:
            parsed = sa.make_url(url)
        except ArgumentError as exc:
            raise InvalidStoreURL(
                f"invalid database URL {hide_password(url)!r}",
                "use sqlite:///PATH or postgresql+psycopg://USER:PASS@HOST/DB",
            ) from exc
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            db_path = parsed.database
            if not db_path or db_path == ":memory:" or parsed.query.get("mode") == "memory":
                # Each connection would get its own empty database, and all of it is gone when
                # the process ends: a sync "succeeded" into nothing.
                raise InvalidStoreURL(
                    f"database URL {hide_password(url)!r} names no file: an in-memory SQLite "
                    "store is lost when tidings exits",
                    "use sqlite:///PATH (a file) or a PostgreSQL URL",
                )
            _sqlite_folder(db_path)
        try:
            engine = sa.create_engine(parsed, **kwargs)
        except (ArgumentError, ImportError, SQLAlchemyError) as exc:
            raise StoreError(
                f"cannot use database {_safe_url(url)}: {exc.__class__.__name__}",
                "install the driver (pip install 'tidings[postgres]') or fix the URL",
            ) from exc
        if engine.dialect.name == "sqlite":
            sa.event.listen(engine, "connect", _sqlite_pragmas)
        elif engine.dialect.name == "postgresql":
            sa.event.listen(engine, "connect", _postgres_session)
        store = cls(engine)
        try:
            with engine.connect():
                pass
        except OperationalError as exc:
            engine.dispose()
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig else "connection failed"
            raise StoreError(
                f"cannot open database {_safe_url(url)}: {redact(reason)}",
                "check that the server is running and the URL (or --db / TIDINGS_DB) is right",
            ) from exc
        if migrate:
            try:
                store.migrate()
                if store.dialect == "sqlite":
                    # Readers never wait for a writer (reports during a sync). Lasting, so
                    # already set after the first open: then a no-op.
                    with engine.connect() as conn:
                        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            except SQLAlchemyError as exc:
                engine.dispose()
                full = disk_error(exc, _safe_url(url))
                if full is None:
                    raise
                raise full from exc
            except BaseException:
                engine.dispose()
                raise
        return store

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def migrate(self) -> None:
        from tidings.store.migrate import upgrade

        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def sync_lock(self, full_name: str) -> Iterator[None]:
        """Hold while syncing `full_name`: a second sync of it, in any process, waits up to
        `lock_wait` seconds for this one and then fails with one line (store/locks.py).

        A sync that returns normally has committed what it read; the planner's statistics are
        then refreshed if the store grew enough to make them stale (store/planner.py)."""
        from tidings.store.locks import repository_lock

        with repository_lock(self.engine, full_name, self.lock_wait):
            yield
        self.refresh_planner()

    def refresh_planner(self, *, force: bool = False) -> bool:
        """Re-analyse the store if its size drifted since the last analysis (or `force`), so
        reports keep reading their window through its index (store/planner.py)."""
        from tidings.store.planner import refresh

        return refresh(self.engine, force=force)

    @contextmanager
    def begin(self) -> Iterator[Connection]:
        """One transaction: everything inside commits together or not at all."""
        with self.engine.begin() as conn:
            yield conn

    # -- repositories -------------------------------------------------------------------

    def repo_id(self, conn: Connection, full_name: str, *, create: bool = False) -> int | None:
        t = schema.repositories
        found = conn.execute(
            sa.select(t.c.id).where(sa.func.lower(t.c.full_name) == full_name.lower())
        ).scalar_one_or_none()
        if found is not None or not create:
            return found
        owner, _, name = full_name.partition("/")
        insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        # Another process may add the same repository between our look-up and this insert (two
        # imports at once): let its row stand, then read it back, rather than fail.
        conn.execute(
            insert(t)
            .values(full_name=full_name, url=f"https://github.com/{owner}/{name}")
            .on_conflict_do_nothing(index_elements=["full_name"])
        )
        return self.repo_id(conn, full_name)

    def require_repo(self, conn: Connection, full_name: str) -> int:
        found = self.repo_id(conn, full_name)
        if found is None:
            raise StoreError(
                f"repository {full_name} is not in the store",
                f"run `tidings sync {full_name}` or `tidings import FILE.jsonl` first",
            )
        return found

    def repositories(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(schema.repositories.c.full_name).order_by(schema.repositories.c.full_name)
            )
            return [r[0] for r in rows]

    # -- writes ---------------------------------------------------------------------------

    @staticmethod
    def check_rows(table: sa.Table, rows: Iterable[Mapping[str, Any]]) -> None:
        """Refuse, naming the row, a value the store cannot hold (store/limits.py), rather than
        fail in the driver. The last guard: the git sync skips such records with a note and
        a snapshot import refuses them by line before they get here."""
        for row in rows:
            problem = row_problem(table, row)
            if problem is not None:
                raise StoreError(
                    f"cannot store {row_name(table, row)}: {problem}",
                    "the source sent a value tidings cannot keep; please report it",
                )

    def upsert(self, conn: Connection, table: sa.Table, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert rows, replacing any row with the same primary key. Idempotent."""
        if not rows:
            return
        self.check_rows(table, rows)
        key = [c.name for c in table.primary_key.columns]
        insert = postgresql.insert if self.dialect == "postgresql" else sqlite.insert
        stmt = insert(table)
        updates = {c.name: stmt.excluded[c.name] for c in table.columns if c.name not in key}
        stmt = (
            stmt.on_conflict_do_update(index_elements=key, set_=updates)
            if updates
            else stmt.on_conflict_do_nothing(index_elements=key)
        )
        for start in range(0, len(rows), _CHUNK):
            conn.execute(stmt, list(rows[start : start + _CHUNK]))

    def replace_children(
        self,
        conn: Connection,
        table: sa.Table,
        repo_id: int,
        numbers: int | Sequence[int],
        rows: Sequence[Mapping[str, Any]],
    ) -> None:
        """Make the complete child lists (files, closing refs) of PR `numbers` (one or
        several) exactly `rows`: one DELETE and one INSERT whatever their count."""
        self.check_rows(table, rows)
        listed = [numbers] if isinstance(numbers, int) else list(numbers)
        conn.execute(table.delete().where(table.c.repo_id == repo_id, table.c.number.in_(listed)))
        if rows:
            conn.execute(table.insert(), list(rows))

    def mark_deleted(
        self, conn: Connection, table: sa.Table, repo_id: int, ids: Iterable[int]
    ) -> int:
        """Flag rows GitHub no longer returns; they stay in the store for history."""
        ids = list(ids)
        done = 0
        for start in range(0, len(ids), _CHUNK):
            done += conn.execute(
                table.update()
                .where(table.c.repo_id == repo_id, table.c.id.in_(ids[start : start + _CHUNK]))
                .values(deleted=True)
            ).rowcount
        return done

    # -- sync state -----------------------------------------------------------------------

    def get_cursor(self, conn: Connection, repo_id: int, stream: str) -> str | None:
        t = schema.sync_state
        return conn.execute(
            sa.select(t.c.cursor).where(t.c.repo_id == repo_id, t.c.stream == stream)
        ).scalar_one_or_none()

    def set_cursor(self, conn: Connection, repo_id: int, stream: str, cursor: str | None) -> None:
        self.upsert(
            conn,
            schema.sync_state,
            [{"repo_id": repo_id, "stream": stream, "cursor": cursor, "updated_at": now_utc()}],
        )

    def get_etag(self, conn: Connection, key: str) -> str | None:
        t = schema.http_cache
        return conn.execute(sa.select(t.c.etag).where(t.c.key == key)).scalar_one_or_none()

    def get_last_modified(self, conn: Connection, key: str) -> str | None:
        t = schema.http_cache
        return conn.execute(sa.select(t.c.last_modified).where(t.c.key == key)).scalar_one_or_none()

    def set_etag(
        self, conn: Connection, key: str, etag: str | None, last_modified: str | None = None
    ) -> None:
        """Keep an answer's validators for `key`: its ETag and, where it had one, its
        `Last-Modified` (kept verbatim, to be sent back as `If-Modified-Since`)."""
        if etag or last_modified:
            row = {"key": key, "etag": etag, "last_modified": last_modified}
            self.upsert(conn, schema.http_cache, [row])

    def forget_etag(self, conn: Connection, key: str) -> None:
        """Drop a stored ETag, so the next request for `key` gets a full answer."""
        t = schema.http_cache
        conn.execute(t.delete().where(t.c.key == key))
