"""The ``exercise_answers`` rows (migration 0017; docs/server.md "Analysis"): every answer
a signed-in player gave to one of his exercises, with its kind, whether it was right and
when, so that the exercises page shows his progress over time and leaves out of the draw
what he has solved.

Every function is one transaction on the store's thread (``hub.db``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from .tables import Store, metadata

__all__ = ["Answer", "answers_of", "exercise_answers_t", "record_answer"]

# In the store's metadata; migrations/versions/v0017_exercise_answers.py makes it.
exercise_answers_t = sa.Table(
    "exercise_answers", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("exercise", sa.String(48), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("cost", sa.Float, nullable=False),
    sa.Column("answered", sa.Float, nullable=False),
    sa.Index("ix_exercise_answers_player", "player_id", "answered"),
)


@dataclass(frozen=True, slots=True)
class Answer:
    """One answer: the exercise's id and kind, whether it was right, when (epoch s)."""

    exercise: str
    kind: str
    right: bool
    answered: float


def record_answer(store: Store, player_id: str, game_id: str, exercise: str, kind: str,
                  right: bool, cost: float) -> None:
    """Keep one answer, now."""
    with store.engine.begin() as conn:
        conn.execute(sa.insert(exercise_answers_t).values(
            player_id=player_id, game_id=game_id, exercise=exercise, kind=kind,
            solved=right, cost=cost, answered=time.time()))


def answers_of(store: Store, player_id: str) -> list[Answer]:
    """The player's answers, the oldest first."""
    c = exercise_answers_t.c
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(c.exercise, c.kind, c.solved, c.answered).where(
            c.player_id == player_id).order_by(c.answered, c.id)).all()
    return [Answer(r.exercise, r.kind, bool(r.solved), float(r.answered)) for r in rows]
