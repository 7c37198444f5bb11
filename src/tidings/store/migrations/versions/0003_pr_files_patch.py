"""pr_files patch: added lines of a PR's file, for the risk rules that read code

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 22:09:10.292414
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pr_files", schema=None) as batch_op:
        batch_op.add_column(sa.Column("patch", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pr_files", schema=None) as batch_op:
        batch_op.drop_column("patch")
