"""Who is here, at scale: many lobby sockets on one worker, players coming and going.

Run by hand (about a minute):

    .venv/bin/python benchmarks/presence.py [--players 1000] [--seconds 30] [--churn 10]
        [--out benchmarks/results/presence.txt]

This starts a real ``thousand serve --no-limits`` (SQLite in a temporary folder) in a
subprocess, makes ``--players`` named guests through the API (``GET /api/me``, ``POST
/api/me/name``) and opens a lobby socket for each (``/ws/lobby``, docs/protocol.md "The
lobby socket") from this one process.  Once every socket sees everybody, for ``--seconds``
seconds ``--churn`` players a second leave (their socket closed) and come back (a new
socket) — presence changes; each change's delivery latency is the time from the close (or
the open) until a lobby socket is told of it (the player in ``gone``, or back in
``players``), for every other socket: p50, p99 and the largest; and apart, the time
until the server made the message about it (its ``at``), so that what the server takes
is told from what the sockets and this process take.  The server's CPU over the
window (``/proc/PID/stat``, every thread: nothing but presence runs there) is given in % of
one core.  The server is pinned to CPU 0 and this process to CPU 1 (benchmarks/server.py's
``pin``), so the server has a core of its own — on a machine shared with other work, the
figures are worse than the server's own.

Targets (issue 31): 1,000 players online on one worker — a presence change reaches every
lobby within 1 s at p99, and the server's CPU for presence stays under 10 % of a core.  A
line is printed and appended to ``--out``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import cpu_seconds, free_port, latency_ms, pin  # benchmarks/server.py, beside

OUT = Path(__file__).resolve().parent / "results" / "presence.txt"


class Player:
    """One named guest and his lobby socket, and what his socket heard."""

    def __init__(self, base: str, index: int) -> None:
        self.base = base
        self.name = f"Игрок номер {index}"
        self.id = ""
        self.cookie = ""
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.seen: set[str] = set()

    async def make(self, http: httpx.AsyncClient) -> None:
        r = await http.get("/api/me")
        r.raise_for_status()
        self.id = r.json()["player"]["id"]
        csrf = http.cookies["thousand_csrf"]
        (await http.post("/api/me/name", json={"name": self.name},
                         headers={"X-CSRF-Token": csrf})).raise_for_status()
        self.cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())

    async def open(self, bench: Bench) -> None:
        self.ws = await connect(self.base.replace("http", "ws") + "/ws/lobby",
                                additional_headers={"Cookie": self.cookie,
                                                    "Origin": self.base},
                                max_size=None, compression=None)
        self.reader = asyncio.create_task(self.read(bench))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await self.reader
        self.ws, self.reader = None, None

    async def read(self, bench: Bench) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                now = time.monotonic()
                m: dict[str, Any] = json.loads(raw)
                if m.get("type") != "presence":
                    continue
                if m["full"]:  # a socket's first message: no change it is told of
                    self.seen = {p["id"] for p in m["players"]}
                    continue
                for p in m["players"]:
                    self.seen.add(p["id"])
                    bench.heard(self, p["id"], "in", now, m["at"])
                for gone in m.get("gone", ()):
                    self.seen.discard(gone)
                    bench.heard(self, gone, "out", now, m["at"])
        except Exception:  # closed
            return


class Bench:
    """The changes under way (player id and direction -> when), and their latencies."""

    def __init__(self) -> None:
        self.pending: dict[tuple[str, str], tuple[float, float]] = {}
        self.latencies: list[float] = []
        #: from the change to the server's message about it (its ``at``), once a message
        self.made: dict[tuple[str, str, float], float] = {}
        self.measuring = False

    def start(self, player: str, way: str) -> None:
        self.pending[(player, way)] = (time.monotonic(), time.time())
        self.pending.pop((player, "in" if way == "out" else "out"), None)

    def heard(self, listener: Player, player: str, way: str, now: float, at: float) -> None:
        start = self.pending.get((player, way))
        if start is not None and self.measuring and listener.id != player:
            self.latencies.append(now - start[0])
            self.made[(player, way, start[0])] = at - start[1]


async def run(args: argparse.Namespace) -> str:
    folder = Path(tempfile.mkdtemp(prefix="thousand-presence-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-c", "from thousand.cli import main; main()", "serve", "--db",
         f"sqlite:///{folder / 'bench.db'}", "--port", str(port), "--no-browser",
         "--no-limits"], stdout=subprocess.DEVNULL, stderr=(folder / "serve.log").open("w"))
    try:
        for _ in range(600):
            try:
                if httpx.get(base + "/api/rules", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
        pinned = pin(proc.pid, 0) and pin(0, 1)
        players = [Player(base, i) for i in range(args.players)]
        started = time.monotonic()
        gate = asyncio.Semaphore(16)

        async def make(p: Player) -> None:
            async with gate, httpx.AsyncClient(base_url=base, timeout=60) as http:
                await p.make(http)

        await asyncio.gather(*(make(p) for p in players))
        bench = Bench()
        for i in range(0, len(players), 50):
            await asyncio.gather(*(p.open(bench) for p in players[i:i + 50]))
        everyone = {p.id for p in players}
        while any(p.seen != everyone for p in players):
            await asyncio.sleep(0.2)
        ready = time.monotonic() - started
        bench.measuring = True
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        rng = random.Random(31)
        while time.monotonic() - t0 < args.seconds:
            tick = time.monotonic()
            movers = rng.sample(players, args.churn)
            for p in movers:
                bench.start(p.id, "out")
            await asyncio.gather(*(p.close() for p in movers))
            await asyncio.sleep(0.4)
            for p in movers:
                bench.start(p.id, "in")
            await asyncio.gather(*(p.open(bench) for p in movers))
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
        await asyncio.sleep(1.0)  # the last changes arrive
        window = time.monotonic() - t0
        cpu = (cpu_seconds(proc.pid) - cpu0) / window * 100
        bench.measuring = False
        n, p50, p99, worst = latency_ms(bench.latencies)
        _, made50, made99, _ = latency_ms(list(bench.made.values()))
        line = (f"{time.strftime('%Y-%m-%d')} | {args.players} lobby sockets, {args.churn} "
                f"leave and come back a second, {window:.0f} s | deliveries {n} | latency "
                f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {worst:.0f} ms (the server's message "
                f"made: p50 {made50:.0f} ms, p99 {made99:.0f} ms) | server CPU "
                f"{cpu:.1f}% of a core | all seen in {ready:.0f} s"
                f"{'' if pinned else ' | not pinned (one CPU)'}")
        for p in players:
            await p.close()
        return line
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--churn", type=int, default=10)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    line = asyncio.run(run(args))
    print(line)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("a") as f:
        f.write(line + "\n")


if __name__ == "__main__":
    main()
