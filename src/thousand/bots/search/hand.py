"""What every phase's search shares: the bot's parts (config, solver, fallback), the solver's
options, ``beta``, and the declarer's hand solved from the first lead after his exchange
(threshold searches, far cheaper than exact totals), by which the contract, the exchange
and the bids all value a hand."""

from __future__ import annotations

from collections.abc import Sequence

from thousand.engine.cards import Mask, points_of
from thousand.engine.view import View
from thousand.solver import PlayOptions, PlayPosition, Solver

from ..heuristic import HeuristicBot
from ..sampling import World
from .config import SearchConfig


class HandSearch:
    """The base of the phases' searches (:mod:`.play`, :mod:`.contract`, :mod:`.bids` and the
    phases built on them): the parts :class:`~thousand.bots.search.SearchBot` sets up are
    declared here, so that each phase reads, and type-checks, on its own."""

    config: SearchConfig
    solver: Solver
    #: the heuristic bot, for a decision the search cannot take (no deal could be drawn)
    fallback: HeuristicBot
    #: the solver's options of the last rules seen (:meth:`options`)
    _opts: tuple[object, PlayOptions] | None
    #: the last decision's count of sampled deals (for tests and benchmarks)
    last_samples: int

    def beta(self, view: View) -> float:
        """The weight of the opponents' mean deal value (``beta``, or ``beta_two`` with
        two players)."""
        return self.config.beta_two if view.players == 2 else self.config.beta

    def bid_margin(self, view: View) -> int:
        """The points to spare before a sampled deal counts a bid made in the auction
        (``bid_margin``, or ``bid_margin_two`` with two players)."""
        return self.config.bid_margin_two if view.players == 2 else self.config.bid_margin

    def gap_scale(self, view: View) -> float:
        """The spread of the table's total about the solver's in the auction
        (``gap_scale``, or ``gap_scale_two`` with two players: each fitted by
        ``benchmarks/fit_defence.py``; 0 is the hard margin)."""
        return self.config.gap_scale_two if view.players == 2 else self.config.gap_scale

    def options(self, view: View) -> PlayOptions:
        if self._opts is None or self._opts[0] is not view.rules:
            self._opts = (view.rules, PlayOptions.from_rules(view.rules))
        return self._opts[1]

    def _floor(self, pos: PlayPosition, thresholds: Sequence[int]) -> int:
        """The highest of ``thresholds`` (ascending) the declarer reaches with best play,
        by threshold searches (much cheaper than the exact total); below the lowest, 20
        points under it."""
        out = thresholds[0] - 20
        for t in thresholds:
            if not self.solver.makes(pos, t):
                break
            out = t
        return out

    def _hand_totals(
        self, view: View, worlds: Sequence[World], give: Sequence[tuple[int, int]],
        discard: Mask, opts: PlayOptions, thresholds: Sequence[int],
    ) -> list[int]:
        """Solve each world from the first lead after the declarer gave ``give``
        ((card, seat) pairs) and discarded ``discard`` (the worlds hold the hands before),
        up to ``thresholds`` (see :meth:`_floor`)."""
        d = view.declarer if view.declarer >= 0 else view.seat
        assert d is not None
        return [self._hand_totals_for(view, w, d, give, discard, opts, thresholds)
                for w in worlds]

    def _hand_totals_for(
        self, view: View, w: World, d: int, give: Sequence[tuple[int, int]], discard: Mask,
        opts: PlayOptions, thresholds: Sequence[int],
    ) -> int:
        """:meth:`_hand_totals` of one world ``w`` with ``d`` declaring."""
        return self._floor(self._hand_position(view, w, d, give, discard, opts), thresholds)

    def _hand_position(
        self, view: View, w: World, d: int, give: Sequence[tuple[int, int]], discard: Mask,
        opts: PlayOptions,
    ) -> PlayPosition:
        """The solver's position of world ``w`` at the first lead, ``d`` declaring after he
        gave ``give`` and discarded ``discard`` (``benchmarks/defence_gap.py`` solves it
        exactly, to set the solver's total beside the table's)."""
        act = view.active
        idx = {s: i for i, s in enumerate(act)}
        hands = list(w.hands)
        for c, to in give:
            hands[d] &= ~(1 << c)
            hands[to] |= 1 << c
        hands[d] &= ~discard
        return PlayPosition(
            hands=_open_hands(act, hands),
            leader=idx[d], declarer=idx[d], declarer_points=points_of(discard | w.discards),
            options=opts,
        )


def _discards_due(view: View) -> bool:
    """Whether the declarer discards rather than gives (``discard_three``; two players)."""
    return view.players == 2 or view.rules.exchange == "discard_three"


def _n_discards(view: View) -> int:
    """How many cards the declarer discards: two with two players, else three."""
    return 2 if view.players == 2 else 3


def _open_hands(active: Sequence[int], hands: Sequence[Mask]) -> tuple[int, ...]:
    """The solver's hands (seat i = ``active[i]``; two of them with two players)."""
    return tuple(hands[s] for s in active)
