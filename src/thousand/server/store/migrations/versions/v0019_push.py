"""Web Push: ``push_subscriptions``, the accounts' browsers that asked for turn notices
(issue 31; server/store/push.py).

One row a browser's subscription, keyed by its push service's endpoint, with the
browser's public keys its messages are encrypted with, the page's language and when;
deleted with its account (a foreign key that cascades).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("endpoint", sa.String(1024), primary_key=True),
        sa.Column("player_id", sa.String(24),
                  sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions",
                    ["player_id", "created"])


def downgrade() -> None:
    op.drop_index("ix_push_subscriptions_player", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
