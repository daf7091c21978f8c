"""The server's cap on live tables as a last resort that shuts nobody out (docs/server.md
"Limits").

One address once filled the thousand tables the server holds, and for an hour everybody
else was refused.  Each client's ``live`` limit now stops that from one address; from
many, the cap is reached and then, rather than refusing the next person, room is made:
the tables of the addresses that hold the most are ended first, those nobody is
connected to before any other (a waiting one is closed, a game adjourned: its player
opens it again and plays on).  An address's only table is never ended, so a person who
holds one table keeps it, and one who holds none can always start one while somebody
holds two.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from .hub import Hub, LiveTable
from .limits import Limiter
from .reaper import Reaper

__all__ = ["room_maker"]

log = logging.getLogger("thousand.server")


def _victim(hub: Hub, limiter: Limiter) -> LiveTable | None:
    """The table to end: of the address holding most (at least two), one nobody is
    connected to, the oldest first; a connected one of it only if it has none idle."""
    for _who, ids in limiter.holders():
        if len(ids) < 2:
            break
        tables = sorted((hub.tables[t] for t in ids if t in hub.tables),
                        key=lambda t: (bool(t.conns), t.row.created))
        if tables:
            return tables[0]
    return None


def room_maker(hub: Hub, limiter: Limiter, reaper: Reaper) -> Callable[[], Awaitable[None]]:
    """``Hub.make_room``: end tables of the biggest holders until the hub is under its
    cap (or nothing more may be ended)."""

    async def make_room() -> None:
        while hub.live_count() >= hub.max_tables:
            live = _victim(hub, limiter)
            if live is None:
                return
            log.warning("the server holds %d live tables; ending %s of the biggest holder",
                        hub.live_count(), live.id)
            before = hub.live_count()
            await reaper.end(live)
            if hub.live_count() >= before:  # it could not be ended (it ended meanwhile)
                return

    return make_room
