"""The first schema: tables, seats, moves, snapshots.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tt_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("num_players", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("turn_timer", sa.Integer(), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tt_tables_status", "tt_tables", ["status", "updated_at"])
    op.create_table(
        "tt_seats",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("joined", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "tt_moves",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("seq >= 1", name="ck_tt_moves_seq_positive"),
    )
    # Alike to the table above on purpose: a migration is frozen history, written out in full.
    op.create_table(
        "tt_snapshots",
        sa.Column(
            "table_id", sa.String(32), sa.ForeignKey("tt_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("doc", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tt_snapshots")
    op.drop_table("tt_moves")
    op.drop_table("tt_seats")
    op.drop_index("ix_tt_tables_status", table_name="tt_tables")
    op.drop_table("tt_tables")
