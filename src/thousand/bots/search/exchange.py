"""The exchange: the cards to give (or discard) are candidates ranked by the heuristic's
``keep_score``; each candidate is solved in the sampled deals and valued by the contract it
leaves the hand (:mod:`.contract`), and the weaker half of the candidates is dropped after
each round of deals (successive halving)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from itertools import combinations

from thousand.engine import moves as mv
from thousand.engine.cards import Mask, card_label, cards_of
from thousand.engine.moves import Move
from thousand.engine.view import View

from ..base import Reason
from ..evaluate import keep_score
from ..heuristic import concede_possible
from ..sampling import World, knowledge
from .contract import ContractSearch
from .hand import _discards_due, _n_discards
from .reasons import _of, _pct, _points
from .samples import Samples, _Budget, first_best
from .stakes import _Stakes, stakes

#: an exchange: the (card, seat) gives and the discarded cards
_Cand = tuple[tuple[tuple[int, int], ...], Mask]


def _rest(hand: Mask, cand: _Cand) -> Mask:
    """The hand kept after the exchange ``cand``."""
    give, disc = cand
    rest = hand & ~disc
    for c, _ in give:
        rest &= ~(1 << c)
    return rest


@dataclass
class _ExchangeFound:
    """The exchange search's result: the candidates, the hands they keep, their solved
    totals, the survivors (best-first after halving) with their utility per deal."""

    cands: list[_Cand]
    rests: list[Mask]
    totals: list[list[int]]
    alive: list[int]
    utils: dict[int, list[float]]
    n: int
    stakes: _Stakes
    may_concede: bool


class ExchangeSearch(ContractSearch):
    """The exchange phase: the gives (or discards), or a weak talon's redeal."""

    def _exchange_cands(self, view: View) -> list[_Cand]:
        """The exchanges to try: every way of giving (or discarding) the cards still to
        go from the ``exchange_cards`` the heuristic's ``keep_score`` values least; without
        halving, also each other card with those (so that every card has a value)."""
        assert view.hand is not None and view.seat is not None
        r = view.rules
        hand = view.hand
        discard_mode = _discards_due(view)
        act = view.active
        i = act.index(view.seat)
        first, second = act[(i + 1) % len(act)], act[(i + 2) % len(act)]
        if discard_mode:
            done = view.discards.bit_count() if view.discards is not None else 0
            k = _n_discards(view) - done
        else:
            k = 2 - len(view.given)
        ranked = sorted(cards_of(hand),
                        key=lambda c: keep_score(hand, c, r.marriage_values, r.ten_strength))
        pool = ranked[: max(k, min(len(ranked), self.config.exchange_cards))]
        combos = list(combinations(pool, k))
        if not self.config.exchange_halving:
            rest = ranked[len(pool):]
            combos += [(x, *more) for x in rest for more in combinations(pool, k - 1)]
        cands: list[_Cand] = []
        for combo in combos:
            if discard_mode:
                m = 0
                for c in combo:
                    m |= 1 << c
                cands.append(((), m))
            elif k == 2:
                cands.append((((combo[0], first), (combo[1], second)), 0))
                cands.append((((combo[1], first), (combo[0], second)), 0))
            else:
                cands.append((((combo[0], second),), 0))
        return cands

    def _exchange_search(
        self, view: View, rng: random.Random, budget: _Budget
    ) -> _ExchangeFound:
        """The exchange candidates solved in the sampled deals (successive halving unless
        ``exchange_halving`` is off), with each survivor's utility per deal."""
        assert view.hand is not None and view.seat is not None
        me = view.seat
        hand = view.hand
        opts = self.options(view)
        cands = self._exchange_cands(view)
        know = knowledge(view)
        st = stakes(view, me, self.config.win_bonus)
        # (decided later, in the contract phase; never in a dark deal)
        may_concede = concede_possible(view, me)
        alive = list(range(len(cands)))
        totals: list[list[int]] = [[] for _ in cands]
        rests = [_rest(hand, cand) for cand in cands]
        thr = [self._thresholds(view, rest, view.bid) for rest in rests]
        halving = self.config.exchange_halving
        worlds: list[World] = []
        batch = 4
        solves = 0
        t0 = time.perf_counter()
        while True:
            if solves and budget.limit is not None:
                # no more worlds than the time left allows for every candidate alive
                per = (time.perf_counter() - t0) / solves
                batch = min(batch, int(budget.left() / max(per * len(alive), 1e-6)))
                if batch < 1:
                    break
            new: list[World] = []
            for _ in range(batch):
                if not budget.more(len(worlds) + len(new)) and worlds:
                    break
                w = know.sample(rng)
                if w is None:
                    break
                new.append(w)
            if not new:
                break
            for k, w in enumerate(new):
                if k and budget.left() < 0:
                    # out of time within the batch (a slow solve: the first batch is
                    # sized before any solve was timed): the worlds solved so far
                    new = new[:k]
                    break
                for ci in alive:
                    give, disc = cands[ci]
                    totals[ci].extend(self._hand_totals(view, [w], give, disc, opts, thr[ci]))
            worlds.extend(new)
            solves += len(new) * len(alive)
            if halving and len(alive) > 1 and len(worlds) >= 8:
                scores = {ci: self._contract_choice(
                    view, totals[ci], rests[ci], view.bid, may_concede, st)[0]
                    for ci in alive}
                alive.sort(key=lambda ci: -scores[ci])
                alive = alive[: max(1, (len(alive) + 1) // 2)]
            batch = min(2 * batch, 32)
            if len(alive) == 1 and not budget.more(len(worlds)):
                break
            if len(alive) == 1 and len(worlds) >= self.config.min_samples * 2:
                break
        utils: dict[int, list[float]] = {}
        for ci in alive:
            by_c = self._contract_samples(view, totals[ci], rests[ci], view.bid, may_concede,
                                          st)
            n = max(1, len(totals[ci]))
            means = {c: sum(u) / n for c, u in by_c.items()}
            utils[ci] = by_c[first_best(list(by_c), means)]
        return _ExchangeFound(cands, rests, totals, alive, utils, len(worlds), st,
                              may_concede)

    def _exchange_phase(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Each give (or discard) move's utility per sampled deal: that of the best
        exchange found that gives this card first (discards: that holds it), on the same
        deals; a weak talon's redeal is worth nothing (0)."""
        return self._exchange_samples(view, self._exchange_search(view, rng, budget))

    def _exchange_samples(self, view: View, f: _ExchangeFound) -> Samples:
        assert view.hand is not None
        r = view.rules
        discard_mode = _discards_due(view)
        n = f.n
        mean = {ci: sum(u) / max(1, n) for ci, u in f.utils.items()}
        best_of: dict[int, int] = {}  # card -> the alive candidate that values it
        for ci in f.alive:
            give, disc = f.cands[ci]
            for c in (cards_of(disc) if discard_mode else [give[0][0]]):
                if c not in best_of or mean[ci] > mean[best_of[c]]:
                    best_of[c] = ci
        rank = {ci: j for j, ci in enumerate(f.alive)}
        hand = view.hand

        def pref(c: int) -> tuple[int, float, int]:
            return (rank[best_of[c]], keep_score(hand, c, r.marriage_values, r.ten_strength), -c)

        word = mv.discard if discard_mode else mv.give
        order = [word(c) for c in sorted(best_of, key=pref)]
        utils = {word(c): f.utils[best_of[c]] for c in best_of}
        if mv.REDEAL in view.legal:
            utils[mv.REDEAL] = [0.0] * n
            order.append(mv.REDEAL)
        return Samples(utils, [1.0] * n, order=order)

    def _exchange(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        f = self._exchange_search(view, rng, budget)
        self.last_samples = f.n
        if not f.n:
            return self.fallback.decide(view)
        s = self._exchange_samples(view, f)
        move = first_best(s.order, {m: sum(u) / f.n for m, u in s.utils.items()})
        best = max(f.alive, key=lambda ci: sum(f.utils[ci]))
        u, c_best, p = self._contract_choice(view, f.totals[best], f.rests[best], view.bid,
                                             f.may_concede, f.stakes)
        target = view.bid if c_best < 0 else c_best
        of_en, of_ru = _of(f.n)
        if move == mv.REDEAL:
            return mv.REDEAL, (
                f"a weak talon: even after the best exchange the deal is worth "
                f"{_points(u, 'en')} on average ({target} is made in {_pct(p)} {of_en})",
                f"слабый прикуп: даже после лучшего сноса раздача в среднем даёт "
                f"{_points(u, 'ru')} ({target} играется в {_pct(p)} {of_ru})",
            )
        plan = _discard_plan(view, move, f.cands[best][1])
        return move, (
            f"{plan[0]}the hand left makes {target} in {_pct(p)} {of_en}",
            f"{plan[1]}с оставшимися картами {target} играется в {_pct(p)} {of_ru}",
        )


def _discard_plan(view: View, move: Move, best: Mask) -> Reason:
    """Two players: the other card the best exchange found discards with ``move`` («вместе
    с 9♣: »), when ``move`` is one of its two and the other is still to go; nothing
    otherwise (the move itself is named by the hint's advice, not by its reason)."""
    if view.players != 2 or not mv.is_discard(move) or not best >> mv.card_of(move) & 1:
        return "", ""
    rest = [c for c in cards_of(best) if c != mv.card_of(move)]
    if not rest:
        return "", ""
    en = " and ".join(card_label(c, "en") for c in rest)
    ru = " и ".join(card_label(c, "ru") for c in rest)
    return f"with {en} next: ", f"вместе с {ru}: "
