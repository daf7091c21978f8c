"""Tables: ``game_clock``, a time control's state (issue 31).

A table may play to a time control (a game clock with an increment: server/live/
time_control.py) besides the older move clock (``clock``, seconds a move).  Its control
and each seat's remaining time and timed-out moves in a row are kept as JSON, written
with each move in the move's own transaction and fence, so that a restart or another
worker's take-over resumes the clock where the last move left it.  The rows before have
none: they keep their move clock.  (``tables`` is altered in place: a batch's copy of it
would cascade to its seats and moves on SQLite.)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # not a batch: on SQLite a batch copies the table, and dropping the old ``tables``
    # would delete its seats and moves (their foreign keys cascade)
    op.add_column("tables", sa.Column("game_clock", sa.Text, nullable=True))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":  # SQLite 3.35 drops a column in place
        op.execute("ALTER TABLE tables DROP COLUMN game_clock")
    else:
        op.drop_column("tables", "game_clock")
