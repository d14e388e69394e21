"""myl_chains.offered_at: when the coup offer open now was made, so that a `Coup:` DM sent before it (meant for an
offer since called off) is refused rather than taken as the answer to the new one (play-test M1.1)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07 05:20:00.000000

Rows written before stay NULL: a `Coup:` DM in a chain offered before is answered as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("myl_chains") as batch:
        batch.add_column(sa.Column("offered_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("myl_chains") as batch:
        batch.drop_column("offered_at")
