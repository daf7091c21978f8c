"""Who is here (docs/server.md "Presence, challenges and friends"): the players online,
where they are — the lobby, a table waiting for players, a game — and the lobby sockets
(``/ws/lobby``) that are told of it live.

A player is online while he has a lobby socket open, or a seat's connection to a table
(a table's page).  Each worker knows its own part: its lobby sockets, and the seated
connections of the tables it holds (a relayed one included: the owner's table has it
as one of its connections).  Every :data:`TICK` seconds a worker looks at its part; what
changed goes to the other workers (with many: :attr:`Presence.publish`, the workers' bus)
and, once merged with theirs, to every lobby socket here as one ``presence`` message —
so a thousand players coming and going cost a message a tick to each lobby, not one per
change (docs/protocol.md "The lobby socket").  A worker also tells its whole part every
:data:`HEARTBEAT` seconds: a worker that joins learns the others' parts so (it asks at
once with ``hello``), and a worker not heard for :data:`GONE_AFTER` seconds is dropped.

A player who hides his presence (``hidden``) is shown to nobody; a guest is shown once
he has a name.  The same sockets carry a player's notices (:meth:`Presence.notify`:
a challenge and what became of it), to whichever worker holds his sockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..live.hub import Conn, dumps
from ..store.social import SocialStore

if TYPE_CHECKING:
    from ..live.hub import Hub

__all__ = ["GONE_AFTER", "HEARTBEAT", "TICK", "LobbyConn", "Presence"]

log = logging.getLogger("thousand.server")

#: Seconds between two looks at who is here (what changed meanwhile is one message).
TICK = 0.25
#: Seconds between two tellings of a worker's whole part to the others.
HEARTBEAT = 5.0
#: A worker not heard for this long (seconds) has gone: its players are dropped.
GONE_AFTER = 3 * HEARTBEAT
#: Where a player is, from least to most telling: a seat beats the lobby.
_RANK = {"lobby": 0, "waiting": 1, "playing": 2}

Entry = dict[str, Any]


class LobbyConn(Conn):
    """One lobby socket: its player (id, name — None for a guest not yet named —, a
    guest's or an account's) and its queue."""

    def __init__(self, player: str, name: str | None, guest: bool, behind: int) -> None:
        super().__init__(None, behind)
        self.player, self.name, self.guest = player, name, guest


@dataclass
class _Remote:
    """Another worker's part, and when it was last heard of."""

    view: dict[str, Entry] = field(default_factory=dict)
    heard: float = 0.0


class Presence:
    """This worker's presence: its lobby sockets, its part of who is here, and the
    whole as its lobbies were last told."""

    def __init__(self, hub: Hub, social: SocialStore, *, tick: float = TICK) -> None:
        self.hub = hub
        self.social = social
        self.tick = tick
        self.sockets: dict[str, set[LobbyConn]] = {}
        self.conns: set[LobbyConn] = set()
        #: what this worker last told the others of its part
        self.local: dict[str, Entry] = {}
        self.remote: dict[str, _Remote] = {}
        #: who is here, as the lobbies were last told
        self.shown: dict[str, Entry] = {}
        #: whether a player hides his presence (the players seen lately)
        self.hidden: dict[str, bool] = {}
        self._asking: set[str] = set()
        #: with many workers: tells the others (the bus); None: this worker is alone
        self.publish: Callable[[Any], None] | None = None
        self._task: asyncio.Task[None] | None = None
        self._beat = 0.0
        #: for the benchmark and the metrics: the ticks that sent something, and when
        #: the last one's message was sent (time.monotonic)
        self.sent = 0

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())
            if self.publish is not None:
                self.publish({"kind": "hello"})

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for conn in list(self.conns):
            conn.close(1001)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            try:
                self.step()
            except Exception:
                log.exception("presence: a tick failed")

    # ------------------------------------------------------------------ sockets

    def join(self, conn: LobbyConn) -> None:
        """A lobby socket opened: it gets who is here now (the next tick tells the
        others of its player)."""
        self.conns.add(conn)
        self.sockets.setdefault(conn.player, set()).add(conn)
        conn.send({"type": "presence", "full": True, "players": list(self.shown.values()),
                   "counts": counts(self.shown)})

    def leave(self, conn: LobbyConn) -> None:
        self.conns.discard(conn)
        mine = self.sockets.get(conn.player)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.sockets[conn.player]

    def set_hidden(self, player: str, hidden: bool) -> None:
        """A player changed his setting: shown or hidden from the next tick on, by every
        worker."""
        self.hidden[player] = hidden
        if self.publish is not None:
            self.publish({"kind": "hidden", "player": player, "hidden": hidden})

    def notify(self, player: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every lobby socket of ``player``, on whichever worker."""
        self._deliver(player, message)
        if self.publish is not None:
            self.publish({"kind": "notify", "player": player, "message": message})

    def is_online(self, player: str) -> bool:
        return player in self.shown or player in self.sockets

    def _deliver(self, player: str, message: dict[str, Any]) -> None:
        text = dumps(message)
        for conn in self.sockets.get(player, ()):
            conn.send_text(text)

    # ------------------------------------------------------------------ the bus

    def heard(self, data: Any, worker: str) -> None:
        """What another worker told (:meth:`Cluster.tell_all` of the topic
        ``presence``)."""
        if not isinstance(data, dict):
            return
        kind = data.get("kind")
        if kind == "notify":
            self._deliver(str(data.get("player")), data.get("message") or {})
            return
        if kind == "hidden":
            self.hidden[str(data.get("player"))] = bool(data.get("hidden"))
            return
        if kind == "hello":  # a worker joined: it learns our part at once
            self._beat = 0.0
            return
        part = self.remote.setdefault(worker, _Remote())
        part.heard = time.monotonic()
        if kind == "full":
            part.view = dict(data.get("view") or {})
        elif kind == "diff":
            part.view.update(data.get("set") or {})
            for gone in data.get("gone") or ():
                part.view.pop(gone, None)

    # ------------------------------------------------------------------ the tick

    def mine(self) -> dict[str, Entry]:
        """This worker's part now: its lobby sockets' players, then the seated
        connections of its tables (a seat beats the lobby; a game beats a waiting
        table)."""
        view: dict[str, Entry] = {}
        for player, conns in self.sockets.items():
            first = next(iter(conns))
            if first.name:
                view[player] = {"id": player, "name": first.name, "guest": first.guest,
                                "status": "lobby", "table": None}
        for live in self.hub.tables.values():
            status = live.row.status
            if status not in ("waiting", "playing") or live.over:
                continue
            for conn in live.conns:
                if conn.seat is None or conn.closed:
                    continue
                seat = live.seats[conn.seat]
                if seat.player_id is None:
                    continue
                was = view.get(seat.player_id)
                if was is None or _RANK[was["status"]] < _RANK[status]:
                    # an unlisted table's id is its invitation: the list says where
                    # he is, never which table (tests/test_privacy.py)
                    view[seat.player_id] = {"id": seat.player_id, "name": seat.name,
                                            "guest": seat.guest, "status": status,
                                            "table": live.id if live.row.listed else None}
        return self._visible(view)

    def _visible(self, view: dict[str, Entry]) -> dict[str, Entry]:
        """``view`` without the players who hide (asking the store about the players
        not known yet: they are shown from a later tick)."""
        unknown = [p for p in view if p not in self.hidden and p not in self._asking]
        if unknown:
            self._asking.update(unknown)
            task = asyncio.get_running_loop().create_task(self._ask(unknown))
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)
        return {p: e for p, e in view.items() if self.hidden.get(p) is False}

    async def _ask(self, players: list[str]) -> None:
        try:
            found = await self.hub.db(self.social.settings, players)
            for player, (hidden, _strangers) in found.items():
                self.hidden[player] = hidden
        finally:
            self._asking.difference_update(players)

    def step(self, now: float | None = None) -> None:
        """One tick: tell the others what changed here (or everything, every
        :data:`HEARTBEAT`), and the lobbies what changed anywhere."""
        now = time.monotonic() if now is None else now
        mine = self.mine()
        beat = now - self._beat >= HEARTBEAT
        if beat:
            self._beat = now
            self._forget_settings()
        if self.publish is not None:
            if beat:
                self.publish({"kind": "full", "view": mine})
            elif mine != self.local:
                changed, gone = _diff(self.local, mine)
                self.publish({"kind": "diff", "set": changed, "gone": gone})
        self.local = mine
        for worker in [w for w, part in self.remote.items() if now - part.heard > GONE_AFTER]:
            del self.remote[worker]
        merged = dict(mine)
        for part in self.remote.values():
            for player, entry in part.view.items():
                was = merged.get(player)
                if was is None or _RANK[was["status"]] < _RANK[entry["status"]]:
                    merged[player] = entry
        if merged == self.shown:
            return
        changed, gone = _diff(self.shown, merged)
        self.shown = merged
        self.sent += 1
        text = dumps({"type": "presence", "full": False, "players": list(changed.values()),
                      "gone": gone, "counts": counts(merged), "at": time.time()})
        for conn in list(self.conns):
            conn.send_text(text)

    def _forget_settings(self) -> None:
        """Keep the settings of the players here only (the others are asked again when
        they come)."""
        here = set(self.sockets) | {
            live.seats[c.seat].player_id for live in self.hub.tables.values()
            for c in live.conns if c.seat is not None}
        self.hidden = {p: h for p, h in self.hidden.items() if p in here}


def _diff(before: dict[str, Entry],
          after: dict[str, Entry]) -> tuple[dict[str, Entry], list[str]]:
    changed = {p: e for p, e in after.items() if before.get(p) != e}
    return changed, [p for p in before if p not in after]


def counts(view: dict[str, Entry]) -> dict[str, int]:
    """How many are online, and where: the lobby, a waiting table, a game."""
    out = {"online": len(view), "lobby": 0, "waiting": 0, "playing": 0}
    for entry in view.values():
        out[entry["status"]] += 1
    return out
