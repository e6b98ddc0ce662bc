"""Who is away is stored: a seat's turn timer ran out and a standby bot plays for it (security audit 23).

With several processes the flag lived only in each one's memory, and a bot worker that had not yet
heard a player's "I'm back" (or never heard it) stored its standby move all the same. The flag is
now written before a seat is marked away and cleared before "back" is answered, and a standby move
is stored only while the seat is still away here (web/tables.py ``_store_move``).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tt_seats", sa.Column("away", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("tt_seats", "away")
