"""The talon buy-out (``talon_buy``, RULES §4): the talon is public; in each sampled deal the
seat takes it, gives the cards the heuristic ranks best and the deal is solved at the price
and the raises its marriages allow (:mod:`.bids`); passing is valued by how often the
declarer makes his contract in the same deals.  It buys when buying is worth more."""

from __future__ import annotations

import math
import random

from thousand.engine import moves as mv
from thousand.engine.cards import MARRIAGE_MASK, SUIT_SYMBOLS, Mask, marriage_sum
from thousand.engine.deal import contract_choices
from thousand.engine.moves import Move
from thousand.engine.view import View

from ..base import Reason
from ..sampling import World, knowledge
from .bids import BidSearch, _raise_target
from .reasons import _of, _pct
from .samples import Samples, _Budget, _constant, first_best
from .stakes import stakes


class BuySearch(BidSearch):
    """The buy phase."""

    def _buy_worlds(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[list[int], list[Mask], list[bool]]:
        """In sampled deals: the totals this seat reaches when it buys the talon (takes it,
        gives the cards the heuristic ranks best, the best of ``bid_gives`` solved), the
        hands it keeps, and whether the declarer makes his contract if it passes."""
        me = view.seat
        assert me is not None and view.hand is not None and view.buy_price is not None
        r = view.rules
        d = view.declarer
        talon = view.talon or 0
        know = knowledge(view)
        opts = self.options(view)
        price = view.buy_price
        cap = r.bid_cap + marriage_sum(view.hand | talon, r.marriage_values)
        ladder = contract_choices(r, price, max(price, cap))[:6]
        target = _raise_target(view, stakes(view, me, self.config.win_bonus), price)
        if target is not None:
            ladder.append(target)
        thr = sorted({c + self.bid_margin(view) for c in ladder})
        totals: list[int] = []
        hands: list[Mask] = []
        theirs: list[bool] = []
        while budget.more(len(totals)):
            w = know.sample(rng)
            if w is None:
                break
            # the declarer plays his contract (no further buy assumed)
            theirs.append(self._other_makes(view, w, opts, d, view.contract))
            # this seat buys: the talon moves from the declarer's hand to its own
            bought = World(tuple(
                h | talon if s == me else h & ~talon if s == d else h
                for s, h in enumerate(w.hands)
            ), 0, w.discards)
            best, best_hand = self._best_exchange(view, bought, me, opts, thr)
            totals.append(best)
            hands.append(best_hand)
        return totals, hands, theirs

    def _buy(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        """Talon buy-out (RULES §4): buying is worth the best contract from the price up,
        valued as a bid is; passing, what a defender scores against the declarer's
        contract, made as often as in the same sampled deals."""
        me = view.seat
        price = view.buy_price
        assert me is not None and view.hand is not None
        if price is None:
            return mv.PASS, ("", "")
        found = self._buy_search(view, rng, budget)
        if found is None:
            return self.fallback.decide(view)
        smp, totals, hands, best_c, best_p, p_decl = found
        n = len(totals)
        st = stakes(view, me, self.config.win_bonus)
        p_price = self._bid_utility(view, totals, hands, price, st)[1]
        buy = first_best(smp.order, {m: sum(u) / n for m, u in smp.utils.items()}) == mv.BUY
        new = [s for s in range(4)
               if (view.hand | (view.talon or 0)) & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]
               and view.hand & MARRIAGE_MASK[s] != MARRIAGE_MASK[s]]
        gift_en = gift_ru = ""
        if new:
            names = ", ".join(SUIT_SYMBOLS[s] for s in new)
            gift_en = f"the talon completes the {names} marriage{'s' if len(new) > 1 else ''}; "
            gift_ru = f"прикуп даёт марьяж{'и' if len(new) > 1 else ''} {names}; "
        c = view.contract
        if buy:
            raise_en = raise_ru = ""
            if best_c > price:
                raise_en = f" (worth raising to {best_c}: {_pct(best_p)})"
                raise_ru = f" (можно поднять до {best_c}: {_pct(best_p)})"
            return mv.BUY, (
                f"{gift_en}made in {_pct(p_price)} {_of(n)[0]}"
                f"{raise_en}; the declarer would make his {c} in {_pct(p_decl)}",
                f"{gift_ru}играется в {_pct(p_price)} {_of(n)[1]}"
                f"{raise_ru}; разыгрывающий сыграл бы свои {c} в {_pct(p_decl)}",
            )
        if p_price < 0.5:
            return mv.PASS, (
                f"{gift_en}{price} is made in only {_pct(p_price)} {_of(n)[0]}; "
                f"the declarer makes his {c} in {_pct(p_decl)}",
                f"{gift_ru}{price} играется лишь в {_pct(p_price)} "
                f"{_of(n)[1]}; разыгрывающий играет свои {c} в {_pct(p_decl)}",
            )
        return mv.PASS, (
            f"{gift_en}{price} is made in {_pct(p_price)} {_of(n)[0]}, but "
            f"defending is worth more: the declarer makes his {c} in only {_pct(p_decl)}",
            f"{gift_ru}{price} играется в {_pct(p_price)} {_of(n)[1]}, "
            f"но вистовать выгоднее: разыгрывающий играет свои {c} лишь в {_pct(p_decl)}",
        )

    def _buy_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, list[int], list[Mask], int, float, float] | None:
        """Buying (the best contract from the price up, valued as a bid is) and passing
        (a defender against the declarer's contract, made as often as in the same deals,
        the same in every deal) per sampled deal; with the totals and hands behind them,
        the best contract, its make chance and the declarer's.  None: no deal drawn."""
        me = view.seat
        price = view.buy_price
        assert me is not None and view.hand is not None and price is not None
        r = view.rules
        totals, hands, theirs = self._buy_worlds(view, rng, budget)
        n = len(totals)
        self.last_samples = n
        if not n:
            return None
        st = stakes(view, me, self.config.win_bonus)
        cap = r.bid_cap + marriage_sum(view.hand | (view.talon or 0), r.marriage_values)
        best_u, best_c, best_p = -math.inf, price, 0.0
        best_s: list[float] = []
        for c in contract_choices(r, price, max(price, cap))[:6]:
            u, p = self._bid_samples(view, totals, hands, c, st)
            if sum(u) / n > best_u + 1e-9:
                best_u, best_c, best_p, best_s = sum(u) / n, c, p, u
        p_decl = sum(theirs) / n
        u_pass = self._declarer_pass_utility(view, p_decl)
        smp = Samples({mv.PASS: [u_pass] * n, mv.BUY: best_s}, [1.0] * n,
                      order=[mv.PASS, mv.BUY])
        return smp, totals, hands, best_c, best_p, p_decl

    def _buy_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_buy_search`'s utilities."""
        if view.buy_price is None:
            return _constant([mv.PASS, mv.BUY])
        found = self._buy_search(view, rng, budget)
        return found[0] if found is not None else _constant([mv.PASS, mv.BUY])

    def _declarer_pass_utility(self, view: View, p_decl: float) -> float:
        """What passing on a buy is worth: a defender's mean deal value, less half of what
        the others score (the declarer: his contract, made with chance ``p_decl``, with the
        bonus for winning the game when it would win it)."""
        cfg = self.config
        d = view.declarer
        c = view.contract
        st = stakes(view, d, cfg.win_bonus)
        decl = p_decl * st.made(c, c) + (1 - p_decl) * st.failed(c)
        return self._defending(view, decl)
