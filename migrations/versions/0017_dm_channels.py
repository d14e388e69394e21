"""dm_channels: each user's DM channel with the bot, written once it is known, so the catch-up of the DMs sent while
the bot was offline reads their history without asking Discord to open the channel first

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-08 12:45:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dm_channels",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_dm_channels")),
    )


def downgrade() -> None:
    op.drop_table("dm_channels")
