"""The deal of the day: duplicate play for people (docs/server.md "The deal of the day").

Every day (UTC) has a set of :data:`DEALS` deals of the classic rules, all drawn from the
day's secret seed: deal ``k``'s table is seeded with :func:`deal_seed` of it, so everyone
who plays deal ``k`` holds the same cards in seat 0, with the same first dealer, against
two bots of :data:`BOT_LEVEL` that the same seed makes decide alike given the same moves.
While the day runs only :func:`commitment` of its seed is shown; the seed is revealed
when the day is over (after :data:`GRACE`, so that a deal begun late is played out by
then), and anyone can check it against the commitment and that it deals the recorded
cards.  Nobody can draw the day's cards before.

A deal is played once by each player (his session's player: a guest may play, marked as
a guest), as a one-deal game in seat 0.  Its duplicate score is his score less the mean
of everyone else's on that deal (:func:`duplicate_scores`, as the duplicate arena pairs
the seatings of a set); the day's score is the sum over the deals he played.  A deal's
table cannot be closed, and it has a move clock, so the stand-in finishes a deal its
player walked away from: a bad hand is not escaped by leaving it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from thousand.engine.rules import Rules
from thousand.evaluation.duplicate import duplicate_scores

from ..checks import seat_token
from ..errors import ServerError
from ..store import daily as daily_store
from ..store.daily import DayRow, PlayRow
from ..store.tables import SeatRow, Store

if TYPE_CHECKING:
    from ..live.hub import Hub, LiveTable

__all__ = ["BOT_LEVEL", "DEALS", "GRACE", "HISTORY_DAYS", "KEPT_DAYS", "PRESET", "Daily",
           "DayLine", "Standing", "commitment", "day_of", "day_results", "deal_seed",
           "duplicate_scores", "standings"]

#: The deals of a day.
DEALS = 4
#: The rules every deal of the day is played by (one deal of them).
PRESET = "classic"
#: The level of the two bots of every deal (a deterministic one: the same moves, the
#: same answers).
BOT_LEVEL = "heuristic"
#: Seconds a move of a deal's player may take before his stand-in moves.
MOVE_CLOCK = 90.0
#: Seconds after a day's end before its seed is revealed: a deal finished later is not
#: scored (the move clock ends any deal well before).
GRACE = 3600.0
#: The days of a player's history (his page, /daily's «мои дни»): the last he played.
HISTORY_DAYS = 30
#: The final leaderboards a worker keeps in memory (a revealed day's no longer changes),
#: the most recently read: a player's page reads up to :data:`HISTORY_DAYS` of them.
KEPT_DAYS = 2 * HISTORY_DAYS


def day_of(ts: float) -> str:
    """The day (UTC, ``YYYY-MM-DD``) of the time ``ts``."""
    return dt.datetime.fromtimestamp(ts, dt.UTC).date().isoformat()


def day_end(day: str) -> float:
    """The time the day ends (UTC midnight after it)."""
    start = dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC)
    return (start + dt.timedelta(days=1)).timestamp()


def commitment(day: str, seed: int) -> str:
    """The hash published while ``day`` runs: SHA-256 of ``thousand/daily/{day}/{seed}``
    (the seed in decimal).  The seed's 128 random bits keep it from being guessed."""
    return hashlib.sha256(f"thousand/daily/{day}/{seed}".encode()).hexdigest()


def deal_seed(seed: int, deal: int, purpose: str = "daily") -> int:
    """The table seed of deal ``deal`` (1-based) of the day with ``seed``: HMAC-SHA-256,
    so one deal's seed (a finished game's record shows it) tells nothing of the others.
    ``purpose`` keeps other uses of the same mechanism apart: a duplicate tournament's
    round ``deal`` is seeded with ``deal_seed(secret, round, "tournament")``
    (server/features/tournaments.py)."""
    mac = hmac.new(str(seed).encode(), f"thousand/{purpose}/deal/{deal}".encode(),
                   hashlib.sha256)
    return int.from_bytes(mac.digest()[:16], "big")


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line of a day's leaderboard."""

    place: int
    player_id: str
    name: str
    guest: bool
    total: float
    deals: dict[int, int]  # deal -> his score in it


def standings(plays: Iterable[PlayRow]) -> list[Standing]:
    """A day's leaderboard from its plays: the scored ones, by duplicate score (the best
    first; equal totals share a place)."""
    scored = [p for p in plays if p.score is not None]
    totals = duplicate_scores((p.player_id, p.deal, p.score) for p in scored
                              if p.score is not None)
    who: dict[str, PlayRow] = {}
    deals: dict[str, dict[int, int]] = defaultdict(dict)
    for p in scored:
        who.setdefault(p.player_id, p)
        if p.score is not None:
            deals[p.player_id][p.deal] = p.score
    order = sorted(totals, key=lambda pid: (-totals[pid], who[pid].name))
    out: list[Standing] = []
    for i, pid in enumerate(order):
        tied = out and round(out[-1].total, 6) == round(totals[pid], 6)
        place = out[-1].place if tied else i + 1
        out.append(Standing(place, pid, who[pid].name, who[pid].guest,
                            round(totals[pid], 2), dict(sorted(deals[pid].items()))))
    return out


def day_results(store: Store, day: str) -> dict[str, Standing]:
    """A day's leaderboard by player, read and ranked on the store's thread (``hub.db``):
    a day of many players is not sorted on the event loop."""
    return {s.player_id: s for s in standings(daily_store.plays_of_day(store, day))}


@dataclass(frozen=True, slots=True)
class DayLine:
    """One day of a player's: his place among how many (``players``; None: no deal of his
    scored), his duplicate score (against the field), the deals he finished."""

    day: str
    place: int | None
    players: int
    total: float | None
    played: int


class Daily:
    """The deal of the day of one server: its clock (a test's to set), its days' seeds,
    the deals' tables."""

    def __init__(self, hub: Hub, *, now: Callable[[], float] = time.time,
                 move_clock: float | None = MOVE_CLOCK) -> None:
        self.hub = hub
        self.now = now
        self.move_clock = move_clock
        #: the live tables of deals of a day (their closing is refused)
        self.tables: set[str] = set()
        #: the revealed days' leaderboards (final), the most recently read last
        self._final: OrderedDict[str, dict[str, Standing]] = OrderedDict()

    def today(self) -> str:
        return day_of(self.now())

    def revealed(self, day: str) -> bool:
        """Whether ``day``'s seed may be shown: the day and its grace are over."""
        return self.now() >= day_end(day) + GRACE

    async def day(self, day: str) -> DayRow | None:
        """The day's row: made (its seed drawn) for today when it has none; None for
        another day nobody played."""
        hub = self.hub
        if day != self.today():
            return await hub.db(daily_store.find_day, hub.store, day)
        seed = secrets.randbits(128)
        return await hub.db(daily_store.ensure_day, hub.store, day, seed,
                            commitment(day, seed), self.now())

    async def results(self, day: str) -> dict[str, Standing]:
        """A day's leaderboard by player: kept once the day is revealed (no score counts
        after that), read afresh before."""
        kept = self._final.get(day)
        if kept is not None:
            self._final.move_to_end(day)
            return kept
        out = await self.hub.db(day_results, self.hub.store, day)
        if self.revealed(day):
            self._final[day] = out
            while len(self._final) > KEPT_DAYS:
                self._final.popitem(last=False)
        return out

    async def history(self, player_id: str, days: int = HISTORY_DAYS) -> list[DayLine]:
        """The last ``days`` days ``player_id`` played, newest first: his line of each
        day's leaderboard."""
        mine = await self.hub.db(daily_store.plays_of_player, self.hub.store, player_id, days)
        out: list[DayLine] = []
        for day in dict.fromkeys(p.day for p in mine):
            board = await self.results(day)
            line = board.get(player_id)
            out.append(DayLine(day, line.place if line else None, len(board),
                               line.total if line else None,
                               len(line.deals) if line else 0))
        return out

    async def start(self, deal: int, name: str, owner: tuple[str, str],
                    guest: bool) -> tuple[PlayRow, str]:
        """The player ``owner``'s game of today's deal ``deal``: laid now when it is his
        first, the same table when he began it before (his seat's token again); refused
        when he has played it.  (The play, his token.)"""
        if not 1 <= deal <= DEALS:
            raise ServerError("not_found", f"a day has deals 1 to {DEALS}", status=404)
        hub = self.hub
        day = self.today()
        row = await self.day(day)
        assert row is not None
        mine = PlayRow(day, deal, owner[0], secrets.token_urlsafe(12), name, guest,
                       self.now(), None, None)
        play = await hub.db(daily_store.claim, hub.store, mine)
        if play.finished is not None:
            raise ServerError("daily_played", "you have played this deal of the day",
                              status=409)
        if play is mine:
            try:
                await self._lay(play, deal_seed(row.seed, deal), owner)
            except BaseException:
                await hub.db(daily_store.forget, hub.store, play.table_id)
                raise
        return play, seat_token(owner[1], play.table_id, 0)

    async def _lay(self, play: PlayRow, seed: int, owner: tuple[str, str]) -> None:
        rules = Rules.from_json({"preset": PRESET, "max_deals": 1})
        seats = [SeatRow(0, "human", None, play.name),
                 SeatRow(1, "bot", BOT_LEVEL, "Бот 2"), SeatRow(2, "bot", BOT_LEVEL, "Бот 3")]
        self.tables.add(play.table_id)
        await self.hub.create(rules, seats, self.move_clock, False, owner,
                              table_id=play.table_id, replay="players", seed=seed)

    async def game_over(self, live: LiveTable) -> None:
        """A table's game is over: a deal of a day's is scored (not when it ended after the
        day's seed was revealed)."""
        hub = self.hub
        self.tables.discard(live.id)
        play = await hub.db(daily_store.play_of_table, hub.store, live.id)
        if play is None or play.finished is not None:
            return
        score = None if self.revealed(play.day) else int(live.table.game.scores[0])
        await hub.db(daily_store.finish, hub.store, live.id, score, self.now())

    async def rebuilt(self, live: LiveTable) -> None:
        """A table rebuilt from the store (a restart, a take-over): known again if it is a
        deal's."""
        hub = self.hub
        if live.id in await hub.db(daily_store.table_ids, hub.store, [live.id]):
            self.tables.add(live.id)

    def refuse_close(self, live: LiveTable) -> ServerError | None:
        """A deal of the day is played out: its table is not closed."""
        if live.id in self.tables:
            return ServerError("daily_table", "a deal of the day is played to its end",
                               status=409)
        return None
