"""Leases: which worker of many holds each live table (docs/server.md "Many workers").

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

``leases`` keeps one row per table a worker holds in memory (and ``tournament:<id>``
rows for the one worker that lays a tournament's rounds): the ``worker`` id, a
``fence`` that grows by one at every take-over, and when the lease ``expires`` by the
database's clock.  Only ``thousand serve --redis`` (many workers on one PostgreSQL)
reads or writes it; one process alone leaves it empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("fence", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_leases_worker", "leases", ["worker"])


def downgrade() -> None:
    op.drop_index("ix_leases_worker", table_name="leases")
    op.drop_table("leases")
