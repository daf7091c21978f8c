"""The deal values the search weighs: :func:`stakes` of a seat as declarer, made of the
engine's own scoring (tests/test_stakes.py checks them against it) plus the bots' bonus
for winning the game."""

from __future__ import annotations

from dataclasses import dataclass, field

from thousand.engine.deal import declarer_value, others_factor, recorded_change
from thousand.engine.rules import Rules
from thousand.engine.view import View


@dataclass(frozen=True)
class _Stakes:
    """What a contract is worth to the declarer at the table's scores: the engine's deal
    value (:func:`thousand.engine.deal.declarer_value`) as the game records it
    (:func:`thousand.engine.deal.recorded_change`: the barrel), plus the bots' bonus for
    winning the game with it.  Cheap: the search asks it once per sampled deal."""

    rules: Rules
    dark: bool
    golden: bool
    score: int  # the declarer's score now
    on_barrel: bool
    #: whether the bonus for winning applies (no game info: a deal on its own, never won)
    in_game: bool
    win_bonus: float
    #: the defenders' deal values count this many times (2 in a golden deal, and in a dark
    #: one with ``dark_doubles=all``)
    others: int = 1
    #: the values worked out so far (the search asks the same figures in many deals)
    _made: dict[tuple[int, int, int], float] = field(
        default_factory=dict, init=False, repr=False, compare=False)
    _failed: dict[int, float] = field(default_factory=dict, init=False, repr=False,
                                      compare=False)

    @property
    def need(self) -> int:
        """On the barrel: the points that win; 0 otherwise."""
        return self.rules.score_to_win - self.score if self.on_barrel else 0

    def made(self, contract: int, total: int, bonus: int = 0) -> float:
        """A made ``contract`` with the declarer's ``total`` (of it ``bonus`` from his
        declarations: it counts only in a dark deal with ``dark_marriages_doubled=false``)."""
        key = (contract, total, bonus)
        out = self._made.get(key)
        if out is None:
            out = self._made[key] = self._utility(True, declarer_value(
                self.rules, contract, True, total, bonus, self.dark, self.golden))
        return out

    def failed(self, contract: int) -> float:
        out = self._failed.get(contract)
        if out is None:
            out = self._failed[contract] = self._utility(False, declarer_value(
                self.rules, contract, False, 0, 0, self.dark, self.golden))
        return out

    def wins(self, contract: int) -> bool:
        """Whether making ``contract`` (as many points as it) wins the game."""
        value = declarer_value(self.rules, contract, True, contract, 0, self.dark, self.golden)
        return self._won(self._change(True, value))

    def _change(self, made: bool, value: int) -> int:
        return recorded_change(self.rules, self.score, self.on_barrel, True, made, value)

    def _won(self, change: int) -> bool:
        return self.in_game and change > 0 and self.rules.wins(self.score + change)

    def _utility(self, made: bool, value: int) -> float:
        """What the game records of a deal value, with the bonus when that wins."""
        change = self._change(made, value)
        return change + self.win_bonus if self._won(change) else float(change)


def stakes(view: View, seat: int, win_bonus: float, dark: bool | None = None) -> _Stakes:
    """:class:`_Stakes` of ``seat`` as declarer of ``view``'s deal (``dark``: as if the deal
    were, or were not, dark)."""
    r = view.rules
    dark = view.dark if dark is None else dark
    g = view.game
    return _Stakes(
        r, dark, view.golden, g.scores[seat] if g is not None else 0,
        g is not None and g.on_barrel[seat], g is not None, win_bonus,
        others_factor(r, dark, view.golden),
    )
