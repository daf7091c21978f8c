"""Many workers on one PostgreSQL and one Redis (docs/server.md "Many workers").

Each live table is held by one worker, its *owner*: the one holding its lease
(server/cluster/leases.py); only the owner's
:class:`~thousand.server.live.hub.LiveTable` plays it, its bots and clocks run there, and
every write it makes carries the lease's fence.  Any worker accepts any request:

* a WebSocket of a table held elsewhere is a **relay**: the worker sends ``attach`` to
  the owner, which adds a :class:`RemoteConn` to the table's connections (so presence and
  every audience rule work unchanged) and sends it what a local connection would get,
  batched per relay worker and loop turn; the client's frames go the other way
  (``msg``), rate-checked at the relay, which knows the client;
* an HTTP request about one table (``/api/tables/{id}...``, ``/api/games/{id}...``) held
  elsewhere is forwarded whole to the owner (the ``http`` operation), which answers it
  through its own application: every route works unchanged;
* the list of tables gathers every worker's own (``tables``, over ``{prefix}:all``).

The bus is Redis pub/sub: worker ``W`` listens on ``{prefix}:w:W`` and ``{prefix}:all``.
Every message is one JSON object; what one worker publishes goes out in order through one
sender task (a pipeline per batch), so a table's snapshot never overtakes its events.
A publish that nobody received means the other worker is gone: a relay then closes its
clients with 1012 (they reconnect, and the table is taken over), an owner forgets the
relay's connections.

A lease not renewed (the worker died, or was paused past it) expires; every worker sweeps
for such tables and takes them over, rebuilding them from the store, so bot-only tables
go on too.  A worker that finds a lease of its own taken (it was paused) drops the table
at once, closing its connections with 1012; a write it tried meanwhile was refused by its
fence (:class:`~thousand.server.store.tables.Fenced`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import random
import re
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

import orjson
import redis.asyncio as aioredis
import sqlalchemy as sa
from redis.exceptions import RedisError

from ..errors import ServerError
from ..live.hub import Conn, LiveTable, dump_bytes, frames, read_message
from ..ops import metrics
from ..ops.worker import worker_id
from . import leases

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp
    from starlette.websockets import WebSocket

    from ..live.hub import Hub
    from ..store.tables import Store

__all__ = ["FORWARDED", "Cluster", "OwnerGone", "RemoteConn", "cluster_of", "owned_path"]

log = logging.getLogger("thousand.server")

T = TypeVar("T")

#: Seconds an RPC waits for its answer (the owner is paused or gone after that).
RPC_TIMEOUT = 3.0
#: Seconds the list of tables waits for every worker's part.
GATHER_TIMEOUT = 0.5
#: Seconds between two sweeps for tables nobody holds.
SWEEP_EVERY = 2.0
#: Tables one sweep takes over at most (the next batch follows at once; the workers
#: sweeping together share them).
SWEEP_TAKE = 20
#: Seconds between two checks that a relayed table's owner is still its owner.
WATCH_EVERY = 1.0


#: The paths answered by a table's owner (the table's id is the group), and quick play,
#: answered by the one worker holding the ``quickplay`` lease (so that its players meet).
_OWNED = re.compile(r"/api/(?:tables|games)/([A-Za-z0-9_-]{1,32})(?:/.*)?")
QUICKPLAY = "quickplay"


def owned_path(path: str) -> str | None:
    """The lease key whose holder answers a request for ``path``: a table's id, or
    :data:`QUICKPLAY`; None for every other path (any worker answers)."""
    if path == "/api/quickplay":
        return QUICKPLAY
    m = _OWNED.fullmatch(path)
    return m.group(1) if m else None


class OwnerGone(Exception):
    """The worker asked did not answer: nobody listens on its inbox, or it did not
    answer in time (paused), or the bus is down."""


class Unavailable(OwnerGone):
    """The bus (Redis) cannot be reached."""


@dataclass(slots=True)
class _Relay:
    """A local client of a table held by another worker."""

    conn: Conn
    table: str
    owner: str


class RemoteConn(Conn):
    """A client connected to another worker (a relay), as the owner's table sees it:
    what it is sent is buffered per relay worker and published once per loop turn; its
    rate limits were checked at the relay (``limit`` stays None)."""

    def __init__(self, cluster: Cluster, relay: str, conn_id: str, seat: int | None,
                 live: LiveTable) -> None:
        super().__init__(seat)
        self.cluster = cluster
        self.relay = relay
        self.conn_id = conn_id
        self.live = live
        self.inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.reader: asyncio.Task[None] | None = None

    def send_text(self, text: str) -> None:
        if not self.closed:
            self.cluster.out(self.relay, [self.conn_id, text])

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.cluster.out(self.relay, [self.conn_id, None, code])
            self.cluster.forget_remote(self)
            self.inbox.put_nowait(None)

    async def read(self) -> None:
        """Hand the relayed frames to the table one after another, as a local
        connection's reader does."""
        try:
            while True:
                raw = await self.inbox.get()
                if raw is None:
                    break
                await self.live.handle(self, raw)
        finally:
            if self in self.live.conns:
                self.live.detach(self)


@dataclass(slots=True)
class Counters:
    """What a worker did, for its metrics."""

    takeovers: int = 0
    lost: int = 0
    relayed: int = 0
    forwarded: int = 0
    bus_down: int = 0


_Done = Callable[[int | BaseException], None]


class Cluster:
    """This worker's part of many: its leases, its inbox, its relays."""

    def __init__(self, hub: Hub, redis_url: str, *, prefix: str = "thousand",
                 ttl: float = 5.0) -> None:
        self.hub = hub
        _guard_sessions(hub.store)
        self.me = worker_id()
        self.prefix = prefix
        self.ttl = ttl
        self.redis_url = redis_url
        self.redis = aioredis.from_url(redis_url, decode_responses=False,
                                       socket_connect_timeout=2, socket_timeout=5,
                                       health_check_interval=5)
        self.inbox = f"{prefix}:w:{self.me}"
        self.everyone = f"{prefix}:all"
        self.app: ASGIApp | None = None
        self.counters = Counters()
        self.up = False
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="thousand-lease")
        # renewal on a thread of its own: a claim waiting for a locked row never
        # delays it past the leases' time
        self._renew_pool = ThreadPoolExecutor(1, thread_name_prefix="thousand-renew")
        self._pending: dict[str, asyncio.Future[Any]] = {}
        self._gathers: dict[str, tuple[list[Any], asyncio.Event]] = {}
        self._relays: dict[str, _Relay] = {}
        self._remote: dict[tuple[str, str], RemoteConn] = {}
        self._out: dict[str, list[list[Any]]] = {}
        self._flush_soon = False
        self._send: asyncio.Queue[tuple[str, bytes, _Done | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._claims = 0  # a counter of claims: renewal drops only tables claimed before
        self._stopping = False
        self._quickplay = False  # whether this worker holds quick play's lease
        #: whether a worker listens on its inbox, and when that was asked (time.monotonic)
        self._listening: dict[str, tuple[float, bool]] = {}
        self._ops: dict[str, Callable[[dict[str, Any], str], Awaitable[Any]]] = {
            "attach": self._op_attach, "http": self._op_http, "tables": self._op_tables,
            "ping": self._op_ping,
        }

    # ------------------------------------------------------------------ life

    async def leases(self, fn: Callable[..., T], *args: Any) -> T:
        """A lease call on the lease thread (never behind a queue of moves)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, partial(fn, self.hub.store, *args))

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        self._tasks = [asyncio.create_task(self._listen(ready)),
                       asyncio.create_task(self._sender()),
                       asyncio.create_task(self._keep()),
                       asyncio.create_task(self._sweeper())]
        try:
            await asyncio.wait_for(asyncio.shield(ready), 10)
        except TimeoutError:
            log.warning("worker %s: Redis %s does not answer yet; going on without the "
                        "bus until it does", self.me, self.redis_url)
        self._hook_sigterm(loop)
        await self.sweep()

    def _hook_sigterm(self, loop: asyncio.AbstractEventLoop) -> None:
        """On SIGTERM let the tables go at once, before uvicorn waits for its
        connections: their clients reconnect to the other workers, which take the tables
        over without waiting for the leases to expire (a rolling restart)."""
        try:
            previous = signal.getsignal(signal.SIGTERM)
        except ValueError:  # not the main thread (an embedding program)
            return

        def on_term(sig: int, frame: Any) -> None:
            loop.call_soon_threadsafe(self._leave_soon)
            if callable(previous):
                previous(sig, frame)

        try:
            signal.signal(signal.SIGTERM, on_term)
        except ValueError:
            return

    def _leave_soon(self) -> None:
        if not self._stopping:
            self._stopping = True
            task = asyncio.create_task(self._leave())
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)

    async def _leave(self) -> None:
        """Stop holding anything: every table leaves the memory (its clients closed with
        1012), then every lease expires at once."""
        for live in list(self.hub.tables.values()):
            live.close(1012)
        self.hub.tables.clear()
        for conn_id, relay in list(self._relays.items()):
            relay.conn.close(1012)
            if self.up:  # its owner forgets the connection now, not at our exit
                self._publish(f"{self.prefix}:w:{relay.owner}",
                              {"t": "detach", "from": self.me, "conn": conn_id})
        self._relays.clear()
        self._flush()
        try:
            await self.leases(leases.release, self.me, None)
        except Exception:
            log.exception("worker %s: cannot release its leases", self.me)

    async def stop(self) -> None:
        """Let every table go (their leases expire at once, so the other workers take
        them over now), close the local clients with 1012 (they reconnect elsewhere)."""
        self._stopping = True
        await self._leave()
        await asyncio.sleep(0.05)  # the sender publishes the last closes
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.redis.aclose()
        self._pool.shutdown(wait=False)
        self._renew_pool.shutdown(wait=False)

    # ------------------------------------------------------------------ the leases

    async def claim(self, table_id: str) -> int | None:
        """Take the lease of a table (this worker will hold it): its fence, or None."""
        if self._stopping:
            return None  # leaving: the other workers take the tables
        self._claims += 1
        fence = await self.leases(leases.claim, table_id, self.me, self.ttl)
        if fence is not None and fence > 1:
            self.counters.takeovers += 1
            metrics.lease_taken_over()
        return fence

    @property
    def stopping(self) -> bool:
        """Whether this worker is leaving (SIGTERM): it takes no table any more."""
        return self._stopping

    @property
    def claims(self) -> int:
        """How many claims this worker began (a table claimed after a renewal began is
        not dropped by it)."""
        return self._claims

    async def owner_elsewhere(self, table_id: str) -> str | None:
        """The worker that holds a table when it is another, living one (its lease has not
        expired); None when this worker may serve it (holds it, or nobody does)."""
        if table_id in self.hub.tables:
            return None
        found = (await self.leases(leases.owners, [table_id])).get(table_id)
        if found is None or not found[1] or found[0] == self.me:
            return None
        return found[0]

    async def owner_for_socket(self, table_id: str) -> str | None:
        """:meth:`owner_elsewhere` for a WebSocket.  When the holder no longer listens on
        the bus (it died and its lease has not run out yet), the client waits here until
        the lease runs out — at most the lease's time — and this worker takes the table
        over (None), instead of being closed to reconnect at once, again and again, with
        every other client of the dead worker's tables on the one core left."""
        owner = await self.owner_elsewhere(table_id)
        if owner is None or not self.up or await self._listens(owner):
            return owner
        left = await self.leases(leases.seconds_left, table_id)
        if left is not None and left[0] == owner and 0 < left[1] <= self.ttl + 1:
            await asyncio.sleep(left[1] + 0.05)
        return await self.owner_elsewhere(table_id)

    async def _listens(self, worker: str) -> bool:
        """Whether ``worker`` listens on its inbox (asked of Redis at most twice a second
        a worker; True when Redis cannot say: the relay then finds out)."""
        now = time.monotonic()
        known = self._listening.get(worker)
        if known is not None and now - known[0] < 0.5:
            return known[1]
        try:
            counts = await self.redis.pubsub_numsub(f"{self.prefix}:w:{worker}")
        except (RedisError, OSError):
            return True
        listens = bool(counts) and int(counts[0][1]) > 0
        self._listening[worker] = (now, listens)
        return listens

    async def owner_of_key(self, key: str) -> str | None:
        """:meth:`owner_elsewhere` for a request's lease key; quick play's lease is taken
        by the first worker asked while nobody holds it."""
        if key != QUICKPLAY:
            return await self.owner_elsewhere(key)
        if self._stopping:
            return await self.owner_elsewhere(key)
        if await self.leases(leases.claim, key, self.me, self.ttl) is not None:
            self._quickplay = True
            return None
        self._quickplay = False
        return await self.owner_elsewhere(key)

    async def forward(self, request: Request, owner: str) -> Response:
        """Answer a request by its table's owner (the ``http`` operation): its status,
        headers and body as the owner gave them; 503 (try again) when it does not
        answer — its lease expires within seconds and the table is taken over."""
        from starlette.responses import JSONResponse, Response

        body = await request.body()
        args = {"method": request.method, "path": request.url.path,
                "query": request.url.query,
                "headers": [[k, v] for k, v in request.headers.items()],
                "body": base64.b64encode(body).decode(),
                "client": request.client.host if request.client else None}
        try:
            got = await self.call(owner, "http", args, timeout=RPC_TIMEOUT + 2)
        except OwnerGone:
            return JSONResponse({"error": {
                "code": "unavailable", "message": "the table's worker does not answer; "
                "try again in a few seconds"}}, status_code=503, headers={"Retry-After": "2"})
        response = Response(base64.b64decode(got["body"]), status_code=int(got["status"]))
        for key, value in got["headers"]:
            response.headers.append(key, value)
        return response

    async def _keep(self) -> None:
        """Renew the leases every second; check the relayed tables' owners."""
        while True:
            await asyncio.sleep(min(1.0, self.ttl / 4))
            try:
                await self._renew()
                await self._watch_relays()
                await self._watch_remotes()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: the leases could not be kept", self.me)

    async def _sweeper(self) -> None:
        """Sweep for tables nobody holds every :data:`SWEEP_EVERY` s — at once again while
        a sweep finds a whole batch (a dead worker's hundreds of tables are taken over in
        seconds, not one batch every two) — apart from the renewals, which a long sweep
        must not delay."""
        while True:
            try:
                taken = await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: the sweep failed", self.me)
                taken = 0
            await asyncio.sleep(0.05 if taken >= SWEEP_TAKE else SWEEP_EVERY)

    async def _renew(self) -> None:
        before = self._claims
        # only the tables asked about, with the fence they had then, are judged by the
        # answer: a table claimed while the renewal ran is not in it and is no loss
        asked = {t: live.fence for t, live in self.hub.tables.items()
                 if live.fence is not None}
        keys = list(asked)
        if self._quickplay:
            keys.append(QUICKPLAY)
        loop = asyncio.get_running_loop()
        held = await loop.run_in_executor(self._renew_pool, partial(
            leases.renew, self.hub.store, self.me, self.ttl, keys))
        self._quickplay = QUICKPLAY in held
        for table_id, fence in asked.items():
            live = self.hub.tables.get(table_id)
            if live is None or live.fence != fence or held.get(table_id) == fence:
                continue
            if live.claim_no > before:
                continue  # claimed again while the renewal ran
            log.warning("worker %s: table %s was taken over (fence %s, now %s); dropping it",
                        self.me, table_id, fence, held.get(table_id))
            self.drop(live)

    def drop(self, live: LiveTable) -> None:
        """Let a table go from memory at once (another worker holds it now): its
        connections close with 1012, so that they reconnect to it there."""
        self.counters.lost += 1
        live.close(1012)
        if self.hub.tables.get(live.id) is live:
            del self.hub.tables[live.id]

    async def sweep(self) -> int:
        """Take over a batch of tables waiting or playing that nobody holds (their worker
        died or stopped), in a random order among the workers sweeping: how many the
        store had to offer."""
        if self._stopping:
            return 0
        ids = await self.leases(leases.expired_unfinished, SWEEP_TAKE)

        async def take(table_id: str) -> None:
            try:
                live = await self.hub.get(table_id)
            except Exception:
                log.exception("worker %s: table %s cannot be taken over", self.me, table_id)
                return
            if live is not None:
                log.info("worker %s: took table %s over (fence %s)", self.me, table_id,
                         live.fence)

        # side by side: each take-over waits on the store's and the leases' threads
        await asyncio.gather(*(take(t) for t in ids if t not in self.hub.tables))
        await asyncio.sleep(random.uniform(0, 0.2))
        return len(ids)

    async def release(self, table_id: str) -> None:
        """Let one table's lease go (the table left the memory)."""
        try:
            await self.leases(leases.release, self.me, [table_id])
        except Exception:
            log.exception("worker %s: cannot release table %s", self.me, table_id)

    # ------------------------------------------------------------------ the bus

    def _publish(self, channel: str, message: dict[str, Any],
                 done: _Done | None = None) -> None:
        """Queue one message for the sender (in order with every other)."""
        data = dump_bytes(message)
        self._send.put_nowait((channel, data, done))

    async def _sender(self) -> None:
        while True:
            batch = [await self._send.get()]
            while not self._send.empty() and len(batch) < 500:
                batch.append(self._send.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data, _ in batch:
                        pipe.publish(channel, data)
                    results: list[Any] = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                results = [e] * len(batch)
            for (_, _, done), result in zip(batch, results, strict=True):
                if done is not None:
                    try:
                        done(result if isinstance(result, BaseException) else int(result))
                    except Exception:
                        log.exception("worker %s: a message's callback failed", self.me)

    async def _listen(self, ready: asyncio.Future[None]) -> None:
        """Read the inbox and ``{prefix}:all`` for ever: after the bus comes back, every
        relayed client is closed with 1012 (messages may have been lost meanwhile: it
        resyncs by version) and every relay's connection forgotten."""
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.inbox, self.everyone)
                if not first:
                    log.warning("worker %s: the bus is back", self.me)
                    self._after_outage()
                first = False
                self.up = True
                if not ready.done():
                    ready.set_result(None)
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        self._dispatch(orjson.loads(message["data"]))
                    except Exception:
                        log.exception("worker %s: a bus message failed", self.me)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as e:
                if self.up:
                    self.counters.bus_down += 1
                    log.warning("worker %s: the bus is down (%s); retrying", self.me, e)
                self.up = False
                first = first and not ready.done()
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]

    def _after_outage(self) -> None:
        for relay in list(self._relays.values()):
            relay.conn.close(1012)
        self._relays.clear()
        for rc in list(self._remote.values()):
            rc.closed = True
            rc.inbox.put_nowait(None)
        self._remote.clear()

    def _dispatch(self, m: dict[str, Any]) -> None:
        kind = m.get("t")
        if kind == "out":
            for item in m["items"]:
                relay = self._relays.get(item[0])
                if relay is None:
                    continue
                if item[1] is not None:
                    relay.conn.send_text(item[1])
                else:
                    self._relays.pop(item[0], None)
                    relay.conn.close(int(item[2]))
        elif kind == "msg":
            rc = self._remote.get((m["from"], m["conn"]))
            if rc is None:  # the owner no longer has it: the client reconnects
                self.out(m["from"], [m["conn"], None, 1012])
            else:
                rc.inbox.put_nowait(m["raw"])
        elif kind == "detach":
            rc = self._remote.get((m["from"], m["conn"]))
            if rc is not None:
                rc.close()
        elif kind == "rpc":
            task = asyncio.create_task(self._answer(m))
            self.hub.tasks.add(task)
            task.add_done_callback(self.hub.tasks.discard)
        elif kind == "reply":
            gather = self._gathers.get(m["id"])
            if gather is not None:
                gather[0].append(m.get("result"))
                gather[1].set()
                return
            future = self._pending.pop(m["id"], None)
            if future is not None and not future.done():
                if m.get("ok"):
                    future.set_result(m.get("result"))
                else:
                    e = m.get("error") or {}
                    future.set_exception(ServerError(
                        str(e.get("code", "server_error")), str(e.get("message", "")),
                        status=int(e.get("status", 500))))

    async def _answer(self, m: dict[str, Any]) -> None:
        op = self._ops.get(m.get("op", ""))
        reply: dict[str, Any] = {"t": "reply", "id": m["id"]}
        try:
            if op is None:
                raise ServerError("bad_request", f"no operation {m.get('op')!r}")
            reply.update(ok=True, result=await op(m.get("args") or {}, m["from"]))
        except ServerError as e:
            reply.update(ok=False, error={"code": e.code, "message": e.message,
                                          "status": e.status})
        except Exception:
            log.exception("worker %s: operation %s failed", self.me, m.get("op"))
            reply.update(ok=False, error={"code": "server_error", "status": 500,
                                          "message": "the operation failed"})
        self._publish(f"{self.prefix}:w:{m['from']}", reply)

    async def call(self, worker: str, op: str, args: dict[str, Any],
                   timeout: float = RPC_TIMEOUT) -> Any:
        """Ask another worker to do ``op`` (its registry: ``attach``, ``http``,
        ``tables``, ``ping``): its plain JSON answer, a :class:`ServerError` it raised,
        or :class:`OwnerGone`."""
        if not self.up:
            raise Unavailable("the bus is down")
        rid = secrets.token_hex(8)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future

        def done(result: int | BaseException) -> None:
            if not future.done() and (isinstance(result, BaseException) or result == 0):
                gone = Unavailable if isinstance(result, BaseException) else OwnerGone
                future.set_exception(gone(f"worker {worker} does not listen"))

        self._publish(f"{self.prefix}:w:{worker}", {"t": "rpc", "id": rid, "from": self.me,
                                                     "op": op, "args": args}, done)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise OwnerGone(f"worker {worker} did not answer in {timeout:g} s") from None
        finally:
            self._pending.pop(rid, None)

    async def gather(self, op: str, args: dict[str, Any],
                     timeout: float = GATHER_TIMEOUT) -> list[Any]:
        """Every worker's answer to ``op`` (this one's included), as many as answer
        within ``timeout``."""
        if not self.up:
            return [await self._ops[op](args, self.me)]
        rid = secrets.token_hex(8)
        answers: list[Any] = []
        event = asyncio.Event()
        self._gathers[rid] = (answers, event)
        expected: list[int] = []

        def done(result: int | BaseException) -> None:
            expected.append(result if isinstance(result, int) else 0)
            event.set()

        self._publish(self.everyone, {"t": "rpc", "id": rid, "from": self.me, "op": op,
                                      "args": args}, done)
        deadline = time.monotonic() + timeout
        try:
            while not expected or len(answers) < expected[0]:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                event.clear()
                try:
                    await asyncio.wait_for(event.wait(), left)
                except TimeoutError:
                    break
        finally:
            self._gathers.pop(rid, None)
        if expected and expected[0] == 0:  # the bus is down: this worker's own part
            return [await self._ops[op](args, self.me)]
        return answers

    # ------------------------------------------------------------------ the owner's side

    def out(self, relay: str, item: list[Any]) -> None:
        """Buffer one item for a relay worker; published once per loop turn."""
        self._out.setdefault(relay, []).append(item)
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_soon = False
        out, self._out = self._out, {}
        for relay, items in out.items():
            def done(result: int | BaseException, relay: str = relay) -> None:
                if result == 0:  # the relay worker is gone: its clients too
                    for key, rc in list(self._remote.items()):
                        if key[0] == relay:
                            rc.close(1012)
            self._publish(f"{self.prefix}:w:{relay}", {"t": "out", "items": items}, done)

    def forget_remote(self, rc: RemoteConn) -> None:
        if self._remote.get((rc.relay, rc.conn_id)) is rc:
            del self._remote[(rc.relay, rc.conn_id)]

    async def _op_attach(self, args: dict[str, Any], sender: str) -> dict[str, Any]:
        table_id = str(args["table"])
        live = None if self._stopping else await self.hub.get(table_id)
        if live is None:
            if self._stopping or await self.owner_elsewhere(table_id) is not None:
                raise ServerError("moved", "the table moved to another worker", status=409)
            raise ServerError("no_such_table", "no such table", status=404)
        token = args.get("token")
        seat: int | None = None
        if token:
            seat = live.seat_of_token(str(token))
            if seat is None:
                raise ServerError("bad_token", "this token holds no seat at this table",
                                  status=403)
        rc = RemoteConn(self, sender, str(args["conn"]), seat, live)
        self._remote[(sender, rc.conn_id)] = rc
        rc.reader = asyncio.create_task(rc.read())
        await live.attach(rc)
        return {"seat": seat}

    async def _op_http(self, args: dict[str, Any], _sender: str) -> dict[str, Any]:
        """Answer a forwarded request through this worker's own application."""
        import httpx

        assert self.app is not None
        client = (str(args.get("client") or "127.0.0.1"), 0)
        transport = httpx.ASGITransport(app=self.app, client=client)
        headers = [(k, v) for k, v in args["headers"] if k.lower() != "content-length"]
        headers.append((FORWARDED, self.me))
        async with httpx.AsyncClient(transport=transport, base_url="http://worker") as http:
            response = await http.request(
                str(args["method"]), str(args["path"]), params=str(args.get("query") or ""),
                headers=headers, content=base64.b64decode(args.get("body") or ""))
        self.counters.forwarded += 1
        return {"status": response.status_code,
                "headers": [[k, v] for k, v in response.headers.multi_items()
                            if k.lower() not in ("content-length", "transfer-encoding")],
                "body": base64.b64encode(response.content).decode()}

    async def _op_tables(self, args: dict[str, Any], _sender: str) -> list[dict[str, Any]]:
        wide = bool(args.get("wide"))
        return [t.info_json() for t in self.hub.tables.values()
                if t.row.listed and (wide or (not t.over and t.lively()))]

    async def _op_ping(self, _args: dict[str, Any], _sender: str) -> str:
        return self.me

    # ------------------------------------------------------------------ the relay's side

    async def relay(self, websocket: WebSocket, conn: Conn, table_id: str,
                    token: str | None, owner: str) -> None:
        """Serve a client of a table held by ``owner``: attach it there, forward its
        frames, until either side ends."""
        conn_id = secrets.token_hex(8)
        relay = _Relay(conn, table_id, owner)
        self._relays[conn_id] = relay
        self.counters.relayed += 1
        try:
            try:
                got = await self.call(owner, "attach", {"table": table_id, "conn": conn_id,
                                                        "token": token})
            except ServerError as e:
                code = {"bad_token": 4401, "no_such_table": 4404}.get(e.code, 1012)
                if code != 1012:  # 1012 alone: reconnect, nothing to tell
                    conn.send(e.to_json())
                conn.close(code)
                return
            except OwnerGone:
                await asyncio.sleep(0.5)  # not at once: its lease expires within seconds
                conn.close(1012)
                return
            conn.seat = got.get("seat") if isinstance(got, dict) else None
            async for raw in frames(websocket, conn):
                if isinstance(raw, bytes):  # the bus carries text: bad UTF-8 is told here
                    try:
                        raw = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        try:
                            read_message(raw)  # raises: what is wrong with it, in words
                        except ServerError as e:
                            conn.send(e.to_json())
                        continue
                await self._forward(relay, conn_id, raw)
        finally:
            if self._relays.pop(conn_id, None) is not None and self.up:
                self._publish(f"{self.prefix}:w:{owner}",
                              {"t": "detach", "from": self.me, "conn": conn_id})
            conn.close()

    async def _forward(self, relay: _Relay, conn_id: str, raw: str) -> None:
        conn = relay.conn
        try:
            kind = read_message(raw).type
        except ServerError:
            kind = None  # the owner answers it (the same reader)
        if conn.limit is not None and kind in ("move", "chat", "hint"):
            wait = await conn.limit(kind)
            if wait is not None:
                conn.send(ServerError("rate_limited", f"too many {kind} messages: wait "
                                      f"{wait} s", seconds=wait, limit=kind).to_json())
                return
        if not self.up:
            conn.send(ServerError("unavailable", "the server's bus is down for a moment: "
                                  "the message was not sent; try again shortly",
                                  status=503).to_json())
            return

        def done(result: int | BaseException) -> None:
            if isinstance(result, BaseException):
                conn.send(ServerError("unavailable", "the server's bus is down for a "
                                      "moment: the message was not sent; try again shortly",
                                      status=503).to_json())
            elif result == 0:  # the owner is gone: reconnect, the table is taken over
                self._owner_gone(relay.owner, relay.table)

        self._publish(f"{self.prefix}:w:{relay.owner}",
                      {"t": "msg", "from": self.me, "conn": conn_id, "raw": raw}, done)

    def _owner_gone(self, owner: str, table_id: str | None = None) -> None:
        for cid, relay in list(self._relays.items()):
            if relay.owner == owner and (table_id is None or relay.table == table_id):
                del self._relays[cid]
                relay.conn.close(1012)

    async def _watch_remotes(self) -> None:
        """Forget the connections of relay workers that no longer listen (they died): the
        seats they held show offline, their away clocks start."""
        relays = {key[0] for key in self._remote}
        if not relays or not self.up:
            return
        try:
            counts = await self.redis.pubsub_numsub(*(f"{self.prefix}:w:{r}" for r in relays))
        except (RedisError, OSError):
            return
        for channel, n in counts:
            if int(n) == 0:
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                gone = name.rsplit(":w:", 1)[-1]
                for key, rc in list(self._remote.items()):
                    if key[0] == gone:
                        rc.close(1012)

    def stats(self) -> dict[str, int]:
        """Counters for the metrics: take-overs, tables lost to another worker, relayed
        connections opened, requests answered for another worker, bus outages, and the
        connections relayed here now."""
        c = self.counters
        return {"lease_takeovers": c.takeovers, "tables_lost": c.lost,
                "relays_opened": c.relayed, "requests_forwarded": c.forwarded,
                "bus_outages": c.bus_down, "relayed_now": len(self._relays),
                "remote_connections": len(self._remote), "bus_up": int(self.up)}

    async def _watch_relays(self) -> None:
        """Close the relayed clients of a table whose owner changed or let it expire:
        they reconnect and the table is served again (taken over if need be)."""
        tables = {r.table for r in self._relays.values()}
        if not tables:
            return
        found = await self.leases(leases.owners, tables)
        for table_id in tables:
            got = found.get(table_id)
            owners = {r.owner for r in self._relays.values() if r.table == table_id}
            for owner in owners:
                if got is None or got[0] != owner or not got[1]:
                    self._owner_gone(owner, table_id)


def _guard_sessions(store: Store) -> None:
    """Every database session of a worker ends a transaction left idle for 5 s: a
    worker paused (SIGSTOP) in the middle of one — a move's write, a renewal — must not
    keep the rows it locked (its tables' leases) from the workers taking them over."""
    def guard(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        try:
            cur.execute("SET idle_in_transaction_session_timeout = '5s'")
        finally:
            cur.close()
        dbapi_conn.commit()

    sa.event.listen(store.engine, "connect", guard)
    store.engine.dispose()  # the sessions opened before (the migrations') get it too


#: The header a forwarded request carries (the owner answers it itself, never forwards
#: it on).
FORWARDED = "x-thousand-forwarded-by"


def cluster_of(request: Any) -> Cluster | None:
    """The application's cluster (None: one process), for a route of any router
    (``create_app`` keeps it in ``app.state.cluster``)."""
    cluster = request.app.state.cluster
    assert cluster is None or isinstance(cluster, Cluster)
    return cluster
