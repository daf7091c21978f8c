"""The declarers' make rate and mean contract by bot level, from an arena's saved games
(issue 29's targets: a bot that bids like a master wins contracts it makes).

    thousand arena --bots strong,heuristic,heuristic -n 60 --seed 29 --save DIR
    python benchmarks/make_rate.py DIR [--out benchmarks/results/make-rate.txt]

Each game record of ``DIR`` (``game-*.json``, RULES §6) is replayed through the engine;
every deal played is counted for the level of its declarer's seat (the record's player
names are the arena's levels).  The contracts won in an auction are kept apart from the
compulsory opening nobody outbid (one bid and passes, as the arena counts them: the opener
must play his 100 or the raise the talon allows, whatever he holds, so his make rate says
little of how he bids).  For each level: the contracts won in an auction, how many were
made (with a 95% Wilson interval), the mean winning bid and the mean contract played (the
bid, or the raise named after the talon), and the same for the compulsory ones.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from thousand.engine import moves as mv
from thousand.engine.game import Game
from thousand.engine.record import load_record
from thousand.engine.view import View
from thousand.evaluation.arena import _compulsory, wilson_interval


@dataclass(frozen=True)
class Declared:
    """One deal played to its end with a declarer, from a saved game."""

    game: str
    #: the game's index in its arena run (``game-00001.json`` is 0)
    index: int
    deal: int
    seat: int
    level: str
    bid: int
    contract: int
    made: bool
    #: the declarer's points at the end (cards taken, his declarations, his discards)
    points: int
    compulsory: bool
    dark: bool
    #: the declarer's view when he made his last bid (with ``views``), else None
    view: View | None


def declared(directory: Path, views: bool = False) -> Iterator[Declared]:
    """Every deal with a declarer in the games saved in ``directory``, in order."""
    for path in sorted(directory.glob("game-*.json")):
        rec = load_record(path.read_text())
        index = int(path.stem.split("-")[1]) - 1
        game = Game(rec.rules, rec.players, rec.first_dealer, auto_deal=False)
        for i, deal in enumerate(rec.deals):
            game.start_deal(deal.hands, deal.talon, deal.cut, deal.talons)
            last_bid: dict[int, View] = {}
            for move in deal.moves:
                if views and (mv.is_bid(move) or move == mv.DARK):
                    seat = game.to_move
                    last_bid[seat] = game.view(seat)
                game.apply(move)
            res = game.summaries[-1].result
            if res.declarer is None or res.outcome != "played" or res.contract is None:
                continue
            yield Declared(
                path.name, index, i, res.declarer, rec.players[res.declarer],
                res.bid or 0, res.contract, bool(res.made), res.points[res.declarer],
                _compulsory(deal.moves), res.dark, last_bid.get(res.declarer),
            )


def _row(name: str, rows: list[Declared]) -> str:
    n = len(rows)
    if not n:
        return f"  {name}: none"
    k = sum(r.made for r in rows)
    lo, hi = wilson_interval(k, n)
    bid = sum(r.bid for r in rows) / n
    contract = sum(r.contract for r in rows) / n
    raised = sum(r.contract > r.bid for r in rows)
    return (f"  {name}: {n}, made {k / n:.1%} ({k}/{n}, 95% CI {lo:.1%} … {hi:.1%}), "
            f"mean bid {bid:.1f}, mean contract {contract:.1f} (raised after the talon: "
            f"{raised})")


def report(directory: Path) -> str:
    """The make rates and mean contracts of the games in ``directory``, per level."""
    by_level: dict[str, list[Declared]] = defaultdict(list)
    games: set[str] = set()
    deals = 0
    for d in declared(directory):
        by_level[d.level].append(d)
        games.add(d.game)
        deals += 1
    lines = [f"{directory}: {len(games)} games, {deals} deals played with a declarer"]
    for level, rows in sorted(by_level.items()):
        won = [r for r in rows if not r.compulsory]
        forced = [r for r in rows if r.compulsory]
        lines += [
            f"{level}: declared {len(rows)}",
            _row("won in an auction", won),
            _row("compulsory 100, nobody outbid", forced),
            _row("  of them kept at 100", [r for r in forced if r.contract == r.bid]),
        ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("directory", type=Path)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    text = report(args.directory)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
