"""Time per decision of the bots, by level: median and 95th percentile (and by phase).

    python benchmarks/bots.py [--levels strong,expert] [--decisions 300] [--preset classic]
        [--seed 1] [--cpu] [--out benchmarks/results/bots.txt]

Decisions are drawn from random game positions: games are played by the heuristic bot in
every seat, and at every decision one bot of each measured level is asked for its move on
the same view (the move is not played), one decision in ``--every`` (so that the positions
spread over whole games).  One process; the machine may be shared, so the figures are the
wall-clock time of each decision as it ran, or with ``--cpu`` the process's CPU time (what
a decision costs on a busy machine; the bots' own time limit is wall-clock).  ``--preset
two`` measures the game for two (RULES §4 "Two players").
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import defaultdict

from thousand.bots import make_bot
from thousand.bots.heuristic import HeuristicBot
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.solver import HAVE_NATIVE


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (nearest rank; 0 for none)."""
    s = sorted(xs)
    if not s:
        return 0.0
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--levels", default="heuristic,strong,expert")
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--out", default=None)
    ap.add_argument("--cpu", action="store_true", help="CPU time instead of wall-clock")
    args = ap.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    rules = Rules.preset_rules(args.preset)
    levels = [x for x in args.levels.split(",") if x]
    n = rules.players
    bots = {lv: [make_bot(lv, seed=args.seed * 10 + s) for s in range(n)] for lv in levels}
    players = [HeuristicBot(args.seed + s) for s in range(n)]
    times: dict[str, list[float]] = defaultdict(list)
    by_phase: dict[tuple[str, str], list[float]] = defaultdict(list)
    game_seed = args.seed * 1000
    game = Game(rules, seed=game_seed)
    k = 0
    while len(times[levels[-1]]) < args.decisions:
        if game.over:
            game_seed += 1
            game = Game(rules, seed=game_seed)
        seat = game.to_move
        view = game.view(seat)
        k += 1
        if len(view.legal) > 1 and k % args.every == 0:
            for lv in levels:
                t = clock()
                bots[lv][seat].choose(view)
                dt = clock() - t
                times[lv].append(dt)
                by_phase[(lv, view.phase.name)].append(dt)
        game.apply(players[seat].choose(view))
    lines = [
        f"bots benchmark: {args.preset}, seed {args.seed}, {args.decisions} decisions per level "
        f"(one in {args.every} of heuristic self-play games with more than one legal move), "
        f"{'CPU' if args.cpu else 'wall-clock'} time",
        f"python {platform.python_version()} on {platform.machine()}, native solver: {HAVE_NATIVE}",
        "",
        f"{'level':<10} {'decisions':>9} {'median':>9} {'p95':>9} {'max':>9} {'mean':>9}",
    ]
    for lv in levels:
        xs = times[lv]
        lines.append(
            f"{lv:<10} {len(xs):>9} {statistics.median(xs):>8.3f}s {percentile(xs, 0.95):>8.3f}s "
            f"{max(xs):>8.3f}s {statistics.mean(xs):>8.3f}s"
        )
    lines.append("")
    lines.append("by phase (median / p95 / count):")
    for (lv, ph), xs in sorted(by_phase.items()):
        lines.append(
            f"  {lv:<10} {ph:<12} {statistics.median(xs):.3f}s / {percentile(xs, 0.95):.3f}s"
            f" / {len(xs)}"
        )
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
