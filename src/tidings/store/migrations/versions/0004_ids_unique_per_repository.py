"""comment, review and review comment ids unique per repository, not across the store

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 10:00:00.000000

GitHub's ids are only unique within one GitHub: a snapshot of another installation (GitHub
Enterprise next to github.com) or of a renamed repository imported next to the original could
reuse an id, and with `id` alone as the key the import moved those rows to the other repository.
The key becomes (repo_id, id).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import tidings.store.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TABLES = ("comments", "reviews", "review_comments")


def _author() -> list[sa.Column]:  # type: ignore[type-arg]
    return [
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=20), nullable=True),
        sa.Column("author_association", sa.String(length=30), nullable=True),
    ]


def _columns(table: str) -> list[sa.Column]:  # type: ignore[type-arg]
    """The table's columns as of revision 0003 (this revision only moves the key)."""
    times = tidings.store.types.UTCDateTime
    head = [
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
    ]
    tail = [
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
    ]
    if table == "comments":
        middle = [
            sa.Column("github_id", sa.String(length=100), nullable=True),
            *_author(),
            sa.Column("body", sa.Text(), nullable=True),
            sa.Column("created_at", times(), nullable=False),
            sa.Column("updated_at", times(), nullable=False),
            sa.Column("reactions", tidings.store.types.JSONType, nullable=False),
        ]
    elif table == "reviews":
        middle = [
            sa.Column("github_id", sa.String(length=100), nullable=True),
            *_author(),
            sa.Column("state", sa.String(length=30), nullable=False),
            sa.Column("body", sa.Text(), nullable=True),
            sa.Column("submitted_at", times(), nullable=True),
            sa.Column("commit_sha", sa.String(length=64), nullable=True),
            sa.Column("comments_count", sa.Integer(), nullable=False),
        ]
    else:
        middle = [
            sa.Column("review_id", sa.BigInteger(), nullable=True),
            sa.Column("in_reply_to_id", sa.BigInteger(), nullable=True),
            sa.Column("github_id", sa.String(length=100), nullable=True),
            *_author(),
            sa.Column("path", sa.Text(), nullable=False),
            sa.Column("line", sa.Integer(), nullable=True),
            sa.Column("original_line", sa.Integer(), nullable=True),
            sa.Column("side", sa.String(length=10), nullable=True),
            sa.Column("diff_hunk", sa.Text(), nullable=True),
            sa.Column("body", sa.Text(), nullable=True),
            sa.Column("commit_sha", sa.String(length=64), nullable=True),
            sa.Column("created_at", times(), nullable=False),
            sa.Column("updated_at", times(), nullable=False),
            sa.Column("reactions", tidings.store.types.JSONType, nullable=False),
        ]
    return [*head, *middle, *tail]


_INDEXES = {
    "comments": {
        "ix_comments_repo_number": ["repo_id", "number"],
        "ix_comments_repo_created": ["repo_id", "created_at"],
    },
    "reviews": {
        "ix_reviews_repo_number": ["repo_id", "number"],
        "ix_reviews_repo_submitted": ["repo_id", "submitted_at"],
    },
    "review_comments": {"ix_review_comments_repo_number": ["repo_id", "number"]},
}


def _shape(table: str, key: list[str]) -> sa.Table:
    """The whole table with `key` as its primary key, for SQLite's copy-and-swap."""
    return sa.Table(
        table,
        sa.MetaData(),
        *_columns(table),
        sa.PrimaryKeyConstraint(*key, name=f"pk_{table}"),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        *(sa.Index(name, *cols) for name, cols in _INDEXES[table].items()),
    )


def _set_key(key: list[str]) -> None:
    for table in TABLES:
        if op.get_bind().dialect.name == "sqlite":
            # SQLite cannot alter a key: batch mode copies the rows into a table built from
            # `copy_from` (stated in full above, rather than reflected and patched, so the old
            # key does not linger on the `id` column) and swaps it in.
            with op.batch_alter_table(table, copy_from=_shape(table, key), recreate="always"):
                pass
        else:
            op.drop_constraint(f"{table}_pkey", table, type_="primary")
            op.create_primary_key(f"{table}_pkey", table, key)


def upgrade() -> None:
    _set_key(["repo_id", "id"])


def downgrade() -> None:
    _set_key(["id"])
