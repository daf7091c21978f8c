"""The heuristic bot's card play (:class:`~thousand.bots.heuristic.HeuristicBot`'s
``play`` phase), from the seat's view alone.

It declares marriages (cashing the sure winners first while there is no trump, the
biggest marriage first, leading the queen), leads aces and other masters, draws trumps
when it holds the top trump, leads low otherwise; following, it wins a trick worth
winning with its cheapest sure winner, throws points on a trick its side has won, never
a ten under an ace, trumps with the lowest trump that wins, and keeps marriage cards.

Everything comes from the :class:`~thousand.engine.view.View` (:class:`PlayKnowledge`):
the cards seen played, who failed to follow (voids), the cards given face up to it.
Which card beats which follows the rules' ``ten_strength`` (the engine's tables
``STRENGTH`` and ``HIGHER_BY_STRENGTH``).  The play keeps no state, so it is functions
of the view: the bot's auction and exchange are in :mod:`thousand.bots.heuristic`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from thousand.engine import moves as mv
from thousand.engine.cards import (
    ACE,
    FULL_DECK,
    HIGHER_BY_STRENGTH,
    JACK,
    KING,
    MARRIAGE_MASK,
    NINE,
    POINTS,
    QUEEN,
    STRENGTH,
    SUIT_MASK,
    TEN,
    Card,
    Mask,
    cards_of,
)
from thousand.engine.moves import Move
from thousand.engine.play_rules import beats, note_voids, trick_winner, void_suits
from thousand.engine.view import View
from thousand.words.catalogue import SUIT_NAMES

from .base import Reason

#: Why a master is led: it takes the trick.
_MASTER_REASON: Reason = ("the highest card left in its suit: it takes the trick",
                          "старшая оставшаяся карта масти: она берёт взятку")


def _suit(s: int, lang: str) -> str:
    return SUIT_NAMES["ru" if lang == "ru" else "en"][s]


@dataclass
class PlayKnowledge:
    """What the seat to move knows about the cards in the play phase."""

    me: int
    hand: Mask
    declarer: int
    seats: tuple[int, ...]  # the active seats
    outside: Mask  # cards not in my hand, not played, not out of play
    known: dict[int, Mask]  # cards known to be in a seat's hand
    voids: dict[int, int]  # seat -> mask of suits (bit per suit) it is known to lack
    sizes: tuple[int, ...]
    trump: int
    #: for each card, the cards of its suit that beat it (``ten_strength``)
    higher: tuple[Mask, ...] = HIGHER_BY_STRENGTH["high"]
    #: each card's strength inside its suit (``ten_strength``)
    strength: tuple[int, ...] = STRENGTH["high"]

    def friend(self, seat: int) -> bool:
        """Whether ``seat`` is on my side: me, or the other defender when I defend."""
        if seat == self.me:
            return True
        return self.me != self.declarer and seat != self.declarer

    def opponents(self) -> list[int]:
        """The active seats on the other side."""
        return [s for s in self.seats if not self.friend(s)]

    def possible(self, seat: int) -> Mask:
        """Cards ``seat`` may hold."""
        others_known = 0
        for s, m in self.known.items():
            if s != seat:
                others_known |= m
        pool = self.outside & ~others_known
        v = self.voids.get(seat, 0)
        for s in range(4):
            if v >> s & 1:
                pool &= ~SUIT_MASK[s]
        return pool | self.known.get(seat, 0)

    def chance_holds(self, seat: int, cards: Mask) -> float:
        """The chance that ``seat`` holds at least one of ``cards`` (hypergeometric)."""
        if not cards:
            return 0.0
        known = self.known.get(seat, 0) & self.outside
        if cards & known:
            return 1.0
        pool = self.possible(seat) & ~known
        want = cards & pool
        if not want:
            return 0.0
        need = self.sizes[seat] - known.bit_count()
        n = pool.bit_count()
        if need <= 0:
            return 0.0
        if need >= n:
            return 1.0
        k = want.bit_count()
        if n - k < need:
            return 1.0
        return 1.0 - math.comb(n - k, need) / math.comb(n, need)

    def chance_void(self, seat: int, suit: int) -> float:
        if self.voids.get(seat, 0) >> suit & 1:
            return 1.0
        return 1.0 - self.chance_holds(seat, SUIT_MASK[suit])

    def is_master(self, card: Card) -> bool:
        """No card of its suit above it is still out (in other hands)."""
        return not self.higher[card] & self.outside

    def risk_beaten(self, card: Card, seat: int, led: int) -> float:
        """The chance that ``seat``, playing after ``card`` in a trick led in ``led``,
        can beat it (rough: each way of beating counted separately)."""
        s = card // 6
        trump = self.trump
        if s == trump:
            return self.chance_holds(seat, self.higher[card] & self.outside)
        risk = 0.0
        if s == led:
            higher = self.higher[card] & self.outside
            risk += self.chance_holds(seat, higher)
        if trump >= 0 and trump != led:
            trumps = SUIT_MASK[trump] & self.outside
            if trumps:
                risk += self.chance_void(seat, led) * self.chance_holds(seat, trumps)
        return min(1.0, risk)


def play_knowledge(view: View) -> PlayKnowledge:
    """What the seat to move knows of the cards, from its view."""
    assert view.hand is not None and view.seat is not None
    me = view.seat
    hand = view.hand
    played = view.played_cards()
    out_of_play = view.discards if view.discards is not None and me == view.declarer else 0
    outside = FULL_DECK & ~hand & ~played & ~out_of_play
    known: dict[int, Mask] = {}
    for card, to in view.given:
        if card is not None and to != me and (outside >> card) & 1:
            known[to] = known.get(to, 0) | (1 << card)
    # Who failed to follow (the engine's rule read backwards: play_rules.note_voids).
    lacking: dict[int, Mask] = {}
    for t in view.tricks:
        note_voids(t.cards, t.trump, False, lacking)
    if view.trick:
        note_voids(view.trick, view.trump, False, lacking)
    voids = {seat: void_suits(m) for seat, m in lacking.items()}
    strength = view.rules.ten_strength
    return PlayKnowledge(
        me=me, hand=hand, declarer=view.declarer, seats=view.active, outside=outside,
        known=known, voids=voids, sizes=view.hand_sizes, trump=view.trump,
        higher=HIGHER_BY_STRENGTH[strength], strength=STRENGTH[strength],
    )

def keep_value(t: PlayKnowledge, card: Card, view: View) -> float:
    """How much keeping ``card`` is worth beyond its points (higher: keep)."""
    s, r = divmod(card, 6)
    v = 0.0
    hand = t.hand
    tricks_left = len(cards_of(hand))
    if r in (KING, QUEEN) and hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s] and tricks_left > 1:
        v += 20 + view.rules.marriage_values[s] / 4
    if t.is_master(card):
        v += 6 + POINTS[card] / 2
    if s == t.trump:
        v += 4
    if r == TEN and t.is_master(card) and t.higher[card] & hand:
        v += 2  # a ten behind its own ace (natural: behind A K Q J) is a trick to come
    if r == NINE:
        v -= 1
    if (hand & SUIT_MASK[s]).bit_count() == 1 and s != t.trump:
        v -= 1.5  # a singleton gone is a void to trump with
    return v

def play(view: View) -> tuple[Move, Reason]:
    """The card to play (or the marriage to declare with it) and why."""
    t = play_knowledge(view)
    if not view.trick:
        return _lead(view, t)
    return _follow(view, t)

# ------------------------------------------------------------------- leading

def _lead(view: View, t: PlayKnowledge) -> tuple[Move, Reason]:
    """The card to lead, by the first of these that applies: a bonus declaration, a
    marriage (after the sure winners while there is no trump), the top trump to draw
    trumps, a master, a low card."""
    legal = view.legal
    declares = [m for m in legal if mv.is_declare(m)]
    plain = [m for m in legal if not mv.is_declare(m)]
    bonus = _bonus_declaration(declares)
    if bonus is not None:
        return bonus
    marriages = _marriage_leads(declares, view, t)
    safe_leads = [m for m in plain if _safe_lead(t, m)]
    if marriages:
        return _marriage_lead(view, t, marriages, safe_leads)
    draw = _trump_draw(view, t, plain)
    if draw is not None:
        return draw
    if safe_leads:
        m = max(safe_leads, key=lambda m: (POINTS[m], m % 6))
        return m, _MASTER_REASON
    return _low_lead(view, t, plain or legal)


def _safe_lead(t: PlayKnowledge, card: Card) -> bool:
    """A master that no opponent is likely to trump."""
    if not t.is_master(card):
        return False
    s = card // 6
    if s == t.trump:
        return True
    return all(t.risk_beaten(card, o, s) < 0.2 for o in t.opponents())


def _bonus_declaration(declares: list[Move]) -> tuple[Move, Reason] | None:
    """A bonus declaration (ace marriage, four nines): always worth it."""
    for m in declares:
        c = m % 24
        if c % 6 in (ACE, NINE):
            what = ("the ace marriage", "тузовый марьяж") if c % 6 == ACE else (
                "four nines", "четыре девятки")
            return m, (f"{what[0]} always pays", f"{what[1]} — очки без риска")
    return None


def _marriage_lead(
    view: View, t: PlayKnowledge, marriages: list[tuple[Move, int, float]],
    safe_leads: list[Move],
) -> tuple[Move, Reason]:
    """The best marriage declared, or first a sure winner: with no trump yet, sure
    winners are cashed before declaring a single marriage whose lead may lose (nothing
    can trump them now).  With two marriages to declare they stay in hand, to win the
    lead back for the second."""
    if t.trump < 0 and len(marriages) == 1 and marriages[0][2] < 0.99:
        cash = [m for m in safe_leads if not _marriage_card(t.hand, m)]
        if cash:
            m = max(cash, key=lambda m: (POINTS[m], m % 6))
            return m, _MASTER_REASON
    m, s, _ = marriages[0]
    value = view.rules.marriage_values[s]
    if (m % 24) % 6 == JACK:
        value //= 2
    return m, (
        f"the {_suit(s, 'en')} marriage is worth {value}, and {_suit(s, 'en')} become "
        "trump",
        f"марьяж ({_suit(s, 'ru')}) даёт {value}, и козырем станут {_suit(s, 'ru')}",
    )


def _trump_draw(view: View, t: PlayKnowledge, plain: list[Move]) -> tuple[Move, Reason] | None:
    """The top trump, to draw the opponents' trumps, when ours is the longer holding."""
    trump = t.trump
    if not (trump >= 0 and t.friend(view.trump_declarer) and t.me == view.trump_declarer):
        return None
    mine = t.hand & SUIT_MASK[trump]
    theirs = t.outside & SUIT_MASK[trump]
    if mine and theirs and mine.bit_count() >= theirs.bit_count():
        top = max(cards_of(mine), key=t.strength.__getitem__)
        if t.is_master(top) and mv.play(top) in plain:
            return mv.play(top), (
                "the top trump draws the opponents' trumps",
                "старший козырь выбивает козыри у соперников",
            )
    return None


def _low_lead(view: View, t: PlayKnowledge, moves: Sequence[Move]) -> tuple[Move, Reason]:
    """Lead low: the cheapest card, from a suit the opponents must follow."""
    trump = t.trump
    opponents = t.opponents()
    long_trumps = trump >= 0 and (t.hand & SUIT_MASK[trump]).bit_count() > (
        t.outside & SUIT_MASK[trump]
    ).bit_count() > 0

    def cost(m: Move) -> float:
        c = m % 24
        s = c // 6
        v = POINTS[c] + keep_value(t, c, view)
        if trump >= 0 and s != trump:
            v += 6 * max(t.chance_void(o, s) for o in opponents) if opponents else 0
        if s == trump and not t.friend(view.trump_declarer):
            v += 3
        if s == trump and t.me == view.trump_declarer and long_trumps:
            v -= 6  # pull their trumps with a small one
        # small from a suit with a ten behind it draws the cards above the ten out
        ten = s * 6 + TEN
        if (t.strength[c] < t.strength[ten] and t.hand >> ten & 1
                and not t.higher[ten] & t.hand):
            v -= 2
        return v

    m = min(moves, key=cost)
    return m, ("a low lead keeps the good cards for later",
               "с мелкой карты: старшие пригодятся позже")


def _marriage_card(hand: Mask, m: Move) -> bool:
    c = m % 24
    s = c // 6
    return c % 6 in (KING, QUEEN) and hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]

def _marriage_leads(
    declares: list[Move], view: View, t: PlayKnowledge
) -> list[tuple[Move, int, float]]:
    """The declaring leads, best first, with the chance that each keeps the lead:
    a marriage whose lead will hold comes first (the lead comes back for the next),
    then the biggest.  A marriage is led with the queen, a half marriage with the jack."""
    hand = t.hand
    best: dict[int, Move] = {}
    for m in declares:
        c = m % 24
        s, r = divmod(c, 6)
        if r not in (KING, QUEEN, JACK):
            continue
        full = hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]
        if full and r == JACK:
            continue
        pref = QUEEN if full else JACK
        if s not in best or r == pref:
            best[s] = m
    values = view.rules.marriage_values
    opponents = t.opponents()
    out = []
    for s, m in best.items():
        c = m % 24
        full = c % 6 != JACK and hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]
        value = values[s] if full else values[s] / 2
        higher = t.higher[c] & t.outside & ~hand
        keep = 1.0
        for o in opponents:
            keep *= 1.0 - t.chance_holds(o, higher)
        out.append((m, s, keep, value))
    out.sort(key=lambda x: (x[2] >= 0.99, x[3]), reverse=True)
    return [(m, s, keep) for m, s, keep, _ in out]


# ----------------------------------------------------------------- following

def _follow(view: View, t: PlayKnowledge) -> tuple[Move, Reason]:
    legal = [m for m in view.legal if not mv.is_declare(m)] or list(view.legal)
    trick = view.trick
    trump = t.trump
    led = trick[0][1] // 6
    strength = view.rules.ten_strength
    win_seat, win_card = trick[trick_winner([c for _, c in trick], trump, strength)]
    on_table = sum(POINTS[c] for _, c in trick)
    seats = t.seats
    i = seats.index(t.me)
    size = len(seats)  # three, or two (RULES §4 "Two players" 5: the second plays last)
    later = [seats[(i + k) % size] for k in range(1, size - len(trick))]
    enemies_later = [s for s in later if not t.friend(s)]

    def risk(card: Card) -> float:
        return max((t.risk_beaten(card, s, led) for s in enemies_later), default=0.0)

    winners = [m for m in legal if beats(m % 24, win_card, trump, strength)]
    friend_winning = t.friend(win_seat)

    def cheap(m: Move) -> float:
        return POINTS[m % 24] + keep_value(t, m % 24, view)

    if friend_winning:
        # Does our card hold?  (nobody of theirs plays later, or cannot beat it)
        hold = 1.0 - max((t.risk_beaten(win_card, s, led) for s in enemies_later),
                         default=0.0)
        if hold >= 0.75:
            m = max(legal, key=lambda m: POINTS[m % 24] - keep_value(t, m % 24, view))
            if POINTS[m % 24] > 0:
                return m, ("our side takes this trick: it is the place for points",
                           "взятка наша: в неё стоит положить очки")
            return min(legal, key=cheap), ("our side takes this trick",
                                           "взятка наша")
        # Our card may be beaten: take over with a sure winner if we have one.
        sure = [m for m in winners if risk(m % 24) < 0.2]
        if sure:
            m = min(sure, key=lambda m: (POINTS[m % 24] < 10, cheap(m)))
            return m, ("it makes sure of the trick", "так взятка будет наверняка")
        return min(legal, key=cheap), ("a low card is enough here",
                                       "здесь хватит мелкой карты")
    # The trick goes to them so far.
    if winners:
        scored: list[tuple[float, Move, int]] = []
        for m in winners:
            c = m % 24
            p = 1.0 - risk(c)
            gain = on_table + POINTS[c]
            scored.append((p, m, gain))
        safe_wins = [x for x in scored if x[0] >= 0.8]
        if safe_wins:
            # the cheapest sure winner: the big cards are kept for later
            m = min(safe_wins, key=lambda x: cheap(x[1]))[1]
            c = m % 24
            if trump >= 0 and c // 6 == trump and led != trump:
                why = ("the trick is worth a trump", "взятка стоит козыря")
            else:
                why = ("the cheapest card that surely takes the trick",
                       "самая дешёвая карта, которая наверняка берёт взятку")
            return m, why
        # An unsure winner: try it only when it is cheap and the trick is worth it.
        p, m, _ = max(scored, key=lambda x: x[0] * (x[2] + 10) - POINTS[x[1] % 24])
        if p >= 0.5 and p * (on_table + POINTS[m % 24]) > (1 - p) * POINTS[m % 24] + 3:
            return m, ("a fair chance to take the trick", "есть хороший шанс взять взятку")
    m = min(legal, key=cheap)
    c = m % 24
    if any(c2 % 6 == ACE and c2 // 6 == led for _, c2 in trick) and led == c // 6:
        return m, ("the ace takes it: a ten under it would be lost",
                   "туз берёт: десятка под ним пропала бы")
    return m, ("the trick cannot be taken: the cheapest card goes",
               "взятку не взять: отдаётся самая дешёвая карта")
