"""How well the bid search foresees the table: for each contract won in an auction in an
arena's saved games, what the search (``strong``'s, at 80 sampled deals) predicted for the
declarer's bid when he made it, against what the declarer then took.

    thousand arena --bots strong,heuristic,heuristic -n 60 --seed 29 --save DIR
    python benchmarks/bid_calibration.py DIR --seed 29 [--levels strong,heuristic]
        [--out benchmarks/results/bid-calibration.txt] [--rows ROWS.jsonl]
    python benchmarks/bid_calibration.py --table ROWS.jsonl   # the table again, no search

The search values a bid ``b`` from sampled deals solved with every card open
(docs/search-bots.md §2-3): the defenders play perfectly there, so the solver's totals are
pessimistic against real defenders, and the bot counts a bid as made by its own rule
(``made_chance``: the fitted defence's gap, or, as when the committed table was made, at
the solver's total ``b + bid_margin``, −15). For each declarer's last bid, the declarer's
view is rebuilt from the record and the auction search run on it with the arena bot's seed
and no time limit (80 deals, the cap the arena's 0.3 s decision stopped at or below: its
deals are the first of these). Reported, by bucket of the bot's make chance (by its rule):
the solver's own chance ``P(total ≥ b)`` (no margin), the share of deals where the
declarer's real total reached ``b``, and the share where his contract (the bid, or the
raise he named after the talon) was made, with its 95% Wilson interval. ``--rows`` keeps
each contract's figures (a JSON line each: the data a learned correction of the search
would be fitted to), ``--table`` prints the tables from them again. The compulsory 100s
nobody outbid and dark bids are left out (nobody chose them). A declarer of another level
is valued by the same search: the prediction is what ``strong`` would have thought of his
bid with his cards.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from make_rate import Declared, declared  # benchmarks/make_rate.py

from thousand.bots.search import STRONG, SearchBot
from thousand.evaluation.arena import game_seed, wilson_interval

#: the buckets of the bot's make chance (lower bounds, the last one the sure bids)
EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True)
class Foreseen:
    """One contract won in an auction: the search's chances for the bid and the table's
    outcome."""

    game: str
    deal: int
    level: str
    bid: int
    contract: int
    #: the bid's make chance as the bot counts it (``made_chance``)
    p_bot: float
    #: P(total ≥ bid), the solver's chance without a margin (None: not among the
    #: thresholds the search asked, a jump far above the lowest legal bid)
    p_solver: float | None
    reached: bool
    made: bool


def foresee(d: Declared, seed: int) -> Foreseen | None:
    """The search's chances for ``d``'s bid, from the declarer's view when he made it."""
    assert d.view is not None
    bot = SearchBot(game_seed(seed, d.index) * 31 + d.seat, replace(STRONG, time_limit=None))
    rng, budget = bot.search_start(d.view)
    found = bot._auction_search(d.view, rng, budget)
    if found is None:
        return None
    totals, ladder = found[1].totals, found[1].ladder
    n = len(totals)
    margin = bot.bid_margin(d.view)
    p_bot = sum(bot.made_chance(d.view, t, d.bid) for t in totals) / n
    # the search's totals are floored to its thresholds (each bid of its ladder plus
    # bid_margin): t >= b says "reached b" only when b is one of them
    asked = d.bid - margin in ladder
    p_solver = sum(t >= d.bid for t in totals) / n if asked else None
    return Foreseen(d.game, d.deal, d.level, d.bid, d.contract, p_bot, p_solver,
                    d.points >= d.bid, d.made)


def bucket(p: float) -> int:
    """The index in :data:`EDGES` of the bucket of ``p``."""
    if p >= EDGES[-1]:
        return len(EDGES) - 1
    return max(i for i, e in enumerate(EDGES) if p >= e)


def table(rows: Sequence[Foreseen]) -> list[str]:
    """The calibration table of ``rows``, a line per bucket of the bot's chance."""
    out = [f"  {'bot chance':<12}{'n':>5}{'bot':>8}{'solver ≥ b':>12}{'table ≥ b':>11}"
           f"{'made':>8}  {'made, 95% CI':<14}"]
    for k, edge in enumerate(EDGES):
        group = [r for r in rows if bucket(r.p_bot) == k]
        if not group:
            continue
        name = "1.0" if k == len(EDGES) - 1 else f"{edge:.1f}–{EDGES[k + 1]:.1f}"
        out.append(_line(name, group))
    out.append(_line("all", list(rows)))
    return out


def _line(name: str, group: Sequence[Foreseen]) -> str:
    n = len(group)
    solver = [r.p_solver for r in group if r.p_solver is not None]
    s = f"{sum(solver) / len(solver):.0%}" if solver else "–"
    made = sum(r.made for r in group)
    lo, hi = wilson_interval(made, n)
    return (f"  {name:<12}{n:>5}{sum(r.p_bot for r in group) / n:>8.0%}{s:>12}"
            f"{sum(r.reached for r in group) / n:>11.0%}{made / n:>8.0%}  "
            f"{lo:.0%} … {hi:.0%}")


def report(title: str, rows: Sequence[Foreseen], levels: Sequence[str]) -> str:
    """The tables of ``rows``, one per declaring level."""
    lines = [f"{title}: the bid search's make chance for each contract won in an auction, "
             "against the table (columns: bot = the make chance as the bot counts it; "
             "solver ≥ b = P(total ≥ b); table ≥ b = the declarer's real total "
             "reached his bid; made = his contract made)"]
    for level in levels:
        mine = [r for r in rows if r.level == level]
        if mine:
            lines += [f"{level} declaring ({len(mine)} contracts):", *table(mine)]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", type=Path, nargs="?")
    ap.add_argument("--seed", type=int, help="the arena run's --seed")
    ap.add_argument("--levels", default="strong,heuristic")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--rows", type=Path, help="keep each contract's figures here (JSONL)")
    ap.add_argument("--table", type=Path, help="the tables from a --rows file")
    args = ap.parse_args(argv)
    levels = args.levels.split(",")
    rows: list[Foreseen] = []
    if args.table:
        rows = [Foreseen(**json.loads(line)) for line in args.table.read_text().splitlines()]
        title = str(args.table)
    elif args.directory is None or args.seed is None:
        ap.error("DIR --seed N (the arena's saved games and its seed), or --table ROWS")
    else:
        title = str(args.directory)
        for d in declared(args.directory, views=True):
            if d.compulsory or d.dark or d.level not in levels or d.view is None:
                continue
            f = foresee(d, args.seed)
            if f is not None:
                rows.append(f)
        if args.rows:
            args.rows.write_text("".join(json.dumps(asdict(r)) + "\n" for r in rows))
    text = report(title, rows, levels)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
