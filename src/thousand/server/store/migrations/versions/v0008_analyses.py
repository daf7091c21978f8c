"""Analyses: a finished game's analysis, asked for from its replay (docs/server.md "Analysis").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

``analyses`` keeps one row per game and settings (``samples``, ``view_based``, ``lang``:
the reasons are written in the asker's language, so each language is its own row): its
``status`` (``queued``, ``running``, ``done``, ``failed``), the progress (``done`` of
``total`` decisions), the ``result`` (the analysis as JSON, docs/analysis.md) or the
``error``, who asked (``account_id``, or none; ``client``: the key the limits count), the
times it was asked, started and ended, the ``worker`` that runs it and when that worker
last said it still does (``beat``), so that a job of a worker that died is queued again.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("samples", sa.Integer, nullable=False),
        sa.Column("view_based", sa.Boolean, nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("done", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.Column("account_id", sa.String(24), nullable=True),
        sa.Column("client", sa.String(80), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("started", sa.Float, nullable=True),
        sa.Column("finished", sa.Float, nullable=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("beat", sa.Float, nullable=True),
    )
    op.create_index("ix_analyses_key", "analyses",
                    ["game_id", "samples", "view_based", "lang"], unique=True)
    op.create_index("ix_analyses_status", "analyses", ["status", "id"])
    op.create_index("ix_analyses_client", "analyses", ["client", "created"])


def downgrade() -> None:
    op.drop_index("ix_analyses_client", table_name="analyses")
    op.drop_index("ix_analyses_status", table_name="analyses")
    op.drop_index("ix_analyses_key", table_name="analyses")
    op.drop_table("analyses")
