"""Double-dummy solver for the play phase of Тысяча.

Every hand is open.  The declarer maximises his final total (``declarer_points`` plus the card
points he still takes plus what he still declares); the two defenders together minimise it (the
one defender in the game for two: a position with two hands, RULES §4 "Two players").

>>> from thousand.solver import PlayPosition, solve, solve_moves, makes, legal_moves
>>> pos = PlayPosition(hands=(h0, h1, h2), leader=0, declarer=0)      # doctest: +SKIP
>>> solve(pos)            # the exact value: the declarer's final total          # doctest: +SKIP
>>> solve_moves(pos)      # {move: value} for every legal move                   # doctest: +SKIP
>>> makes(pos, 120)       # does he reach 120 with best play (faster than solve) # doctest: +SKIP

Moves are the engine's ints (:mod:`thousand.engine.moves`): a card, or ``24 + card`` for a lead that
declares (``KH+``).  The search runs in a C core when it has been compiled (``_csolver``,
from ``_native/core.c``) and in pure Python otherwise; both give the same answers.  See
docs/solver.md.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

from ..engine.cards import points_of
from ..engine.play_rules import trick_winner
from . import native_options
from .alphabeta import Search, potential, search_for
from .position import (
    CLASSIC,
    DECLARE,
    PlayOptions,
    PlayPosition,
    apply_move,
    legal_moves,
)

try:  # the optional compiled core, built from _native/core.c by setup.py
    from . import _csolver as _native_mod

    HAVE_NATIVE = True
except ImportError:  # pragma: no cover - depends on the build
    _native_mod = None  # type: ignore[assignment]
    HAVE_NATIVE = False


def _stale_build() -> bool:
    """Whether the compiled core was built from other sources than those beside it (an
    edited checkout not rebuilt): then it is not used."""
    digest = native_options.source_hash("thousand.solver._csolver")
    return bool(digest) and digest != getattr(_native_mod, "SOURCE_HASH", "")


if HAVE_NATIVE and _stale_build():  # pragma: no cover - a developer's checkout
    warnings.warn(
        "thousand.solver: the compiled core is older than _native/core.c or options.h; using "
        "pure Python (run `pip install -e .` to rebuild it)",
        RuntimeWarning,
        stacklevel=2,
    )
    HAVE_NATIVE = False

__all__ = [
    "CLASSIC",
    "DECLARE",
    "HAVE_NATIVE",
    "PlayOptions",
    "PlayPosition",
    "Solver",
    "apply_move",
    "legal_moves",
    "makes",
    "solve",
    "solve_moves",
    "trick_winner",
]


class Solver:
    """A solver that keeps its transposition table between calls.

    A table is valid for one set of options, one declarer seat and one number of seats (three,
    or two in the game for two).  The C core keeps one fixed-size table (2**log2_entries
    entries of 24 bytes) for each of the last few such keys; pure Python keeps one dict,
    started afresh for another key and when it grows past ``max_entries``.  ``native=None``
    picks the C core when it is available, ``False`` forces pure Python, ``True`` requires C.
    """

    MAX_CORES = 4

    def __init__(
        self, native: bool | None = None, max_entries: int = 300_000, log2_entries: int = 18
    ) -> None:
        if native and not HAVE_NATIVE:
            raise RuntimeError("the native solver core is not compiled in this installation")
        self.native = HAVE_NATIVE if native is None else native
        self.max_entries = max_entries  # pure Python: entries kept before the table is cleared
        self.log2_entries = log2_entries  # C core: a fixed table of 2**log2_entries entries
        self._search: Search | None = None
        self._handle: Any = None
        self._cores: dict[tuple[PlayOptions, int, int], Any] = {}
        #: what a table is valid for: the options, the declarer's seat, the number of seats
        self._key: tuple[PlayOptions, int, int] | None = None
        self.nodes = 0

    def clear(self) -> None:
        """Forget the transposition table (answers never depend on it, only the speed)."""
        for core in self._cores.values():
            core.clear()
        if self._search is not None:
            self._search = type(self._search)(self._search.opts, self._search.decl)

    # --- the backends -----------------------------------------------------------------------

    def _prepare(self, pos: PlayPosition) -> None:
        key = (pos.options, pos.declarer, pos.seats)
        if self.native:
            if self._handle is None or self._key != key:
                core = self._cores.pop(key, None)
                if core is None:
                    assert _native_mod is not None
                    core = _native_mod.Core(
                        pos.options.native(), pos.declarer, self.log2_entries, pos.seats
                    )
                    while len(self._cores) >= self.MAX_CORES:
                        del self._cores[next(iter(self._cores))]  # the least recently used
                self._cores[key] = core  # now the most recently used
                self._handle = core
                self._key = key
            return
        if self._search is None or self._key != key or len(self._search.tt) > self.max_entries:
            self._search = search_for(pos.options, pos.declarer, pos.seats)
            self._key = key

    def _bound(self, pos: PlayPosition, alpha: int, beta: int) -> int:
        """Fail-soft search of the future gain within (alpha, beta)."""
        nodecl = pos.tricks_played == 0 and not pos.options.marriage_on_first_lead
        aces = pos.aces_in_row_seat
        if not pos.options.ace_marriage_all_in_row or aces != pos.leader:
            aces = -1
        backend = self._handle if self.native else self._search
        assert backend is not None
        v, n = backend.search(
            pos.hands, pos.leader, pos.trick, pos.trump, pos.trump_declarer, aces,
            nodecl, alpha, beta, pos.declared_suits,
        )
        self.nodes += n
        return int(v)

    def _upper(self, pos: PlayPosition) -> int:
        """An upper bound on the future gain."""
        cards = 0
        for h in pos.hands:
            cards |= h
        for c in pos.trick:
            cards |= 1 << c
        return points_of(cards) + potential(pos.hands[pos.declarer], pos.options)

    def _gain(self, pos: PlayPosition) -> int:
        """The exact future gain, by bisection over null-window searches (fail-soft bounds
        narrow the interval faster than halving when they can)."""
        self._prepare(pos)
        lo, hi = 0, self._upper(pos)
        while lo < hi:
            beta = (lo + hi + 1) // 2
            v = self._bound(pos, beta - 1, beta)
            if v < beta:
                hi = v
            else:
                lo = v
        return lo

    # --- the API ----------------------------------------------------------------------------

    def solve(self, pos: PlayPosition) -> int:
        """The declarer's final total with best play by everyone."""
        pos.validate()
        if pos.finished:
            return pos.declarer_points
        return pos.declarer_points + self._gain(pos)

    def makes(self, pos: PlayPosition, target: int) -> bool:
        """Whether the declarer reaches ``target`` (his final total) with best play."""
        pos.validate()
        need = target - pos.declarer_points
        if need <= 0:
            return True
        if pos.finished:
            return False
        self._prepare(pos)
        if need > self._upper(pos):
            return False
        return self._bound(pos, need - 1, need) >= need

    def solve_moves(self, pos: PlayPosition) -> dict[int, int]:
        """The value (declarer's final total) of every legal move."""
        pos.validate()
        out: dict[int, int] = {}
        for m in legal_moves(pos):
            child = apply_move(pos, m)
            out[m] = child.declarer_points if child.finished else child.declarer_points + (
                self._gain(child)
            )
        return out


_local = threading.local()


def _default() -> Solver:
    """The calling thread's solver: its table is kept from one call to the next."""
    solver: Solver | None = getattr(_local, "solver", None)
    if solver is None:
        solver = _local.solver = Solver()
    return solver


def solve(pos: PlayPosition) -> int:
    """The declarer's final total with best play by everyone (exact)."""
    return _default().solve(pos)


def makes(pos: PlayPosition, target: int) -> bool:
    """Whether the declarer reaches ``target`` with best play (a threshold search)."""
    return _default().makes(pos, target)


def solve_moves(pos: PlayPosition) -> dict[int, int]:
    """``{move: value}`` for every legal move of the seat to move."""
    return _default().solve_moves(pos)
