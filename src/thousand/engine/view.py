"""What one seat may see: the single place that decides what is hidden (docs/architecture.md).

Bots, the terminal, the browser and research environments receive a
:class:`View`, never the :class:`~thousand.engine.deal.Deal` itself, so no front end
can leak a hand by accident.  ``view(None)`` is a spectator's view: only what
is public at the table.

Hidden from a seat: the other hands; the talon until it is shown (and for
good when it is not shown: ``talon_shown=not_at_100``, a dark deal with
``dark_talon_shown=false``; the declarer and a sitting-out dealer still see
it); the cards the declarer gives face down (except the one a seat receives);
the declarer's discards; and its own hand while it may still bid dark, or has
bid dark and nobody has outbid it yet.

Two players (RULES §4 "Two players"): both talons are hidden from both until the declarer
chooses one (:attr:`View.talon_choice`); the chosen one is then the talon above, and the
other (:attr:`View.other_talon`) is hidden from everyone until the deal ends, when it is
shown to all.

Known to a seat before the talon is shown: the nines and a jack shown at the cut
(everyone), and the bottom card the dealer saw after the cut, which is a talon card
(the dealer only; a third nine, shown to all, is known to all): :attr:`View.cut`
and :attr:`View.talon_known`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import moves as mv
from .cards import Card, Mask, card_str
from .deal_data import DealResult, Declaration, Phase, Trick
from .moves import Move
from .rules import Rules


@dataclass(frozen=True, slots=True)
class GameInfo:
    """The game around a deal, as everybody at the table knows it."""

    deal_number: int
    scores: tuple[int, ...]
    on_barrel: tuple[bool, ...]
    barrel_deals_left: tuple[int | None, ...]
    bolts: tuple[int, ...]
    concedes: tuple[int, ...]
    falls: tuple[int, ...]
    golden: bool


@dataclass(frozen=True, slots=True)
class View:
    """A seat's view of the current deal (``seat=None`` for a spectator)."""

    seat: int | None
    rules: Rules
    players: int
    dealer: int
    active: tuple[int, ...]
    opener: int
    golden: bool
    phase: Phase
    to_move: int
    hand: Mask | None
    hand_sizes: tuple[int, ...]
    talon: Mask | None
    #: Two players: the talon the declarer chose (0 or 1; -1 before he chooses, and always
    #: with three or four players).
    talon_choice: int
    #: Two players: the talon he did not choose, once the deal has ended (None before:
    #: nobody sees it while the deal is played).
    other_talon: Mask | None
    #: The cards seen at the cut, in order; ``None`` for the one the dealer alone saw.
    cut: tuple[Card | None, ...]
    #: Talon cards this seat knows before the talon is shown (the cut's bottom card).
    talon_known: Mask
    auction: tuple[tuple[int, Move], ...]
    high_bid: int
    high_bidder: int
    passed: tuple[int, ...]
    dark_bidder: int
    dark: bool
    declarer: int
    bid: int
    contract: int
    given: tuple[tuple[Card | None, int], ...]
    #: Talon buy-outs so far: (buyer, price) (RULES §4 talon_buy).
    buys: tuple[tuple[int, int], ...]
    #: What the talon costs the seat asked now, in the buy phase; else None.
    buy_price: int | None
    discards: Mask | None
    trump: int
    trump_declarer: int
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    declarations: tuple[Declaration, ...]
    taken: tuple[int, ...]
    tricks_won: tuple[int, ...]
    bonus: tuple[int, ...]
    #: The seat that must lead its aces (``ace_marriage_all_in_row``: it declared the ace
    #: marriage and has won every trick since), or -1.  Public: the engine's own duty.
    aces_duty: int
    #: The suits (bit ``suit``) whose marriage or half marriage was declared: a second one
    #: in a suit is no declaration.  Public, as the declarations are.
    declared_suits: int
    legal: tuple[Move, ...]
    history: tuple[str, ...]
    result: DealResult | None
    game: GameInfo | None = None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move and self.phase != Phase.DONE

    def played_cards(self) -> Mask:
        m = 0
        for t in self.tricks:
            for _, c in t.cards:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m

    def visible_cards(self) -> Mask:
        """Every card this view reveals, wherever it lies."""
        m = self.played_cards()
        if self.hand is not None:
            m |= self.hand
        if self.talon is not None:
            m |= self.talon
        if self.other_talon is not None:
            m |= self.other_talon
        m |= self.talon_known
        for c in self.cut:
            if c is not None:
                m |= 1 << c
        if self.discards is not None:
            m |= self.discards
        for c, _ in self.given:
            if c is not None:
                m |= 1 << c
        return m


def describe_move(m: Move) -> str:
    """The record notation of a move (re-exported for front ends)."""
    return mv.move_str(m)


__all__ = ["GameInfo", "View", "card_str", "describe_move"]
