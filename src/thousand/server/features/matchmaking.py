"""Quick play: a seat at the next table that needs a player of a preset, or a new table
that waits for others; the bots that fill a waiting table after its creator's wait; a
person leaving a waiting table (docs/server.md "Quick play").

Matching looks at the live tables only (a waiting table is always in memory): the oldest
listed table that is waiting, has the preset's own rules (no option changed: the game a
player asked for, and a rated one) and the same move clock, and has a free seat — never one
where the same player (his session) sits already.  A request without a session cannot be
told from another: an address is not a person (a household, an office share one), so it
is seated wherever a seat is free.  One lock serialises
quick play, so that two players asking at once meet at one table rather than laying two.

A table laid by quick play may carry its creator's ``bots_after``: when that many seconds
pass with seats still free, bots of his chosen level take them and the game starts; the
timer is the live table's and stops when the table fills, starts or closes.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from thousand.engine.rules import Rules

from ..checks import hash_token
from ..store import ratings as site_store
from ..store.tables import SeatRow
from .ratings import rated

if TYPE_CHECKING:
    from ..live.hub import Hub, LiveTable
    from ..live.time_control import TimeControl

__all__ = ["Seat", "fill_with_bots", "leave", "quick_play"]

log = logging.getLogger("thousand.server")

@dataclass(frozen=True, slots=True)
class Seat:
    """A seat quick play gave: the table, the seat, its token."""

    table: str
    seat: int
    token: str

    @property
    def url(self) -> str:
        return f"/t/{self.table}"


def bot_name(seat: int) -> str:
    """A bot's name at a seat, as a table laid in the lobby names it."""
    return f"Бот {seat + 1}"


def person_name(seat: int) -> str:
    """The name of a free person's seat."""
    return f"Игрок {seat + 1}"


def _fits(live: LiveTable, rules: Rules, clock: float | None, control: TimeControl | None,
          who: str | None) -> bool:
    if who is not None and any(s.player_id == who for s in live.seats):
        return False  # he sits there already
    return (live.row.status == "waiting" and live.row.listed and not live.closed
            and live.row.clock == clock and live.turns.control == control
            and live.row.rules == rules.to_json()
            and bool(live.free_seats()))


async def quick_play(hub: Hub, name: str, owner: tuple[str, str] | None, preset: str,
                     clock: float | None, bots_after: float | None, bot_level: str,
                     control: TimeControl | None = None) -> Seat:
    """Seat the player ``owner`` (player id, seat secret; None: a request without a
    session) at a waiting table of ``preset`` and ``clock`` (or time ``control``), or lay
    one that waits for others."""
    who = owner[0] if owner is not None else None
    rules = Rules.preset_rules(preset)
    async with hub.quick_lock:
        waiting = sorted((t for t in hub.tables.values() if _fits(t, rules, clock, control, who)),
                         key=lambda t: t.row.created)
        for live in waiting:
            seat = live.free_seats()[0]
            try:
                token = await hub.take_seat(live, seat, name, owner)
            except Exception as e:  # taken or ended meanwhile: the next table
                log.info("quick play: table %s refused a seat: %s", live.id, e)
                continue
            return Seat(live.id, seat, token)
        seats = [SeatRow(0, "human", None, name)] + [
            SeatRow(i, "human", None, person_name(i)) for i in range(1, rules.players)]
        new, seat0, token0 = await hub.create(rules, seats, clock, True, owner=owner,
                                              control=control)
        assert seat0 is not None and token0 is not None
        if bots_after is not None:
            new.bots_timer = asyncio.create_task(_bots_later(new, bots_after, bot_level))
        return Seat(new.id, seat0, token0)


async def _bots_later(live: LiveTable, seconds: float, level: str) -> None:
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        return
    if live.bots_timer is asyncio.current_task():
        live.bots_timer = None
    try:
        await fill_with_bots(live, level)
    except Exception:
        log.exception("table %s: the bots could not take the free seats", live.id)


async def fill_with_bots(live: LiveTable, level: str) -> bool:
    """Bots of ``level`` in every free seat of a waiting table, and the game starts;
    False when there was nothing to fill (it filled, started or closed meanwhile)."""
    async with live.lock:
        free = live.free_seats()
        if live.closed or live.row.status != "waiting" or not free:
            return False
        names = list(live.table.names)
        for seat in free:
            names[seat] = bot_name(seat)
        chosen = {seat: (level, names[seat]) for seat in free}
        if not await live.hub.db(site_store.fill_bots, live.hub.store, live.id, chosen,
                                 names, "playing", fence=live.fence):
            return False
        for seat in free:
            s = live.seats[seat]
            s.kind, s.level, s.name = "bot", level, names[seat]
            live.table.game.names[seat] = names[seat]
        live.row.names = names
        live.row.status = "playing"
    live.broadcast_seats()
    live.kick()
    return True


async def leave(live: LiveTable, token: str) -> int:
    """A person gives back his seat at a waiting table (before the first move): it is free
    again, his connections to it are closed; a table left with no person closes.  The seat
    given back."""
    from ..errors import ServerError

    seat = live.seat_of_token(token)
    if seat is None:
        raise ServerError("bad_token", "this token holds no seat at this table", status=403)
    async with live.lock:
        if (live.row.status == "playing" and not live.over and rated(live)
                and seat not in live.abandoned):
            await live.abandon(seat)  # a rated game after the deal: lost (docs/server.md)
            abandoned = True
        elif live.row.status != "waiting" or live.table.moves:
            raise ServerError("game_started", "the game has begun: a seat is left only "
                              "at a table still waiting for players", status=409)
        else:
            abandoned = False
    if abandoned:
        live.broadcast_seats()
        live.kick()
        return seat
    async with live.lock:
        if live.row.status != "waiting" or live.table.moves:
            raise ServerError("game_started", "the game has begun: a seat is left only "
                              "at a table still waiting for players", status=409)
        names = list(live.table.names)
        names[seat] = person_name(seat)
        if not await live.hub.db(site_store.free_seat, live.hub.store, live.id, seat,
                                 hash_token(token), names[seat], names, fence=live.fence):
            raise ServerError("game_started", "the game has begun: a seat is left only "
                              "at a table still waiting for players", status=409)
        s = live.seats[seat]
        s.token_hash, s.name, s.player_id, s.guest = None, names[seat], None, False
        live.table.game.names[seat] = names[seat]
        live.row.names = names
        for conn in list(live.conns):
            if conn.seat == seat:
                conn.send({"type": "error", "code": "left", "params": {},
                           "message": "you left this table"})
                conn.close()
    if not any(o.kind == "human" and o.token_hash is not None for o in live.seats):
        await live.hub.close_table(live)
    else:
        live.broadcast_seats()
    return seat
