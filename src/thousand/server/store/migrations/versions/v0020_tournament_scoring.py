"""Tournaments: ``scoring``, ``places`` or ``duplicate`` (issue 31).

A duplicate tournament deals the same cards at every table of a round and ranks its
players by their scores less the mean of the others' who held the same seat's cards
(server/features/tournaments.py).  How a tournament ranks is chosen when it is made and
listed with it, so it is a column; the tournaments before rank by places.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("scoring", sa.String(16), nullable=False,
                                   server_default="places"))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("scoring")
