"""Fair and private tables: the seed's salt and whether a person chose the seed, open seats, secret moves.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Tables made before this revision handed their seed to the creator: they count as chosen seeds
    # and have no commitment (no salt).
    op.add_column("tt_tables", sa.Column("salt", sa.String(64), nullable=True))
    op.add_column(
        "tt_tables", sa.Column("seed_chosen", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column("tt_seats", sa.Column("open", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("tt_moves", sa.Column("secret", sa.Boolean(), nullable=False, server_default=sa.false()))
    # "open" now means "has a seat anyone may take"; older tables kept every seat for its link.
    op.execute("UPDATE tt_tables SET status = 'running' WHERE status = 'open'")


def downgrade() -> None:
    op.drop_column("tt_moves", "secret")
    op.drop_column("tt_seats", "open")
    op.drop_column("tt_tables", "seed_chosen")
    op.drop_column("tt_tables", "salt")
