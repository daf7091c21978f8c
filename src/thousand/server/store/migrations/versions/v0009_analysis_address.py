"""Analyses: the address that asked, so that one address holds only a few of the queue's
slots (docs/server.md "Limits", "Analysis").

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

Every fresh guest is a client of his own, so counting the analyses per client let one
address take the whole queue with sixty guests.  ``address`` (the asker's address, as
the limits see it) is counted beside ``client``; the rows asked before it have none
(``""``), and count for no address.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("analyses") as batch:
        batch.add_column(sa.Column("address", sa.String(64), nullable=False,
                                   server_default=""))
    op.create_index("ix_analyses_address", "analyses", ["address", "status"])


def downgrade() -> None:
    op.drop_index("ix_analyses_address", table_name="analyses")
    with op.batch_alter_table("analyses") as batch:
        batch.drop_column("address")
