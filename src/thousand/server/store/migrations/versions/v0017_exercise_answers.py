"""Tables: ``exercise_answers``, a player's answers to his exercises (issue 31).

Each answer to an exercise of the page ``/exercises`` is kept with the exercise's kind
(auction, exchange, play, marriage: thousand.analysis.mistake_kinds), whether it was
right and when, for the player's progress over time (server/store/exercise_answers.py).
An account's answers go with it (the foreign key cascades).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "exercise_answers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("exercise", sa.String(48), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("cost", sa.Float, nullable=False),
        sa.Column("answered", sa.Float, nullable=False),
    )
    op.create_index("ix_exercise_answers_player", "exercise_answers",
                    ["player_id", "answered"])


def downgrade() -> None:
    op.drop_index("ix_exercise_answers_player", table_name="exercise_answers")
    op.drop_table("exercise_answers")
