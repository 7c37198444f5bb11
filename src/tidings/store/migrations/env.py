"""Alembic environment: runs on the connection tidings hands over (see store/migrate.py)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from tidings.store.schema import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        # Command-line use for developers: alembic -x url=sqlite:///dev.db ...
        url = context.get_x_argument(as_dictionary=True).get("url", "sqlite:///dev.db")
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            _configure_and_run(conn)
        return
    _configure_and_run(connection)


def _configure_and_run(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run()
