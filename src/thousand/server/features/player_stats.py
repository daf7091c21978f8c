"""A player's page in the store: his totals and his last games (docs/server.md "A
player's page").

The totals are counted once, when a game ends (:func:`record_game`, called by
:func:`thousand.server.features.ratings.rate_finished` on the store's thread), into one row of
``player_stats`` per player, and each seat's game into one row of ``player_games``: the
page then reads one row and one short walk down the index ``(player_id, finished)``,
whatever the size of the site (the issue's target: p99 under 50 ms with 100,000 games),
instead of replaying his games on every request.  A game is counted once: its
``player_games`` rows say it was.

Who counts is who the ratings count (server/store/ratings.py): a person's seat is its
``seats.player_id``, a bot's ``bot:<level>``; a person's seat nobody with a session held
is nobody's, and a table of bots only is a show, not anybody's record.  Every finished
game counts, rated or not: the page tells what he played, the rating only what was rated.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from thousand.engine.game import Game
from thousand.site.ratings import places

from ..store.ratings import BOT_PREFIX, bot_player, seat_players
from ..store.tables import (
    SeatRow,
    Store,
    TableRow,
    metadata,
    players_t,
    seat_row,
    seats_t,
    tables_t,
)

__all__ = [
    "PUBLIC_SUFFIX",
    "SeatStats",
    "game_stats",
    "last_games",
    "public_row",
    "record_game",
    "replay_policy",
    "seat_players_of",
    "since",
    "stats_of",
]

# In the store's metadata; migrations/versions/v0004_player_stats.py makes them.
stats_t = sa.Table(
    "player_stats", metadata,
    sa.Column("player_id", sa.String(40), primary_key=True),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("bids", sa.Integer, nullable=False),
    sa.Column("made", sa.Integer, nullable=False),
    sa.Column("contracts", sa.Integer, nullable=False),
    sa.Column("conceded", sa.Integer, nullable=False),
    sa.Column("falls", sa.Integer, nullable=False),
    sa.Column("bolts", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

games_t = sa.Table(
    "player_games", metadata,
    sa.Column("player_id", sa.String(40), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("place", sa.Integer, nullable=False),
    sa.Column("score", sa.Integer, nullable=False),
    sa.Column("finished", sa.Float, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Index("ix_player_games_last", "player_id", "finished"),
)

def replay_policy(row: TableRow) -> str:
    """Who sees a finished game's replay and record: ``public`` or ``players``, as its
    creator chose (``TableRow.replay``), else by whether it is listed (the replay routes
    ask it, and a player's page shows a stranger only the public ones)."""
    if row.replay in ("public", "players"):
        return row.replay
    return "public" if row.listed else "players"


def seat_players_of(seats: list[SeatRow]) -> list[str | None]:
    """Each seat's player as the ratings and these pages name him: a person's player id
    (None: a seat nobody with a session holds), a bot's ``bot:<level>`` (the history
    page links the names to their pages with it)."""
    return [bot_player(s.level or "heuristic") if s.kind == "bot" else s.player_id
            for s in seats]


_COUNTS = ("games", "wins", "bids", "made", "contracts", "conceded", "falls", "bolts")


@dataclass(frozen=True, slots=True)
class SeatStats:
    """What one finished game adds to one seat's totals: the game, a win, the deals whose
    bidding he won (``bids``), the contracts he made, the sum of his contracts, the deals
    he conceded, barrel falls, bolts; and his place and final score."""

    seat: int
    win: bool
    bids: int
    made: int
    contracts: int
    conceded: int
    falls: int
    bolts: int
    place: int
    score: int


def game_stats(game: Game) -> list[SeatStats]:
    """Each seat's part of a finished game, from the engine's own deal summaries."""
    winners = game.winner if isinstance(game.winner, list) else (
        [] if game.winner is None else [game.winner])
    ranks = places(list(game.scores), game.winner)
    out = []
    for seat in range(game.n):
        declared = [s.result for s in game.summaries
                    if s.result.outcome != "redeal" and s.result.declarer == seat]
        state = game.seats[seat]
        out.append(SeatStats(
            seat=seat, win=seat in winners, bids=len(declared),
            made=sum(1 for r in declared if r.made),
            contracts=sum(r.contract or 0 for r in declared),
            conceded=state.concedes, falls=state.falls, bolts=state.bolts,
            place=ranks[seat], score=game.scores[seat]))
    return out


def record_game(store: Store, table_id: str, stats: list[SeatStats], bots: dict[int, str],
                finished: float, public: bool) -> int:
    """Add a finished game to its players' totals and games, in one transaction; how many
    players it counted for (0: counted before, or nobody's game)."""
    with store.engine.begin() as conn:
        if conn.execute(sa.select(games_t.c.player_id)
                        .where(games_t.c.table_id == table_id).limit(1)).first():
            return 0
        seated = seat_players(conn, table_id)
        who: dict[int, str] = {}
        for s in stats:
            player = bot_player(bots[s.seat]) if s.seat in bots else seated.get(s.seat)
            if player is not None:
                who[s.seat] = player
        if not any(not p.startswith(BOT_PREFIX) for p in who.values()):
            return 0
        now = time.time()
        done: set[str] = set()
        for s in stats:
            player = who.get(s.seat)
            if player is None or player in done:
                continue  # a bot level seated twice is counted for its first seat
            done.add(player)
            add = {"games": 1, "wins": int(s.win), "bids": s.bids, "made": s.made,
                   "contracts": s.contracts, "conceded": s.conceded, "falls": s.falls,
                   "bolts": s.bolts}
            for row_id in (player, public_row(player)) if public else (player,):
                changed = conn.execute(
                    stats_t.update().where(stats_t.c.player_id == row_id)
                    .values(updated=now, **{k: stats_t.c[k] + v for k, v in add.items()})
                ).rowcount
                if changed != 1:
                    conn.execute(stats_t.insert().values(player_id=row_id, updated=now,
                                                         **add))
            conn.execute(games_t.insert().values(
                player_id=player, table_id=table_id, seat=s.seat, place=s.place,
                score=s.score, finished=finished, public=public))
        return len(done)


#: ``player_stats`` keeps a second row per player, ``<player id>#public``: the totals of
#: his public games only (migration 0011 counted those before it), which is what anybody
#: but himself is shown, so that the totals tell nothing his list of games hides
#: (docs/server.md "Unlisted tables").
PUBLIC_SUFFIX = "#public"


def public_row(player: str) -> str:
    return player + PUBLIC_SUFFIX


def stats_of(store: Store, player: str, viewer: str | None = None) -> dict[str, int]:
    """A player's totals (all 0 before his first game): every game's for himself
    (``viewer``), his public games' for anybody else."""
    key = player if viewer == player else public_row(player)
    with store.engine.connect() as conn:
        row = conn.execute(sa.select(stats_t)
                           .where(stats_t.c.player_id == key)).first()
    return {k: int(getattr(row, k)) if row is not None else 0 for k in _COUNTS}


def last_games(store: Store, player: str, viewer: str | None,
               limit: int) -> list[dict[str, Any]]:
    """A player's last ``limit`` games the viewer may see, newest first: those whose
    replay is public, and those the viewer sat at himself (docs/server.md "Unlisted
    tables": an unlisted table's id is in no stranger's answer)."""
    g_t, t_t = games_t, tables_t
    shown: Any = g_t.c.public.is_(True)
    if viewer is not None:
        mine = sa.select(seats_t.c.table_id).where(seats_t.c.player_id == viewer)
        shown = sa.or_(shown, g_t.c.table_id.in_(mine))
    with store.engine.connect() as conn:
        rows = conn.execute(
            sa.select(g_t, t_t.c.preset, t_t.c.names)
            .select_from(g_t.join(t_t, t_t.c.id == g_t.c.table_id))
            .where(g_t.c.player_id == player, shown)
            .order_by(g_t.c.finished.desc()).limit(limit)).all()
        seats: dict[str, list[SeatRow]] = {}
        for q in conn.execute(sa.select(seats_t).where(
                seats_t.c.table_id.in_([r.table_id for r in rows]))
                .order_by(seats_t.c.table_id, seats_t.c.seat)).all():
            seats.setdefault(q.table_id, []).append(
                seat_row(q))
    return [{"id": r.table_id, "finished": r.finished, "preset": r.preset,
             "players": [str(n) for n in json.loads(r.names)],
             "player_ids": seat_players_of(seats.get(r.table_id, [])),
             "guests": [s.guest for s in seats.get(r.table_id, [])], "seat": r.seat,
             "place": r.place, "score": r.score} for r in rows]


def since(store: Store, player: str) -> float | None:
    """When the player was made (None for a bot, which has no row in ``players``)."""
    with store.engine.connect() as conn:
        got = conn.execute(sa.select(players_t.c.created)
                           .where(players_t.c.id == player)).scalar()
    return float(got) if got is not None else None
