"""The local store: SQLAlchemy Core tables, migrations and idempotent writes."""

from tidings.store.db import Store, default_db_url

__all__ = ["Store", "default_db_url"]
