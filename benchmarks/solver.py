"""Benchmark of the double-dummy solver on random whole deals (run by hand).

Each deal: a shuffled deck, three hands of 8 cards (the talon ignored), the declarer (seat 0)
leads the first trick, no trump, classic options.  For each backend it prints the median and
95th percentile time of an exact solve of the whole deal from the first lead, of a
``makes(pos, 120)`` threshold search, and the nodes searched per second.  The same deals are
then solved with every play option on ("rich") and with ``ten_strength=natural``.

``--preset two`` does the same for the game for two (RULES §4 "Two players"): two hands of 10
cards, 10 tricks of two cards (the four other cards, the discards and the talon not chosen,
are out of the play), under the play options of that preset.

    .venv/bin/python benchmarks/solver.py [--deals N] [--seed S] [--python-deals N]
                                          [--preset classic|two]

A copy of the output goes to benchmarks/results/solver.txt: one section for three hands and
one for two, each run replacing its own.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from thousand.engine.cards import mask_of
from thousand.engine.rules import Rules
from thousand.solver import HAVE_NATIVE, PlayOptions, PlayPosition, Solver

#: Every play option that makes the search harder at once (on top of a preset's).
RICH: dict[str, object] = dict(
    must_overtake=True,
    marriage_on_first_lead=True,
    half_marriage=True,
    ace_marriage=200,
    ace_marriage_trump=True,
    ace_marriage_all_in_row=True,
    four_nines_bonus=200,
    no_lead_own_trump=True,
)

#: The ten between the nine and the jack in taking tricks (RULES §1), other options the preset's.
NATURAL: dict[str, object] = {"ten_strength": "natural"}

#: Cards in each hand at the first lead, by the number of hands.
HAND_SIZE = {3: 8, 2: 10}

RESULTS = Path(__file__).parent / "results" / "solver.txt"


def deals(n: int, seed: int, options: PlayOptions, seats: int = 3) -> list[PlayPosition]:
    """``n`` shuffled deals of ``seats`` hands at the first lead (the cards left over are
    the talon, or with two players the discards and the talon not chosen)."""
    rng = random.Random(seed)
    size = HAND_SIZE[seats]
    out = []
    for _ in range(n):
        deck = list(range(24))
        rng.shuffle(deck)
        hands = tuple(mask_of(deck[i * size:(i + 1) * size]) for i in range(seats))
        out.append(PlayPosition(hands=hands, leader=0, declarer=0, options=options))
    return out


def save(lines: list[str], seats: int) -> None:
    """Write this run's section of the results file, keeping the other number of hands'."""
    sections: dict[int, list[str]] = {}
    if RESULTS.is_file():
        for line in RESULTS.read_text(encoding="utf-8").splitlines():
            if line.startswith("solver benchmark"):
                current = sections.setdefault(2 if "two hands" in line else 3, [])
                current.clear()
            if sections:
                current.append(line)
    sections[seats] = lines
    RESULTS.parent.mkdir(exist_ok=True)
    text = "\n\n".join("\n".join(sections[k]).rstrip() for k in (3, 2) if k in sections)
    RESULTS.write_text(text + "\n", encoding="utf-8")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(
    native: bool,
    positions: list[PlayPosition],
    lines: list[str],
    label: str = "",
    repeat: int = 1,
) -> list[int]:
    """Time each deal ``repeat`` times (table cleared each time) and keep the fastest, which
    filters out the noise of a shared machine."""
    times: list[float] = []
    mtimes: list[float] = []
    nodes = 0
    values: list[int] = []
    s = Solver(native=native)  # one solver, as a bot keeps it; its table cleared per deal
    for pos in positions:
        best = best_m = float("inf")
        for _ in range(repeat):
            s.clear()
            n0 = s.nodes
            t0 = time.perf_counter()
            v = s.solve(pos)
            best = min(best, time.perf_counter() - t0)
            n = s.nodes - n0
            s.clear()
            t0 = time.perf_counter()
            s.makes(pos, 120)
            best_m = min(best_m, time.perf_counter() - t0)
        times.append(best)
        mtimes.append(best_m)
        nodes += n
        values.append(v)
    name = ("C core" if native else "pure Python") + label
    total = sum(times)
    med = statistics.median(times) * 1e3
    lines.append(
        f"{name:21s} {len(positions):5d} deals  solve: median {med:8.2f} ms"
        f"  p95 {pct(times, 0.95) * 1e3:8.2f} ms  max {max(times) * 1e3:8.2f} ms"
        f"  | makes(120): median {statistics.median(mtimes) * 1e3:7.2f} ms"
        f"  p95 {pct(mtimes, 0.95) * 1e3:7.2f} ms"
        f"  | {nodes / len(positions):9.0f} nodes/deal  {nodes / total:10.0f} nodes/s"
    )
    print(lines[-1], flush=True)
    return values


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=1000, help="deals for the C core")
    ap.add_argument("--python-deals", type=int, default=100, help="deals for pure Python")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--repeat", type=int, default=1, help="timings per deal (the fastest kept)")
    ap.add_argument("--preset", default="classic",
                    help="the rules' play options and number of hands (two: the game for two)")
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()
    rules = Rules.preset_rules(args.preset)
    seats = 2 if rules.players == 2 else 3
    base = PlayOptions.of(rules)
    what = "three hands of 8" if seats == 3 else "two hands of 10"
    lines = [
        f"solver benchmark: seed {args.seed}, {what}, whole {HAND_SIZE[seats]}-trick deals, "
        f"declarer leads, no trump, the play options of {args.preset}",
        f"python {sys.version.split()[0]} on {platform.machine()} ({platform.processor() or '?'}),"
        f" one core; native core available: {HAVE_NATIVE}; C times: fastest of {args.repeat}",
    ]
    print("\n".join(lines), flush=True)
    n = max(args.deals, args.python_deals)
    positions = deals(n, args.seed, base, seats)
    py_values = run(False, positions[: args.python_deals], lines)
    if HAVE_NATIVE:
        c_values = run(True, positions[: args.deals], lines, repeat=args.repeat)
        same = c_values[: len(py_values)] == py_values
        lines.append(f"C and Python agree on the {len(py_values)} common deals: {same}")
        print(lines[-1])
        mean = statistics.mean(c_values)
        lines.append(f"mean declarer total over the deals: {mean:.1f}")
        print(lines[-1])
    lines.append(
        "the same deals with every play option on: must_overtake, marriage_on_first_lead, "
        "half_marriage, ace_marriage=200 (trump, all in row), four_nines_bonus=200, "
        "no_lead_own_trump"
    )
    print(lines[-1])
    rich = deals(n, args.seed, PlayOptions.of(rules, **RICH), seats)
    run(False, rich[: max(1, args.python_deals // 5)], lines, " (rich)")
    if HAVE_NATIVE:
        run(True, rich[: args.deals], lines, " (rich)", repeat=args.repeat)
    lines.append("the same deals with ten_strength=natural (9 10 J Q K A)")
    print(lines[-1])
    natural = deals(n, args.seed, PlayOptions.of(rules, **NATURAL), seats)
    run(False, natural[: max(1, args.python_deals // 5)], lines, " (natural)")
    if HAVE_NATIVE:
        run(True, natural[: args.deals], lines, " (natural)", repeat=args.repeat)
    if not args.no_save:
        save(lines, seats)


if __name__ == "__main__":
    main()
