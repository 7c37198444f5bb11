"""indexes so that no report or re-sync query reads a repository's whole history

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02 10:00:00.000000

A report's cost should follow the window, not the store's age (issue #14). The queries that
still read every row of a repository get an index here:

- review comments by date (the window's activity read them all);
- closing references by issue (which PRs close an issue read every reference);
- items by kind and merger, narrow and covering (who ever merged, live items per kind);
- comment and review comment counts per item with `deleted` in the index, so the re-sync
  counts them without reading a row;
- a partial index of the items marked deleted, so "is this comment's item deleted?" reads
  no items (an outer join to them made PostgreSQL hash every item for a week's comments);
- partial indexes of the items a re-sync still has to check and of the PRs whose details it
  still has to fetch, so a quiet re-sync finds none without reading every item.

Index names and columns are repeated here rather than read from schema.py: a migration states
the schema of its own revision.
"""

from __future__ import annotations

from alembic import op
from sqlalchemy import text

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

UNCHECKED = "checked_updated_at IS NULL OR checked_updated_at != updated_at"
UNDETAILED = "detail_updated_at IS NULL OR detail_updated_at != updated_at"
# (index, columns, predicate): partial indexes of the few items a sync still has to visit.
_PARTIAL = [
    ("ix_items_repo_unchecked", ["repo_id", "number"], UNCHECKED),
    ("ix_items_repo_undetailed", ["repo_id", "kind", "number"], UNDETAILED),
]

# (table, index, columns): created by upgrade, dropped by downgrade.
_NEW = [
    ("review_comments", "ix_review_comments_repo_created", ["repo_id", "created_at"]),
    ("closing_refs", "ix_closing_refs_issue", ["repo_id", "issue_repo", "issue_number"]),
    (
        "items",
        "ix_items_repo_kind_merger",
        ["repo_id", "kind", "merged_by", "number", "deleted"],
    ),
]
# (table, index, columns before, columns after): rebuilt with `deleted` added.
_WIDENED = [
    ("comments", "ix_comments_repo_number", ["repo_id", "number"]),
    ("review_comments", "ix_review_comments_repo_number", ["repo_id", "number"]),
]


def upgrade() -> None:
    for table, name, columns in _NEW:
        op.create_index(name, table, columns)
    for name, columns, where in _PARTIAL:
        op.create_index(
            name, "items", columns, sqlite_where=text(where), postgresql_where=text(where)
        )
    op.create_index(
        "ix_items_repo_deleted",
        "items",
        ["repo_id", "number"],
        sqlite_where=text("deleted IS 1"),
        postgresql_where=text("deleted IS true"),
    )
    for table, name, columns in _WIDENED:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, [*columns, "deleted"])


def downgrade() -> None:
    for table, name, columns in _WIDENED:
        op.drop_index(name, table_name=table)
        op.create_index(name, table, columns)
    op.drop_index("ix_items_repo_deleted", table_name="items")
    for name, _columns, _where in _PARTIAL:
        op.drop_index(name, table_name="items")
    for table, name, _columns in reversed(_NEW):
        op.drop_index(name, table_name=table)
