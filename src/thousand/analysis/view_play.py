"""The value of each card from the seat's view alone: the search bots' sampling.

The deals that fit what the seat has seen are drawn by :mod:`thousand.bots.sampling`
(the same knowledge the ``strong`` bot plays with), each is solved with every card open,
and a card's value is its mean over the deals.  The samples are paired — deal *i* is the
same deal for every card — so the difference between two cards is estimated far more
tightly than either value.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from thousand.bots.sampling import knowledge
from thousand.bots.search import position
from thousand.engine.moves import Move
from thousand.engine.view import View
from thousand.solver import PlayOptions, Solver


def play_samples(view: View, samples: int, seed: int,
                 solver: Solver) -> dict[Move, list[float]]:
    """``{card: [declarer's total in sampled deal i]}`` for every legal card."""
    rng = random.Random(seed)
    know = knowledge(view)
    opts = PlayOptions.from_rules(view.rules)
    out: dict[Move, list[float]] = {m: [] for m in view.legal}
    for world in know.samples(rng, samples):
        values = solver.solve_moves(position(view, world, opts))
        if not all(m in values for m in out):  # pragma: no cover - solver and engine agree
            continue
        for m in out:
            out[m].append(float(values[m]))
    return out


def paired_cost(best: Sequence[float], played: Sequence[float],
                sign: int) -> tuple[float, float, float]:
    """(cost, low, high): the mean of ``sign·(best − played)`` over the paired samples
    and its 95% interval (normal approximation)."""
    diffs = [sign * (b - p) for b, p in zip(best, played, strict=True)]
    n = len(diffs)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half
