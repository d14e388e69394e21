"""game_marks: what the bot noted about a game outside its ledger (its channel found deleted and the moderators told,
its channel told that the bot cannot read message text), so a restart does not tell it again (play-test R4.2, R4.3)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07 10:30:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_marks",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=48), nullable=False),
        sa.Column("value", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_game_marks_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "key", name=op.f("pk_game_marks")),
    )


def downgrade() -> None:
    op.drop_table("game_marks")
