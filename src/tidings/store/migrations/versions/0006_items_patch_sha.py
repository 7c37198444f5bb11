"""items patch_sha: the commit a merged PR's patches were fetched from GitHub for

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 08:20:00.000000

The GitHub sync fetches the changed lines of merged PRs (REST `/pulls/N/files`) so the risk
rules and the model read code without a clone; this column lets a re-sync skip every PR whose
merge (or head) commit is the one its patches came from.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("patch_sha", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_column("patch_sha")
