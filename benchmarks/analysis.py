"""The analysis of a finished game: how long it takes, and how stable its marks are.

Run by hand:  .venv/bin/python benchmarks/analysis.py [--deals 20] [--samples 48] [--jobs 2]

A game of heuristic bots on ``classic`` (a fixed seed) is played to ``--deals`` deals and
analysed by :func:`thousand.analysis.analyse_record`, the path ``thousand analyse`` takes:

* open cards only (``view_based=False``) on one core;
* from the players' views at ``--samples`` on one core, with a progress bar;
* the same over ``--jobs`` processes (the deals shared out);
* stability: the same game from the views with seeds 1 and 2 — how many decisions are
  marked mistake or blunder in one run and not in the other.

Targets (issue 18): open cards <= 10 s, from the views <= 120 s on one core.  The figures
are printed and written to benchmarks/results/analysis.txt.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from thousand.analysis import analyse_record
from thousand.bots import make_bot
from thousand.engine.game import Game
from thousand.engine.record import game_to_record
from thousand.engine.rules import Rules
from thousand.evaluation.arena import play_game

OUT = Path(__file__).resolve().parent / "results" / "analysis.txt"


def the_game(deals: int, seed: int = 7) -> dict[str, Any]:
    """A classic game of heuristic bots, stopped after ``deals`` deals (or at its end)."""
    g = Game(Rules.preset_rules("classic"), seed=seed)
    bots = [make_bot("heuristic", seed + s) for s in range(3)]
    play_game(g, bots, until=lambda game: len(game.summaries) >= deals)
    record = game_to_record(g)
    record["deals"] = record["deals"][:deals]  # not the next deal, dealt and unplayed
    return record


def _bar(done: int, total: int) -> None:
    width = 40
    filled = width * done // max(total, 1)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")


def _timed(record: dict[str, Any], **kw: Any) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    out = analyse_record(record, **kw)
    return time.perf_counter() - start, out


def _serious(analysis: dict[str, Any]) -> set[tuple[int, int, str]]:
    return {(d["number"], e["index"], e["phase"]) for d in analysis["deals"]
            for e in d["decisions"] if e["mark"] in ("mistake", "blunder")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--samples", type=int, default=48)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    record = the_game(args.deals)
    progress = _bar if sys.stderr.isatty() else None
    t_open, opened = _timed(record, view_based=False)
    t_view, one = _timed(record, samples=args.samples, seed=1, progress=progress)
    unforced = sum(1 for d in one["deals"] for e in d["decisions"] if not e["forced"])
    viewed = sum(1 for d in one["deals"] for e in d["decisions"] if e["view"])
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    t_jobs, par = _timed(record, samples=args.samples, seed=1, jobs=args.jobs)
    assert par == one, "the analysis over processes differs from one process's"
    _, two = _timed(record, samples=args.samples, seed=2)
    a, b = _serious(one), _serious(two)
    lines = [
        f"analysis of a {len(record['deals'])}-deal classic game (heuristic bots, seed 7): "
        f"{unforced} unforced decisions, {viewed} valued from the players' views",
        f"open cards, 1 core:                 {t_open:6.1f} s  (target <= 10 s)",
        f"from the views, {args.samples} samples, 1 core: {t_view:6.1f} s  (target <= 120 s)",
        f"from the views, --jobs {args.jobs}:          {t_jobs:6.1f} s  "
        f"(x{t_view / t_jobs:.2f}; identical result)",
        f"stability, seeds 1 and 2: mistakes/blunders {len(a)} and {len(b)}; "
        f"in one run only: {len(a ^ b)} of {viewed} decisions "
        f"({100 * len(a ^ b) / max(viewed, 1):.1f}%)",
        f"marks with open cards only: {len(_serious(opened))} mistakes/blunders",
    ]
    text = "\n".join(lines)
    print(text)
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(text + "\n")


if __name__ == "__main__":
    main()
