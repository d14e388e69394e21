"""dice_seeds, dice_rolls: the committed seeds of a game's dice and every roll made from them (docs/dice.md)

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 04:40:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "dice_seeds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.Integer(), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("salt", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_dice_seeds_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dice_seeds")),
        sa.UniqueConstraint("game_id", "scope", name=op.f("uq_dice_seeds_game_id_scope")),
    )
    op.create_table(
        "dice_rolls",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.Integer(), nullable=False),
        sa.Column("purpose", sa.String(length=200), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("sides", sa.Integer(), nullable=False),
        sa.Column("face", sa.Integer(), nullable=False),
        sa.Column("sealed", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_dice_rolls_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_dice_rolls")),
        sa.UniqueConstraint("game_id", "scope", "purpose", "index",
                            name=op.f("uq_dice_rolls_game_id_scope_purpose_index")),
    )


def downgrade() -> None:
    op.drop_table("dice_rolls")
    op.drop_table("dice_seeds")
