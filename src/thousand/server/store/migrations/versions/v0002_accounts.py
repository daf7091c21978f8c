"""Players and their sessions; the player who holds a seat (docs/server.md "Players").

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

Existing seats keep a null ``player_id``: their tokens (in the browsers that hold them)
go on working as before, they just belong to nobody's account.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(64), nullable=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("seat_secret", sa.String(64), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("deleted", sa.Float, nullable=True),
    )
    # unique among accounts: a guest's (and a deleted account's) name_key is null
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(24),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("player_id", sa.String(24), nullable=True))
    op.create_index("ix_seats_player", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("player_id")
    op.drop_index("ix_sessions_player", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ix_players_name_key", table_name="players")
    op.drop_table("players")
