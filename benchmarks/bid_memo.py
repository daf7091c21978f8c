"""The bid search's contract memo (``thousand.bots.search.bids.ContractMemo``): the same
moves, and the CPU time of each bid decision, before and after.

    python benchmarks/bid_memo.py --out after.json [--deals 30] [--seed 1] [--preset classic]
    PYTHONPATH=/tmp/before/src python benchmarks/bid_memo.py --out before.json
    python benchmarks/bid_memo.py --compare before.json after.json

``--out`` plays ``--deals`` deals (one-deal games, each from its own seed) with ``strong``
in every seat at a fixed number of sampled deals (``time_limit=None``: 80 deals a
decision, so a decision depends on the code and the seed, not on the machine's load) and
writes every move played, and the CPU time of every auction decision with a choice (one
process: the CPU time is what the decision costs whatever else the machine runs).  The
"before" run imports the code before the memo (an export of the commit before it, the
compiled solver copied beside it).  ``--compare`` fails unless both runs played the same
moves, byte for byte, and prints each run's median and 95th percentile.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from bots import percentile  # benchmarks/bots.py, beside this script

import thousand
from thousand.bots.search import SearchBot, SearchConfig
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules


def play(deals: int, seed: int, preset: str) -> dict[str, object]:
    """Every move of ``deals`` one-deal games of ``strong`` bots at 80 deals a decision,
    and each auction decision's CPU time."""
    rules = Rules.preset_rules(preset, max_deals=1)
    config = SearchConfig(time_limit=None)
    moves: list[list[str]] = []
    times: list[float] = []
    for g in range(deals):
        game = Game(rules, seed=seed * 1000 + g)
        bots = [SearchBot(seed * 100 + s, config) for s in range(rules.players)]
        played: list[str] = []
        while not game.over:
            seat = game.to_move
            view = game.view(seat)
            t = time.process_time()
            move = bots[seat].choose(view)
            dt = time.process_time() - t
            if view.phase == Phase.AUCTION and len(view.legal) > 1:
                times.append(dt)
            played.append(f"{seat}:{move}")
            game.apply(move)
        moves.append(played)
        print(f"deal {g + 1}/{deals}: {len(played)} moves", file=sys.stderr)
    return {"code": str(Path(thousand.__file__).parent), "preset": preset, "seed": seed,
            "moves": moves, "bid_seconds": times}


def summary(run: dict[str, object]) -> str:
    """A run's bid decisions: how many, median, 95th percentile, mean (CPU seconds)."""
    xs = run["bid_seconds"]
    assert isinstance(xs, list)
    return (f"{len(xs)} bid decisions, p50 {percentile(xs, 0.5):.3f} s, "
            f"p95 {percentile(xs, 0.95):.3f} s, mean {statistics.fmean(xs):.3f} s")


def compare(before_path: str, after_path: str) -> int:
    """0 when both runs played the same moves (printing both runs' times), else 1."""
    before = json.loads(Path(before_path).read_text())
    after = json.loads(Path(after_path).read_text())
    n_moves = sum(len(d) for d in before["moves"])
    print(f"before ({before['code']}): {summary(before)}")
    print(f"after  ({after['code']}): {summary(after)}")
    if before["moves"] != after["moves"]:
        for i, (a, b) in enumerate(zip(before["moves"], after["moves"], strict=False)):
            if a != b:
                print(f"deal {i + 1}: the moves differ")
        return 1
    print(f"the same {n_moves} moves in {len(before['moves'])} deals")
    return 0


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    if not args.out:
        ap.error("--out FILE or --compare BEFORE AFTER")
    run = play(args.deals, args.seed, args.preset)
    Path(args.out).write_text(json.dumps(run) + "\n")
    print(summary(run))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
