"""owed_messages: the outgoing queue, so every receipt and announcement is delivered across rate limits and restarts

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 15:10:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "owed_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("lane", sa.String(length=160), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("nonce", sa.String(length=25), nullable=False),
        sa.Column("coalesce", sa.String(length=160), nullable=True),
        sa.Column("source_id", sa.String(length=64), nullable=True),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("owed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_owed_messages")),
        sa.UniqueConstraint("nonce", name=op.f("uq_owed_messages_nonce")),
    )
    op.create_index(op.f("ix_owed_messages_coalesce"), "owed_messages", ["coalesce"], unique=False)
    op.create_index(op.f("ix_owed_messages_source_id"), "owed_messages", ["source_id"], unique=False)
    op.create_index("ix_owed_messages_waiting", "owed_messages", ["outcome", "priority", "id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_owed_messages_waiting", table_name="owed_messages")
    op.drop_index(op.f("ix_owed_messages_source_id"), table_name="owed_messages")
    op.drop_index(op.f("ix_owed_messages_coalesce"), table_name="owed_messages")
    op.drop_table("owed_messages")
