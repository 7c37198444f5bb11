"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29 21:43:56.468458
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import tidings.store.types

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "http_cache",
        sa.Column("key", sa.Text(), nullable=False),
        sa.Column("etag", sa.Text(), nullable=True),
        sa.Column("last_modified", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "repositories",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("full_name", sa.String(length=200), nullable=False),
        sa.Column("github_id", sa.String(length=100), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("default_branch", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("full_name"),
    )
    op.create_table(
        "closing_refs",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("issue_repo", sa.String(length=200), nullable=False),
        sa.Column("issue_number", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "number", "issue_repo", "issue_number"),
    )
    op.create_table(
        "comments",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("github_id", sa.String(length=100), nullable=True),
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=20), nullable=True),
        sa.Column("author_association", sa.String(length=30), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("created_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("reactions", tidings.store.types.JSONType, nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.create_index("ix_comments_repo_created", ["repo_id", "created_at"], unique=False)
        batch_op.create_index("ix_comments_repo_number", ["repo_id", "number"], unique=False)

    op.create_table(
        "items",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=5), nullable=False),
        sa.Column("github_id", sa.String(length=100), nullable=True),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=20), nullable=True),
        sa.Column("author_association", sa.String(length=30), nullable=True),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("state_reason", sa.String(length=30), nullable=True),
        sa.Column("draft", sa.Boolean(), nullable=True),
        sa.Column("locked", sa.Boolean(), nullable=False),
        sa.Column("labels", tidings.store.types.JSONType, nullable=False),
        sa.Column("created_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("closed_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.Column("merged_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.Column("merged", sa.Boolean(), nullable=True),
        sa.Column("merged_by", sa.String(length=100), nullable=True),
        sa.Column("merge_commit_sha", sa.String(length=64), nullable=True),
        sa.Column("additions", sa.Integer(), nullable=True),
        sa.Column("deletions", sa.Integer(), nullable=True),
        sa.Column("changed_files", sa.Integer(), nullable=True),
        sa.Column("commits", sa.Integer(), nullable=True),
        sa.Column("base_ref", sa.Text(), nullable=True),
        sa.Column("head_ref", sa.Text(), nullable=True),
        sa.Column("head_sha", sa.String(length=64), nullable=True),
        sa.Column("review_decision", sa.String(length=30), nullable=True),
        sa.Column("reactions", tidings.store.types.JSONType, nullable=False),
        sa.Column("comments_count", sa.Integer(), nullable=False),
        sa.Column("review_comments_count", sa.Integer(), nullable=True),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.Column("detail_updated_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.Column("checked_updated_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "number"),
    )
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.create_index("ix_items_repo_closed", ["repo_id", "closed_at"], unique=False)
        batch_op.create_index("ix_items_repo_created", ["repo_id", "created_at"], unique=False)
        batch_op.create_index("ix_items_repo_merged", ["repo_id", "merged_at"], unique=False)
        batch_op.create_index("ix_items_repo_updated", ["repo_id", "updated_at"], unique=False)

    op.create_table(
        "pr_files",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("previous_path", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=True),
        sa.Column("additions", sa.Integer(), nullable=True),
        sa.Column("deletions", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "number", "path"),
    )
    op.create_table(
        "review_comments",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("review_id", sa.BigInteger(), nullable=True),
        sa.Column("in_reply_to_id", sa.BigInteger(), nullable=True),
        sa.Column("github_id", sa.String(length=100), nullable=True),
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=20), nullable=True),
        sa.Column("author_association", sa.String(length=30), nullable=True),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("original_line", sa.Integer(), nullable=True),
        sa.Column("side", sa.String(length=10), nullable=True),
        sa.Column("diff_hunk", sa.Text(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("commit_sha", sa.String(length=64), nullable=True),
        sa.Column("created_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("reactions", tidings.store.types.JSONType, nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("review_comments", schema=None) as batch_op:
        batch_op.create_index("ix_review_comments_repo_number", ["repo_id", "number"], unique=False)

    op.create_table(
        "reviews",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("github_id", sa.String(length=100), nullable=True),
        sa.Column("author", sa.String(length=100), nullable=True),
        sa.Column("author_type", sa.String(length=20), nullable=True),
        sa.Column("author_association", sa.String(length=30), nullable=True),
        sa.Column("state", sa.String(length=30), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("submitted_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.Column("commit_sha", sa.String(length=64), nullable=True),
        sa.Column("comments_count", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=True),
        sa.Column("deleted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.create_index("ix_reviews_repo_number", ["repo_id", "number"], unique=False)
        batch_op.create_index(
            "ix_reviews_repo_submitted", ["repo_id", "submitted_at"], unique=False
        )

    op.create_table(
        "sync_state",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("stream", sa.String(length=50), nullable=False),
        sa.Column("cursor", sa.Text(), nullable=True),
        sa.Column("updated_at", tidings.store.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "stream"),
    )


def downgrade() -> None:
    op.drop_table("sync_state")
    with op.batch_alter_table("reviews", schema=None) as batch_op:
        batch_op.drop_index("ix_reviews_repo_submitted")
        batch_op.drop_index("ix_reviews_repo_number")

    op.drop_table("reviews")
    with op.batch_alter_table("review_comments", schema=None) as batch_op:
        batch_op.drop_index("ix_review_comments_repo_number")

    op.drop_table("review_comments")
    op.drop_table("pr_files")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_repo_updated")
        batch_op.drop_index("ix_items_repo_merged")
        batch_op.drop_index("ix_items_repo_created")
        batch_op.drop_index("ix_items_repo_closed")

    op.drop_table("items")
    with op.batch_alter_table("comments", schema=None) as batch_op:
        batch_op.drop_index("ix_comments_repo_number")
        batch_op.drop_index("ix_comments_repo_created")

    op.drop_table("comments")
    op.drop_table("closing_refs")
    op.drop_table("repositories")
    op.drop_table("http_cache")
