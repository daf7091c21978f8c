"""Presence, challenges and friends (issue 31): ``social_settings``, ``follows``,
``blocks`` and ``challenges`` (server/store/social.py says what each keeps).

New tables only: nothing before them is changed.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "social_settings",
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("strangers", sa.Boolean, nullable=False),
    )
    for name in ("follows", "blocks"):
        op.create_table(
            name,
            sa.Column("player_id", sa.String(24), primary_key=True),
            sa.Column("other_id", sa.String(24), primary_key=True),
            sa.Column("created", sa.Float, nullable=False),
        )
        op.create_index(f"ix_{name}_other", name, ["other_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("from_id", sa.String(24), nullable=False),
        sa.Column("to_id", sa.String(24), nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_challenges_to", "challenges", ["to_id", "status"])
    op.create_index("ix_challenges_from", "challenges", ["from_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_from", "challenges")
    op.drop_index("ix_challenges_to", "challenges")
    op.drop_table("challenges")
    for name in ("blocks", "follows"):
        op.drop_index(f"ix_{name}_other", name)
        op.drop_table(name)
    op.drop_table("social_settings")
