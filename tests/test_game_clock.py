"""docs/server.md "Time controls": a table with a game clock (a base for the game and an
increment a move) over a real server (Uvicorn, SQLite).  A seat whose time runs out has
the stand-in play that one move; three running mark it away (everybody sees it) until
its person moves again; the clock is in the snapshot (a reload shows it), is stored with
the moves, and comes back after a restart; quick play and tournaments get the default
category when nobody chose one.  Tiny bases (a second), and waits with deadlines."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_server import Client, Server
from thousand.server.live.time_control import AWAY_AFTER, CATEGORIES, DEFAULT_CATEGORY
from waiting import until

Msg = dict[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("game_clock") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.2) as s:
        yield s


def lay(server: Server, control: Any, bots: str = "random") -> tuple[str, str]:
    """A table of one person (seat 0) and two bots with ``control``: (table, token)."""
    seats = [{"kind": "human", "name": "Анна"}, {"kind": "bot", "level": bots},
             {"kind": "bot", "level": bots}]
    r = server.post("/api/tables", {"preset": "classic", "seats": seats,
                                     "time_control": control})
    assert r.status_code == 201, r.text
    return r.json()["table"], r.json()["token"]


def stored(server: Server, table: str) -> dict[str, Any]:
    row = server.hub.store.load(table, with_moves=False)
    assert row is not None and row.game_clock is not None
    return dict(row.game_clock)


async def move_on_my_turn(me: Client, deadline: float = 60.0) -> float:
    """Make a legal move for seat 0 once its clock runs (asking for a snapshot, and
    between snapshots waiting for its clock to start); the seconds it had left before.
    Any message brings him back from away (a stand-in may take over between)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline
    while loop.time() < end:
        snap = await me.snapshot()
        if snap["view"]["to_move"] == 0 and snap["clock"]["seat"] == 0:
            await me.send({"type": "move", "move": snap["view"]["legal"][0],
                           "version": snap["version"]})
            reply = await me.expect(lambda m: m["type"] in ("events", "error"))
            if reply["type"] == "events":
                return float(snap["clock"]["left"])
            continue
        with contextlib.suppress(TimeoutError):
            await me.expect(lambda m: m["type"] == "clock" and m["seat"] == 0, timeout=5)
    raise AssertionError("seat 0 never had a turn to move in")


def test_time_running_out_brings_the_stand_in_for_a_move_and_three_mark_away(
        server: Server) -> None:
    table, token = lay(server, {"base": 1, "increment": 0.5})

    async def main() -> None:
        me = await Client.connect(server, table, token, seat=0)
        clock = me.snap["clock"] if me.snap else None
        assert clock is not None and clock["seconds"] is None
        assert (clock["base"], clock["increment"], clock["category"]) == (1, 0.5, None)
        assert clock["remaining"][1:] == [1, 1] and 0 <= clock["remaining"][0] <= 1
        assert clock["away"] == [False] * 3
        # nobody moves for seat 0: the stand-in plays that move, then stops
        await me.expect(lambda m: m["type"] == "seats" and m["seats"][0]["bot_playing"]
                        and not m["seats"][0]["away"], timeout=60)
        await me.expect(lambda m: m["type"] == "seats"
                        and not m["seats"][0]["bot_playing"], timeout=60)
        # ... and after three running, seat 0 is away: shown to all, the stand-in plays on
        away = await me.expect(lambda m: m["type"] == "seats" and m["seats"][0]["away"],
                               timeout=60)
        assert away["seats"][0]["bot_playing"]
        snap = await me.snapshot()
        assert snap["clock"]["away"][0] and snap["seats"][0]["away"]
        until(lambda: stored(server, table)["missed"][0] >= AWAY_AFTER, 60,
              "the timed-out moves stored")
        listed = server.get(f"/api/tables/{table}").json()
        assert listed["seats"][0]["away"] and listed["time_control"]["base"] == 1
        # he is back and moves on his own: the mark clears, and the stand-in stops (it may
        # first play one more move whose time ran out as he came back: with one second
        # and half a second a move, a loaded run saw it; the first message without the mark
        # then still shows the stand-in playing)
        await move_on_my_turn(me)
        await me.expect(lambda m: m["type"] == "seats" and not m["seats"][0]["away"]
                        and not m["seats"][0]["bot_playing"], timeout=30)
        await me.close()

    asyncio.run(main())


def test_the_clock_is_stored_and_survives_a_reload_and_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with Server(url, min_clock=0.2) as server:
        table, token = lay(server, "fast")

        async def first() -> float:
            me = await Client.connect(server, table, token, seat=0)
            assert me.snap is not None and me.snap["clock"]["category"] == "fast"
            had = await move_on_my_turn(me)
            until(lambda: stored(server, table)["left"][0] != 300, 60,
                  "his time stored with his move")
            left = stored(server, table)["left"][0]
            # what his move took came off, the increment on (``had`` is shown to a tenth:
            # rounded, it may be up to 0.05 s under what he really had)
            assert had - 30 < left - CATEGORIES["fast"].increment <= had + 0.05
            await me.close()
            # a reload: a new connection's snapshot shows the same time (or less, if his
            # turn runs)
            again = await Client.connect(server, table, token, seat=0)
            assert again.snap is not None
            assert left - 30 < again.snap["clock"]["remaining"][0] <= left + 0.05
            await again.close()
            return float(left)

        left = asyncio.run(first())
    with Server(url, min_clock=0.2) as server:
        assert stored(server, table)["left"][0] == left

        async def after() -> None:
            me = await Client.connect(server, table, token, seat=0)
            assert me.snap is not None
            assert left - 30 < me.snap["clock"]["remaining"][0] <= left + 0.05
            await me.close()

        asyncio.run(after())


def test_quick_play_and_tournaments_get_the_default_category(server: Server) -> None:
    client = httpx.Client(base_url=server.base, timeout=30)
    assert client.get("/api/me").status_code == 200
    client.headers["X-CSRF-Token"] = client.cookies["thousand_csrf"]
    assert client.post("/api/me/name", json={"name": "Вера"}).status_code == 200
    got = client.post("/api/quickplay", json={"preset": "classic"}).json()
    info = server.get(f"/api/tables/{got['table']}").json()
    assert info["clock"] is None and info["time_control"]["category"] == DEFAULT_CATEGORY
    chosen = client.post("/api/quickplay", json={"preset": "classic",
                                                 "time_control": "unhurried"}).json()
    assert chosen["table"] != got["table"]  # another control, another table
    info = server.get(f"/api/tables/{chosen['table']}").json()
    assert info["time_control"]["category"] == "unhurried"
    made = client.post("/api/tournaments", json={"name": "Кубок", "rounds": 1,
                                                 "bots": ["random", "random"]}).json()
    assert made["clock"] is None and made["time_control"]["category"] == DEFAULT_CATEGORY
    bad = client.post("/api/tables", json={"time_control": "slow"})
    assert bad.status_code == 400
