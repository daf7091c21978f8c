"""One deal of Тысяча as a state machine: auction, talon, exchange, contract, play, deal score.

The deal knows the rules and what the game told it (who deals, who opens, who
may bid, bid dark or concede); it knows nothing of scores beyond that, of
terminals or of files.  The game (:mod:`thousand.engine.game`) creates one
:class:`Deal` per deal from a :class:`DealContext` and scores its
:class:`DealResult`.

The hot path (``legal_moves``/``apply``/``undo`` in the play phase) works on
bitmask hands and small ints, because bots replay millions of positions.

Phases, in order (RULES §2, §4, §6):

``DARK_CHOICE``
    only when a dark bid is possible: the opener chooses ``dark`` or ``look``
    before he sees his hand.  In a record ``look`` is implied by any other move.
``AUCTION``
    bids, passes, and redeal demands on a player's first turn.
``TALON_CHOICE``
    two players (RULES §4 "Two players"): the declarer chooses ``talon 1`` or ``talon 2``
    without seeing either; the other talon stays face down until the deal ends, when its
    card points count to the defender.
``BUY``
    ``talon_buy``: the talon has been shown to all; each other player in turn, clockwise
    from the declarer, answers ``buy`` or ``pass`` (RULES §4 "Talon buy-out").
``EXCHANGE``
    the declarer has taken the talon; he gives one card to each opponent (or
    discards three; two players: discards two), or demands a redeal for a weak talon
    instead of the first.
``CONTRACT``
    ``contract N`` (N ≥ the bid; a raise is capped by his marriages) or ``concede``.
``REDEAL_OFFER``
    ``redeal_after_exchange``: each player who now may demand a redeal answers
    ``redeal`` or ``pass``, clockwise from the declarer *(decision)*.
``PLAY``
    the tricks.
``DONE``
    :attr:`Deal.result` holds the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from . import moves as mv
from .cards import (
    ACE,
    JACK,
    KING,
    NINE,
    POINTS,
    QUEEN,
    RANK_MASK,
    SUIT_MASK,
    SUITS,
    Card,
    Mask,
    card_str,
    cards_of,
    marriage_sum,
    points_of,
    round_points,
)
from .deal_data import (
    PHASE_NAMES,
    PHASE_TASKS,
    DealResult,
    Declaration,
    Outcome,
    Phase,
    Trick,
)
from .errors import IllegalMove
from .moves import Move
from .play_rules import (
    declaration,
    declaring_cards,
    follow_cards,
    lead_cards,
    strongest,
    trick_winner,
)
from .rules import Rules
from .view import GameInfo, View

#: the deal's names, with its data (deal_data: the phases, a trick, a declaration, a
#: result), which the deal's importers read from here
__all__ = [
    "PHASE_NAMES", "PHASE_TASKS", "Deal", "DealContext", "DealResult", "Declaration",
    "Outcome", "Phase", "Trick", "concede_values", "contract_choices", "contract_made",
    "declarer_value", "half_of", "next_bid", "others_factor", "recorded_change", "score_deal",
    "sitting_dealer_value", "view_of",
]



@dataclass(frozen=True, slots=True)
class DealContext:
    """What the game tells a deal: who sits where and what each seat may do.

    ``hands`` are by seat (a sitting-out dealer's hand is 0); ``opener`` is the
    first bidder, or the player of a golden deal.  ``barred`` seats must pass
    (``min_score_to_bid``); ``concede_allowed`` is by seat (limit, barrel,
    golden); ``dark_allowed`` says whether the player left of the dealer
    (:attr:`dark_seat`) may bid dark in this deal.  ``cut`` lists the bottom cards
    seen at the cut (``cut_nines``).  With two players ``talons`` are talon 1 and talon 2
    (the 21st-22nd and 23rd-24th cards) and ``talon`` is both of them.
    """

    rules: Rules
    dealer: int
    hands: tuple[Mask, ...]
    talon: Mask
    opener: int
    golden: bool = False
    dark_allowed: bool = False
    barred: frozenset[int] = frozenset()
    concede_allowed: tuple[bool, ...] = (True, True, True, True)
    cut: tuple[Card, ...] = ()
    talons: tuple[Mask, ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def active(self) -> tuple[int, ...]:
        """The seats that play this deal, clockwise from the dealer's left."""
        n = self.players
        order = tuple((self.dealer + i) % n for i in range(1, n + 1))
        return order[:3] if n == 4 else order

    @property
    def dark_seat(self) -> int:
        """Who may bid dark: the player left of the dealer, also where the dealer opens
        (RULES §4 dark)."""
        return (self.dealer + 1) % self.players

    @property
    def cut_talon_card(self) -> Card | None:
        """The card left at the bottom of the deck by the cut, hence in the talon; None
        when the cut ended with a jack (the dealer cut again, nobody looked) or there was
        no cut (RULES §4 "The cut")."""
        if not self.cut or self.cut[-1] % 6 == JACK:
            return None
        return self.cut[-1]


class _Snapshot(NamedTuple):
    """The undo record of a move outside the play phase: the whole state before it (lists
    copied), and the lengths of the lists a move only appends to.  Such moves are few in a
    deal, so a full copy is cheaper to get right than a reverse of each one."""

    phase: Phase
    to_move: int
    hands: list[Mask]
    high_bid: int
    high_bidder: int
    passed: int
    acted: int
    dark_bidder: int
    dark_standing: bool
    looked: int
    declarer: int
    bid: int
    contract: int
    n_given: int
    discards: Mask
    offer_queue: tuple[int, ...]
    trick: list[Card]
    leader: int
    trump: int
    trump_declarer: int
    aces_in_row: int
    taken: list[int]
    tricks_won: list[int]
    bonus: list[int]
    n_tricks: int
    n_declarations: int
    redeal_by: int
    result: DealResult | None
    talon_public: bool
    n_auction: int
    declared_suits: int
    n_buys: int
    talon: Mask
    talon_choice: int


#: The undo record of a card played, the hot path's (see :meth:`Deal._undo_play`): to_move,
#: leader, trump, trump_declarer, aces_in_row, declared_suits and the number of
#: declarations before it.  A plain tuple, not a NamedTuple, because building a NamedTuple
#: costs about nine times as much; :class:`_Snapshot` is the other kind, so the record's
#: type says which it is.
_PlayUndo = tuple[int, int, int, int, int, int, int]

_ACES = RANK_MASK[ACE]
_NINES = RANK_MASK[NINE]


def _declaring_moves(cards: Mask) -> list[Move]:
    """The ``+`` leads of a mask of declaring cards in the engine's stable order: marriages
    and half marriages suit by suit (K, Q, J), then the aces, then the nines."""
    return [
        mv.play(c, True)
        for c in (*cards_of(cards & ~(_ACES | _NINES)), *cards_of(cards & _ACES),
                  *cards_of(cards & _NINES))
    ]


class Deal:
    """One deal.  ``legal_moves()`` lists moves; ``apply(move)`` checks and makes one;
    ``undo()`` takes the last one back; ``view(seat)`` is what a seat may see."""

    __slots__ = (
        "_cached_legal",
        "_next",
        "_undo",
        "aces_in_row",
        "acted",
        "active",
        "auction",
        "bid",
        "bonus",
        "buys",
        "contract",
        "ctx",
        "dark_bidder",
        "dark_standing",
        "declarations",
        "declared_suits",
        "declarer",
        "discards",
        "given",
        "hands",
        "high_bid",
        "high_bidder",
        "history",
        "leader",
        "looked",
        "n_tricks",
        "offer_queue",
        "passed",
        "phase",
        "redeal_by",
        "result",
        "rules",
        "taken",
        "talon",
        "talon_choice",
        "talon_public",
        "to_move",
        "trick",
        "trick_size",
        "tricks",
        "tricks_won",
        "trump",
        "trump_declarer",
    )

    def __init__(self, ctx: DealContext) -> None:
        rules = ctx.rules
        self.ctx = ctx
        self.rules = rules
        n = ctx.players
        self.active: tuple[int, ...] = ctx.active
        nxt = [0] * n
        size = len(self.active)
        for i, s in enumerate(self.active):
            nxt[s] = self.active[(i + 1) % size]
        self._next: list[int] = nxt
        #: cards in a trick: one from each seat in the deal
        self.trick_size = size
        self.hands: list[Mask] = list(ctx.hands)
        # Two players: no talon is the declarer's until he chooses one (TALON_CHOICE);
        # ``talon`` is then the chosen one and ``talon_choice`` its index.
        self.talon: Mask = 0 if n == 2 else ctx.talon
        self.talon_choice = -1
        self.talon_public = False
        self.history: list[Move] = []
        self.auction: list[tuple[int, Move]] = []  # (seat, bid/pass/dark/redeal)
        self.high_bid = 0
        self.high_bidder = -1
        self.passed = 0  # mask of seats out of the auction
        self.acted = 0  # mask of seats that have had a turn in the auction
        self.dark_bidder = -1
        self.dark_standing = False
        self.looked = 0  # mask of seats that have looked at their hand
        self.declarer = -1
        self.bid = 0
        self.contract = 0
        self.given: list[tuple[Card, int]] = []
        self.buys: list[tuple[int, int]] = []  # (buyer, price), RULES §4 talon_buy
        self.discards: Mask = 0
        self.offer_queue: tuple[int, ...] = ()
        self.trick: list[Card] = []
        self.leader = -1
        self.trump = -1
        self.trump_declarer = -1
        self.aces_in_row = -1
        self.taken = [0] * n  # card points taken
        self.tricks_won = [0] * n
        self.bonus = [0] * n  # declaration points
        self.tricks: list[Trick] = []
        self.declarations: list[Declaration] = []
        self.declared_suits = 0  # mask of suits whose marriage (or half) was declared
        self.n_tricks = 10 if n == 2 else 7 if rules.exchange == "discard_three" else 8
        self.redeal_by = -1
        self.result: DealResult | None = None
        self._undo: list[_PlayUndo | _Snapshot] = []
        self._cached_legal: list[Move] | None = None
        self.to_move = ctx.opener
        self.phase = Phase.AUCTION
        self.looked = (1 << n) - 1
        if ctx.golden:
            # A golden deal has no auction: the opener plays 120 (RULES §4 golden_deals).
            self._start_exchange(ctx.opener, 120)
            return
        if ctx.dark_allowed and ctx.dark_seat not in ctx.barred:
            # The dark seat does not see his hand until he chooses (at his first turn).
            self.looked &= ~(1 << ctx.dark_seat)
        self._begin_turn(ctx.opener)

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.ctx.players

    @property
    def done(self) -> bool:
        return self.phase == Phase.DONE

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator); see :func:`view_of`."""
        return view_of(self, seat)

    def opponents(self) -> tuple[int, ...]:
        """The declarer's opponents, the first one clockwise after him first (one of them
        with two players)."""
        a = self._next[self.declarer]
        return (a,) if self.trick_size == 2 else (a, self._next[a])

    @property
    def discards_due(self) -> bool:
        """Whether the declarer discards (face down, to his points) rather than gives:
        ``exchange=discard_three``, and always with two players."""
        return self.trick_size == 2 or self.rules.exchange == "discard_three"

    @property
    def unchosen_talon(self) -> Mask:
        """Two players: the talon the declarer did not choose (0 before he chooses, and in
        a three- or four-player deal).  Nobody sees it until the deal ends; its card points
        count to the defender (RULES §4 "Two players" 3)."""
        return self.ctx.talon & ~self.talon if self.talon_choice >= 0 else 0

    def cap(self, seat: int) -> int:
        """The highest bid ``seat`` may make with the hand he holds now (RULES §2.2)."""
        return self.rules.bid_cap + marriage_sum(self.hands[seat], self.rules.marriage_values)

    def redeal_entitled_by_hand(self, seat: int) -> bool:
        """Four nines (``redeal_four_nines``) or a weak hand (``redeal_weak_hand``)."""
        r = self.rules
        hand = self.hands[seat]
        nines = RANK_MASK[NINE]
        if r.redeal_four_nines and hand & nines == nines:
            return True
        return r.redeal_weak_hand is not None and points_of(hand) < r.redeal_weak_hand

    def _redeal_entitled_after_exchange(self, seat: int) -> bool:
        r = self.rules
        hand = self.hands[seat]
        nines = RANK_MASK[NINE]
        if hand & nines == nines:
            return True
        return r.redeal_weak_hand is not None and points_of(hand) < r.redeal_weak_hand

    def weak_talon(self) -> bool:
        """Two nines, or under 5 points (``redeal_weak_talon``)."""
        return (self.talon & RANK_MASK[NINE]).bit_count() >= 2 or points_of(self.talon) < 5

    def top_of_suit(self, suit: int) -> Card:
        """The strongest card of ``suit`` in the trick in progress (``must_overtake``), by
        ``ten_strength``; -1 if none (:func:`thousand.engine.play_rules.strongest`)."""
        return strongest(self.trick, suit, self.rules.ten_strength)

    def current_trick(self) -> list[tuple[int, Card]]:
        """The cards of the trick in progress with the seats that played them."""
        out = []
        seat = self.leader
        for c in self.trick:
            out.append((seat, c))
            seat = self._next[seat]
        return out

    # ------------------------------------------------------------- legal moves

    def legal_moves(self) -> list[Move]:
        """The moves the player to move may make, in a stable order."""
        cached = self._cached_legal
        if cached is None:
            cached = self._cached_legal = self._legal()
        return cached

    def _legal(self) -> list[Move]:
        phase = self.phase
        if phase == Phase.PLAY:
            return self._legal_play()
        if phase == Phase.AUCTION:
            return self._legal_auction()
        if phase == Phase.EXCHANGE:
            hand = self.hands[self.declarer]
            word = mv.discard if self.discards_due else mv.give
            out = [word(c) for c in cards_of(hand)]
            if self._weak_talon_redeal_allowed():
                out.append(mv.REDEAL)
            return out
        if phase == Phase.CONTRACT:
            return self._legal_contract()
        if phase == Phase.DARK_CHOICE:
            return [mv.DARK, mv.LOOK]
        if phase == Phase.REDEAL_OFFER:
            return [mv.REDEAL, mv.PASS]
        if phase == Phase.BUY:
            return [mv.BUY, mv.PASS]
        if phase == Phase.TALON_CHOICE:
            return list(mv.TALONS)
        return []

    def _legal_auction(self) -> list[Move]:
        seat = self.to_move
        r = self.rules
        out: list[Move] = []
        first_turn = not (self.acted >> seat) & 1
        if first_turn and (self.looked >> seat) & 1 and self.redeal_entitled_by_hand(seat):
            out.append(mv.REDEAL)
        if seat in self.ctx.barred:
            out.append(mv.PASS)
            return out
        if self.high_bid == 0:
            # The opening bid: 100 or more, or exactly 100 ("сижу на ста", opening_bid).
            low = 100
            top = 100 if r.opening_bid == "exactly_100" else self.cap(seat)
        else:
            out.append(mv.PASS)
            if self._dark_blocks(seat):
                return out
            low = self.next_bid(self.high_bid)
            top = self.cap(seat) if r.bid_jumps else min(self.cap(seat), low)
        out.extend(mv.bid(b) for b in range(low, top + 1, r.bid_step))
        return out

    def next_bid(self, bid: int) -> int:
        """The lowest bid above ``bid`` (:func:`next_bid`)."""
        return next_bid(self.rules, bid)

    def _dark_blocks(self, seat: int) -> bool:
        """A standing dark bid may be outbid only with a marriage in hand
        (``dark_outbid_needs_marriage``)."""
        r = self.rules
        return (
            self.dark_standing
            and r.dark_outbid_needs_marriage
            and marriage_sum(self.hands[seat], r.marriage_values) == 0
        )

    def buy_price(self) -> int:
        """What the talon costs now: the smallest of 120, 240, 360, … above the contract
        (RULES §4 "Talon buy-out")."""
        return (self.contract // 120 + 1) * 120

    def _legal_contract(self) -> list[Move]:
        out = [mv.contract(c) for c in contract_choices(self.rules, self.bid,
                                                        self.cap(self.declarer))]
        if self._concede_allowed():
            out.append(mv.CONCEDE)
        return out

    def _concede_allowed(self) -> bool:
        # A dark deal cannot be conceded (RULES §7).
        if not self.rules.concede or self.dark_standing:
            return False
        allowed = self.ctx.concede_allowed
        return self.declarer >= len(allowed) or allowed[self.declarer]

    def _weak_talon_redeal_allowed(self) -> bool:
        r = self.rules
        if not r.redeal_weak_talon or self.given or self.discards:
            return False
        if r.redeal_weak_talon_only_at_100 and self.bid != 100:
            return False
        return self.weak_talon()

    def _legal_play(self) -> list[Move]:
        # The rules are those of thousand.engine.play_rules (their one home); this is the hot path.
        seat = self.to_move
        hand = self.hands[seat]
        trick = self.trick
        r = self.rules
        if trick:
            return mv.plays_of(
                follow_cards(hand, trick, self.trump, r.must_overtake, r.ten_strength)
            )
        leads, declaring = lead_cards(
            hand, seat, self.trump, self.trump_declarer, self.aces_in_row,
            self.declared_suits, len(self.tricks), r,
        )
        out = mv.plays_of(leads)
        if declaring:
            out.extend(_declaring_moves(declaring))
        return out

    @property
    def tricks_played(self) -> int:
        return len(self.tricks)

    # ------------------------------------------------------------------- apply

    def apply(self, move: Move) -> None:
        """Make ``move`` for the player to move, or raise :class:`IllegalMove` saying why.

        In the dark choice any move other than ``dark`` first implies ``look``, so a
        record (which never writes ``look``) replays move by move.
        """
        if type(move) is not int:
            # a float or a bool is no move, even where it equals one (1105.0 == 1105)
            raise IllegalMove(repr(move), "not_a_move")
        legal = self._cached_legal
        if legal is None:
            legal = self.legal_moves()
        if move not in legal:
            if not mv.is_move(move):
                raise IllegalMove(str(move), "not_a_move")
            if self.implies_look(move):
                self.apply(mv.LOOK)
                self.apply(move)
                # The implied look is part of this move: it is not in the history
                # (which stays equal to the record) and one undo takes both back.
                self._undo.pop()
                del self.history[-2]
                return
            raise self.why_illegal(move)
        self._cached_legal = None
        self.history.append(move)
        phase = self.phase
        if phase == Phase.PLAY:
            # The play phase is the hot path: its undo record (_PlayUndo) is seven small
            # values instead of a copy of the whole state.
            self._undo.append((
                self.to_move, self.leader, self.trump, self.trump_declarer,
                self.aces_in_row, self.declared_suits, len(self.declarations),
            ))
            self._apply_play(move)
            return
        self._undo.append(self._snapshot())
        if phase == Phase.AUCTION:
            self._apply_auction(move)
        elif phase == Phase.EXCHANGE:
            self._apply_exchange(move)
        elif phase == Phase.CONTRACT:
            self._apply_contract(move)
        elif phase == Phase.DARK_CHOICE:
            self._apply_dark_choice(move)
        elif phase == Phase.REDEAL_OFFER:
            self._apply_redeal_offer(move)
        elif phase == Phase.BUY:
            self._apply_buy(move)
        elif phase == Phase.TALON_CHOICE:
            self._apply_talon_choice(move)

    def implies_look(self, move: Move) -> bool:
        """Whether ``move`` comes with an implied ``look``: in the dark choice any move but
        ``dark`` and ``look`` is the look and then that move (a record never writes
        ``look``).  Raises the :class:`IllegalMove` of ``move`` in the looked position when
        it is illegal there too; the deal is left as it was.

        The one reading of the implied look: :meth:`apply` makes both as one move (one
        history entry, one undo), :class:`~thousand.engine.table.Table` as two versions (the
        look is an event of its own)."""
        if self.phase != Phase.DARK_CHOICE or move in (mv.DARK, mv.LOOK):
            return False
        self.apply(mv.LOOK)  # try it in the looked position, then take the look back
        try:
            error = None if move in self.legal_moves() else self.why_illegal(move)
        finally:
            self.undo()
        if error is not None:
            raise error
        return True

    def _snapshot(self) -> _Snapshot:
        # tuple.__new__ rather than _Snapshot(...): the same record, without the Python
        # frame of the named tuple's __new__ (a third of this method's time)
        return tuple.__new__(_Snapshot, (
            self.phase, self.to_move, self.hands.copy(), self.high_bid, self.high_bidder,
            self.passed, self.acted, self.dark_bidder, self.dark_standing, self.looked,
            self.declarer, self.bid, self.contract, len(self.given), self.discards,
            self.offer_queue, self.trick.copy(), self.leader, self.trump, self.trump_declarer,
            self.aces_in_row, self.taken.copy(), self.tricks_won.copy(), self.bonus.copy(),
            len(self.tricks), len(self.declarations), self.redeal_by, self.result,
            self.talon_public, len(self.auction), self.declared_suits, len(self.buys),
            self.talon, self.talon_choice,
        ))

    def undo(self) -> Move:
        """Take back the last move and return it."""
        if not self._undo:
            raise IndexError("no move to undo")
        record = self._undo.pop()
        if not isinstance(record, _Snapshot):
            return self._undo_play(record)
        (
            self.phase, self.to_move, hands, self.high_bid, self.high_bidder,
            self.passed, self.acted, self.dark_bidder, self.dark_standing, self.looked,
            self.declarer, self.bid, self.contract, n_given, self.discards,
            self.offer_queue, trick, self.leader, self.trump, self.trump_declarer,
            self.aces_in_row, taken, tricks_won, bonus,
            n_tricks, n_decl, self.redeal_by, self.result, self.talon_public, n_auction,
            self.declared_suits, n_buys, self.talon, self.talon_choice,
        ) = record
        del self.buys[n_buys:]
        # Copies: the snapshot stays as it was, so that a clone sharing it can undo too.
        self.hands = hands.copy()
        self.trick = trick.copy()
        self.taken = taken.copy()
        self.tricks_won = tricks_won.copy()
        self.bonus = bonus.copy()
        del self.given[n_given:]
        del self.tricks[n_tricks:]
        del self.declarations[n_decl:]
        del self.auction[n_auction:]
        self._cached_legal = None
        return self.history.pop()

    def _undo_play(self, record: _PlayUndo) -> Move:
        """Take back a card (``record`` is its undo record): the reverse of
        :meth:`_apply_play`."""
        (
            to_move, self.leader, self.trump, self.trump_declarer,
            self.aces_in_row, self.declared_suits, n_decl,
        ) = record
        move = self.history.pop()
        if self.trick:
            self.trick.pop()
        else:  # the card completed a trick (and perhaps the deal)
            t = self.tricks.pop()
            self.taken[t.winner] -= t.points
            self.tricks_won[t.winner] -= 1
            self.trick = [c for _, c in t.cards[:-1]]
            self.phase = Phase.PLAY
            self.result = None
        declarations = self.declarations
        while len(declarations) > n_decl:
            d = declarations.pop()
            self.bonus[d.seat] -= d.points
        self.hands[to_move] |= 1 << (move % 24)
        self.to_move = to_move
        self._cached_legal = None
        return move

    # auction ---------------------------------------------------------------

    def _apply_dark_choice(self, move: Move) -> None:
        seat = self.to_move
        if move == mv.DARK:
            self.auction.append((seat, move))
            self.high_bid = 120
            self.high_bidder = seat
            self.dark_bidder = seat
            self.dark_standing = True
            self.acted |= 1 << seat
            self.phase = Phase.AUCTION
            self._advance_auction()
        else:  # look
            self.looked |= 1 << seat
            self.phase = Phase.AUCTION

    def _apply_auction(self, move: Move) -> None:
        seat = self.to_move
        self.acted |= 1 << seat
        self.auction.append((seat, move))
        if move == mv.REDEAL:
            self._finish_redeal(seat)
            return
        if move == mv.PASS:
            self.passed |= 1 << seat
        else:
            self.high_bid = mv.value_of(move)
            self.high_bidder = seat
            if self.dark_standing:
                # Outbid: the dark bid is gone and its bidder may look (RULES §4 dark).
                self.dark_standing = False
                self.looked |= 1 << self.dark_bidder
        self._advance_auction()

    def _advance_auction(self) -> None:
        remaining = [s for s in self.active if not (self.passed >> s) & 1]
        if self.high_bid and len(remaining) == 1 and remaining[0] == self.high_bidder:
            self._start_exchange(self.high_bidder, self.high_bid)
            return
        if not remaining:
            # Everybody passed without a bid: only when nobody may bid (RULES §7
            # "barred from bidding"): the opener plays 100 anyway.
            self._start_exchange(self.ctx.opener, 100)
            return
        seat = self._next[self.to_move]
        while (self.passed >> seat) & 1:
            seat = self._next[seat]
        self._begin_turn(seat)

    def _begin_turn(self, seat: int) -> None:
        """Give ``seat`` its turn in the auction.  The dark seat comes to its first turn
        without having looked: it chooses ``dark`` or ``look`` while the bid is still
        below 120, and simply looks otherwise (RULES §4 dark)."""
        self.to_move = seat
        if not (self.looked >> seat) & 1:
            if self.high_bid < 120:
                self.phase = Phase.DARK_CHOICE
            else:
                self.looked |= 1 << seat

    def _start_exchange(self, declarer: int, bid: int) -> None:
        self.declarer = declarer
        self.bid = bid
        self.contract = bid
        self.looked |= 1 << declarer
        self.to_move = declarer
        if self.trick_size == 2:
            # Two players: he chooses a talon unseen first (RULES §4 "Two players" 3).
            self.phase = Phase.TALON_CHOICE
            return
        self.hands[declarer] |= self.talon
        self.talon_public = self._talon_shown_to_all()
        self.phase = Phase.EXCHANGE
        if self.rules.talon_buy and self.talon_public and not self.dark_standing:
            # (a golden deal is never bought: RULES §4 "Talon buy-out")
            self._ask_buyers(() if self.ctx.golden else self._buyers_after(declarer))

    def _buyers_after(self, declarer: int) -> tuple[int, ...]:
        """Who is asked to buy, clockwise from the declarer: the other active seats, but
        not one barred from bidding *(decision)*, and nobody once the price passes the
        highest contract the auction could reach (bid_cap + every marriage)
        *(decision)*."""
        if self.buy_price() > self.rules.bid_cap + sum(self.rules.marriage_values):
            return ()
        a = self._next[declarer]
        b = self._next[a]
        return tuple(s for s in (a, b) if s not in self.ctx.barred)

    def _ask_buyers(self, queue: tuple[int, ...]) -> None:
        self.offer_queue = queue
        if queue:
            self.phase = Phase.BUY
            self.to_move = queue[0]
        else:
            self.phase = Phase.EXCHANGE
            self.to_move = self.declarer

    def _apply_buy(self, move: Move) -> None:
        """``buy``: the buyer takes the talon from the declarer and plays at the price;
        the former declarer is a defender and loses nothing; the others are asked again
        (RULES §4 "Talon buy-out").  ``pass``: the next one is asked."""
        if move == mv.BUY:
            seat = self.to_move
            price = self.buy_price()
            self.hands[self.declarer] &= ~self.talon
            self.hands[seat] |= self.talon
            self.buys.append((seat, price))
            self.declarer = seat
            self.bid = self.contract = price
            self._ask_buyers(self._buyers_after(seat))
        else:
            self._ask_buyers(self.offer_queue[1:])

    def _apply_talon_choice(self, move: Move) -> None:
        """``talon 1`` / ``talon 2``: the declarer takes that talon, shown to his opponent
        as ``talon_shown`` says, and discards two next (RULES §4 "Two players" 3)."""
        self.talon_choice = 0 if move == mv.TALON_1 else 1
        self.talon = self.ctx.talons[self.talon_choice]
        self.hands[self.declarer] |= self.talon
        self.talon_public = self._talon_shown_to_all()
        self.phase = Phase.EXCHANGE

    def _talon_shown_to_all(self) -> bool:
        r = self.rules
        if self.dark_standing and not r.dark_talon_shown:
            return False
        return not (r.talon_shown == "not_at_100" and self.bid == 100)

    def talon_visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` has seen the talon (RULES §4 talon_shown, dark_talon_shown).

        A talon hidden from the players (``not_at_100``, a dark deal with
        ``dark_talon_shown=false``) is still shown to a sitting-out dealer: RULES §4 says
        so for the dark talon, because he scores it; *(decision)* the same for
        ``not_at_100``.
        """
        if self.declarer < 0 or self.phase == Phase.TALON_CHOICE:
            return False
        if self.talon_public or seat == self.declarer:
            return True
        return seat is not None and self.players == 4 and seat == self.ctx.dealer

    # exchange, contract ------------------------------------------------------

    def _apply_exchange(self, move: Move) -> None:
        d = self.declarer
        if move == mv.REDEAL:
            self._finish_redeal(d)
            return
        card = mv.card_of(move)
        self.hands[d] &= ~(1 << card)
        if mv.is_discard(move):
            self.discards |= 1 << card
            done = self.discards.bit_count() == (2 if self.trick_size == 2 else 3)
        else:
            first, second = self.opponents()
            to = first if not self.given else second
            self.given.append((card, to))
            self.hands[to] |= 1 << card
            done = len(self.given) == 2
        if done:
            self.phase = Phase.CONTRACT

    def _apply_contract(self, move: Move) -> None:
        if move == mv.CONCEDE:
            self._finish(conceded=True)
            return
        self.contract = mv.value_of(move)
        if self.rules.redeal_after_exchange:
            seat = self.declarer
            queue = []
            for _ in range(self.trick_size):
                if self._redeal_entitled_after_exchange(seat):
                    queue.append(seat)
                seat = self._next[seat]
            self.offer_queue = tuple(queue)
            if queue:
                self.phase = Phase.REDEAL_OFFER
                self.to_move = queue[0]
                return
        self._start_play()

    def _apply_redeal_offer(self, move: Move) -> None:
        if move == mv.REDEAL:
            self._finish_redeal(self.to_move)
            return
        self.offer_queue = self.offer_queue[1:]
        if self.offer_queue:
            self.to_move = self.offer_queue[0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self.leader = self.declarer
        self.to_move = self.declarer

    # play ------------------------------------------------------------------

    def _apply_play(self, move: Move) -> None:
        seat = self.to_move
        card = move % 24
        self.hands[seat] &= ~(1 << card)
        trick = self.trick
        if not trick and move >= 24:
            self._declare(seat, card)
        trick.append(card)
        if len(trick) < self.trick_size:
            self.to_move = self._next[seat]
            return
        # The trick is complete: find the winner.
        trump = self.trump
        best_i = trick_winner(trick, trump, self.rules.ten_strength)
        winner = self.leader
        for _ in range(best_i):
            winner = self._next[winner]
        if len(trick) == 3:
            self.taken[winner] += POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]
        else:
            self.taken[winner] += POINTS[trick[0]] + POINTS[trick[1]]
        self.tricks_won[winner] += 1
        seats = []
        s = self.leader
        for c in trick:
            seats.append((s, c))
            s = self._next[s]
        self.tricks.append(Trick(self.leader, tuple(seats), trump, winner))
        self.trick = []
        if winner != self.aces_in_row:
            # The duty to lead aces ends with the lead (with no ace left it binds nothing).
            self.aces_in_row = -1
        self.leader = winner
        self.to_move = winner
        if len(self.tricks) == self.n_tricks:
            self._finish(conceded=False)

    def _declare(self, seat: int, card: Card) -> None:
        r = self.rules
        suit = card // 6
        hand_before = self.hands[seat] | (1 << card)
        what = declaration(hand_before, card, r, self.declared_suits)
        assert what is not None  # a legal declaring lead
        kind, value, new_trump = what
        if kind == "ace_marriage" and r.ace_marriage_all_in_row:
            self.aces_in_row = seat
        if r.marriage_points_declarer_only and seat != self.declarer:
            value = 0
        self.bonus[seat] += value
        if new_trump:
            self.trump = suit
            self.trump_declarer = seat
        if kind == "marriage" or kind == "half_marriage":
            self.declared_suits |= 1 << suit
        self.declarations.append(Declaration(seat, kind, suit, value, len(self.tricks)))

    # end of deal -------------------------------------------------------------

    def _finish_redeal(self, seat: int) -> None:
        self.redeal_by = seat
        self.phase = Phase.DONE
        n = self.players
        self.result = DealResult(
            outcome="redeal", declarer=None, bid=None, contract=None, made=None,
            dark=False, golden=self.ctx.golden, points=(0,) * n, tricks=(0,) * n,
            values=(0,) * n, redeal_by=seat, active=self.active, dealer=self.ctx.dealer,
        )

    def _finish(self, conceded: bool) -> None:
        self.phase = Phase.DONE
        self.result = score_deal(self, conceded)

    # ------------------------------------------------------------------ errors

    def why_illegal(self, move: Move) -> IllegalMove:
        """An :class:`IllegalMove` that explains why ``move`` is not legal now."""
        try:
            text = mv.move_str(move)
        except mv.MoveError:
            text = str(move)
        phase = self.phase
        if phase == Phase.DONE:
            return IllegalMove(text, "deal_over")
        now = self._expected(phase)
        if phase == Phase.PLAY and mv.is_card_play(move):
            return self._why_illegal_card(text, move)
        if phase == Phase.AUCTION and (mv.is_bid(move) or move == mv.PASS):
            return self._why_illegal_bid(text, move)
        if phase == Phase.CONTRACT and mv.is_contract(move):
            n = mv.value_of(move)
            if n < self.bid:
                return IllegalMove(text, "contract_too_low", bid=self.bid)
            if (n - 100) % self.rules.bid_step:
                return IllegalMove(text, "bid_step", step=self.rules.bid_step)
            return self._over_cap(text, self.declarer)
        if phase == Phase.CONTRACT and move == mv.CONCEDE:
            if not self.rules.concede:
                why = "no_concede_rules"
            elif self.dark_standing:
                why = "dark_deal"
            else:
                why = "not_for_you"
            return IllegalMove(text, "concede_not_allowed", why=why)
        if phase == Phase.EXCHANGE and (mv.is_give(move) or mv.is_discard(move)):
            card = mv.card_of(move)
            expected = mv.is_discard(self.legal_moves()[0])
            if mv.is_discard(move) != expected:
                return IllegalMove(text, "wrong_phase", what=text.split()[0], **now)
            return IllegalMove(text, "not_in_hand", card=card_str(card))
        if move == mv.BUY:
            if not self.rules.talon_buy:
                return IllegalMove(text, "buy_not_allowed", why="no_buy_rules")
            return IllegalMove(text, "buy_not_allowed", why="not_now")
        if move == mv.REDEAL:
            return IllegalMove(text, "redeal_not_entitled")
        if move == mv.DARK:
            return IllegalMove(text, "dark_not_allowed")
        if mv.is_talon_choice(move) and self.trick_size != 2:
            return IllegalMove(text, "no_two_talons")
        return IllegalMove(text, "wrong_phase", what=text, **now)

    def _expected(self, phase: Phase) -> dict[str, int | str]:
        """What the player to move is to do now: his seat and a task code, as message
        parameters (the texts are in :mod:`thousand.words.catalogue`)."""
        if phase == Phase.EXCHANGE and self.discards_due:
            task = "discard"
        elif phase == Phase.CONTRACT and not self._concede_allowed():
            task = "contract"
        else:
            task = PHASE_TASKS[phase]
        return {"seat": self.to_move, "task": task}

    def _why_illegal_bid(self, text: str, move: Move) -> IllegalMove:
        seat = self.to_move
        r = self.rules
        if seat in self.ctx.barred:
            return IllegalMove(text, "barred", limit=r.min_score_to_bid)
        if move == mv.PASS:
            return IllegalMove(text, "first_bid_compulsory", min=100)
        n = mv.value_of(move)
        if n >= 100 and (n - 100) % r.bid_step:
            return IllegalMove(text, "bid_step", step=r.bid_step)
        low = 100 if self.high_bid == 0 else self.next_bid(self.high_bid)
        if n < low:
            if self.high_bid == 0:
                return IllegalMove(text, "first_bid_compulsory", min=low)
            return IllegalMove(text, "bid_too_low", min=low)
        if self.high_bid == 0 and r.opening_bid == "exactly_100":
            return IllegalMove(text, "opening_exactly_100")
        if self._dark_blocks(seat):
            return IllegalMove(text, "dark_outbid")
        if self.high_bid and not r.bid_jumps and n > low:
            return IllegalMove(text, "one_step", step=r.bid_step, next=low)
        return self._over_cap(text, seat)

    def _over_cap(self, text: str, seat: int) -> IllegalMove:
        cap = self.cap(seat)
        held = marriage_sum(self.hands[seat], self.rules.marriage_values)
        why = "no_marriage" if held == 0 else "with_marriages"
        return IllegalMove(text, "bid_over_cap", cap=cap, why=why)

    def _why_illegal_card(self, text: str, move: Move) -> IllegalMove:
        seat = self.to_move
        hand = self.hands[seat]
        card = move % 24
        if not hand >> card & 1:
            return IllegalMove(text, "not_in_hand", card=card_str(card))
        trick = self.trick
        if trick:
            if move >= 24:
                return IllegalMove(text, "declare_not_on_lead")
            led = trick[0] // 6
            if hand & SUIT_MASK[led]:
                if card // 6 != led:
                    return IllegalMove(text, "must_follow", suit=SUITS[led])
                top = self.top_of_suit(led)
                return IllegalMove(text, "must_overtake", card=card_str(top))
            return IllegalMove(text, "must_trump", suit=SUITS[self.trump], led=SUITS[led])
        if move >= 24:
            if not self.tricks and not self.rules.marriage_on_first_lead:
                return IllegalMove(text, "no_declare_first_lead")
            if not declaring_cards(hand, self.declared_suits, self.rules) >> card & 1:
                extra = ""
                if self.declared_suits >> (card // 6) & 1 and card % 6 in (JACK, QUEEN, KING):
                    extra = "already_declared"
                return IllegalMove(text, "nothing_to_declare", card=card_str(card), extra=extra)
        if self.aces_in_row == seat:
            return IllegalMove(text, "aces_in_row")
        return IllegalMove(text, "no_lead_own_trump")

    # -------------------------------------------------------------------- copy

    def clone(self) -> Deal:
        """An independent copy (for bots that try moves)."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = value.copy()
            setattr(other, name, value)
        return other


def score_deal(deal: Deal, conceded: bool) -> DealResult:
    """The deal values of a finished deal (RULES §2.7, §4, §7), before the game's
    barrel, bolt and penalty rules."""
    r = deal.rules
    ctx = deal.ctx
    n = deal.players
    d = deal.declarer
    contract = deal.contract if not conceded else deal.bid
    dark = deal.dark_standing
    golden = ctx.golden
    values = [0] * n
    if conceded:
        # (a dark deal is never conceded: RULES §7)
        points = (0,) * n
        tricks = (0,) * n
        made: bool | None = None
        loss, pay = concede_values(r, contract, deal.hands[d])
        own = -loss * (2 if golden else 1)  # doubled as a golden deal's (never dark)
        for s in deal.opponents():
            values[s] = pay
    else:
        discard_points = points_of(deal.discards)
        pts = [deal.taken[s] + deal.bonus[s] for s in range(n)]
        pts[d] += discard_points
        if deal.trick_size == 2:
            # the unchosen talon counts to the defender (RULES §4 "Two players" 3)
            pts[deal.opponents()[0]] += points_of(deal.unchosen_talon)
        points = tuple(pts)
        tricks = tuple(deal.tricks_won)
        made = contract_made(r, contract, pts[d])
        own = declarer_value(r, contract, made, pts[d], deal.bonus[d], dark, golden)
        for s in deal.opponents():
            values[s] = round_points(pts[s], r.rounding)
    if n == 4 and r.sitting_dealer_scores:
        values[ctx.dealer] = round_points(sitting_dealer_value(deal.talon, r), r.rounding)
    # Every other player's deal value counts double in a golden deal, and in a dark one
    # with dark_doubles=all (the sitting dealer's too, RULES §7); the declarer's own is
    # ``own`` (declarer_value).
    factor = others_factor(r, dark, golden)
    values = [own if s == d else factor * v for s, v in enumerate(values)]
    return DealResult(
        outcome="conceded" if conceded else "played",
        declarer=d,
        bid=deal.bid,
        contract=contract,
        made=made,
        dark=dark,
        golden=golden,
        points=points,
        tricks=tricks,
        values=tuple(values),
        active=deal.active,
        dealer=ctx.dealer,
    )


def next_bid(rules: Rules, bid: int) -> int:
    """The lowest bid or contract above ``bid``: bids are 100 plus a multiple of
    ``bid_step`` (RULES §4 bid_step); the dark 120 and the golden 120 may lie between them.
    The one home of the bid ladder: the deal and the bots ask it."""
    step = rules.bid_step
    return 100 + ((bid - 100) // step + 1) * step


def contract_choices(rules: Rules, floor: int, cap: int) -> list[int]:
    """The contracts a declarer may name with a hand whose cap is ``cap`` (RULES §2.2, §4):
    ``floor`` (his bid, or the price of a bought talon, which may lie above the cap), then
    every step of the ladder above it up to the cap.
    The deal's legal contract moves and the bots' contract search are this list."""
    return [floor, *range(next_bid(rules, floor), cap + 1, rules.bid_step)]


def contract_made(rules: Rules, contract: int, total: int) -> bool:
    """Whether a declarer's ``total`` (cards taken, his discards and his declarations)
    makes ``contract`` (RULES §7; rounded first with ``round_declarer_before_compare``)."""
    compared = round_points(total, rules.rounding) if rules.round_declarer_before_compare else total
    return compared >= contract


def declarer_value(
    rules: Rules, contract: int, made: bool, total: int, bonus: int, dark: bool, golden: bool
) -> int:
    """The declarer's deal value of a played deal (RULES §7): ± the contract, or with
    ``declarer_scores=taken`` his rounded ``total`` when made; doubled in a dark deal
    (without his declarations' ``bonus`` with ``dark_marriages_doubled=false``) and in a
    golden one.  Pure and cheap: the deal's scoring and the bots' valuation of a sampled
    deal are this one function, so that they cannot drift apart."""
    if not made:
        score = -contract * (2 if dark else 1)
    elif rules.declarer_scores == "taken":
        score = round_points(total, rules.rounding)
        if dark:
            score = 2 * score - (0 if rules.dark_marriages_doubled else bonus)
    else:
        score = contract * (2 if dark else 1)
    return 2 * score if golden else score


def recorded_change(
    rules: Rules, score: int, on_barrel: bool, declarer: bool, made: bool | None, value: int
) -> int:
    """What a deal value ``value`` changes in the score ``score`` of a seat (RULES §7,
    Barrel): all of it off the barrel; on it, nothing for a defender, nothing for a
    declarer's made contract that does not reach the win, and all of a failed contract or
    a concede (``made`` None).  Pure and cheap: the game's scoring
    (:meth:`thousand.engine.game.Game._score`) and the bots' valuation of a sampled deal
    are this one rule; it lives here, with the deal values, because the bots may not
    import the game."""
    if not on_barrel:
        return value
    if not declarer or (made and not rules.wins(score + value)):
        return 0
    return value


def others_factor(rules: Rules, dark: bool, golden: bool) -> int:
    """How many times the other players' deal values count (RULES §7): twice in a golden
    deal, twice in a dark one with ``dark_doubles=all`` (both: four times)."""
    return (2 if dark and rules.dark_doubles == "all" else 1) * (2 if golden else 1)


def half_of(amount: int, rules: Rules) -> int:
    """Half an amount as the concede options take it: rounded up to a whole number, then
    with ``rounding`` (RULES §7: 105 → 52.5 → 53 → 55 at 5)."""
    return round_points((amount + 1) // 2, rules.rounding)


def concede_values(rules: Rules, contract: int, declarer_hand: Mask) -> tuple[int, int]:
    """What a concede costs: ``(declarer's loss, each opponent's gain)`` (RULES §4
    concede_declarer_loses, concede_opponents_get).  ``declarer_hand`` is his hand when he
    concedes (``aces``: 11 for each ace in it).  The one home of this rule: bots ask it."""
    lose = rules.concede_declarer_loses
    loss = half_of(contract, rules) if lose == "half" else contract if lose else 0
    get = rules.concede_opponents_get
    if get == "half_contract":
        pay = half_of(contract, rules)
    elif get == "aces":
        pay = 11 * (declarer_hand & RANK_MASK[ACE]).bit_count()
    else:
        pay = int(get)
    return loss, pay


def sitting_dealer_value(talon: Mask, rules: Rules) -> int:
    """What the sitting-out dealer scores from the talon (RULES §4 sitting_dealer_scores)."""
    if rules.sitting_dealer_scores == "talon_marriage":
        return marriage_sum(talon, rules.marriage_values)
    if rules.sitting_dealer_scores == "talon_value":
        total = points_of(talon)
        for c in cards_of(talon):
            if c % 6 in (KING, QUEEN):
                total += rules.marriage_values[c // 6] // 2
        return total
    return 0


# ------------------------------------------------------------------ a seat's view


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
