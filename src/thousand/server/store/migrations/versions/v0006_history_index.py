"""The history's index: tables by (listed, created, id).

A page of the public history (``Store.games``: the listed tables, newest first) and its
count walked the ``tables`` rows themselves, a kilobyte of rules each: with 100,000 games
a page took 100 ms on SQLite and a deep page a second (benchmarks/site_speed.py).  With
this index both are read from the index alone, and only the page's 50 rows from the table.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_tables_history", "tables", ["listed", "created", "id"])


def downgrade() -> None:
    op.drop_index("ix_tables_history", table_name="tables")
