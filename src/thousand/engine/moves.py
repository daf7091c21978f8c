"""Moves: small ``int`` values with the text notation of RULES §6.

Bots search millions of positions, so a move is an ``int`` at run time (cheap to
compare, hash and store) and this module is the one place that knows the
encoding.  :data:`Move` is a ``NewType`` of ``int``: it costs nothing at run time,
but the type checker tells a move from a card or a bid, so a card becomes a move
only through a constructor (:func:`play`, :func:`plays`, :func:`give` …).
Everything outside the engine's hot path talks about moves through the
constructors, :func:`parse_move` and :func:`move_str`.

=========================  ==================  =====================
move                       text                value
=========================  ==================  =====================
play a card                ``AH``              card (0..23)
play a card and declare    ``KH+``             24 + card
give a card                ``give 9S``         48 + card
discard a card             ``discard 9S``      72 + card
pass                       ``pass``            96
dark (blind 120)           ``dark``            97
redeal                     ``redeal``          98
concede                    ``concede``         99
look at one's cards        ``look``            100 (never recorded)
buy the talon              ``buy``             101
choose one of two talons   ``talon 1``         102 (``talon 2``: 103)
bid N                      ``105``             1000 + N
final contract N           ``contract 120``    100000 + N
=========================  ==================  =====================

``look`` is the choice not to bid dark: it exists so that a seat allowed to
bid dark decides before it sees its hand.  It is implied in a record by any
move other than ``dark`` (see :mod:`thousand.engine.deal`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NewType, cast

from .cards import Card, CardError, Mask, card_str, cards_of, parse_card

Move = NewType("Move", int)

_PLAY = 0
_DECLARE = 24
_GIVE = 48
_DISCARD = 72
PASS = Move(96)
DARK = Move(97)
REDEAL = Move(98)
CONCEDE = Move(99)
LOOK = Move(100)
BUY = Move(101)
#: The two-player declarer's choice of talon, unseen (RULES §4 "Two players" 3).
TALON_1 = Move(102)
TALON_2 = Move(103)
TALONS = (TALON_1, TALON_2)
_BID = 1000
_CONTRACT = 100000
#: Bids and contracts stay below this, so the two ranges of values never meet.
MAX_NUMBER = _CONTRACT - _BID


class MoveError(ValueError):
    """A move written in a way the notation does not allow."""


def play(card: Card, declare: bool = False) -> Move:
    return Move((_DECLARE if declare else _PLAY) + card)


#: The plays (without ``+``) of the cards of a hand mask, in card order.  A play's value is
#: its card, so this is :func:`~thousand.engine.cards.cards_of` itself, typed as moves: the
#: hot path lists the legal cards of every position it visits, and a wrapper would cost
#: a call each time.
plays_of: Callable[[Mask], list[Move]] = cast("Callable[[Mask], list[Move]]", cards_of)


# The constructors the auction and the exchange call for every legal move they list read
# their moves from these tables: ``Move(x)`` is a call at run time (a NewType's), an index
# is not.  Numbers from 1000 on (never a bid in a real game) are made when asked.
_TABLED = 1000
_GIVES = tuple(Move(_GIVE + c) for c in range(24))
_DISCARDS = tuple(Move(_DISCARD + c) for c in range(24))
_BIDS = tuple(Move(_BID + n) for n in range(_TABLED))
_CONTRACTS = tuple(Move(_CONTRACT + n) for n in range(_TABLED))


def give(card: Card) -> Move:
    return _GIVES[card]


def discard(card: Card) -> Move:
    return _DISCARDS[card]


def bid(n: int) -> Move:
    return _BIDS[n] if 0 <= n < _TABLED else Move(_BID + n)


def contract(n: int) -> Move:
    return _CONTRACTS[n] if 0 <= n < _TABLED else Move(_CONTRACT + n)


def is_talon_choice(m: Move) -> bool:
    return m in TALONS


def is_card_play(m: Move) -> bool:
    return 0 <= m < _GIVE


def is_declare(m: Move) -> bool:
    return _DECLARE <= m < _GIVE


def is_give(m: Move) -> bool:
    return _GIVE <= m < _DISCARD


def is_discard(m: Move) -> bool:
    return _DISCARD <= m < PASS


def is_bid(m: Move) -> bool:
    return _BID <= m < _CONTRACT


def is_contract(m: Move) -> bool:
    return m >= _CONTRACT


def card_of(m: Move) -> Card:
    """The card of a play, give or discard move."""
    return m % 24


def value_of(m: Move) -> int:
    """The number of a bid or contract move."""
    return m - (_CONTRACT if m >= _CONTRACT else _BID)


def is_move(m: int) -> bool:
    """Whether an int is the value of some move (legal or not)."""
    if 0 <= m < PASS or m in _WORDS:
        return True
    return _BID <= m < _CONTRACT + MAX_NUMBER


def move_str(m: Move) -> str:
    """The record notation of a move."""
    if not is_move(m):
        raise MoveError(f"{m} is not a move")
    if m < _DECLARE:
        return card_str(m)
    if m < _GIVE:
        return card_str(m - _DECLARE) + "+"
    if m < _DISCARD:
        return "give " + card_str(m - _GIVE)
    if m < PASS:
        return "discard " + card_str(m - _DISCARD)
    if m in _WORDS:
        return _WORDS[m]
    if _BID <= m < _CONTRACT:
        return str(m - _BID)
    if m >= _CONTRACT:
        return f"contract {m - _CONTRACT}"
    raise MoveError(f"{m} is not a move")


_WORDS = {
    PASS: "pass", DARK: "dark", REDEAL: "redeal", CONCEDE: "concede", LOOK: "look", BUY: "buy",
    TALON_1: "talon 1", TALON_2: "talon 2",
}
_BY_WORD = {v: k for k, v in _WORDS.items()}


def _is_number(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also takes "²" and other scripts' digits."""
    return text.isascii() and text.isdigit()


def parse_move(text: str) -> Move:
    """Parse the record notation (``"105"``, ``"pass"``, ``"give 9S"``, ``"KH+"`` …).

    Raises :class:`MoveError` naming what is wrong.
    """
    if not isinstance(text, str):
        raise MoveError(f"{text!r} is not a move: moves are strings")
    t = text.strip()
    low = " ".join(t.lower().split())
    if low in _BY_WORD:
        return _BY_WORD[low]
    word, _, rest = low.partition(" ")
    if word == "talon":
        # two players (RULES §4 "Two players" 3): not a card with a bad rank
        raise MoveError(f"{text!r} is not a move: a talon is 'talon 1' or 'talon 2'")
    try:
        if word == "give":
            return give(parse_card(rest))
        if word == "discard":
            return discard(parse_card(rest))
        if word == "contract":
            number = rest.strip()
            if not _is_number(number):
                raise MoveError(f"{text!r} is not a move: a contract is 'contract N'")
            if len(number) > 6 or int(number) >= MAX_NUMBER:
                raise MoveError(f"{text!r} is not a move: no contract is that high")
            return contract(int(number))
        if _is_number(t):
            if len(t) > 6 or int(t) >= MAX_NUMBER:
                raise MoveError(f"{text!r} is not a move: no bid is that high")
            return bid(int(t))
        if t.endswith("+"):
            return play(parse_card(t[:-1]), declare=True)
        return play(parse_card(t))
    except CardError as e:
        raise MoveError(f"{text!r} is not a move: {e}") from None
