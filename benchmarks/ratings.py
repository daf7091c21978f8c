"""How long a rating update takes (thousand.site.ratings): the budget is 5 ms an update.

    python benchmarks/ratings.py [--updates 20000]

Times :func:`rate_game` for three- and four-player games between players with different
ratings (a tie in every fifth game), and :func:`rating_family` for a ruleset (cached after
its first call, and timed cold too).  Writes nothing: the figures are quoted in
docs/ratings.md and kept in benchmarks/results/ratings.txt.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

from thousand.engine.rules import Rules
from thousand.site.ratings import Rating, _family, rate_game, rating_family


def time_updates(players: int, updates: int, seed: int = 1) -> float:
    """Mean seconds of one :func:`rate_game` of ``players`` players."""
    rng = random.Random(seed)
    pool = [Rating(rng.uniform(15, 35), rng.uniform(1, 8)) for _ in range(64)]
    games = []
    for i in range(updates):
        ratings = rng.sample(pool, players)
        order = list(range(1, players + 1))
        rng.shuffle(order)
        if i % 5 == 0:
            order[order.index(2)] = 1  # a shared first place
        games.append((ratings, order))
    start = time.perf_counter()
    for ratings, order in games:
        rate_game(ratings, order)
    return (time.perf_counter() - start) / updates


def time_family(calls: int) -> tuple[float, float]:
    """Mean seconds of :func:`rating_family`: cold (cache cleared each time) and cached."""
    rules = [Rules.preset_rules(p) for p in ("classic", "house", "textbook", "casual")]
    rules.append(Rules.from_cli("house", ["bid_step=10"]))  # unrated: every preset tried
    start = time.perf_counter()
    for i in range(calls):
        _family.cache_clear()
        rating_family(rules[i % len(rules)])
    cold = (time.perf_counter() - start) / calls
    start = time.perf_counter()
    for i in range(calls):
        rating_family(rules[i % len(rules)])
    return cold, (time.perf_counter() - start) / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=20_000)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    for players in (3, 4):
        sec = time_updates(players, args.updates)
        print(f"rate_game, {players} players: {sec * 1e3:.3f} ms an update "
              f"({args.updates} updates)")
    cold, warm = time_family(2000)
    print(f"rating_family: {cold * 1e3:.3f} ms cold, {warm * 1e6:.2f} µs cached")


if __name__ == "__main__":
    main()
