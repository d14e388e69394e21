"""events.payload compressed with lz4 on PostgreSQL (docs/performance-history.md): a close's event of 10,000 voters was
compressed by pglz at every close, most of its insert's time; lz4 takes a fifth of it at about the same size.

Only new values are compressed so (the rows stored before keep theirs; PostgreSQL reads both). Nothing on SQLite,
and nothing on a server without lz4 (before 14, or built without it): the column stays as it was.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-03 12:05:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_HAS_LZ4 = sa.text("SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")


def _set(method: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql" or bind.execute(_HAS_LZ4).first() is None:
        return
    op.execute(f"ALTER TABLE events ALTER COLUMN payload SET COMPRESSION {method}")


def upgrade() -> None:
    _set("lz4")


def downgrade() -> None:
    _set("default")
