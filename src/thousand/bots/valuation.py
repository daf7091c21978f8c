"""What every candidate move is worth to the seat to move, from its view alone.

The analysis of a finished game (docs/analysis.md) needs more than the search bot's choice:
it needs what each legal move is worth, and how sure that is.  :func:`valuate` runs the
search bot's own search (:mod:`thousand.bots.search`, the same code its ``decide`` runs)
with a fixed number of sampled deals and a seed, and keeps each candidate's utility in
every sampled deal.  The deals are the same for every move (paired), so the difference of
two moves is measured deal by deal and its interval is narrow even when the deals
themselves differ much.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from thousand.engine.deal import Phase
from thousand.engine.moves import Move
from thousand.engine.view import View

from .search import EXPERT, STRONG, Samples, SearchBot, SearchConfig, _Budget, first_best

#: the normal quantile of a two-sided 95% interval
Z95 = 1.96


@dataclass(frozen=True)
class Valuation:
    """What each candidate move is worth to the seat to move, from its view alone.

    ``samples[m][i]`` is move ``m``'s utility in sampled deal ``i`` (the same deal for
    every move); ``weights[i]`` that deal's weight (1.0 unless the expert's inference
    weights).  ``moves`` is ordered so that the first of equally good moves is the one the
    bot plays (its tie-break)."""

    moves: tuple[Move, ...]
    samples: dict[Move, tuple[float, ...]]
    weights: tuple[float, ...]
    #: the seat's expected deal score, less beta x its opponents' mean deal score, plus
    #: the win bonus where a move wins the game (:mod:`thousand.bots.search`)
    unit: str = "points"

    def mean(self, m: Move) -> float:
        """The weighted mean utility of ``m`` (0 with no sampled deal: a forced move)."""
        total = sum(self.weights)
        if not total:
            return 0.0
        return sum(w * u for w, u in zip(self.weights, self.samples[m], strict=True)) / total

    def best(self) -> Move:
        """The move of the highest weighted mean (the first of equals in ``moves``, as the
        bot chooses)."""
        return first_best(self.moves, {m: self.mean(m) for m in self.moves})

    def cost(self, played: Move) -> tuple[float, float, float]:
        """(estimate, low, high): the best move's utility less ``played``'s, by the paired
        differences, with a 95% interval (the normal approximation on the weighted
        differences; a constant difference gives a zero-width interval)."""
        best = self.best()
        if played == best or not self.weights:
            return 0.0, 0.0, 0.0
        diffs = [b - p for b, p in zip(self.samples[best], self.samples[played], strict=True)]
        est, half = _weighted_interval(diffs, self.weights)
        return est, est - half, est + half


def _weighted_interval(xs: Sequence[float], ws: Sequence[float]) -> tuple[float, float]:
    """The weighted mean of ``xs`` and the half-width of its 95% interval: the weighted
    variance over the effective number of deals (Kish's (sum w)^2 / sum w^2), with
    Bessel's correction; one deal alone gives no spread to measure (zero width)."""
    total = sum(ws)
    mean = sum(w * x for w, x in zip(ws, xs, strict=True)) / total
    n_eff = total * total / sum(w * w for w in ws)
    if n_eff <= 1.0 + 1e-9:
        return mean, 0.0
    var = sum(w * (x - mean) ** 2 for w, x in zip(ws, xs, strict=True)) / total
    var *= n_eff / (n_eff - 1)
    return mean, Z95 * math.sqrt(max(0.0, var) / n_eff)


def config_for(level: str, samples: int) -> SearchConfig:
    """The search bot's config of ``level`` with exactly ``samples`` deals per decision
    (no time limit: reproducible), and no halving of the exchange candidates."""
    base = {"strong": STRONG, "expert": EXPERT}.get(level)
    if base is None:
        raise ValueError(f"unknown level {level!r}: strong or expert")
    # every card of an exchange valued, each candidate on every deal (paired)
    return replace(base, time_limit=None, min_samples=samples, max_samples=samples,
                   exchange_halving=False)


def search_bot(level: str = "strong", samples: int = 48, seed: int = 0) -> SearchBot:
    """The bot whose decisions :func:`valuate` values (equal samples and seed)."""
    return SearchBot(seed, config_for(level, samples), level)


Searcher = Callable[[SearchBot, View, random.Random, _Budget], Samples]

#: the phase's search, per phase done; the others raise NotImplementedError
_SEARCHES: dict[Phase, Searcher] = {
    Phase.PLAY: SearchBot._play_samples,
    Phase.CONTRACT: SearchBot._contract_phase,
    Phase.EXCHANGE: SearchBot._exchange_phase,
    Phase.AUCTION: SearchBot._auction_phase,
    Phase.BUY: SearchBot._buy_phase,
    Phase.DARK_CHOICE: SearchBot._dark_phase,
    Phase.REDEAL_OFFER: SearchBot._redeal_phase,
    Phase.TALON_CHOICE: SearchBot._talon_phase,
}


def valuate(view: View, samples: int = 48, seed: int = 0, level: str = "strong") -> Valuation:
    """Value every legal move of ``view.to_move``'s seat (``view`` is that seat's own view)
    by the search bot's sampling with ``samples`` sampled deals (reproducible for a seed):
    the bot of :func:`search_bot` at the same figures plays :meth:`Valuation.best`.  A
    forced move gives that one move and no sampled deal (its cost is zero)."""
    legal = tuple(view.legal)
    if not legal:
        raise ValueError("no legal move: it is not this seat's turn")
    if len(legal) == 1:
        return Valuation(legal, {legal[0]: ()}, ())
    search = _SEARCHES.get(view.phase)
    if search is None:
        raise NotImplementedError(f"valuate: the {view.phase.name} phase is not valued yet")
    bot = search_bot(level, samples, seed)
    rng, budget = bot.search_start(view)
    found = search(bot, view, rng, budget)
    order = tuple(found.order) if found.order else legal
    return Valuation(
        order, {m: tuple(found.utils[m]) for m in order}, tuple(found.weights)
    )
