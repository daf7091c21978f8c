"""docs/server.md "Rematch": at a finished table every person asks «Ещё партию» over the
WebSocket; bots agree at once; everybody is told who asked; when the last person asks, a
new table is laid with the same seats, names, bots and rules, the first dealer moved on,
and each person is sent his own seat at it.  A real server (Uvicorn, SQLite), real
WebSockets; the game is played out fast by the stand-ins of two absent people (a short
move clock), then both come back to ask."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from test_server import Client, Server
from thousand.server.store import Store


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("rematch") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def finished_table(server: Server) -> tuple[str, dict[int, str]]:
    """A table of two people and a bot, one deal long, played out by the stand-ins."""
    seats = [{"kind": "human", "name": "Аня"}, {"kind": "human", "name": "Боря"},
             {"kind": "bot", "level": "beginner", "name": "Бот 3"}]
    r = server.post("/api/tables", {"preset": "classic", "options": {"max_deals": 1},
                                     "seats": seats, "clock": 0.05})
    assert r.status_code == 201, r.text
    table, tokens = r.json()["table"], {0: r.json()["token"]}
    r = server.post(f"/api/tables/{table}/seats/1", {"name": "Боря"})
    assert r.status_code == 200, r.text
    tokens[1] = r.json()["token"]
    deadline = time.monotonic() + 60
    while server.get(f"/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the game did not end"
        time.sleep(0.1)
    return table, tokens


def test_a_rematch_when_all_agree_lays_the_same_table_with_the_dealer_moved_on(
        server: Server) -> None:
    table, tokens = finished_table(server)

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        anna = await Client.connect(server, table, tokens[0], seat=0, sync=False)
        boris = await Client.connect(server, table, tokens[1], seat=1, sync=False)
        watcher = await Client.connect(server, table, sync=False)
        assert anna.snap is not None and anna.snap["rematch"] == {
            "asked": [], "waiting": [0, 1], "table": None}
        await watcher.send({"type": "rematch"})
        assert (await watcher.error())["code"] == "spectator"
        await anna.send({"type": "rematch"})
        for c in (anna, boris, watcher):
            told = await c.expect(lambda m: m["type"] == "rematch_asked")
            assert told == {"type": "rematch_asked", "asked": [0], "waiting": [1],
                            "table": None}
        await boris.send({"type": "rematch"})
        mine = await anna.expect(lambda m: m["type"] == "rematch")
        his = await boris.expect(lambda m: m["type"] == "rematch")
        laid = await watcher.expect(lambda m: m["type"] == "rematch_asked")
        assert laid["table"] == mine["table"] == his["table"] and laid["waiting"] == []
        assert (mine["seat"], his["seat"]) == (0, 1) and mine["token"] != his["token"]
        assert mine["url"] == f"/t/{mine['table']}"
        assert not any(m["type"] == "rematch" for m in watcher.inbox)
        await anna.send({"type": "rematch"})  # asked again (a page come back): his seat
        again = await anna.expect(lambda m: m["type"] == "rematch")
        assert again == mine
        new_anna = await Client.connect(server, mine["table"], mine["token"], seat=0,
                                        sync=False)
        new_boris = await Client.connect(server, his["table"], his["token"], seat=1,
                                         sync=False)
        for c in (anna, boris, watcher, new_anna, new_boris):
            await c.close()
        return mine, his

    mine, _ = asyncio.run(main())
    store = Store(server.db_url)
    try:
        old, new = store.load(table), store.load(mine["table"])
    finally:
        store.close()
    assert old is not None and new is not None
    assert new.names == old.names == ["Аня", "Боря", "Бот 3"]
    assert [(s.kind, s.level) for s in new.seats] == [(s.kind, s.level) for s in old.seats]
    assert new.rules == old.rules and new.clock == old.clock and new.listed == old.listed
    assert new.first_dealer == (old.first_dealer + 1) % 3
    assert new.status == "playing"


def test_a_rematch_is_asked_for_only_once_the_game_is_over(server: Server) -> None:
    r = httpx.post(server.base + "/api/tables", json={"preset": "classic"}, timeout=30)
    table, token = r.json()["table"], r.json()["token"]

    async def main() -> str:
        me = await Client.connect(server, table, token, seat=0, sync=False)
        await me.send({"type": "rematch"})
        code = str((await me.error())["code"])
        await me.close()
        return code

    assert asyncio.run(main()) == "game_running"
