"""A dense action space: every move of the rules is one index in ``range(n)``, and back.

Learning code wants a fixed set of actions numbered ``0 .. n-1`` and a mask of the legal
ones; the engine's moves (:mod:`thousand.engine.moves`) are sparse ints (a bid of 105 is 1105, a
contract of 120 is 100120).  :class:`ActionSpace` maps between the two.  The size follows
from the ruleset's bounds: every bid and every contract is a multiple of 5 from 100 to the
highest cap a hand can reach, ``bid_cap`` plus all four marriages (RULES §2.2; a bought
talon's price, a dark or golden 120 and the compulsory 100 lie in the same range).

=================  =========================  =========================================
index              move                        notation
=================  =========================  =========================================
0 .. 23            play card ``i``             ``AH``
24 .. 47           play card ``i-24``, declare ``KH+``
48 .. 71           give card ``i-48``          ``give 9S``
72 .. 95           discard card ``i-72``       ``discard 9S``
96                 pass                        ``pass``
97                 dark (blind 120)            ``dark``
98                 redeal                      ``redeal``
99                 concede                     ``concede``
100                look at one's cards         ``look``
101                buy the talon               ``buy``
102 .. 102+B-1     bid ``100 + 5k``            ``105``
102+B .. 102+2B-1  contract ``100 + 5k``       ``contract 120``
102+2B, 102+2B+1   choose talon 1, talon 2     ``talon 1`` (two players only)
=================  =========================  =========================================

``B = (bid_cap + sum(marriage_values) - 100) // 5 + 1``: 61 for ``classic`` (bids 100 to
400), so ``classic`` has 224 actions.  The first 102 indices are the engine's own move
values.  ``ActionSpace(rules, universal=True)`` sizes the space for every ruleset there can
be (``bid_cap`` up to :data:`thousand.engine.rules.MAX_POINTS`, marriages up to
:data:`thousand.engine.rules.MAX_MARRIAGE`: 1264 actions), so that one network serves all
rulesets; the indices below 102 and of every bid or contract they share stay the same.

Two players (RULES §4 "Two players" 3) add the two moves of the declarer's unseen choice of
talon after the contracts, so the space of three and four players is untouched: ``two`` has
226 actions (224 and 225: ``talon 1``, ``talon 2``), the universal one of two players 1266.
(The engine numbers these moves 102 and 103, which here are the lowest bids: they are the
one pair of engine moves that is not its own index.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from thousand.engine import moves as mv
from thousand.engine.moves import Move
from thousand.engine.rules import MAX_MARRIAGE, MAX_POINTS, Rules

__all__ = ["FIRST_BID", "N_WORDS", "ActionSpace", "max_value", "talon_moves"]

#: The engine's moves 0..101 (cards, words) are their own indices.
N_WORDS = mv.BUY + 1
#: The index of the lowest bid (100).
FIRST_BID = N_WORDS
_LOW = 100
_STEP = 5


def talon_moves(rules: Rules | None) -> tuple[Move, ...]:
    """The talon-choice moves a ruleset has: ``talon 1`` and ``talon 2`` with two players,
    none with three or four (nor for ``None``)."""
    return mv.TALONS if rules is not None and rules.players == 2 else ()


def max_value(rules: Rules | None) -> int:
    """The highest bid or contract ``rules`` allow (``None``: of every ruleset)."""
    if rules is None:
        return MAX_POINTS + 4 * MAX_MARRIAGE
    return rules.bid_cap + sum(rules.marriage_values)


class ActionSpace:
    """The dense actions of one ruleset (see the module docstring)."""

    __slots__ = ("_index", "_moves", "bids", "first_talon", "n", "top")

    def __init__(self, rules: Rules | None = None, universal: bool = False) -> None:
        rules = rules if rules is not None else Rules()
        top = max_value(None if universal else rules)
        #: the highest bid or contract value in the space
        self.top = top
        #: how many bid values (and as many contract values) there are
        self.bids = (top - _LOW) // _STEP + 1
        #: the index of ``talon 1`` (two players; ``talon 2`` follows), else -1
        self.first_talon = N_WORDS + 2 * self.bids if talon_moves(rules) else -1
        moves = [Move(i) for i in range(N_WORDS)]  # every card move and every word
        moves += [mv.bid(_LOW + _STEP * k) for k in range(self.bids)]
        moves += [mv.contract(_LOW + _STEP * k) for k in range(self.bids)]
        moves += talon_moves(rules)
        #: ``num_distinct_actions``
        self.n = len(moves)
        self._moves: tuple[Move, ...] = tuple(moves)
        self._index: dict[Move, int] = {m: i for i, m in enumerate(moves)}

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"ActionSpace(n={self.n}, bids 100..{self.top})"

    # ------------------------------------------------------------------ mapping

    def index(self, move: Move) -> int:
        """The index of an engine move; ValueError for a move outside the space."""
        if 0 <= move < N_WORDS:
            return move
        if mv.is_bid(move) or mv.is_contract(move):
            value = mv.value_of(move)
            if value % _STEP or not _LOW <= value <= self.top:
                raise ValueError(f"{mv.move_str(move)} is outside this action space "
                                 f"(bids and contracts 100..{self.top} in steps of 5)")
            k = (value - _LOW) // _STEP
            return FIRST_BID + k + (self.bids if mv.is_contract(move) else 0)
        if mv.is_talon_choice(move):
            if self.first_talon < 0:
                raise ValueError(f"{mv.move_str(move)} is outside this action space "
                                 "(a talon is chosen with two players only)")
            return self.first_talon + mv.TALONS.index(move)
        raise ValueError(f"{move!r} is not a move")

    def move(self, index: int) -> Move:
        """The engine move of an index (``0 <= index < n``)."""
        if not 0 <= index < self.n:
            raise ValueError(f"action {index!r} is outside 0..{self.n - 1}")
        return self._moves[index]

    def indices(self, moves: Iterable[Move]) -> list[int]:
        """The indices of several moves (the legal moves: ascending, as the engine lists
        the words after the cards; sorted here)."""
        index = self._index
        try:
            out = [index[m] for m in moves]
        except KeyError:
            out = [self.index(m) for m in moves]  # raises, naming the move
        out.sort()
        return out

    def unsorted_indices(self, moves: Iterable[Move]) -> list[int]:
        """:meth:`indices` in the moves' order (for a mask, where order does not matter)."""
        index = self._index
        try:
            return [index[m] for m in moves]
        except KeyError:
            return [self.index(m) for m in moves]

    def mask(self, moves: Iterable[Move]) -> list[int]:
        """A 0/1 list of length ``n``: 1 at the index of each move."""
        out = [0] * self.n
        for i in self.indices(moves):
            out[i] = 1
        return out

    def describe(self, index: int) -> str:
        """The record notation of an action (``KH+``, ``give 9S``, ``105``)."""
        return mv.move_str(self.move(index))

    def table(self) -> list[tuple[str, str]]:
        """The layout as (index range, meaning) rows: what docs/research.md shows."""
        b0, c0 = FIRST_BID, FIRST_BID + self.bids
        c_end = c0 + self.bids - 1
        rows = [
            ("0-23", "play card i (card = suit * 6 + rank; suits S C D H, ranks 9 J Q K T A)"),
            ("24-47", "play card i-24 and declare (`KH+`)"),
            ("48-71", "give card i-48"),
            ("72-95", "discard card i-72"),
            ("96", "pass"), ("97", "dark"), ("98", "redeal"), ("99", "concede"),
            ("100", "look"), ("101", "buy"),
            (f"{b0}-{c0 - 1}", f"bid 100 + 5*(i-{b0}) (100..{self.top})"),
            (f"{c0}-{c_end}", f"contract 100 + 5*(i-{c0}) (100..{self.top})"),
        ]
        if self.first_talon >= 0:
            t = self.first_talon
            rows.append((f"{t}-{t + 1}", "choose talon 1, talon 2 (two players)"))
        return rows

    @staticmethod
    def words() -> Sequence[str]:
        """The notation of the indices 96..101."""
        return [mv.move_str(Move(m)) for m in range(mv.PASS, N_WORDS)]
