"""docs/server.md "Abandoned tables": a table waiting for people with nobody at it ends
by itself, a game nobody touches is adjourned — out of memory, its record and moves kept —
and goes on from the same version when its player comes back with his seat's token.

Against a real ``thousand serve`` (tests/live_server.py) given short times.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from live_server import serve
from waiting import until

Msg = dict[str, Any]
WAIT = 1.0  # --waiting-timeout
ADJOURN = 1.5  # --adjourn-after


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("abandoned"), "--bot-delay", "0",
               "--waiting-timeout", str(WAIT), "--adjourn-after", str(ADJOURN)) as base:
        yield base


def ws_url(base: str, table: str, token: str | None = None) -> str:
    return base.replace("http", "ws", 1) + f"/ws/{table}" + (f"?token={token}" if token
                                                             else "")


async def recv(ws: Any, *types: str, timeout: float = 20.0) -> Msg:
    while True:
        msg: Msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if not types or msg["type"] in types:
            return msg


async def snapshot(ws: Any) -> Msg:
    await ws.send(json.dumps({"type": "snapshot"}))
    return await recv(ws, "snapshot")


def test_a_waiting_table_with_nobody_at_it_ends(server: str) -> None:
    """A table waiting for a second person, its creator gone, is closed after the waiting
    time: its watcher is told ``abandoned``, its page says 410, the history lists it as
    closed; a waiting table whose creator stays at it waits on."""
    seats = [{"kind": "human", "name": "Анна"}, {"kind": "human"}, {"kind": "bot"}]
    with httpx.Client(base_url=server) as http:
        left = http.post("/api/tables", json={"seats": seats}).json()["table"]
        stays = http.post("/api/tables", json={"seats": seats}).json()

        async def watch() -> tuple[Msg, int | None]:
            async with websockets.connect(ws_url(server, stays["table"], stays["token"]),
                                          ping_interval=None) as creator:
                await recv(creator, "snapshot")
                async with websockets.connect(ws_url(server, left),
                                              ping_interval=None) as watcher:
                    await recv(watcher, "snapshot")
                    told = await recv(watcher, "error", timeout=10)
                    try:
                        await recv(watcher, timeout=5)
                        code = None
                    except ConnectionClosed as e:
                        code = e.rcvd.code if e.rcvd is not None else None
                await asyncio.sleep(WAIT)  # longer than the waiting time, creator here
                assert (await snapshot(creator))["status"] == "waiting"
                return told, code

        told, code = asyncio.run(watch())
        assert told["code"] == "abandoned" and code == 1000
        assert http.get(f"/api/tables/{left}").status_code == 404
        assert http.get(f"/t/{left}").status_code == 410
        games = {g["id"]: g for g in http.get("/api/games").json()["games"]}
        assert games[left]["status"] == "closed"
        assert http.get(f"/api/tables/{stays['table']}").json()["status"] == "waiting"


def test_an_untouched_game_is_adjourned_and_goes_on_when_its_player_returns(
        server: str) -> None:
    """A person plays against two bots, then leaves at his turn: after the adjourning time
    the game is ``adjourned`` (history, its table's info) and out of memory (the lobby's
    full list has it no more); a watcher without a token does not bring it back; its
    player's token does, at the same version and view, and his move is taken."""
    seats = [{"kind": "human", "name": "Анна"}, {"kind": "bot"}, {"kind": "bot"}]
    with httpx.Client(base_url=server) as http:
        laid = http.post("/api/tables", json={"seats": seats}).json()
        table, token = laid["table"], laid["token"]

        async def play_a_little() -> Msg:
            async with websockets.connect(ws_url(server, table, token),
                                          ping_interval=None) as ws:
                await recv(ws, "snapshot")
                mine = 0
                while True:
                    snap = await snapshot(ws)
                    if snap["view"]["to_move"] != 0:
                        await recv(ws, "events")
                        continue
                    if mine == 3:
                        return snap
                    await ws.send(json.dumps({"type": "move", "version": snap["version"],
                                              "move": snap["view"]["legal"][-1]}))
                    await recv(ws, "events")
                    mine += 1

        before = asyncio.run(play_a_little())
        until(lambda: http.get(f"/api/tables/{table}").json()["status"] == "adjourned",
              10.0, every=0.1)
        listed = {t["table"] for t in http.get("/api/tables?all=1").json()["tables"]}
        assert table not in listed
        games = {g["id"]: g for g in http.get("/api/games").json()["games"]}
        assert games[table]["status"] == "adjourned"
        assert http.get(f"/t/{table}").status_code == 200  # its page still opens

        async def come_back() -> tuple[int | None, Msg, Msg]:
            try:
                async with websockets.connect(ws_url(server, table),
                                              ping_interval=None) as watcher:
                    await recv(watcher)
                    await recv(watcher, timeout=5)
                refused = None
            except ConnectionClosed as e:
                refused = e.rcvd.code if e.rcvd is not None else None
            assert http.get(f"/api/tables/{table}").json()["status"] == "adjourned"
            async with websockets.connect(ws_url(server, table, token),
                                          ping_interval=None) as ws:
                snap = await recv(ws, "snapshot")
                await ws.send(json.dumps({"type": "move", "version": snap["version"],
                                          "move": snap["view"]["legal"][-1]}))
                moved = await recv(ws, "events", "error")
                return refused, snap, moved

        refused, back, moved = asyncio.run(come_back())
        assert refused == 4404
        assert back["status"] == "playing" and back["version"] == before["version"]
        assert back["view"] == before["view"]
        assert moved["type"] == "events" and moved["version"] > before["version"]
        assert http.get(f"/api/tables/{table}").json()["status"] == "playing"


@pytest.mark.needs("chromium")
def test_the_lobby_shows_an_adjourned_table_among_mine(server: str, browser: Any) -> None:
    """A table of this browser's that was adjourned stays in the lobby's «Мои столы», said
    to be «игра отложена», with the way back to it and no «Закрыть стол»."""
    seats = [{"kind": "human", "name": "Анна"}, {"kind": "bot"}, {"kind": "bot"}]
    with httpx.Client(base_url=server) as http:
        laid = http.post("/api/tables", json={"seats": seats}).json()
        table = laid["table"]
        until(lambda: http.get(f"/api/tables/{table}").json()["status"] == "adjourned",
              10.0, every=0.1)
    page = browser.new_context(locale="ru-RU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/history")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"thousand.seat.{table}",
                   json.dumps({"seat": 0, "token": laid["token"]})])
    page.goto(f"{server}/")
    card = page.locator(f'#mine li[data-table="{table}"]')
    card.wait_for()
    assert "игра отложена" in card.inner_text()
    assert card.locator(f'a[href="/t/{table}"]').count() == 1
    assert card.locator("button.danger").count() == 0
    assert errors == []
    with httpx.Client(base_url=server) as http:  # looking at it did not wake it up
        assert http.get(f"/api/tables/{table}").json()["status"] == "adjourned"
