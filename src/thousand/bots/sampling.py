"""Deals consistent with what one seat has seen: the sampler behind the search bots.

A search bot does not know the other hands.  It reads its :class:`~thousand.engine.view.View`
into a :class:`Knowledge` value (which cards may lie where) and draws complete *worlds*
from it: every hidden card placed in a hand, the talon or the discards, with the right
number of cards in each place.  The solver then plays each world open-handed.

What the view says, and how it is used (hard constraints: a world that breaks one is never
drawn):

* the seat's own hand, the cards played, the talon once it was shown to this seat, the
  declarer's discards (declarer only), the cards the declarer gave (the giver knows both,
  a receiver his own);
* **voids**: a seat that did not follow the suit led has none of it left; if it did not
  trump either while a trump was set, it has no trump left;
* **must_overtake**: a seat that followed under the highest card of the suit led has no
  higher card of that suit ("higher" by strength: with ``ten_strength=natural`` the ten is
  below the jack);
* **declarations**: a seat that led ``K+`` holds the queen (and so on for half marriages,
  the ace marriage and four nines) until it plays it;
* **the cut** (``cut_nines``, RULES §4 "The cut"): the talon cards the seat knows before
  the talon is shown (:attr:`~thousand.engine.view.View.talon_known`: the bottom card the dealer
  glimpsed, a third nine shown to all) lie in the talon, and once the talon is taken in the
  declarer's hand as below; the other nines and the jack shown at the cut say nothing of
  where they lie (the deck was cut again);
* **the talon shown to all**: a defender knows that those cards went into the declarer's
  hand, and that his partner received at most one of them (the one given card); in the
  buy phase (``talon_buy``) and in the exchange before the partner was given a card, all
  of them are the declarer's;
* **bids above the cap**: a seat that bid above ``bid_cap`` held marriages worth the
  difference in its 7 cards; a contract raised above the bid and the cap says the same of
  the declarer's hand after the exchange (a bought price needs no marriage, RULES §4
  "Talon buy-out": kept at the price it proves nothing); outbidding a dark bid
  (``dark_outbid_needs_marriage``) needs a marriage.

* **two players** (RULES §4 "Two players"): the opponent's hand and both talons until the
  declarer chooses one (the dealer's glimpse lies in talon 2), then the talon not chosen
  (seen by nobody until the deal ends) and, for the defender, the declarer's hand and his
  two discards (:func:`_two_knowledge`).

Soft evidence (a world is kept with a probability, so likely worlds are drawn more often):
each bid and pass of the other seats, through the heuristic bot's hand model
(:func:`~thousand.bots.evaluate.predict_auction`, the model of the rules'
``ten_strength``): a seat that bid ``b`` voluntarily is taken to hold a hand worth about
``b`` or more, one that passed when ``b`` was the next bid (the engine's ladder,
:func:`~thousand.engine.deal.next_bid`: 130 after a dark 120 with steps of 15) a hand worth
less.  A bid sets no upper bound (with ``bid_jumps=false`` a one-step raise is all a strong
hand may bid); an opening 100 that had to be made (always the first bid; the only one with
``opening_bid=exactly_100``) and a pass that could not be a bid (the next bid above the
seat's cap, or a dark bid it may not outbid without a marriage) say nothing.  The model is
deliberately loose (a logistic of width ``AUCTION_SOFTNESS`` points): the opponents may be
people.

Everything is reproducible: a :class:`random.Random` is passed in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from thousand.engine import moves as mv
from thousand.engine.cards import (
    ACE,
    FULL_DECK,
    HALF_MARRIAGE_MASK,
    MARRIAGE_MASK,
    NINE,
    POINTS,
    RANK_MASK,
    Mask,
    cards_of,
    marriage_sum,
)
from thousand.engine.deal import Phase, next_bid
from thousand.engine.play_rules import note_voids as _note_voids
from thousand.engine.rules import Rules
from thousand.engine.view import View

from .evaluate import predict_auction

#: Location of the talon and of the declarer's hidden discards in a :class:`World`.
TALON = -1
DISCARDS = -2
#: Two players (RULES §4 "Two players"): talon 1 and talon 2 before the declarer chooses
#: one, and the talon he did not choose after it (nobody sees it until the deal ends).
TALON_1 = -3
TALON_2 = -4
OTHER_TALON = -5

#: Width (points) of the logistic that turns a bid or a pass into a likelihood.
AUCTION_SOFTNESS = 18.0
#: A voluntary bid of ``b`` is centred on a hand predicted at ``b + AUCTION_MARGIN``.
AUCTION_MARGIN = 5.0


@dataclass(frozen=True, slots=True)
class World:
    """One complete assignment of the cards: ``hands`` by seat (a sitting-out dealer 0),
    the talon (0 once it was taken) and the discards (0 unless ``discard_three`` or two
    players).  Two players: ``talons`` are talon 1 and talon 2 until the declarer chooses
    one (``talon`` is then 0), and ``other_talon`` the one he did not choose after it: its
    card points count to the defender when the deal ends (RULES §4 "Two players" 3)."""

    hands: tuple[Mask, ...]
    talon: Mask = 0
    discards: Mask = 0
    talons: tuple[Mask, ...] = ()
    other_talon: Mask = 0

    def cards(self) -> Mask:
        """Every card placed in this world (the 24 less those played)."""
        out = self.talon | self.discards | self.other_talon
        for m in (*self.hands, *self.talons):
            out |= m
        return out


Check = Callable[[dict[int, Mask]], float]


#: (free room by place, cards to place, places with room, each card's places, restricted?)
_Plan = tuple[dict[int, int], list[int], list[int], dict[int, list[int]], bool]


@dataclass
class Knowledge:
    """What one seat knows about where the cards are.

    ``sizes``: the hidden places (a seat, :data:`TALON`, :data:`DISCARDS`) and how many
    cards each holds now.  ``known``: cards known to be in a place.  ``exclude``: cards
    that cannot be in a place.  ``pool``: the cards to deal out (not seen, not known).
    ``fixed``: the places whose whole content is known (own hand, a seen talon...).
    ``checks``: functions of a drawn placement returning a weight in [0, 1] (0: impossible).
    """

    seat: int | None
    players: int
    sizes: dict[int, int]
    known: dict[int, Mask]
    exclude: dict[int, Mask]
    pool: Mask
    fixed: dict[int, Mask]
    checks: list[Check] = field(default_factory=list)
    #: groups of alternatives: each group places a few cards in one of several ways
    #: (weight, {place: cards}); one alternative of each group is drawn first.
    variants: list[list[tuple[float, dict[int, Mask]]]] = field(default_factory=list)
    _plans: dict[tuple[Mask, tuple[tuple[int, Mask], ...]], _Plan | None] = field(
        default_factory=dict, repr=False, compare=False)

    # ------------------------------------------------------------------ drawing

    def allowed(self, loc: int) -> Mask:
        return self.pool & ~self.exclude.get(loc, 0)

    def free(self) -> dict[int, int]:
        return {
            loc: n - self.known.get(loc, 0).bit_count() for loc, n in self.sizes.items()
        }

    def deal_once(self, rng: random.Random, tries: int = 40) -> dict[int, Mask] | None:
        """One placement of the pool that respects the exclusions (no checks), or None."""
        if not self.variants:
            return self._deal(self.known, self.pool, rng, tries)
        known = dict(self.known)
        pool = self.pool
        for group in self.variants:
            total = sum(w for w, _ in group)
            x = rng.random() * total
            pick = group[-1][1]
            for w, extra in group:
                x -= w
                if x < 0:
                    pick = extra
                    break
            for loc, m in pick.items():
                m &= ~known.get(loc, 0)  # already placed there by another group
                if m & ~pool or m & self.exclude.get(loc, 0):
                    return None  # clashes with another group's choice
                known[loc] = known.get(loc, 0) | m
                pool &= ~m
        return self._deal(known, pool, rng, tries)

    def _deal(
        self, known: dict[int, Mask], pool: Mask, rng: random.Random, tries: int
    ) -> dict[int, Mask] | None:
        plan = self._plan(known, pool)
        if plan is None:
            return None
        free0, cards, locs, options, constrained = plan
        for _ in range(tries):
            out = {loc: known.get(loc, 0) for loc in self.sizes}
            if not constrained:
                deck = cards[:]
                rng.shuffle(deck)
                i = 0
                for loc in locs:
                    k = free0[loc]
                    for c in deck[i:i + k]:
                        out[loc] |= 1 << c
                    i += k
                return out
            free = dict(free0)
            order = cards[:]
            rng.shuffle(order)
            order.sort(key=lambda c: len(options[c]))
            ok = True
            for c in order:
                cand = [loc for loc in options[c] if free[loc] > 0]
                if not cand:
                    ok = False
                    break
                total = sum(free[loc] for loc in cand)
                x = rng.random() * total
                for loc in cand:
                    x -= free[loc]
                    if x < 0:
                        break
                out[loc] |= 1 << c
                free[loc] -= 1
            if ok:
                return out
        return None

    def _plan(self, known: dict[int, Mask], pool: Mask) -> _Plan | None:
        """What :meth:`_deal` needs to place ``pool`` around ``known`` (free room by
        place, the cards, the places with room, each card's possible places, whether any
        card is restricted), or None if the cards cannot fit.  Cached: a seat samples the
        same knowledge many times per decision."""
        key = (pool, tuple(known.items()))
        try:
            return self._plans[key]
        except KeyError:
            pass
        free0 = {loc: n - known.get(loc, 0).bit_count() for loc, n in self.sizes.items()}
        cards = cards_of(pool)
        plan: _Plan | None = None
        if all(v >= 0 for v in free0.values()) and sum(free0.values()) == len(cards):
            locs = [loc for loc in free0 if free0[loc] > 0]
            options = {c: [loc for loc in locs if not self.exclude.get(loc, 0) >> c & 1]
                       for c in cards}
            constrained = any(len(o) < len(locs) for o in options.values())
            plan = (free0, cards, locs, options, constrained)
        if len(self._plans) < 4096:
            self._plans[key] = plan
        return plan

    def weight(self, placed: dict[int, Mask]) -> float:
        w = 1.0
        for check in self.checks:
            w *= check(placed)
            if w <= 0.0:
                return 0.0
        return w

    def sample(self, rng: random.Random, attempts: int = 60) -> World | None:
        """One world: drawn until a placement passes the checks (kept with probability
        equal to its weight); after ``attempts`` draws the likeliest one drawn is kept
        (None only when nothing consistent was found)."""
        best: dict[int, Mask] | None = None
        best_w = 0.0
        for _ in range(attempts):
            placed = self.deal_once(rng)
            if placed is None:
                continue
            w = self.weight(placed)
            if w > best_w:
                best, best_w = placed, w
            if w > 0 and rng.random() < w:
                return self.world(placed)
        return self.world(best) if best is not None else None

    def samples(self, rng: random.Random, n: int) -> list[World]:
        out = []
        for _ in range(n):
            w = self.sample(rng)
            if w is None:
                break
            out.append(w)
        return out

    def world(self, placed: dict[int, Mask]) -> World:
        hands = [0] * self.players
        extra = {TALON: 0, DISCARDS: 0, TALON_1: 0, TALON_2: 0, OTHER_TALON: 0}
        for loc, m in (*self.fixed.items(), *placed.items()):
            if loc < 0:
                extra[loc] |= m
            else:
                hands[loc] |= m
        two_talons = TALON_1 in self.sizes or TALON_1 in self.fixed
        talons = (extra[TALON_1], extra[TALON_2]) if two_talons else ()
        return World(tuple(hands), extra[TALON], extra[DISCARDS], talons, extra[OTHER_TALON])


def with_talon(know: Knowledge, w: World) -> Knowledge:
    """``know`` with what the declarer sees on taking the talon fixed to world ``w``'s:
    the talon, and the seat's own hand where it was unseen (a dark bid).  Its deals are
    those a declarer weighs his contract over once he holds those ten cards.  The checks
    stay (they read the placed hands); a variant that would put one of those cards
    elsewhere is simply not drawn."""
    if TALON not in know.sizes or not w.talon:
        return know
    known = dict(know.known)
    known[TALON] = known.get(TALON, 0) | w.talon
    pool = know.pool & ~w.talon
    me = know.seat
    if me is not None and me in know.sizes:
        known[me] = known.get(me, 0) | w.hands[me]
        pool &= ~w.hands[me]
    return replace(know, known=known, pool=pool, _plans={})


# ---------------------------------------------------------------------- from a view


def _declared_partners(view: View, exclude_played: Mask) -> dict[int, Mask]:
    """Cards a seat is known to hold because it declared with them."""
    out: dict[int, Mask] = {}
    for d in view.declarations:
        s = d.suit
        if d.kind == "marriage":
            m = MARRIAGE_MASK[s]
        elif d.kind == "half_marriage":
            m = HALF_MARRIAGE_MASK[s]
        elif d.kind == "ace_marriage":
            m = RANK_MASK[ACE]
        elif d.kind == "four_nines":
            m = RANK_MASK[NINE]
        else:  # pragma: no cover - no other kinds exist
            continue
        out[d.seat] = out.get(d.seat, 0) | (m & ~exclude_played)
    return out


def sigmoid(x: float) -> float:
    """The logistic function (0 far below: ``exp`` would overflow), by which the sampler
    weighs a deal against the bids and the auction's search a bid's chance at the table."""
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True, slots=True)
class _AuctionAct:
    seat: int
    bid: int  # the bid made, or 0 for a pass
    next_bid: int  # for a pass: the lowest bid he could have made
    informative: bool
    #: a bid: it outbid a standing dark bid; a pass: a dark bid was standing
    outbid_dark: bool


def auction_acts(view: View) -> list[_AuctionAct]:
    """The bids and passes of the auction, with what each could have been.

    The first bid (100 or more) cannot be a pass: an opening 100 is compulsory and tells
    nothing (with ``opening_bid=exactly_100`` it is the only opening there is).  A bid tells
    only that the hand is worth about that much or more, never less: with
    ``bid_jumps=false`` a one-step raise is the most anybody may bid."""
    r = view.rules
    high = 0
    dark_standing = False
    out = []
    barred = set()
    if r.min_score_to_bid is not None and view.game is not None:
        barred = {s for s, sc in enumerate(view.game.scores) if sc <= r.min_score_to_bid}
    for seat, m in view.auction:
        if m == mv.DARK:
            high = 120
            dark_standing = True
            continue
        if m == mv.REDEAL:
            continue
        if m == mv.PASS:
            nxt = 100 if high == 0 else next_bid(r, high)
            out.append(_AuctionAct(seat, 0, nxt, seat not in barred, dark_standing))
            continue
        b = mv.value_of(m)
        compulsory = high == 0 and b == 100
        out.append(_AuctionAct(seat, b, 0, not compulsory, dark_standing))
        high = b
        dark_standing = False
    return out


def auction_check(
    view: View, seat: int, original: Callable[[dict[int, Mask]], Mask],
    soft: bool = True,
) -> Check | None:
    """A check of ``seat``'s original 7 cards (``original(placed)`` rebuilds them) against
    its bids: hard (a bid above the cap needs marriages; outbidding a dark bid needs one)
    and, with ``soft``, the likelihood of its bids and passes."""
    r = view.rules
    values = r.marriage_values
    acts = [a for a in auction_acts(view) if a.seat == seat]
    need = 0
    needs_marriage = False
    soft_acts = []
    for a in acts:
        if a.bid:
            need = max(need, a.bid - r.bid_cap)
            if a.outbid_dark and r.dark_outbid_needs_marriage:
                needs_marriage = True
        if a.informative and soft:
            soft_acts.append(a)
    if need <= 0 and not needs_marriage and not soft_acts:
        return None
    extra = 6.0 if r.exchange == "discard_three" and view.players != 2 else 0.0
    # (two players hold 10 cards and choose a talon: the hand model fitted for that)
    players = view.players

    def check(placed: dict[int, Mask]) -> float:
        hand = original(placed)
        ms = marriage_sum(hand, values)
        if ms < need or (needs_marriage and ms == 0):
            return 0.0
        if not soft_acts:
            return 1.0
        pred = predict_auction(hand, values, r.ten_strength, players) + extra
        w = 1.0
        for a in soft_acts:
            if a.bid:
                w *= sigmoid(1.7 * (pred - a.bid - AUCTION_MARGIN) / AUCTION_SOFTNESS)
            elif _could_bid(r, a, ms):
                w *= sigmoid(1.7 * (a.next_bid + AUCTION_MARGIN - pred) / AUCTION_SOFTNESS)
        return w

    return check


def _could_bid(r: Rules, a: _AuctionAct, marriages: int) -> bool:
    """Whether a seat whose marriages are worth ``marriages`` could have made the next bid
    when it passed (``a``): not above its cap (RULES §2.2), nor over a standing dark bid
    without a marriage (``dark_outbid_needs_marriage``)."""
    if a.next_bid > r.bid_cap + marriages:
        return False
    return not (a.outbid_dark and r.dark_outbid_needs_marriage and marriages == 0)


def knowledge(view: View, soft: bool = True) -> Knowledge:
    """What ``view.seat`` knows about the cards, at any phase of the deal: the hidden
    places and their sizes, the cards known in or kept out of each, the pool left to deal,
    and the alternatives and checks that weigh a drawn placement."""
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view has no seat to sample for")
    if view.players == 2:
        return _two_knowledge(view, soft)
    d = view.declarer
    pre_exchange = d < 0
    others = [s for s in view.active if s != me]
    played = view.played_cards()
    fixed, sizes, known = _places(view, me, others, pre_exchange)
    _add_shown_cards(view, me, played, known)
    seen = played
    for m in (*fixed.values(), *known.values()):
        seen |= m
    exclude = _voids(view)
    talon_groups = _taken_talon(view, me, others, pre_exchange, exclude)
    pool = FULL_DECK & ~seen
    talon_info = _talon_info(view)
    if talon_info and not pre_exchange and me != d and not talon_groups and DISCARDS not in sizes:
        # nowhere else to be: the talon is in the declarer's hand (or played)
        on_d = talon_info & pool
        known[d] = known.get(d, 0) | on_d
        pool &= ~on_d
    variants = _talon_variants(view, talon_groups, pool, known)
    variants += _marriage_groups(view, others, pre_exchange, pool, known, exclude)
    return Knowledge(
        seat=me, players=view.players, sizes=sizes, known=known, exclude=exclude, pool=pool,
        fixed=fixed, checks=_auction_checks(view, others, pre_exchange, soft),
        variants=variants,
    )


def _places(
    view: View, me: int, others: list[int], pre_exchange: bool
) -> tuple[dict[int, Mask], dict[int, int], dict[int, Mask]]:
    """The places whose cards the seat sees (``fixed``: its hand, a shown talon, its own
    discards), the hidden places and their sizes, and the talon card known from the cut."""
    r = view.rules
    fixed: dict[int, Mask] = {}
    sizes: dict[int, int] = {}
    known: dict[int, Mask] = {}
    if view.hand is not None:
        fixed[me] = view.hand
    else:
        sizes[me] = view.hand_sizes[me]
    for s in others:
        sizes[s] = view.hand_sizes[s]
    if pre_exchange:
        if view.talon is not None:  # pragma: no cover - the talon is shown only when taken
            fixed[TALON] = view.talon
        else:
            sizes[TALON] = 3
            # the cut (RULES §4): the dealer's glimpse of the bottom card, a third nine
            if view.talon_known:
                known[TALON] = view.talon_known
    # the declarer's discards (none yet in the buy phase, which comes before the exchange)
    if r.exchange == "discard_three" and not pre_exchange:
        n_disc = 3 if view.phase in _CONTRACT_NAMED else _n_discarded(view)
        if view.discards is not None:
            fixed[DISCARDS] = view.discards
        elif n_disc:
            sizes[DISCARDS] = n_disc
    return fixed, sizes, known


def _add_shown_cards(view: View, me: int, played: Mask, known: dict[int, Mask]) -> None:
    """The cards known in the others' hands: given face up to them and not played yet, and
    the partners of the marriages they declared."""
    for card, to in view.given:
        if card is not None and to != me and not played >> card & 1:
            known[to] = known.get(to, 0) | (1 << card)
    for s, m in _declared_partners(view, played).items():
        if s != me:
            known[s] = known.get(s, 0) | m


def _voids(view: View) -> dict[int, Mask]:
    """The cards each seat cannot hold by the way it followed: the suits it failed to
    follow (and, with ``must_overtake``, the cards it did not overtake with)."""
    r = view.rules
    exclude: dict[int, Mask] = {}
    for t in view.tricks:
        _note_voids(t.cards, t.trump, r.must_overtake, exclude, r.ten_strength)
    if len(view.trick) > 1:
        _note_voids(view.trick, view.trump, r.must_overtake, exclude, r.ten_strength)
    return exclude


def _talon_info(view: View) -> Mask:
    """The talon's cards this seat knows: those it saw, or those it knew from the cut when
    the talon stays hidden from it."""
    return view.talon if view.talon is not None else view.talon_known


def _taken_talon(
    view: View, me: int, others: list[int], pre_exchange: bool, exclude: dict[int, Mask]
) -> list[tuple[int, Mask]]:
    """The talon taken by the declarer (and not this seat's own hand): the other defender
    holds no talon card unless one was given to him (``give_one_each``): those defenders,
    with the talon's cards, for :func:`_talon_variants`; the others' exclusions are added
    to ``exclude``."""
    talon_info = _talon_info(view)
    d = view.declarer
    groups: list[tuple[int, Mask]] = []
    if pre_exchange or not talon_info or me == d:
        return groups
    for s in others:
        if s == d:
            continue
        if view.rules.exchange == "give_one_each" and any(to == s for _, to in view.given):
            groups.append((s, talon_info))
        else:
            # nothing given to him yet (the buy phase, the exchange) or ever
            # (discard_three): no talon card is his
            exclude[s] = exclude.get(s, 0) | talon_info
    return groups


def _talon_variants(
    view: View, talon_groups: list[tuple[int, Mask]], pool: Mask, known: dict[int, Mask]
) -> list[list[tuple[float, dict[int, Mask]]]]:
    """Where the talon's unplayed cards lie when the other defender was given one of the
    declarer's 10 (not the one given to me): a talon card with chance 1/9 each, unless he
    is known to hold one (played it, declared with it)."""
    d = view.declarer
    variants: list[list[tuple[float, dict[int, Mask]]]] = []
    for s, talon in talon_groups:
        rest = talon & pool
        if not rest:
            continue
        if (played_by(view, s) | known.get(s, 0)) & talon:
            variants.append([(1.0, {d: rest})])
            continue
        group: list[tuple[float, dict[int, Mask]]] = [(1.0 - rest.bit_count() / 9, {d: rest})]
        for c in cards_of(rest):
            group.append((1 / 9, {d: rest & ~(1 << c), s: 1 << c}))
        variants.append(group)
    return variants


def _marriage_groups(
    view: View, others: list[int], pre_exchange: bool, pool: Mask, known: dict[int, Mask],
    exclude: dict[int, Mask],
) -> list[list[tuple[float, dict[int, Mask]]]]:
    """The marriages that bids or a raised contract above the cap prove, as groups of
    alternatives (:attr:`Knowledge.variants`)."""
    out = []
    for s in others:
        need, any_marriage = _marriage_need(view, s, pre_exchange)
        if need > 0 or any_marriage:
            gone = played_by(view, s) if not pre_exchange else 0
            group = _marriage_variants(
                s, max(need, 1), view.rules.marriage_values, pool, known.get(s, 0) | gone,
                exclude.get(s, 0),
            )
            if group:
                out.append(group)
    return out


def _auction_checks(
    view: View, others: list[int], pre_exchange: bool, soft: bool
) -> list[Check]:
    """The auction's evidence on the others' hands of the auction, and the marriages a
    contract raised above the bid and the cap proves in the declarer's hand after the
    exchange (a bought price needs none)."""
    d = view.declarer
    out: list[Check] = []
    for s in others:
        orig: Callable[[dict[int, Mask]], Mask] | None
        if pre_exchange:
            orig = _orig_hand_fn(s)
        elif s == d:
            orig = _declarer_original(view, s)
        else:
            orig = _defender_original(view, s)
        if orig is None:
            continue
        chk = auction_check(view, s, orig, soft=soft)
        if chk is not None:
            out.append(chk)
    if not pre_exchange and d != view.seat and _raised_need(view) > 0:
        out.append(_raise_check(view, d))
    return out


def _two_knowledge(view: View, soft: bool = True) -> Knowledge:
    """:func:`knowledge` with two players (RULES §4 "Two players").

    Before the declarer chooses a talon the hidden places are the opponent's hand, talon 1
    and talon 2 (the dealer's glimpse at the cut, the bottom card, lies in talon 2).  After
    it: the talon not chosen (seen by nobody until the deal ends; it holds the glimpse when
    talon 1 was chosen) and, for the defender, the declarer's hand and his discards, which
    hold the chosen talon's cards he saw (shown, or glimpsed).  The bids weigh the
    opponent's 10 cards through the hand model fitted for two players
    (:data:`~thousand.bots.evaluate.TWO_PLAYER_MODELS`), as three players' bids weigh
    their 7."""
    me = view.seat
    assert me is not None
    r = view.rules
    d = view.declarer
    opp = next(s for s in view.active if s != me)
    played = view.played_cards()
    fixed: dict[int, Mask] = {}
    sizes: dict[int, int] = {opp: view.hand_sizes[opp]}
    known: dict[int, Mask] = {}
    exclude: dict[int, Mask] = {}
    seen = played
    if view.hand is not None:
        fixed[me] = view.hand
        seen |= view.hand
    else:
        sizes[me] = view.hand_sizes[me]
    glimpse = view.talon_known
    chosen = view.talon_choice
    if chosen < 0:
        sizes[TALON_1] = sizes[TALON_2] = 2
        if glimpse:
            known[TALON_2] = glimpse
    else:
        if view.other_talon is not None:
            fixed[OTHER_TALON] = view.other_talon
            seen |= view.other_talon
        else:
            sizes[OTHER_TALON] = 2
            if chosen == 0 and glimpse:
                known[OTHER_TALON] = glimpse
        if me != d:
            # the chosen talon's cards he saw went to the declarer (hand or discards)
            taken = (view.talon or 0) | (glimpse if chosen == 1 else 0)
            exclude[OTHER_TALON] = taken
        if view.discards is not None:
            fixed[DISCARDS] = view.discards
            seen |= view.discards
        else:
            n_disc = 2 if view.phase in _CONTRACT_NAMED else _n_discarded(view)
            if n_disc:
                sizes[DISCARDS] = n_disc
    for s, m in _declared_partners(view, played).items():
        if s != me:
            known[s] = known.get(s, 0) | m
    for m in known.values():
        seen |= m
    for t in view.tricks:  # (a trick of two in play has one card: nothing to read)
        _note_voids(t.cards, t.trump, r.must_overtake, exclude, r.ten_strength)
    pool = FULL_DECK & ~seen
    before = chosen < 0
    return Knowledge(
        seat=me, players=view.players, sizes=sizes, known=known, exclude=exclude, pool=pool,
        fixed=fixed, checks=_auction_checks(view, [opp], before, soft),
        variants=_marriage_groups(view, [opp], before, pool, known, exclude),
    )


def _marriage_need(view: View, seat: int, pre_exchange: bool) -> tuple[int, bool]:
    """The marriage value ``seat`` is taken to hold now (its above-cap bids before the
    exchange; after it, the declarer's bids and a contract raised above his bid), and
    whether it must hold some marriage."""
    r = view.rules
    need = 0
    anym = False
    for a in auction_acts(view):
        if a.seat == seat and a.bid:
            need = max(need, a.bid - r.bid_cap)
            anym = anym or (a.outbid_dark and r.dark_outbid_needs_marriage)
    if pre_exchange:
        return need, anym
    if seat == view.declarer:
        # (his bids' marriages are most likely still his)
        return max(need, _raised_need(view)), False
    return 0, False


#: The phases in which the declarer has named his contract (and finished his exchange).
_CONTRACT_NAMED = frozenset({Phase.REDEAL_OFFER, Phase.PLAY, Phase.DONE})


def _raised_need(view: View) -> int:
    """The marriage value the declarer's contract proves he holds after the exchange: a
    contract raised above the bid (to N) needs ``N − bid_cap`` (RULES §2.2).  The bid itself
    proves nothing here (above the cap the auction check reads it from the 7 cards he bid
    with), nor a bought price (RULES §4 "Talon buy-out": it needs no marriage)."""
    if view.phase not in _CONTRACT_NAMED or view.contract <= view.bid:
        return 0
    return max(0, view.contract - view.rules.bid_cap)


def _marriage_variants(
    seat: int, need: int, values: tuple[int, ...], pool: Mask, held: Mask, excluded: Mask
) -> list[tuple[float, dict[int, Mask]]]:
    """Ways to give ``seat`` marriages worth ``need`` or more: the smallest sets of suits
    whose K+Q may be his (already his, or unseen and not ruled out)."""
    suits = []
    for s in range(4):
        m = MARRIAGE_MASK[s]
        if m & excluded & ~held:
            continue
        if m & ~(held | pool):
            continue
        suits.append(s)
    out: list[tuple[float, dict[int, Mask]]] = []
    sets: list[int] = []
    for bits in range(1, 16):
        chosen = [s for s in suits if bits >> s & 1]
        if len(chosen) != bits.bit_count():
            continue
        if sum(values[s] for s in chosen) < need:
            continue
        if any(prev & bits == prev for prev in sets):
            continue  # not minimal
        sets.append(bits)
    for bits in sets:
        m = 0
        for s in range(4):
            if bits >> s & 1:
                m |= MARRIAGE_MASK[s]
        extra = m & pool
        out.append((1.0, {seat: extra} if extra else {}))
    return out


def _n_discarded(view: View) -> int:
    return sum(1 for h in view.history if h.startswith("discard"))


def played_by(view: View, seat: int) -> Mask:
    m = 0
    for t in view.tricks:
        for s, c in t.cards:
            if s == seat:
                m |= 1 << c
    for s, c in view.trick:
        if s == seat:
            m |= 1 << c
    return m


def _orig_hand_fn(seat: int) -> Callable[[dict[int, Mask]], Mask]:
    return lambda placed: placed.get(seat, 0)


def _declarer_original(view: View, d: int) -> Callable[[dict[int, Mask]], Mask] | None:
    """The declarer's 7 cards of the auction, from a defender's placement (when the talon
    was seen)."""
    talon = view.talon
    if talon is None:
        return None
    gone = played_by(view, d)
    given = 0
    for c, _ in view.given:
        if c is not None:
            given |= 1 << c

    def orig(placed: dict[int, Mask]) -> Mask:
        # what he holds, played, gave (the card given to the other seat is unknown here:
        # the talon counts as 3 of his 10 whatever he gave) and discarded, less the talon
        held = placed.get(d, 0) | gone | given | placed.get(DISCARDS, 0)
        return held & ~talon

    return orig


def _defender_original(view: View, s: int) -> Callable[[dict[int, Mask]], Mask] | None:
    """A defender's 7 cards of the auction: his cards now and played, less the one he was
    given (known to the declarer; guessed by the other defender as his cheapest card or a
    talon card)."""
    gone = played_by(view, s)
    given_to: Mask = 0
    unknown_gift = False
    for c, to in view.given:
        if to == s:
            if c is None:
                unknown_gift = True
            else:
                given_to |= 1 << c
    talon = view.talon or 0

    def orig(placed: dict[int, Mask]) -> Mask:
        held = placed.get(s, 0) | gone
        if given_to:
            return held & ~given_to
        if unknown_gift:
            t = held & talon
            if t:
                return held & ~t
            cheapest = min(cards_of(held), key=lambda c: (POINTS[c], c), default=None)
            if cheapest is not None:
                return held & ~(1 << cheapest)
        return held

    return orig


def _raise_check(view: View, d: int) -> Check:
    r = view.rules
    need = _raised_need(view)
    gone = played_by(view, d)

    def check(placed: dict[int, Mask]) -> float:
        return 1.0 if marriage_sum(placed.get(d, 0) | gone, r.marriage_values) >= need else 0.0

    return check


def sample_worlds(
    view: View, n: int, rng: random.Random, soft: bool = True
) -> list[World]:
    """``n`` worlds consistent with ``view`` (fewer only if none can be found)."""
    return knowledge(view, soft=soft).samples(rng, n)
