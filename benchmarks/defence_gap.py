"""The defence's gap: what a declarer takes at the table against what the solver gives his
cards with every hand open, deal by deal (issue 29: "defence that does not see through the
cards").

    python benchmarks/defence_gap.py --bots strong,strong,strong --deals 400 --seed 1 \
        --jobs 2 --out benchmarks/results/defence-gap/strong-1.jsonl
    python benchmarks/fit_defence.py benchmarks/results/defence-gap/*.jsonl

Each deal is dealt (``set_seed(seed, i)``, the duplicate arena's) and played once by the
bots, to the end of its first played deal.  For the declarer of a contract played out (no
dark bid, no concede) three totals are written, each his cards taken, his declarations and
his discards:

- ``table``: what he took at the table;
- ``open``: the solver's total of the position at the first lead, after the exchange he
  made, every hand open (the defenders see through the cards there: ``table − open`` is
  what real defence, and his own play, leave him beside perfect play by all);
- ``quick``: the solver's total as the auction's search computes it for a sampled deal
  (docs/search-bots.md §3), on the true deal: his 7 cards and the talon, the best of the
  quick rule's ``bid_gives`` exchanges, solved exactly.  The auction counts a bid ``b`` made
  where this total is at least ``b + bid_margin``; ``table − quick`` is the gap that margin
  stands for, the quick exchange's loss and the open defence's together.

A JSON line per deal: the set, the declarer's level and the others', the bid, the contract,
whether it was made, whether it was the compulsory 100 nobody outbid, and the three totals.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from thousand.bots.sampling import World
from thousand.bots.search import STRONG, SearchBot
from thousand.bots.search.bids import _exchange_of
from thousand.engine import moves as mv
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.evaluation.arena import _compulsory, new_game, play_game
from thousand.evaluation.duplicate import _bots, _one_deal_played, set_seed
from thousand.evaluation.jobs import run_jobs


def one_deal(index: int, levels: list[str], rules: Rules, seed: int) -> dict[str, Any] | None:
    """Deal ``index`` played by ``levels`` (seat ``s`` by ``levels[s]``), and its
    declarer's three totals; None when no contract was played out."""
    n = rules.players
    s_seed = set_seed(seed, index)
    bots = _bots(levels, list(range(n)), s_seed)
    game = play_game(new_game(rules, None, index % n, s_seed, bots), bots,
                     until=_one_deal_played)
    assert isinstance(game, Game)
    res = game.summaries[-1].result
    if res.outcome != "played" or res.declarer is None or res.dark or res.contract is None:
        return None
    d = res.declarer
    rec = game.records[len(game.summaries) - 1]
    replay = Game(rules, first_dealer=rec.dealer, auto_deal=False)
    replay.start_deal(rec.hands, rec.talon, rec.cut, rec.talons)
    bid_view = None
    first_lead = None
    for move in rec.moves:
        if replay.to_move == d and (mv.is_bid(move) or move == mv.DARK):
            bid_view = replay.view(d)
        if first_lead is None and mv.is_card_play(move):
            first_lead = replay.view(d)
            hands = tuple(replay.view(s).hand or 0 for s in range(n))
        replay.apply(move)
    if bid_view is None or first_lead is None:
        return None
    bot = SearchBot(s_seed, replace(STRONG, time_limit=None))
    opts = bot.options(first_lead)
    solver = bot.solver
    # the table's position at the first lead, every hand open
    open_total = solver.solve(bot._hand_position(
        first_lead, World(hands, discards=first_lead.discards or 0), d, (), 0, opts))
    # the auction's quick exchanges on the true deal (his 7 cards and the talon)
    true_world = World(tuple(rec.hands), rec.talon, 0, tuple(rec.talons))
    world, combos = bot._quick_exchanges(bid_view, true_world, d, bot.config.bid_gives)
    quick = max(solver.solve(bot._hand_position(
        bid_view, world, d, *_exchange_of(bid_view, d, combo), opts)) for combo in combos)
    return {
        "set": index, "seed": s_seed, "declarer": levels[d],
        "others": [levels[s] for s in range(n) if s != d],
        "bid": res.bid, "contract": res.contract, "made": bool(res.made),
        "compulsory": _compulsory(rec.moves),
        "table": res.points[d], "open": open_total, "quick": quick,
    }


def _task(args: tuple[int, list[str], Rules, int]) -> dict[str, Any] | None:
    return one_deal(*args)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bots", default="strong,strong,strong")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="the first deal's index")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    levels = args.bots.split(",")
    rules = Rules.preset_rules(args.preset)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tasks = [(i, levels, rules, args.seed)
             for i in range(args.first, args.first + args.deals)]
    with args.out.open("a", encoding="utf-8") as out:
        for row in run_jobs(_task, tasks, args.jobs):
            if row is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
