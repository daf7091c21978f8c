"""Marks and accuracy: what a decision's cost says about it.

A decision's *cost* is the value of the best move less the value of the move played, for
the player who moved, in points (docs/analysis.md).  The thresholds are chess's
inaccuracy, mistake and blunder scaled to Тысяча: 10 points is a ten given away or a
5-point rounding step lost twice; 25 is a small marriage or a quarter of a contract; 60
is a big marriage or a contract of 120 turned from made into failed by half.  From the
seat's view a difference counts only when its 95% interval lies above zero: sampling
noise is not a mistake.
"""

from __future__ import annotations

import math

THRESHOLDS: dict[str, float] = {"inaccuracy": 10.0, "mistake": 25.0, "blunder": 60.0}
MARKS = ("inaccuracy", "mistake", "blunder")
#: The cost at which a decision's accuracy falls to 1/e (37%): docs/analysis.md.
ACCURACY_SCALE = 30.0


def mark_of(cost: float, low: float | None = None) -> str | None:
    """The mark of a decision that cost ``cost`` (``low``: the low end of its interval
    when it was estimated by sampling)."""
    if low is not None and low <= 0:
        return None
    out = None
    for name in MARKS:
        if cost >= THRESHOLDS[name]:
            out = name
    return out


def decision_accuracy(cost: float) -> float:
    """100 for the best move, falling with the cost: 100·exp(−cost/30)."""
    return 100.0 * math.exp(-max(0.0, cost) / ACCURACY_SCALE)


def accuracy(costs: list[float]) -> float | None:
    """A player's accuracy in a game: the mean of his unforced decisions' accuracies (one
    decimal), comparable between games of any length; None without a decision."""
    if not costs:
        return None
    return round(sum(decision_accuracy(c) for c in costs) / len(costs), 1)
