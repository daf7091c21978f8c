"""Tables: ``game_clock``, a time control's state (issue 31).

A table may play to a time control (a game clock with an increment: server/live/
time_control.py) besides the older move clock (``clock``, seconds a move).  Its control
and each seat's remaining time and timed-out moves in a row are kept as JSON, written
with each move in the move's own transaction and fence, so that a restart or another
worker's take-over resumes the clock where the last move left it.  The rows before have
none: they keep their move clock.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("game_clock", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("game_clock")
