"""items.created_at may be NULL: when an item was opened is unknown

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05 00:40:00.000000

A local git clone records a PR's merge, never when the PR was opened, yet the git source
stored a commit time as its `created_at`, and reports then said every merged PR was opened in
its window (issue #22). The column becomes nullable, NULL meaning "unknown", and the rows a
git sync wrote (`source = 'git'`) lose the commit time they carried; a GitHub sync of the
PR fills the real time in. Every other row keeps its value.

SQLite cannot drop a NOT NULL in place: Alembic's batch mode copies the table. Its partial
indexes (migration 0005) are dropped before and made again after, as written here, so the
copy cannot lose their predicates.
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

from tidings.store.types import UTCDateTime

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

UNCHECKED = "checked_updated_at IS NULL OR checked_updated_at != updated_at"
UNDETAILED = "detail_updated_at IS NULL OR detail_updated_at != updated_at"
# (index, columns, SQLite predicate): the items' partial indexes as of revision 0005.
_PARTIAL = [
    ("ix_items_repo_unchecked", ["repo_id", "number"], UNCHECKED),
    ("ix_items_repo_undetailed", ["repo_id", "kind", "number"], UNDETAILED),
    ("ix_items_repo_deleted", ["repo_id", "number"], "deleted IS 1"),
]


def _nullable(nullable: bool) -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        for name, _columns, _where in _PARTIAL:
            op.drop_index(name, table_name="items")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.alter_column(
            "created_at",
            existing_type=UTCDateTime(),
            nullable=nullable,
            existing_nullable=not nullable,
        )
    if sqlite:
        for name, columns, where in _PARTIAL:
            op.create_index(name, "items", columns, sqlite_where=text(where))


def upgrade() -> None:
    _nullable(True)
    op.execute("UPDATE items SET created_at = NULL WHERE source = 'git'")


def downgrade() -> None:
    # The closest time an older tidings can hold: the merge, else the last update.
    op.execute(
        "UPDATE items SET created_at = COALESCE(merged_at, updated_at) WHERE created_at IS NULL"
    )
    _nullable(False)
