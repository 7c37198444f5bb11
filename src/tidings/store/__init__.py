"""The local store: SQLAlchemy Core tables, migrations and idempotent writes.

Every SQL statement of tidings lives in this package. `Connection` is the open transaction
`Store.begin()` yields, which callers hand back to the store's functions.
"""

from sqlalchemy.engine import Connection

from tidings.store.db import Store, default_db_url

__all__ = ["Connection", "Store", "default_db_url"]
