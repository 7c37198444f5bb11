"""diff evidence: items patch_sha, review_threads, pr_commits

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 08:20:00.000000

The GitHub sync fetches the changed lines of merged PRs (REST `/pulls/N/files`) so the risk
rules and the model read code without a clone; this column lets a re-sync skip every PR whose
merge (or head) commit is the one its patches came from. `review_threads` keeps each inline
review thread's resolution and `pr_commits` each PR's commit times, so facts can tell a point
no later commit followed. Both are filled by the next read of a PR's details.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tidings.store.types import UTCDateTime

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("patch_sha", sa.String(length=64), nullable=True))
    op.create_table(
        "review_threads",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("comment_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("resolved", sa.Boolean(), nullable=True),
        sa.Column("outdated", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "number", "comment_id"),
    )
    op.create_table(
        "pr_commits",
        sa.Column("repo_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("sha", sa.String(length=64), nullable=False),
        sa.Column("committed_at", UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["repo_id"], ["repositories.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("repo_id", "number", "sha"),
    )


def downgrade() -> None:
    op.drop_table("pr_commits")
    op.drop_table("review_threads")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_column("patch_sha")
