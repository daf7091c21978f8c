"""Make ``tests/data/v0001.db``: a database as the release before the site's work (commit
98494e5, schema revision 0001) made it, for tests/test_upgrade.py.

Run once by hand, with the OLD release's code on the path (not this checkout's)::

    git worktree add --detach /tmp/old98 98494e5
    PYTHONPATH=/tmp/old98/src .venv/bin/python tests/data/make_v0001_db.py
    git worktree remove /tmp/old98

It starts that release's own ``thousand serve`` on a fresh SQLite file and plays through
its JSON API and WebSocket, as its browser page did: three finished games (a person at
seat 0 playing a random legal move, two bots; one of them unlisted, one with short-game
options) and one unfinished game left after a few moves.  What the server said of each
game (its version, the token of seat 0, the record it gave for download) is written to
``v0001.json`` beside it, so the test checks the upgraded database against what the old
server said, not against itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HERE = Path(__file__).parent
DB = HERE / "v0001.db"
EXPECTED = HERE / "v0001.json"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def play(base: str, body: dict[str, Any], rng: random.Random,
               stop_after: int | None) -> dict[str, Any]:
    """Lay one table and play seat 0 until the game is over (or ``stop_after`` own
    moves); what the server's last snapshot said."""
    async with httpx.AsyncClient(base_url=f"http://{base}", timeout=60) as http:
        r = await http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        made = r.json()
    table, token = made["table"], made["token"]
    moved = 0
    async with connect(f"ws://{base}/ws/{table}?token={token}", max_size=2**23) as ws:
        snap: dict[str, Any] = {}
        while True:
            msg = json.loads(await ws.recv())
            if msg["type"] != "snapshot":
                await ws.send('{"type": "snapshot"}')
                continue
            snap = msg
            view = snap["view"]
            if snap["over"] or (stop_after is not None and moved >= stop_after
                                and view.get("to_move") == 0):
                break
            if view.get("to_move") == 0 and view["legal"]:
                move = rng.choice(view["legal"])
                await ws.send(json.dumps({"type": "move", "move": move,
                                          "version": snap["version"]}))
                moved += 1
    return {"table": table, "token": token, "version": snap["version"], "over": snap["over"],
            "listed": body.get("open", True)}


async def main_async(base: str) -> list[dict[str, Any]]:
    rng = random.Random(98494)
    seats = [{"kind": "human", "name": "Аня"}, {"kind": "bot", "level": "heuristic"},
             {"kind": "bot", "level": "random", "name": "Боря"}]
    out = []
    games: list[tuple[dict[str, Any], int | None]] = [
        ({"preset": "classic", "seats": seats}, None),
        ({"preset": "classic", "seats": seats, "open": False}, None),
        ({"preset": "classic", "seats": seats,
          "options": {"win_score": 300, "barrel": None}}, None),
        ({"preset": "classic", "seats": seats}, 6)]
    for body, stop in games:
        out.append(await play(base, body, rng, stop))
        time.sleep(0.05)
    return out


def main() -> None:
    if DB.exists():
        DB.unlink()
    port = free_port()
    env = {**os.environ, "THOUSAND_LANG": "ru"}
    server = subprocess.Popen(
        [sys.executable, "-c", "from thousand.cli import main; main()", "serve", "--db", f"sqlite:///{DB}",
         "--port", str(port), "--no-browser", "--bot-delay", "0"], env=env)
    try:
        for _ in range(200):
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/tables").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        games = asyncio.run(main_async(f"127.0.0.1:{port}"))
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            for g in games:
                if g["over"]:
                    g["record"] = http.get(f"/api/games/{g['table']}/record").json()
    finally:
        server.terminate()
        server.wait(30)
    EXPECTED.write_text(json.dumps(games, ensure_ascii=False, indent=1) + "\n")
    subprocess.run(["sqlite3", str(DB), "VACUUM"], check=False)
    print(json.dumps(games, ensure_ascii=False))


if __name__ == "__main__":
    main()
