"""myl_history.event_seq: the event that recorded each change of approval, Fervor or VP (``/why fervor-level``)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-03 12:00:00.000000

Rows written before stay NULL: ``/why`` explains them without an event number, and says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("myl_history") as batch:
        batch.add_column(sa.Column("event_seq", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("myl_history") as batch:
        batch.drop_column("event_seq")
