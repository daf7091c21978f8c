"""The card-play rules of :mod:`thousand.engine.play_rules` where mutation testing
(docs/testing.md) found them unchecked: the functions' defaults, the trump suit 0 (spades),
what a suit's cards declare, the half marriage's value, and what a trick shows a seat lacks.

Every test names the rule it checks (docs/rules.en.md, "A deal" items 5-6 and "Every
agreement": the card play, marriages and bonuses).
"""

from __future__ import annotations

from thousand.engine.cards import JACK, KING, QUEEN, mask_of, parse_card
from thousand.engine.play_rules import (
    _pattern_declaring,
    beats,
    declaration,
    follow_cards,
    lead_cards,
    note_voids,
    strongest,
    trick_winner,
)
from thousand.engine.rules import Rules

SPADES, CLUBS = 0, 1


def c(text: str) -> int:
    return parse_card(text)


def cards(text: str) -> int:
    """A mask from ``"AH TH 9S"``."""
    return mask_of(parse_card(t) for t in text.split())


def test_defaults_are_the_rules_defaults() -> None:
    """RULES §4 'The card play' ten_strength (default high: the ten above the king) and
    must_overtake (default no): called without them, the play functions play by the
    defaults (the heuristic bot calls note_voids so)."""
    assert strongest([c("KS"), c("TS"), c("QS")], SPADES) == c("TS")
    # no duty to overtake: both spades may follow the king
    assert follow_cards(cards("9S AS 9H"), [c("KS")], -1) == cards("9S AS")
    # with the duty, by the default strength only the ten and the ace beat the king
    assert follow_cards(cards("QS TS AS 9H"), [c("KS")], -1, True) == cards("TS AS")
    assert beats(c("TS"), c("KS"), -1)
    assert not beats(c("KS"), c("TS"), -1)
    assert trick_winner([c("KS"), c("TS"), c("QS")], -1) == 1
    ex: dict[int, int] = {}
    # seat 2's ten overtakes the king; seat 0's nine under the ten shows he lacks the ace
    note_voids([(1, c("KS")), (2, c("TS")), (0, c("9S"))], -1, True, ex)
    assert ex == {0: cards("AS")}


def test_strongest_none_of_the_suit() -> None:
    """RULES §4 must_overtake: the card to overtake is the strongest of the suit led in the
    trick; strongest() says -1 when the trick holds no card of the suit."""
    assert strongest([c("KC"), c("AH")], SPADES) == -1
    assert strongest([], SPADES, "natural") == -1


def test_pattern_declaring_what_a_suit_declares() -> None:
    """RULES 'A deal' 6 and §4 half_marriage: in one suit the king and queen of a K+Q
    declare (a marriage), with half_marriage also the queen and jack of a Q+J; with K+Q+J
    and half_marriage all three; nothing else declares."""
    k, q, j = 1 << KING, 1 << QUEEN, 1 << JACK
    nine, ten, ace = 1 << 0, 1 << 4, 1 << 5
    assert _pattern_declaring(k | q, False) == k | q
    assert _pattern_declaring(k | q, True) == k | q
    assert _pattern_declaring(q | j, False) == 0
    assert _pattern_declaring(q | j, True) == q | j
    assert _pattern_declaring(k | q | j, False) == k | q
    assert _pattern_declaring(k | q | j, True) == k | q | j
    assert _pattern_declaring(k | j | nine | ten | ace, True) == 0
    assert _pattern_declaring(0, True) == 0
    for p in range(64):
        for half in (False, True):
            out = _pattern_declaring(p, half)
            marriage = p & (k | q) == k | q
            half_m = half and p & (q | j) == q | j
            assert out & ~p == 0, (p, half)  # only cards held
            assert bool(out & k) == marriage, (p, half)
            assert bool(out & q) == (marriage or half_m), (p, half)
            assert bool(out & j) == half_m, (p, half)
            assert out & (nine | ten | ace) == 0, (p, half)


def test_declaration_default_nothing_declared_yet() -> None:
    """RULES 'A deal' 6: a K+Q of spades led with '+' declares the spade marriage (40,
    trump changes); without declared_suits given, no suit has been declared yet."""
    hand = cards("KS QS 9C AH")
    assert declaration(hand, c("QS"), Rules()) == ("marriage", 40, True)
    assert declaration(hand, c("KS"), Rules()) == ("marriage", 40, True)


def test_half_marriage_value_is_whole_points() -> None:
    """RULES §4 half_marriage: Q+J declare for half the marriage's value, in whole points
    like every score (spades 40 → 20, an int, not 20.0)."""
    r = Rules(half_marriage=True)
    hand = cards("QS JS 9C AH")
    for card in ("QS", "JS"):
        kind, value, trump = declaration(hand, c(card), r)  # type: ignore[misc]
        assert (kind, value, trump) == ("half_marriage", 20, True)
        assert type(value) is int
        assert str(value) == "20"


def test_no_lead_own_trump_spades() -> None:
    """RULES §4 no_lead_own_trump: the player who declared the present trump may not lead
    trump — spades (suit 0) is a trump like any other."""
    r = Rules(no_lead_own_trump=True)
    hand = cards("AS 9S 9C")
    leads, plus = lead_cards(hand, 1, SPADES, 1, -1, 1 << SPADES, 2, r)
    assert (leads, plus) == (cards("9C"), 0)
    # another seat may lead the spades; only trumps held: he may lead them
    assert lead_cards(hand, 2, SPADES, 1, -1, 1 << SPADES, 2, r)[0] == hand
    only = cards("AS 9S")
    assert lead_cards(only, 1, SPADES, 1, -1, 1 << SPADES, 2, r)[0] == only


def test_note_voids_adds_to_what_is_known() -> None:
    """RULES 'A deal' 5 (must follow suit, else trump): note_voids adds what a trick shows a
    seat lacks to what was known of him before (earlier tricks)."""
    ex: dict[int, int] = {2: cards("AH")}
    # trick 1: seat 2 discards a club on a spade lead, no trump: he has no spade
    note_voids([(1, c("KS")), (2, c("9C")), (0, c("AS"))], -1, False, ex)
    assert ex == {2: cards("AH") | cards("9S JS QS KS TS AS")}
    # trick 2, hearts trump: seat 2 discards on a club lead, so no club and no heart
    note_voids([(0, c("KC")), (1, c("QC")), (2, c("9D"))], 3, False, ex)
    lacks = cards("9S JS QS KS TS AS 9C JC QC KC TC AC 9H JH QH KH TH AH")
    assert ex == {2: lacks}
