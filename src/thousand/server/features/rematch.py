"""«Ещё партию»: the same players at a new table, when every person at the finished one
asks (docs/server.md "Rematch").

A seated player of a finished table sends ``{"type": "rematch"}``.  Bots agree at once;
every ask is told to everybody (``{"type": "rematch_asked", "asked": [...], "waiting":
[...], "table": null}``), and when the last person has asked a new table is laid with the
same seats — kinds, bot levels, names, players — the same rules, clock and listing, and
the first dealer moved on to the next seat (RULES §2 draws the first dealer by lot; a
rematch passes the deal on instead, as players at a real table would).  Each person is
sent his own seat at it, to him alone: ``{"type": "rematch", "table", "seat", "token",
"url"}``; a player's token is derived from his secret as any of his seats' is, so his other
devices find it too.  Asking again after the table is laid sends the seat again (a page
that reconnected).

The state (who asked, the new table and its tokens) lives as long as the live table
only: a finished table leaves the memory when nobody is at it, and with it a half-asked
rematch.  The live table knows nothing of it: this module listens to its ``rematch``
messages and adds the ``rematch`` part to what it shows (server/features/events.py).
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from thousand.engine.rules import Rules

from ..checks import hash_token, new_token, seat_token
from ..errors import ServerError
from ..store.accounts import seat_secrets
from ..store.tables import SeatRow
from .tournaments import tournament_url

if TYPE_CHECKING:
    from ..live.hub import Conn, LiveTable

__all__ = ["ask", "rematch_json", "shown"]


@dataclass
class _Rematch:
    """A finished table's rematch: the seats that asked, and once laid the new table
    with its seats' tokens."""

    asked: set[int] = field(default_factory=set)
    table: str | None = None
    tokens: dict[int, str] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


_rematches: weakref.WeakKeyDictionary[LiveTable, _Rematch] = weakref.WeakKeyDictionary()


def _of(live: LiveTable) -> _Rematch:
    return _rematches.setdefault(live, _Rematch())


def shown(live: LiveTable) -> dict[str, Any]:
    """The rematch's part of a table's snapshot and of its game's end."""
    return {"rematch": rematch_json(live)}


def rematch_json(live: LiveTable) -> dict[str, Any] | None:
    """The rematch for a snapshot: who asked, who is still to ask, and the new table once
    it is laid; None while the game is not over.  A tournament's table has none (its
    players meet as the next round pairs them): ``tournament``, its page, instead."""
    if not live.over:
        return None
    tournament = tournament_url(live)
    if tournament is not None:
        return {"asked": [], "waiting": [], "table": None, "tournament": tournament}
    people = set(live.human_seats())
    rematch = _of(live)
    return {"asked": sorted(rematch.asked), "waiting": sorted(people - rematch.asked),
            "table": rematch.table}


def _send_seat(live: LiveTable, seat: int) -> None:
    rematch = _of(live)
    token = rematch.tokens.get(seat)
    if token is None or rematch.table is None:
        return
    message = {"type": "rematch", "table": rematch.table, "seat": seat,
               "token": token, "url": f"/t/{rematch.table}"}
    for conn in list(live.conns):
        if conn.seat == seat:
            conn.send(message)


async def ask(live: LiveTable, conn: Conn) -> None:
    """A ``rematch`` message from ``conn`` (raises ServerError for a refusal)."""
    seat = conn.seat
    if seat is None:
        raise ServerError("spectator", "a rematch is for the players at the table")
    if not live.over or live.row.status != "over":
        raise ServerError("game_running", "a rematch is asked for once the game is over")
    rematch = _of(live)
    if rematch.table is not None:
        _send_seat(live, seat)
        return
    if (rematch_json(live) or {}).get("tournament"):
        raise ServerError("tournament_table", "a tournament's table has no rematch: the "
                          "next round pairs its players")
    rematch.asked.add(seat)
    if set(live.human_seats()) <= rematch.asked:
        await _lay(live)
        return
    live.broadcast({"type": "rematch_asked", **(rematch_json(live) or {})})


async def _lay(live: LiveTable) -> None:
    """The new table, its seats sent to their people."""
    hub = live.hub
    rematch = _of(live)
    async with rematch.lock:
        if rematch.table is not None:
            return
        rules = Rules.from_json(live.row.rules)
        n = live.table.game.n
        first_dealer = (live.table.game.first_dealer + 1) % n
        table_id = secrets.token_urlsafe(12)
        owned = [s.player_id for s in live.seats if s.kind == "human" and s.player_id]
        keys = await hub.db(seat_secrets, hub.store, owned)
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        owner: tuple[str, str] | None = None
        first = live.creator_seat()
        for s in live.seats:
            row = SeatRow(s.seat, s.kind, s.level, s.name)
            if s.kind == "human":
                secret = keys.get(s.player_id or "")
                if s.seat == first:
                    # hub.create gives the first person's seat its token itself
                    owner = (s.player_id, secret) if s.player_id and secret else None
                else:
                    token = (seat_token(secret, table_id, s.seat) if secret
                             else new_token())
                    tokens[s.seat] = token
                    row.token_hash = hash_token(token)
                    row.player_id = s.player_id if secret else None
            seats.append(row)
        new, seat0, token0 = await hub.create(rules, seats, live.row.clock,
                                              live.row.listed, owner=owner,
                                              first_dealer=first_dealer, table_id=table_id,
                                              control=live.turns.control)
        if seat0 is not None and token0 is not None:
            tokens[seat0] = token0
        new.share = live.share  # its bots think on the first table's layer's share
        rematch.table = new.id
        rematch.tokens = tokens
    live.broadcast({"type": "rematch_asked", **(rematch_json(live) or {})})
    for person in tokens:
        _send_seat(live, person)
