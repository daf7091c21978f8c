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
from .cards import JACK, NINE, Card, Mask, card_str
from .deal import Deal, DealResult, Declaration, Phase, Trick
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


def view_of(deal: Deal, seat: int | None, game: GameInfo | None = None) -> View:
    """Build ``seat``'s view of ``deal``."""
    n = deal.players
    if seat is not None and (type(seat) is not int or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table: seats are 0 to {n - 1}, or None")
    d = deal.declarer
    hand: Mask | None = None
    if seat is not None and (deal.looked >> seat) & 1:
        hand = deal.hands[seat]
    talon = deal.talon if deal.talon_visible_to(seat) else None
    other_talon = (
        deal.unchosen_talon if deal.phase == Phase.DONE and deal.talon_choice >= 0 else None
    )
    cut, talon_known = _cut_seen_by(deal, seat)
    given = tuple(
        (c if seat is not None and (seat in (d, to)) else None, to) for c, to in deal.given
    )
    discards = deal.discards if seat is not None and seat == d else None
    history = []
    n_given = 0
    for m in deal.history:
        if mv.is_give(m):
            to = deal.given[n_given][1]
            n_given += 1
            history.append(mv.move_str(m) if seat is not None and seat in (d, to) else "give ??")
        elif mv.is_discard(m):
            history.append(mv.move_str(m) if seat is not None and seat == d else "discard ??")
        else:
            history.append(mv.move_str(m))
    legal: tuple[Move, ...] = ()
    if seat is not None and seat == deal.to_move and deal.phase != Phase.DONE:
        legal = tuple(deal.legal_moves())
    return View(
        seat=seat,
        rules=deal.rules,
        players=n,
        dealer=deal.ctx.dealer,
        active=deal.active,
        opener=deal.ctx.opener,
        golden=deal.ctx.golden,
        phase=deal.phase,
        to_move=deal.to_move,
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in deal.hands),
        talon=talon,
        talon_choice=deal.talon_choice,
        other_talon=other_talon,
        cut=cut,
        talon_known=talon_known,
        auction=tuple(deal.auction),
        high_bid=deal.high_bid,
        high_bidder=deal.high_bidder,
        passed=tuple(s for s in range(n) if (deal.passed >> s) & 1),
        dark_bidder=deal.dark_bidder,
        dark=deal.dark_standing,
        declarer=d,
        bid=deal.bid,
        contract=deal.contract,
        given=given,
        buys=tuple(deal.buys),
        buy_price=deal.buy_price() if deal.phase == Phase.BUY else None,
        discards=discards,
        trump=deal.trump,
        trump_declarer=deal.trump_declarer,
        trick=tuple(deal.current_trick()),
        tricks=tuple(deal.tricks),
        declarations=tuple(deal.declarations),
        taken=tuple(deal.taken),
        tricks_won=tuple(deal.tricks_won),
        bonus=tuple(deal.bonus),
        aces_duty=deal.aces_in_row,
        declared_suits=deal.declared_suits,
        legal=legal,
        history=tuple(history),
        result=deal.result,
        game=game,
    )


def _cut_seen_by(deal: Deal, seat: int | None) -> tuple[tuple[Card | None, ...], Mask]:
    """What ``seat`` saw at the cut (RULES §4 "The cut"): nines and a jack were shown to
    everyone; any other card only the dealer looked at.  The bottom card lies in the
    talon, so whoever saw it knows one talon card."""
    ctx = deal.ctx
    dealer_sees = seat is not None and seat == ctx.dealer
    cut = tuple(
        c if dealer_sees or c % 6 in (NINE, JACK) else None for c in ctx.cut
    )
    bottom = ctx.cut_talon_card
    known = 1 << bottom if bottom is not None and cut[-1] is not None else 0
    return cut, known


def describe_move(m: Move) -> str:
    """The record notation of a move (re-exported for front ends)."""
    return mv.move_str(m)


__all__ = ["GameInfo", "View", "card_str", "describe_move", "view_of"]
