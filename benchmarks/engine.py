"""Engine speed: complete random deals (auction to score) and whole games per second.

Run by hand on one core:  .venv/bin/python benchmarks/engine.py [--deals N] [--games N]
[--preset P ...] [--players N]   (``--preset classic --preset two``: three players against
two; ``--players 2`` plays each preset chosen with two players where its options allow)

Times are CPU time of this process (time.process_time), so that other work on a
shared machine does not count against the engine.

A "deal" is the full cycle a bot's simulation pays for: deal the cards, list the
legal moves and apply a random one until the deal is scored.  Random play never
reaches 1000, so whole classic games run to the 200-deal cap; the games figure is
for games of ``max_deals`` deals.  Target (issue 2): at least 3,000 deals a second; two
players (preset ``two``: ten tricks of two, a talon choice and two discards) at least as
many as three.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from thousand.engine.game import Game
from thousand.engine.rules import PRESET_NAMES, Rules


def deals_per_second(rules: Rules, n: int, seed: int = 1) -> float:
    rng = random.Random(seed)
    endless = Rules.from_json({**rules.to_json(), "max_deals": None})
    g = Game(endless, seed=seed)
    start = time.process_time()
    done = 0
    while done < n:
        if g.over:
            g = Game(endless, seed=seed + done)
        before = len(g.summaries)
        legal = g.legal_moves()
        g.apply(legal[rng.randrange(len(legal))])
        if len(g.summaries) != before:
            done += 1
    return n / (time.process_time() - start)


def games_per_second(rules: Rules, n: int, seed: int = 1) -> tuple[float, float]:
    rng = random.Random(seed)
    start = time.process_time()
    deals = 0
    for i in range(n):
        g = Game(rules, seed=seed + i)
        while not g.over:
            legal = g.legal_moves()
            g.apply(legal[rng.randrange(len(legal))])
        deals += len(g.summaries)
    elapsed = time.process_time() - start
    return n / elapsed, deals / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--preset", action="append", choices=PRESET_NAMES, default=None,
                    help="a preset to time (repeatable; default: every preset)")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                    help="play the presets with this many players")
    args = ap.parse_args()
    print(f"{'preset':14} {'deals/s':>10} {'games/s':>9} {'deals/game':>11}")
    for name in args.preset or PRESET_NAMES:
        extra = {} if args.players is None else {"players": args.players}
        rules = Rules.preset_rules(name, max_deals=200, **extra)
        dps = statistics.median(deals_per_second(rules, args.deals, s) for s in range(args.repeat))
        gps, dpg = games_per_second(rules, args.games)
        print(f"{name:14} {dps:10.0f} {gps:9.2f} {dpg:11.1f}")


if __name__ == "__main__":
    main()
