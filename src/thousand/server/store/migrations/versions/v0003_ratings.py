"""Ratings on the site: each player's rating per preset family, and every change a game made.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

``ratings`` keeps one row per (player, family): openskill's μ and σ, the number shown
(``display``, kept beside them so that the leaderboard is a walk down the index ``(family,
display, player_id)``, and its count one range of ``(family, games)``), how many rated
games and when it last changed. ``rating_changes`` keeps what each rated game did to each
of its players (the numbers before and after, μ and σ after): the game's page shows it,
the player's page draws his rating over time from it, and a game already in it is never
rated twice. A player is ``players.id`` (a person) or ``bot:<level>``; no foreign key,
since bots have no row in ``players``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(40), primary_key=True),
        sa.Column("family", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("display", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_board", "ratings", ["family", "display", "player_id"])
    op.create_index("ix_ratings_games", "ratings", ["family", "games"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(40), nullable=False),
        sa.Column("family", sa.String(32), nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_table", "rating_changes", ["table_id", "seat"])
    op.create_index("ix_rating_changes_player", "rating_changes",
                    ["player_id", "family", "id"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", table_name="rating_changes")
    op.drop_index("ix_rating_changes_table", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_games", table_name="ratings")
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
