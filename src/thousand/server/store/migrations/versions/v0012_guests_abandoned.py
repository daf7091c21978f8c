"""Seats: ``guest`` and ``abandoned``; tournament entries: ``guest`` (issue 27).

A guest may not take an account's name, and every page now marks a guest's name as a
guest's, so that nobody takes «Пётр» for the account «Пётр_Т»: whether a person held the
seat (or entered the tournament) without an account is kept as he sits down (a guest who
signs up later made that name as a guest).  For the rows before, a person's seat or
entry is a guest's when its player is not an account (or it has none).

A person who leaves a rated game after the deal loses it (``LiveTable.abandon``); that
was kept in memory only, so a restart, or another worker taking the table over, forgot
it: he was no longer counted as the loser and could take his seat back.  ``abandoned``
keeps it with the seat.  Nothing before it can be known: the rows start false.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None

_players = sa.table("players", sa.column("id", sa.String), sa.column("kind", sa.String))
_seats = sa.table("seats", sa.column("kind", sa.String), sa.column("token_hash", sa.String),
                  sa.column("player_id", sa.String), sa.column("guest", sa.Boolean))
_entries = sa.table("tournament_entries", sa.column("bot", sa.String),
                    sa.column("player_id", sa.String), sa.column("guest", sa.Boolean))


def _no_account(player_id: sa.ColumnElement[str]) -> sa.ColumnElement[bool]:
    accounts = sa.select(_players.c.id).where(_players.c.kind == "account")
    return sa.or_(player_id.is_(None), player_id.not_in(accounts))


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("guest", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("abandoned", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("guest", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    conn = op.get_bind()
    conn.execute(_seats.update().where(
        _seats.c.kind == "human", _seats.c.token_hash.is_not(None),
        _no_account(_seats.c.player_id)).values(guest=True))
    conn.execute(_entries.update().where(
        _entries.c.bot.is_(None), _no_account(_entries.c.player_id)).values(guest=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("guest")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("abandoned")
        batch.drop_column("guest")
