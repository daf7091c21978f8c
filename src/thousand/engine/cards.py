"""Cards, their notation and hand bitmasks.

A card is an ``int`` from 0 to 23: ``suit * 6 + rank``.  Suits are ordered
spades, clubs, diamonds, hearts (``S C D H``, the order of the classic marriage
values) and ranks from low to high ``9 J Q K T A``.  Because a higher rank has
the higher bit inside its suit, "cards of this suit above that card" is a single
mask operation, which is what the play phase and the solver need most.

A set of cards (a hand, the talon, the cards taken) is an ``int`` bitmask with
bit ``card`` set.  The helpers below convert between masks, lists and the text
notation of RULES §1 (``AH``, ``TS``, ``9C``; ``10`` and the suit symbols are
accepted on input).
"""

from __future__ import annotations

from collections.abc import Iterable

Card = int
Mask = int

SUITS = "SCDH"
RANKS = "9JQKTA"
SUIT_SYMBOLS = "♠♣♦♥"
RU_RANKS = ("9", "В", "Д", "К", "10", "Т")
EN_RANKS = ("9", "J", "Q", "K", "10", "A")

SPADES, CLUBS, DIAMONDS, HEARTS = 0, 1, 2, 3
NINE, JACK, QUEEN, KING, TEN, ACE = 0, 1, 2, 3, 4, 5

RANK_POINTS = (0, 2, 3, 4, 10, 11)
N_CARDS = 24
FULL_DECK: Mask = (1 << N_CARDS) - 1

#: Card points of each card, by card index.
POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % 6] for c in range(N_CARDS))
#: Mask of all six cards of a suit, by suit.
SUIT_MASK: tuple[Mask, ...] = tuple(0b111111 << (6 * s) for s in range(4))
#: Mask of the four cards of a rank, by rank.
RANK_MASK: tuple[Mask, ...] = tuple(sum(1 << (s * 6 + r) for s in range(4)) for r in range(6))
#: For each card, the mask of the cards of its suit that beat it.
HIGHER_IN_SUIT: tuple[Mask, ...] = tuple(
    SUIT_MASK[c // 6] & ~((1 << (c + 1)) - 1) for c in range(N_CARDS)
)
#: Trick-taking strength of each card inside its suit, by ``ten_strength`` (RULES §1):
#: ``high`` is the rank itself (9 J Q K 10 A); ``natural`` puts the ten between the nine
#: and the jack (9 10 J Q K A).  Points never change with it.
STRENGTH: dict[str, tuple[int, ...]] = {
    "high": tuple(c % 6 for c in range(N_CARDS)),
    "natural": tuple((0, 2, 3, 4, 1, 5)[c % 6] for c in range(N_CARDS)),
}
#: For each ``ten_strength``, for each card, the mask of the cards of its suit that beat it.
HIGHER_BY_STRENGTH: dict[str, tuple[Mask, ...]] = {
    name: tuple(
        sum(1 << (6 * (c // 6) + r) for r in range(6) if strength[6 * (c // 6) + r] > strength[c])
        for c in range(N_CARDS)
    )
    for name, strength in STRENGTH.items()
}
#: Mask of K+Q of a suit (a marriage), by suit.
MARRIAGE_MASK: tuple[Mask, ...] = tuple(
    (1 << (s * 6 + KING)) | (1 << (s * 6 + QUEEN)) for s in range(4)
)
#: Mask of Q+J of a suit (a half marriage), by suit.
HALF_MARRIAGE_MASK: tuple[Mask, ...] = tuple(
    (1 << (s * 6 + QUEEN)) | (1 << (s * 6 + JACK)) for s in range(4)
)

# Cards of each 6-bit suit pattern, highest first: iterating a hand is a few
# table look-ups instead of a bit loop.
_PATTERN_RANKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(r for r in range(5, -1, -1) if pattern >> r & 1) for pattern in range(64)
)


def make_card(suit: int, rank: int) -> Card:
    return suit * 6 + rank


#: For each suit, the cards of each 6-bit pattern of that suit, highest first.
_SUIT_PATTERN_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(6 * s + r for r in ranks) for ranks in _PATTERN_RANKS) for s in range(4)
)
_S0, _S1, _S2, _S3 = _SUIT_PATTERN_CARDS


def cards_of(mask: Mask) -> list[Card]:
    """The cards of a mask, suit by suit (spades first), highest rank first."""
    # Unrolled over the four suits: this runs for every legal-move list.
    return [
        *_S0[mask & 63],
        *_S1[(mask >> 6) & 63],
        *_S2[(mask >> 12) & 63],
        *_S3[(mask >> 18) & 63],
    ]


def mask_of(cards: Iterable[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def count(mask: Mask) -> int:
    return mask.bit_count()


#: Card points of each 6-bit suit pattern (bit = rank): the points of a suit's cards in one
#: look-up.  Everything that counts card points (the engine, the solver's tables, the bots)
#: derives from ``RANK_POINTS`` through ``POINTS`` and this table.
PATTERN_POINTS: tuple[int, ...] = tuple(
    sum(RANK_POINTS[r] for r in range(6) if pattern >> r & 1) for pattern in range(64)
)


def points_of(mask: Mask) -> int:
    """Card points of the cards in a mask."""
    pp = PATTERN_POINTS
    return pp[mask & 63] + pp[mask >> 6 & 63] + pp[mask >> 12 & 63] + pp[mask >> 18 & 63]


def round_points(x: int, step: int) -> int:
    """Round to ``step`` as players do: with 5, a remainder of 1–2 goes down and 3–4 up
    (17→15, 18→20); with 10, 1–4 down and 5–9 up; with 1, nothing changes."""
    if step <= 1:
        return x
    r = x % step
    return x - r + (step if r >= (step + 1) // 2 else 0)


def marriage_sum(hand: Mask, values: tuple[int, ...]) -> int:
    """Total value of the marriages (K+Q of one suit) held in ``hand``."""
    total = 0
    for s in range(4):
        m = MARRIAGE_MASK[s]
        if hand & m == m:
            total += values[s]
    return total


class CardError(ValueError):
    """A card written in a way the notation does not allow."""


_RANK_ALIASES = {
    "9": NINE, "J": JACK, "Q": QUEEN, "K": KING, "T": TEN, "10": TEN, "A": ACE,
    "В": JACK, "Д": QUEEN, "К": KING, "Т": ACE,
}
_SUIT_ALIASES = {
    "S": SPADES, "C": CLUBS, "D": DIAMONDS, "H": HEARTS,
    "♠": SPADES, "♣": CLUBS, "♦": DIAMONDS, "♥": HEARTS,
    "♤": SPADES, "♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS,
}


def parse_card(text: str) -> Card:
    """Parse ``AH``, ``10S``, ``T♠``, ``9c`` into a card index.

    Raises :class:`CardError` with the reason when the text is not a card.
    """
    t = text.strip().upper()
    if len(t) < 2:
        raise CardError(f"{text!r} is not a card: write rank and suit, e.g. AH, TS, 9C")
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text not in _RANK_ALIASES:
        raise CardError(f"{text!r} is not a card: unknown rank {rank_text!r} (use 9 J Q K T A)")
    if suit_text not in _SUIT_ALIASES:
        raise CardError(f"{text!r} is not a card: unknown suit {suit_text!r} (use S C D H)")
    return make_card(_SUIT_ALIASES[suit_text], _RANK_ALIASES[rank_text])


def card_str(card: Card) -> str:
    """The record notation of a card: ``AH``, ``TS``."""
    return RANKS[card % 6] + SUITS[card // 6]


def card_label(card: Card, lang: str = "ru") -> str:
    """A card for people: ``Т♥`` in Russian, ``A♥`` in English."""
    ranks = RU_RANKS if lang == "ru" else EN_RANKS
    return ranks[card % 6] + SUIT_SYMBOLS[card // 6]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    return [parse_card(t) for t in texts]


def cards_str(mask: Mask) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]

