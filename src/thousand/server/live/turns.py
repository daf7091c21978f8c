"""What a live table waits for that nobody sends (docs/server.md "Bots", "The move
clock", "Time controls"): a bot's move, the clock of a person's move (a move clock, or a
game clock's time left: server/live/time_control.py), and the stand-in of a person who is
away.  One :class:`Turns` per live table (``LiveTable.turns``); it knows its table only by
what it needs of it (:class:`TurnTable`), and the table asks it to :meth:`~Turns.kick`
after anything that may change whose turn it is or who plays it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from thousand.bots import best_level
from thousand.engine import moves as mv
from thousand.engine.table import Table, TableError

from ..errors import ServerError
from .bot_pool import BotAnswer, BotAsk, BotPoolClosed
from .time_control import GameClock, TimeControl

if TYPE_CHECKING:
    from thousand.engine.view import View

    from ..store.tables import SeatRow, TableRow

__all__ = ["STANDIN_LEVEL", "Thinking", "TurnTable", "Turns"]

log = logging.getLogger("thousand.server")

#: The level of the bot that plays for an absent person.
STANDIN_LEVEL = "heuristic"


class Thinking(Protocol):
    """The hub, as the turns need it: where the bots think, and how long a bot waits."""

    @property
    def bot_delay(self) -> float: ...

    async def think(self, ask: BotAsk) -> BotAnswer: ...

    def loop(self) -> asyncio.AbstractEventLoop: ...


class TurnTable(Protocol):
    """The live table, as its turns need it (:class:`~thousand.server.live.hub.LiveTable`)."""

    @property
    def hub(self) -> Thinking: ...

    @property
    def id(self) -> str: ...

    @property
    def row(self) -> TableRow: ...

    @property
    def table(self) -> Table: ...

    @property
    def seats(self) -> list[SeatRow]: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def standin(self) -> list[bool]: ...

    @property
    def closed(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    @property
    def abandoned(self) -> set[int]: ...

    def bot_plays(self, seat: int) -> bool: ...

    def online(self, seat: int) -> bool: ...

    def human_seats(self) -> list[int]: ...

    @property
    def hint_lock(self) -> asyncio.Lock: ...

    #: a game with hints is training: not rated
    assisted: bool

    async def assist(self) -> None: ...

    async def submit(self, seat: int, move: str | mv.Move, version: int) -> None: ...

    def broadcast(self, message: dict[str, Any]) -> None: ...

    def broadcast_seats(self) -> None: ...

    def clock_json(self) -> dict[str, Any] | None: ...


@dataclass(slots=True)
class _Pending:
    task: asyncio.Task[None]
    key: tuple[int, int]


class Turns:
    """A table's bot moves, move clock or game clock, and away timers."""

    def __init__(self, live: TurnTable) -> None:
        self.live = live
        self._bot: _Pending | None = None
        self._clock: _Pending | None = None
        self._away: dict[int, asyncio.Task[None]] = {}
        self._clock_started = 0.0
        #: the time the clocks are measured by (the tests may give a fake one)
        self.now: Callable[[], float] = time.monotonic
        #: the game clock (a time control), as of the last move stored; None: none
        stored = live.row.game_clock
        self.game: GameClock | None = (None if stored is None else
                                       GameClock.from_json(stored, len(live.seats)))
        # the seats whose time ran out, for whom the stand-in plays one move only
        self._once: set[int] = set()

    async def hint(self, seat: int, waiting: Callable[[], ServerError]) -> dict[str, Any]:
        """The best level's move for ``seat`` to move now, with its reason and its advice
        to the player («Поднимите заказ до 130», as the terminal words it:
        thousand.words.catalogue.advice_for), as the ``hint`` message; a game with a hint
        is training (``assisted``: not rated).  Raises the table's refusal: the game not
        started (``waiting()``), over, or not this seat's turn."""
        live = self.live
        async with live.lock:
            if live.row.status == "waiting":
                raise waiting()
            if live.over:
                raise TableError("game_over", winner=live.table.game.winner)
            if live.table.to_move != seat:
                raise TableError("not_your_turn", seat=live.table.to_move)
            view = live.table.view(seat)
            version = live.table.version
        level = best_level()
        await live.assist()
        async with live.hint_lock:
            hint = await live.hub.think(self.ask("hint", seat, level, view))
        return {"type": "hint", "move": mv.move_str(hint.move), "reason": hint.reason,
                "advice": hint.advice, "version": version, "level": level}

    def clock_json(self, move_clock: float | None) -> dict[str, Any] | None:
        """The clock as a snapshot shows it: the game clock (:meth:`game_json`), else the
        move clock of ``move_clock`` seconds, its ``seconds`` and whose turn it times
        (``seat``, ``version``) with the seconds ``left``; ``None`` at a table without a
        clock."""
        game = self.game_json()
        if game is not None:
            return game
        if move_clock is None:
            return None
        out: dict[str, Any] = {"seconds": move_clock, "seat": None, "version": None,
                               "left": None}
        timed = self.clock_left(move_clock)
        if timed is not None:
            seat, version, left = timed
            out.update(seat=seat, version=version, left=round(left, 1))
        return out

    def clock_left(self, clock: float) -> tuple[int, int, float] | None:
        """The turn the clock times (seat, version) and the seconds left, or None."""
        if self._clock is None:
            return None
        seat, version = self._clock.key
        return seat, version, max(0.0, clock - self._spent())

    @property
    def control(self) -> TimeControl | None:
        """The table's time control, or None (a move clock, or no clock)."""
        return None if self.game is None else self.game.control

    def _spent(self) -> float:
        """The seconds the running turn's clock has run."""
        return self.now() - self._clock_started

    def away(self, seat: int) -> bool:
        """Whether ``seat`` is marked away: its game clock ran out moves in a row."""
        return self.game is not None and self.game.away(seat)

    def game_json(self) -> dict[str, Any] | None:
        """The game clock as a snapshot and a ``clock`` message show it: its control
        (``base``, ``increment``, ``category``), each seat's seconds ``remaining`` now and
        whether it is ``away``, and the turn it times (``seat``, ``version``) with its
        seconds ``left``; ``seconds`` (the move clock's) null.  None without one."""
        game = self.game
        if game is None:
            return None
        remaining = list(game.left)
        out: dict[str, Any] = {"seconds": None, "seat": None, "version": None, "left": None,
                               **game.control.to_json()}
        if self._clock is not None:
            seat, version = self._clock.key
            remaining[seat] = game.remaining(seat, self._spent())
            out.update(seat=seat, version=version, left=round(remaining[seat], 1))
        out["remaining"] = [round(x, 1) for x in remaining]
        out["away"] = [game.away(s) for s in range(len(remaining))]
        return out

    def charge(self, seat: int) -> GameClock | None:
        """The game clock once ``seat``'s move now is made (None without one): its
        person's time taken and the increment given, unless a bot plays for him (the
        stand-in of a timed-out move: his time was settled as it ran out).  Kept by
        :meth:`charged` once the move is stored."""
        game = self.game
        if game is None or self.live.seats[seat].kind != "human":
            return None
        if self.live.bot_plays(seat):
            return game
        timed = self._clock is not None and self._clock.key[0] == seat
        return game.moved(seat, self._spent() if timed else 0.0)

    def charged(self, seat: int, game: GameClock | None) -> None:
        """``seat``'s move is stored with the game clock :meth:`charge` gave: it is the
        clock now, and a stand-in that played one timed-out move stops."""
        if game is None or self.game is None:
            return
        was_away, self.game = self.game.away(seat), game
        if self._clock is not None and self._clock.key[0] == seat:
            self._cancel_clock()  # his turn is over: everybody sees his time after it
        self.live.broadcast({"type": "clock", **(self.game_json() or {})})
        shown = was_away and not game.away(seat)  # his own move: everybody sees him back
        if seat in self._once:
            self._once.discard(seat)
            if self.live.standin[seat] and seat not in self.live.abandoned:
                self.live.standin[seat] = False
                shown = True
        if shown:
            self.live.broadcast_seats()

    def ask(self, kind: str, seat: int, level: str, view: View) -> BotAsk:
        """What the bot of ``kind`` (bot, standin, hint) at ``seat`` is to think about:
        the bots' pool keeps one bot per (table, purpose, level, seat), seeded from the
        table's seed, in the process that thinks for this table."""
        live = self.live
        return BotAsk(live.id, kind, level, seat, live.table.seed, view)

    # ------------------------------------------------------------------ a move's turn

    def kick(self) -> None:
        """Start what the table waits for: a bot's move, or the clock of a person's."""
        live = self.live
        if live.closed or live.over or live.row.status != "playing":
            self.stop()
            return
        seat = live.table.to_move
        if seat is None:
            return
        key = (seat, live.table.version)
        if live.bot_plays(seat):
            self._cancel_clock()
            if self._bot is not None:
                if self._bot.key == key:
                    return
                self._bot.task.cancel()
            task = asyncio.create_task(self._bot_turn(*key))
            self._bot = _Pending(task, key)
        else:
            if self._bot is not None:
                self._bot.task.cancel()
                self._bot = None
            clock = live.row.clock if self.game is None else self.game.left[seat]
            if clock is None or (self._clock is not None and self._clock.key == key):
                return
            self._cancel_clock()
            self._clock = _Pending(asyncio.create_task(self._clock_run(*key, clock)), key)
            self._clock_started = self.now()
            live.broadcast({"type": "clock", **(live.clock_json() or {})})

    async def _bot_turn(self, seat: int, version: int) -> None:
        live = self.live
        me = asyncio.current_task()
        try:
            if live.hub.bot_delay > 0:
                await asyncio.sleep(live.hub.bot_delay)
            async with live.lock:
                if live.table.version != version or not live.bot_plays(seat) or live.over:
                    return
                kind = "bot" if live.seats[seat].kind == "bot" else "standin"
                level = live.seats[seat].level if kind == "bot" else STANDIN_LEVEL
                ask = self.ask(kind, seat, level or STANDIN_LEVEL, live.table.view(seat))
            move = (await live.hub.think(ask)).move
            try:
                await live.submit(seat, move, version)
            except (TableError, ServerError) as e:
                log.info("table %s: a bot's move was refused: %s", live.id, e)
        except (asyncio.CancelledError, BotPoolClosed):  # the table or the server stops
            return
        finally:
            if self._bot is not None and self._bot.task is me:
                self._bot = None
                if not live.closed:
                    live.hub.loop().call_soon(self.kick)

    async def _clock_run(self, seat: int, version: int, clock: float) -> None:
        live = self.live
        try:
            await asyncio.sleep(clock)
        except asyncio.CancelledError:
            return
        if self._clock is not None and self._clock.task is asyncio.current_task():
            self._clock = None
        if (live.table.version == version and live.table.to_move == seat
                and not live.bot_plays(seat) and not live.over):
            log.info("table %s: seat %d ran out of time; a bot plays for him", live.id, seat)
            if self.game is not None:  # this move only, unless he is away now
                self.game = self.game.ran_out(seat)
                if not self.game.away(seat):
                    self._once.add(seat)
            live.standin[seat] = True
            live.broadcast_seats()
            self.kick()

    def _cancel_clock(self) -> None:
        if self._clock is not None:
            self._clock.task.cancel()
            self._clock = None

    def stop(self) -> None:
        """Nothing more to wait for: the game is over, or the table closes."""
        self._cancel_clock()
        if self._bot is not None:
            self._bot.task.cancel()
            self._bot = None
        for task in self._away.values():
            task.cancel()
        self._away.clear()

    # ------------------------------------------------------------------ people away

    def start_away_timers(self) -> None:
        """After a restart nobody is connected: with a clock, everybody who does not come
        back within it gets a stand-in."""
        for seat in self.live.human_seats():
            self.gone(seat)

    def gone(self, seat: int) -> None:
        """The person of ``seat`` has no connection left: with a clock, a stand-in plays
        for him unless he is back within it."""
        live = self.live
        clock = live.row.clock
        if (clock is not None and not live.over and not live.online(seat)
                and seat not in self._away):
            self._away[seat] = asyncio.create_task(self._away_timer(seat, clock))

    def back(self, seat: int) -> None:
        """The person of ``seat`` is here: his away timer and his stand-in stop."""
        task = self._away.pop(seat, None)
        if task is not None:
            task.cancel()
        self.stand_down(seat)

    def stand_down(self, seat: int) -> None:
        """The person of ``seat`` plays again: his stand-in stops (not for a seat whose
        person left the rated game)."""
        live = self.live
        if seat in live.abandoned:
            return
        self._once.discard(seat)
        if live.standin[seat]:
            live.standin[seat] = False
            if self._bot is not None and self._bot.key[0] == seat:
                self._bot.task.cancel()
                self._bot = None
            live.hub.loop().call_soon(live.broadcast_seats)
            live.hub.loop().call_soon(self.kick)

    async def _away_timer(self, seat: int, clock: float) -> None:
        live = self.live
        try:
            await asyncio.sleep(clock)
        except asyncio.CancelledError:
            return
        if self._away.get(seat) is asyncio.current_task():
            del self._away[seat]
        if not live.online(seat) and not live.standin[seat] and not live.over:
            live.standin[seat] = True
            log.info("table %s: seat %d away for %.0f s; a bot plays for him", live.id, seat,
                     clock)
            live.broadcast_seats()
            self.kick()
