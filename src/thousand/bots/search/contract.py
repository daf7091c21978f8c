"""The declarer's contract, concede and redeal offer: his totals over fresh samples give the
chance of making each contract; the choice with the best expected deal value wins (a
concede costs what :func:`thousand.engine.deal.concede_values` says; a dark deal is never
conceded).  The exchange (:mod:`.exchange`) values each of its candidates by the same
contract choice."""

from __future__ import annotations

import random
from collections.abc import Sequence

from thousand.engine import moves as mv
from thousand.engine.cards import Mask, marriage_sum
from thousand.engine.deal import Phase, contract_choices
from thousand.engine.moves import Move
from thousand.engine.view import View

from ..base import Reason
from ..heuristic import concede_cost
from ..sampling import World, knowledge
from .hand import HandSearch
from .reasons import _of, _pct
from .samples import Samples, _Budget, first_best
from .stakes import _Stakes, stakes


class ContractSearch(HandSearch):
    """The contract phase and the redeal offer, and the contract choice the exchange's
    candidates are valued by."""

    def _thresholds(self, view: View, hand: Mask, bid: int) -> list[int]:
        """The totals that decide a contract choice: each contract the hand may name,
        with its margin."""
        r = view.rules
        cap = r.bid_cap + marriage_sum(hand, r.marriage_values)
        cfg = self.config
        out = {bid + cfg.margin}
        for c in contract_choices(r, bid, cap)[1:]:
            out.add(c + cfg.margin + cfg.raise_margin)
        return sorted(out)

    def _contract_need(self, c: int, bid: int) -> int:
        """The declarer's total that counts contract ``c`` as made in a sampled deal."""
        return c + self.config.margin + (self.config.raise_margin if c > bid else 0)

    def _contract_samples(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes, contracts: Sequence[int] | None = None,
    ) -> dict[int, list[float]]:
        """Each contract's utility in every sampled deal (``totals``: the declarer's total
        in each), and the concede's (key -1, the same in every deal: the engine's concede
        payment, :func:`thousand.engine.deal.concede_values`, doubled in a golden deal, with the
        concede penalty where this concede incurs it)."""
        r = view.rules
        beta = self.beta(view)
        n_def = len(view.active) - 1
        if contracts is None:
            cap = r.bid_cap + marriage_sum(hand, r.marriage_values)
            contracts = contract_choices(r, bid, cap)
        m_hand = marriage_sum(hand, r.marriage_values)
        opp = [beta * st.others * max(0, 120 + m_hand - v) / n_def for v in totals]
        out: dict[int, list[float]] = {}
        for c in contracts:
            need = self._contract_need(c, bid)
            out[c] = [(st.made(c, v, m_hand) if v >= need else st.failed(c)) - o
                      for v, o in zip(totals, opp, strict=True)]
        if concede:
            seat = view.declarer if view.declarer >= 0 else view.seat
            assert seat is not None
            loss, pay = concede_cost(view, seat, bid, hand)
            out[-1] = [-loss - beta * pay] * len(totals)
        return out

    def _contract_choice(
        self, view: View, totals: Sequence[int], hand: Mask, bid: int, concede: bool,
        st: _Stakes,
    ) -> tuple[float, int, float]:
        """(utility, contract or -1 for a concede, make chance) of the best choice: the
        lowest of equally good contracts, a concede only when it is worth more."""
        samples = self._contract_samples(view, totals, hand, bid, concede, st)
        n = max(1, len(totals))
        means = {c: sum(u) / n for c, u in samples.items()}
        c = first_best(list(samples), means)
        need = self._contract_need(bid if c < 0 else c, bid)
        return means[c], c, sum(1 for v in totals if v >= need) / n

    def _declarer_worlds_totals(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[int], int]:
        know = knowledge(view)
        opts = self.options(view)
        assert view.hand is not None
        bid = view.bid if view.phase == Phase.CONTRACT else view.contract
        thr = self._thresholds(view, view.hand, bid)
        worlds: list[World] = []
        totals: list[int] = []
        while budget.more(len(worlds)):
            w = know.sample(rng)
            if w is None:
                break
            worlds.append(w)
            totals.extend(self._hand_totals(view, [w], (), 0, opts, thr))
        return totals, len(worlds)

    def _contract_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Every legal contract's (and the concede's) utility in each sampled deal."""
        assert view.hand is not None
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        st = stakes(view, view.declarer, self.config.win_bonus)
        concede = mv.CONCEDE in view.legal
        contracts = [mv.value_of(m) for m in view.legal if m != mv.CONCEDE]
        by_c = self._contract_samples(view, totals, view.hand, view.bid, concede, st,
                                      contracts)
        utils = {mv.CONCEDE if c < 0 else mv.contract(c): u for c, u in by_c.items()}
        return Samples(utils, [1.0] * len(totals), order=list(utils),
                       declarer_totals=list(totals))

    def _contract(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        s = self._contract_phase(view, rng, budget)
        totals = s.declarer_totals
        n = len(totals)
        if not totals:
            return self.fallback.decide(view)
        move = first_best(s.order, {m: sum(u) / n for m, u in s.utils.items()})
        c = view.bid if move == mv.CONCEDE else mv.value_of(move)
        need = self._contract_need(c, view.bid)
        p = sum(1 for v in totals if v >= need) / n
        if move == mv.CONCEDE:
            return mv.CONCEDE, (
                f"{view.bid} is made in only {_pct(p)} {_of(n)[0]}: conceding costs less",
                f"{view.bid} играется лишь в {_pct(p)} {_of(n)[1]}: "
                "расписаться дешевле",
            )
        return move, (
            f"made in {_pct(p)} {_of(n)[0]}",
            f"играется в {_pct(p)} {_of(n)[1]}",
        )

    def _redeal_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """The declarer's offer of a redeal (RULES: the opponents may ask for one): playing
        is worth his contract's value in each sampled deal, a redeal nothing (0).  A
        defender is not valued (no sampled deal: both moves equal, the redeal first, as
        the bot always takes it: it takes the contract away from the declarer)."""
        if view.seat != view.declarer:
            return Samples({mv.REDEAL: [], mv.PASS: []}, [], order=[mv.REDEAL, mv.PASS])
        assert view.hand is not None
        totals, n = self._declarer_worlds_totals(view, rng, budget)
        self.last_samples = n
        st = stakes(view, view.declarer, self.config.win_bonus)
        c = view.contract
        need = c + self.config.margin
        own = [st.made(c, v) if v >= need else st.failed(c) for v in totals]
        return Samples({mv.PASS: own, mv.REDEAL: [0.0] * n}, [1.0] * n,
                       order=[mv.PASS, mv.REDEAL], declarer_totals=totals)

    def _redeal_offer(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Move, Reason]:
        if view.seat != view.declarer:
            return mv.REDEAL, ("a redeal takes the contract away from the declarer",
                               "пересдача лишает разыгрывающего заказа")
        s = self._redeal_phase(view, rng, budget)
        n = len(s.weights)
        c = view.contract
        p = sum(1 for v in s.declarer_totals if v >= c + self.config.margin) / max(1, n)
        move = first_best(s.order, {m: sum(u) / max(1, n) for m, u in s.utils.items()})
        if move == mv.REDEAL:
            return mv.REDEAL, (f"{c} is made in only {_pct(p)} {_of(n)[0]}",
                               f"{c} играется лишь в {_pct(p)} {_of(n)[1]}")
        return mv.PASS, (f"{c} is made in {_pct(p)} {_of(n)[0]}",
                         f"{c} играется в {_pct(p)} {_of(n)[1]}")
