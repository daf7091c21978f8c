"""The first schema: tables, seats, moves, chat.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("names", sa.Text, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("seed", sa.String(80), nullable=False),
        sa.Column("clock", sa.Float, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("winner", sa.Text, nullable=True),
        sa.Column("scores", sa.Text, nullable=True),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_index("ix_tables_created", "tables", ["created"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(800), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_table", "chat", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_table", table_name="chat")
    op.drop_table("chat")
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_tables_created", table_name="tables")
    op.drop_index("ix_tables_status", table_name="tables")
    op.drop_table("tables")
