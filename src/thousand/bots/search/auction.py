"""Bids and dark bids: the bot bids while declaring is worth more than defending.  Declaring
is valued as :mod:`.bids` says; defending by a defender's mean deal value (with
``model_pass``, and with two players, by how often the bidder in front makes his bid in the
same deals).  It bids blind when a blind 120 with a random hand is worth more than looking."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from thousand.engine import moves as mv
from thousand.engine.cards import Mask, marriage_sum
from thousand.engine.deal import contract_choices
from thousand.engine.moves import Move
from thousand.engine.view import View

from ..base import Reason
from .bids import BidSearch, ContractMemo, _bid_levels, _raise_target
from .reasons import _of, _pct
from .samples import Samples, _Budget, _constant, first_best
from .stakes import stakes


@dataclass
class _Bids:
    """What the auction's search drew: the declarer's totals and kept hands in each
    sampled deal, their talon groups (None: the bid valued as itself), the lowest bid's
    make chance, the ladder of bids valued for the reason and the contracts valued so far
    (the reason values the ladder from the same deals)."""

    totals: list[int]
    hands: list[Mask]
    groups: list[int] | None
    p_low: float
    ladder: list[int]
    memo: ContractMemo


class AuctionSearch(BidSearch):
    """The auction phase and the dark choice."""

    def _pass_utility(self, view: View, p_other: float | None = None) -> float:
        """What passing is worth: a defender's mean deal value, less half of what the
        others score (the bidder in front: his bid at ``p_other``, the chance that he
        makes it, when it was estimated)."""
        cfg = self.config
        decl = cfg.declarer_value
        if p_other is not None:
            st = stakes(view, view.high_bidder, cfg.win_bonus)
            decl = p_other * st.made(view.high_bid, view.high_bid) + (1 - p_other) * st.failed(
                view.high_bid)
        elif _stuck_opener(view):
            decl = cfg.stuck_opener_value
        u = self._defending(view, decl)
        # Someone about to win the game with the bid he holds: passing lets him.
        hb = view.high_bidder
        if hb >= 0 and hb != view.seat and stakes(view, hb, cfg.win_bonus).wins(view.high_bid):
            u -= self.beta(view) * cfg.win_bonus * 0.6
        return u

    def _auction_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, _Bids] | None:
        """The auction's candidates per sampled deal: each legal bid (declaring at it, or
        at the contract that wins on the barrel; a jump bid at most what the lowest bid is
        worth, which keeps every raise open), passing and a redeal (the value of passing,
        the same in every deal); with the totals and hands behind them, the lowest bid's
        make chance and the ladder of bids valued.  None: no deal could be drawn."""
        me = view.seat
        assert me is not None and view.hand is not None
        legal = view.legal
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        other: list[bool] | None = None
        hb = view.high_bidder
        # (two players: passing makes the opponent the declarer; the fixed pass values
        # were measured with three, so his chance is read from the sampled deals)
        two = view.players == 2
        if (self.config.model_pass or two) and mv.PASS in legal and hb >= 0 and hb != me:
            other = []
        st = stakes(view, me, self.config.win_bonus)
        # The bids worth valuing: the lowest legal one and the next ones this hand may reach
        # in later rounds (with bid_jumps=false only one step is legal at a time).
        cap = view.rules.bid_cap + marriage_sum(view.hand, view.rules.marriage_values)
        ladder = contract_choices(view.rules, bids[0], max(bids[0], cap))[:6]
        levels = _bid_levels(view, bids[0], cap)
        target = _raise_target(view, st, bids[0])
        if target is not None:
            levels.append(target)
        groups: list[int] | None = [] if self.config.raise_credit else None
        totals, hands = self._bid_totals(view, rng, budget, levels, other=other,
                                         groups=groups)
        self.last_samples = len(totals)
        if not totals:
            return None
        n = len(totals)
        p_other = sum(other) / len(other) if other else None
        u_pass = self._pass_utility(view, p_other)
        memo: ContractMemo = {}
        low, p_low = self._bid_samples(view, totals, hands, bids[0], st, groups, memo)
        utils: dict[Move, list[float]] = {mv.bid(bids[0]): low}
        for b in bids[1:]:
            u = self._bid_samples(view, totals, hands, b, st, groups, memo)[0]
            utils[mv.bid(b)] = u if sum(u) < sum(low) else low
        order = [mv.bid(b) for b in bids]
        if mv.PASS in legal:
            utils[mv.PASS] = [u_pass] * n
            order.insert(0, mv.PASS)
            if mv.REDEAL in legal:  # the bot's choice over passing when the hand is weak
                utils[mv.REDEAL] = [u_pass] * n
                order.insert(0, mv.REDEAL)
        elif mv.REDEAL in legal:  # the compulsory first bid is the bot's choice
            utils[mv.REDEAL] = [min(u_pass, sum(low) / n)] * n
            order.append(mv.REDEAL)
        return Samples(utils, [1.0] * n, order=order), _Bids(totals, hands, groups, p_low,
                                                             ladder, memo)

    def _auction_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_auction_search`'s utilities (no bid legal: passing, or a redeal)."""
        if not any(mv.is_bid(m) for m in view.legal):
            return _constant([m for m in (mv.PASS, mv.REDEAL) if m in view.legal])
        found = self._auction_search(view, rng, budget)
        return found[0] if found is not None else _constant(list(view.legal))

    def _auction(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        legal = view.legal
        bids = sorted(mv.value_of(m) for m in legal if mv.is_bid(m))
        if not bids:
            if mv.PASS in legal:
                return mv.PASS, ("no bid is possible", "ставок нет")
            return legal[0], ("", "")
        found = self._auction_search(view, rng, budget)
        if found is None:
            return self.fallback.decide(view)
        s, bids_found = found
        p_low = bids_found.p_low
        n = len(bids_found.totals)
        means = {m: sum(u) / n for m, u in s.utils.items()}
        move = first_best(s.order, means)
        low = bids[0]
        st = stakes(view, view.seat if view.seat is not None else 0, self.config.win_bonus)
        u_pass = means.get(mv.PASS, -math.inf)
        # the highest bid still worth more than passing (for the reason)
        limit = 0
        for b in bids_found.ladder:
            u, _ = self._bid_utility(view, bids_found.totals, bids_found.hands, b, st,
                                     bids_found.groups, bids_found.memo)
            if u > u_pass:
                limit = b
            else:
                break
        if mv.PASS not in legal:
            return mv.bid(low), (
                f"the first bid is compulsory; the hand makes it in {_pct(p_low)} "
                f"{_of(n)[0]}",
                f"первая ставка обязательна; рука играет её в {_pct(p_low)} {_of(n)[1]}",
            )
        if mv.is_bid(move):
            return mv.bid(low), (
                f"the hand makes that in {_pct(p_low)} {_of(n)[0]} "
                f"(worth bidding up to {limit})",
                f"рука играет эту ставку в {_pct(p_low)} {_of(n)[1]} "
                f"(можно торговаться до {limit})",
            )
        return move, (
            f"the hand makes {low} in only {_pct(p_low)} {_of(n)[0]}",
            f"рука играет {low} лишь в {_pct(p_low)} {_of(n)[1]}",
        )

    def _dark_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, float]:
        """A blind 120 (doubled) per sampled deal (how often a random hand with the talon
        makes it) and looking (keeps every choice open: at least the value of passing, the
        same in every deal); and the blind 120's make chance."""
        me = view.seat
        assert me is not None
        # (120 alone, without the raise its ten cards allow: looking is valued at a fixed
        # defender's value, without the bids it leaves open, and crediting the one's raise
        # but not the other's made the bot bid dark on random hands)
        totals, hands = self._bid_totals(view, rng, budget, [120], factor=0.5)
        self.last_samples = n = len(totals)
        st = stakes(view, me, self.config.win_bonus, dark=True)
        u_dark, p = self._bid_samples(view, totals, hands, 120, st)
        smp = Samples({mv.LOOK: [self.config.defender_value] * n, mv.DARK: u_dark},
                      [1.0] * n, order=[mv.LOOK, mv.DARK])
        return smp, p

    def _dark_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_dark_search`'s utilities."""
        return self._dark_search(view, rng, budget)[0]

    def _dark(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        smp, p = self._dark_search(view, rng, budget)
        n = len(smp.weights)
        means = {m: sum(u) / max(1, n) for m, u in smp.utils.items()}
        if n and first_best(smp.order, means) == mv.DARK:
            return mv.DARK, (f"a blind 120 is made in {_pct(p)} {_of(n)[0]}",
                             f"120 втемную играется в {_pct(p)} {_of(n)[1]}")
        return mv.LOOK, (
            f"a blind 120 is made in only {_pct(p)} {_of(n)[0]}",
            f"120 втемную играется лишь в {_pct(p)} {_of(n)[1]}",
        )


def _stuck_opener(view: View) -> bool:
    """Whether the only bid so far is the opener's compulsory 100."""
    bids = [m for _, m in view.auction if mv.is_bid(m) or m == mv.DARK]
    return len(bids) == 1 and bids[0] == mv.bid(100)
