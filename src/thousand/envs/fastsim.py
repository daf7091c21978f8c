"""Random legal play of whole deals, fast: simulation for learning code.

:func:`random_deals` plays ``n`` deals with a random player in every seat and returns each
deal's values, declarer and contract (and, with ``record=True``, its moves).  Two paths give
the same deals for the same seed:

* the **fast path**, ``thousand.envs._fastsim``: C, with the card play of the solver's C core
  (``src/thousand/solver/_native/core.c``, compiled into it: the follow rule, what a ``+``
  lead declares and who takes a trick are not written again) and the rest of a deal around
  it (``_native/fastsim.c``); some 20-100 times the engine's deals per second;
* the **reference**, :func:`engine_deal`: the engine itself (:class:`thousand.engine.game.Game`),
  dealt the same cards and asked for the same random choices, one deal at a time.
  ``tests/test_envs.py`` checks that both play every move and score every deal alike.

The random numbers are SplitMix64 (:class:`SplitMix64`): deal ``k`` of seed ``s`` starts
from ``mix(s + mix(k + 1))``; the deck is shuffled by Fisher-Yates (``i`` from 23 down,
``j = next() % (i + 1)``), 7 cards to each seat from the dealer's left and 3 to the talon
(two players: 10 each, then talon 1 and talon 2 of two cards, as
:meth:`thousand.engine.game.Game.random_cards` lays them); seat ``k % players`` deals; each
decision takes ``legal[next() % len(legal)]`` of the engine's legal moves in the engine's
order.

The fast path covers the rules :func:`supports` accepts (a bool; :func:`why_unsupported`
says why not): an allow-list read off the options' declarations, every option that reaches
into a deal at its default or carried by a C field (``classic`` and ``casual`` among the
presets: three players, ``give_one_each``, the talon shown, no dark, golden deals, concede,
buy-out, redeals or cut, ``ten_strength=high``; every other play option); for others, and
where the module cannot be built, :func:`random_deals` plays through the engine.  Two
players (preset ``two``) are among the others: the C deal lays 7, 7, 7 and a talon of 3 and
plays tricks of three, so ``fast=True`` refuses them (:data:`TWO_PLAYERS` says why) and
``fast=False`` (or None) plays them through the engine.

The module is built by setup.py beside the solver's core (an optional extension: where no
compiler was found the install said what to install, and :func:`fast_module` is None with
:data:`build_error` saying why); a build older than its sources is not used.  Its options
cross into C by name: the dict of :func:`thousand.solver.native_options.values` over the one
table of the options (``DEAL`` and ``PLAY``).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from thousand.engine import moves as mv
from thousand.engine.cards import JACK, NINE
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.rules import OPTIONS, Rules, format_value
from thousand.solver import native_options

__all__ = ["TWO_PLAYERS", "DealOutcome", "SplitMix64", "engine_deal", "fast_module",
           "random_deals", "supports"]

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class SplitMix64:
    """The random numbers of both paths (see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int, deal: int) -> None:
        self.state = _mix((seed + _mix(deal + 1)) & _MASK)

    def next(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        return self.next() % n


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """One deal: its values by seat (the deal score before the game's barrel and
    penalties), the declarer, the contract, and its moves (when recorded)."""

    values: tuple[int, ...]
    declarer: int
    contract: int
    moves: tuple[Move, ...] = ()


def supports(rules: Rules) -> bool:
    """Whether the fast path plays ``rules`` (True) or only the engine does (False).

    A plain bool, so that ``if fastsim.supports(rules):`` means what it says;
    :func:`why_unsupported` gives the reason of a False."""
    return why_unsupported(rules) is None


def why_unsupported(rules: Rules) -> str | None:
    """Why the fast path does not play ``rules`` (the engine plays them); None when it
    does.

    An allow-list read off the options' declarations (:data:`thousand.engine.rules.OPTIONS`):
    every option that reaches into a deal (reach ``play`` or ``deal``) must be at its
    default or be carried by a C field the fast path plays; options read between deals only
    (reach ``game``) do not change a deal's outcome.  So a new option is refused here until
    its declaration names its C field."""
    if rules.players == 2:
        return TWO_PLAYERS
    for o in OPTIONS.values():
        if o.reach != "game" and not (o.c is not None and o.c.fast_path) and o.off_default(rules):
            value = format_value(o.name, getattr(rules, o.name))
            return f"{o.name}={value}: the fast path's C code does not play it"
    if (rules.bid_cap + sum(rules.marriage_values) - 100) // rules.bid_step + 2 > 64:
        return "a bid ladder over 62 steps"
    return None


def _options(rules: Rules) -> dict[str, int | tuple[int, ...]]:
    """What the fast path reads of ``rules``, by name."""
    return native_options.values(native_options.DEAL + native_options.PLAY, rules)


#: Why the fast path refuses two players, and what to use instead.
TWO_PLAYERS = (
    "players=2: the fast path's C code deals three hands of 7 and a talon of 3 and plays "
    "tricks of three, not the two-player deal of two talons; play it through the engine "
    "with fast=False (the engine's path plays every ruleset)"
)


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# ------------------------------------------------------------------ the engine's path


def engine_deal(rules: Rules, seed: int, deal: int, record: bool = True) -> DealOutcome:
    """Deal ``deal`` of ``seed`` played through the engine (the reference; any rules: with
    ``cut_nines`` the cut is drawn as :meth:`thousand.engine.game.Game.random_cards` draws it, from
    the same numbers; a redeal has no declarer, -1)."""
    rng = SplitMix64(seed, deal)
    deck = list(range(24))
    for i in range(23, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    cut: list[int] = []
    if rules.cut_nines:
        while True:
            cut.append(rng.below(24))
            if cut[-1] % 6 != NINE or len(cut) == 3:
                break
        if cut[-1] % 6 != JACK:
            deck.remove(cut[-1])
            deck.append(cut[-1])
    n = rules.players
    dealer = deal % n
    game = Game(rules, first_dealer=dealer, seed=0, auto_deal=False)
    size = game.hand_size
    hands = [0] * n
    for k in range(min(n, 3)):  # four players: the dealer sits out
        for c in deck[size * k:size * k + size]:
            hands[(dealer + 1 + k) % n] |= 1 << c
    talon = _mask(deck[size * min(n, 3):])
    # two players: talon 1 the 21st and 22nd cards, talon 2 the last two
    talons = (_mask(deck[20:22]), _mask(deck[22:])) if n == 2 else ()
    game.start_deal(hands, talon, tuple(cut), talons)
    d = game.deal
    assert d is not None
    moves: list[Move] = []
    while not d.done:
        legal = d.legal_moves()
        m = legal[rng.below(len(legal))]
        if record:
            moves.append(m)
        game.apply(m)
    res = d.result
    assert res is not None
    return DealOutcome(tuple(res.values), -1 if res.declarer is None else res.declarer,
                       res.contract or 0, tuple(moves))


# ------------------------------------------------------------------ the fast path

_NAME = "thousand.envs._fastsim"
_module: ModuleType | None = None
_tried = False
#: why the fast path cannot be used (not built, or built from older sources), for the tests
build_error = ""


def _load() -> ModuleType | None:
    global build_error
    try:
        from thousand.envs import _fastsim  # type: ignore[attr-defined]  # built by setup.py
    except ImportError as e:
        build_error = (f"{_NAME} is not built ({e}); install a C compiler and the Python "
                       "headers (e.g. apt-get install gcc python3-dev) and run pip install -e .")
        return None
    digest = native_options.source_hash(_NAME)
    if digest and digest != getattr(_fastsim, "SOURCE_HASH", ""):
        build_error = (f"{_NAME} was built from older sources than fastsim.c, core.c and "
                       "options.h; run pip install -e . to rebuild it")
        return None
    return _fastsim  # type: ignore[no-any-return]


def fast_module() -> ModuleType | None:
    """The compiled fast path, or None where it is not built or stale (:data:`build_error`)."""
    global _module, _tried
    if not _tried:
        _tried = True
        _module = _load()
    return _module


def random_deals(rules: Rules, seed: int, n: int, first: int = 0, record: bool = False,
                 fast: bool | None = None) -> list[DealOutcome]:
    """Deals ``first`` .. ``first + n - 1`` of ``seed``, random legal play in every seat.
    ``fast``: None takes the fast path where it can, True requires it, False plays
    through the engine."""
    module = None if fast is False else fast_module()
    why = why_unsupported(rules)
    if module is None or why is not None:
        if fast:
            raise RuntimeError(f"the fast path cannot play this: {why or build_error}")
        return [engine_deal(rules, seed, first + i, record) for i in range(n)]
    values, decl, contracts, moves = module.play(_options(rules), seed & _MASK, first, n,
                                                 record)
    import array

    v = array.array("i", values)
    c = array.array("i", contracts)
    return [
        DealOutcome((v[3 * i], v[3 * i + 1], v[3 * i + 2]), decl[i], c[i],
                    tuple(moves[i]) if record else ())
        for i in range(n)
    ]


def deals_per_second(rules: Rules, n: int, fast: bool) -> float:
    """Random deals per second of CPU time on one core (benchmarks/envs.py)."""
    import time

    start = time.process_time()
    random_deals(rules, 1, n, fast=fast)
    return n / (time.process_time() - start)


def describe(moves: tuple[Move, ...]) -> str:
    """A deal's moves in notation."""
    return " ".join(mv.move_str(m) for m in moves)
