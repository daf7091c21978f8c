"""A person's move on a server busy with search bots: bot processes against threads.

Run by hand (about 45 seconds a line):

    .venv/bin/python benchmarks/bots_load.py [--modes none,1,0] [--bot-tables 20]
        [--level expert] [--people 5] [--think 0.3] [--seconds 40]
        [--out benchmarks/results/bots_load.txt]

Each mode starts a real ``thousand serve`` (benchmarks/server.py's ``ServerProcess``: a
fresh SQLite database, the server pinned to CPU 0 — and with it every process it starts,
the bot processes too — and this process to CPU 1) with ``--bot-delay 0``, so that every
bot table always has a bot thinking, and:

* ``--bot-tables`` tables of three ``--level`` bots (``expert``: sampling over the C
  double-dummy solver, up to 1.2 s a decision), playing all the time;
* ``--people`` tables of three people, each seat a WebSocket client driven like the
  browser's page (benchmarks/server.py's ``Player``), a random legal move ``--think``
  seconds (on average) after its turn comes.

Modes: ``1`` (or any K) is ``--bot-processes K`` (the default: bots think in K niced
processes of their own), ``0`` is ``--bot-processes 0 --bots-threads 2`` (two threads of the
server's process, as the server thought before), ``none`` lays no bot table (the floor).

A line: a person's move latency (sent until every connection of its table has its
events: p50, p99, max) over the run less its first 10%; the people's moves and the bots'
moves per second (the bots' from the versions of their tables); the CPU of the server's
own process and of its bot processes, in % of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import platform
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import (  # benchmarks/server.py, beside this file
    WARMUP_SHARE,
    BenchTable,
    Player,
    ServerProcess,
    Stats,
    cpu_seconds,
    latency_ms,
    pin,
)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "bots_load.txt"
CLIENT_CPU = 1


def children(pid: int) -> list[int]:
    """The living processes under ``pid`` (its bot processes and their helper)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    out.append(int(entry))
    return out


def cpu_of(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += cpu_seconds(pid)
    return total


@dataclass
class Result:
    mode: str
    bot_tables: int
    people: int
    seconds: float = 0.0
    moves: int = 0
    p50: float = 0.0
    p99: float = 0.0
    worst: float = 0.0
    bot_moves: int = 0
    server_cpu: float = 0.0
    bots_cpu: float = 0.0
    load: float = 0.0


async def lay_people(http: httpx.AsyncClient, n: int) -> list[tuple[str, dict[int, str]]]:
    """N listed tables of three people, every seat taken: [(table, seat -> token)]."""
    out = []
    for _ in range(n):
        r = await http.post("/api/tables", json={
            "seats": [{"kind": "human", "name": f"P{i}"} for i in range(3)]})
        assert r.status_code == 201, r.text
        body = r.json()
        tokens = {body["seat"]: body["token"]}
        for s in (1, 2):
            r = await http.post(f"/api/tables/{body['table']}/seats/{s}", json={"name": f"P{s}"})
            assert r.status_code == 200, r.text
            tokens[s] = r.json()["token"]
        out.append((body["table"], tokens))
    return out


async def bot_versions(base: str, tables: list[str]) -> int:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        total = 0
        for t in tables:
            total += (await http.get(f"/api/tables/{t}")).json()["version"]
        return total


async def run_one(mode: str, args: argparse.Namespace, workdir: Path) -> Result:
    server = ServerProcess(f"sqlite:///{workdir / 'bench.db'}", workdir)
    extra = ["--bot-delay", "0", "--no-limits", "--lang", "en"]
    if mode == "0":
        extra += ["--bot-processes", "0", "--bots-threads", "2"]
    elif mode != "none":
        extra += ["--bot-processes", mode]
    server.cmd += extra
    await server.start()
    bot_tables = 0 if mode == "none" else args.bot_tables
    res = Result(mode, bot_tables, args.people, load=os.getloadavg()[0])
    players: list[Player] = []
    try:
        bots: list[str] = []
        async with httpx.AsyncClient(base_url=server.base, timeout=60) as http:
            for _ in range(bot_tables):
                r = await http.post("/api/tables", json={
                    "seats": [{"kind": "bot", "level": args.level}] * 3, "open": False})
                assert r.status_code == 201, r.text
                bots.append(r.json()["table"])
            laid = await lay_people(http, args.people)
        stats = Stats()
        rng = random.Random(7)
        tables = []
        for table_id, tokens in laid:
            table = BenchTable(table_id, tokens, stats)
            for seat in (0, 1, 2):
                table.conns.append(Player(table, seat, args.think, random.Random(rng.random())))
            tables.append(table)
        players = [p for t in tables for p in t.conns]
        for p in players:
            await p.connect(f"127.0.0.1:{server.port}", True)
            p.task = asyncio.create_task(p.run())
        await asyncio.sleep(3)  # the bot processes start, the bots are busy
        starters = [asyncio.create_task(p.go()) for p in players]
        begin = time.perf_counter()
        warm = args.seconds * WARMUP_SHARE
        stats.window = (begin + warm, begin + args.seconds)
        stats.running = True
        stats.started.set()
        await asyncio.sleep(warm)
        kids = children(server.pid)
        cpu0, bots_cpu0 = cpu_seconds(server.pid), cpu_of(kids)
        versions0 = await bot_versions(server.base, bots)
        await asyncio.sleep(args.seconds - warm)
        cpu1, bots_cpu1 = cpu_seconds(server.pid), cpu_of(kids)
        versions1 = await bot_versions(server.base, bots)
        stats.running = False
        measured = args.seconds - warm
        for _ in range(100):
            if stats.in_flight == 0:
                break
            await asyncio.sleep(0.05)
        for task in starters:
            task.cancel()
        res.seconds = measured
        res.moves, res.p50, res.p99, res.worst = latency_ms(stats.latencies)
        res.bot_moves = versions1 - versions0
        # the process's CPU (cpu_seconds) counts its threads, not its children
        res.server_cpu = 100 * (cpu1 - cpu0) / measured
        res.bots_cpu = 100 * (bots_cpu1 - bots_cpu0) / measured
    finally:
        for p in players:
            if p.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(p.ws.close(), 5)
            if p.task is not None:
                p.task.cancel()
        await server.stop()
    return res


HEADER = (f"{'mode':22} {'bot tbl':>7} {'people':>6} {'moves/s':>7} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'max ms':>7} {'bot mv/s':>8} {'srv CPU':>7} {'bots CPU':>8} "
          f"{'load':>4}")


def line(r: Result) -> str:
    name = {"none": "no bots", "0": "threads (K=0, 2 thr)"}.get(r.mode, f"pool (K={r.mode})")
    per = r.seconds or 1.0
    return (f"{name:22} {r.bot_tables:7d} {r.people:6d} {r.moves / per:7.1f} {r.p50:7.1f} "
            f"{r.p99:7.1f} {r.worst:7.1f} {r.bot_moves / per:8.1f} {r.server_cpu:6.0f}% "
            f"{r.bots_cpu:7.0f}% {r.load:4.1f}")


async def main_async(args: argparse.Namespace) -> list[str]:
    out = [HEADER]
    print(HEADER, flush=True)
    for mode in args.modes:
        with tempfile.TemporaryDirectory(prefix="thousand-bots-") as tmp:
            r = await run_one(mode, args, Path(tmp))
        out.append(line(r))
        print(out[-1], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--modes", default="none,1,0", type=lambda s: s.split(","),
                    help="none, 0 (threads) or K (processes), one run each")
    ap.add_argument("--bot-tables", type=int, default=20)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--people", type=int, default=5, help="tables of three people")
    ap.add_argument("--think", type=float, default=0.3, help="a person's seconds a move")
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--label", default="")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    for mode in args.modes:
        if mode != "none" and not mode.isdigit():
            ap.error(f"--modes: none, 0 or a number of processes, not {mode!r}")
    pinned = pin(0, CLIENT_CPU)
    lines = asyncio.run(main_async(args))
    if args.out is not None:
        title = (f"benchmarks/bots_load.py --bot-tables {args.bot_tables} --level "
                 f"{args.level} --people {args.people} --think {args.think} --seconds "
                 f"{args.seconds:g}  ({dt.datetime.now():%Y-%m-%d %H:%M}, python "
                 f"{platform.python_version()}, {os.cpu_count()} CPUs, server and its bot "
                 f"processes pinned to CPU 0, clients to CPU 1: {pinned}; the first 10% "
                 f"not counted)" + (f"  [{args.label}]" if args.label else ""))
        with args.out.open("a") as f:
            f.write("\n".join([title, *lines]) + "\n\n")


if __name__ == "__main__":
    main()
