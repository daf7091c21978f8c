"""What a player tells of himself (``players.country``, ``players.about``: migration
0014) and what his page counts beside his games: the rated games he abandoned and the
move clocks of the games he played (docs/server.md "A player's page")."""

from __future__ import annotations

import json

import sqlalchemy as sa

from .tables import Store, players_t, seats_t, tables_t

__all__ = ["abandoned", "clocks", "profile", "set_profile", "time_controls"]


def profile(store: Store, player_id: str) -> tuple[str | None, str | None]:
    """(country, about) of the player."""
    with store.engine.connect() as conn:
        r = conn.execute(sa.select(players_t.c.country, players_t.c.about)
                         .where(players_t.c.id == player_id)).first()
    return (r.country, r.about) if r is not None else (None, None)


def set_profile(store: Store, player_id: str, country: str | None, about: str | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(players_t.update().where(players_t.c.id == player_id)
                     .values(country=country, about=about))


def abandoned(store: Store, player_id: str) -> int:
    """How many rated games the player left after the deal (``seats.abandoned``,
    migration 0012)."""
    with store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(seats_t).where(
            seats_t.c.player_id == player_id, seats_t.c.abandoned.is_(True))).scalar_one())


def clocks(store: Store, player_id: str) -> list[float]:
    """The move clocks (seconds a move) of the games the player finished, each once,
    shortest first.  The hook for the clock categories (issue 31): when the tables keep a
    category of their own, this is where it is read instead."""
    with store.engine.connect() as conn:
        values = conn.execute(
            sa.select(tables_t.c.clock).distinct()
            .join(seats_t, seats_t.c.table_id == tables_t.c.id)
            .where(seats_t.c.player_id == player_id, tables_t.c.status == "over",
                   tables_t.c.clock.is_not(None))).scalars()
        return sorted(float(v) for v in values)


def time_controls(store: Store, player_id: str) -> list[tuple[float, float]]:
    """The game clocks (base and increment, seconds) of the games the player finished,
    each once, shortest first: what his page names as the categories he plays (fast,
    normal, unhurried, or one of a table's own).  A game's clock is stored as it stood
    after its last move (``tables.game_clock``), its control in it."""
    with store.engine.connect() as conn:
        stored = conn.execute(
            sa.select(tables_t.c.game_clock)
            .join(seats_t, seats_t.c.table_id == tables_t.c.id)
            .where(seats_t.c.player_id == player_id, tables_t.c.status == "over",
                   tables_t.c.game_clock.is_not(None))).scalars()
        found = {(float(c["base"]), float(c["increment"]))
                 for c in map(json.loads, stored) if "base" in c and "increment" in c}
    return sorted(found)
