"""Abandoned tables end by themselves (docs/server.md "Abandoned tables").

Tables once lived in memory until their game ended, so a script that laid tables and
left them filled the server for good.  The reaper looks over the live tables every few
seconds:

* a table still **waiting** for people, with no seated person online for
  ``waiting_timeout`` seconds, is closed (stored as ``closed``, told to whoever watches
  it, taken out of memory): nobody played at it, so nothing is lost;
* a game **nobody has touched** — no move for ``adjourn_after`` seconds and no seated
  person online — is *adjourned*: stored as ``adjourned`` (its record, moves and chat
  stay), taken out of memory, and not rebuilt when the server starts again.  Opening it
  again with one of its seat tokens (its WebSocket: :func:`resume`) rebuilds it from its
  moves and the game goes on from the same version; if nobody plays it then, it is
  adjourned again after the same time.  Anybody else sees it as it stands
  (:func:`adjourned_table`) without bringing it back.

The clocks are the monotonic clock of this process: the times count from the server's
start for the tables it rebuilt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from ..checks import token_matches
from .hub import Hub, LiveTable

__all__ = ["Reaper", "adjourned_table", "resume"]

log = logging.getLogger("thousand.server")


class Reaper:
    """Ends the hub's abandoned tables; ``None`` for a time means never."""

    def __init__(self, hub: Hub, *, waiting_timeout: float | None,
                 adjourn_after: float | None) -> None:
        self.hub = hub
        self.waiting_timeout = waiting_timeout or None
        self.adjourn_after = adjourn_after or None
        times = [t for t in (self.waiting_timeout, self.adjourn_after) if t]
        #: how often it looks: a quarter of the shorter time, from 0.05 to 30 seconds
        self.every = min(30.0, max(0.05, min(times) / 4)) if times else 0.0
        #: table id -> (the version last seen, when it was first seen at that version)
        self._seen: dict[str, tuple[int, float]] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every and self._task is None:
            self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep(time.monotonic())
            except Exception:  # one bad table must not stop the reaping of the others
                log.exception("the abandoned tables could not be looked over")

    @staticmethod
    def _nobody_since(live: LiveTable) -> float | None:
        """Since when no seated person is online (None: somebody is); a table without
        people is played out by its bots and never abandoned."""
        humans = live.human_seats()
        if not humans:
            return None
        since = [live.offline_since[s] for s in humans]
        if any(t is None for t in since):
            return None
        return max(t for t in since if t is not None)

    async def sweep(self, now: float) -> None:
        """Look over every live table once, at the monotonic time ``now``."""
        seen: dict[str, tuple[int, float]] = {}
        for live in list(self.hub.tables.values()):
            if live.closed or live.over:
                continue
            version = live.table.version
            last = self._seen.get(live.id)
            moved = last[1] if last is not None and last[0] == version else now
            seen[live.id] = (version, moved)
            away = self._nobody_since(live)
            if away is None:
                continue
            status = live.row.status
            waited = self.waiting_timeout is not None and now - away >= self.waiting_timeout
            idle = (self.adjourn_after is not None
                    and now - max(away, moved) >= self.adjourn_after)
            if status == "waiting" and waited:
                await self._close_waiting(live)
            elif status == "playing" and idle:
                await self._adjourn(live)
        self._seen = {k: v for k, v in seen.items() if k in self.hub.tables}

    async def _close_waiting(self, live: LiveTable) -> None:
        hub = self.hub
        async with live.lock:
            if live.row.status != "waiting" or not await hub.db(hub.store.close_table,
                                                                live.id, fence=live.fence):
                return
            live.row.status = "closed"
            live.broadcast({"type": "error", "code": "abandoned", "params": {},
                            "message": "nobody came to this table; it is closed"})
            self._drop(live)
        log.info("table %s: waited with nobody at it; closed", live.id)

    async def _adjourn(self, live: LiveTable) -> None:
        hub = self.hub
        async with hub.loading(live.id), live.lock:  # no Hub.get brings it back half-way
            if live.row.status != "playing" or live.over or live.closed:
                return
            await hub.db(hub.store.set_status, live.id, "adjourned", fence=live.fence)
            live.row.status = "adjourned"
            live.broadcast({"type": "error", "code": "adjourned", "params": {},
                            "message": "nobody played this game for a long time; it is "
                                       "adjourned: open it again to play on"})
            self._drop(live)
        log.info("table %s: adjourned (untouched, or room was needed)", live.id)

    async def end(self, live: LiveTable) -> None:
        """End a table now to make room under the server's cap (server/live/room.py): one
        still waiting is closed, a game adjourned (its player may open it again)."""
        if live.row.status == "waiting":
            await self._close_waiting(live)
        else:
            await self._adjourn(live)

    def _drop(self, live: LiveTable) -> None:
        live.close()
        if self.hub.tables.get(live.id) is live:
            del self.hub.tables[live.id]
        self._seen.pop(live.id, None)


async def adjourned_table(hub: Hub, table_id: str) -> LiveTable | None:
    """An adjourned table as it stands, rebuilt from the store but not brought back to
    life (not kept, no bot or clock started): what ``GET /api/tables/{id}`` shows of it,
    so that looking at it (the lobby's "my tables") costs no memory."""
    row = await hub.db(hub.store.load, table_id)
    if row is None or row.status != "adjourned":
        return None
    return await hub._rebuild(row)


async def resume(hub: Hub, table_id: str, token: str) -> LiveTable | None:
    """Bring an adjourned table back to life for the holder of one of its seats' tokens
    (its WebSocket opened with the token): the game goes on from the version it was
    adjourned at.  None when it is not adjourned or the token holds no seat of it."""
    row = await hub.db(hub.store.load, table_id, with_moves=False)
    if row is None or row.status != "adjourned" or not any(
            s.kind == "human" and token_matches(token, s.token_hash) for s in row.seats):
        return None
    return await hub.get(table_id, revive=True)
