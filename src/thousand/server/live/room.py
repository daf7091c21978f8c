"""The server's cap on live tables as a last resort that shuts nobody out (docs/server.md
"Limits").

One address once filled the thousand tables the server holds, and for an hour everybody
else was refused.  Each client's ``live`` limit now stops that from one address; from
many, the cap is reached and then, rather than refusing the next person, room is made:
the tables of the addresses that hold the most are ended first, those nobody is
connected to before any other (a waiting one is closed, a game adjourned: its player
opens it again and plays on; never a table a feature keeps — a tournament's, which its
round waits for: ``TableEvents.closing``).
An address's only table is never ended, nor a table of an address that holds no more
than the one who asks: a person who holds one table keeps it, one who holds none can
always start one while somebody holds two, and a flood at the cap only meets
``too_many_tables``.

With many workers the cap counts every worker's live tables (server/holdings.py), and a
worker makes room among the tables it holds itself, by what its own clients hold there.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from ..limits import ASKER, Limiter
from .hub import Hub, LiveTable
from .reaper import Reaper

__all__ = ["room_maker"]

log = logging.getLogger("thousand.server")


async def _victim(hub: Hub, limiter: Limiter) -> LiveTable | None:
    """The table to end: of the address holding most (at least two, and more than the
    one who asks: :data:`limits.ASKER`; with many workers, counted on all of them), one
    of this worker's that nobody is connected to, the oldest first; a connected one of
    it only if it has none idle."""
    asker = ASKER.get()
    holders = limiter.holders()
    whos = [who for who, _ in holders] + ([asker] if asker is not None else [])
    others = dict(zip(whos, await limiter.holdings.elsewhere("live", whos), strict=True))
    floor = max(2, limiter.held(asker) + others[asker] + 1 if asker is not None else 0)
    biggest = sorted(((len(ids) + others[who], who, ids) for who, ids in holders),
                     key=lambda h: -h[0])
    for held, who, ids in biggest:
        if held < floor:
            break
        if who == asker:
            continue
        tables = sorted((hub.tables[t] for t in ids if t in hub.tables
                         and hub.events.refusal_to_close(hub.tables[t]) is None),
                        key=lambda t: (bool(t.conns), t.row.created))
        if tables:
            return tables[0]
    return None


def room_maker(hub: Hub, limiter: Limiter, reaper: Reaper) -> Callable[[], Awaitable[None]]:
    """``Hub.make_room``: end tables of the biggest holders until the hub is under its
    cap (or nothing more may be ended)."""

    async def make_room() -> None:
        while (total := await hub.live_total()) >= hub.max_tables:
            live = await _victim(hub, limiter)
            if live is None:
                return
            log.warning("the server holds %d live tables; ending %s of the biggest holder",
                        total, live.id)
            before = hub.live_count()
            await reaper.end(live)
            limiter.holdings.changed()  # the other workers see the address hold less
            if hub.live_count() >= before:  # it could not be ended (it ended meanwhile)
                return

    return make_room
