"""How much a hand is worth to its declarer: the heuristic bot's hand evaluation.

Two linear models predict the points a declarer takes in the play (cards taken plus the
marriages he declares, the discards of ``discard_three`` and of two players included):

* :func:`predict_auction` from the 7 cards held in the auction, the talon unknown;
* :func:`predict_play` from the 8 cards (7 with ``discard_three``) held after the exchange,
  his discards apart.

Two players (RULES §4 "Two players") have their own pair (:data:`TWO_PLAYER_MODELS`): 10
cards in the auction, with two unknown cards to come from the talon he chooses unseen and
the other talon's points lost to the defender; 10 cards after his two discards.

Their features are the things a club player counts: marriages, aces, tens guarded by their
ace, the top cards of each suit, the length of the would-be trump suit, voids.  The cards of
a suit are ordered as ``ten_strength`` says (RULES §1: with ``natural`` the ten lies below
the jack), and each order has its own weights (:data:`MODELS`).  The weights were fitted by
least squares on deals the heuristic bot played against itself (see
:mod:`thousand.bots.calibrate`, which regenerates them); each model also carries the
standard deviation of its error, so that the bot can turn a prediction into the chance of
making a contract.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from thousand.engine.cards import (
    ACE,
    KING,
    MARRIAGE_MASK,
    POINTS,
    QUEEN,
    RANK_POINTS,
    STRENGTH,
    TEN,
    Mask,
    cards_of,
    points_of,
)

# Fitted by ``python -m thousand.bots.calibrate`` (classic rules, heuristic self-play).
AUCTION_WEIGHTS: tuple[float, ...] = (
    31.390, 0.895, -0.440, 0.443, -0.171, 1.381, -0.192, 0.127, 3.279, 0.915, 6.981, 5.111,
    5.653,
)
AUCTION_SIGMA = 49.6
PLAY_WEIGHTS: tuple[float, ...] = (
    -22.737, 1.009, -1.079, 0.185, 0.173, 1.583, 0.138, 0.000, 4.687, -4.782, 6.464, 3.915,
    20.246,
)
PLAY_SIGMA = 25.8


@dataclass(frozen=True)
class HandModel:
    """The two fitted models of one card order (``ten_strength``) with their errors."""

    auction_weights: tuple[float, ...]
    auction_sigma: float
    play_weights: tuple[float, ...]
    play_sigma: float


#: The hand models by ``ten_strength`` (RULES §1).  ``high`` is fitted on ``classic``;
#: ``natural`` on ``classic`` with ``ten_strength=natural`` (``python -m
#: thousand.bots.calibrate 40000 1 natural``: the ``high`` weights on these features were
#: 1.5 points worse in the play model's error, on the features of ``high`` 4.5 worse).
MODELS: dict[str, HandModel] = {
    "high": HandModel(AUCTION_WEIGHTS, AUCTION_SIGMA, PLAY_WEIGHTS, PLAY_SIGMA),
    "natural": HandModel(
        auction_weights=(
            29.838, 0.961, -0.488, 0.709, -0.049, 2.943, 0.124, 0.149, 3.377, -12.271,
            -10.215, -3.055, 4.928,
        ),
        auction_sigma=51.3,
        play_weights=(
            -10.733, 1.062, -1.105, 0.349, 0.185, 2.473, 0.089, 0.000, 2.662, -12.547,
            -3.522, -2.838, 20.181,
        ),
        play_sigma=24.9,
    ),
}


#: The hand models of the game for two (RULES §4 "Two players"), by ``ten_strength``: fitted
#: on ``two``, the opener playing 100 against one defender, with 10 cards and a talon of two
#: chosen unseen, two discards counted to him (the play model leaves them out:
#: :func:`best_give` adds them), 10 tricks.  Fitted twice, ``python -m
#: thousand.bots.calibrate 40000 1 high 2`` with the bot discarding by the three-player
#: weights, then ``40000 2 high 2`` with the first fit's (these; ``natural`` the same with
#: ``natural``); docs/bots.md.
TWO_PLAYER_MODELS: dict[str, HandModel] = {
    "high": HandModel(
        auction_weights=(
            29.185, 0.916, -0.459, 0.531, 0.033, 1.200, 0.461, 0.112, 1.161, 1.486, 0.573,
            1.714, 2.943,
        ),
        auction_sigma=42.0,
        play_weights=(
            -6.900, 1.009, -0.816, 0.438, 0.114, 1.158, -0.051, 0.000, 2.910, -4.380, 4.848,
            10.528, 13.594,
        ),
        play_sigma=25.2,
    ),
    "natural": HandModel(
        auction_weights=(
            33.922, 1.029, -0.387, 0.829, 0.007, 1.257, -0.105, 0.162, 1.403, -2.437, 1.008,
            1.514, 6.237,
        ),
        auction_sigma=43.0,
        play_weights=(
            30.153, 1.045, -0.743, 0.604, 0.108, 0.988, -0.637, 0.000, 0.431, -3.332, 0.911,
            3.107, 10.919,
        ),
        play_sigma=22.3,
    ),
}


def model(ten_strength: str = "high", players: int = 3) -> HandModel:
    """The hand model for a card order (RULES §1 ``ten_strength``) and a number of players
    (two play 10 cards each: :data:`TWO_PLAYER_MODELS`)."""
    return (TWO_PLAYER_MODELS if players == 2 else MODELS)[ten_strength]


def _suit_cards(hand: Mask, suit: int) -> int:
    return (hand >> (6 * suit)) & 63


#: The ranks of a suit from the strongest down, by ``ten_strength`` (RULES §1): ``high``
#: A 10 K Q J 9, ``natural`` A K Q J 10 9.
RANKS_DOWN: dict[str, tuple[int, ...]] = {
    name: tuple(sorted(range(6), key=strength.__getitem__, reverse=True))
    for name, strength in STRENGTH.items()
}

#: The ranks above the king (the top trumps beside a marriage), as a rank pattern.
_ABOVE_KING: dict[str, int] = {
    name: sum(1 << r for r in range(6) if strength[r] > strength[KING])
    for name, strength in STRENGTH.items()
}


def _top_run(pattern: int, order: Sequence[int] = RANKS_DOWN["high"]) -> tuple[int, int, int]:
    """Points, number and rank pattern of the cards held in an unbroken run down from the
    ace (in the trick-taking order ``order``)."""
    pts = n = run = 0
    for r in order:
        if not pattern >> r & 1:
            break
        pts += RANK_POINTS[r]
        n += 1
        run |= 1 << r
    return pts, n, run


def features(
    hand: Mask, values: Sequence[int], auction: bool, ten_strength: str = "high"
) -> tuple[float, ...]:
    """The features of a hand, in the order of the weights (1 first).

    ``auction``: a 7-card hand before the talon, where a lone K or Q of a suit may still
    find its partner in the talon (counted by ``half``).  ``ten_strength`` orders the cards
    in taking tricks (RULES §1): the top run, the "tens outside the top run" and the top
    trumps follow it (with ``high`` a ten outside the run is a ten without its ace; with
    ``natural`` the ten lies below the jack and the top trumps above the marriage are the
    ace alone).
    """
    order = RANKS_DOWN[ten_strength]
    above_king = _ABOVE_KING[ten_strength]
    marriages: list[tuple[int, int]] = []  # (value, suit)
    half = 0
    top_pts = 0
    aces = 0
    bare_tens = 0
    voids = 0
    for s in range(4):
        pattern = _suit_cards(hand, s)
        if not pattern:
            voids += 1
            continue
        m = MARRIAGE_MASK[s]
        held = hand & m
        if held == m:
            marriages.append((values[s], s))
        elif held and auction:
            half += values[s]
        p, _, run = _top_run(pattern, order)
        top_pts += p
        if pattern >> ACE & 1:
            aces += 1
        if pattern >> TEN & 1 and not run >> TEN & 1:
            bare_tens += 1
    marriages.sort(reverse=True)
    m_first = m_rest = 0
    trump_len = trump_high = 0
    if marriages:
        m_first, s0 = marriages[0]
        m_rest = sum(v for v, _ in marriages[1:])
        pattern = _suit_cards(hand, s0)
        trump_len = pattern.bit_count()
        trump_high = (pattern & above_king).bit_count()
    no_entry = 1 if aces == 0 else 0
    hand_pts = points_of(hand)
    return (
        1.0,
        float(m_first),
        float(m_first * no_entry),
        float(m_rest),
        float(m_rest * min(aces, 2)),
        float(top_pts),
        float(hand_pts - top_pts),
        float(half),
        float(trump_len),
        float(trump_high),
        float(aces),
        float(bare_tens),
        float(voids),
    )


def _dot(w: Sequence[float], f: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, f, strict=True))


def predict_auction(
    hand: Mask, values: Sequence[int], ten_strength: str = "high", players: int = 3
) -> float:
    """Expected declarer points of a 7-card hand (two players: 10) that takes an unknown
    talon."""
    return _dot(
        model(ten_strength, players).auction_weights,
        features(hand, values, auction=True, ten_strength=ten_strength),
    )


def predict_play(
    hand: Mask, values: Sequence[int], ten_strength: str = "high", players: int = 3
) -> float:
    """Expected declarer points of the hand he plays with (after the exchange; his discards
    apart)."""
    return _dot(
        model(ten_strength, players).play_weights,
        features(hand, values, auction=False, ten_strength=ten_strength),
    )


def make_chance(predicted: float, contract: int, sigma: float) -> float:
    """The chance that points predicted as ``predicted`` reach ``contract`` (normal error)."""
    if sigma <= 0:
        return 1.0 if predicted >= contract else 0.0
    z = (predicted - contract + 0.5) / sigma
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def keep_score(
    hand: Mask, card: int, values: Sequence[int], ten_strength: str = "high"
) -> float:
    """How much the declarer wants to keep ``card`` when he gives or discards (higher:
    keep).  Used to order the candidates before the model decides.  A ten is worth keeping
    behind the cards above it (its ace; with ``ten_strength=natural`` A K Q J)."""
    s, r = divmod(card, 6)
    pattern = _suit_cards(hand, s)
    score = float(POINTS[card])
    if r in (KING, QUEEN) and hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]:
        score += values[s]
    if r == ACE:
        score += 15
    elif r == TEN and _top_run(pattern, RANKS_DOWN[ten_strength])[2] >> TEN & 1:
        score += 8
    score += pattern.bit_count()  # long suits are worth keeping whole
    return score


def best_give(
    hand: Mask,
    values: Sequence[int],
    n: int,
    discard: bool,
    ten_strength: str = "high",
    players: int = 3,
) -> tuple[Mask, float]:
    """The ``n`` cards to give away (or discard) that leave the best hand, and its value.

    Discards count to the declarer's points; given cards go to the opponents, who are
    expected to bring some of their points back to their side (half of them).
    """
    cards = cards_of(hand)
    # Two players: a card of a marriage held is discarded only when nothing else may go,
    # never for nothing (RULES §4 "Two players" 3).  (With three the play model alone
    # decides, as it was fitted: a marriage card went in 9 of 160 games of 20 deals.)
    plain = [c for c in cards if not _in_marriage(hand, c)]
    if players == 2 and len(plain) >= n:
        cards = plain
    # Consider the 7 cards he least wants to keep: an ace or a marriage is never given.
    ranked = sorted(cards, key=lambda c: keep_score(hand, c, values, ten_strength))[:7]
    best_mask = 0
    best_value = -math.inf
    for combo in _combinations(ranked, n):
        m = 0
        for c in combo:
            m |= 1 << c
        rest = hand & ~m
        value = predict_play(rest, values, ten_strength, players)
        if discard:
            value += points_of(m)
        else:
            value -= 0.5 * points_of(m)
        if value > best_value:
            best_value, best_mask = value, m
    return best_mask, best_value


def _in_marriage(hand: Mask, card: int) -> bool:
    """Whether ``card`` is the king or queen of a marriage held in ``hand``."""
    s, r = divmod(card, 6)
    return r in (KING, QUEEN) and hand & MARRIAGE_MASK[s] == MARRIAGE_MASK[s]


def _combinations(items: Sequence[int], k: int) -> list[tuple[int, ...]]:
    return list(combinations(items, k))



def talon_value(
    hand: Mask, known: Mask, pool: Mask, values: Sequence[int], ten_strength: str = "high"
) -> float:
    """Two players (RULES §4 "Two players" 3): what a talon of two is worth to the declarer
    holding ``hand``, when ``known`` of its cards are known (the dealer's glimpse at the
    cut) and the others are any of ``pool``: the mean, over the talons it may be, of the
    hand's value by the play model after its best two discards (their points his).  Both
    talons unseen are worth the same; the glimpsed card tells them apart."""
    unknown = 2 - known.bit_count()
    total = 0.0
    count = 0
    for combo in combinations(cards_of(pool & ~known), unknown):
        talon = known
        for c in combo:
            talon |= 1 << c
        total += best_give(hand | talon, values, 2, True, ten_strength, players=2)[1]
        count += 1
    return total / count if count else 0.0
