"""The site's ratings in the store: each player's rating per family, the changes every
rated game made, the leaderboard and a player's history (docs/server.md "Ratings").

The rating itself is :mod:`thousand.site.ratings` (openskill's Plackett–Luce, one rating
per preset family); this module only keeps it.  Every call runs on the store's thread
(``Hub.write``/``Hub.db``), one transaction each: :func:`rate_table` reads the players'
ratings, rates the game and writes the new ratings and the changes together, so a game is
rated whole or not at all, and never twice (a table already in ``rating_changes`` is
answered from there).

Who played: a person's seat is ``seats.player_id`` (the accounts' column), a bot's
``bot:<level>``.  A bot without a rating in a family starts from the bot ladder's
``classic`` ratings (``thousand/site/bot_ratings.json``): a better first guess than a new
player's 1500 for a bot whose strength the ladder measured.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from thousand.site.ratings import Rating, rate_scores

from ..names import name_key
from .tables import Store, check_fence, metadata, players_t, seats_t, tables_t

__all__ = ["BOT_PREFIX", "Change", "bot_player", "bot_seed", "changes_of_table",
           "copy_players", "fill_bots", "free_seat", "leaderboard", "player_history",
           "rate_table", "set_seat_player"]

#: A bot's player id is this and its level (``bot:heuristic``).
BOT_PREFIX = "bot:"
#: The family the bot ladder's ratings were measured in.
_SEED_FAMILY = "classic"

#: A person's rating over fewer rated games than this is provisional: the leaderboard
#: shows him (a first game must find him there, not only bots), marked so.
PROVISIONAL_GAMES = 3

# In the store's metadata (beside its tables), so that the schema the migrations make is
# the model's; migrations/versions/v0003_ratings.py makes them.
ratings_t = sa.Table(
    "ratings", metadata,
    sa.Column("player_id", sa.String(40), primary_key=True),
    sa.Column("family", sa.String(32), primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("display", sa.Integer, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
    sa.Index("ix_ratings_board", "family", "display", "player_id"),
    sa.Index("ix_ratings_games", "family", "games"),
)

changes_t = sa.Table(
    "rating_changes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player_id", sa.String(40), nullable=False),
    sa.Column("family", sa.String(32), nullable=False),
    sa.Column("before", sa.Integer, nullable=False),
    sa.Column("after", sa.Integer, nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_rating_changes_table", "table_id", "seat"),
    sa.Index("ix_rating_changes_player", "player_id", "family", "id"),
)


class _Taken(Exception):
    """A seat was taken meanwhile: the transaction is given up."""


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated game did to one seat's player: the numbers shown before and after
    (``delta`` their difference, «+31 → 1531»), μ and σ after."""

    seat: int
    player: str
    family: str
    before: int
    after: int
    mu: float
    sigma: float

    @property
    def delta(self) -> int:
        return self.after - self.before

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "player": self.player, "family": self.family,
                "before": self.before, "after": self.after, "delta": self.delta,
                "mu": round(self.mu, 4), "sigma": round(self.sigma, 4)}


def bot_player(level: str) -> str:
    """The player id of a bot level."""
    return BOT_PREFIX + level


@cache
def _bot_seeds() -> dict[str, tuple[Rating, int]]:
    text = resources.files("thousand.site").joinpath("bot_ratings.json").read_text("utf-8")
    data = json.loads(text)
    return {level: (Rating(float(r["mu"]), float(r["sigma"])), int(r["games"]))
            for level, r in data["bots"].items()}


def bot_seed(level: str) -> tuple[Rating, int] | None:
    """A bot level's starting rating and the ladder games behind it (None: no seed)."""
    return _bot_seeds().get(level)


def _start(player: str) -> tuple[Rating, int]:
    if player.startswith(BOT_PREFIX):
        seed = bot_seed(player[len(BOT_PREFIX):])
        if seed is not None:
            return seed
    return Rating(), 0


def site_games(player: str, games: int) -> int:
    """The rated games a ratings row's ``games`` counts on this site: a bot's row starts
    from its ladder's games (_start), which were never played here — the leaderboard and
    the bot's page both show the site's own, so that they agree."""
    seed = bot_seed(player[len(BOT_PREFIX):]) if player.startswith(BOT_PREFIX) else None
    return max(0, games - seed[1]) if seed is not None else games


def _changes(conn: Connection, table_id: str) -> list[Change]:
    rows = conn.execute(sa.select(changes_t).where(changes_t.c.table_id == table_id)
                        .order_by(changes_t.c.seat)).all()
    return [Change(r.seat, r.player_id, r.family, r.before, r.after, r.mu, r.sigma)
            for r in rows]


def changes_of_table(store: Store, table_id: str) -> list[Change]:
    """The rating changes a table's game made (empty: not rated)."""
    with store.engine.connect() as conn:
        return _changes(conn, table_id)


def seat_players(conn: Connection, table_id: str) -> dict[int, str | None]:
    """Each seat's ``player_id`` (None: a seat nobody with a session holds)."""
    rows = conn.execute(sa.select(seats_t.c.seat, seats_t.c.player_id)
                        .where(seats_t.c.table_id == table_id)).all()
    return {int(r[0]): r[1] for r in rows}


def rate_table(store: Store, table_id: str, family: str, scores: Sequence[int],
               winner: int | list[int] | None, bots: dict[int, str]) -> list[Change]:
    """Rate a finished game (``bots``: seat -> level of its bot seats), in one
    transaction; the changes made, or the ones made before (a game is rated once), or
    nothing when the game cannot be rated: a person's seat held by no player, one player
    in two seats, or no person at all (a table of bots is a show anybody can run without
    end; it must not move the bots' ratings)."""
    with store.engine.begin() as conn:
        done = _changes(conn, table_id)
        if done:
            return done
        seated = seat_players(conn, table_id)
        players: list[str] = []
        for seat in range(len(scores)):
            if seat in bots:
                players.append(bot_player(bots[seat]))
                continue
            who = seated.get(seat)
            if who is None:
                return []
            players.append(who)
        people = [p for p in players if not p.startswith(BOT_PREFIX)]
        if not people or len(set(people)) != len(people):
            return []
        rows = conn.execute(sa.select(ratings_t).where(
            ratings_t.c.family == family, ratings_t.c.player_id.in_(set(players)))).all()
        known = {r.player_id: (Rating(r.mu, r.sigma), r.games) for r in rows}
        before = [known.get(p) or _start(p) for p in players]
        result = rate_scores([b[0] for b in before], list(scores), winner)
        now = time.time()
        out: list[Change] = []
        written: set[str] = set()
        for seat, (player, change) in enumerate(zip(players, result, strict=True)):
            # a bot level seated twice plays against itself: its own rating learns nothing
            # from that game (it stays), while its seats still place the others
            alone = players.count(player) == 1
            after = change.after if alone else change.before
            out.append(Change(seat, player, family, change.before.display, after.display,
                              after.mu, after.sigma))
            if player in written:
                continue
            written.add(player)
            games = before[seat][1] + (1 if alone else 0)
            values = {"mu": after.mu, "sigma": after.sigma, "display": after.display,
                      "games": games, "updated": now}
            if player in known:
                conn.execute(ratings_t.update().where(ratings_t.c.player_id == player,
                                                      ratings_t.c.family == family)
                             .values(**values))
            else:
                conn.execute(ratings_t.insert().values(player_id=player, family=family,
                                                       **values))
        conn.execute(changes_t.insert(), [
            {"table_id": table_id, "seat": c.seat, "player_id": c.player, "family": family,
             "before": c.before, "after": c.after, "mu": c.mu, "sigma": c.sigma, "at": now}
            for c in out
        ])
        return out


def _name(player: str, name: str | None) -> str | None:
    return name if not player.startswith(BOT_PREFIX) else None


def leaderboard(store: Store, family: str, min_games: int, limit: int,
                offset: int) -> tuple[list[dict[str, Any]], int]:
    """The players of a family with at least ``min_games`` rated games, by the number
    shown (highest first; equal numbers by player id), and how many there are.  Deleted
    accounts are left out.

    Fast at any size: the page is a walk down the index ``(family, display, player_id)``
    that stops after ``offset + limit`` rows, and the count is the ratings' own (one
    range of the index ``(family, games)``) less the deleted accounts' (few), not a join
    of every rated player."""
    r_t, p_t = ratings_t, players_t
    board = sa.and_(r_t.c.family == family, r_t.c.games >= min_games)
    # the same, but ``games + 0`` is no column an index has: the planner must not walk
    # (family, games) for the page (and then sort it) or for the deleted few
    walk = sa.and_(r_t.c.family == family, r_t.c.games + 0 >= min_games)
    joined = r_t.outerjoin(p_t, p_t.c.id == r_t.c.player_id)
    with store.engine.connect() as conn:
        rated = conn.execute(sa.select(sa.func.count()).select_from(r_t)
                             .where(board)).scalar_one()
        deleted = sa.select(p_t.c.id).where(p_t.c.deleted.is_not(None)).scalar_subquery()
        gone = conn.execute(sa.select(sa.func.count()).select_from(r_t)
                            .where(walk, r_t.c.player_id.in_(deleted))).scalar_one()
        rows = conn.execute(
            sa.select(r_t, p_t.c.name, p_t.c.kind).select_from(joined)
            .where(walk, p_t.c.deleted.is_(None))
            .order_by(r_t.c.display.desc(), r_t.c.player_id.desc())
            .limit(limit).offset(offset)).all()
        total = int(rated) - int(gone)
    out = []
    for i, r in enumerate(rows):
        bot = r.player_id.startswith(BOT_PREFIX)
        out.append({"place": offset + i + 1, "player": r.player_id,
                    "kind": "bot" if bot else (r.kind or "guest"),
                    "name": _name(r.player_id, r.name),
                    "level": r.player_id[len(BOT_PREFIX):] if bot else None,
                    "rating": r.display, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
                    "games": site_games(r.player_id, r.games),
                    "provisional": not bot and r.games < PROVISIONAL_GAMES})
    return out, total


def find_player(store: Store, name: str) -> tuple[str, str, str | None] | None:
    """(id, kind, name) of ``bot:<level>``, a player id, or an account's name (in any
    case); None when there is none (or the account was deleted)."""
    if name.startswith(BOT_PREFIX):
        level = name[len(BOT_PREFIX):]
        return (name, "bot", None) if bot_seed(level) is not None else None
    with store.engine.connect() as conn:
        r = conn.execute(sa.select(players_t).where(
            sa.or_(players_t.c.id == name,
                   sa.and_(players_t.c.kind == "account",
                           players_t.c.name_key == name_key(name))),
            players_t.c.deleted.is_(None)).limit(1)).first()
    return (r.id, r.kind, r.name) if r is not None else None


def player_history(store: Store, player: str, limit: int) -> dict[str, Any]:
    """A player's rating in each family and its last ``limit`` changes, oldest first
    (for a chart); a bot's ladder rating in a family it has not played yet is not shown."""
    with store.engine.connect() as conn:
        now = {r.family: r for r in conn.execute(
            sa.select(ratings_t).where(ratings_t.c.player_id == player)).all()}
        families: dict[str, Any] = {}
        for family, r in sorted(now.items()):
            rows = conn.execute(
                sa.select(changes_t).where(changes_t.c.player_id == player,
                                           changes_t.c.family == family)
                .order_by(changes_t.c.id.desc()).limit(limit)).all()
            # an unlisted table is found only through its link: its id is not shown here
            listed = set(conn.execute(sa.select(tables_t.c.id).where(
                tables_t.c.id.in_({c.table_id for c in rows}),
                tables_t.c.listed.is_(True))).scalars())
            families[family] = {
                "rating": r.display, "mu": round(r.mu, 4), "sigma": round(r.sigma, 4),
                "games": site_games(player, r.games),
                "history": [{"table": c.table_id if c.table_id in listed else None,
                             "before": c.before, "after": c.after,
                             "delta": c.after - c.before, "at": c.at}
                            for c in reversed(rows)],
            }
    seed = bot_seed(player[len(BOT_PREFIX):]) if player.startswith(BOT_PREFIX) else None
    if seed is not None and _SEED_FAMILY not in families:
        # a bot not yet rated here: the ladder's rating it starts from
        rating, _ = seed
        families[_SEED_FAMILY] = {"rating": rating.display, "mu": round(rating.mu, 4),
                                  "sigma": round(rating.sigma, 4), "games": 0,
                                  "history": []}
    return families


# --------------------------------------------------------------------------- seats


def set_seat_player(store: Store, table_id: str, seat: int, player_id: str | None) -> None:
    """Say whose a seat is (``seats.player_id``) after it was taken."""
    with store.engine.begin() as conn:
        conn.execute(seats_t.update().where(seats_t.c.table_id == table_id,
                                           seats_t.c.seat == seat)
                     .values(player_id=player_id))


def free_seat(store: Store, table_id: str, seat: int, token_hash: str, name: str,
              names: Sequence[str], *, fence: int | None = None) -> bool:
    """Give back a person's seat at a waiting table (its token, name and player
    cleared); False when that token no longer holds it or the game has begun.
    ``fence``: the writer's lease (store.check_fence)."""
    with store.engine.begin() as conn:
        check_fence(conn, table_id, fence)
        status = conn.execute(sa.select(tables_t.c.status)
                              .where(tables_t.c.id == table_id)).scalar()
        if status != "waiting":
            return False
        done = conn.execute(
            seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                                  seats_t.c.token_hash == token_hash)
            .values(token_hash=None, name=name, player_id=None, guest=False)).rowcount
        if done != 1:
            return False
        conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                     .values(names=json.dumps(list(names), ensure_ascii=False)))
    return True


def fill_bots(store: Store, table_id: str, seats: dict[int, tuple[str, str]],
              names: Sequence[str], status: str, *, fence: int | None = None) -> bool:
    """Seat bots (seat -> (level, name)) in free seats of a waiting table; False (nothing
    changed) when one of them was taken meanwhile."""
    try:
        with store.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            for seat, (level, name) in seats.items():
                done = conn.execute(
                    seats_t.update().where(seats_t.c.table_id == table_id,
                                          seats_t.c.seat == seat, seats_t.c.kind == "human",
                                          seats_t.c.token_hash.is_(None))
                    .values(kind="bot", level=level, name=name)).rowcount
                if done != 1:
                    raise _Taken
            conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                         .values(names=json.dumps(list(names), ensure_ascii=False),
                                 status=status))
    except _Taken:
        return False
    return True


def copy_players(store: Store, old: str, new: str) -> None:
    """A rematch's seats belong to the players of the old table's seats."""
    with store.engine.begin() as conn:
        for seat, player in seat_players(conn, old).items():
            if player is not None:
                conn.execute(seats_t.update().where(seats_t.c.table_id == new,
                                                   seats_t.c.seat == seat)
                             .values(player_id=player))
