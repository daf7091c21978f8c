"""Fill a database with a site that has run a while, for benchmarks/site_speed.py:
``--players`` accounts and ``--games`` finished, rated games with their seats, moves,
ratings and rating changes.

    python benchmarks/site_data.py URL [--players 10000] [--games 100000]
        [--real 200] [--moves-share 0.05]

URL is any store URL (``sqlite:///site.db``, or PostgreSQL with a schema of its own:
``postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3Dbench``);
the schema is made by the store's own migrations (:class:`thousand.server.store.tables.Store`).

How, quickly (bulk inserts; about a minute for the defaults):

* the accounts share one precomputed Argon2 hash (hashing 10,000 passwords would take
  longer than everything else);
* ``--real`` real games are played by heuristic bots with the engine (:class:`Table`), and
  each stored game reuses one of them — its rules, seed, first dealer, winner and scores
  — with three players drawn from the accounts (one seat in five a heuristic bot) and a
  date of its own, so a game's moves still replay to its stored result;
* the move log is written for ``--moves-share`` of the games (a game's log is some 700
  rows: all 100,000 would be 70 million rows, which the pages measured here never read;
  the record and replay of those games read them as any game's);
* the ratings are the site's own: every game is rated in date order with
  :func:`thousand.site.ratings.rate_scores` (what ``site_store.rate_table`` calls), and
  the players' ratings and every change written as ``rate_table`` writes them.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import sqlalchemy as sa

from thousand.bots import make_bot
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.store import ratings as site_store
from thousand.server.store.tables import Store, moves_t, players_t, seats_t, tables_t
from thousand.site.ratings import Rating, rate_scores

#: one Argon2id hash (of "benchmark"), shared by every account
HASH = ("$argon2id$v=19$m=65536,t=3,p=4$YmVuY2htYXJrc2FsdA$"
        "0f6b3m1b0c9cUfqz7u0R3mE1dB8u4JQm5w2yqv6xk8Q")
BATCH = 20_000


def real_games(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` classic games played to the end by heuristic bots (random bots' games run to
    thousands of moves, nothing like a person's)."""
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(3)]
    rules = Rules.preset_rules("classic")
    out = []
    for i in range(n):
        table = Table(rules, ["А", "Б", "В"], first_dealer=i % 3, seed=rng.getrandbits(96))
        while not table.over:
            seat = table.to_move
            assert seat is not None
            table.submit(seat, bots[seat].choose(table.view(seat)), table.version)
        out.append({"rules": rules.to_json(), "seed": table.seed,
                    "first_dealer": i % 3, "moves": list(table.moves),
                    "winner": table.game.winner, "scores": list(table.game.scores)})
    return out


def _insert(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]]) -> None:
    """Bulk insert below SQLAlchemy's per-row work: the driver's ``executemany`` on SQLite,
    ``COPY`` on PostgreSQL (ten times faster than ``table.insert()`` with a list)."""
    if not rows:
        return
    cols = list(rows[0])
    raw: Any = conn.connection.dbapi_connection
    cur = raw.cursor()
    try:
        if conn.dialect.name == "postgresql":
            quoted = ", ".join(f'"{c}"' for c in cols)
            with cur.copy(f'COPY "{table.name}" ({quoted}) FROM STDIN') as copy:
                for row in rows:
                    copy.write_row([row[c] for c in cols])
        else:
            marks = ", ".join("?" for _ in cols)
            cur.executemany(f'INSERT INTO "{table.name}" ({", ".join(cols)}) '
                            f"VALUES ({marks})", [tuple(r[c] for c in cols) for r in rows])
    finally:
        cur.close()


def fill(url: str, players: int, games: int, real: int, moves_share: float,
         seed: int = 1) -> dict[str, Any]:
    """Fill the database at ``url``; what was made (counts and seconds)."""
    started = time.perf_counter()
    rng = random.Random(seed)
    played = real_games(real, seed)
    played_s = time.perf_counter() - started
    store = Store(url)
    now = time.time()
    ids = [f"acct{i:020d}" for i in range(players)]
    names = [f"Игрок{i}" for i in range(players)]
    ratings: dict[str, tuple[Rating, int]] = {}
    with store.engine.begin() as conn:
        _insert(conn, players_t, [
            {"id": p, "kind": "account", "name": n, "name_key": n.casefold(),
             "password_hash": HASH, "seat_secret": None, "created": now - 400 * 86400,
             "deleted": None} for p, n in zip(ids, names, strict=True)])
        tables: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        moves: list[dict[str, Any]] = []
        changes: list[dict[str, Any]] = []
        moved = 0
        for g in range(games):
            game = played[g % real]
            table_id = f"g{g:015d}"
            created = now - (games - g) * 300.0
            who = rng.sample(range(players), 3)
            seat_names = [names[w] for w in who]
            players_of = [ids[w] for w in who]
            bot = rng.randrange(5)
            if bot < 3:  # one seat in five a bot
                seat_names[bot] = "Бот"
                players_of[bot] = site_store.bot_player("heuristic")
            tables.append({"id": table_id, "created": created, "preset": "classic",
                           "rules": json.dumps(game["rules"]), "names": json.dumps(
                               seat_names, ensure_ascii=False),
                           "first_dealer": game["first_dealer"], "seed": str(game["seed"]),
                           "clock": None, "status": "over", "listed": g % 10 != 0,
                           "finished": created + 1800, "winner": json.dumps(game["winner"]),
                           "scores": json.dumps(game["scores"])})
            for s in range(3):
                is_bot = players_of[s].startswith(site_store.BOT_PREFIX)
                seats.append({"table_id": table_id, "seat": s,
                              "kind": "bot" if is_bot else "human",
                              "level": "heuristic" if is_bot else None,
                              "name": seat_names[s], "token_hash": None if is_bot
                              else f"{g:064x}", "player_id": None if is_bot
                              else players_of[s]})
            if rng.random() < moves_share:
                moved += 1
                moves.extend({"table_id": table_id, "idx": i, "move": m,
                              "at": created + i} for i, m in enumerate(game["moves"]))
            before = [ratings.get(p) or (site_store.bot_seed("heuristic") if
                                         p.startswith(site_store.BOT_PREFIX) else None)
                      or (Rating(), 0) for p in players_of]
            result = rate_scores([b[0] for b in before], game["scores"], game["winner"])
            for s, change in enumerate(result):
                ratings[players_of[s]] = (change.after, before[s][1] + 1)
                changes.append({"table_id": table_id, "seat": s,
                                "player_id": players_of[s], "family": "classic",
                                "before": change.before.display,
                                "after": change.after.display, "mu": change.after.mu,
                                "sigma": change.after.sigma, "at": created + 1800})
            if len(tables) >= BATCH or len(moves) >= 10 * BATCH:
                _insert(conn, tables_t, tables)
                _insert(conn, seats_t, seats)
                _insert(conn, moves_t, moves)
                _insert(conn, site_store.changes_t, changes)
                tables, seats, moves, changes = [], [], [], []
        for rows, table in ((tables, tables_t), (seats, seats_t), (moves, moves_t),
                            (changes, site_store.changes_t)):
            if rows:
                _insert(conn, table, rows)
        _insert(conn, site_store.ratings_t, [
            {"player_id": p, "family": "classic", "mu": r.mu, "sigma": r.sigma,
             "display": r.display, "games": n, "updated": now}
            for p, (r, n) in ratings.items()])
    # the planner's statistics, as a site that has run a while has them
    with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE" if store.engine.dialect.name == "postgresql"
                             else "ANALYZE")
    store.close()
    return {"players": players, "games": games, "real": real, "with_moves": moved,
            "played_s": round(played_s, 1),
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("url")
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--real", type=int, default=200, help="real bot games played")
    ap.add_argument("--moves-share", type=float, default=0.05)
    args = ap.parse_args()
    print(fill(args.url, args.players, args.games, args.real, args.moves_share))


if __name__ == "__main__":
    main()
