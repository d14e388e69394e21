"""closed_dms: users whose DMs refused the bot (403), not DMed again until they DM the bot or a moderator says so

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02 02:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "closed_dms",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_closed_dms")),
    )


def downgrade() -> None:
    op.drop_table("closed_dms")
