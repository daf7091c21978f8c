"""A player's public totals: a second ``player_stats`` row, ``<player>#public``.

A player's page showed anybody his totals over every game, unlisted ones too, while its
list of games hid those (issue 27).  Anybody but himself is now shown the totals of his
public games only (``player_stats.stats_of``), kept as each game ends.  For the games
before, this counts what ``player_games`` knows of the public ones: a player all of whose
games are public gets his whole row; one with a game that is not public gets his public
games and wins (the deals' numbers of those were only ever summed with the others').

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None

SUFFIX = "#public"
_COUNTS = ("games", "wins", "bids", "made", "contracts", "conceded", "falls", "bolts")
_stats = sa.table("player_stats", sa.column("player_id", sa.String),
                  sa.column("updated", sa.Float), *(sa.column(c, sa.Integer) for c in _COUNTS))
_games = sa.table("player_games", sa.column("player_id", sa.String),
                  sa.column("place", sa.Integer), sa.column("public", sa.Boolean))


def upgrade() -> None:
    conn = op.get_bind()
    hidden = set(conn.execute(sa.select(_games.c.player_id).where(
        _games.c.public.is_(False)).distinct()).scalars())
    public = {r.player_id: (int(r.games), int(r.wins)) for r in conn.execute(
        sa.select(_games.c.player_id, sa.func.count().label("games"),
                  sa.func.sum(sa.case((_games.c.place == 1, 1), else_=0)).label("wins"))
        .where(_games.c.public.is_(True)).group_by(_games.c.player_id))}
    now = time.time()
    for row in conn.execute(sa.select(_stats).where(
            _stats.c.player_id.not_like("%" + SUFFIX))).all():
        if row.player_id in hidden:
            games, wins = public.get(row.player_id, (0, 0))
            values = dict.fromkeys(_COUNTS, 0) | {"games": games, "wins": wins}
        else:
            values = {c: getattr(row, c) for c in _COUNTS}
        conn.execute(_stats.insert().values(player_id=row.player_id + SUFFIX,
                                            updated=now, **values))


def downgrade() -> None:
    op.get_bind().execute(_stats.delete().where(_stats.c.player_id.like("%" + SUFFIX)))
