"""A player's page: his totals and his games, kept as each game ends.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02

``player_stats`` keeps one row per player (``players.id`` or ``bot:<level>``): games
finished and won, the deals he won the bidding of, the contracts he made, the sum of his
contracts (for the average), the deals he conceded, his barrel falls and bolts.  Adding a
game is one update of one row per seat, so the player's page reads one row, never his
whole history.  ``player_games`` keeps one row per (player, finished game): its table,
his seat, place and score, when it ended and whether its replay is public, indexed by
(player, finished) so that his last games are one walk down an index.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("bids", sa.Integer, nullable=False),
        sa.Column("made", sa.Integer, nullable=False),
        sa.Column("contracts", sa.Integer, nullable=False),
        sa.Column("conceded", sa.Integer, nullable=False),
        sa.Column("falls", sa.Integer, nullable=False),
        sa.Column("bolts", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "player_games",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("finished", sa.Float, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
    )
    op.create_index("ix_player_games_last", "player_games", ["player_id", "finished"])


def downgrade() -> None:
    op.drop_index("ix_player_games_last", table_name="player_games")
    op.drop_table("player_games")
    op.drop_table("player_stats")
