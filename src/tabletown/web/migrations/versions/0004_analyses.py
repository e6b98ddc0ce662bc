"""Post-game analyses: one per finished table, made by a bot worker and kept (web/analyses.py).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tt_analyses",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("status", sa.String(16), nullable=False),  # pending, running, done, failed
        sa.Column("progress", sa.Float(), nullable=False, server_default="0"),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tt_analyses_status", "tt_analyses", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_tt_analyses_status", table_name="tt_analyses")
    op.drop_table("tt_analyses")
