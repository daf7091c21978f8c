"""The talon choice (two players, RULES §4 "Two players" 3): unseen talons are alike, so
talon 1 unless the cut showed this seat a card of talon 2; then each talon is taken in every
sampled deal, the best quick pair discarded (:mod:`.bids`) and the deal solved, and the
better talon is taken.  The two discards are searched as ``discard_three``'s three."""

from __future__ import annotations

import random

from thousand.engine import moves as mv
from thousand.engine.cards import Mask, card_label, marriage_sum
from thousand.engine.moves import Move
from thousand.engine.view import View

from ..base import Reason
from ..sampling import knowledge
from .bids import BidSearch, _bid_levels, _quick_talon
from .reasons import _of, _pct, _points
from .samples import Samples, _Budget, _constant, first_best
from .stakes import stakes


class TalonChoiceSearch(BidSearch):
    """The talon choice phase."""

    def _talon_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Samples, float, float] | None:
        """Two players (RULES §4 "Two players" 3): each talon's utility per sampled deal
        (the declarer takes it, discards the best of the quick pairs, solved, and declares
        his bid as the auction values it), with the bid's make chance for each.  None when
        nothing tells the talons apart (no card of either seen at the cut): they are then
        alike, and sampling would only pick one by its noise."""
        me = view.seat
        assert me is not None and view.hand is not None
        if not view.talon_known:
            return None
        r = view.rules
        bid = view.bid
        know = knowledge(view)
        opts = self.options(view)
        st = stakes(view, me, self.config.win_bonus)
        cap = r.bid_cap + marriage_sum(view.hand | view.talon_known, r.marriage_values)
        thr = sorted({c + self.bid_margin(view) for c in _bid_levels(view, bid, cap)})
        totals: tuple[list[int], list[int]] = ([], [])
        hands: tuple[list[Mask], list[Mask]] = ([], [])
        while budget.more(len(totals[0])):
            w = know.sample(rng)
            if w is None:
                break
            for k in (0, 1):
                best, kept = self._best_exchange(view, w, me, opts, thr, talon=k)
                totals[k].append(best)
                hands[k].append(kept)
        n = len(totals[0])
        self.last_samples = n
        if not n:
            return None
        (u1, p1), (u2, p2) = (self._bid_samples(view, totals[k], hands[k], bid, st)
                              for k in (0, 1))
        order = list(mv.TALONS)
        if _quick_talon(view, me, view.hand):
            order.reverse()
        return Samples({mv.TALON_1: u1, mv.TALON_2: u2}, [1.0] * n, order=order), p1, p2

    def _talon_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """:meth:`_talon_search`'s utilities (both talons alike: no sampled deal)."""
        found = self._talon_search(view, rng, budget)
        return found[0] if found is not None else _constant(list(mv.TALONS))

    def _talon_choice(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> tuple[Move, Reason]:
        """``talon 1`` or ``talon 2``, chosen unseen: the better of the two over sampled
        deals when the cut showed this seat a card of talon 2, else talon 1."""
        found = self._talon_search(view, rng, budget)
        if found is None:
            return mv.TALON_1, (
                "nothing tells the two talons apart: both are unseen",
                "прикупы ничем не различаются: оба не видны",
            )
        s, p1, p2 = found
        n = len(s.weights)
        means = {m: sum(u) / n for m, u in s.utils.items()}
        move = first_best(s.order, means)
        worth = (means[mv.TALON_1], means[mv.TALON_2])
        return move, _talon_reason(view, move == mv.TALON_2, (p1, p2), worth, n)


def _talon_reason(
    view: View, second: bool, made: tuple[float, float], worth: tuple[float, float], n: int
) -> Reason:
    """Why this talon (``second``: talon 2), as a hint's reason that does not name the move
    (thousand.words.catalogue.ADVICE names it): the card glimpsed at the cut, which lies in
    talon 2, the bid's make chance with each talon (``made``: talon 1's, talon 2's) and
    what the deal is worth on average with each (``worth``)."""
    card = (view.talon_known & -view.talon_known).bit_length() - 1
    en_c, ru_c = card_label(card, "en"), card_label(card, "ru")
    bid = view.bid
    k, o = (1, 0) if second else (0, 1)
    names_en = ("talon 1", "talon 2")
    with_ru = ("с первым", "со вторым")
    en = (f"with {names_en[k]} {bid} is made in {_pct(made[k])} {_of(n)[0]}, with "
          f"{names_en[o]} in {_pct(made[o])} (the deal is worth {_points(worth[k], 'en')} "
          f"against {_points(worth[o], 'en')} on average)")
    ru = (f"{with_ru[k]} {bid} играется в {_pct(made[k])} {_of(n)[1]}, {with_ru[o]} — в "
          f"{_pct(made[o])} (раздача в среднем даёт {_points(worth[k], 'ru')} против "
          f"{_points(worth[o], 'ru')})")
    if second:
        return (f"it holds the {en_c} glimpsed at the cut; {en}",
                f"в нём примеченная при срезе карта {ru_c}; {ru}")
    return (f"talon 2 holds the {en_c} glimpsed at the cut, but {en}",
            f"во втором лежит примеченная при срезе карта {ru_c}, но {ru}")
