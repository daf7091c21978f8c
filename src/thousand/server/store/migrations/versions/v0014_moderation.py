"""Moderation and profiles (issue 31): players' ``role``, ``muted_until``, ``closed``,
``country`` and ``about``; the ``reports`` and the ``moderation_log``.

``role`` is ``moderator`` for the players ``thousand admin grant-moderator`` named (else
null); ``muted_until`` the time a moderator's site-wide chat mute ends; ``closed`` when a
moderator closed the account (it can no longer sign in; unlike a deleted account its name
stays taken and its data kept).  ``country`` (ISO 3166 alpha-2) and ``about`` (plain text)
are what a player tells of himself on his page.

``reports``: who reported whom, why (a reason of a fixed list and a short text), at which
table, the table's chat as it was then (a JSON snapshot: the lines may be read later even
if the table is gone), when, its status (``open``, ``dismissed``, ``acted``), and who
handled it.  ``moderation_log``: every moderator's action, never changed.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=True))
        batch.add_column(sa.Column("muted_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("closed", sa.Float, nullable=True))
        batch.add_column(sa.Column("country", sa.String(2), nullable=True))
        batch.add_column(sa.Column("about", sa.Text, nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.String(24), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("reported_id", sa.String(24), nullable=False),
        sa.Column("reported_name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("chat", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("handled_by", sa.String(24), nullable=True),
        sa.Column("handled", sa.Float, nullable=True),
    )
    op.create_index("ix_reports_status", "reports", ["status", "created"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("moderator_id", sa.String(24), nullable=True),
        sa.Column("moderator_name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(24), nullable=True),
        sa.Column("player_name", sa.String(64), nullable=False),
        sa.Column("report_id", sa.Integer, nullable=True),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])


def downgrade() -> None:
    op.drop_index("ix_moderation_log_at", table_name="moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_reports_status", table_name="reports")
    op.drop_table("reports")
    with op.batch_alter_table("players") as batch:
        for column in ("about", "country", "closed", "muted_until", "role"):
            batch.drop_column(column)
