"""processes: the bot processes running on the database and the Discord shards each reads, so that a second process
reading the same shards refuses to start (play-test V3.1)

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-08 18:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("instance", sa.String(length=200), nullable=False),
        sa.Column("host", sa.String(length=200), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("shard_count", sa.Integer(), nullable=True),
        sa.Column("shard_ids", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_processes")),
    )


def downgrade() -> None:
    op.drop_table("processes")
