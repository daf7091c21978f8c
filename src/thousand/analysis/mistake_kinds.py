"""The kinds of a player's mistakes and the weighted draw of his exercises across games
(docs/analysis.md "Exercises across games").

Every marked decision is of one kind, read from its phase and its moves:

- ``auction``: the bids and passes, dark or look, buying the talon, the contract raised
  after the exchange, a redeal offered (phases ``dark``, ``auction``, ``buy``,
  ``contract``, ``redeal``);
- ``exchange``: the cards given and discarded and the talon chosen (``exchange``,
  ``talon``);
- ``marriage``: in the play, a lead that declared a marriage (``Q♠+``) or one that should
  have (a good move declares, the game's move does not);
- ``play``: every other card played.

The draw weights a kind by what the player's mistakes of that kind cost in all his
analysed games: ``w(k) = S(k) / Σ S(j)``, where ``S(k)`` is the sum of the costs of his
marked decisions of kind ``k`` (so a kind he errs in often, or dearly, comes up more).
One exercise is drawn at a time: a kind with probability proportional to ``w(k)`` among
the kinds that still have an exercise left, then one of that kind's exercises uniformly,
not drawn again in the same draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

__all__ = ["KINDS", "draw", "kind_of", "weights_of"]

#: The kinds in the order the pages show them.
KINDS = ("auction", "exchange", "play", "marriage")

_EXCHANGE_PHASES = frozenset({"exchange", "talon"})

T = TypeVar("T")


def kind_of(phase: str, played: str, good: Iterable[str]) -> str:
    """The kind of a decision of ``phase`` whose game's move was ``played`` and whose good
    moves (the analysis's) are ``good``."""
    if phase in _EXCHANGE_PHASES:
        return "exchange"
    if phase != "play":
        return "auction"
    if played.endswith("+") or any(m.endswith("+") for m in good):
        return "marriage"
    return "play"


def weights_of(costs: Iterable[tuple[str, float]]) -> dict[str, float]:
    """Each kind's share ``w(k)`` of the cost of the mistakes ``(kind, cost)`` (every kind
    of :data:`KINDS`, 0 for a kind without a mistake; all 0 without any)."""
    sums = dict.fromkeys(KINDS, 0.0)
    for kind, cost in costs:
        sums[kind] += max(cost, 0.0)
    total = sum(sums.values())
    return {k: (s / total if total > 0 else 0.0) for k, s in sums.items()}


def draw(pool: Sequence[T], kind: Callable[[T], str], weights: Mapping[str, float],
         n: int, rng: random.Random) -> list[T]:
    """At most ``n`` of ``pool``, each drawn as the module says; a kind of the pool that
    has no weight (its mistakes cost nothing) is drawn only when no weighted one is left."""
    left: dict[str, list[T]] = {}
    for item in pool:
        left.setdefault(kind(item), []).append(item)
    out: list[T] = []
    while left and len(out) < n:
        kinds = sorted(left, key=KINDS.index)
        shares = [weights.get(k, 0.0) for k in kinds]
        if not any(s > 0 for s in shares):
            shares = [1.0] * len(kinds)
        k = rng.choices(kinds, weights=shares)[0]
        items = left[k]
        out.append(items.pop(rng.randrange(len(items))))
        if not items:
            del left[k]
    return out
