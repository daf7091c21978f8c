"""The site's ratings in the store: how long rating a finished game takes (the budget is
5 ms an update: the players' ratings read, rated, written back with their changes, in one
transaction) and how long the leaderboard and a player's history take (p99 < 50 ms), with
``--players`` rated players and ``--games`` rated games already stored, on SQLite and, when
it answers, PostgreSQL (a schema of its own, dropped after).

    python benchmarks/site_ratings.py [--players 10000] [--games 100000] [--pg URL]

Writes nothing but the database it makes; the figures are kept in
benchmarks/results/site_ratings.txt and quoted in docs/server.md ("Ratings").
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import make_url

from thousand.engine.rules import Rules
from thousand.server.store import ratings as site_store
from thousand.server.store.tables import SeatRow, Store, TableRow, players_t, tables_t
from thousand.site.ratings import Rating

PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def fill(store: Store, players: int, games: int, seed: int = 1) -> list[str]:
    """``players`` guests with a classic rating and ``games`` rated games' changes, in bulk
    (what a site that has run a while holds); the player ids."""
    rng = random.Random(seed)
    ids = [f"p_{i:016d}" for i in range(players)]
    now = time.time()
    with store.engine.begin() as conn:
        conn.execute(players_t.insert(), [{"id": p, "kind": "guest", "name": f"Игрок {i}",
                                           "created": now} for i, p in enumerate(ids)])
        rows = []
        for p in ids:
            r = Rating(rng.uniform(15, 40), rng.uniform(1.5, 8))
            rows.append({"player_id": p, "family": "classic", "mu": r.mu, "sigma": r.sigma,
                         "display": r.display, "games": rng.randint(0, 40),
                         "updated": now})
        conn.execute(site_store.ratings_t.insert(), rows)
        batch = []
        for g in range(games):
            for seat in range(3):
                before = rng.randint(1200, 1900)
                batch.append({"table_id": f"g{g}", "seat": seat,
                              "player_id": ids[rng.randrange(players)], "family": "classic",
                              "before": before, "after": before + rng.randint(-40, 40),
                              "mu": 25.0, "sigma": 5.0, "at": now - games + g})
            if len(batch) >= 30_000:
                conn.execute(site_store.changes_t.insert(), batch)
                batch = []
        if batch:
            conn.execute(site_store.changes_t.insert(), batch)
    return ids


def new_game(store: Store, table_id: str, players: list[str]) -> None:
    rules = Rules.preset_rules("classic")
    store.create_table(TableRow(
        id=table_id, created=time.time(), preset="classic", rules=rules.to_json(),
        names=["А", "Б", "В"], first_dealer=0, seed=1, clock=None, status="over",
        listed=True,
        seats=[SeatRow(0, "human", None, "А", None, players[0]),
               SeatRow(1, "human", None, "Б", None, players[1]),
               SeatRow(2, "bot", "heuristic", "В")]))


def timed(call: Callable[[], object], n: int) -> tuple[float, float]:
    """(median, p99) of ``n`` calls, in milliseconds."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def run(url: str, players: int, games: int, rounds: int) -> list[str]:
    store = Store(url)
    try:
        start = time.perf_counter()
        ids = fill(store, players, games)
        # what autovacuum (PostgreSQL) or the next ANALYZE (SQLite) does on a site that
        # has run a while: the planner's statistics; without them PostgreSQL walks every
        # rated player for the leaderboard (30 ms instead of 5)
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE" if store.engine.dialect.name ==
                                 "postgresql" else "ANALYZE")
        made = time.perf_counter() - start
        rng = random.Random(2)
        tables = []
        for i in range(rounds):
            a, b = rng.sample(ids, 2)
            tables.append((f"bench{i}", [a, b]))
            new_game(store, f"bench{i}", [a, b])
        queue = iter(tables)

        def rate() -> None:
            table_id, _ = next(queue)
            changes = site_store.rate_table(store, table_id, "classic", [1000, 400, -100], 0,
                                            {2: "heuristic"})
            assert len(changes) == 3

        rate_med, rate_p99 = timed(rate, rounds)
        board_med, board_p99 = timed(
            lambda: site_store.leaderboard(store, "classic", 3, 50, rng.randrange(0, 500)),
            200)
        hist_med, hist_p99 = timed(
            lambda: site_store.player_history(store, rng.choice(ids), 200), 200)
        with store.engine.connect() as conn:
            stored = conn.execute(sa.select(sa.func.count())
                                  .select_from(site_store.changes_t)).scalar_one()
            assert conn.execute(sa.select(sa.func.count()).select_from(tables_t)).scalar()
        return [
            f"{make_url(url).get_backend_name()}: {players} players, {stored} rating changes "
            f"(filled in {made:.1f} s)",
            f"  rate a finished game   median {rate_med:6.2f} ms   p99 {rate_p99:6.2f} ms"
            f"   ({rounds} games)",
            f"  leaderboard (50 rows)  median {board_med:6.2f} ms   p99 {board_p99:6.2f} ms",
            f"  a player's history     median {hist_med:6.2f} ms   p99 {hist_p99:6.2f} ms",
        ]
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=300, help="games rated and timed")
    ap.add_argument("--pg", default=PG_URL, help="PostgreSQL URL ('' to skip)")
    args = ap.parse_args()
    print(f"python {platform.python_version()}, {platform.machine()}")
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        print("\n".join(run(url, args.players, args.games, args.rounds)))
    if not args.pg:
        return
    base = make_url(args.pg)
    try:
        engine = sa.create_engine(base, connect_args={"connect_timeout": 3})
        with engine.connect() as conn:
            conn.execute(sa.text("select 1"))
    except Exception as e:
        print(f"PostgreSQL skipped: {' '.join(str(e).split())[:120]}")
        return
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'create schema "{schema}"'))
    try:
        query = dict(base.query)
        query["options"] = f"-csearch_path={schema}"
        url = base.set(query=query).render_as_string(hide_password=False)
        print("\n".join(run(url, args.players, args.games, args.rounds)))
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'drop schema "{schema}" cascade'))
        engine.dispose()


if __name__ == "__main__":
    main()
