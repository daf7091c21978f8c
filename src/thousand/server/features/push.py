"""Turn notices by Web Push (docs/server.md "Web Push"): when it becomes a person's move
at a table and he has no connection open to it, each browser his account subscribed
(server/store/push.py) gets one notice «Ваш ход» in the language of the page that
subscribed; a click on it opens the table (web/sw.js).

The live tables know nothing of this: :meth:`TurnPush.turn` listens to their ``turn``
announcement (server/features/events.py) and starts the sending in a task of its own, so
that a slow push service never holds a move.  At most one notice a table and player in
:data:`EVERY` seconds (a game of quick moves is not a stream of notices), and at most the
``push_sent`` limit's a player (server/limits.py).  A push service that answers 404 or
410 has dropped the subscription: its row goes too.  Guests get the page's own notice
only (web/turn_notice.js).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from thousand.words.pages import PAGE_WORDS

from ..ops.webpush import GONE, PushKeys, send
from ..store.push import PushStore

if TYPE_CHECKING:
    from ..live.hub import Hub, LiveTable

__all__ = ["EVERY", "TTL", "TurnPush"]

log = logging.getLogger("thousand.push")

#: Seconds between two notices of one table to one player, at least.
EVERY = 120.0
#: Seconds a push service keeps a notice for a browser that is offline: after that the
#: move is most likely made (by him, or by the bot that stands in).
TTL = 600
#: The (table, player) pairs remembered for :data:`EVERY` at most (the oldest go).
_REMEMBERED = 10000

#: Counts one notice to a player against the ``push_sent`` limit: None, or the seconds
#: to wait (server/limits.py ``Limiter.hit``).
Counter = Callable[[str], Awaitable[int | None]]


class TurnPush:
    """The site's turn notices by push, with its VAPID ``keys``."""

    def __init__(self, hub: Hub, keys: PushKeys, count: Counter | None = None,
                 every: float = EVERY) -> None:
        self.hub = hub
        self.keys = keys
        self.count = count
        self.every = every
        self.store = PushStore(hub.store)
        self._last: dict[tuple[str, str], float] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def turn(self, live: LiveTable, seat: int) -> None:
        """``seat``'s move has come at ``live``: a notice to his browsers, if he is an
        account with no connection to the table and none was sent lately."""
        row = live.seats[seat]
        if row.player_id is None or row.guest or live.online(seat):
            return
        key = (live.id, row.player_id)
        now = time.monotonic()
        if now - self._last.get(key, -self.every) < self.every:
            return
        self._last.pop(key, None)
        self._last[key] = now
        while len(self._last) > _REMEMBERED:
            del self._last[next(iter(self._last))]
        task = asyncio.create_task(self._send(live.id, row.player_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send(self, table_id: str, player_id: str) -> None:
        try:
            if self.count is not None and await self.count(player_id) is not None:
                return
            for sub in await self.hub.db(self.store.of, player_id):
                words = PAGE_WORDS.get(sub.lang, PAGE_WORDS["ru"])
                status = await send(self.keys, sub.info(), {
                    "title": words["notify_title"], "body": words["notify_body"],
                    "url": f"/t/{table_id}", "tag": "thousand-turn"}, TTL)
                if status in GONE:
                    await self.hub.db(self.store.gone, sub.endpoint)
        except Exception:
            log.exception("table %s: the turn notice failed", table_id)

    async def idle(self) -> None:
        """Wait for the notices under way (the tests; a server stopping)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
