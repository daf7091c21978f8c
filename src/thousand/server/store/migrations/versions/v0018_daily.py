"""The deal of the day (issue 31): ``daily_days`` and ``daily_plays``.

``daily_days``: one row a day (``YYYY-MM-DD``, UTC), its secret seed (a decimal string:
128 random bits) and the commitment published while the day runs
(server/features/daily.py).  ``daily_plays``: each player's game of each of the day's
deals: the table it is played at (unique), his name and guest mark then, when it
started and finished, and his score in the deal (null until it is over).  One row per
(day, deal, player): a deal is played once.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "daily_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "daily_plays",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("deal", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("score", sa.Integer, nullable=True),
    )
    op.create_index("ix_daily_plays_player", "daily_plays", ["player_id", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_plays_player", table_name="daily_plays")
    op.drop_table("daily_plays")
    op.drop_table("daily_days")
