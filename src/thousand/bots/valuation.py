"""What every candidate move is worth to the seat to move, from its own view alone.

The analysis of a finished game (issue 18) asks of each decision: how much did the move
played cost against the best one?  The search bot already answers "which move is best" by
sampling the hidden cards and solving each sampled deal (:mod:`thousand.bots.search`);
:func:`valuate` runs the very same code (:meth:`SearchBot.play_samples`) with a fixed
number of sampled deals and keeps each candidate's utility per deal.  The samples are
paired (deal ``i`` is the same for every move), so the cost of a move is a paired
difference, much tighter than the difference of two independent means.

The utility is the bot's: the seat's expected deal score, less ``beta`` (0.5) times its
opponents' mean deal score, plus the win bonus where a move wins the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from thousand import moves as mv
from thousand.deal import Phase
from thousand.moves import Move
from thousand.view import View

from .search import EXPERT, STRONG, SearchBot, SearchConfig, auction_choice, budget_of, stakes

#: the normal quantile of a two-sided 95% interval
_Z95 = 1.96


@dataclass(frozen=True)
class Valuation:
    """What each candidate move is worth to the seat to move, from its view alone."""

    moves: tuple[Move, ...]
    samples: dict[Move, tuple[float, ...]]
    weights: tuple[float, ...]
    unit: str = "points"

    def mean(self, m: Move) -> float:
        """The weighted mean utility of ``m`` over the sampled deals."""
        total = sum(self.weights)
        if not total:
            return 0.0
        return sum(w * u for w, u in zip(self.weights, self.samples[m], strict=True)) / total

    def best(self) -> Move:
        """The move with the highest weighted mean (the first of ``moves`` on a tie: they
        are listed in the bot's order of preference)."""
        return max(self.moves, key=self.mean)

    def cost(self, played: Move) -> tuple[float, float, float]:
        """(estimate, low, high): the best move's utility minus ``played``'s, a paired
        difference over the same sampled deals, with its 95% interval (normal
        approximation on the weighted differences, the effective sample count
        (Σw)²/Σw²)."""
        best = self.best()
        diffs = [b - p for b, p in zip(self.samples[best], self.samples[played], strict=True)]
        ws = self.weights
        total = sum(ws)
        if not total or not diffs:
            return 0.0, 0.0, 0.0
        mean = sum(w * d for w, d in zip(ws, diffs, strict=True)) / total
        var = sum(w * (d - mean) ** 2 for w, d in zip(ws, diffs, strict=True)) / total
        n_eff = total * total / sum(w * w for w in ws)
        half = _Z95 * math.sqrt(var / n_eff) if n_eff > 1 else 0.0
        return mean, mean - half, mean + half


def analysis_bot(samples: int, seed: int, level: str) -> SearchBot:
    """The search bot of ``level`` with exactly ``samples`` sampled deals per decision (no
    time limit, so a decision is reproducible for a seed): the bot whose choice
    :func:`valuate` explains."""
    base: SearchConfig = EXPERT if level == "expert" else STRONG
    config = replace(base, time_limit=None, min_samples=samples, max_samples=samples)
    return SearchBot(seed, config, level)


def valuate(view: View, samples: int = 48, seed: int = 0, level: str = "strong") -> Valuation:
    """Value every legal move of ``view.to_move``'s seat (``view`` is that seat's own
    view) by the search bot's sampling with ``samples`` sampled deals (reproducible for a
    seed).  A forced move (one legal) is returned alone, with no sampling.

    Phases valued so far: PLAY (every card and declaration), AUCTION (bids, pass,
    redeal), DARK_CHOICE (dark, look), CONTRACT (contract N, concede, redeal) and the
    declarer's REDEAL_OFFER (play on or redeal, worth 0), BUY (buy, pass).  The others
    (EXCHANGE, a
    defender's redeal offer, where the bot always redeals unvalued) raise
    NotImplementedError: the caller records no view-based value for them."""
    legal = tuple(view.legal)
    if len(legal) == 1:
        return Valuation(legal, {legal[0]: (0.0,)}, (1.0,))
    bot = analysis_bot(samples, seed, level)
    if view.phase == Phase.PLAY:
        sampled = bot.play_samples(view, bot.decision_rng(view), budget_of(bot.config))
        return Valuation(legal, {m: tuple(sampled.utility[m]) for m in legal},
                         tuple(sampled.weights))
    if view.phase == Phase.AUCTION:
        return _auction(bot, view)
    if view.phase == Phase.DARK_CHOICE:
        per, _, u_look = bot.dark_samples(view, bot.decision_rng(view), budget_of(bot.config))
        if not per:
            raise NotImplementedError("no sampled deal for a dark bid")
        choice = mv.DARK if sum(per) / len(per) > u_look else mv.LOOK
        return _with_constants(legal, {mv.DARK: per}, u_look, first=choice)
    if view.phase == Phase.CONTRACT:
        return _contract(bot, view)
    if view.phase == Phase.BUY and view.buy_price is not None:
        b = bot.buy_values(view, bot.decision_rng(view), budget_of(bot.config))
        if b is not None:
            choice = mv.BUY if sum(b.buy) / len(b.buy) > b.u_pass else mv.PASS
            return _with_constants(legal, {mv.BUY: b.buy}, b.u_pass, first=choice)
    if view.phase == Phase.REDEAL_OFFER and view.seat == view.declarer:
        per, _ = bot.redeal_samples(view, bot.decision_rng(view), budget_of(bot.config))
        if per:
            choice = mv.REDEAL if sum(per) / len(per) < 0 else mv.PASS
            return _with_constants(legal, {mv.PASS: per}, 0.0, first=choice)
    raise NotImplementedError(f"no view-based valuation of the {view.phase.name} phase yet")


def _contract(bot: SearchBot, view: View) -> Valuation:
    """Each contract (and a concede) valued as the bot values them, on its sampled deals;
    a redeal, where legal, scores nothing for anyone (0 in every deal: the bot itself
    does not weigh it in this phase)."""
    assert view.hand is not None
    legal = tuple(view.legal)
    totals, _ = bot.contract_totals(view, bot.decision_rng(view), budget_of(bot.config))
    if not totals:
        raise NotImplementedError("no sampled deal for this contract")
    st = stakes(view, view.declarer, bot.config.win_bonus)
    named = [mv.value_of(m) for m in legal if mv.is_contract(m)]
    per = bot.contract_samples(view, totals, view.hand, view.bid, mv.CONCEDE in legal, st,
                               extra=named)
    by_move: dict[Move, list[float]] = {mv.contract(c): us for c, us in per.items() if c >= 0}
    if -1 in per:
        by_move[mv.CONCEDE] = per[-1]
    choice = bot.decide_among(view)[0]  # the same deals: the choice among the same values
    return _with_constants(legal, {m: by_move[m] for m in legal if m in by_move}, 0.0,
                           first=choice)


def _auction(bot: SearchBot, view: View) -> Valuation:
    """A bid's value is declaring at it (its contract, or the one that wins the game on
    the barrel), on the bot's sampled deals; a jump bid is worth at most the lowest bid in
    each deal (the lowest keeps the higher contract open); passing and a redeal are worth
    the bot's fixed value of passing in every deal."""
    legal = tuple(view.legal)
    a = bot.auction_samples(view, bot.decision_rng(view), budget_of(bot.config))
    if a is None:
        raise NotImplementedError("no sampled deal for this bid")
    low = bot.bid_samples(view, a.totals, a.hands, a.low, a.stakes)[0]
    per: dict[Move, list[float]] = {}
    for m in legal:
        if mv.is_bid(m):
            b = mv.value_of(m)
            own = bot.bid_samples(view, a.totals, a.hands, b, a.stakes)[0]
            per[m] = low if b == a.low else [min(x, y) for x, y in zip(own, low, strict=True)]
    u_low = sum(low) / len(low)
    choice = auction_choice(legal, a.low, u_low, a.u_pass)
    return _with_constants(legal, per, a.u_pass, first=choice)


def _with_constants(
    legal: tuple[Move, ...], per: dict[Move, list[float]], constant: float, first: Move
) -> Valuation:
    """A valuation of the sampled moves ``per``, the other legal moves worth ``constant``
    in every deal; ``first`` (the bot's choice) heads the list, so ties go its way."""
    n = max(len(v) for v in per.values())
    samples = {m: tuple(per[m]) if m in per else (constant,) * n for m in legal}
    order = sorted(legal, key=lambda m: m != first)
    return Valuation(tuple(order), samples, (1.0,) * n)


__all__ = ["Valuation", "analysis_bot", "valuate"]
