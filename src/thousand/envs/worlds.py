"""Whole deals that fit what one seat has seen: the determinizations of the search bots.

OpenSpiel's information-set search (``resample_from_infostate``) and an OpenSpiel bot seated
at a ``thousand arena`` table need a complete state that one seat cannot tell from the real
one.  :func:`determinize` draws one: the hidden cards are placed by the search bots' own
sampler (:func:`thousand.bots.sampling.knowledge`: hands, talon, discards that fit every card
seen, every void shown, every declaration, bid and pass), then the deal is taken back to its
start (the cards each seat was dealt, a face-down give chosen among the cards the receiver
holds, a talon the seat never saw among the declarer's cards) and its moves are replayed
through the engine; a draw the engine refuses (a bid the drawn hand could not make, a lead
it could not lead) is drawn again, and the result is kept only when the seat's view of the
replayed deal is its view (:func:`thousand.envs.observation.view_key`, and the legal moves).
Where the sampler finds no world that passes its own checks (it happens in a few per cent
of positions late in a deal), the cards are drawn without those checks, the replay still
holding every draw to the rules and the view.

:func:`game_from_view` rebuilds the game around a deal from what the score sheet shows
(:class:`thousand.engine.view.GameInfo`): scores, barrel, bolts, concedes, falls, the deal's
number and whether it is golden.  Counters the sheet does not show (a bolt streak, a
redeal streak, a seat barred from the barrel after a reset) start at 0.

Two players (RULES §4 "Two players"): the hidden places are the other hand, the talon cards
nobody has seen (all four before the declarer chooses, then the talon he left) and, for the
defender, the declarer's two discards (:func:`seat_knowledge`); the four cards are then laid
out as talon 1 and talon 2, the cut's bottom card in talon 2, the chosen talon among the
declarer's cards when the defender did not see it.  These draws hold every card seen, every
void and every declaration, but do not yet weigh the bids as the sampler of three and four
players does: the replay holds them to the rules and the view all the same.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from thousand.bots.sampling import (
    DISCARDS,
    TALON,
    Knowledge,
    World,
    _declared_partners,
    knowledge,
)
from thousand.engine import moves as mv
from thousand.engine.cards import FULL_DECK, JACK, NINE, Card, Mask, cards_of
from thousand.engine.errors import IllegalMove
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.play_rules import note_voids
from thousand.engine.view import View

from .observation import view_key

__all__ = ["Determinization", "determinize", "game_from_view", "replay", "seat_knowledge"]


@dataclass(frozen=True, slots=True)
class Determinization:
    """A complete deal: the cards dealt (by seat), the talon, the cut, and the moves that
    lead to the position (the engine's, ``look`` included); with two players ``talons``
    are talon 1 and talon 2 (``talon`` both)."""

    hands: tuple[Mask, ...]
    talon: Mask
    cut: tuple[Card, ...]
    moves: tuple[Move, ...]
    talons: tuple[Mask, ...] = ()


def game_from_view(view: View) -> Game:
    """A game (no deal dealt yet) whose score sheet is the one ``view`` shows, with
    ``view.dealer`` to deal."""
    r = view.rules
    game = Game(r, first_dealer=view.dealer, seed=0, auto_deal=False)
    info = view.game
    if info is not None:
        for s, st in enumerate(game.seats):
            st.score = info.scores[s]
            st.on_barrel = info.on_barrel[s]
            left = info.barrel_deals_left[s]
            st.barrel_deals = 0
            if left is not None and r.barrel_deals is not None:
                st.barrel_deals = r.barrel_deals - left
            st.bolts = info.bolts[s]
            st.concedes = info.concedes[s]
            st.falls = info.falls[s]
        game.deals_played = info.deal_number - 1
    if r.golden_deals:
        # is_golden(): deals_played - golden_start < golden_count (3; 2 with two players)
        start = game.deals_played
        game.golden_start = start if view.golden else start - game.golden_count
    game.dealer = view.dealer
    return game


def _played(view: View) -> list[Mask]:
    out = [0] * view.players
    for t in view.tricks:
        for s, c in t.cards:
            out[s] |= 1 << c
    for s, c in view.trick:
        out[s] |= 1 << c
    return out


def _pick(mask: Mask, k: int, rng: random.Random) -> Mask:
    cards = cards_of(mask)
    if len(cards) < k:
        raise _Reject
    out = 0
    for c in rng.sample(cards, k):
        out |= 1 << c
    return out


class _Reject(Exception):
    pass


def _rebuild(view: View, world: World, rng: random.Random) -> Determinization:
    """The deal's start and moves from a drawn world (may raise :class:`_Reject`)."""
    n = view.players
    played = _played(view)
    held = [world.hands[s] | played[s] for s in range(n)]
    d = view.declarer
    gives: list[Card] = []
    discards: list[Card] = []
    if d < 0:
        talon = world.talon
    else:
        # the gives: a face-down one is some card the receiver holds or held
        taken_back: Mask = 0
        for c, to in view.given:
            if c is None:
                choices = held[to] & ~taken_back
                if not choices:
                    raise _Reject
                c = rng.choice(cards_of(choices))
            taken_back |= 1 << c
            held[to] &= ~(1 << c)
            gives.append(c)
        disc = view.discards if view.discards is not None else world.discards
        discards = cards_of(disc)  # in some order: hidden discards are told apart by none
        rng.shuffle(discards)
        holding = held[d] | taken_back | disc
        if view.talon is not None:
            talon = view.talon
        elif world.talon:
            talon = world.talon
        else:
            known = view.talon_known
            if known & ~holding:
                raise _Reject
            talon = known | _pick(holding & ~known, 3 - known.bit_count(), rng)
        if talon & ~holding:
            raise _Reject
        held[d] = holding & ~talon
    if talon.bit_count() != 3:
        raise _Reject
    cut = _glimpse(view.cut, talon, rng)
    moves = _moves(view, gives, discards)
    return Determinization(tuple(held), talon, cut, moves)


def _glimpse(
    seen: tuple[Card | None, ...], bottom_of: Mask, rng: random.Random
) -> tuple[Card, ...]:
    """The cut's cards, the dealer's glimpse at the bottom of the deck (hidden from this
    seat) drawn among the cards of ``bottom_of`` that can lie there: not a nine or a jack,
    in the talon (two players: talon 2)."""
    cut = list(seen)
    if cut and cut[-1] is None:
        bottom = [c for c in cards_of(bottom_of) if c % 6 not in (NINE, JACK)]
        if not bottom:
            raise _Reject
        cut[-1] = rng.choice(bottom)
    return tuple(c for c in cut if c is not None)


def _moves(view: View, gives: list[Card], discards: list[Card]) -> tuple[Move, ...]:
    """The deal's moves as the engine made them, the face-down gives and discards the drawn
    ones."""
    moves: list[Move] = []
    gi = di = 0
    for text in view.history:
        if text == "give ??":
            moves.append(mv.give(gives[gi]))
            gi += 1
        elif text == "discard ??":
            moves.append(mv.discard(discards[di]))
            di += 1
        else:
            m = mv.parse_move(text)
            if mv.is_give(m):
                gi += 1
            elif mv.is_discard(m):
                di += 1
            moves.append(m)
    return tuple(moves)


# ---------------------------------------------------------------------- two players


def seat_knowledge(view: View) -> Knowledge:
    """What ``view.seat`` knows of the hidden cards, for the draws: the search bots'
    sampler (:func:`thousand.bots.sampling.knowledge`), or with two players the places of
    the two-player deal (the module docstring)."""
    return _two_player_knowledge(view) if view.players == 2 else knowledge(view)


def _two_player_knowledge(view: View) -> Knowledge:
    """:func:`seat_knowledge` with two players (RULES §4 "Two players" 1-3)."""
    me = view.seat
    assert me is not None
    seen = view.played_cards()
    fixed: dict[int, Mask] = {}
    sizes = {1 - me: view.hand_sizes[1 - me]}
    known: dict[int, Mask] = {}
    exclude: dict[int, Mask] = {}
    if view.hand is not None:
        fixed[me] = view.hand
        seen |= view.hand
    else:
        sizes[me] = view.hand_sizes[me]
    seen |= _talon_places(view, sizes, known, exclude)
    for s, m in _declared_partners(view, view.played_cards()).items():
        if s != me:
            known[s] = known.get(s, 0) | m
    r = view.rules
    for t in view.tricks:
        note_voids(t.cards, t.trump, r.must_overtake, exclude, r.ten_strength)
    if len(view.trick) > 1:
        note_voids(view.trick, view.trump, r.must_overtake, exclude, r.ten_strength)
    for m in known.values():
        seen |= m
    return Knowledge(seat=me, players=2, sizes=sizes, known=known, exclude=exclude,
                     pool=FULL_DECK & ~seen, fixed=fixed)


def _talon_places(
    view: View, sizes: dict[int, int], known: dict[int, Mask], exclude: dict[int, Mask]
) -> Mask:
    """Add the talon cards' hidden places to ``sizes``, ``known`` and ``exclude`` (two
    players): the four face down before the choice, then the two left and, for the
    defender, the declarer's discards; return the cards the seat has seen besides (its own
    discards as declarer)."""
    chosen = view.talon_choice
    bottom = view.talon_known  # the cut's bottom card: in talon 2
    if chosen < 0:
        sizes[TALON] = 4  # both talons, face down
        known[TALON] = bottom
        return 0
    sizes[TALON] = 2  # the talon he left: nobody has seen it
    if chosen == 0:
        known[TALON] = bottom
    if view.seat == view.declarer:
        return view.discards or 0
    n_disc = sum(1 for text in view.history if text.startswith("discard"))
    if n_disc:
        sizes[DISCARDS] = n_disc
    # the talon he took is among his cards (or discarded, or played)
    exclude[TALON] = (view.talon or 0) | (bottom if chosen == 1 else 0)
    return 0


def _rebuild_two(view: View, world: World, rng: random.Random) -> Determinization:
    """:func:`_rebuild` with two players: talon 1 and talon 2 laid out from the drawn
    cards (may raise :class:`_Reject`)."""
    played = _played(view)
    held = [world.hands[s] | played[s] for s in range(2)]
    chosen = view.talon_choice
    discards: list[Card] = []
    if chosen < 0:
        talons = _split_talons(world.talon, view, rng)
    else:
        d = view.declarer
        disc = view.discards if view.discards is not None else world.discards
        discards = cards_of(disc)
        rng.shuffle(discards)
        holding = held[d] | disc
        taken = view.talon
        if taken is None:
            # the defender did not see it: two of the declarer's cards (the cut's bottom
            # card among them when he chose talon 2)
            must = view.talon_known if chosen == 1 else 0
            if must & ~holding:
                raise _Reject
            taken = must | _pick(holding & ~must, 2 - must.bit_count(), rng)
        left = view.other_talon if view.other_talon is not None else world.talon
        if taken & ~holding or taken.bit_count() != 2 or left.bit_count() != 2:
            raise _Reject
        held[d] = holding & ~taken
        talons = (taken, left) if chosen == 0 else (left, taken)
    cut = _glimpse(view.cut, talons[1], rng)
    return Determinization(tuple(held), talons[0] | talons[1], cut, _moves(view, [], discards),
                           talons)


def _split_talons(four: Mask, view: View, rng: random.Random) -> tuple[Mask, Mask]:
    """Talon 1 and talon 2 of four face-down cards, the cut's bottom card (known, or one
    the dealer may have glimpsed) in talon 2."""
    cards = cards_of(four)
    if len(cards) != 4:
        raise _Reject
    rng.shuffle(cards)
    cut = view.cut
    if cut and (cut[-1] is None or cut[-1] % 6 != JACK):
        last = cut[-1]
        if last is None:
            eligible = [c for c in cards if c % 6 not in (NINE, JACK)]
            if not eligible:
                raise _Reject
            last = rng.choice(eligible)
        if last not in cards:
            raise _Reject
        cards.remove(last)
        cards.append(last)
    return (1 << cards[0]) | (1 << cards[1]), (1 << cards[2]) | (1 << cards[3])


def replay(game: Game, det: Determinization) -> None:
    """Deal ``det``'s cards in ``game`` (no deal in progress) and make its moves."""
    game.start_deal(det.hands, det.talon, det.cut, det.talons)
    for m in det.moves:
        game.apply(m)


def determinize(
    view: View,
    rng: random.Random,
    make_game: object = None,
    know: Knowledge | None = None,
    tries: int = 60,
) -> tuple[Determinization, Game] | None:
    """A deal that ``view``'s seat cannot tell from the real one, and the game replayed to
    it (``make_game()``: a fresh game to deal it in; default :func:`game_from_view`).
    ``know`` is ``knowledge(view)``, when the caller keeps it for many draws.  None when
    no draw in ``tries`` fits (it does not happen in the tests' games)."""
    if view.seat is None:
        raise ValueError("a determinization is a seat's: view(None) is a spectator's")
    know = know if know is not None else seat_knowledge(view)
    want = view_key(view)
    build = make_game if callable(make_game) else (lambda: game_from_view(view))
    relaxed = False
    for _ in range(tries):
        world = know.sample(rng)
        if world is None:
            if relaxed:
                return None
            # The sampler found no world that passes its checks (the weighing of bids and
            # passes, the marriages a bid proves, its alternatives): draw without them; the
            # replay below still holds every draw to the rules and to the seat's view.
            know = dataclasses.replace(know, checks=[], variants=[])
            relaxed = True
            continue
        try:
            det = (_rebuild_two if view.players == 2 else _rebuild)(view, world, rng)
            game = build()
            replay(game, det)
        except (_Reject, IllegalMove, ValueError):
            continue
        if game.deal is None:
            continue
        got = game.view(view.seat)
        if view_key(got) == want and got.legal == view.legal:
            return det, game
    return None
