"""Server load: many concurrent tables of people, each seat a WebSocket client, on loopback.

Run by hand (about 1.5 minutes per line):

    .venv/bin/python benchmarks/server.py [--tables 50,100,300] [--seconds 60]
        [--db sqlite|postgresql|both] [--workers 1[,2]] [--redis URL] [--kill-at SECONDS]
        [--think 0] [--spectators 0] [--no-deflate]
        [--profile FILE] [--out benchmarks/results/server.txt]

For each number of tables N this starts a real ``thousand serve --db sqlite:///<tmp>/bench.db
--port P --no-browser`` in a subprocess (a fresh database each time; ``--db postgresql``:
a fresh schema on ``$THOUSAND_TEST_PG``, default ``postgresql+psycopg://postgres@127.0.0.1:
5432/test``, dropped afterwards), lays N tables of three human seats through the JSON API
(``POST /api/tables``, then ``POST /api/tables/{t}/seats/1`` and ``/2``: every seat taken,
so the game starts), and connects one WebSocket client per seat (plus ``--spectators`` per
table) from this one process.  The server is pinned to CPU 0 and this process to CPU 1
(``sched_setaffinity``), so the server has a core of its own.

Each client behaves like the browser's page (``src/thousand/web/table.js``): an ``events``
message carries the changes of its view (``view``, against the version ``base``:
docs/protocol.md), which it applies to the view it holds; only when it cannot (a gap, or a
server whose events carry no view) does it ask for a ``snapshot``.  When its view says it
is to move it sends a random move of ``view.legal`` against its version (after ``--think``
seconds on average: uniform in 0..2*think; 0 is a stress test with every table moving as
fast as it can).  ``snapshots`` in the errors column counts the snapshots asked after the
first.

``--workers K`` (K >= 2; a list such as ``1,2`` runs each): K ``thousand serve --redis URL
--redis-prefix P --workers 1 --worker-id wN`` workers (docs/server.md "Many workers") on
one fresh PostgreSQL schema and a Redis key prefix of the run's own (its keys deleted
after), each on its own port, as machines behind a proxy would be: table t is laid on
worker t % K and the client of its seat i connects to worker (t + i) % K, so most tables
have seats relayed over Redis.  Every worker is pinned to the server's CPU, so moves/s and
ms/move compare directly with one process on the same core; the server's CPU, wait and
memory are the sums over the workers (bots think in the workers' threads:
``--bot-processes 0``, for one process too).  A client whose connection closes (its worker
killed, or the table moved to another) reconnects like the page: to the next worker (a
refused or failed try: the one after), and goes on from the snapshot it is sent; the moves
it had in flight on the closed connection that the snapshot does not hold are ``moves
dropped in flight`` (never acknowledged).

``--kill-at SECONDS`` (many workers): that far into the measured window, SIGKILL the worker
that holds the most tables (read from ``leases``).  Its tables' lines: the seconds from the
kill until every seat of a table has a snapshot again ("back") and until the table
accepted a move again ("moved again": a seat's think time after it is back), max and
median over its tables.  The killed worker's CPU and memory count up to the kill.

``lost/acked`` (every run): the moves whose mover heard their events (acknowledged), and
how many of them are missing from the store's move log (``moves``) at the end: must be 0.

Measured over ``--seconds`` (the first 10% is a warm-up, not counted), one line per run:

* ``moves/s``: moves whose events reached every connection of their table;
* ``p50 ms``, ``p99 ms``, ``max ms``: from the moment a move is sent to the moment the LAST
  connection of its table (every seat and spectator) received the ``events`` message for it;
* ``srv CPU``: the server process's CPU time (every thread) over the window, in % of one
  core; ``ms/move``: that CPU time per move (what a move costs the server, whatever else
  runs on the machine); ``cli CPU``: the same for this process (near 100%: the clients,
  not the server, limit the figures); ``srv wait``, ``cli wait``: how long the server's
  event loop (its main thread) and the clients' waited, runnable, for their CPU while
  something else had it (``/proc/PID/task/PID/schedstat``), in % of the window: other
  processes on a shared machine, and for the server also its own store thread, which
  shares its core (at 100% server CPU some 15% is that); on a busy machine this, not the
  server's own cost, can make the latency;
  ``load``: the machine's 1-minute load average when the run started;
* memory: the server's RSS (``/proc/PID/status`` VmRSS) after start with one warm-up table
  laid (so that lazy imports do not count: ``RSS0``), after the N tables are laid, after
  their clients connected and after the run; ``KB/tbl``: the growth over ``RSS0`` divided
  by N; ``moves/tbl``: the moves each table played in the run (a table keeps its event log,
  so its memory grows with its game).

With ``think`` 0 every table always has a move in flight, so by Little's law the latency is
about N / (moves per second) once the server's core is full; the paced lines
(``--think``) show the latency at a load below the server's capacity.

``--flame FILE.svg`` records the server with py-spy over each run's measured window (a
flame graph of where its CPU goes under the load; py-spy samples from outside, so the
figures stay near the unprofiled ones).  ``--profile FILE`` runs the server under
cProfile (the statistics are written to FILE when it stops; read them with ``python -m
pstats FILE``): much slower, for where the time goes, not for the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "server.txt"
PG_URL = os.environ.get("THOUSAND_TEST_PG", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("THOUSAND_TEST_REDIS", "redis://127.0.0.1:6379/0")
SERVER_CPU, CLIENT_CPU = 0, 1
WARMUP_SHARE = 0.1


# --------------------------------------------------------------------------- the server


def latency_ms(latencies: list[float]) -> tuple[int, float, float, float]:
    """(how many, p50, p99, max) of latencies in seconds, the three in milliseconds (0
    when there are none)."""
    lat = sorted(latencies)
    if not lat:
        return 0, 0.0, 0.0, 0.0
    return (len(lat), lat[len(lat) // 2] * 1000,
            lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000, lat[-1] * 1000)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    """The resident set of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (every thread), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_wait_seconds(pid: int) -> float:
    """How long the main thread of a process has waited, runnable, for a CPU (the
    scheduler's run-queue wait: other work on the machine taking the CPU), in seconds."""
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
        return int(fields[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def pin(pid: int, cpu: int) -> bool:
    """Keep a process (0: this one) on one CPU; False when the machine has just one."""
    if not hasattr(os, "sched_setaffinity") or (os.cpu_count() or 1) < 2:
        return False
    os.sched_setaffinity(pid, {cpu})
    return True


class ServerProcess:
    """``thousand serve`` in a subprocess on a free loopback port (``extra``: the options of
    one worker of many, ``name``: its worker id and log file)."""

    def __init__(self, db_url: str, workdir: Path, profile: str | None = None,
                 extra: list[str] | None = None, name: str = "server",
                 gc_off: bool = False) -> None:
        self.db_url = db_url
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.host = f"127.0.0.1:{self.port}"
        args = ["serve", "--db", db_url, "--port", str(self.port), "--no-browser",
                "--host", "127.0.0.1", "--lang", "en", "--no-limits", "--bot-processes", "0",
                *(extra or [])]
        if profile:
            code = ("import cProfile, sys; from thousand.cli import main; "
                    f"sys.argv = ['thousand', *{args!r}]; "
                    f"cProfile.run('main()', {profile!r})")
        else:
            code = "from thousand.cli import main; main()"
        if gc_off:  # an experiment: is the latency's tail the cyclic collector's?
            code = "import gc; gc.disable(); " + code
        self.log = open(workdir / f"{name}.log", "w+b")  # noqa: SIM115 — closed in stop()
        self.proc: asyncio.subprocess.Process | None = None
        self.cmd = [sys.executable, "-c", code, *([] if profile else args)]
        # its CPU seconds, memory and run-queue wait when it was killed
        self.killed_cpu: float | None = None
        self.killed_rss = 0
        self.killed_wait = 0.0

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.cmd, stdout=asyncio.subprocess.PIPE, stderr=self.log,
            stdin=asyncio.subprocess.DEVNULL)
        pin(self.proc.pid, SERVER_CPU)
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(self.proc.stdout.readline(), 60)
        if b"serving at" not in line:
            raise RuntimeError(f"the server did not start: {line!r} {self.errors()}")
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/api/tables")).status_code == 200:
                        return
                await asyncio.sleep(0.05)
        raise RuntimeError(f"the server does not answer: {self.errors()}")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.killed_cpu is None

    def cpu(self) -> float:
        """Its CPU seconds so far (a killed worker's: those it had used when killed)."""
        return cpu_seconds(self.pid) if self.killed_cpu is None else self.killed_cpu

    def rss(self) -> int:
        return rss_kb(self.pid) if self.killed_cpu is None else self.killed_rss

    def wait(self) -> float:
        return run_wait_seconds(self.pid) if self.killed_cpu is None else self.killed_wait

    def kill(self) -> None:
        """SIGKILL, its last CPU time and memory read just before."""
        self.killed_rss, self.killed_wait = rss_kb(self.pid), run_wait_seconds(self.pid)
        cpu = cpu_seconds(self.pid)
        assert self.proc is not None
        self.proc.kill()
        self.killed_cpu = cpu

    def errors(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-2000:]

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.proc.wait(), 60)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.log.close()


class Servers:
    """The server under test: one process, or K workers on one PostgreSQL schema and one
    Redis prefix of the run's own (each on its own port, as machines behind a proxy),
    all pinned to the server's CPU.  CPU, run-queue wait and memory are sums over them."""

    def __init__(self, db_url: str, workdir: Path, workers: int, args: argparse.Namespace,
                 ) -> None:
        self.prefix = f"thousand_bench_{uuid.uuid4().hex[:10]}"
        self.redis = args.redis
        if workers == 1:
            self.procs = [ServerProcess(db_url, workdir, args.profile, gc_off=args.gc_off)]
        else:
            self.procs = [
                ServerProcess(db_url, workdir, args.profile, name=f"w{i}", extra=[
                    "--redis", args.redis, "--redis-prefix", self.prefix, "--workers", "1",
                    "--worker-id", f"w{i}", "--lease-ttl", f"{args.lease_ttl:g}"],
                    gc_off=args.gc_off)
                for i in range(workers)]

    async def start(self) -> None:
        await self.procs[0].start()  # it migrates the fresh schema; then the others at once
        await asyncio.gather(*(p.start() for p in self.procs[1:]))

    def cpu(self) -> float:
        return sum(p.cpu() for p in self.procs)

    def rss(self) -> int:
        return sum(p.rss() for p in self.procs)

    def wait(self) -> float:
        return sum(p.wait() for p in self.procs)

    def named(self, worker: str) -> ServerProcess:
        return next(p for p in self.procs if p.name == worker)

    async def stop(self) -> None:
        await asyncio.gather(*(p.stop() for p in self.procs))
        if len(self.procs) > 1:
            drop_redis_keys(self.redis, self.prefix)


def drop_redis_keys(url: str, prefix: str) -> None:
    """Delete every key of the run's prefix (the shared Redis keeps nothing of a run)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
    try:
        keys = list(client.scan_iter(f"{prefix}:*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def stored_moves(db_url: str, table_ids: list[str]) -> set[tuple[str, int]]:
    """Every (table, move index) of these tables in the store's move log."""
    import sqlalchemy as sa

    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("select table_id, idx from moves where table_id in "
                                        ":ids").bindparams(sa.bindparam("ids", expanding=True)),
                                {"ids": table_ids}).all()
    finally:
        engine.dispose()
    return {(r[0], int(r[1])) for r in rows}


def leases_of(db_url: str) -> dict[str, list[str]]:
    """worker -> the tables it holds (the ``leases`` table of many workers)."""
    import sqlalchemy as sa

    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("select worker, table_id from leases "
                                        "where expires >= now()")).all()
    finally:
        engine.dispose()
    held: dict[str, list[str]] = {}
    for worker, table_id in rows:
        held.setdefault(worker, []).append(table_id)
    return held


@contextlib.contextmanager
def postgres_schema() -> Any:
    """A fresh schema on the PostgreSQL server: its URL (the schema dropped afterwards)."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
    schema = f"thousand_bench_{uuid.uuid4().hex[:12]}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'create schema "{schema}"'))
    query = dict(url.query)
    query["options"] = f"-csearch_path={schema}"
    try:
        yield url.set(query=query).render_as_string(hide_password=False)
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'drop schema "{schema}" cascade'))
        engine.dispose()


# --------------------------------------------------------------------------- the clients


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    window: tuple[float, float] = (0.0, 0.0)
    running: bool = False
    closing: bool = False  # the run is over: a closed connection is not reconnected
    started: asyncio.Event = field(default_factory=asyncio.Event)
    in_flight: int = 0
    played: int = 0
    over: int = 0
    hosts: list[str] = field(default_factory=list)  # the workers' host:port
    deflate: bool = True

    def count(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class BenchTable:
    """One table: its connections and the moves whose events have not reached them all."""

    def __init__(self, table_id: str, tokens: dict[int, str], stats: Stats) -> None:
        self.id = table_id
        self.tokens = tokens
        self.stats = stats
        self.conns: list[Player] = []
        self.over = False
        # version the move was sent at -> [sent at, connections still to hear of it, who
        # sent it, on which of his connections]
        self.pending: dict[int, list[Any]] = {}
        self.acked: set[int] = set()  # moves (their index) whose mover heard their events
        # --kill-at, a table of the killed worker: its version and the time then, when all
        # its seats had a snapshot again and when it moved again (seconds after the kill)
        self.killed_at: float | None = None
        self.kill_version = 0
        self.back: float | None = None
        self.moved: float | None = None

    def sent(self, conn: Player, version: int) -> None:
        self.pending[version] = [time.perf_counter(), len(self.conns), conn, conn.generation]
        self.stats.in_flight += 1
        self.stats.played += 1

    def done(self, v: int) -> None:
        del self.pending[v]
        self.stats.in_flight -= 1

    def heard(self, conn: Player, version: int, events: bool = True) -> None:
        """``conn`` received an events message (or a snapshot) of the table's ``version``:
        every pending move it had not heard of yet is done for it."""
        now = time.perf_counter()
        for v in [v for v in self.pending if conn.seen <= v < version]:
            entry = self.pending[v]
            if events and entry[2] is conn:
                self.acked.add(v)
            entry[1] -= 1
            if entry[1] == 0:
                self.done(v)
                start, end = self.stats.window
                if start <= entry[0] < end:
                    self.stats.latencies.append(now - entry[0])
        conn.seen = max(conn.seen, version)
        if (events and self.killed_at is not None and self.moved is None
                and version > self.kill_version and conn.connected > self.killed_at):
            self.moved = now - self.killed_at

    def resynced(self, conn: Player, version: int) -> None:
        """``conn`` came back (a new connection's snapshot at ``version``): the moves sent
        at or after it on a connection that has closed since never took; they are
        forgotten (``dropped``)."""
        self.heard(conn, version, events=False)
        for v in [v for v in self.pending if v >= version]:
            sender, generation = self.pending[v][2], self.pending[v][3]
            if sender.generation != generation:
                self.done(v)
                self.stats.count("moves dropped in flight")
        if self.killed_at is not None and self.back is None and all(
                c.connected > self.killed_at for c in self.conns):
            self.back = time.perf_counter() - self.killed_at


class Player:
    """A seat's (or a spectator's) connection, driven like the browser's page: on a close
    (many workers: its worker killed, or the table moved) it reconnects to the next worker
    and goes on from the snapshot it is sent."""

    def __init__(self, table: BenchTable, seat: int | None, think: float, rng: random.Random,
                 worker: int = 0):
        self.table = table
        self.seat = seat
        self.think = think
        self.rng = rng
        self.worker = worker  # index of the worker it connects to
        self.ws: ClientConnection | None = None
        self.generation = 0  # connections made
        self.connected = 0.0  # when the current one got its first snapshot
        self.version = -1  # of the view held
        self.latest = -1  # the newest version heard of
        self.seen = -1  # the newest version whose events arrived
        self.asked = False  # a snapshot asked for, not yet here
        self.view: dict[str, Any] | None = None
        self.over = False
        self.task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        stats = self.table.stats
        url = f"ws://{stats.hosts[self.worker]}/ws/{self.table.id}"
        if self.seat is not None:
            url += f"?token={self.table.tokens[self.seat]}"
        ws = await connect(url, max_size=2**22, ping_interval=None,
                           compression="deflate" if stats.deflate else None,
                           open_timeout=60)
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        except BaseException:
            await ws.close()
            raise
        if first["type"] != "snapshot":
            await ws.close()
            raise ConnectionError(f"the first message is no snapshot: {first}")
        self.ws = ws
        self.generation += 1
        self.connected = time.perf_counter()
        self.asked = False
        self.on_snapshot(first)
        self.latest = first["version"]  # the table as its (new) owner has it

    async def reconnect(self) -> bool:
        """Connect again, to the next worker each try (a refused or failed one: the next
        after it), until a snapshot comes; False after a minute of tries."""
        stats = self.table.stats
        stats.count("reconnects")
        deadline = time.perf_counter() + 60
        while not stats.closing and time.perf_counter() < deadline:
            self.worker = (self.worker + 1) % len(stats.hosts)
            try:
                await self.connect()
            except (OSError, TimeoutError, ConnectionError, websockets.WebSocketException):
                stats.count("reconnect tries failed")
                await asyncio.sleep(0.1 + 0.2 * self.rng.random())
                continue
            self.table.resynced(self, self.version)
            return True
        if not stats.closing:
            stats.count("gave up reconnecting")
        return False

    async def run(self) -> None:
        while True:
            await self.receive()
            if self.table.stats.closing or not await self.reconnect():
                return
            await self.maybe_move()

    async def receive(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "events":
                    version = msg["version"]
                    self.table.heard(self, version)
                    self.latest = max(self.latest, version)
                    if self.apply_view(msg):
                        await self.maybe_move()
                    elif self.latest > self.version and not self.asked:
                        await self.ask_snapshot()
                elif kind == "snapshot":
                    self.asked = False
                    self.on_snapshot(msg)
                    if self.latest > self.version:
                        await self.ask_snapshot()
                    else:
                        await self.maybe_move()
                elif kind == "error":
                    self.table.stats.count(msg.get("code", "?"))
                    if not self.asked:
                        await self.ask_snapshot()
        except websockets.ConnectionClosed:
            pass

    async def ask_snapshot(self) -> None:
        assert self.ws is not None
        self.asked = True
        self.table.stats.count("snapshots")
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send('{"type": "snapshot"}')

    def on_snapshot(self, msg: dict[str, Any]) -> None:
        self.version = msg["version"]
        self.latest = max(self.latest, self.version)
        self.view = msg["view"]
        self.set_over(msg["over"])

    def apply_view(self, msg: dict[str, Any]) -> bool:
        """The page's ``applyView``: the events' view patch applied when it is taken
        against the view held (``base``), or the whole view (``base`` null)."""
        patch = msg.get("view")
        if patch is None or msg["version"] < self.version:
            return False
        base = msg.get("base")
        if base is None:
            self.view = patch
        elif base == self.version and self.view is not None:
            self.view = {**self.view, **patch}
        else:
            return False
        self.version = msg["version"]
        if "over" in msg:
            self.set_over(msg["over"])
        return True

    def set_over(self, over: bool) -> None:
        self.over = over
        if over and not self.table.over:
            self.table.over = True
            self.table.stats.over += 1

    def my_turn(self) -> list[str]:
        view = self.view
        if view is None or self.seat is None or self.over or self.version < self.latest:
            return []
        legal: list[str] = view["legal"] if view.get("to_move") == self.seat else []
        return legal

    async def maybe_move(self) -> None:
        stats = self.table.stats
        if not stats.running or not self.my_turn():
            return
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            if not stats.running:
                return
        legal = self.my_turn()
        if not legal or self.asked:
            return
        version = self.version
        if version in self.table.pending:
            return
        move = self.rng.choice(legal)
        assert self.ws is not None
        self.table.sent(self, version)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps({"type": "move", "move": move, "version": version}))

    async def go(self) -> None:
        """The start: the seat to move moves (then the receiving loop drives it)."""
        await self.table.stats.started.wait()
        await self.maybe_move()


async def lay_tables(base: str, n: int, concurrency: int = 8) -> list[tuple[str, dict[int, str]]]:
    """N tables of three human seats, every seat taken: [(table, seat -> token)]."""
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(3)]
    sem = asyncio.Semaphore(concurrency)
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)

    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        async def one() -> tuple[str, dict[int, str]]:
            async with sem:
                r = await http.post("/api/tables", json={"preset": "classic", "seats": seats,
                                                         "open": False})
                assert r.status_code == 201, r.text
                body = r.json()
                tokens = {body["seat"]: body["token"]}
                for s in (1, 2):
                    r = await http.post(f"/api/tables/{body['table']}/seats/{s}",
                                        json={"name": f"P{s}", "invite": body["invite"]})
                    assert r.status_code == 200, r.text
                    tokens[s] = r.json()["token"]
                return body["table"], tokens

        return list(await asyncio.gather(*(one() for _ in range(n))))


# --------------------------------------------------------------------------- one run


@dataclass
class Result:
    db: str
    tables: int
    conns: int
    think: float
    seconds: float
    moves: int = 0
    p50: float = 0.0
    p99: float = 0.0
    worst: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    rss0: int = 0
    rss_laid: int = 0
    rss_connected: int = 0
    rss_after: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    unfinished: int = 0
    over: int = 0
    lay_seconds: float = 0.0
    load: float = 0.0
    played: int = 0  # every move of the run, warm-up and the end included
    server_wait: float = 0.0
    client_wait: float = 0.0
    acked: int = 0  # moves whose mover heard their events
    lost: int = 0  # of those, not in the store's move log at the end
    kill: str = ""  # --kill-at: how the killed worker's tables came back

    @property
    def server_ms_per_move(self) -> float:
        return 10 * self.server_cpu / self.moves_per_second if self.moves else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def per_table(self, rss: int) -> float:
        return (rss - self.rss0) / self.tables


async def start_flame(path: str | None, pid: int, seconds: float, n: int,
                      ) -> asyncio.subprocess.Process | None:
    """``py-spy record`` of the server for ``seconds`` into ``path`` (``{n}`` in it: the
    number of tables), on the clients' CPU; None without ``--flame``."""
    if not path:
        return None
    out = path.replace("{n}", str(n))
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    spy = await asyncio.create_subprocess_exec(
        exe, "record", "--pid", str(pid), "--duration", str(int(seconds)),
        "--output", out, "--format", "flamegraph", "--nonblocking",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    return spy


async def run_one(db_url: str, db_name: str, n: int, args: argparse.Namespace,
                  workdir: Path, workers: int = 1) -> Result:
    servers = Servers(db_url, workdir, workers, args)
    await servers.start()
    res = Result(db_name, n, n * (3 + args.spectators), args.think, 0.0)
    res.load = os.getloadavg()[0]
    players: list[Player] = []
    tables: list[BenchTable] = []
    stats = Stats(hosts=[p.host for p in servers.procs], deflate=args.deflate)
    try:
        for proc in servers.procs:  # warm-up: lazy imports, the first table's caches
            await lay_tables(proc.base, 1)
        await asyncio.sleep(0.5)
        res.rss0 = servers.rss()
        t0 = time.perf_counter()
        # table t laid on worker t % K (its owner), as the clients of a proxy would
        shares = [n // workers + (1 if w < n % workers else 0) for w in range(workers)]
        laid_by = await asyncio.gather(*(lay_tables(p.base, k)
                                         for p, k in zip(servers.procs, shares, strict=True)))
        laid = [laid_by[t % workers][t // workers] for t in range(n)]
        res.lay_seconds = time.perf_counter() - t0
        await asyncio.sleep(0.5)
        res.rss_laid = servers.rss()

        rng = random.Random(n)
        for t, (table_id, tokens) in enumerate(laid):
            table = BenchTable(table_id, tokens, stats)
            for i, seat in enumerate([0, 1, 2] + [None] * args.spectators):
                table.conns.append(Player(table, seat, args.think, random.Random(rng.random()),
                                          worker=(t + i) % workers))
            tables.append(table)
        players = [p for t in tables for p in t.conns]
        sem = asyncio.Semaphore(32)

        async def connect_one(p: Player) -> None:
            async with sem:
                await p.connect()

        await asyncio.gather(*(connect_one(p) for p in players))
        for p in players:
            p.task = asyncio.create_task(p.run())
        await asyncio.sleep(0.5)
        res.rss_connected = servers.rss()

        starters = [asyncio.create_task(p.go()) for p in players]
        begin = time.perf_counter()
        warm = args.seconds * WARMUP_SHARE
        stats.window = (begin + warm, begin + args.seconds)
        stats.running = True
        stats.started.set()
        await asyncio.sleep(warm)
        spy = await start_flame(args.flame, servers.procs[0].pid, args.seconds - warm, n)
        cpu_server0, cpu_client0 = servers.cpu(), time.process_time()
        wait_server0, wait_client0 = servers.wait(), run_wait_seconds(os.getpid())
        if args.kill_at is not None and workers > 1:
            await asyncio.sleep(args.kill_at)
            killed = await kill_owner(servers, db_url, tables)
            left = begin + args.seconds - time.perf_counter()
            await asyncio.sleep(max(0.0, left))
            res.kill = kill_summary(killed, tables, left)
        else:
            await asyncio.sleep(args.seconds - warm)
        cpu_server1, cpu_client1 = servers.cpu(), time.process_time()
        wait_server1, wait_client1 = servers.wait(), run_wait_seconds(os.getpid())
        stats.running = False
        if spy is not None:
            await spy.wait()
        measured = args.seconds - warm
        for _ in range(100):  # the moves in flight reach everybody
            if stats.in_flight == 0:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        res.rss_after = servers.rss()
        for task in starters:
            task.cancel()

        res.seconds = measured
        res.moves, res.p50, res.p99, res.worst = latency_ms(stats.latencies)
        res.server_cpu = 100 * (cpu_server1 - cpu_server0) / measured
        res.client_cpu = 100 * (cpu_client1 - cpu_client0) / measured
        res.server_wait = 100 * (wait_server1 - wait_server0) / measured
        res.client_wait = 100 * (wait_client1 - wait_client0) / measured
        res.unfinished = stats.in_flight
        res.over = stats.over
        res.played = stats.played
    finally:
        stats.closing = True
        sem2 = asyncio.Semaphore(64)

        async def close(p: Player) -> None:
            async with sem2:
                if p.ws is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(p.ws.close(), 5)

        await asyncio.gather(*(close(p) for p in players))
        for p in players:
            if p.task is not None:
                p.task.cancel()
        await servers.stop()
        if args.logs:  # the servers' logs outlive the run's folder
            args.logs.mkdir(parents=True, exist_ok=True)
            for log in workdir.glob("*.log"):
                shutil.copy(log, args.logs / f"{db_name.replace(' ', '_')}-{n}-{log.name}")
    res.errors = dict(stats.errors)
    # every move a mover saw the events of must be in the store's move log
    stored = await asyncio.to_thread(stored_moves, db_url, [t.id for t in tables])
    res.acked = sum(len(t.acked) for t in tables)
    res.lost = sum(1 for t in tables for v in t.acked if (t.id, v) not in stored)
    return res


async def kill_owner(servers: Servers, db_url: str, tables: list[BenchTable]) -> str:
    """SIGKILL the worker holding the most tables (``leases``); its tables are marked, so
    that the clients time their way back: the report's line of the kill."""
    held = await asyncio.to_thread(leases_of, db_url)
    worker, ids = max(held.items(), key=lambda kv: len(kv[1]))
    victim = servers.named(worker)
    now = time.perf_counter()
    mine = set(ids)
    marked = [t for t in tables if t.id in mine]
    for t in marked:
        t.killed_at = now
        t.kill_version = max(c.seen for c in t.conns)
    victim.kill()
    print(f"killed {worker} (pid {victim.pid}), holding {len(ids)} of "
          f"{sum(len(v) for v in held.values())} tables", flush=True)
    return worker


def kill_summary(worker: str, tables: list[BenchTable], end: float) -> str:
    """How the killed worker's tables came back: every seat with a snapshot again, and a
    move accepted again (the move after a seat's think time: 0..2x think), in seconds
    after the kill, max and median over its tables."""
    marked = [t for t in tables if t.killed_at is not None]
    if not marked:
        return f"killed {worker}: it held no table"

    def spread(values: list[float | None]) -> str:
        got = sorted(v for v in values if v is not None)
        missing = len(values) - len(got)
        text = (f"max {got[-1]:.1f} s, median {statistics.median(got):.1f} s"
                if got else "none")
        return text + (f", {missing} never (in the {end:.0f} s left)" if missing else "")

    for t in marked:
        if t.moved is None:  # why, on the terminal (not in the results)
            print(f"  {t.id} never moved again (at {t.kill_version} when killed): pending "
                  f"{sorted(t.pending)}; " + "; ".join(
                      f"seat {c.seat} worker {c.worker} connection {c.generation} version "
                      f"{c.version} latest {c.latest} asked {c.asked} to move "
                      f"{(c.view or {}).get('to_move')} over {c.over}" for c in t.conns),
                  flush=True)
    return (f"killed {worker}, holding {len(marked)} of {len(tables)} tables: every seat "
            f"back (a snapshot) {spread([t.back for t in marked])}; moved again "
            f"{spread([t.moved for t in marked])}")


# --------------------------------------------------------------------------- the report

HEADER = (f"{'db':12} {'tables':>6} {'conns':>5} {'think':>5} {'moves/s':>8} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7} {'srv CPU':>7} {'ms/move':>7} {'srv wait':>8} "
          f"{'cli CPU':>7} {'cli wait':>8} {'load':>4} "
          f"{'RSS0 MB':>7} "
          f"{'KB/tbl laid':>11} {'KB/tbl conn':>11} {'KB/tbl run':>10} {'moves/tbl':>9} "
          f"{'lost/acked':>12}  errors")


def line(r: Result) -> str:
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r.errors.items())) or "-"
    if r.unfinished:
        errors += f"; {r.unfinished} moves unheard at the end"
    if r.over:
        errors += f"; {r.over} games over"
    text = (f"{r.db:12} {r.tables:6d} {r.conns:5d} {r.think:5.2g} {r.moves_per_second:8.0f} "
            f"{r.p50:7.1f} {r.p99:7.1f} {r.worst:7.1f} {r.server_cpu:6.0f}% "
            f"{r.server_ms_per_move:7.2f} {r.server_wait:7.0f}% {r.client_cpu:6.0f}% "
            f"{r.client_wait:7.0f}% {r.load:4.1f} "
            f"{r.rss0 / 1024:7.1f} {r.per_table(r.rss_laid):11.1f} "
            f"{r.per_table(r.rss_connected):11.1f} {r.per_table(r.rss_after):10.1f} "
            f"{r.played / r.tables:9.0f} {f'{r.lost}/{r.acked}':>12}  {errors}")
    return text + (f"\n{'':12} {r.kill}" if r.kill else "")


def setups(args: argparse.Namespace) -> list[tuple[str, int]]:
    """(database, workers) of each run: one process on each ``--db``, and K >= 2 workers
    on PostgreSQL and Redis."""
    dbs = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    out = []
    for k in args.workers:
        out += [(db, 1) for db in dbs] if k == 1 else [("postgresql", k)]
    return out


async def main_async(args: argparse.Namespace) -> list[Result]:
    results = []
    print(HEADER, flush=True)
    for db, workers in setups(args):
        name = db if workers == 1 else f"pg+redis x{workers}"
        for n in args.tables:
            with tempfile.TemporaryDirectory(prefix="thousand-bench-") as tmp:
                workdir = Path(tmp)
                if db == "sqlite":
                    r = await run_one(f"sqlite:///{workdir / 'bench.db'}", name, n, args,
                                      workdir)
                else:
                    with postgres_schema() as url:
                        r = await run_one(url, name, n, args, workdir, workers)
            print(line(r), flush=True)
            results.append(r)
    return results


def source_commit() -> str:
    """The checkout's commit, and whether src/ has changes not committed."""
    import subprocess

    def git(*a: str) -> str:
        return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True,
                              check=False).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "no git"
    return head + (" + changes in src" if git("status", "--porcelain", "src") else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="50,100,300",
                    type=lambda s: [int(x) for x in s.split(",")],
                    help="numbers of concurrent tables, one run each (default 50,100,300)")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of each run")
    ap.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="sqlite")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds a seat waits before its move (uniform 0..2x; 0: none)")
    ap.add_argument("--spectators", type=int, default=0, help="spectators per table")
    ap.add_argument("--no-deflate", dest="deflate", action="store_false",
                    help="no permessage-deflate (browsers negotiate it; the default does)")
    ap.add_argument("--workers", default="1", type=lambda s: [int(x) for x in s.split(",")],
                    help="1: one process (on each --db); K >= 2: K workers on PostgreSQL "
                    "and --redis, each on its own port; a list runs each (default 1)")
    ap.add_argument("--redis", default=REDIS_URL, help=f"Redis of many workers "
                    f"(default {REDIS_URL}; a key prefix of the run's own, deleted after)")
    ap.add_argument("--lease-ttl", type=float, default=5.0,
                    help="the workers' --lease-ttl (default 5, the server's)")
    ap.add_argument("--kill-at", type=float, metavar="SECONDS",
                    help="many workers: SIGKILL the one holding the most tables this long "
                    "into the measured window")
    ap.add_argument("--logs", type=Path, metavar="DIR",
                    help="copy each server's (worker's) log into DIR after its run")
    ap.add_argument("--gc-off", action="store_true",
                    help="an experiment: the server (each worker) runs with gc.disable()")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile")
    ap.add_argument("--flame", metavar="FILE.svg",
                    help="py-spy flame graph of the server over the measured window")
    ap.add_argument("--label", default="", help="a note for the results file's header line")
    ap.add_argument("--out", type=Path, help=f"append the table to this file "
                    f"(e.g. {RESULTS.relative_to(ROOT)})")
    args = ap.parse_args()
    if args.profile:
        args.profile = str(Path(args.profile).resolve())
    pinned = pin(0, CLIENT_CPU)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    commit = source_commit()  # the servers run the checkout's code as it is at their start
    results = asyncio.run(main_async(args))
    cmd = " ".join(["benchmarks/server.py", *sys.argv[1:]])
    when = dt.datetime.now().strftime("%Y-%m-%d %H:%M")
    text = [f"{cmd}  ({when}, {commit}, python {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, "
            f"server pinned to CPU {SERVER_CPU} and clients to CPU {CLIENT_CPU}: {pinned}; "
            f"deflate {'on' if args.deflate else 'off'}; {args.spectators} spectators/table; "
            f"{args.seconds:g} s a run, the first {WARMUP_SHARE:.0%} not counted)"
            + (f"  [{args.label}]" if args.label else ""),
            HEADER, *(line(r) for r in results)]
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        with args.out.open("a") as f:
            f.write("\n".join(text) + "\n\n")
    lay = statistics.mean(r.tables * 3 / r.lay_seconds for r in results if r.lay_seconds)
    print(f"(laying tables: {lay:.0f} requests/s)")


if __name__ == "__main__":
    main()
