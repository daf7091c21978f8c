"""Issue 27, "Safe in public": a person who leaves a rated game after the deal has lost it
(docs/server.md "Quick play"), and that outlives the server: the store keeps it with his
seat, so that a restart (or, with many workers, another worker taking the table over
from the store) neither lets him take his seat back nor forgets to count the loss.

Against the application under a real Uvicorn over SQLite, in this process
(test_server.Server: what a restart checks is the store, not the process), stopped — its
live tables saved as at a SIGTERM — and made anew on the same database.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed

from test_public_limits import guest, play_out, post
from test_server import Server
from waiting import until

Msg = dict[str, Any]


async def refusal(base: str, table: str, token: str) -> tuple[str, int | None]:
    """What the table's socket answers a seat's token: the error's code and the code the
    socket is closed with (``ok`` when it is given a snapshot instead)."""
    url = base.replace("http", "ws", 1) + f"/ws/{table}?token={token}"
    async with websockets.connect(url, ping_interval=None) as ws:
        msg: Msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if msg["type"] != "error":
            return "ok", None
        try:
            await asyncio.wait_for(ws.recv(), 30)
        except ConnectionClosed as e:
            return msg["code"], e.rcvd.code if e.rcvd is not None else None
        return msg["code"], None


def test_a_rated_game_s_leaver_stays_gone_and_lost_after_a_restart(tmp_path: Path) -> None:
    """Two guests and a bot at a rated table; after the deal the first leaves (a bot plays
    his seat). The game cannot end meanwhile: the second, who has no clock, never moved.
    The server stops and starts again on the same database: the leaver's token holds no
    seat, his seat cannot be taken again and a bot still plays it; the second plays the
    game out, and the rating places the leaver below him, as a loss."""
    db = f"sqlite:///{tmp_path / 'thousand.db'}"
    with Server(db, bot_processes=0) as server:
        base = server.base
        leaver, stayer = guest(base, 30, "Беглец"), guest(base, 31, "Стойкий")
        laid = post(leaver, "/api/tables", {"preset": "classic", "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
        assert laid.status_code == 201, laid.text
        table, gone = laid.json()["table"], laid.json()["token"]
        took = post(stayer, f"/api/tables/{table}/seats/1", {"name": "Стойкий"})
        assert took.status_code == 200, took.text
        stays = took.json()["token"]
        info = leaver.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing"
        left = post(leaver, f"/api/tables/{table}/leave", {"token": gone})
        assert left.status_code == 200, left.text
        assert leaver.get(f"/api/tables/{table}").json()["seats"][0]["bot_playing"]
        assert asyncio.run(refusal(base, table, gone)) == ("bad_token", 4401)

    with Server(db, bot_processes=0) as server:
        base = server.base
        again = guest(base, 32, "Беглец")
        info = again.get(f"/api/tables/{table}").json()
        assert info["status"] == "playing" and info["ratings"] is None
        assert info["seats"][0]["bot_playing"] and info["seats"][0]["guest"]
        assert asyncio.run(refusal(base, table, gone)) == ("bad_token", 4401)
        retake = post(again, f"/api/tables/{table}/seats/0", {"name": "Беглец"})
        assert retake.status_code == 409, retake.text
        end = asyncio.run(play_out(base, table, stays, 31))
        assert end["over"]  # on points the leaver's stand-in may even win: rated a loss
        rated = until(lambda: again.get(f"/api/tables/{table}").json()["ratings"],
                      60, "the game was rated", every=0.2)
    change = {c["seat"]: c["delta"] for c in rated}
    assert change[0] < 0 and change[0] < change[1], rated  # last: below the one who stayed
