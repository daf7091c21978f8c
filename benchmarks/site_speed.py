"""The site's speed at scale (issue 16, "Speed and scale"): with 100,000 finished games and
10,000 players stored (benchmarks/site_data.py), a real ``thousand serve`` must answer a
player's page, the leaderboard, the lobby and the history with p99 < 50 ms, seat a quick
player at a waiting table in < 1 s, and the store must rate a game in < 5 ms.

    python benchmarks/site_speed.py [--players 10000] [--games 100000] [--n 300]
        [--pg URL | --pg ''] [--out benchmarks/results/site_speed.txt]

For SQLite (a file in a temporary folder) and PostgreSQL (a schema of its own on
``--pg``, dropped after) it fills the database, starts ``thousand serve --no-limits`` on
it, and times ``--n`` requests of each kind from one client over a kept-alive connection
(sequential: the latency of one request, not the throughput); the rating update is timed
on the store directly (``site_store.rate_table``, a game of two rated players and a bot).
It also downloads the record of a stored game and checks it replays to its stored scores.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from site_data import fill
from site_ratings import new_game
from sqlalchemy.engine import make_url

from thousand.engine.record import replay
from thousand.server.store import ratings as site_store
from thousand.server.store.tables import Store

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def timed(call: Callable[[], object], n: int) -> tuple[float, float]:
    """(median, p99) of ``n`` calls, in milliseconds, after five not counted."""
    for _ in range(5):
        call()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def ok(http: httpx.Client, path: str) -> Callable[[], object]:
    def call() -> object:
        r = http.get(path)
        assert r.status_code == 200, (path, r.status_code, r.text[:200])
        return r
    return call


def measure(url: str, n: int, folder: Path, players: int) -> list[tuple[str, float, float]]:
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        with_moves, scores_text = conn.execute(sa.text(
            "select id, scores from tables where listed and id in "
            "(select table_id from moves where idx = 0) limit 1")).one()
    engine.dispose()
    scores = json.loads(scores_text)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from thousand.cli import main; main()", "serve", "--db", url,
         "--port", str(port), "--no-browser", "--no-limits"],
        stdout=(folder / "serve.log").open("w"), stderr=subprocess.STDOUT)
    out: list[tuple[str, float, float]] = []
    rng = random.Random(5)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(600):
            try:
                if httpx.get(base + "/api/tables").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        with httpx.Client(base_url=base, timeout=30) as http:
            # a stored game's record replays to the scores the history shows
            r = http.get(f"/api/games/{with_moves}/record")
            assert r.status_code == 200, r.text
            assert list(replay(r.text).game.scores) == scores, (with_moves, scores)

            def name() -> str:
                return f"Игрок{rng.randrange(players)}"

            out.append(("lobby GET /api/tables", *timed(ok(http, "/api/tables"), n)))
            out.append(("lobby page GET /", *timed(ok(http, "/"), n)))
            out.append(("GET /api/leaderboard", *timed(
                lambda: ok(http, f"/api/leaderboard?offset={rng.randrange(500)}")(), n)))
            out.append(("player page GET /api/players/{name}", *timed(
                lambda: ok(http, f"/api/players/{name()}")(), n)))
            out.append(("GET /api/players/{name}/ratings", *timed(
                lambda: ok(http, f"/api/players/{name()}/ratings")(), n)))
            out.append(("history GET /api/games?limit=50", *timed(
                ok(http, "/api/games?limit=50"), n)))
            out.append(("history, deep: offset=80000", *timed(
                ok(http, "/api/games?limit=50&offset=80000"), n)))

            def seat() -> None:
                """One player lays a table, the next is timed until seated at it, a
                third fills it (so the next round starts with no table waiting)."""
                clients = [httpx.Client(base_url=base, timeout=30) for _ in range(3)]
                try:
                    first = clients[0].post("/api/quickplay", json={"preset": "classic"})
                    assert first.status_code == 200 and first.json()["seat"] == 0, first.text
                    start = time.perf_counter()
                    second = clients[1].post("/api/quickplay", json={"preset": "classic"})
                    took = time.perf_counter() - start
                    assert second.json()["table"] == first.json()["table"], second.text
                    third = clients[2].post("/api/quickplay", json={"preset": "classic"})
                    assert third.json()["table"] == first.json()["table"], third.text
                    seats.append(took * 1000)
                finally:
                    for c in clients:
                        c.close()

            seats: list[float] = []
            for _ in range(max(20, n // 10)):
                seat()
            seats.sort()
            out.append(("quick play: seated at a waiting table", statistics.median(seats),
                        seats[min(len(seats) - 1, int(len(seats) * 0.99))]))
    finally:
        server.terminate()
        server.wait(30)
    store = Store(url)
    try:
        with store.engine.connect() as conn:
            ids = [r[0] for r in conn.execute(sa.text(
                "select id from players order by id limit 2000"))]
        tables = []
        for i in range(n + 5):
            a, b = rng.sample(ids, 2)
            tables.append(f"speed{i}")
            new_game(store, f"speed{i}", [a, b])
        queue = iter(tables)

        def rate() -> None:
            changes = site_store.rate_table(store, next(queue), "classic", [1000, 400, -100],
                                            0, {2: "heuristic"})
            assert len(changes) == 3

        rate_med, rate_p99 = timed(rate, n)
        out.append(("rating update (site_store.rate_table)", rate_med, rate_p99))
    finally:
        store.close()
    return out


def run(url: str, args: argparse.Namespace, folder: Path) -> list[str]:
    made = fill(url, args.players, args.games, args.real, args.moves_share)
    rows = measure(url, args.n, folder, args.players)
    lines = [f"{make_url(url).get_backend_name()}: {made['players']} players, "
             f"{made['games']} finished games ({made['with_moves']} with their moves), "
             f"filled in {made['seconds']} s"]
    for what, med, p99 in rows:
        lines.append(f"  {what:42s} p50 {med:7.2f} ms   p99 {p99:7.2f} ms")
    print("\n".join(lines), flush=True)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--real", type=int, default=200)
    ap.add_argument("--moves-share", type=float, default=0.05)
    ap.add_argument("--n", type=int, default=300, help="requests timed of each kind")
    ap.add_argument("--pg", default=PG_URL, help="PostgreSQL URL ('' to skip)")
    ap.add_argument("--only", choices=("sqlite", "postgresql"), default=None)
    ap.add_argument("--out", default=None, help="append the lines to this file")
    args = ap.parse_args()
    lines = [f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; python "
             f"{platform.python_version()}, {platform.machine()}, {args.n} requests each"]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if args.only in (None, "sqlite"):
            lines += run(f"sqlite:///{folder / 'site.db'}", args, folder)
        if args.pg and args.only in (None, "postgresql"):
            base = make_url(args.pg)
            engine = sa.create_engine(base)
            schema = f"speed_{uuid.uuid4().hex[:10]}"
            with engine.begin() as conn:
                conn.execute(sa.text(f'create schema "{schema}"'))
            try:
                query: dict[str, Any] = dict(base.query)
                query["options"] = f"-csearch_path={schema}"
                lines += run(base.set(query=query).render_as_string(hide_password=False),
                             args, folder)
            finally:
                with engine.begin() as conn:
                    conn.execute(sa.text(f'drop schema "{schema}" cascade'))
                engine.dispose()
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n\n")


if __name__ == "__main__":
    main()
