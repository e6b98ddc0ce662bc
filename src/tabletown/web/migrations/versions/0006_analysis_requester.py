"""Who asked for an analysis is stored (security audit 33): a few client addresses filled the whole
queue of analyses, served oldest first, and everybody else's waited behind it or was refused. With the
requester's address each may keep only a few waiting, and a worker takes them in turn by address.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tt_analyses", sa.Column("requester", sa.String(64), nullable=True))


def downgrade() -> None:
    op.drop_column("tt_analyses", "requester")
