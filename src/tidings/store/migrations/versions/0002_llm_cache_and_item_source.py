"""llm cache, item source and unresolved threads

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 22:04:35.438419
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import tidings.store.types

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "llm_cache",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=50), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("created_at", tidings.store.types.UTCDateTime(), nullable=False),
        sa.Column("value", tidings.store.types.JSONType, nullable=False),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("unresolved_threads", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_column("unresolved_threads")
        batch_op.drop_column("source")

    op.drop_table("llm_cache")
