"""The card play: every legal card is valued in every sampled deal with
:func:`~thousand.solver.Solver.solve_moves` (the declarer's final total after it);
``expert`` weights the deals by how well the others' last cards fit them
(:mod:`thousand.bots.inference`).  :func:`position`, the solver's position of a view's play,
is also how the analysis solves the record's real hands (:mod:`thousand.analysis`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from thousand.engine import moves as mv
from thousand.engine.cards import ACE, KING, MARRIAGE_MASK, POINTS, QUEEN, card_label, points_of
from thousand.engine.moves import Move
from thousand.engine.view import View
from thousand.solver import PlayOptions, PlayPosition

from ..base import Reason
from ..inference import play_history, play_likelihood
from ..sampling import World, knowledge
from .hand import HandSearch
from .reasons import _of, _pct, _points
from .samples import Samples, _Budget, first_best
from .stakes import stakes


def position(view: View, world: World, options: PlayOptions | None = None) -> PlayPosition:
    """The solver's position of ``view``'s play phase in ``world`` (seat i = active[i]; two
    hands in the game for two, whose unchosen talon is out of the play)."""
    act = view.active
    idx = {s: i for i, s in enumerate(act)}
    d = view.declarer
    leader = view.trick[0][0] if view.trick else view.to_move
    discards = view.discards if view.discards is not None else world.discards
    return PlayPosition(
        hands=tuple(world.hands[s] for s in act),
        leader=idx[leader],
        trick=tuple(c for _, c in view.trick),
        trump=view.trump,
        trump_declarer=idx.get(view.trump_declarer, -1),
        tricks_played=len(view.tricks),
        declarer=idx[d],
        declarer_points=view.taken[d] + view.bonus[d] + points_of(discards),
        options=options if options is not None else PlayOptions.from_rules(view.rules),
        aces_in_row_seat=idx.get(view.aces_duty, -1),
        declared_suits=view.declared_suits,
    )


class PlaySearch(HandSearch):
    """The play phase."""

    def _play(self, view: View, rng: random.Random, budget: _Budget) -> tuple[Move, Reason]:
        legal = list(view.legal)
        s = self._play_samples(view, rng, budget)
        if not any(s.totals.values()):
            return self.fallback.decide(view)
        util = {m: sum(w * u for w, u in zip(s.weights, s.utils[m], strict=True))
                for m in legal}
        best = first_best(s.order, util)
        solved = len(s.totals[best])
        return best, self._play_reason(view, best, legal, util, s.totals, s.weights, solved,
                                       view.seat == view.declarer, 0)

    def _play_samples(self, view: View, rng: random.Random, budget: _Budget) -> Samples:
        """Every legal card's utility in each sampled deal solved (the deals too unlikely
        by the inference weights are drawn but not solved): the choice is their weighted
        sum, and :mod:`thousand.bots.valuation` reads them as they are."""
        me = view.seat
        assert me is not None
        legal = list(view.legal)
        d = view.declarer
        declarer = me == d
        know = knowledge(view)
        opts = self.options(view)
        st = stakes(view, d, self.config.win_bonus)
        contract = view.contract
        beta = self.beta(view)
        n_def = len(view.active) - 1  # the defenders share their points evenly
        margin = 0  # in the play the solver's total is taken as it is
        totals: dict[Move, list[int]] = {m: [] for m in legal}
        utils: dict[Move, list[float]] = {m: [] for m in legal}
        own_bonus = {m: 0.0 for m in legal}
        others = st.others  # the defenders' values doubled (golden; dark with dark_doubles=all)
        bonus = view.bonus[d]  # the declarer's declarations so far (dark_marriages_doubled)
        if not declarer:
            for m in legal:
                if mv.is_declare(m):
                    own_bonus[m] = float(_declaration_value(view, m))
        tau = self.config.play_inference
        history = play_history(view) if tau > 0 else []
        weights: list[float] = []  # of the deals solved, in order
        n = 0
        while budget.more(n):
            w = know.sample(rng)
            if w is None:
                break
            n += 1
            weight = 1.0
            if history:
                weight = play_likelihood(self.solver, view, w, history, opts, tau,
                                         self.config.inference_moves)
                if weight < 0.01:
                    continue  # too unlikely to be worth solving
            pos = position(view, w, opts)
            values = self.solver.solve_moves(pos)
            if any(values.get(m) is None for m in legal):  # pragma: no cover - they agree
                continue
            weights.append(weight)
            for m in legal:
                v = values[m]
                totals[m].append(v)
                made = v >= contract + margin
                dv = st.made(contract, v, bonus) if made else st.failed(contract)
                utils[m].append(_play_utility(declarer, dv, v, others * own_bonus[m], others,
                                              beta, n_def))
        self.last_samples = n
        return Samples(utils, weights, totals, sorted(legal, key=_card_cost))

    def _play_reason(
        self, view: View, best: Move, legal: Sequence[Move], util: dict[Move, float],
        totals: dict[Move, list[int]], weights: Sequence[float], n: int, declarer: bool,
        margin: int,
    ) -> Reason:
        """The figures behind the choice, each deal weighted as in the choice."""
        c = view.contract

        def made_share(vals: Sequence[int]) -> float:
            return _weighted_mean([float(v >= c + margin) for v in vals], weights)

        made = made_share(totals[best])
        mean = _weighted_mean([float(v) for v in totals[best]], weights)
        others = [m for m in legal if m != best]
        alt = max(others, key=lambda m: util[m]) if others else None
        of_en, of_ru = _of(n)
        if declarer:
            en = (f"the contract {c} is made in {_pct(made)} {of_en} "
                  f"(about {_points(mean, 'en')})")
            ru = (f"заказ {c} играется в {_pct(made)} {of_ru} "
                  f"(около {_points(mean, 'ru', about=True)})")
        else:
            only_en, only_ru = ("only ", "лишь ") if made < 0.5 else ("", "")
            en = (f"the declarer makes {c} in {only_en}{_pct(made)} {of_en} "
                  f"(he takes about {_points(mean, 'en')})")
            ru = (f"разыгрывающий добирает {c} {only_ru}в {_pct(made)} {of_ru} "
                  f"(берёт около {_points(mean, 'ru', about=True)})")
        if alt is not None:
            amade = made_share(totals[alt])
            share = amade
            en += f"; the next best, {_move_words(alt, 'en')}: {_pct(share)}"
            ru += f"; следующий по силе ход, {_move_words(alt, 'ru')}: {_pct(share)}"
        return en, ru


def _play_utility(
    declarer: bool, dv: float, v: int, own_bonus: float, others: int, beta: float, n_def: int
) -> float:
    """A card's utility in a solved deal where the declarer ends with ``v`` and his deal is
    worth ``dv``: for the declarer ``dv`` less ``beta`` times the defenders' mean (their
    ``120 − v`` shared among ``n_def``, counted ``others`` times); for a defender his share
    and ``own_bonus`` (his declaration) less ``beta`` times the mean of his opponents (the
    declarer and the other defender, if any).  The constants dropped are the same for
    every card."""
    if declarer:
        return dv + others * beta * v / n_def
    share = -others * v / n_def + own_bonus
    partners = (n_def - 1) * -others * v / n_def
    return share - beta * (dv + partners) / n_def


def _weighted_mean(xs: Sequence[float], weights: Sequence[float]) -> float:
    """The mean of ``xs`` weighted by ``weights`` (0 for no weight)."""
    total = sum(weights[: len(xs)])
    return sum(x * w for x, w in zip(xs, weights, strict=False)) / total if total else 0.0


def _card_cost(m: Move) -> float:
    """Tie-break between equally good moves: keep the valuable cards."""
    c = m % 24
    return POINTS[c] + (0.5 if mv.is_declare(m) else 0) - (10 if mv.is_declare(m) else 0)


def _declaration_value(view: View, m: Move) -> int:
    """What a declaring lead scores for the seat leading it."""
    r = view.rules
    assert view.hand is not None
    c = m % 24
    s, rank = divmod(c, 6)
    if r.marriage_points_declarer_only and view.seat != view.declarer:
        return 0
    if rank == ACE:
        return r.ace_marriage
    if rank == 0:
        return r.four_nines_bonus
    mm = MARRIAGE_MASK[s]
    if rank in (KING, QUEEN) and view.hand & mm == mm:
        return r.marriage_values[s]
    return r.marriage_values[s] // 2


def _move_words(m: Move, lang: str) -> str:
    """A card play for people: «К♥ с марьяжем», "K♥ declaring its marriage"."""
    if mv.is_card_play(m):
        label = card_label(m % 24, lang)
        if mv.is_declare(m):
            label += " с марьяжем" if lang == "ru" else " declaring its marriage"
        return label
    return mv.move_str(m)
