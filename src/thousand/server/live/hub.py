"""The live tables: one :class:`~thousand.engine.table.Table` each, the only authority on its game.

Every move of a table — a person's, a bot's, a stand-in's — goes through
:meth:`LiveTable.submit`: under the table's asyncio lock, ``Table.submit`` checks and
applies it, the store writes (commits) the new entries of the move log, and only then is
anybody told, each connection receiving the events its seat may see
(:func:`thousand.engine.table.audience_includes`).  If the store fails, the move is taken back
and the sender told; nothing half-done is ever shown.

Bots think in the bots' pool (server/live/bot_pool.py: processes of their own by default, never
on the event loop) on the view of their seat taken under the lock, and their move is
submitted against the version they thought about, like anybody's: if the table moved on
meanwhile it is refused and the bot thinks again.

The move clock (``clock`` seconds, optional): when a person's turn lasts longer, or he has
been away (no connection) for longer, a heuristic bot plays for him until he is back —
he connects again or sends anything — and everybody is told by a ``seats`` message
(server/live/turns.py).  Or a time control (a game clock with an increment:
server/live/time_control.py): a seat whose time runs out has a bot play that move, and
is marked away after three such moves running; its state is stored with the moves.

The live tables call none of the site's features: a game's end, a table rebuilt from the
store, a ``rematch`` message, a table to be closed are announced on the hub's
:class:`TableEvents`, which the features (server/features/events.py) listen to.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeAlias, TypeVar

import orjson

from thousand.engine import client_messages as cm
from thousand.engine import moves as mv
from thousand.engine.protocol import cards_json, view_changes, view_json
from thousand.engine.rules import Rules
from thousand.engine.table import Table, TableError, audience_includes
from thousand.engine.view import View
from thousand.words.catalogue import illegal_text

from .. import caps as server_caps
from ..caps import CAPS
from ..catalog import name_forms_json
from ..checks import check_chat, hash_token, new_token, seat_token, token_matches
from ..errors import ServerError
from ..holdings import ALL, Holdings, LocalHoldings
from ..ops import metrics
from ..store.tables import ChatRow, Fenced, MovesWrite, SeatRow, Store, TableRow
from .bot_pool import BotAnswer, BotAsk, BotPool
from .bot_turns import Share, ThinkingCaps
from .time_control import GameClock, TimeControl
from .turns import Turns

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

__all__ = ["Conn", "Hub", "LiveTable", "frames", "hub_of", "iso"]

log = logging.getLogger("thousand.server")

T = TypeVar("T")

#: At most this many tables not over at once, by default (``Hub(max_tables=...)``,
#: ``thousand serve --max-tables``); at the cap room is made first (server/live/room.py).
MAX_LIVE_TABLES = CAPS["tables"].value
#: Chat lines a snapshot carries.
CHAT_KEEP = 50
#: Messages waiting for a slow connection before it is dropped (it resyncs on return), by
#: default (the cap ``behind``: ``Conn(behind=)``, ``--limit behind=N``).
QUEUE_LIMIT = CAPS["behind"].value
#: The messages counted against a limit, and which (server/limits.py LIMITS): a sync or
#: a snapshot costs the server a whole answer, so they are limited as moves are.
LIMITED = {"move": "move", "chat": "chat", "hint": "hint", "sync": "sync",
           "snapshot": "sync"}


def dump_bytes(message: Any) -> bytes:
    """A message as JSON in UTF-8, by orjson: several times faster than ``json`` (which
    took more of a move's time than the game itself), compact; a dict's int keys become
    strings, as ``json`` makes them, so that a page reads the same values.  The bus
    (server/cluster/workers.py) sends these bytes; a connection sends :func:`dumps`' text."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)


def dumps(message: Any) -> str:
    """:func:`dump_bytes` as text, for a WebSocket's text frame."""
    return dump_bytes(message).decode()


class _Sent(NamedTuple):
    """What an audience (a seat, or the spectators) was last sent of the table: the
    version, the view (the engine's: ``protocol.view_changes`` compares its fields) and
    whether the game is over, won by whom — what the next ``events`` message's patch is
    taken against."""

    version: int
    view: View
    over: bool
    winner: Any


def iso(ts: float | None) -> str | None:
    """A time as ISO 8601 in UTC (``2025-01-31T18:04:05.123Z``)."""
    if ts is None:
        return None
    moment = dt.datetime.fromtimestamp(ts, dt.UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def table_error_json(e: TableError, names: list[str] | None = None) -> dict[str, Any]:
    """``TableError.to_json()``, with the reason in words for an illegal move."""
    out = e.to_json()
    if e.code == "illegal_move":
        code, params = e.params.get("code"), e.params.get("params") or {}
        try:
            out["text"] = {lang: illegal_text(str(code), params, lang, names)
                           for lang in ("ru", "en")}
        except (KeyError, ValueError, IndexError, TypeError):  # a reason without words yet
            out["text"] = {"ru": str(code), "en": str(code)}
    return out


def _malformed(why: str) -> ServerError:
    return ServerError("malformed", why, why=why)


async def frames(websocket: WebSocket, conn: Conn) -> AsyncIterator[str | bytes]:
    """The frames a table's client sends (text, or bytes as they came: the reader says
    what is wrong with them), until it leaves, its socket goes away or the server closed
    ``conn`` — for a connection served here and for one relayed to another worker alike."""
    while not conn.closed:
        try:
            message = await websocket.receive()
        except RuntimeError:  # the socket went away mid-receive
            return
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        yield raw if raw is not None else (message.get("bytes") or b"")


def read_message(raw: str | bytes) -> cm.LiveTableMessage:
    """A client's message (docs/protocol.md "Messages from a client"), read as
    :mod:`thousand.engine.client_messages` declares it, or the ``malformed`` error that
    says what is wrong."""
    try:
        return cm.read_client_message(raw, cm.LIVE_TABLE_MESSAGES)
    except cm.ProtocolError as e:
        raise _malformed(str(e)) from None


class Conn:
    """One WebSocket connection: a seat (``None``: a spectator) and its outgoing queue,
    which a writer task drains; a connection that falls ``behind`` messages behind is
    dropped."""

    def __init__(self, seat: int | None, behind: int = QUEUE_LIMIT) -> None:
        self.seat = seat
        self.behind = behind
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        #: the WebSocket close code once closed (1012: "reconnect", the table moved to
        #: another worker of many)
        self.close_code = 1000
        self.hint_busy = False
        #: the rate check of this connection's moves, chat and hints (server/limits.py:
        #: ``await limit(kind)`` is None, or the seconds to wait); None: no limits
        self.limit: Callable[[str], Awaitable[int | None]] | None = None

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Send a message already serialised (one text for every connection that gets
        the same message)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.behind:
            log.warning("a connection fell %d messages behind; dropping it", self.behind)
            self.close()
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass(slots=True)
class _LoadLock:
    """The lock of one table's loading, and how many wait for it or hold it."""

    lock: asyncio.Lock
    users: int = 0


def _waiting(free: list[int]) -> ServerError:
    """The refusal of a move or a hint before every seat of the table is taken."""
    return ServerError("waiting", "the game starts when every seat is taken", free=free)


class LiveTable:
    """A table in play (or just finished) and the people at it."""

    def __init__(self, hub: Hub, row: TableRow, table: Table, chat: list[ChatRow]) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.table = table
        self.seats: list[SeatRow] = row.seats
        self.lock = asyncio.Lock()
        self.chat_lock = asyncio.Lock()
        self.hint_lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        n = table.game.n
        self.standin = [False] * n
        self.offline_since: list[float | None] = [time.monotonic()] * n
        self.chat: deque[ChatRow] = deque(chat[-CHAT_KEEP:], maxlen=CHAT_KEEP)
        self.open_hands = False
        self.closed = False
        #: whether a view was sent hiding the hands (the table waited): see sees_as
        self._hid_hands = False
        for seat in row.abandoned:  # left before a restart: his stand-in plays on
            self.standin[seat] = True
        #: the fence of this worker's lease of the table (many workers:
        #: server/cluster/workers.py), passed to every write; None: one process, no leases
        self.fence: int | None = None
        self.claim_no = 0
        #: whose chat each seat does not want (``mute``): seat -> muted seats
        self.muted: dict[int, set[int]] = {}
        # the table header (the whole ruleset: half a snapshot) and its JSON, kept
        self._header: tuple[dict[str, Any], str] | None = None
        # what each audience present (a seat, None: the spectators) was last sent: the
        # next events message carries the changes of its view against it (_send_events)
        self._sent: dict[int | None, _Sent] = {}
        #: a hint or open hands helped somebody at it (the ratings make it training):
        #: stored (:meth:`assist`), so a restart or another worker knows it too
        self.assisted = row.training
        #: the bots that fill a waiting table after its creator's wait (quick play:
        #: server/features/matchmaking.py), cancelled once the table fills or closes
        self.bots_timer: asyncio.Task[None] | None = None
        #: who laid the table, whose fair share of the bots' pool its bots' thinking takes
        #: (server/live/bot_turns.py; :meth:`Hub.laid`); None: unknown, the table's own
        self.share: Share | None = None
        #: its bots' moves, its move clock or game clock and its away timers
        self.turns = Turns(self)
        #: whose turn was last announced (:meth:`kick`)
        self._turn_told: int | None = None
        for seat in range(n):  # timed out moves running before a restart: still away
            if self.turns.away(seat):
                self.standin[seat] = True

    # ------------------------------------------------------------------ what it shows

    @property
    def over(self) -> bool:
        return self.table.over

    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human" and s.token_hash is None]

    def online(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.conns)

    def creator_seat(self) -> int | None:
        """The seat of the person who laid the table (he takes the first human seat)."""
        humans = self.human_seats()
        return humans[0] if humans else None

    def lively(self) -> bool:
        """Whether the lobby lists the table: it has a free seat, a person at it online,
        or no person at all (bots play it out).  A table its people left stays in the
        store, and comes back to the list when one of them does."""
        humans = self.human_seats()
        return bool(self.free_seats()) or not humans or any(self.online(s) for s in humans)

    @property
    def abandoned(self) -> set[int]:
        """The seats whose people left the rated game after the deal (:meth:`abandon`),
        as the store keeps them."""
        return self.row.abandoned

    def bot_plays(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot" or self.standin[seat]

    def seats_json(self) -> list[dict[str, Any]]:
        out = []
        for s in self.seats:
            bot = s.kind == "bot"
            out.append({
                "seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name,
                "guest": s.guest, "taken": bot or s.token_hash is not None,
                "online": bot or self.online(s.seat),
                "bot_playing": bot or self.standin[s.seat],
                "away": self.turns.away(s.seat),
            })
        return out

    def spectators(self) -> int:
        return sum(1 for c in self.conns if c.seat is None)

    def info_json(self) -> dict[str, Any]:
        """The table as ``GET /api/tables`` lists it."""
        return {
            "table": self.id, "preset": self.row.preset, "seats": self.seats_json(),
            "status": self.row.status, "spectators": self.spectators(),
            "created": iso(self.row.created), "clock": self.row.clock,
            "time_control": None if (c := self.turns.control) is None else c.to_json(),
            "open": self.row.listed, "version": self.table.version,
            **self.hub.events.parts(self.hub.events.listed, self),
        }

    def hands_json(self) -> list[list[str] | None]:
        game = self.table.game
        deal = game.deal if game.deal is not None else game.last_finished_deal()
        return [cards_json(h) for h in deal.hands]

    def _opened_for(self, seat: int | None) -> bool:
        return self.open_hands and seat is not None and self.human_seats() == [seat]

    def clock_json(self) -> dict[str, Any] | None:
        """The table's clock as a snapshot shows it (:meth:`Turns.clock_json`)."""
        return self.turns.clock_json(self.row.clock)

    def sees_as(self, seat: int | None) -> int | None:
        """Whose view ``seat`` is sent: its own, or while the table waits for people
        nobody's (a spectator's) — no hand is shown before every seat is taken, so that
        leaving a waiting table and asking again (quick play) cannot pick a hand (issue
        27).  When the table fills, everybody gets a new snapshot (:meth:`broadcast_seats`)."""
        if self.row.status == "waiting":
            self._hid_hands = True
            return None
        return seat

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        snap = self.table.snapshot(self.sees_as(seat))
        snap["seat"] = seat
        snap["id"] = self.id
        snap["status"] = self.row.status
        snap["clock"] = self.clock_json()
        snap["seats"] = self.seats_json()
        deaf = self.muted.get(seat, set()) if seat is not None else set()
        snap["chat"] = [chat_json(c) for c in self.chat if c.seat not in deaf]
        snap["muted"] = sorted(deaf)
        snap["name_forms"] = name_forms_json(tuple(self.table.names))
        snap["open"] = self._opened_for(seat)
        snap.update(self.hub.events.parts(self.hub.events.shown, self))
        if snap["open"]:
            snap["hands"] = self.hands_json()
        return snap

    def snapshot_text(self, seat: int | None) -> str:
        """:meth:`snapshot` as JSON; the header (the ruleset and the names: about half of
        it) is serialised once and kept while it stays the same.  Its view is what the
        seat's next ``events`` message is a patch against."""
        snap = self.snapshot(seat)
        self._sent[seat] = _Sent(snap["version"], self.table.view(self.sees_as(seat)),
                                 snap["over"], snap["winner"])
        header = snap.pop("table")
        if self._header is None or self._header[0] != header:
            self._header = (header, dumps(header))
        body = dumps(snap)
        return f'{body[:-1]},"table":{self._header[1]}}}'

    def send_snapshot(self, conn: Conn) -> None:
        if not conn.closed:
            conn.send_text(self.snapshot_text(conn.seat))

    def broadcast(self, message: dict[str, Any]) -> None:
        text = dumps(message)
        for conn in list(self.conns):
            conn.send_text(text)

    def broadcast_seats(self) -> None:
        self.broadcast({"type": "seats", "seats": self.seats_json()})
        if self._hid_hands and self.row.status != "waiting":
            self._hid_hands = False  # the table filled: each seat's own view at last
            for conn in list(self.conns):
                self.send_snapshot(conn)

    def _view_patch(self, seat: int | None) -> dict[str, Any]:
        """What an ``events`` message tells ``seat`` of its view (docs/protocol.md):
        ``view``, the top-level keys whose value differs from the view it was last sent,
        and ``base``, the version that patch applies to (``over``/``winner`` when they
        changed, and the features' parts with the game's end); the whole view and
        ``"base": null`` when nothing was sent to it yet.
        The new view is kept for the next patch."""
        table = self.table
        view = table.view(self.sees_as(seat))
        over, winner = table.over, table.game.winner
        last = self._sent.get(seat)
        self._sent[seat] = _Sent(table.version, view, over, winner)
        out: dict[str, Any]
        if last is None:
            out = {"base": None, "view": view_json(view), "over": over, "winner": winner}
        else:
            out = {"base": last.version, "view": view_changes(last.view, view)}
            if over != last.over:
                out["over"] = over
            if winner != last.winner:
                out["winner"] = winner
        if over and "over" in out:  # the end: what the features add to it (the rematch)
            out.update(self.hub.events.parts(self.hub.events.shown_at_end, self))
        return out

    def _send_events(self, events: list[dict[str, Any]]) -> None:
        """To each connection the events its seat may see and the changes of its view
        (:meth:`_view_patch`: a page needs no snapshot after a move); the message is built
        and serialised once for every connection that sees the same (a seat's
        connections, the spectators), and only the views of the audiences present are
        built.  The views kept for an audience that has left are dropped."""
        version = self.table.version
        hands = self.hands_json() if self.open_hands else None
        texts: dict[tuple[int | None, bool], str] = {}
        patches: dict[int | None, dict[str, Any]] = {}
        for conn in list(self.conns):
            seat = conn.seat
            opened = hands is not None and self._opened_for(seat)
            key = (seat, opened)
            text = texts.get(key)
            if text is None:
                patch = patches.get(seat)
                if patch is None:
                    patch = patches[seat] = self._view_patch(seat)
                mine = [e for e in events
                        if audience_includes(e["audience"], self.sees_as(seat))]
                message: dict[str, Any] = {"type": "events", "version": version,
                                           "events": mine, **patch}
                if opened:
                    message["hands"] = hands
                text = texts[key] = dumps(message)
            conn.send_text(text)
        for seat in [s for s in self._sent if s not in patches]:
            del self._sent[seat]  # nobody of it here: its next connection gets a snapshot

    # ------------------------------------------------------------------ people

    def seat_of_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.kind == "human" and token_matches(token, s.token_hash):
                return s.seat
        return None

    async def attach(self, conn: Conn) -> None:
        """A connection joins: its snapshot first, then every later event (under the lock,
        so none falls between)."""
        if conn.seat is not None:
            await self.hub.events.tell(self.hub.events.seated, self)
        async with self.lock:
            self.conns.add(conn)
            seat = conn.seat
            if seat is not None:
                self.offline_since[seat] = None
                self.turns.back(seat)
            self.send_snapshot(conn)
        self.broadcast_seats()
        self.kick()

    def detach(self, conn: Conn) -> None:
        self.conns.discard(conn)
        conn.close()
        seat = conn.seat
        if self.closed:
            return
        if seat is not None and not self.online(seat):
            self.offline_since[seat] = time.monotonic()
            self.turns.gone(seat)
        self.broadcast_seats()
        if self.over and not self.conns:
            self.hub.forget(self)

    async def assist(self) -> None:
        """A hint or open hands helps somebody at the table: the game is training, which
        the ratings pass by.  Stored before the help is given (``TableRow.training``), so
        that a restart or another worker taking the table over does not rate it."""
        if self.assisted:
            return
        try:
            await self.hub.db(self.hub.store.mark_training, self.id, fence=self.fence)
        except Fenced:
            raise self.hub.fenced(self) from None
        self.assisted = self.row.training = True

    async def abandon(self, seat: int) -> None:
        """The person of ``seat`` leaves the rated game after the deal: a bot plays his
        seat to the end, his token holds it no more, and the rating counts the game as
        lost by him (the ratings, told of the game's end) — so that leaving is no way out
        of a bad hand (issue 27).  Stored first (``seats.abandoned``), so that a restart
        or another worker that takes the table over counts it too.  The caller holds the
        lock."""
        try:
            await self.hub.db(self.hub.store.abandon, self.id, seat, fence=self.fence)
        except Fenced:
            raise self.hub.fenced(self) from None
        self.seats[seat].abandoned = True
        self.standin[seat] = True
        for conn in list(self.conns):
            if conn.seat == seat:
                conn.send({"type": "error", "code": "left", "params": {},
                           "message": "you left this table"})
                conn.close()
        log.info("table %s: seat %d left the rated game; a bot plays it out", self.id, seat)

    def _back(self, seat: int) -> None:
        """The person of ``seat`` is here: his stand-in stops."""
        self.turns.stand_down(seat)

    # ------------------------------------------------------------------ messages

    async def handle(self, conn: Conn, raw: str | bytes) -> None:
        """One message from a connection; every refusal is answered to it alone."""
        started = time.perf_counter()  # the frame was just read: a move's latency
        try:
            msg = read_message(raw)
            if conn.seat is not None and self.standin[conn.seat]:
                self._back(conn.seat)
            kind = msg.type
            limited = LIMITED.get(kind)
            if conn.limit is not None and limited is not None:
                wait = await conn.limit(limited)
                if wait is not None:
                    metrics.rate_limited(limited)
                    raise ServerError("rate_limited", f"too many {kind} messages: wait "
                                      f"{wait} s", seconds=wait, limit=limited)
            if isinstance(msg, cm.MoveMessage):
                if conn.seat is None:
                    raise TableError("no_such_seat", seat=None)
                await self.submit(conn.seat, msg.move, msg.version)
                metrics.move_done(time.perf_counter() - started, "person")
            elif isinstance(msg, cm.SyncMessage):
                async with self.lock:
                    events = self.table.events_since(self.sees_as(conn.seat),
                                                     msg.version)
                    reply: dict[str, Any] = {"type": "events", "version": self.table.version,
                                             "events": events}
                    if self._opened_for(conn.seat):
                        reply["hands"] = self.hands_json()
                    conn.send(reply)
            elif isinstance(msg, cm.SnapshotMessage):
                async with self.lock:
                    self.send_snapshot(conn)
            elif isinstance(msg, cm.ChatMessage):
                await self.say(conn, msg.text)
            elif isinstance(msg, cm.HintMessage):
                self._start_hint(conn)
            elif isinstance(msg, cm.OpenMessage):
                await self.set_open(conn, msg.on)
            elif isinstance(msg, cm.MuteMessage | cm.UnmuteMessage):
                self.set_muted(conn, msg.seat, isinstance(msg, cm.MuteMessage))
            elif isinstance(msg, cm.RematchMessage):
                for asked in self.hub.events.rematch_asked:
                    await asked(self, conn)
        except TableError as e:
            conn.send(table_error_json(e, self.table.names))
        except ServerError as e:
            conn.send(e.to_json())

    async def say(self, conn: Conn, text: str) -> None:
        seat = conn.seat
        if seat is None:
            raise ServerError("spectator", "spectators do not chat; take a seat to talk")
        try:
            line = check_chat(text)
        except ValueError as e:
            raise _malformed(str(e)) from None
        for check in self.hub.events.chatting:
            await check(self, seat, line)
        async with self.chat_lock:
            try:
                row = await self.hub.db(self.hub.store.add_chat, self.id, seat,
                                        self.seats[seat].name, line, fence=self.fence)
            except Fenced:
                raise self.hub.fenced(self) from None
            self.chat.append(row)
            text = dumps(chat_json(row))
            for c in list(self.conns):
                if c.seat is None or seat not in self.muted.get(c.seat, ()):
                    c.send_text(text)

    def set_muted(self, conn: Conn, seat: int, on: bool) -> None:
        """``mute``/``unmute``: the chat of ``seat`` is not sent to this connection's seat
        (any of its connections, now and when it comes back) while the table lives; its
        connections are told the seats it has muted."""
        if conn.seat is None:
            raise ServerError("spectator", "only a seated player mutes another")
        if not 0 <= seat < len(self.seats) or seat == conn.seat:
            raise ServerError("no_such_seat", "mute another seat of this table",
                              seat=seat)
        deaf = self.muted.setdefault(conn.seat, set())
        if on:
            deaf.add(seat)
        else:
            deaf.discard(seat)
        reply = dumps({"type": "muted", "seats": sorted(deaf)})
        for c in list(self.conns):
            if c.seat == conn.seat:
                c.send_text(reply)

    def _start_hint(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ServerError("spectator", "a hint is for a seat")
        if conn.hint_busy:
            raise ServerError("busy", "a hint is being worked out already")
        conn.hint_busy = True
        task = asyncio.create_task(self._hint(conn, conn.seat))
        self.hub.tasks.add(task)
        task.add_done_callback(self.hub.tasks.discard)

    async def _hint(self, conn: Conn, seat: int) -> None:
        try:
            conn.send(await self.turns.hint(seat, lambda: _waiting(self.free_seats())))
        except TableError as e:
            conn.send(table_error_json(e, self.table.names))
        except ServerError as e:
            conn.send(e.to_json())
        except Exception:
            log.exception("table %s: the hint failed", self.id)
            conn.send(ServerError("hint_failed", "no hint this time").to_json())
        finally:
            conn.hint_busy = False

    async def set_open(self, conn: Conn, on: bool) -> None:
        if conn.seat is None or self.human_seats() != [conn.seat]:
            raise ServerError("not_allowed", "open hands are for a table of one person and "
                              "bots (training)")
        async with self.lock:
            if on:
                await self.assist()  # open hands: training, not rated
            self.open_hands = on
            for c in list(self.conns):
                if c.seat == conn.seat:
                    self.send_snapshot(c)

    # ------------------------------------------------------------------ moves

    async def submit(self, seat: int, move: str | mv.Move, version: int) -> None:
        """Make a move for ``seat`` (raises :class:`TableError`/:class:`ServerError`).
        The commit and the telling run to the end even if the caller goes away."""
        work = asyncio.ensure_future(self._submit(seat, move, version))
        work.add_done_callback(_retrieve)
        await asyncio.shield(work)

    async def _submit(self, seat: int, move: str | mv.Move, version: int) -> None:
        started = time.perf_counter()  # a bot's move: its latency (a person's: handle)
        async with self.lock:
            if self.row.status == "waiting":
                raise _waiting(self.free_seats())
            table = self.table
            start = len(table.moves)
            events = table.submit(seat, move, version)
            added = table.moves[start:]
            over = (table.game.winner, list(table.game.scores)) if table.over else None
            game_clock = self.turns.charge(seat)
            try:
                await self.hub.write_moves(MovesWrite(
                    self.id, start, added, over, self.fence,
                    None if game_clock is None else game_clock.to_json()))
            except Fenced:  # another worker holds the table now: never written here
                for _ in added:
                    table.undo()
                raise self.hub.fenced(self) from None
            except Exception:
                log.exception("table %s: cannot store a move; taking it back", self.id)
                for _ in added:
                    table.undo()
                raise ServerError("server_error", "the move could not be stored; try again",
                                  status=500) from None
            if over is not None:
                self.row.status = "over"
                self.row.finished = time.time()
                self.row.winner, self.row.scores = over[0], over[1]
            self._send_events(events)
            self.turns.charged(seat, game_clock)
            if self.bot_plays(seat):  # (its caller may be cancelled by now: count here)
                metrics.move_done(time.perf_counter() - started, "bot")
        if over is not None:  # the features hear of it: the ratings, the tournaments
            await self.hub.events.tell(self.hub.events.game_over, self)
        if self.over:
            self.turns.stop()
            if not self.conns:
                self.hub.forget(self)
        else:
            self.kick()

    def kick(self) -> None:
        """Start what the table waits for: a bot's move, or the clock of a person's; a
        person's turn that has just come is announced (``TableEvents.turn``)."""
        self.turns.kick()
        seat = self.table.to_move if self.row.status == "playing" else None
        if seat != self._turn_told:  # once a turn, not on every kick
            self._turn_told = seat
            if seat is not None and not self.bot_plays(seat):
                for listener in self.hub.events.turn:
                    listener(self, seat)

    def close(self, code: int = 1000) -> None:
        self.closed = True
        self.hub.bots.forget(self.id)  # its bots leave their process
        self.turns.stop()
        if self.bots_timer is not None:
            self.bots_timer.cancel()
            self.bots_timer = None
        for conn in list(self.conns):
            conn.close(code)


#: One job of the store's thread (:meth:`Hub.write`, :meth:`Hub.write_moves`): a call, or
#: a table's moves, which the thread may commit together with its neighbours'.
_Job: TypeAlias = Callable[[], Any] | MovesWrite


def _run_all(jobs: list[_Job], store: Store) -> list[tuple[bool, Any]]:
    """Each job in turn (on the store's thread): (True, its result) or (False, what it
    raised).  Consecutive writes of moves go to the store together, in ONE transaction
    (:meth:`Store.append_many`, a group commit: one commit for many tables' moves; each
    write still fails alone)."""
    out: list[tuple[bool, Any]] = []
    i = 0
    while i < len(jobs):
        writes: list[MovesWrite] = []
        for job in jobs[i:]:
            if not isinstance(job, MovesWrite):
                break
            writes.append(job)
        started = time.perf_counter()
        if len(writes) > 1:
            out.extend((True, None) if e is None else (False, e)
                       for e in store.append_many(writes))
            i += len(writes)
        else:
            out.append(_run_one(jobs[i], store))
            i += 1
        metrics.store_written(time.perf_counter() - started)
    return out


def _run_one(job: _Job, store: Store) -> tuple[bool, Any]:
    """One job alone: a table's moves in their own transaction, or the call."""
    try:
        if isinstance(job, MovesWrite):
            store.append_many([job], alone=True)
            return True, None
        return True, job()
    except Exception as e:
        return False, e


def _retrieve(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()  # the awaiting caller reports it; never "never retrieved"


def _token_for(owner: tuple[str, str] | None, table_id: str, seat: int) -> str:
    """A new seat's token: a player's is derived from his secret, anybody else's random."""
    return new_token() if owner is None else seat_token(owner[1], table_id, seat)


def chat_json(row: ChatRow) -> dict[str, Any]:
    return {"type": "chat", "seat": row.seat, "name": row.name, "text": row.text,
            "at": iso(row.at)}


#: A listener of an announcement about one table.
TableListener: TypeAlias = Callable[["LiveTable"], Awaitable[None]]
#: A feature's part of what a table shows: top-level keys and their values.
Part: TypeAlias = Callable[["LiveTable"], dict[str, Any]]


@dataclass
class TableEvents:
    """What the live tables announce, and who listens (docs/architecture.md "The server's
    rooms").  The live tables know nothing of the site's features: a game's end, a table
    rebuilt from the store, a ``rematch`` message, the hub's start are announced here,
    and the features (server/features/) subscribe when the application is made.  A
    feature may add its part to what a table shows and refuse that a table be closed.
    The listeners of one announcement are awaited one after the other in the order they
    subscribed (the order of their effects and messages), and one that raises stops the
    announcement, as a direct call would."""

    #: a move ended the table's game, stored and sent to everybody at it
    game_over: list[TableListener] = field(default_factory=list)
    #: a table was rebuilt from the store (after a restart, or taken over)
    rebuilt: list[TableListener] = field(default_factory=list)
    #: a seat's connection is joining the table (before its snapshot)
    seated: list[TableListener] = field(default_factory=list)
    #: the hub started and rebuilt the unfinished tables (one process, no cluster)
    started: list[Callable[[Hub], Awaitable[None]]] = field(default_factory=list)
    #: a seat's ``rematch`` message (a listener raises ServerError for a refusal)
    rematch_asked: list[Callable[[LiveTable, Conn], Awaitable[None]]] = field(
        default_factory=list)
    #: a table is to be closed by its creator: a feature's refusal, or None
    closing: list[Callable[[LiveTable], ServerError | None]] = field(default_factory=list)
    #: a seat's chat line, checked before it is said (a listener raises ServerError for
    #: a refusal: a muted player, a filtered word)
    chatting: list[Callable[[LiveTable, int, str], Awaitable[None]]] = field(
        default_factory=list)
    #: it became a person's turn (the seat), a new move or the table new to this
    #: process; a listener must not block: it starts what it does (Web Push)
    turn: list[Callable[[LiveTable, int], None]] = field(default_factory=list)
    #: the features' parts of a table's snapshot
    shown: list[Part] = field(default_factory=list)
    #: the features' parts of a table's line in ``GET /api/tables``
    listed: list[Part] = field(default_factory=list)
    #: the features' parts of the events message that ends a table's game
    shown_at_end: list[Part] = field(default_factory=list)

    @staticmethod
    async def tell(listeners: list[TableListener], live: LiveTable) -> None:
        """Announce to each listener in turn."""
        for listener in listeners:
            await listener(live)

    @staticmethod
    def parts(parts: list[Part], live: LiveTable) -> dict[str, Any]:
        """The features' parts, in the order they subscribed."""
        out: dict[str, Any] = {}
        for part in parts:
            out.update(part(live))
        return out

    def refusal_to_close(self, live: LiveTable) -> ServerError | None:
        """The first feature's refusal to close ``live``, or None."""
        for check in self.closing:
            refused = check(live)
            if refused is not None:
                return refused
        return None


class Leases(Protocol):
    """What the hub asks of the cluster (server/cluster/workers.py) when many workers
    share the tables: the live tables import nothing of it."""

    @property
    def claims(self) -> int: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def claim(self, table_id: str) -> int | None: ...

    async def release(self, table_id: str) -> None: ...

    def drop(self, live: LiveTable) -> None: ...

    def stats(self) -> dict[str, int]: ...


class Hub:
    """Every live table of the server, the store, the bots' pool (``bot_processes``
    processes for bots and hints, server/live/bot_pool.py; 0: ``bots_threads`` threads of this
    process) and one thread for the store (SQLite likes one writer)."""

    def __init__(self, store: Store, *, bots_threads: int = 2, bot_processes: int = 1,
                 bot_delay: float = 0.6, max_tables: int = MAX_LIVE_TABLES,
                 thinking: ThinkingCaps | None = None,
                 caps: Mapping[str, int] | None = None) -> None:
        self.store = store
        self.max_tables = max_tables
        #: called at the cap before a table is refused: ends the idle tables of those
        #: who hold most (server/live/room.py; set by create_app)
        self.make_room: Callable[[], Awaitable[None]] | None = None
        #: told of the tables a tournament lays for its creator (player id, table ids),
        #: so that they count toward his live tables (server/limits.py; create_app)
        self.laid_for: Callable[[str, list[str]], None] | None = None
        #: the live tables of the whole server against ``max_tables`` (server/holdings.py):
        #: this process's alone unless create_app gives it the workers' count
        self.holdings: Holdings = LocalHoldings()
        self.laying = 0  # tables between the cap's check and the memory (:meth:`create`)
        self.bot_delay = bot_delay
        self.tables: dict[str, LiveTable] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: where bots and hints think; ``bots.queued()``/``bots.busy()`` for the metrics
        self.bots = BotPool(bot_processes, threads=max(1, bots_threads), caps=thinking)
        #: the server's caps (server/caps.py: ``--limit NAME=N``), ``max_tables`` the
        #: ``tables`` one; each module that keeps to one reads it here
        self.caps = server_caps.defaults({**(caps or {}), "tables": max_tables})
        self._db_pool = ThreadPoolExecutor(1, thread_name_prefix="thousand-db")
        self._loading: dict[str, _LoadLock] = {}
        self.quick_lock = asyncio.Lock()  # quick play seats one player at a time
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writes: list[tuple[_Job, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: many workers (server/cluster/workers.py): set by ``create_app`` with ``--redis``
        self.cluster: Leases | None = None
        #: what its tables announce, and the features that listen (create_app subscribes
        #: them: :func:`thousand.server.features.events.subscribe`)
        self.events = TableEvents()

    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread."""
        return await self.loop().run_in_executor(self._db_pool, partial(fn, *args, **kwargs))

    async def write(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call on the store's thread, batched: the calls made while the
        thread is busy go to it together, in order, as one job (each call its own result
        or exception; consecutive writes of moves in one transaction: :func:`_run_all`) —
        one hand-over to the thread and one commit for many tables' moves instead of one
        each."""
        return await self._queue(partial(fn, *args, **kwargs))  # type: ignore[no-any-return]

    async def write_moves(self, write: MovesWrite) -> None:
        """Commit one table's new moves (:meth:`Store.append_moves`) on the store's thread,
        in the same batches as :meth:`write`: the moves of tables that moved while the
        thread was busy are one transaction.  Returns once they are committed (a live
        table tells nobody of a move before), raises what the store raised."""
        await self._queue(write)

    async def _queue(self, job: _Job) -> Any:
        future: asyncio.Future[Any] = self.loop().create_future()
        self._writes.append((job, future))
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_batches())
        return await future

    async def _write_batches(self) -> None:
        try:
            while self._writes:
                batch, self._writes = self._writes, []
                try:
                    results = await self.loop().run_in_executor(
                        self._db_pool, _run_all, [job for job, _ in batch], self.store)
                except asyncio.CancelledError:
                    for _, future in batch:
                        future.cancel()
                    raise
                except Exception as e:  # the pool is shut down: the server stops
                    results = [(False, e)] * len(batch)
                for (_, future), (ok, value) in zip(batch, results, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
        finally:
            self._writer = None

    async def think(self, ask: BotAsk) -> BotAnswer:
        """A bot's move (never fails: a random legal move when no bot can think) or, for
        ``ask.purpose == "hint"``, a hint (raises when none can be had), from the bots'
        pool, on the fair share of the table's layer (server/live/bot_turns.py)."""
        live = self.tables.get(ask.table)
        share = live.share if live is not None else None
        if ask.purpose == "hint":
            return await self.bots.hint(ask, share)
        return await self.bots.choose(ask, share)

    def laid(self, table_id: str, share: Share) -> None:
        """``share`` laid the table (server/limits.py tells): its bots think on that
        share — the first layer's: a quick-play seat at a table somebody else laid
        changes nothing."""
        live = self.tables.get(table_id)
        if live is not None and live.share is None:
            live.share = share

    async def offload(self, fn: Callable[..., T], *args: Any) -> T:
        """Run other slow work (a replay) off the event loop."""
        return await asyncio.to_thread(fn, *args)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Rebuild every unfinished table from its move log; each goes on from the same
        move (its bots and clocks start again)."""
        self.loop()
        if self.cluster is not None:  # the tables are taken over as their leases allow
            await self.cluster.start()
            return
        rows = await self.db(self.store.unfinished)
        for row in rows:
            try:
                live = await self._rebuild(row)
            except Exception:
                log.exception("table %s cannot be rebuilt from its moves; left as it is",
                              row.id)
                continue
            self.tables[row.id] = live
            if live.over and row.status != "over":
                await self.db(self.store.set_status, row.id, "over")
                live.row.status = "over"
        for live in list(self.tables.values()):
            live.turns.start_away_timers()
            live.kick()
        for started in self.events.started:  # running tournaments find their tables
            await started(self)
        if rows:
            log.info("restored %d unfinished tables", len(self.tables))

    async def _rebuild(self, row: TableRow) -> LiveTable:
        def build() -> Table:
            rules = Rules.from_json(row.rules)
            return Table.from_moves(rules, row.names, row.first_dealer, row.seed, row.moves)

        table = await self.offload(build)
        chat = await self.db(self.store.chat, row.id, CHAT_KEEP)
        live = LiveTable(self, row, table, chat)
        await self.events.tell(self.events.rebuilt, live)  # a finished one's ratings
        return live

    async def stop(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        for live in list(self.tables.values()):
            live.close()
        for task in list(self.tasks):
            task.cancel()
        self.bots.close()  # the bot processes end (their thinking too)
        self._db_pool.shutdown(wait=True)

    def live_count(self) -> int:
        """The tables in memory that are not over."""
        return sum(1 for t in self.tables.values() if not t.over)

    def held_here(self) -> int:
        """The live tables of this process and those it is laying now (their places
        taken under the cap: :meth:`create`)."""
        return self.live_count() + self.laying

    async def live_total(self) -> int:
        """The tables not over of the whole server: this worker's and, with many, the
        others' (server/holdings.py)."""
        return self.live_count() + (await self.holdings.elsewhere("tables", [ALL]))[0]

    async def _room_for_one(self) -> bool:
        """Whether one more table fits under ``max_tables``, of the whole server (its
        place taken at once, so that workers laying tables together cannot all pass the
        cap); at the cap :attr:`make_room` ends tables first."""
        for first in (True, False):
            want = [(ALL, self.held_here(), self.max_tables)]
            if await self.holdings.take("tables", want) is None:
                return True
            if not first or self.make_room is None:
                break
            await self.make_room()
        return False

    def still_live(self, table_id: str) -> bool:
        """Whether a table is in memory, waiting or playing (the ``live`` limit counts
        these)."""
        live = self.tables.get(table_id)
        return live is not None and not live.over and live.row.status in ("waiting",
                                                                          "playing")

    def forget(self, live: LiveTable) -> None:
        """Let a finished table with nobody at it leave the memory (it stays stored)."""
        if live.over and not live.conns and self.tables.get(live.id) is live:
            live.close()
            del self.tables[live.id]
            if self.cluster is not None and live.fence is not None:
                self._spawn(self.cluster.release(live.id))

    def stats(self) -> dict[str, int]:
        """Counters the metrics read: live tables, connections, and with many workers
        the cluster's (lease take-overs, tables lost, relays: server/cluster/workers.py)."""
        out = {"live_tables": sum(1 for t in self.tables.values() if not t.over),
               "tables_in_memory": len(self.tables),
               "connections": sum(len(t.conns) for t in self.tables.values())}
        if self.cluster is not None:
            out.update(self.cluster.stats())
        return out

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def fenced(self, live: LiveTable) -> ServerError:
        """A write of ``live`` was refused by its fence (another worker took the table
        over): the table leaves this worker at once, its connections closed with 1012
        (they reconnect to its new worker); the sender is told to reconnect."""
        log.warning("table %s: fenced (another worker holds it now); dropping it", live.id)
        if self.cluster is not None:
            self.cluster.drop(live)
        return ServerError("moved", "the table moved to another worker: reconnect",
                           status=409)

    async def get(self, table_id: str, *, revive: bool = False) -> LiveTable | None:
        """A table by id: live, or a finished one loaded from the store; an adjourned one
        only when ``revive`` (a player of it came back: server/live/reaper.py)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        async with self.loading(table_id):
            live = self.tables.get(table_id)
            if live is not None:
                return live
            if self.cluster is not None:
                return await self._take_over(table_id, revive=revive)
            row = await self.db(self.store.load, table_id)
            if row is None or row.status not in ("over", "adjourned") or (
                    row.status == "adjourned" and not revive):
                return None  # unknown, or unfinished but not rebuilt (see the log)
            live = await self._rebuild(row)
            self.tables[table_id] = live
            if row.status == "adjourned":  # opened again: the game goes on (server/live/reaper.py)
                await self.db(self.store.set_status, table_id, "playing")
                live.row.status = "playing"
                live.turns.start_away_timers()
                live.kick()
            return live

    @contextlib.asynccontextmanager
    async def loading(self, table_id: str) -> AsyncIterator[None]:
        """The lock of loading (or letting go) one table: never two loads of one table at
        once, while different tables load side by side (a dead worker's hundreds of
        tables are taken over together, not one after another)."""
        entry = self._loading.get(table_id)
        if entry is None:
            entry = self._loading[table_id] = _LoadLock(asyncio.Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0 and self._loading.get(table_id) is entry:
                del self._loading[table_id]

    async def _take_over(self, table_id: str, *, revive: bool) -> LiveTable | None:
        """Many workers: a table not in memory here.  A finished one is loaded (and held
        while it is here: its rematch, its ratings); one waiting or playing is taken over
        when its lease allows (it expired, or nobody ever held it), rebuilt from the
        store with the new fence, and goes on (its bots, its clocks); None when another
        worker holds it or it is unknown."""
        assert self.cluster is not None
        row = await self.db(self.store.load, table_id)
        if row is None or row.status == "closed" or (row.status == "adjourned"
                                                     and not revive):
            return None
        fence = await self.cluster.claim(table_id)
        if fence is None:
            return None
        row = await self.db(self.store.load, table_id)  # as it is now the lease is ours
        if row is None:
            return None
        live = await self._rebuild(row)
        live.fence = fence
        live.claim_no = self.cluster.claims
        self.tables[table_id] = live
        if live.over and row.status not in ("over", "closed"):
            await self.db(self.store.set_status, table_id, "over", fence=fence)
            live.row.status = "over"
        if row.status == "adjourned":
            await self.db(self.store.set_status, table_id, "playing", fence=fence)
            live.row.status = "playing"
        if not live.over:
            live.turns.start_away_timers()
            live.kick()
        return live

    # ------------------------------------------------------------------ tables

    async def create(self, rules: Rules, seats: list[SeatRow], clock: float | None,
                     listed: bool, owner: tuple[str, str] | None = None, *,
                     first_dealer: int | None = None, table_id: str | None = None,
                     replay: str | None = None, control: TimeControl | None = None,
                     seed: int | None = None,
                     ) -> tuple[LiveTable, int | None, str | None]:
        """Lay a table; the first human seat goes to its creator: (table, seat, token).
        ``owner`` (player id, seat secret) is the creator's player when he has a session:
        the seat is his, its token derived from his secret (checks.seat_token).
        ``first_dealer`` (drawn by lot from the seed when None) and ``table_id`` are
        for a rematch (server/features/rematch.py).  ``control``: a time control (a game
        clock) instead of the move clock ``clock``.  ``seed``: the game's secret seed (a
        deal of the day's: server/features/daily.py), else a random one."""
        self.laying += 1  # its place is counted from the cap's check until it is laid
        try:
            if not await self._room_for_one():
                raise ServerError("too_many_tables", "the server has as many tables as it "
                                  "can hold; try later", status=503)
            return await self._lay(rules, seats, clock, listed, owner, first_dealer,
                                   table_id, replay, control, seed)
        finally:
            self.laying -= 1

    async def _lay(self, rules: Rules, seats: list[SeatRow], clock: float | None,
                   listed: bool, owner: tuple[str, str] | None, first_dealer: int | None,
                   table_id: str | None, replay: str | None, control: TimeControl | None,
                   seed: int | None = None) -> tuple[LiveTable, int | None, str | None]:
        table = Table(rules, [s.name for s in seats], first_dealer, seed)
        table_id = table_id or secrets.token_urlsafe(12)
        seat: int | None = None
        token: str | None = None
        for s in seats:
            if s.kind == "human":
                seat, token = s.seat, _token_for(owner, table_id, s.seat)
                s.token_hash = hash_token(token)
                s.player_id = owner[0] if owner is not None else None
                break
        await self.mark_guests(seats)
        waiting = any(s.kind == "human" and s.token_hash is None for s in seats)
        row = TableRow(
            id=table_id, created=time.time(), preset=rules.preset,
            rules=rules.to_json(), names=[s.name for s in seats],
            first_dealer=table.game.first_dealer, seed=table.seed,
            clock=clock if control is None else None,
            status="waiting" if waiting else "playing", listed=listed, seats=seats,
            replay=replay,
            game_clock=None if control is None else GameClock.start(control,
                                                                    len(seats)).to_json(),
        )
        fence = None if self.cluster is None else await self.cluster.claim(table_id)
        await self.db(self.store.create_table, row)
        live = LiveTable(self, row, table, [])
        live.fence = fence
        live.claim_no = 0 if self.cluster is None else self.cluster.claims
        self.tables[row.id] = live
        live.kick()
        return live, seat, token

    async def close_table(self, live: LiveTable) -> None:
        """End a table that is not over, for good (its creator asked: docs/server.md):
        stored as ``closed`` first, then everybody at it is told and disconnected, and it
        leaves the memory; no restart brings it back."""
        refused = self.events.refusal_to_close(live)  # a tournament's: its round waits
        if refused is not None:
            raise refused
        async with live.lock:
            if live.over or live.row.status == "closed":
                raise ServerError("game_over", "the game is over", status=409)
            try:
                done = await self.db(self.store.close_table, live.id, fence=live.fence)
            except Fenced:
                raise self.fenced(live) from None
            if not done:
                raise ServerError("game_over", "the game is over", status=409)
            live.row.status = "closed"
            live.broadcast({"type": "error", "code": "closed", "params": {},
                            "message": "the table's creator closed it"})
            live.close()
            if self.tables.get(live.id) is live:
                del self.tables[live.id]

    async def mark_guests(self, seats: list[SeatRow]) -> None:
        """Mark the seats a person holds without an account (no player, or a guest
        player) as a guest's: every page shows his name so (issue 27)."""
        held = {s.seat: s.player_id for s in seats
                if s.kind == "human" and s.token_hash is not None}
        ids = {p for p in held.values() if p is not None}
        accounts = await self.db(self.store.accounts_among, ids) if ids else set()
        for s in seats:
            s.guest = s.seat in held and s.player_id not in accounts

    async def take_seat(self, live: LiveTable, seat: int, name: str,
                        owner: tuple[str, str] | None = None) -> str:
        """A free human seat for a person: its token (the store keeps only the hash);
        ``owner`` as for :meth:`create`."""
        guest = owner is None or not await self.db(self.store.accounts_among, {owner[0]})
        async with live.lock:
            if not 0 <= seat < len(live.seats):
                raise ServerError("no_such_seat", f"this table has no seat {seat}",
                                  status=404)
            s = live.seats[seat]
            if live.over:
                raise ServerError("game_over", "the game is over", status=409)
            if s.kind != "human":
                raise ServerError("seat_taken", "a bot plays this seat", status=409)
            if s.token_hash is not None:
                raise ServerError("seat_taken", "somebody holds this seat", status=409)
            token = _token_for(owner, live.id, seat)
            token_hash = hash_token(token)
            player_id = owner[0] if owner is not None else None
            names = list(live.table.names)
            names[seat] = name
            waiting = any(o.kind == "human" and o.token_hash is None and o.seat != seat
                          for o in live.seats)
            status = "waiting" if waiting else ("playing" if live.row.status == "waiting"
                                                else live.row.status)
            try:
                ok = await self.db(self.store.take_seat, live.id, seat, name, token_hash,
                                   names, status, player_id, guest=guest, fence=live.fence)
            except Fenced:
                raise self.fenced(live) from None
            if not ok:
                raise ServerError("seat_taken", "somebody holds this seat", status=409)
            s.token_hash, s.name, s.player_id, s.guest = token_hash, name, player_id, guest
            live.table.game.names[seat] = name
            live.row.names = names
            live.row.status = status
            if status != "waiting" and live.bots_timer is not None:
                live.bots_timer.cancel()  # the table filled: no bots needed
                live.bots_timer = None
        live.broadcast_seats()
        live.kick()
        return token


def hub_of(request: Any) -> Hub:
    """The application's hub, for a route of any router (``create_app`` keeps it in
    ``app.state.hub``)."""
    hub = request.app.state.hub
    assert isinstance(hub, Hub)
    return hub
