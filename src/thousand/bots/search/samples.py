"""What a phase's search hands back and how the bot chooses from it: the decision's budget
(:class:`_Budget`), each candidate's utility per sampled deal (:class:`Samples`) and the
first of the best (:func:`first_best`).  The bot's choice and :mod:`thousand.bots.valuation`'s
report read the same samples, so the analysis values moves as the bot does."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from thousand.engine.moves import Move


@dataclass
class _Budget:
    limit: float | None
    min_samples: int
    max_samples: int
    start: float = field(default_factory=time.perf_counter)

    def more(self, done: int, factor: float = 1.0) -> bool:
        if done < self.min_samples:
            return True
        if done >= self.max_samples:
            return False
        if self.limit is None:
            return True
        return time.perf_counter() - self.start < self.limit * factor

    def left(self) -> float:
        if self.limit is None:
            return math.inf
        return self.limit - (time.perf_counter() - self.start)


@dataclass
class Samples:
    """What a phase's search found: each candidate move's utility in every sampled deal
    (index i is the same deal for every move), one weight per deal, and (in the play) the
    declarer's solved totals behind them.  The bot chooses the highest weighted sum;
    :func:`thousand.bots.valuation.valuate` reports them all."""

    utils: dict[Move, list[float]]
    weights: list[float]
    totals: dict[Move, list[int]] = field(default_factory=dict)
    #: the moves, the bot's choice first among equally good ones (its tie-break)
    order: list[Move] = field(default_factory=list)
    #: the declarer's total in each sampled deal (contract and redeal offer)
    declarer_totals: list[int] = field(default_factory=list)


#: what :func:`first_best` chooses among: moves, or contract numbers (-1 a concede)
_K = TypeVar("_K")


def first_best(order: Sequence[_K], value: dict[_K, float], tol: float = 1e-9) -> _K:
    """The first move of ``order`` whose value is within ``tol`` of the highest: the bot's
    choice and the analysis' best move (:mod:`thousand.bots.valuation`), ``order`` putting
    the preferred of equally good moves first."""
    top = max(value[m] for m in order)
    return next(m for m in order if value[m] >= top - tol)


def _constant(moves: Sequence[Move]) -> Samples:
    """Moves the bot does not sample: no deal, all equal, the first preferred."""
    return Samples({m: [] for m in moves}, [], order=list(moves))
