"""A write the store's disk refused, told as what it is.

A full disk reaches tidings as a driver error: SQLite's SQLITE_FULL ("database or disk is full";
on a new store the first write is the journal of the migration lock's `BEGIN IMMEDIATE`),
PostgreSQL's SQLSTATE 53100 ("could not extend file …: No space left on device"). It used to be
reported as a lock held for 300 s, or as "database error … check --db", whose fix is wrong.
SQLite reports a write the file system cut short for another reason (a quota, a file size
limit) as a disk I/O error, which gets the same treatment with a wider hint.
"""

from __future__ import annotations

from tidings.errors import StoreError

# PostgreSQL's SQLSTATE for disk_full (Appendix A of its manual).
PG_DISK_FULL = "53100"


def disk_error(exc: BaseException, where: str = "") -> StoreError | None:
    """The one-line error for `exc` (a SQLAlchemy error or a driver's own) when the disk
    holding the store refused a write, else None. `where` names the store (no password)."""
    orig = getattr(exc, "orig", None) or exc
    store = f"the store {where}" if where else "the store"
    name = str(getattr(orig, "sqlite_errorname", "") or "")
    first = (str(orig).strip().splitlines() or [""])[0]
    if name == "SQLITE_FULL" or first == "database or disk is full":
        return StoreError(
            f"the disk holding {store} is full (SQLite: {first})",
            "free space on that disk (or point --db at another one), then run again",
            transient=True,
        )
    if name.startswith("SQLITE_IOERR") or first == "disk I/O error":
        return StoreError(
            f"the disk holding {store} refused a write (SQLite: {first})",
            "check its free space, quota and the file size limit (ulimit -f), then run again",
        )
    if getattr(orig, "sqlstate", None) == PG_DISK_FULL:
        return StoreError(
            f"the PostgreSQL server's disk is full, so {store} cannot be written ({first})",
            "free space on the database server's disk, then run again",
            transient=True,
        )
    return None
