"""docs/server.md "Many workers": real ``thousand serve`` workers on loopback sharing one
PostgreSQL schema and one Redis prefix (tests/cluster_live.py), real WebSocket clients on
different workers, and the workers killed (SIGKILL), paused (SIGSTOP past the lease, then
SIGCONT), stopped in turn (SIGTERM: a rolling restart), Redis killed under them, and
``--workers 2`` behind one port.

What every check is made against is the store itself, read with SQL: the ``moves`` rows of
a table (no gap, no duplicate), and every move a client was told of — it saw the events of
the version its move made — stands in them exactly where it was made.  The stored log
replayed on a table of the same seed gives exactly the events each connection received
(test_server.verify_stream), across all its reconnections.

Each test's docstring names the promise it checks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

from cluster_live import (
    LEASE_TTL,
    REDIS_URL,
    Cluster,
    PrivateRedis,
    Worker,
    drop_redis_keys,
    postgres_schema,
    redis_or_skip,
    running,
)
from http_client import HTTP
from test_server import Client, verify_stream
from thousand.engine.table import Table
from waiting import until

pytestmark = pytest.mark.cluster

Msg = dict[str, Any]
#: A short game: one deal of the classic rules (two: long enough for three kills).
SHORT = {"max_deals": 1}
LONGER = {"max_deals": 2}
#: How a server stopped by SIGTERM exits once it has shut down: uvicorn raises the signal
#: again after its graceful shutdown (so -SIGTERM), or 0.
CLEAN_EXIT = (0, -signal.SIGTERM)
#: The errors that mean "not here, not now: connect again" (docs/server.md "Many
#: workers"): the table moved to another worker; the bus is down.
RETRY = ("moved", "unavailable")
#: Seconds a table may stand still in play (no new version) before a test gives up on it.
STALL = 30.0


def run(main: Awaitable[Any], limit: float = 180.0) -> Any:
    """``asyncio.run`` with an end: a test that waits on a server for ever fails."""
    async def bounded() -> Any:
        return await asyncio.wait_for(main, limit)

    return asyncio.run(bounded())


#: The run's start, and what the tests did to the workers when (shown with failures).
T0 = time.monotonic()
TIMELINE: list[Any] = []


class Dropped(Exception):
    """The connection of ``player`` went away (closed, reset, or silent too long)."""

    def __init__(self, player: Player, why: str) -> None:
        super().__init__(f"{player.name}: {why}")
        self.player = player


# --------------------------------------------------------------------------- a client


class Player:
    """One seat (``None``: a spectator) of one table, connected to some worker, that
    reconnects to a living one when its connection goes and resyncs by version.

    ``seen`` holds what the player ever received, across every connection (the shape
    test_server.verify_stream reads); ``acked`` the moves it was told of — it sent the
    move at version v, and then saw the events of version v+1 before sending anything
    else at v."""

    def __init__(self, cluster: Cluster, table: str, seat: int | None, token: str | None,
                 rng: random.Random) -> None:
        self.cluster = cluster
        self.table = table
        self.seat = seat
        self.token = token
        self.rng = rng
        self.name = f"{table}/{'spectator' if seat is None else f'seat {seat}'}"
        self.seen = SimpleNamespace(events={}, inbox=[], version=-1)
        self.client: Client | None = None
        self.worker: Worker | None = None
        self.pending: tuple[int, str] | None = None
        self.acked: dict[int, str] = {}
        self.acked_at: list[float] = []  # when (time.monotonic()) each was acknowledged
        self.connections = 0
        self.workers_used: set[str] = set()
        self.trace: list[Any] = []
        #: this connection's first snapshot's version, and the last version it received
        self.base = self.live = -1

    # -- connecting

    async def connect(self, worker: Worker | None = None, *, timeout: float = 40.0) -> None:
        """Connect (to ``worker``, else to a serving one at random), take the snapshot
        and sync from the last version seen; retried on other workers until it works."""
        await self.close()
        deadline = time.monotonic() + timeout
        tries: list[str] = ["no worker serving"]
        while time.monotonic() < deadline:
            target = worker if worker is not None and worker.serving else None
            if target is None:
                candidates = self.cluster.serving()
                if not candidates:
                    await asyncio.sleep(0.1)
                    continue
                target = self.rng.choice(candidates)
            try:
                await self._connect_to(target)
                return
            except (OSError, TimeoutError, websockets.WebSocketException, Dropped) as e:
                last = f"{round(time.monotonic() - T0, 1)} {target.name}: {type(e).__name__} {e}"
                if target.proc is not None and target.proc.poll() is not None:
                    last += f"; it exited ({target.proc.returncode}): {target.log()[-1500:]}"
                tries.append(last)
                await self.close()
                worker = None  # the one asked for failed: any other next
                await asyncio.sleep(0.2)
        raise AssertionError(f"{self.name} could not connect in {timeout:.0f} s: "
                             f"{tries[-6:]}; {self.trace[-6:]}; {TIMELINE}")

    async def _connect_to(self, worker: Worker) -> None:
        protocols = ["thousand", *([f"token.{self.token}"] if self.token else [])]
        ws = await websockets.connect(worker.ws_url(self.table), max_size=2**24,
                                      ping_interval=None, open_timeout=5,
                                      subprotocols=protocols)  # type: ignore[arg-type]
        self.client = Client(ws, self.seat)
        self.worker = worker
        first = await self.recv(8.0)
        if first["type"] == "error" and first["code"] in RETRY:
            raise Dropped(self, f"refused: {first['code']}")
        assert first["type"] == "snapshot", f"{self.name} on {worker.name}: {first}"
        assert first["seat"] == self.seat, (first["seat"], self.seat)
        assert first["version"] >= self.seen.version, (
            f"{self.name} on {worker.name}: the table is at {first['version']}, behind "
            f"version {self.seen.version} it was shown: a move it was told of is gone")
        missed = range(self.seen.version + 1, first["version"] + 1)
        self.base = self.live = first["version"]
        await self.send({"type": "sync", "version": self.seen.version})
        # the answer, and maybe before it live events of moves made since the snapshot
        await self.expect(lambda m: m["type"] == "events" and all(
            v in self.seen.events for v in missed), 8.0)
        self.connections += 1
        self.workers_used.add(worker.name)

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.client.ws.close(), 2)
        self.client = None

    # -- talking

    async def recv(self, timeout: float = 10.0) -> Msg:
        assert self.client is not None, f"{self.name} is not connected"
        try:
            msg = await self.client.recv(timeout)
        except websockets.ConnectionClosed as e:
            self._note("closed", None, e.rcvd.code if e.rcvd else None)
            raise Dropped(self, f"closed {e.rcvd.code if e.rcvd else None}") from None
        except (TimeoutError, OSError) as e:
            raise Dropped(self, f"nothing for {timeout} s ({type(e).__name__})") from None
        self.seen.inbox.append(msg)
        self._note(msg["type"], msg.get("version"), msg.get("code"))
        if msg["type"] == "events":
            self._merge(msg)
        return msg

    def _merge(self, msg: Msg) -> None:
        """Events into ``seen``.  A version received again must be the same.  The live
        events of one connection come in order and without a hole, from the version of
        its first snapshot on (every move tells every seat something: at least the move
        itself); the answer to ``sync`` fills in what came before it."""
        by_version: dict[int, list[Msg]] = {}
        for e in msg["events"]:
            by_version.setdefault(e["v"], []).append(e)
        for v, events in sorted(by_version.items()):
            if v in self.seen.events:
                assert self.seen.events[v] == events, (
                    f"{self.name}: version {v} came again, differently")
            elif v <= self.live:
                assert v <= self.base, (
                    f"{self.name}: version {v} arrived after version {self.live}: "
                    f"{self.trace[-12:]}")
            self.seen.events.setdefault(v, events)
            if v > self.live:
                assert v == self.live + 1, (
                    f"{self.name} on {self.worker.name if self.worker else None}: version "
                    f"{v} after {self.live}, the versions between never came: "
                    f"{self.trace[-12:]}; {TIMELINE}")
                self.live = v
            self.seen.version = max(self.seen.version, v)
        if self.pending is not None and self.pending[0] + 1 in self.seen.events:
            self.acked[self.pending[0]] = self.pending[1]
            self.acked_at.append(time.monotonic())
            self.pending = None

    def _note(self, kind: str, version: int | None, code: Any) -> None:
        """What came, when and from where: the tail is shown when a check fails."""
        where = self.worker.name if self.worker else None
        self.trace.append((round(time.monotonic() - T0, 3), where, kind, version, code))

    async def send(self, message: Msg) -> None:
        assert self.client is not None
        try:
            await self.client.send(message)
        except websockets.ConnectionClosed as e:
            raise Dropped(self, f"closed {e.rcvd.code if e.rcvd else None}") from None

    async def expect(self, pred: Callable[[Msg], bool], timeout: float = 10.0) -> Msg:
        while True:
            msg = await self.recv(timeout)
            if pred(msg):
                return msg

    async def snapshot(self, timeout: float = 10.0) -> Msg:
        await self.send({"type": "snapshot"})
        return await self.expect(lambda m: m["type"] == "snapshot", timeout)

    async def move(self, move: str, version: int) -> None:
        """Send a move; ``pending`` until its version's events are seen."""
        self.pending = (version, move)
        await self.send({"type": "move", "move": move, "version": version})

    async def answer(self, version: int, timeout: float = 10.0) -> Msg:
        """The answer to a move sent at ``version``: events past it, or an error."""
        return await self.expect(lambda m: m["type"] == "error" or (
            m["type"] == "events" and m["version"] > version), timeout)


async def connect_all(players: dict[int | None, Player],
                      workers: dict[int | None, Worker] | None = None) -> None:
    for s, p in players.items():
        await p.connect((workers or {}).get(s))


async def close_all(players: dict[int | None, Player]) -> None:
    for p in players.values():
        await p.close()


Hook = Callable[[Player, int, int], Awaitable[None]]


async def play(players: dict[int | None, Player], rng: random.Random, *,
               after_send: Hook | None = None, pace: float = 0.0,
               stop: Callable[[], bool] | None = None, steps: int = 3000) -> int:
    """Random legal moves by the seat to move until the game is over (or ``stop()``),
    reconnecting any player whose connection goes (``after_send(player, version, moves
    made)`` runs right after each move is sent: where a test kills or pauses a worker;
    ``pace``: seconds between moves).  The number of moves the people made."""
    spectator = players[None]
    made = 0
    progress = (-2, time.monotonic())
    for _ in range(steps):
        if spectator.seen.version > progress[0]:
            progress = (spectator.seen.version, time.monotonic())
        assert time.monotonic() - progress[1] < STALL, (
            f"{spectator.table} stood still at version {progress[0]} for {STALL:.0f} s: "
            + "; ".join(f"{p.name}: {p.trace[-6:]}" for p in players.values()))
        try:
            public = await spectator.snapshot()
            if public["over"] or (stop is not None and stop()):
                return made
            seat = public["view"]["to_move"]
            if seat not in players:  # a bot's move: it comes as events
                await spectator.expect(lambda m, v=public["version"]: m["type"] == "events"
                                       and m["version"] > v)
                continue
            me = players[seat]
            mine = await me.snapshot()
            if mine["version"] != public["version"]:
                continue
            legal, version = mine["view"]["legal"], mine["version"]
            assert legal, f"{me.name} is to move at {version} with no legal move"
            if pace:
                await asyncio.sleep(pace)
            await me.move(rng.choice(legal), version)
            made += 1
            if after_send is not None:
                await after_send(me, version, made)
            answer = await me.answer(version)
            if answer["type"] == "error":
                assert answer["code"] in ("stale_version", *RETRY), answer
                me.pending = None  # refused: not made (the log is checked at the end)
                if answer["code"] == "moved":
                    await me.connect()
                elif answer["code"] == "unavailable":
                    await asyncio.sleep(0.2)
        except Dropped as d:
            await d.player.connect()
    raise AssertionError("the game did not end")


async def finish(players: dict[int | None, Player], *, over: bool = True) -> None:
    """Every player has read everything up to the end (a snapshot of the finished game,
    or the one it stopped at, answered after every event), then closes."""
    for p in players.values():
        for _ in range(5):
            try:
                snap = await p.snapshot()
                assert snap["over"] or not over, f"{p.name}: not over"
                if p.seen.version < snap["version"]:
                    await p.send({"type": "sync", "version": p.seen.version})
                    await p.expect(lambda m: m["type"] == "events")
                break
            except Dropped:
                await p.connect()
        await p.close()


# --------------------------------------------------------------------------- the checks


def check_log_dense(log: list[tuple[int, str]]) -> None:
    """The stored move log has every index from 0, once: no gap, no duplicate."""
    idx = [i for i, _ in log]
    assert idx == list(range(len(idx))), f"the move log's indexes are not 0..n-1: {idx}"


def check_acked(log: list[tuple[int, str]], players: dict[int | None, Player]) -> int:
    """Every move a player was told of is in the log, at the version it was made; the
    number of them."""
    moves = dict(log)
    count = 0
    for p in players.values():
        for v, move in p.acked.items():
            assert moves.get(v) == move, (
                f"{p.name}: its move {move!r} at version {v} was acknowledged, the log has "
                f"{moves.get(v)!r}")
            count += 1
    return count


def check_game(cluster: Cluster, table: str, players: dict[int | None, Player], *,
               over: bool = True) -> Table:
    """The store's log is dense, holds every acknowledged move, and replays to exactly
    what each player received; the game is over (unless ``over`` is False: stopped)."""
    log = cluster.move_log(table)
    check_log_dense(log)
    check_acked(log, players)
    shadow = verify_stream(cluster.db_url, table,
                           {p.seat: p.seen for p in players.values()})  # type: ignore[misc]
    if over:
        assert shadow.over, "the stored game is not over"
        assert cluster.status(table) == "over"
    return shadow


def test_the_checks_catch_a_lost_a_doubled_and_a_changed_move() -> None:
    """The checks the other tests make can fail: a log with a gap, a duplicate index, a
    move acknowledged but missing or another one in its place is refused; so is a
    connection's live version skipped or a version received twice differently; a move
    is acknowledged once its version's events are seen."""
    p = SimpleNamespace(name="seat 0", acked={1: "105", 3: "pass"})
    players: Any = {0: p}
    good = [(0, "100"), (1, "105"), (2, "110"), (3, "pass")]
    check_log_dense(good)
    assert check_acked(good, players) == 2
    for bad in ([(0, "100"), (1, "105"), (3, "pass")], [(0, "100"), (1, "105"), (1, "105"),
                                                        (2, "110"), (3, "pass")]):
        with pytest.raises(AssertionError, match="indexes"):
            check_log_dense(bad)
    for bad in ([(0, "100"), (1, "105"), (2, "110")], [(0, "100"), (1, "110"), (2, "110"),
                                                       (3, "pass")]):
        with pytest.raises(AssertionError, match="acknowledged"):
            check_acked(bad, players)

    def event(v: int, seat: int = 0) -> Msg:
        return {"type": "pass", "audience": "all", "seat": seat, "phase": "auction", "v": v}

    def player() -> Player:
        p = Player(None, "t", 0, None, random.Random(0))  # type: ignore[arg-type]
        p.base = p.live = 2  # connected at version 2, the answer to sync still to come
        p._merge({"type": "events", "version": 3, "events": [event(3)]})
        p._merge({"type": "events", "version": 3, "events": [event(1), event(2), event(3)]})
        assert sorted(p.seen.events) == [1, 2, 3] and p.seen.version == 3
        return p

    with pytest.raises(AssertionError, match="never came"):  # a live version skipped
        player()._merge({"type": "events", "version": 5, "events": [event(5)]})
    with pytest.raises(AssertionError, match="differently"):  # a version sent changed
        player()._merge({"type": "events", "version": 3, "events": [event(3, seat=1)]})
    p = player()
    p.pending = (3, "pass")
    p._merge({"type": "events", "version": 4, "events": [event(4)]})
    assert p.acked == {3: "pass"} and p.pending is None


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def prefix() -> Iterator[str]:
    redis_or_skip()
    name = f"thousand-test-{uuid.uuid4().hex[:10]}"
    yield name
    drop_redis_keys(REDIS_URL, name)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, prefix: str) -> Iterator[Cluster]:
    """Three workers w1, w2, w3 on one schema and the shared Redis under the run's prefix,
    shared by the tests of this module (each heals it after)."""
    db_url, drop = postgres_schema()
    try:
        with running(tmp_path_factory.mktemp("cluster"), db_url, REDIS_URL, prefix, 3) as c:
            yield c
    finally:
        drop()


@pytest.fixture
def healed(cluster: Cluster) -> Iterator[Cluster]:
    """The shared cluster, every worker running again after the test."""
    yield cluster
    cluster.heal()


def new_table(cluster: Cluster, creator: Worker, kinds: list[str],
              takers: list[Worker] | None = None,
              options: dict[str, Any] | None = None) -> tuple[str, dict[int, str]]:
    """A classic table laid over HTTP on ``creator`` (people on "human", bots on "bot");
    the other people's seats taken on ``takers`` in turn: (table id, seat -> token)."""
    seats = [{"kind": "human", "name": f"Игрок {i}"} if k == "human"
             else {"kind": "bot", "level": "heuristic"} for i, k in enumerate(kinds)]
    r = creator.post("/api/tables", {"preset": "classic", "options": options or SHORT,
                                     "seats": seats})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {body["seat"]: body["token"]}
    others = [i for i, k in enumerate(kinds) if k == "human" and i != body["seat"]]
    for n, i in enumerate(others):
        taker = (takers or [creator])[n % len(takers or [creator])]
        r = taker.post(f"/api/tables/{body['table']}/seats/{i}", {"name": f"P{i}"})
        assert r.status_code == 200, f"{taker.name}: {r.text}"
        tokens[i] = r.json()["token"]
    return body["table"], tokens


def players_of(cluster: Cluster, table: str, tokens: dict[int, str],
               rng: random.Random) -> dict[int | None, Player]:
    players: dict[int | None, Player] = {
        s: Player(cluster, table, s, t, rng) for s, t in sorted(tokens.items())}
    players[None] = Player(cluster, table, None, None, rng)
    return players


# --------------------------------------------------------------------------- the tests


def test_seats_on_three_workers_play_a_whole_game(healed: Cluster) -> None:
    """Promise: any worker accepts any request and WebSocket of any table — a table laid
    on w1, its seats taken on w2 and w3, its people and a spectator connected to all
    three, plays a whole game; every connection sees the same versions in the same
    order, and the record (from a worker that is not the owner) replays to the same
    result as the stored log."""
    c = healed
    rng = random.Random("cluster/whole")
    table, tokens = new_table(c, c["w1"], ["human"] * 3, [c["w2"], c["w3"]])
    players = players_of(c, table, tokens, rng)
    where = {0: c["w1"], 1: c["w2"], 2: c["w3"], None: c["w2"]}

    async def main() -> int:
        await connect_all(players, where)
        made = await play(players, rng)
        await finish(players)
        return made

    made = run(main())
    assert made > 10
    for s, p in players.items():
        assert p.connections == 1, f"{p.name} had to reconnect: nothing was killed"
        assert p.workers_used == {where[s].name}
    shadow = check_game(c, table, players)
    versions = {s: sorted(p.seen.events) for s, p in players.items()}
    assert all(v == versions[None] for v in versions.values()), "the versions differ"
    assert versions[None] == list(range(shadow.version + 1))
    lease = c.lease(table)  # a finished table's lease may have run out: its last holder
    assert lease is not None
    other = next(w for w in c.workers.values() if w.name != lease[0])
    record = other.get(f"/api/games/{table}/record")
    assert record.status_code == 200, record.text
    replayed = Table.from_record(json.loads(record.text))
    assert replayed.over and replayed.version == shadow.version
    assert replayed.game.winner == shadow.game.winner
    assert replayed.game.scores == shadow.game.scores


def test_a_relayed_client_is_told_what_is_wrong_with_a_bad_frame(healed: Cluster) -> None:
    """Promise: bad input gets a clear error over a relay as it does at the owner — a
    frame that is not UTF-8, sent to a worker that does not hold the table, is answered
    ``malformed`` with the reason (not forwarded with replacement characters), and the
    connection stays: its next message is answered."""
    from test_strict_input import next_of, ws

    c = healed
    table, tokens = new_table(c, c["w1"], ["human", "bot", "bot"])
    lease = c.lease(table)
    assert lease is not None
    relay = next(w for w in c.workers.values() if w.name != lease[0])
    with ws(relay.base, table, tokens[0]) as conn:
        assert next_of(conn, "snapshot")["seat"] == 0
        conn.send(b'{"type": "chat", "text": "\xff"}')
        error = next_of(conn, "error")
        assert error["code"] == "malformed" and "not UTF-8" in error["message"], error
        conn.send(json.dumps({"type": "snapshot"}))
        assert next_of(conn, "snapshot")["seat"] == 0


def test_the_owner_killed_during_play_loses_no_acknowledged_move(healed: Cluster) -> None:
    """Promise: a worker that dies loses nothing — the owner of a table SIGKILLed three
    times at random moments (right after a move is sent: maybe between its commit and its
    broadcast; a little after; between moves): the clients reconnect to living workers
    and resync by version, the table goes on on another worker (a new lease, a higher
    fence), every move acknowledged to a client is in the log exactly where it was made,
    the log has no gap or duplicate and replays to what every client received."""
    c = healed
    rng = random.Random("cluster/kill")
    table, tokens = new_table(c, c["w1"], ["human", "human", "bot"], [c["w3"]],
                              options=LONGER)
    players = players_of(c, table, tokens, rng)
    kill_at = sorted(rng.sample(range(2, 14), 3))
    hows = rng.sample(["at once", "a little after", "between moves"], 3)  # each once
    kills: list[tuple[str, int, str]] = []  # (killed, fence before, how)
    moved: list[str] = []  # who took the table over after each kill
    restarts: list[asyncio.Task[None]] = []

    async def after_send(me: Player, version: int, made: int) -> None:
        if not kill_at or made < kill_at[0]:
            return
        kill_at.pop(0)
        owner = c.owner(table)
        fence = c.lease(table)[1]  # type: ignore[index]
        how = hows.pop()
        if how == "a little after":
            await asyncio.sleep(rng.random() * 0.03)
        elif how == "between moves":
            with contextlib.suppress(Dropped):
                await me.answer(version)
        dead = c[owner]
        dead.kill()
        kills.append((owner, fence, how))
        TIMELINE.append((round(time.monotonic() - T0, 3), "SIGKILL", owner, how))
        restarts.append(asyncio.create_task(again(dead)))

    async def again(dead: Worker) -> None:
        """The table goes on on another worker once the lease has run out: only then
        the dead one starts again (with its old id it could take the table back)."""
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while time.monotonic() < deadline:
            lease = c.lease(table)
            if lease is not None and lease[0] != dead.name and lease[2] > 0:
                moved.append(lease[0])
                break
            await asyncio.sleep(0.1)
        TIMELINE.append((round(time.monotonic() - T0, 3), "start", dead.name))
        dead.start()

    async def main() -> int:
        await connect_all(players, {0: c["w1"], 1: c["w2"], None: c["w3"]})
        made = await play(players, rng, after_send=after_send)
        await finish(players)
        await asyncio.gather(*restarts)
        return made

    run(main())
    assert len(kills) == 3, kills
    assert len(moved) == 3, f"the table did not go on on another worker: {kills}, {moved}"
    lease = c.lease(table)
    assert lease is not None and lease[1] >= kills[0][1] + 3, (
        f"three take-overs must raise the fence three times: {kills}, now {lease}")
    assert any(p.connections > 1 for p in players.values()), "nobody reconnected"
    acked = sum(len(p.acked) for p in players.values())
    assert acked > 5
    check_game(c, table, players)


async def frozen_move(player: Player, worker: Worker, rng: random.Random) -> tuple[int, str, str]:
    """Connect ``player`` (the seat to move, or about to be once the bots have moved)
    to ``worker``: (the version, a legal move, another legal move)."""
    await player.connect(worker)
    for _ in range(50):
        mine = await player.snapshot()
        if mine["view"]["to_move"] == player.seat and len(mine["view"]["legal"]) >= 2:
            frozen, other = rng.sample(mine["view"]["legal"], 2)
            return mine["version"], frozen, other
        await player.expect(lambda m: m["type"] == "events", 5.0)
    raise AssertionError(f"{player.name} never came to move with a choice")


def test_a_paused_owner_cannot_write_after_its_lease(healed: Cluster) -> None:
    """Promise: fencing — the owner of two tables SIGSTOPped longer than the lease; a move
    is sent to it on each (the seat to move, connected to it) while it stands still.
    Both tables are taken over by the others (the sweep takes the one nobody touches).
    On the first the same seat's other move is made meanwhile on another worker: it is
    in the log, not the frozen one.  On the second nothing moves meanwhile, so the frozen
    move's index is still free — only the fence keeps it out: after SIGCONT the woken
    worker writes neither (its connections are closed, no frozen move acknowledged), the
    logs have no gap or duplicate, and the first game plays to its end."""
    c = healed
    rng = random.Random("cluster/pause")
    table, tokens = new_table(c, c["w2"], ["human"] * 3, [c["w1"], c["w3"]])
    owner = c[c.owner(table)]
    second, second_tokens = new_table(c, owner, ["human", "bot", "bot"])
    assert c.owner(second) == owner.name, "a table laid on a worker is not held by it"
    players = players_of(c, table, tokens, rng)
    others = [w for w in c.workers.values() if w is not owner]
    state = SimpleNamespace(stale=[], frozen={})

    async def main() -> None:
        await connect_all(players, {0: others[0], 1: others[1], 2: others[0],
                                    None: others[1]})
        seat = (await players[None].snapshot())["view"]["to_move"]
        mover = players[seat]
        # the seats to move also on the owner: the moves that will stand still
        stale = Player(c, table, seat, tokens[seat], rng)
        stale2 = Player(c, second, 0, second_tokens[0], rng)
        for p in (stale, stale2):
            p.name += " (on the paused owner)"
        state.stale = [stale, stale2]
        version, frozen, other = await frozen_move(stale, owner, rng)
        version2, frozen2, _ = await frozen_move(stale2, owner, rng)
        state.frozen = {table: (version, frozen), second: (version2, frozen2)}
        owner.pause()
        await stale.move(frozen, version)
        await stale2.move(frozen2, version2)
        await asyncio.sleep(LEASE_TTL + 0.5)
        # the others take the table over: the seat's other move, on another worker, goes in
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while True:
            try:
                await mover.connect()
                await mover.move(other, version)
                answer = await mover.answer(version, 8.0)
                if answer["type"] == "events":
                    break
                assert answer["code"] == "unavailable", answer
            except Dropped:
                pass
            assert time.monotonic() < deadline, "nobody took the paused owner's table"
            await asyncio.sleep(0.3)
        assert mover.acked.get(version) == other
        for t in (table, second):
            assert c.owner(t) != owner.name, f"{t} still held by the paused {owner.name}"
        assert len(c.move_log(second)) == version2, "the second table moved while paused"
        owner.resume()
        # the owner wakes: it must not apply the frozen moves, and its connections close
        for p in (stale, stale2):
            try:
                while True:
                    await p.recv(LEASE_TTL + 3)
            except Dropped as d:
                assert "closed" in str(d), f"the woken owner kept its connection: {d}"
            await p.close()
        await play(players, rng)
        await finish(players)

    run(main())
    for p in state.stale:
        assert not p.acked, f"{p.name}: the paused owner acknowledged a move: {p.acked}"
    for t, (version, frozen) in state.frozen.items():
        log = c.move_log(t)
        check_log_dense(log)
        assert dict(log).get(version) != frozen, (
            f"{t}: the paused owner wrote the move sent to it while it stood still")
    assert len(c.move_log(second)) == state.frozen[second][0], (
        "the woken owner wrote on the table taken from it")
    check_game(c, table, players)


def test_a_rolling_restart_loses_nothing(healed: Cluster) -> None:
    """Promise: a rolling restart — SIGTERM to one worker at a time during play of three
    tables (each started again before the next is stopped): it exits cleanly and lets
    its leases go (none of its tables is still held by it once it is gone), every table
    goes on during the roll and after it, nothing acknowledged is lost.
    (Its log is scanned for tracebacks with every server's at the end of the run.)"""
    c = healed
    rng = random.Random("cluster/rolling")
    names = list(c.workers)
    games = []
    for i in range(3):
        # games that cannot end before the roll does, however fast they go (nobody
        # reaches 5000 in a few minutes) or slowly the workers start
        table, tokens = new_table(c, c[names[i]], ["human", "bot", "bot"],
                                  options={"max_deals": 200, "win_score": 5000})
        games.append((table, players_of(c, table, tokens, rng)))
    roll = SimpleNamespace(began=0.0, ended=0.0)

    async def rolling(done: asyncio.Event) -> None:
        await asyncio.sleep(1.0)
        roll.began = time.monotonic()
        for name in names:
            w = c[name]
            held = [t for t, _ in games if (c.lease(t) or ("", 0, 0.0))[0] == name]
            TIMELINE.append((round(time.monotonic() - T0, 3), "term", name, held))
            code = await asyncio.to_thread(w.term)
            TIMELINE.append((round(time.monotonic() - T0, 3), "exited", name))
            assert code in CLEAN_EXIT, f"{name} exited with {code}: {w.log()[-2000:]}"
            for t in held:
                lease = c.lease(t)
                assert lease is not None and (lease[0] != name or lease[2] <= 0), (
                    f"{name} stopped still holding {t}: {lease}")
            await asyncio.to_thread(w.start)
            await asyncio.to_thread(w.wait)
            TIMELINE.append((round(time.monotonic() - T0, 3), "ready", name))
            await asyncio.sleep(0.5)
        roll.ended = time.monotonic()
        done.set()

    def after_roll(players: dict[int | None, Player]) -> Callable[[], bool]:
        return lambda: roll.ended > 0 and any(
            t > roll.ended for p in players.values() for t in p.acked_at)

    async def one(players: dict[int | None, Player], done: asyncio.Event) -> None:
        await connect_all(players)
        # a move a quarter of a second per table: dozens during the roll, not hundreds
        await play(players, rng, pace=0.25, stop=after_roll(players))
        await done.wait()  # a game that ended before the roll: checked below
        await finish(players, over=False)

    async def main() -> None:
        done = asyncio.Event()
        await asyncio.gather(rolling(done), *(one(p, done) for _, p in games))

    run(main())
    for table, players in games:
        check_game(c, table, players, over=False)
        assert after_roll(players)(), f"{table} did not go on after the roll"
        during = [t for p in players.values() for t in p.acked_at
                  if roll.began < t < roll.ended]
        assert len(during) >= 3, f"{table} hardly went on during the roll: {len(during)}"
    assert sum(p.connections for _, ps in games for p in ps.values()) > 2 * len(games), (
        "no client was moved by the rolling restart")


def test_redis_restarted_during_play_loses_nothing(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Promise: Redis restarted under two workers (a private redis-server, SIGKILLed and
    started again on the same port) during play: relayed moves are refused cleanly
    (``unavailable``) or their connections closed until it is back, while the owner's own
    connections play on untouched; the workers take up the bus again, and the game
    completes with nothing stored lost."""
    folder = tmp_path_factory.mktemp("redis-restart")
    private = PrivateRedis(folder)
    db_url, drop = postgres_schema()
    rng = random.Random("cluster/redis")
    try:
        with running(folder, db_url, private.url, "thousand-restart", 2) as c:
            table, tokens = new_table(c, c["w1"], ["human"] * 3, [c["w2"]])
            players = players_of(c, table, tokens, rng)
            stopped = False

            async def after_send(me: Player, version: int, made: int) -> None:
                nonlocal stopped
                if made == 6 and not stopped:
                    stopped = True
                    private.kill()
                    loop = asyncio.get_running_loop()
                    loop.call_later(1.5, private.start)

            async def main() -> None:
                await connect_all(players, {0: c["w1"], 1: c["w2"], 2: c["w2"],
                                            None: c["w1"]})
                await play(players, rng, after_send=after_send)
                await finish(players)

            run(main())
            assert stopped
            assert c.lease(table)[0] == "w1", "the table left its owner"  # type: ignore[index]
            for s in (0, None):
                assert players[s].connections == 1, f"{players[s].name} on the owner: moved"
            relayed = [t for s in (1, 2) for t in players[s].trace
                       if t[2] == "closed" or t[4] == "unavailable"]
            assert relayed, "the relayed connections never noticed Redis was gone"
            check_game(c, table, players)
            for w in c.workers.values():
                assert w.alive, f"{w.name} died with Redis: {w.log()[-2000:]}"
    finally:
        private.close()
        drop()


def _parent_of(pid: int) -> int:
    """A process's parent (Linux ``/proc``): 0 when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def _children_of(pid: int) -> set[int]:
    """The living processes whose parent is ``pid``."""
    return {int(d) for d in os.listdir("/proc") if d.isdigit() and _parent_of(int(d)) == pid}


def test_two_workers_behind_one_port(tmp_path_factory: pytest.TempPathFactory,
                                     prefix: str) -> None:
    """Promise: ``--workers 2`` serves on one port through one supervisor: requests land
    on two different workers (``X-Thousand-Worker``: ``<name>-<pid>``), a worker SIGKILLed
    is replaced by the supervisor, and a game laid and played there completes."""
    folder = tmp_path_factory.mktemp("supervisor")
    db_url, drop = postgres_schema()
    rng = random.Random("cluster/supervisor")
    sup = Worker("supervisor", ["--db", db_url, "--redis", REDIS_URL, "--redis-prefix",
                                f"{prefix}-sup", "--workers", "2", "--lease-ttl",
                                str(LEASE_TTL), "--no-browser", "--no-limits",
                                "--bot-delay", "0"], folder)

    def who(_: int) -> str | None:
        try:  # a connection of its own each time (HTTP keeps none); the cheapest route
            return HTTP.get(sup.base + "/healthz", timeout=10).headers.get(
                "x-thousand-worker")
        except httpx.HTTPError:
            return "unreachable"

    def sweep() -> set[str | None]:
        """The workers 48 requests reached ("unreachable" for a refused one)."""
        with ThreadPoolExecutor(8) as pool:
            return set(pool.map(who, range(48)))

    def two() -> set[str | None] | None:
        """What a sweep reached, once it reached two workers (or more)."""
        found = sweep()
        return found if len(found) >= 2 else None

    # a worker still starting: one sweep of 48 requests a second at most
    try:
        sup.start()
        sup.wait()
        ids = until(two, 30, "requests reaching two workers", every=1.0)
        assert None not in ids, "a response without X-Thousand-Worker"
        assert len(ids) == 2 and "unreachable" not in ids, f"requests reached {ids}"
        victim = sorted(str(i) for i in ids)[0]
        pid = int(victim.rsplit("-", 1)[1])
        assert sup.proc is not None and _parent_of(pid) == sup.proc.pid, (
            f"{victim} is not a worker of the supervisor")
        proc = sup.proc
        before = _children_of(proc.pid)
        os.kill(pid, signal.SIGKILL)
        started = time.monotonic()  # a new worker starts slowly on a loaded machine
        # the supervisor starts another (read in /proc, which costs the workers nothing);
        # then the requests must reach it
        until(lambda: _children_of(proc.pid) - before, 120,
              "the supervisor started a new worker", every=0.2)
        until(lambda: len(found := sweep() - {"unreachable"}) == 2 and victim not in found,
              max(1.0, 120 - (time.monotonic() - started)),
              "the killed worker replaced, the requests reaching both", every=1.0)
        c: Any = SimpleNamespace(serving=lambda: [sup], db_url=db_url)
        table, tokens = new_table(c, sup, ["human", "human", "bot"])
        players = players_of(c, table, tokens, rng)

        async def main() -> None:
            await connect_all(players)
            await play(players, rng)
            await finish(players)

        run(main())
        seen: Any = {p.seat: p.seen for p in players.values()}
        assert verify_stream(db_url, table, seen).over
        code = sup.term()
        assert code in CLEAN_EXIT, f"the supervisor exited with {code}: {sup.log()[-2000:]}"
    finally:
        sup.kill()
        drop()
        drop_redis_keys(REDIS_URL, f"{prefix}-sup")
