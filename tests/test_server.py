"""docs/server.md: ``thousand serve`` over real sockets — a Uvicorn server on a free loopback
port (in a thread; the command itself in a subprocess), real WebSocket clients
(``websockets``) and HTTP (``httpx``).

The helpers here (:class:`Server`, :class:`Client`, :func:`verify_stream`) are shared with
tests/test_store.py and tests/test_server_fuzz.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from http_client import HTTP
from test_invariants import allowed_cards
from test_table import cards_in, check
from thousand.engine.rules import PRESET_NAMES, Rules
from thousand.engine.table import Table, audience_includes
from thousand.server import create_app
from thousand.server.store.tables import Store

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
Msg = dict[str, Any]


# --------------------------------------------------------------------------- helpers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The application under a real Uvicorn server on a free loopback port, in a thread."""

    def __init__(self, db_url: str, **kwargs: Any) -> None:
        kwargs.setdefault("bot_delay", 0.0)
        self.db_url = db_url
        self.app = create_app(db_url, **kwargs)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = int(self.sock.getsockname()[1])
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on",
                                ws_max_size=65536, ws_ping_interval=None)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while not self.server.started:
            assert self.thread.is_alive(), "the server did not start"
            assert time.monotonic() < deadline, "the server took too long to start"
            time.sleep(0.01)

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def get(self, path: str) -> httpx.Response:
        return HTTP.get(self.base + path, timeout=30)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        if body is not None:
            kwargs["json"] = body
        return HTTP.post(self.base + path, timeout=30, **kwargs)

    def ws_url(self, table: str, token: str | None = None) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{table}" + (f"?token={token}" if token else "")


def new_table(server: Server, preset: str = "classic", *, kinds: list[str] | None = None,
              options: dict[str, Any] | None = None, clock: float | None = None,
              take_all: bool = True) -> tuple[str, dict[int, str]]:
    """Lay a table (people on ``kinds`` "human", bots on "bot" or a level); every human
    seat taken: (table id, seat -> token)."""
    n = Rules.from_json({"preset": preset, **(options or {})}).players
    kinds = kinds or ["human"] * n
    seats = [{"kind": "human", "name": f"Игрок {i}"} if k == "human"
             else {"kind": "bot", "level": "heuristic" if k == "bot" else k}
             for i, k in enumerate(kinds)]
    r = server.post("/api/tables", {"preset": preset, "options": options or {},
                                     "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {body["seat"]: body["token"]} if body["seat"] is not None else {}
    if take_all:
        for i, k in enumerate(kinds):
            if k == "human" and i not in tokens:
                r = server.post(f"/api/tables/{body['table']}/seats/{i}", {"name": f"P{i}"})
                assert r.status_code == 200, r.text
                tokens[i] = r.json()["token"]
    return body["table"], tokens


class Client:
    """A WebSocket client that keeps every message it was sent and the events by version
    (a version sent twice must be sent the same)."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.inbox: list[Msg] = []
        self.events: dict[int, list[Msg]] = {}
        self.version = -1
        self.snap: Msg | None = None

    @classmethod
    async def connect(cls, server: Server, table: str, token: str | None = None,
                      seat: int | None = None, *, sync: bool = True) -> Client:
        """Connect; the snapshot comes first; with ``sync`` every event so far too."""
        ws = await websockets.connect(server.ws_url(table, token), max_size=2**24,
                                      ping_interval=None)
        client = cls(ws, seat)
        first = await client.recv()
        assert first["type"] == "snapshot", first
        assert first["seat"] == seat, (first["seat"], seat)
        if sync:
            await client.send({"type": "sync", "version": -1})
            await client.expect(lambda m: m["type"] == "events")
        return client

    async def close(self) -> None:
        await self.ws.close()

    async def recv(self, timeout: float = 20.0) -> Msg:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        msg: Msg = json.loads(raw)
        self.inbox.append(msg)
        if msg["type"] == "events":
            got: dict[int, list[Msg]] = defaultdict(list)
            for e in msg["events"]:
                got[e["v"]].append(e)
            for v, evs in got.items():
                if v in self.events:
                    assert self.events[v] == evs, f"version {v} was sent twice, differently"
                else:
                    self.events[v] = evs
            self.version = max(self.version, msg["version"])
        elif msg["type"] == "snapshot":
            self.snap = msg
            self.version = max(self.version, msg["version"])
        return msg

    async def send(self, message: Msg | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def expect(self, pred: Callable[[Msg], bool], timeout: float = 20.0) -> Msg:
        while True:
            msg = await self.recv(timeout)
            if pred(msg):
                return msg

    async def snapshot(self) -> Msg:
        await self.send({"type": "snapshot"})
        return await self.expect(lambda m: m["type"] == "snapshot")

    async def quiet(self) -> Msg:
        """Ask for a snapshot; nothing but news of who is here, or what the game's end did
        to the ratings (every finished game tells it, rated or not: issue 28, 7), may
        arrive before it (no events, no error)."""
        await self.send({"type": "snapshot"})
        while True:
            msg = await self.recv()
            if msg["type"] not in ("seats", "clock", "ratings"):
                break
        assert msg["type"] == "snapshot", f"unexpected before the snapshot: {msg}"
        return msg

    async def error(self) -> Msg:
        msg = await self.expect(lambda m: m["type"] in ("error", "events"))
        assert msg["type"] == "error", f"expected a refusal, got {msg}"
        return msg


def state_of(snap: Msg) -> tuple[Any, ...]:
    return snap["version"], json.dumps(snap["view"], sort_keys=True), snap["over"]


async def refused(clients: dict[Any, Client], sender: Client, message: Msg | str | bytes,
                  code: str) -> Msg:
    """``message`` is answered to its sender alone with an error ``code``, and nothing
    changes for anybody (each client's next message is the snapshot it asks for, as
    before)."""
    before = {s: state_of(await c.quiet()) for s, c in clients.items()}
    await sender.send(message)
    err = await sender.error()
    assert err["code"] == code, f"{message!r}: expected {code}, got {err}"
    for s, c in clients.items():
        assert state_of(await c.quiet()) == before[s], f"{message!r} changed the table"
    return err


def verify_stream(store_url: str, table_id: str, clients: dict[Any, Client]) -> Table:
    """The stored move log, replayed on a table of the same seed, gives exactly the events
    each client received, version by version (no move lost, repeated or changed); no event
    or snapshot showed a seat a card it may not see; every event and view fits the
    protocol's schema."""
    store = Store(store_url)
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    shadow = Table(Rules.from_json(row.rules), row.names, row.first_dealer, row.seed)
    seats: list[int | None] = [*range(shadow.game.n), None]
    expected: dict[Any, dict[int, list[Msg]]] = {s: defaultdict(list) for s in seats}
    views: dict[int, list[tuple[Any, Msg]]] = defaultdict(list)
    for s, c in clients.items():
        for m in c.inbox:
            if m["type"] == "snapshot":
                views[m["version"]].append((s, m["view"]))
            elif m["type"] == "hint":
                views[m["version"]].append((s, {"hint": m["move"]}))
            elif m["type"] in ("seats", "clock"):
                assert not cards_in(m), f"a card in {m}"

    def scan(deal: Any, events: list[Msg]) -> None:
        current = deal
        for e in events:
            check("event", e)
            if e["type"] == "deal_started" and shadow.game.deal is not None:
                current = shadow.game.deal
            for s in seats:
                if audience_includes(e["audience"], s):
                    leaked = cards_in(e) & ~allowed_cards(current, s)
                    assert not leaked, f"seat {s} is told a card it may not see: {e}"
                    expected[s][e["v"]].append(e)

    def scan_views() -> None:
        game = shadow.game
        deal = game.deal if game.deal is not None else game.last_finished_deal()
        for s, view in views.pop(shadow.version, []):
            if "hint" not in view:
                check("view", view)
            leaked = cards_in(view) & ~allowed_cards(deal, s)
            assert not leaked, f"seat {s}'s snapshot shows a card it may not see"

    scan(shadow.game.deal, list(shadow.log))
    scan_views()
    for move in row.moves:
        deal = shadow.game.deal
        events = shadow.submit(shadow.to_move, move, shadow.version)  # type: ignore[arg-type]
        scan(deal, events)
        scan_views()
    assert not views, f"snapshots of versions the log never reached: {sorted(views)}"
    for s, c in clients.items():
        want = {v: evs for v, evs in expected[s].items() if v <= c.version}
        assert c.events == want, f"seat {s}: the events received are not the table's"
    return shadow


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("server") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.2) as s:
        yield s


# --------------------------------------------------------------------------- whole games


async def play_out(server: Server, table: str, clients: dict[Any, Client], rng: random.Random,
                   hostile: bool) -> None:
    """Random legal moves by the seat to move until the game is over; now and then a
    wrong message of every kind first (refused, nothing changes), and the move sent twice
    (the second is stale)."""
    spectator = clients[None]
    while True:
        public = await spectator.snapshot()
        if public["over"]:
            break
        seat = public["view"]["to_move"]
        me = clients[seat]
        snap = await me.snapshot()
        assert snap["seat"] == seat and snap["version"] == public["version"]
        legal, version = snap["view"]["legal"], snap["version"]
        assert legal
        if hostile and rng.random() < 0.08:
            other = clients[(seat + 1) % (len(clients) - 1)]
            await refused(clients, other, {"type": "move", "move": legal[0],
                                           "version": version}, "not_your_turn")
            await refused(clients, me, {"type": "move", "move": legal[0],
                                        "version": version + 1}, "stale_version")
            await refused(clients, me, rng.choice([
                "", "{", "[]", '{"type": "move"}', '{"type": "move", "move": 105, "version": 0}',
                json.dumps({"type": "move", "move": "KX", "version": version}),
                json.dumps({"type": "move", "move": legal[0], "version": version, "x": 1}),
                '{"type": "move", "move": "pass", "move": "pass", "version": 0}',
            ]), "malformed")
            await refused(clients, spectator, {"type": "move", "move": legal[0],
                                               "version": version}, "no_such_seat")
            wrong = [m for m in ("pass", "100", "AH", "KH+", "give 9S", "buy", "concede",
                                 "contract 400", "redeal") if m not in legal]
            if snap["view"]["phase"] != "dark choice":
                err = await refused(clients, me, {"type": "move", "move": rng.choice(wrong),
                                                  "version": version}, "illegal_move")
                assert err["params"]["code"] and err["text"]["ru"] and err["text"]["en"]
        message = {"type": "move", "move": rng.choice(legal), "version": version}
        await me.send(message)
        for c in clients.values():
            await c.expect(lambda m, v=version: m["type"] == "events" and m["version"] > v)
        if hostile and rng.random() < 0.08:  # the very same message again
            over = (await spectator.snapshot())["over"]
            await refused(clients, me, message, "game_over" if over else "stale_version")


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_whole_games_over_websockets(server: Server, preset: str) -> None:
    """Every seat and a spectator play a whole game of each preset over WebSockets with
    random legal moves; out-of-turn, stale, duplicate, malformed and illegal messages are
    refused with their code and change nothing for anybody; afterwards the stored move log
    replays to exactly the events each connection received, and no message showed a seat
    a card it may not see."""
    rng = random.Random(f"server/{preset}")
    table, tokens = new_table(server, preset, options={"max_deals": 2, "concede": True}
                              if preset != "classic" else {"max_deals": 2})

    async def main() -> dict[Any, Client]:
        clients: dict[Any, Client] = {
            s: await Client.connect(server, table, tok, seat=s) for s, tok in tokens.items()
        }
        clients[None] = await Client.connect(server, table)
        await play_out(server, table, clients, rng, hostile=True)
        for c in clients.values():
            snap = await c.snapshot()
            assert snap["over"]
            await c.close()
        return clients

    clients = asyncio.run(main())
    shadow = verify_stream(server.db_url, table, clients)
    assert shadow.over
    record = server.get(f"/api/games/{table}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    assert json.loads(record.text)["players"] == shadow.names


def test_refusals_of_every_kind_change_nothing(server: Server) -> None:
    """Out of turn, stale, the same move twice, malformed (not JSON, not an object, unknown
    type or key, a key twice, wrong types, too long, binary junk), illegal, a spectator's
    move, and a move before every seat is taken: each answered to its sender alone with a
    clear error code, the table unchanged for everybody."""
    table, tokens = new_table(server, "house")

    async def main() -> None:
        clients: dict[Any, Client] = {
            s: await Client.connect(server, table, tok, seat=s) for s, tok in tokens.items()
        }
        clients[None] = await Client.connect(server, table)
        snap = await clients[None].snapshot()
        seat = snap["view"]["to_move"]
        me, other = clients[seat], clients[(seat + 1) % 3]
        mine = await me.snapshot()
        legal, v = mine["view"]["legal"], mine["version"]
        await refused(clients, other, {"type": "move", "move": legal[0], "version": v},
                      "not_your_turn")
        await refused(clients, me, {"type": "move", "move": legal[0], "version": v + 3},
                      "stale_version")
        for junk in ["", "null", "[1]", "105", '"move"', "{", '{"type": "dance"}',
                     '{"type": "move", "move": "105"}', '{"type": "move", "version": 0}',
                     '{"type": "move", "move": "105", "version": 0, "extra": true}',
                     '{"type": "move", "move": "105", "move": "110", "version": 0}',
                     '{"type": "move", "move": 105, "version": 0}',
                     '{"type": "move", "move": "105", "version": 1.0}',
                     '{"type": "move", "move": "105", "version": true}',
                     '{"type": "sync", "version": -2}', '{"type": "snapshot", "x": 1}',
                     '{"type": "chat", "text": 5}', '{"type": "chat", "text": ""}',
                     json.dumps({"type": "chat", "text": "x" * 201}),
                     json.dumps({"type": "chat", "text": "a\u0007b"}),
                     json.dumps({"type": "chat", "text": "a\u202eb"}),
                     '{"type": "open", "on": 1}', '{"type": "hint", "x": 1}',
                     json.dumps({"type": "move", "move": "x" * 5000, "version": 0}),
                     b"\xff\xfe\x00", "{" * 5000,
                     json.dumps({"type": "move", "move": "\ud800", "version": v})]:
            await refused(clients, me, junk, "malformed")
        await refused(clients, me, {"type": "move", "move": "contract 400", "version": v},
                      "illegal_move")
        await refused(clients, clients[None], {"type": "move", "move": legal[0],
                                               "version": v}, "no_such_seat")
        await refused(clients, clients[None], {"type": "chat", "text": "hi"}, "spectator")
        message = {"type": "move", "move": legal[0], "version": v}
        await me.send(message)
        for c in clients.values():
            await c.expect(lambda m: m["type"] == "events")
        await refused(clients, me, message, "stale_version")  # the same message twice
        for c in clients.values():
            await c.close()

        # a table still waiting for a person: no move is made before every seat is taken
        table2, tokens2 = new_table(server, "classic", kinds=["human", "human", "bot"],
                                    take_all=False)
        c0 = await Client.connect(server, table2, tokens2[0], seat=0)
        snap = await c0.snapshot()
        assert snap["status"] == "waiting"
        err = await refused({0: c0}, c0, {"type": "move", "move": "pass",
                                          "version": snap["version"]}, "waiting")
        assert err["params"]["free"] == [1]
        await c0.close()

    asyncio.run(main())


def test_reconnect_with_token_gets_the_seat_back_and_a_wrong_token_gets_none(
        server: Server) -> None:
    """A lost connection comes back with its token to the same seat, a snapshot at the
    table's version, and ``sync`` gives exactly the events it missed; a wrong token (or one
    of another table) gets no seat and is closed (4401); a taken seat cannot be taken
    again (409 seat_taken); an unknown table closes with 4404; a page of another site is
    refused."""
    table, tokens = new_table(server, "classic")
    _, other_tokens = new_table(server, "classic")
    rng = random.Random(7)

    async def main() -> None:
        clients: dict[Any, Client] = {
            s: await Client.connect(server, table, tok, seat=s) for s, tok in tokens.items()
        }
        clients[None] = await Client.connect(server, table)
        # a seat not to move leaves; the others play on until it is his turn
        leaver = ((await clients[None].snapshot())["view"]["to_move"] + 2) % 3
        gone = clients.pop(leaver)
        seen = gone.version
        await gone.close()
        for _ in range(30):
            snap = await clients[None].snapshot()
            seat = snap["view"]["to_move"]
            if seat == leaver:
                break
            mine = await clients[seat].snapshot()
            await clients[seat].send({"type": "move", "move": rng.choice(mine["view"]["legal"]),
                                      "version": mine["version"]})
            for c in clients.values():
                await c.expect(lambda m: m["type"] == "events")
        back = await Client.connect(server, table, tokens[leaver], seat=leaver, sync=False)
        snap = back.snap
        assert snap is not None and snap["seat"] == leaver
        table_version = (await clients[None].snapshot())["version"]
        assert snap["version"] == table_version > seen
        assert snap["view"]["hand"] is not None or snap["view"]["phase"] == "dark choice"
        await back.send({"type": "sync", "version": seen})
        missed = await back.expect(lambda m: m["type"] == "events")
        assert {e["v"] for e in missed["events"]} <= set(range(seen + 1, table_version + 1))
        assert all(audience_includes(e["audience"], leaver) for e in missed["events"])
        assert missed["version"] == table_version
        await back.send({"type": "sync", "version": table_version + 5})
        assert (await back.error())["code"] == "stale_version"
        seats = (await back.snapshot())["seats"]
        assert seats[leaver]["online"] and seats[leaver]["taken"]
        await back.close()

        for bad in ("not-a-token", other_tokens[0], tokens[0] + "x"):
            ws = await websockets.connect(server.ws_url(table, bad), ping_interval=None)
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == "bad_token"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        with pytest.raises(websockets.InvalidStatus):  # a page of another site
            await websockets.connect(server.ws_url(table, tokens[0]),
                                     origin="http://evil.example", ping_interval=None)
        ws = await websockets.connect(server.ws_url("no-such-table"), ping_interval=None)
        assert json.loads(await ws.recv())["code"] == "no_such_table"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        for c in clients.values():
            await c.close()

    asyncio.run(main())
    r = server.post(f"/api/tables/{table}/seats/1", {"name": "Вор"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
    r = server.post(f"/api/tables/{table}/seats/7", {"name": "Вор"})
    assert r.status_code == 404


def test_bots_play_and_the_clock_brings_a_stand_in(server: Server) -> None:
    """Bot seats are played by the server; with a move clock, a person who does not move in
    time gets a heuristic bot playing for him (a ``seats`` message says so) until he is
    back (any message); one who has gone gets one once he has been away for longer than
    the clock; the table never stalls."""
    solo, solo_tokens = new_table(server, "classic", kinds=["human", "bot", "random"],
                                  options={"max_deals": 1}, clock=0.3)
    duo, duo_tokens = new_table(server, "classic", kinds=["human", "human", "bot"],
                                clock=0.3)

    async def main() -> None:
        me = await Client.connect(server, solo, solo_tokens[0], seat=0)
        assert me.snap is not None and me.snap["clock"]["seconds"] == 0.3
        # nobody moves for seat 0: after 0.3 s a stand-in plays for him
        seats = await me.expect(lambda m: m["type"] == "seats" and m["seats"][0]["bot_playing"])
        assert seats["seats"][0]["online"]
        assert me.snap["clock"]["seat"] == 0 or any(
            m["type"] == "clock" and m["seat"] == 0 for m in me.inbox)
        await me.expect(lambda m: m["type"] == "events")
        # he is back (any message): the stand-in stops
        await me.send({"type": "sync", "version": me.version})
        await me.expect(lambda m: m["type"] == "seats" and not m["seats"][0]["bot_playing"])
        await me.close()  # and goes: the game still ends

        a = await Client.connect(server, duo, duo_tokens[0], seat=0)
        b = await Client.connect(server, duo, duo_tokens[1], seat=1)
        await b.close()
        await a.expect(lambda m: m["type"] == "seats" and m["seats"][1]["bot_playing"]
                       and not m["seats"][1]["online"])
        await a.close()

    asyncio.run(main())
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = server.get(f"/api/tables/{solo}").json()
        if r["status"] == "over":
            break
        time.sleep(0.1)
    assert r["status"] == "over", "the table stalled"
    games = server.get("/api/games?limit=500").json()["games"]
    assert any(g["id"] == solo and g["status"] == "over" for g in games)


def test_hint_goes_to_the_asking_seat_only(server: Server) -> None:
    """``hint`` answers the seat to move with the best bot's legal move and its reason in
    Russian and English; nobody else hears it; a seat not to move and a spectator are
    refused."""
    table, tokens = new_table(server, "classic")

    async def main() -> None:
        clients: dict[Any, Client] = {
            s: await Client.connect(server, table, tok, seat=s) for s, tok in tokens.items()
        }
        clients[None] = await Client.connect(server, table)
        seat = (await clients[None].snapshot())["view"]["to_move"]
        me = clients[seat]
        snap = await me.snapshot()
        await me.send({"type": "hint"})
        hint = await me.expect(lambda m: m["type"] in ("hint", "error"), timeout=60)
        assert hint["type"] == "hint", hint
        assert hint["move"] in snap["view"]["legal"]
        assert hint["reason"]["ru"] and hint["reason"]["en"]
        # issue 15, 7: the move said as advice, in both languages («Пасуйте», "Pass")
        assert hint["advice"]["ru"][:1].isupper() and hint["advice"]["en"][:1].isupper()
        assert re.search("[а-я]", hint["advice"]["ru"]) and hint["advice"]["ru"] != hint["move"]
        for s, c in clients.items():
            assert all(m["type"] != "hint" for m in c.inbox if s != seat)
            await c.quiet()
        other = clients[(seat + 1) % 3]
        await other.send({"type": "hint"})
        assert (await other.error())["code"] == "not_your_turn"
        await clients[None].send({"type": "hint"})
        assert (await clients[None].error())["code"] == "spectator"
        for c in clients.values():
            await c.close()

    asyncio.run(main())


def test_chat_is_plain_text_stored_and_checked(server: Server) -> None:
    """Chat from a seat reaches everybody (spectators too) as the very text sent (markup
    included: the client escapes), is kept (a new connection's snapshot has it); more than
    200 characters, control characters and spectators' lines are refused; a name longer
    than 32 characters is refused."""
    table, tokens = new_table(server, "classic")
    text = "<b>привет</b> & \"hi\" <script>alert(1)</script>"

    async def main() -> None:
        a = await Client.connect(server, table, tokens[0], seat=0)
        spectator = await Client.connect(server, table)
        await a.send({"type": "chat", "text": text})
        for c in (a, spectator):
            line = await c.expect(lambda m: m["type"] == "chat")
            assert line["text"] == text and line["seat"] == 0 and line["name"] == "Игрок 0"
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line["at"])
        await a.send({"type": "chat", "text": "x" * 201})
        assert (await a.error())["code"] == "malformed"
        await a.send({"type": "chat", "text": "line\nbreak"})
        assert (await a.error())["code"] == "malformed"
        later = await Client.connect(server, table)
        assert later.snap is not None and later.snap["chat"][-1]["text"] == text
        for c in (a, spectator, later):
            await c.close()

    asyncio.run(main())
    r = server.post("/api/tables", {"seats": [{"kind": "human", "name": "x" * 33},
                                              {"kind": "bot"}, {"kind": "bot"}]})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"


def test_open_hands_only_for_one_person_with_bots(server: Server) -> None:
    """Training: at a table of one person and bots, ``open`` shows him every hand (in his
    snapshot and with each move); at a table of several people it is refused."""
    solo, solo_tokens = new_table(server, "classic", kinds=["human", "bot", "bot"])
    duo, duo_tokens = new_table(server, "classic", kinds=["human", "human", "bot"])

    async def main() -> None:
        me = await Client.connect(server, solo, solo_tokens[0], seat=0)
        await me.send({"type": "open", "on": True})
        snap = await me.expect(lambda m: m["type"] == "snapshot")
        assert snap["open"] and len(snap["hands"]) == 3
        assert sum(len(h) for h in snap["hands"]) in (21, 24)
        await me.close()
        two = await Client.connect(server, duo, duo_tokens[0], seat=0)
        await two.send({"type": "open", "on": True})
        # the first deal's events may come first (the table deals when it is full): the
        # answer to ``open`` is the refusal, and no snapshot with the hands follows
        refusal = await two.expect(lambda m: m["type"] in ("error", "snapshot"))
        assert refusal["type"] == "error" and refusal["code"] == "not_allowed", refusal
        await two.close()

    asyncio.run(main())


def test_rest_api(server: Server) -> None:
    """The JSON API of docs/server.md: rules and texts in both languages, creating tables
    (bad input: 400/422 with a code and a message), listing them, one table with its
    header, games, the record only once a game is over (a download), replays, the
    pages."""
    for lang in ("ru", "en"):
        rules = server.get(f"/api/rules?lang={lang}").json()
        assert [p["name"] for p in rules["presets"]] == list(PRESET_NAMES)
        options = [o for g in rules["groups"] for o in g["options"]]
        assert {o["name"] for o in options} == set(Rules().to_json()) - {"preset"}
        assert all(o["title"] and o["explain"] and "kind" in o for o in options)
        texts = server.get(f"/api/texts?lang={lang}").json()
        assert texts["illegal"]["must_follow"] and texts["suit_names"][0]
    assert server.get("/api/rules?lang=de").status_code == 400

    bad = [({"preset": "nope"}, 422, "bad_rules"),
           ({"options": {"bid_step": 7}}, 422, "bad_rules"),
           ({"options": {"no_such_option": 1}}, 422, "bad_rules"),
           ({"seats": [{"kind": "human"}]}, 400, "bad_request"),
           ({"seats": [{"kind": "alien"}] * 3}, 400, "bad_request"),
           ({"seats": [{"kind": "bot", "level": "god"}] * 3}, 400, "bad_request"),
           ({"clock": 0.01}, 400, "bad_request"), ({"clock": True}, 400, "bad_request"),
           ({"open": "yes"}, 400, "bad_request"), ({"what": 1}, 400, "bad_request"),
           ([1, 2], 400, "bad_request")]
    for body, status, code in bad:
        r = server.post("/api/tables", body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]["code"] == code and r.json()["error"]["message"]
    r = server.post("/api/tables", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 400

    r = server.post("/api/tables", {"preset": "textbook", "seats": [
        {"kind": "human", "name": "Аня"}, {"kind": "human"}, {"kind": "bot"},
        {"kind": "bot", "level": "random"}], "clock": 30, "open": True})
    assert r.status_code == 201
    created = r.json()
    assert created["seat"] == 0 and created["url"] == f"/t/{created['table']}"
    listed = server.get("/api/tables").json()["tables"]
    mine = next(t for t in listed if t["table"] == created["table"])
    assert mine["status"] == "waiting" and mine["preset"] == "textbook"
    assert [s["taken"] for s in mine["seats"]] == [True, False, True, True]
    one = server.get(f"/api/tables/{created['table']}").json()
    assert one["header"]["players"][0] == "Аня" and one["header"]["rules"]["players"] == 4
    assert server.get("/api/tables/nothing-here").status_code == 404
    r = server.post("/api/tables", {"open": False})
    hidden = r.json()["table"]
    assert all(t["table"] != hidden for t in server.get("/api/tables").json()["tables"])

    r = server.get(f"/api/games/{created['table']}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_running"
    replay = server.get(f"/api/games/{created['table']}/replay").json()
    assert replay["record"] is None and "hands" not in replay["steps"][0]
    assert replay["steps"][0]["move"] is None and replay["steps"][0]["deal"] == 1
    games = server.get("/api/games?limit=5&offset=0").json()
    assert len(games["games"]) <= 5 and games["total"] >= 1
    assert server.get("/api/games?limit=0").status_code == 400

    for path in ("/", f"/t/{created['table']}", "/history", "/replay",
                 f"/replay/{created['table']}"):
        r = server.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")


def test_replay_endpoints_match_thousand_replay(server: Server, tmp_path: Path) -> None:
    """``GET /api/games/{id}/replay`` of a finished game: a step per move (a deal starts
    with a step without a move), public events, every hand; ``POST /api/replay`` of its
    record gives the same steps, and a broken record the very line ``thousand replay``
    prints (malformed: 400, illegal: 400)."""
    table, _ = new_table(server, "classic", kinds=["bot", "bot", "random"],
                         options={"max_deals": 2})
    deadline = time.monotonic() + 60
    while server.get(f"/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    game = server.get(f"/api/games/{table}/replay").json()
    record = server.get(f"/api/games/{table}/record").text
    steps = game["steps"]
    assert game["over"] and all("hands" in s for s in steps)
    starts = [s for s in steps if s["move"] is None]
    assert len(starts) == len(json.loads(record)["deals"])
    moves = sum(len(d["moves"]) for d in json.loads(record)["deals"])
    assert len(steps) == moves + len(starts)
    assert all(audience_includes(e["audience"], None) for s in steps for e in s["events"])
    uploaded = server.post("/api/replay", content=record.encode()).json()
    assert uploaded["steps"] == steps

    broken = json.loads(record)
    broken["deals"][0]["moves"][0] = "AS"
    (tmp_path / "bad.json").write_text(json.dumps(broken))
    cli = subprocess.run([*CLI, "replay", str(tmp_path / "bad.json")], capture_output=True,
                         text=True)
    r = server.post("/api/replay", content=json.dumps(broken).encode())
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal"
    assert r.json()["error"]["message"] == cli.stderr.strip()
    r = server.post("/api/replay", content=b'{"rules": "classic"}')
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed"
    assert r.json()["error"]["message"].startswith("error: ")


def test_serve_command_prints_the_address(tmp_path: Path) -> None:
    """``thousand serve --port P --no-browser`` prints the address and serves there;
    a port in use is one error line, exit 2."""
    port = free_port()
    env = {**os.environ, "DISPLAY": ""}
    proc = subprocess.Popen([*CLI, "serve", "--db", f"sqlite:///{tmp_path / 'a.db'}",
                             "--port", str(port), "--no-browser"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while True:
            try:
                if HTTP.get(f"http://127.0.0.1:{port}/api/tables").status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.05)
        busy = subprocess.run([*CLI, "serve", "--db", f"sqlite:///{tmp_path / 'b.db'}",
                               "--port", str(port), "--no-browser"], capture_output=True,
                              text=True, timeout=60)
        # the error line's mark is in the command's language: Russian by default
        assert busy.returncode == 2 and busy.stderr.startswith(("error: ", "ошибка: "))
        assert len(busy.stderr.strip().splitlines()) == 1
    finally:
        proc.terminate()
        proc.wait(20)


# --------------------------------------------------------------------------- pages and joins


def _page_lang(r: httpx.Response) -> str:
    m = re.search(r'<html lang="(\w+)">', r.text)
    assert m, r.text[:200]
    return m.group(1)


def test_error_pages_are_pages_in_the_page_language(server: Server) -> None:
    """An unknown address, table or game is an HTML page (404) that says so in the page's
    language — ``?lang=``, else the language cookie, else Accept-Language, else Russian —
    with a link to the lobby; the JSON API keeps JSON errors."""
    cases = [("/foo", "Такой страницы нет", "There is no such page"),
             ("/t/", "Такой страницы нет", "There is no such page"),
             ("/t/no-such-table", "Такого стола нет", "There is no such table"),
             ("/replay/no-such-game", "Такой игры нет", "There is no such game")]
    for path, ru, en in cases:
        for headers, cookies, query, lang in [
                ({}, {}, "", "ru"),
                ({"Accept-Language": "en-US,en;q=0.9"}, {}, "", "en"),
                ({"Accept-Language": "de-DE,ru;q=0.8,en;q=0.5"}, {}, "", "ru"),
                ({"Accept-Language": "en"}, {"thousand_lang": "ru"}, "", "ru"),
                ({}, {"thousand_lang": "en"}, "", "en"),
                ({"Accept-Language": "en"}, {"thousand_lang": "en"}, "?lang=ru", "ru")]:
            r = httpx.get(server.base + path + query, headers=headers, cookies=cookies,
                          timeout=30)
            assert r.status_code == 404, (path, r.text[:200])
            assert r.headers["content-type"].startswith("text/html"), path
            assert _page_lang(r) == lang, (path, headers, cookies, query)
            assert f"<h1>{ru if lang == 'ru' else en}</h1>" in r.text, (path, lang)
            # no script of its own: only the colours' (theme.js, in every page's head)
            assert 'href="/"' in r.text
            assert re.findall(r"<script[^>]*>", r.text) == ['<script src="/static/theme.js">']
            # no live controls: nothing to connect to, nothing to type into
            assert "<form" not in r.text and "<input" not in r.text
    r = server.get("/foo")
    assert "Ошибка" not in r.text and "not found" not in r.text.lower()
    for path in ("/api/nope", "/api/tables/no-such-table", "/api/games/nope/replay"):
        r = server.get(path)
        assert r.status_code == 404 and r.headers["content-type"] == "application/json"
        assert r.json()["error"]["code"] in ("not_found",)


def test_the_lobby_lists_live_tables_only(server: Server) -> None:
    """A table of one person and bots is listed while he is there, not once he left it
    (it is not over, and stays in the store); a table with a free seat is listed."""
    solo, tokens = new_table(server, kinds=["human", "bot", "bot"])
    friends, _ = new_table(server, kinds=["human", "human", "bot"], take_all=False)

    def listed() -> set[str]:
        return {t["table"] for t in server.get("/api/tables").json()["tables"]}

    assert solo not in listed() and friends in listed()
    assert solo in {t["table"] for t in server.get("/api/tables?all=1").json()["tables"]}

    async def visit() -> None:
        client = await Client.connect(server, solo, tokens[0], 0)
        assert solo in await asyncio.to_thread(listed)
        await client.ws.close()
        for _ in range(100):
            if solo not in await asyncio.to_thread(listed):
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the table stays listed after its person left")

    asyncio.run(visit())


def test_the_creator_closes_his_table_for_good(server: Server) -> None:
    """``POST /api/tables/{id}/close`` with the creator's seat token ends a table: those at
    it are disconnected, it leaves the lobby, its page says it is closed (410), the
    history shows it closed, and a restart does not bring it back.  Anybody else's token
    (or none) is refused."""
    table, tokens = new_table(server, kinds=["human", "human", "bot"])
    for body, status, code in [({}, 400, "bad_request"), ({"token": 5}, 400, "bad_request"),
                               ({"token": "x", "what": 1}, 400, "bad_request"),
                               ({"token": "not-a-token"}, 403, "bad_token"),
                               ({"token": tokens[1]}, 403, "not_creator")]:
        r = server.post(f"/api/tables/{table}/close", body)
        assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    assert server.post("/api/tables/nope/close", {"token": tokens[0]}).status_code == 404

    async def close_while_watched() -> list[Msg]:
        client = await Client.connect(server, table, tokens[1], 1)
        r = await asyncio.to_thread(server.post, f"/api/tables/{table}/close",
                                    {"token": tokens[0]})
        assert r.status_code == 200 and r.json() == {"table": table, "status": "closed"}
        got: list[Msg] = []
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                got.append(json.loads(await asyncio.wait_for(client.ws.recv(), 10)))
        return got

    got = asyncio.run(close_while_watched())
    assert {"type": "error", "code": "closed"}.items() <= got[-1].items()
    assert server.post(f"/api/tables/{table}/close", {"token": tokens[0]}).status_code == 404
    assert server.get(f"/api/tables/{table}").status_code == 404
    assert table not in {t["table"] for t in server.get("/api/tables?all=1").json()["tables"]}
    r = server.get(f"/t/{table}")
    assert r.status_code == 410 and "<h1>Этот стол закрыт</h1>" in r.text
    games = server.get("/api/games?limit=500").json()["games"]
    assert next(g for g in games if g["id"] == table)["status"] == "closed"
    store = Store(server.db_url)
    try:
        assert table not in {row.id for row in store.unfinished()}
    finally:
        store.close()


def test_rules_values_and_replays_come_in_words(server: Server) -> None:
    """The new-table form's values in words (``labels``: «игрок слева от сдающего», not
    ``left_of_dealer``) and a replay's names in every case, for the event lines."""
    for lang, words in (("ru", "игрок слева от сдающего"), ("en", "the player left of")):
        rules = server.get(f"/api/rules?lang={lang}").json()
        option = next(o for g in rules["groups"] for o in g["options"]
                      if o["name"] == "first_bidder")
        assert option["values"] == ["left_of_dealer", "dealer"]
        assert option["labels"][0].startswith(words)
        assert all("_" not in label for g in rules["groups"] for o in g["options"]
                   for label in o.get("labels", []))
    r = server.post("/api/tables", {"seats": [{"kind": "bot", "name": "Вова"},
                                              {"kind": "bot", "name": "Аня"},
                                              {"kind": "bot", "name": "Гена"}]})
    replay = server.get(f"/api/games/{r.json()['table']}/replay").json()
    assert replay["name_forms"]["ru"]["Вова"]["dat"] == "Вове"
    assert replay["name_forms"]["en"]["Вова"]["dat"] == "Вова"


# --------------------------------------------------------------------------- two players


def test_a_table_for_two_seats_two_and_a_bot_fills_one(server: Server) -> None:
    """RULES §4 "Two players" 1, 7: ``POST /api/tables`` with the preset ``two`` lays two
    seats (a person and a bot: the game begins, nobody waits for a third); three seats are
    refused, and so is an option that needs a third player."""
    r = server.post("/api/tables", {"preset": "two", "seats": [
        {"kind": "human", "name": "Аня"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201, r.text
    info = server.get(f"/api/tables/{r.json()['table']}").json()
    assert info["preset"] == "two" and info["status"] == "playing"
    assert [(s["seat"], s["kind"]) for s in info["seats"]] == [(0, "human"), (1, "bot")]
    assert info["header"]["players"] == ["Аня", info["seats"][1]["name"]]
    assert info["header"]["rules"]["players"] == 2
    three = server.post("/api/tables", {"preset": "two", "seats": [{"kind": "bot"}] * 3})
    assert three.status_code == 400, three.text
    buy = server.post("/api/tables", {"preset": "two", "options": {"talon_buy": True}})
    assert buy.status_code == 422 and "third player" in buy.json()["error"]["message"]


def test_a_bots_game_for_two_over_the_websocket_replays_from_its_record(
        server: Server) -> None:
    """RULES §4 "Two players" 3, 8: two bots play a one-deal game while a spectator
    watches over the WebSocket: he is told the talon chosen (``talon_choice``) and, when
    the deal ends, the other one (``other_talon``); the stored record lists the four talon
    cards, its first move after the auction is ``talon N``, and it replays with
    thousand.engine.record.replay to the table's scores; the history lists two players."""
    from thousand.engine.record import replay

    r = server.post("/api/tables", {"preset": "two", "options": {"max_deals": 1}, "seats": [
        {"kind": "bot", "name": "Аня"}, {"kind": "bot", "name": "Боря"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]

    async def watch() -> Client:
        client = await Client.connect(server, table)
        await client.expect(lambda m: m["type"] == "events" and any(
            e["type"] == "game_over" for e in m["events"]), timeout=60)
        await client.close()
        return client

    client = asyncio.run(watch())
    events = [e for v in sorted(client.events) for e in client.events[v]]
    kinds = [e["type"] for e in events]
    chose = next(e for e in events if e["type"] == "talon_choice")
    other = next(e for e in events if e["type"] == "other_talon")
    assert chose["talon"] in (1, 2) and other["talon"] == 3 - chose["talon"]
    assert len(other["cards"]) == 2 and kinds.index("other_talon") < kinds.index("deal_scored")
    assert sum(1 for k in kinds if k == "trick") == 10
    record = json.loads(server.get(f"/api/games/{table}/record").text)
    deal = record["deals"][0]
    assert record["players"] == ["Аня", "Боря"] and len(deal["hands"]) == 2
    assert len(deal["talon"]) == 4  # talon 1's two cards, then talon 2's
    half = deal["talon"][:2] if other["talon"] == 1 else deal["talon"][2:]
    assert sorted(half) == sorted(other["cards"])
    after_auction = next(i for i, m in enumerate(deal["moves"]) if m.startswith("talon "))
    assert deal["moves"][after_auction] == f"talon {chose['talon']}"
    assert all(not m.startswith("discard") for m in deal["moves"][:after_auction])
    result = replay(record)
    final = next(e for e in events if e["type"] == "game_over")
    assert list(result.game.scores) == final["scores"]
    games = server.get("/api/games?limit=50").json()["games"]
    assert next(g for g in games if g["id"] == table)["players"] == ["Аня", "Боря"]
    steps = server.get(f"/api/games/{table}/replay").json()["steps"]
    assert steps[-1]["view"]["other_talon"] is not None
    assert any(s["view"]["phase"] == "talon choice" for s in steps)
