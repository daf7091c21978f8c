"""The rules of the card play as small pure functions on card masks.

This module is the one home of RULES §2 items 5-6, the play options of §4 and §7
``must_overtake``, with the decisions of docs/rules-decisions.md where the text leaves a
choice.  The engine (:mod:`thousand.engine.deal`) plays by these functions; the solver's position
(:mod:`thousand.solver.position`: ``legal_moves``, ``apply_move``, ``trick_winner``) is made
of them; the solver's search (:mod:`thousand.solver.alphabeta` and the C core) keeps faster
versions of its own, which ``tests/test_solver.py`` ties to these on random positions.

Cards and hands are those of :mod:`thousand.engine.cards` (a card ``suit * 6 + rank``, a hand a
24-bit mask).  The ``options`` of a function are any object with the option names of
RULES §4 as attributes (:class:`thousand.engine.rules.Rules`,
:class:`thousand.solver.PlayOptions`); ``ten_strength`` is the option's value (``high``:
9 J Q K 10 A, ``natural``: 9 10 J Q K A), which orders the cards in taking tricks through
the tables :data:`thousand.engine.cards.STRENGTH` and
:data:`thousand.engine.cards.HIGHER_BY_STRENGTH`.

* :func:`follow_cards`: what a player may play to a trick already led;
* :func:`lead_cards`: what the player on lead may lead, plain and with ``+``;
* :func:`declaring_cards` and :func:`declaration`: what a ``+`` lead declares;
* :func:`trick_winner` and :func:`beats`: which card takes the trick;
* :func:`note_voids`: what the plays of a trick show a player does not hold (the rule of
  :func:`follow_cards` read backwards, for bots that infer hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from .cards import (
    ACE,
    HIGHER_BY_STRENGTH,
    JACK,
    KING,
    MARRIAGE_MASK,
    NINE,
    QUEEN,
    RANK_MASK,
    STRENGTH,
    SUIT_MASK,
    Card,
    Mask,
)

__all__ = [
    "DeclarationKind",
    "PlayRules",
    "beats",
    "declaration",
    "declaring_cards",
    "follow_cards",
    "lead_cards",
    "note_voids",
    "strongest",
    "trick_winner",
    "void_suits",
]

#: What a declaring lead declares (``Declaration.kind`` of :mod:`thousand.engine.deal`).
DeclarationKind = Literal["marriage", "half_marriage", "ace_marriage", "four_nines"]

ACES: Mask = RANK_MASK[ACE]
NINES: Mask = RANK_MASK[NINE]


class PlayRules(Protocol):
    """The options of RULES §4 that change the card play (read-only attributes)."""

    @property
    def must_overtake(self) -> bool: ...
    @property
    def marriage_values(self) -> tuple[int, int, int, int]: ...
    @property
    def marriage_on_first_lead(self) -> bool: ...
    @property
    def half_marriage(self) -> bool: ...
    @property
    def ace_marriage(self) -> int: ...
    @property
    def ace_marriage_trump(self) -> bool: ...
    @property
    def ace_marriage_all_in_row(self) -> bool: ...
    @property
    def four_nines_bonus(self) -> int: ...
    @property
    def no_lead_own_trump(self) -> bool: ...
    @property
    def ten_strength(self) -> str: ...


# ---------------------------------------------------------------------- following


def strongest(trick: Sequence[Card], suit: int, ten_strength: str = "high") -> Card:
    """The strongest card of ``suit`` in ``trick`` (by ``ten_strength``), or -1 if none."""
    strength = STRENGTH[ten_strength]
    top = -1
    for c in trick:
        if c // 6 == suit and (top < 0 or strength[c] > strength[top]):
            top = c
    return top


def follow_cards(
    hand: Mask,
    trick: Sequence[Card],
    trump: int,
    must_overtake: bool = False,
    ten_strength: str = "high",
) -> Mask:
    """The cards of ``hand`` that may be played to ``trick`` (led, not complete).

    Follow the suit led; else play a trump if ``trump`` (a suit, or -1) is set and the hand
    holds one; else any card.  With ``must_overtake`` a follower of the led suit must play
    above every card of the led suit already in the trick when he can (no duty to
    overtrump; a ruff earlier in the trick does not lift the duty).
    """
    led = trick[0] // 6
    follow = hand & SUIT_MASK[led]
    if follow:
        if must_overtake:
            top = trick[0]
            if len(trick) > 1:
                top = strongest(trick, led, ten_strength)
            higher = follow & HIGHER_BY_STRENGTH[ten_strength][top]
            if higher:
                return higher
        return follow
    if trump >= 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


# ---------------------------------------------------------------------- leading


# By suit pattern (6 bits, 9 J Q K T A): the cards of that suit that declare when led with
# "+": K and Q of a K+Q; with half_marriage also Q and J of a Q+J (with K+Q+J held, Q+ is
# the full marriage: the queen declares either way).  Index 0 without, 1 with half_marriage.
def _pattern_declaring(pattern: int, half: bool) -> int:
    kq = (1 << KING) | (1 << QUEEN)
    qj = (1 << QUEEN) | (1 << JACK)
    out = kq if pattern & kq == kq else 0
    if half and pattern & qj == qj:
        out |= qj
    return out


_DECLARING: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(_pattern_declaring(p, False) for p in range(64)),
    tuple(_pattern_declaring(p, True) for p in range(64)),
)
#: The cards of a set of suits (a 4-bit mask), by mask.
_SUITS_CARDS: tuple[Mask, ...] = tuple(
    sum(SUIT_MASK[s] for s in range(4) if m >> s & 1) for m in range(16)
)


def declaring_cards(hand: Mask, declared_suits: int, options: PlayRules) -> Mask:
    """The cards of ``hand`` that declare something when led with ``+``.

    A marriage: K or Q of a K+Q held.  A half marriage (``half_marriage``): Q or J of a Q+J
    held.  A suit's queen serves one declaration only, so no marriage and no half marriage
    in a suit of ``declared_suits`` (a mask, bit = suit) (RULES §2.6 decision).  The ace
    marriage (``ace_marriage`` > 0): any ace when all four are held.  Four nines
    (``four_nines_bonus`` > 0): any nine when all four are held.  Whether a declaration may
    be led now is :func:`lead_cards`'s question.
    """
    t = _DECLARING[1 if options.half_marriage else 0]
    out = t[hand & 63] | t[hand >> 6 & 63] << 6 | t[hand >> 12 & 63] << 12 | (
        t[hand >> 18 & 63] << 18
    )
    if declared_suits:
        out &= ~_SUITS_CARDS[declared_suits]
    if options.ace_marriage and hand & ACES == ACES:
        out |= ACES
    if options.four_nines_bonus and hand & NINES == NINES:
        out |= NINES
    return out


def declaration(
    hand: Mask, card: Card, options: PlayRules, declared_suits: int = 0
) -> tuple[DeclarationKind, int, bool] | None:
    """What leading ``card`` with ``+`` from ``hand`` (which holds it) declares:
    ``(kind, value, whether the trump changes to the card's suit)``, or None.

    A marriage is worth ``marriage_values[suit]``, a half marriage half of it (the rules
    refuse odd values); with K+Q+J held the queen declares the full marriage.  The ace
    marriage changes the trump only with ``ace_marriage_trump``; four nines never.  The
    value is what the declarer of the deal scores; ``marriage_points_declarer_only`` (a
    defender's declaration scores nothing) is the scorer's business.
    """
    if not declaring_cards(hand, declared_suits, options) >> card & 1:
        return None
    suit, rank = divmod(card, 6)
    if rank == ACE:
        return "ace_marriage", options.ace_marriage, options.ace_marriage_trump
    if rank == NINE:
        return "four_nines", options.four_nines_bonus, False
    if rank != JACK and hand & MARRIAGE_MASK[suit] == MARRIAGE_MASK[suit]:
        return "marriage", options.marriage_values[suit], True
    return "half_marriage", options.marriage_values[suit] // 2, True


def lead_cards(
    hand: Mask,
    seat: int,
    trump: int,
    trump_declarer: int,
    aces_in_row_seat: int,
    declared_suits: int,
    tricks_played: int,
    options: PlayRules,
) -> tuple[Mask, Mask]:
    """What ``seat``, on lead with ``hand``, may lead: ``(cards, cards he may lead with +)``.

    * ``ace_marriage_all_in_row``: the seat under the duty (``aces_in_row_seat``, -1 for
      none; the duty ends when he loses a trick) leads an ace while he holds one: any ace,
      a trump too (the duty wins over ``no_lead_own_trump``), and declares nothing (he
      cannot hold four aces after his ace marriage).
    * ``no_lead_own_trump``: the declarer of the current trump (``trump_declarer``) may not
      lead a trump unless he holds only trumps.
    * A declaring lead is a lead (the same cards, by the rule above) of a card of
      :func:`declaring_cards`; none on the first lead of the deal (``tricks_played`` 0)
      unless ``marriage_on_first_lead``.
    """
    if aces_in_row_seat == seat and hand & ACES and options.ace_marriage_all_in_row:
        return hand & ACES, 0
    leads = hand
    if trump >= 0 and trump_declarer == seat and options.no_lead_own_trump:
        other = hand & ~SUIT_MASK[trump]
        if other:
            leads = other
    if not tricks_played and not options.marriage_on_first_lead:
        return leads, 0
    return leads, declaring_cards(hand, declared_suits, options) & leads


# ---------------------------------------------------------------------- the trick


def beats(card: Card, best: Card, trump: int, ten_strength: str = "high") -> bool:
    """Whether ``card``, played after ``best`` (the card winning the trick so far), beats it:
    a higher card of the same suit (by ``ten_strength``), or a trump on a card that is not."""
    cs, bs = card // 6, best // 6
    if cs == bs:
        strength = STRENGTH[ten_strength]
        return strength[card] > strength[best]
    return cs == trump


def trick_winner(cards: Sequence[Card], trump: int, ten_strength: str = "high") -> int:
    """The index in ``cards`` (led first) of the card that takes the trick: the strongest
    trump if any was played, else the strongest card of the suit led (by ``ten_strength``).
    The same as the last card of ``cards`` that :func:`beats` every card before it."""
    strength = STRENGTH[ten_strength]
    best = 0
    top = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 6 == top // 6:
            if strength[c] > strength[top]:
                best, top = i, c
        elif c // 6 == trump:
            best, top = i, c
    return best


# ---------------------------------------------------------------------- inference


def note_voids(
    cards: Sequence[tuple[int, Card]],
    trump: int,
    must_overtake: bool,
    exclude: dict[int, Mask],
    ten_strength: str = "high",
) -> None:
    """Add to ``exclude`` (seat -> cards) what the plays of one trick show a seat does not
    hold: ``cards`` are ``(seat, card)`` in play order, led first, and ``trump`` the trump
    they were played under.

    By :func:`follow_cards`: a seat that did not follow has no card of the suit led, nor a
    trump if it did not play one (with a trump set); under ``must_overtake`` a seat that
    followed below the strongest card of the suit led so far has no card above that one.
    """
    led = cards[0][1] // 6
    top = cards[0][1]
    strength = STRENGTH[ten_strength]
    for seat, c in cards[1:]:
        s = c // 6
        if s != led:
            lacks = SUIT_MASK[led]
            if trump >= 0 and s != trump:
                lacks |= SUIT_MASK[trump]
        elif strength[c] < strength[top]:
            if not must_overtake:
                continue
            lacks = HIGHER_BY_STRENGTH[ten_strength][top]
        else:
            top = c
            continue
        exclude[seat] = exclude.get(seat, 0) | lacks


def void_suits(cards: Mask) -> int:
    """The suits (a 4-bit mask, bit = suit) all of whose cards are in ``cards``: for a mask of
    :func:`note_voids`, the suits a seat is known to lack."""
    out = 0
    for s in range(4):
        if cards & SUIT_MASK[s] == SUIT_MASK[s]:
            out |= 1 << s
    return out
