"""Tournaments on the site: the tournaments and who entered them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02

``tournaments`` keeps one row per tournament: its name, preset, format (``swiss`` or
``round-robin``), rounds, ``deals`` per table (None: whole games), ``status``
(``registering``, ``running``, ``over``), its creator (``players.id``), when it was made,
started and finished, and ``state``: the JSON the running tournament is rebuilt from after
a restart (the seed, each round's table ids, every recorded result —
server/features/tournaments.py).  ``tournament_entries`` keeps its players in the order they
joined: a person (``player_id``) or a bot (``bot``, its level), and the name shown.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("deals", sa.Integer, nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("creator", sa.String(40), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("state", sa.Text, nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "created"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_index("ix_tournament_entries_tournament", "tournament_entries",
                    ["tournament_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_entries_tournament", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
