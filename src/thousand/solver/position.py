"""A play-phase position for the double-dummy solver, its legal moves and how a move changes it.

Seats are 0, 1, 2 in clockwise order (the engine maps its real seats onto them), or 0, 1 in
the game for two (RULES §4 "Two players": tricks of two cards, one defender); the number of
hands says which.  A position is a frozen value: :func:`apply_move` returns a new one.

The rules are the engine's: :func:`legal_moves`, :func:`apply_move` and :func:`trick_winner`
are made of the functions of :mod:`thousand.engine.play_rules` (``follow_cards``, ``lead_cards``,
``declaration``, ``trick_winner``), the one home of RULES §2 items 5-6, the play options of
§4 and §7 ``must_overtake``, which :mod:`thousand.engine.deal` plays by too.  In short:

* the leader plays any card; the others follow the led suit if they can, else play a trump if a
  trump is set and they hold one, else any card; with ``must_overtake`` a follower of the led
  suit plays above every card of the led suit already in the trick when he can;
* which card is higher (the trick winner, ``must_overtake``) follows ``ten_strength`` (RULES §1):
  ``high`` 9 J Q K 10 A, ``natural`` 9 10 J Q K A (``thousand.engine.cards.STRENGTH``); card points
  never change with it;
* the player on lead (not on the first lead of the deal unless ``marriage_on_first_lead``) may
  declare by leading with ``+``: a marriage (K or Q of a K+Q he holds: its value, that suit is
  trump at once), a half marriage (``half_marriage``: J or Q of a Q+J, half the value, trump
  changes; with K, Q and J held, ``Q+`` is the full marriage; a suit's queen serves one
  declaration only), the ace marriage (``ace_marriage`` > 0, all four aces held, any ace; trump
  changes only with ``ace_marriage_trump``; with ``ace_marriage_all_in_row`` he must lead an ace
  while he keeps the lead and holds one, a trump ace too), four nines (``four_nines_bonus`` > 0,
  all four nines held, any nine; no trump change);
* ``no_lead_own_trump``: the player who declared the current trump may not lead a trump unless
  he holds only trumps, with or without ``+``.

The declarer's total counts his card points and his own declarations only; what the defenders
declare changes the trump but never his total, so ``marriage_points_declarer_only`` does not
change any value the solver computes (it is kept so that callers can pass their options whole).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..engine.cards import (
    ACE,
    JACK,
    KING,
    N_CARDS,
    NINE,
    POINTS,
    QUEEN,
    RANK_MASK,
    STRENGTH,
    card_str,
    cards_of,
)
from ..engine.play_rules import declaration, follow_cards, lead_cards, trick_winner
from ..engine.rules import OPTIONS, Rules, TenStrength
from . import native_options

ACES = RANK_MASK[ACE]
NINES = RANK_MASK[NINE]
DECLARE = 24  # a declaring lead is DECLARE + card (thousand.engine.moves.play(card, declare=True))
MAX_VALUE = native_options.MAX_VALUE  # the largest declaration value (16 bits in the C core)


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options of RULES §4 that change the play of the cards, under the names and types of
    :class:`thousand.engine.rules.Rules` (which owns their defaults: build one with
    :meth:`of`).  What the C core reads of them is the table of :mod:`.native_options`."""

    must_overtake: bool
    marriage_values: tuple[int, int, int, int]
    marriage_on_first_lead: bool
    marriage_points_declarer_only: bool
    half_marriage: bool
    ace_marriage: int
    ace_marriage_trump: bool
    ace_marriage_all_in_row: bool
    four_nines_bonus: int
    no_lead_own_trump: bool
    #: ``high`` (9 J Q K 10 A) or ``natural`` (9 10 J Q K A): the order in taking tricks.
    ten_strength: TenStrength

    def __post_init__(self) -> None:
        if len(self.marriage_values) != 4:
            raise ValueError("marriage_values needs one value per suit (S, C, D, H)")
        if self.ten_strength not in STRENGTH:
            raise ValueError(f"ten_strength is one of {', '.join(STRENGTH)}")
        values = (*self.marriage_values, self.ace_marriage, self.four_nines_bonus)
        if any(not 0 <= v <= MAX_VALUE for v in values):
            raise ValueError(f"declaration values must lie between 0 and {MAX_VALUE}")

    @classmethod
    def of(cls, rules: Rules | None = None, **changes: object) -> PlayOptions:
        """The play options of ``rules`` (classic when None), with ``changes`` on top (option
        names of RULES §4: ``PlayOptions.of(must_overtake=True)``).

        An allow-list: a ruleset that sets a card-play option (reach ``play`` in its
        declaration, :data:`thousand.engine.rules.OPTIONS`) which no C field carries is
        refused with ``ValueError``, since neither search would play it; every declared
        ``play`` option with a C field is a field here (tests/test_options.py)."""
        base = rules if rules is not None else Rules()
        refused = [o.name for o in OPTIONS.values()
                   if o.reach == "play" and o.c is None and o.off_default(base)]
        if refused:
            raise ValueError(f"the solver does not play {', '.join(refused)} (not read in C)")
        kwargs = {name: getattr(base, name) for name in cls.__dataclass_fields__}
        kwargs.update(changes)
        kwargs["marriage_values"] = tuple(kwargs["marriage_values"])
        return cls(**kwargs)

    @classmethod
    def from_rules(cls, rules: Rules) -> PlayOptions:
        """The play options of a ruleset (the bots' and the analysis' name for :meth:`of`)."""
        return cls.of(rules)

    def native(self) -> dict[str, int | tuple[int, ...]]:
        """The options as the C core reads them, by name (:data:`.native_options.PLAY`)."""
        return native_options.values(native_options.PLAY, self)


CLASSIC = PlayOptions.of()


@dataclass(frozen=True, slots=True)
class PlayPosition:
    """A position of the play phase, seen with every hand open.

    ``leader`` is the seat that led the current trick (``trick`` holds the cards played to it
    so far, in order) or, when ``trick`` is empty, the seat on lead.  ``trump`` is a suit or -1,
    ``trump_declarer`` the seat that declared the current trump (or -1).  ``declarer_points`` is
    what the declarer already has: cards taken, his declarations, discards.
    ``aces_in_row_seat`` is the seat under the ``ace_marriage_all_in_row`` duty, or -1; the
    duty lasts while that seat keeps the lead, so any other value than ``leader`` counts as -1.
    ``declared_suits`` is the mask (bit ``suit``) of the suits whose marriage or half marriage
    has been declared: a suit's queen serves one declaration only, which matters with
    ``half_marriage`` (no Q+J after K+ in a suit, no K+Q after J+).

    ``hands`` has three hands, or two for the game of two players (RULES §4 "Two players":
    a trick is then two cards and the declarer has one defender).
    """

    hands: tuple[int, ...]
    leader: int = 0
    trick: tuple[int, ...] = ()
    trump: int = -1
    trump_declarer: int = -1
    tricks_played: int = 0
    declarer: int = 0
    declarer_points: int = 0
    options: PlayOptions = field(default=CLASSIC)
    aces_in_row_seat: int = -1
    declared_suits: int = 0

    @property
    def seats(self) -> int:
        """The players in the play: 3, or 2 in the game for two (a trick has this many
        cards)."""
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def finished(self) -> bool:
        return not any(self.hands) and not self.trick

    def validate(self) -> None:
        """Raise ``ValueError`` saying what is wrong when the position cannot occur."""
        h = self.hands
        n_seats = len(h)
        if n_seats not in (2, 3):
            raise ValueError("a position has three hands (two in the game for two)")
        if not (0 <= self.leader < n_seats and 0 <= self.declarer < n_seats):
            raise ValueError(f"leader and declarer are seats 0..{n_seats - 1}")
        if not -1 <= self.trump < 4 or not -1 <= self.trump_declarer < n_seats:
            raise ValueError("trump is -1 or a suit 0..3; trump_declarer is -1 or a seat")
        if not -1 <= self.aces_in_row_seat < n_seats:
            raise ValueError("aces_in_row_seat is -1 or a seat")
        if not 0 <= self.declared_suits < 16:
            raise ValueError("declared_suits is a mask of suits (0..15)")
        if len(self.trick) >= n_seats:
            raise ValueError(f"a trick in progress holds at most {n_seats - 1} card(s)")
        seen = 0
        for m in h:
            if m < 0 or m >> N_CARDS:
                raise ValueError("a hand is a mask of cards 0..23")
            if m & seen:
                raise ValueError("a card is in two hands")
            seen |= m
        for c in self.trick:
            if not 0 <= c < N_CARDS or seen >> c & 1:
                raise ValueError(f"trick card {c} is not a card or is still in a hand")
            seen |= 1 << c
        if len(set(self.trick)) != len(self.trick):
            raise ValueError("a card is twice in the trick")
        n = max(m.bit_count() for m in h) if not self.trick else h[self.leader].bit_count() + 1
        for i in range(n_seats):
            played = (i - self.leader) % n_seats < len(self.trick)
            if h[i].bit_count() != n - played:
                raise ValueError("the hands do not hold the right number of cards")
        if self.tricks_played < 0:
            raise ValueError("tricks_played cannot be negative")

    def __str__(self) -> str:
        hands = " | ".join(" ".join(card_str(c) for c in cards_of(m)) or "-" for m in self.hands)
        trick = " ".join(card_str(c) for c in self.trick) or "-"
        trump = "SCDH"[self.trump] if self.trump >= 0 else "-"
        return f"[{hands}] lead {self.leader} trick {trick} trump {trump}"


def _declaration(
    hand: int, card: int, opts: PlayOptions, declared: int = 0
) -> tuple[int, bool] | None:
    """(value, changes trump) of leading ``card`` with ``+`` from ``hand``, or None if no such
    declaration exists (``declared``: the suits whose marriage was declared already): the
    engine's :func:`thousand.engine.play_rules.declaration`."""
    d = declaration(hand, card, opts, declared)
    return None if d is None else (d[1], d[2])


def legal_moves(pos: PlayPosition) -> list[int]:
    """Every legal move of the seat to move (cards, and ``24 + card`` for a declaring lead):
    the engine's rules (:func:`thousand.engine.play_rules.follow_cards`, ``lead_cards``).

    Plain plays come first, highest card first within a suit, then the declarations.
    """
    seat = pos.to_move
    hand = pos.hands[seat]
    opts = pos.options
    if not hand:
        return []
    if pos.trick:
        return cards_of(
            follow_cards(hand, pos.trick, pos.trump, opts.must_overtake, opts.ten_strength)
        )
    leads, declaring = lead_cards(
        hand, seat, pos.trump, pos.trump_declarer, pos.aces_in_row_seat, pos.declared_suits,
        pos.tricks_played, opts,
    )
    moves = cards_of(leads)
    if declaring:
        moves.extend(DECLARE + c for c in cards_of(declaring))
    return moves


def apply_move(pos: PlayPosition, move: int) -> PlayPosition:
    """The position after ``move`` (which must be legal: see :func:`legal_moves`)."""
    if move not in legal_moves(pos):
        raise ValueError(f"{move} is not a legal move here")
    seat = pos.to_move
    declare = move >= DECLARE
    card = move - DECLARE if declare else move
    hand = pos.hands[seat]
    hands = list(pos.hands)
    hands[seat] = hand & ~(1 << card)
    trump, tdecl, aces_seat = pos.trump, pos.trump_declarer, pos.aces_in_row_seat
    if aces_seat != pos.leader:
        aces_seat = -1  # the duty ended when he lost a trick
    points = pos.declarer_points
    declared = pos.declared_suits
    if declare:
        d = _declaration(hand, card, pos.options, declared)
        assert d is not None
        value, changes = d
        if seat == pos.declarer:
            points += value
        if changes:
            trump, tdecl = card // 6, seat
        if card % 6 == ACE and pos.options.ace_marriage_all_in_row:
            aces_seat = seat
        if card % 6 in (JACK, QUEEN, KING):
            declared |= 1 << (card // 6)
    trick = (*pos.trick, card)
    leader = pos.leader
    tricks_played = pos.tricks_played
    if len(trick) == len(hands):
        winner = (leader + trick_winner(trick, trump, pos.options.ten_strength)) % len(hands)
        if winner == pos.declarer:
            points += sum(POINTS[c] for c in trick)
        if aces_seat != winner:
            aces_seat = -1
        leader, trick, tricks_played = winner, (), tricks_played + 1
    return replace(
        pos,
        hands=tuple(hands),
        leader=leader,
        trick=trick,
        trump=trump,
        trump_declarer=tdecl,
        tricks_played=tricks_played,
        declarer_points=points,
        aces_in_row_seat=aces_seat,
        declared_suits=declared,
    )
