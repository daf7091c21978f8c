"""E-mail and password recovery: ``player_emails`` and ``mail_tokens`` (issue 31).

An account may have one confirmed e-mail address (``player_emails``: the address as
given, its key — casefolded, the domain in IDNA — unique over the site, when it was
confirmed); an address given and not yet confirmed is only in its link's row.  The
one-time links (``mail_tokens``: confirm an address, choose a new password) keep the
SHA-256 of their secret, never the secret (server/store/recovery.py).

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
    op.create_table(
        "player_emails",
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("email_key", sa.String(254), nullable=False),
        sa.Column("verified", sa.Float, nullable=False),
    )
    op.create_index("ix_player_emails_key", "player_emails", ["email_key"], unique=True)
    op.create_table(
        "mail_tokens",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_mail_tokens_player", "mail_tokens", ["player_id", "purpose"])


def downgrade() -> None:
    op.drop_index("ix_mail_tokens_player", table_name="mail_tokens")
    op.drop_table("mail_tokens")
    op.drop_index("ix_player_emails_key", table_name="player_emails")
    op.drop_table("player_emails")
