"""One deal against the rules (RULES): auction, dark, talon, contract, redeals, play, declarations,
deal values, views and the messages of illegal moves.

Every test names the rule it checks (RULES section, §4 option or §7 decision).  Deals are
built directly from hand-picked cards: three players, dealer 0, so the opener is seat 1 and
play goes 1 → 2 → 0 unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from thousand.engine import moves as mv
from thousand.engine.cards import (
    FULL_DECK,
    card_str,
    cards_of,
    marriage_sum,
    mask_of,
    parse_card,
    round_points,
)
from thousand.engine.deal import (
    Deal,
    DealContext,
    DealResult,
    Phase,
    sitting_dealer_value,
    view_of,
)
from thousand.engine.errors import IllegalMove
from thousand.engine.moves import parse_move
from thousand.engine.rules import Rules
from thousand.words.catalogue import illegal_move_text

# ------------------------------------------------------------------------- helpers


def cards(text: str) -> int:
    """A mask from ``"AH TH 9S"``."""
    return mask_of(parse_card(t) for t in text.split())


def rules(preset: str = "classic", **overrides: Any) -> Rules:
    return Rules.preset_rules(preset, **overrides)


def new_deal(
    hands: Sequence[str],
    talon: str,
    r: Rules | None = None,
    dealer: int = 0,
    opener: int | None = None,
    **ctx: Any,
) -> Deal:
    """A deal of the given cards; every card of the deck must be dealt exactly once."""
    masks = tuple(cards(h) for h in hands)
    t = cards(talon)
    seen = t
    for m in masks:
        assert not seen & m, "a card is dealt twice"
        seen |= m
    assert seen == FULL_DECK, f"missing cards: {[card_str(c) for c in cards_of(FULL_DECK & ~seen)]}"
    if opener is None:
        opener = (dealer + 1) % len(masks)
    rr = r if r is not None else rules(players=len(masks))
    return Deal(DealContext(rules=rr, dealer=dealer, hands=masks, talon=t, opener=opener, **ctx))


def do(deal: Deal, *moves: str) -> Deal:
    for m in moves:
        deal.apply(parse_move(m))
    return deal


def legal(deal: Deal) -> list[str]:
    return [mv.move_str(m) for m in deal.legal_moves()]


def bids(lo: int, hi: int, step: int = 5) -> list[str]:
    return [str(b) for b in range(lo, hi + 1, step)]


def illegal(deal: Deal, move: str) -> IllegalMove:
    """Apply an illegal move: it raises and leaves every view of the deal unchanged."""
    before = [view_of(deal, s) for s in (None, *range(deal.players))]
    with pytest.raises(IllegalMove) as err:
        deal.apply(parse_move(move))
    assert [view_of(deal, s) for s in (None, *range(deal.players))] == before
    assert legal(deal)  # the seat still has something to do
    return err.value


def trick_texts(deal: Deal) -> list[str]:
    """Completed tricks as ``"AD 9C JD>1"``: the cards in play order and the winner."""
    return [" ".join(card_str(c) for _, c in t.cards) + f">{t.winner}" for t in deal.tricks]


def result(deal: Deal) -> DealResult:
    assert deal.done and deal.result is not None
    return deal.result


def hand_of(deal: Deal, seat: int) -> str:
    return " ".join(card_str(c) for c in cards_of(deal.hands[seat]))


# ------------------------------------------------------------------------- deals

# AUCTION: seat 1 holds the hearts marriage, seat 2 the spades, seat 0 the clubs.
AUCTION = (["TC KC QC JC 9C TD KD", "AH TH KH QH AS AC AD", "9H JH TS KS QS JS 9S"], "QD JD 9D")
# NO_MARRIAGE: as AUCTION, but seat 2 holds no marriage (his ♠Q is with seat 0).
NO_MARRIAGE = (["TC KC QC JC QS TD KD", "AH TH KH QH AS AC AD", "9H JH TS KS JS 9S 9C"], "QD JD 9D")

# ONE_LOSS: seat 1 takes the talon 9S KS QS, gives KS to seat 2 and QS to seat 0, and with
# every heart wins seven tricks; the last one (9S) goes to seat 2's AS.  SCRIPT plays it:
# 109 card points + the hearts marriage (100) = 209 for seat 1, 11 for seat 2, 0 for seat 0.
ONE_LOSS = (["AC TC 9D JD QD KD TD", "AH TH KH QH JH 9H AD", "AS TS JS 9C JC QC KC"], "9S KS QS")
SCRIPT = [
    "AD", "9C", "JD",  # 13 to seat 1 (no trump yet: seat 2 is void and may play anything)
    "KH+", "JC", "QS",  # 9, hearts are trump, +100
    "AH", "QC", "QD",  # 17
    "TH", "KC", "KD",  # 18
    "QH", "JS", "TD",  # 15
    "JH", "TS", "TC",  # 22
    "9H", "KS", "AC",  # 15
    "9S", "AS", "9D",  # 11 to seat 2
]


def one_loss(
    contract: int = 120, r: Rules | None = None, script: Sequence[str] = SCRIPT, **ctx: Any
) -> Deal:
    """ONE_LOSS played to the end: seat 1 bids 100, both pass, he names ``contract``."""
    d = new_deal(*ONE_LOSS, r=r, **ctx)
    if d.phase == Phase.DARK_CHOICE:
        do(d, "look")
    do(d, "100", "pass", "pass", "give KS", "give QS", f"contract {contract}", *script)
    return d


# ==================================================================== §2.2 auction


def test_opener_must_open_at_100_pass_not_allowed() -> None:
    """RULES §2.2: the player left of the dealer must open at 100 (or more); he may not pass."""
    d = new_deal(*AUCTION)
    assert d.phase == Phase.AUCTION and d.to_move == 1
    assert legal(d) == bids(100, 220)  # no "pass"
    err = illegal(d, "pass")
    assert err.code == "first_bid_compulsory"
    assert str(err) == "pass: the first bid is compulsory: bid 100 or more"
    err = illegal(d, "95")
    assert err.code == "first_bid_compulsory" and err.params["min"] == 100
    do(d, "110")  # he may open above 100
    assert d.high_bid == 110 and d.high_bidder == 1 and d.to_move == 2


def test_bids_are_multiples_of_5_at_least_5_more() -> None:
    """RULES §2.2: a raise is a multiple of 5, at least 5 more than the current bid; jumps
    are allowed."""
    d = do(new_deal(*AUCTION), "100")
    assert legal(d) == ["pass", *bids(105, 160)]
    err = illegal(d, "103")
    assert err.code == "bid_step" and str(err) == "103: bids go in steps of 5"
    err = illegal(d, "100")
    assert err.code == "bid_too_low" and str(err) == "100: a bid must be at least 105"
    do(d, "140")  # a jump
    assert d.high_bid == 140 and d.to_move == 0
    assert legal(d) == ["pass", *bids(145, 180)]


def test_bid_step_10_multiples_and_jumps() -> None:
    """RULES §4 bid_step=10: bids are multiples of the step, jumps allowed."""
    d = new_deal(*AUCTION, r=rules(bid_step=10))
    assert legal(d) == bids(100, 220, 10)
    do(d, "100")
    assert legal(d) == ["pass", *bids(110, 160, 10)]
    err = illegal(d, "105")
    assert err.code == "bid_step" and str(err) == "105: bids go in steps of 10"
    do(d, "150")
    assert legal(d) == ["pass", *bids(160, 180, 10)]


def test_cap_120_without_a_marriage() -> None:
    """RULES §2.2 cap: nobody may bid above 120 without a marriage."""
    d = do(new_deal(*NO_MARRIAGE), "100")
    assert d.to_move == 2 and marriage_sum(d.hands[2], (40, 60, 80, 100)) == 0
    assert legal(d) == ["pass", *bids(105, 120)]
    err = illegal(d, "125")
    assert err.code == "bid_over_cap" and err.params["cap"] == 120
    assert str(err) == "125: you may not bid above 120 without a marriage"
    assert illegal_move_text(err, "ru") == "нельзя заказать больше 120 без марьяжа"
    do(d, "120")
    assert d.high_bid == 120


def test_cap_is_120_plus_the_marriages_held() -> None:
    """RULES §2.2 cap: 120 + the sum of the marriages he holds (160 with ♠, 220 with ♥)."""
    d = new_deal(*AUCTION)
    assert d.cap(1) == 220 and d.cap(2) == 160 and d.cap(0) == 180
    do(d, "100")
    err = illegal(d, "165")
    assert err.code == "bid_over_cap"
    assert str(err) == "165: you may not bid above 160 with your marriages"
    # two marriages add up: ♣ and ♦ = 120 + 60 + 80
    two = new_deal(
        ["KC QC KD QD 9S JS 9C", "AH TH KH QH AS AC AD", "9H JH TS KS QS TC JC"], "TD JD 9D"
    )
    assert two.cap(0) == 260


def test_cap_with_custom_marriage_values() -> None:
    """RULES §4 marriage_values: the cap uses the ruleset's values ({S:100, C:80, H:60, D:40})."""
    r = rules(marriage_values={"S": 100, "C": 80, "H": 60, "D": 40})
    d = new_deal(*AUCTION, r=r)
    assert legal(d)[-1] == "180"  # seat 1: hearts = 60
    do(d, "100")
    assert legal(d)[-1] == "220"  # seat 2: spades = 100
    do(d, "pass")
    assert legal(d)[-1] == "200"  # seat 0: clubs = 80


def test_a_passed_player_is_out_of_the_auction() -> None:
    """RULES §2.2: a player who passed is out of the auction."""
    d = do(new_deal(*AUCTION), "100", "pass", "105", "110")
    assert d.to_move == 0  # seat 2 passed: skipped
    do(d, "115", "pass")
    assert d.phase == Phase.EXCHANGE and d.declarer == 0 and d.bid == 115
    assert [s for s, m in d.auction if m == mv.PASS] == [2, 1]


def test_last_one_left_is_declarer_and_his_bid_the_contract() -> None:
    """RULES §2.2: when one is left, he is the declarer and his bid the contract."""
    d = do(new_deal(*AUCTION), "100", "105", "110", "pass", "115", "pass")
    assert d.phase == Phase.EXCHANGE
    assert (d.declarer, d.bid, d.contract) == (2, 115, 115)
    assert d.to_move == 2


def test_opener_plays_100_when_both_pass() -> None:
    """RULES §2.2: if both others pass, the opener plays his bid; there is no redeal."""
    d = do(new_deal(*AUCTION), "100", "pass", "pass")
    assert d.phase == Phase.EXCHANGE and (d.declarer, d.bid) == (1, 100)
    assert d.hands[1].bit_count() == 10


def test_barred_opener_passes_and_next_eligible_opens() -> None:
    """RULES §7 barred from bidding (min_score_to_bid): he passes; if the opener is barred,
    the next eligible player clockwise opens (at 100, no pass)."""
    r = rules(min_score_to_bid=-120)
    d = new_deal(*AUCTION, r=r, barred=frozenset({1}))
    assert legal(d) == ["pass"]
    err = illegal(d, "100")
    assert err.code == "barred"
    assert str(err) == "100: your score is at or below -120: you may only pass"
    do(d, "pass")
    assert d.to_move == 2 and legal(d) == bids(100, 160)  # seat 2 must open
    do(d, "100", "pass")
    assert (d.declarer, d.bid) == (2, 100)


def test_barred_seats_after_the_opener_only_pass() -> None:
    """RULES §7 barred from bidding: a barred player must pass; the others bid as usual."""
    d = new_deal(*AUCTION, r=rules(min_score_to_bid=-120), barred=frozenset({1, 2}))
    do(d, "pass", "pass")
    assert d.to_move == 0 and legal(d) == bids(100, 180)
    do(d, "100")
    assert (d.declarer, d.bid) == (0, 100)


def test_nobody_eligible_opener_plays_100() -> None:
    """RULES §7 barred from bidding: if nobody is eligible, the opener plays 100 anyway."""
    d = new_deal(*AUCTION, r=rules(min_score_to_bid=-120), barred=frozenset({0, 1, 2}))
    do(d, "pass", "pass", "pass")
    assert d.phase == Phase.EXCHANGE and (d.declarer, d.bid) == (1, 100)


def test_the_context_opener_is_respected() -> None:
    """RULES §4 first_bidder is the game's concern: the deal starts with the context's opener
    (here the dealer, first_bidder=dealer) and goes clockwise from him."""
    d = new_deal(*AUCTION, r=rules("dealer-opens"), opener=0)
    assert d.to_move == 0 and "pass" not in legal(d)
    do(d, "100")
    assert d.to_move == 1
    do(d, "pass", "pass")
    assert (d.declarer, d.bid) == (0, 100)


# ==================================================================== §4 dark


def dark_deal(
    deal: tuple[list[str], str] = AUCTION, r: Rules | None = None, **ctx: Any
) -> Deal:
    # house with free bidding, so that these tests see the dark rules alone
    free = rules("house", opening_bid="at_least_100", bid_jumps=True)
    return new_deal(*deal, r=r if r is not None else free, dark_allowed=True, **ctx)


def test_dark_choice_comes_before_the_opener_sees_his_hand() -> None:
    """RULES §4 dark: before looking at his cards the first bidder may bid 120 blind; his hand
    is hidden from him until he looks."""
    d = dark_deal()
    assert d.phase == Phase.DARK_CHOICE and d.to_move == 1
    assert legal(d) == ["dark", "look"]
    v = view_of(d, 1)
    assert v.hand is None and v.legal == (mv.DARK, mv.LOOK)
    assert view_of(d, 2).hand == cards(AUCTION[0][2])  # the others have looked
    do(d, "look")
    assert d.phase == Phase.AUCTION and view_of(d, 1).hand == cards(AUCTION[0][1])
    assert legal(d) == bids(100, 220)


def test_dark_bid_is_120() -> None:
    """RULES §4 dark: the blind bid is 120."""
    d = do(dark_deal(), "dark")
    assert (d.high_bid, d.high_bidder, d.dark_bidder, d.dark_standing) == (120, 1, 1, True)
    assert d.to_move == 2 and view_of(d, 1).hand is None
    assert view_of(d, 0).dark


def test_dark_outbid_needs_a_marriage_from_125() -> None:
    """RULES §4 dark_outbid_needs_marriage=true: others may outbid a dark bid only holding a
    marriage, from 125."""
    d = do(dark_deal(NO_MARRIAGE), "dark")
    assert legal(d) == ["pass"]  # seat 2: no marriage
    err = illegal(d, "125")
    assert err.code == "dark_outbid"
    assert str(err) == "125: a dark bid may be outbid only holding a marriage"
    do(d, "pass")
    assert legal(d) == ["pass", *bids(125, 180)]  # seat 0 holds ♣K+Q
    err = illegal(d, "120")
    assert err.code == "bid_too_low" and err.params["min"] == 125


def test_dark_outbid_needs_marriage_even_under_a_higher_cap() -> None:
    """RULES §4 dark_outbid_needs_marriage: with bid_cap=150 a player without a marriage could
    bid 125 after an open 120, but not over a dark 120; with the option false he may."""
    strict = do(dark_deal(NO_MARRIAGE, rules("house", bid_cap=150, bid_jumps=True)), "dark")
    assert legal(strict) == ["pass"]
    free = do(dark_deal(NO_MARRIAGE, rules("house", bid_cap=150, bid_jumps=True,
                                           dark_outbid_needs_marriage=False)), "dark")
    assert legal(free) == ["pass", *bids(125, 150)]
    do(free, "125")
    assert free.high_bidder == 2 and not free.dark_standing


def test_dark_bidder_sees_his_hand_after_being_outbid() -> None:
    """RULES §4 dark: other players may outbid; then the first player may look at his cards
    and play on as usual (seed 002)."""
    d = do(dark_deal(), "dark", "pass", "125")
    assert not d.dark_standing and d.to_move == 1
    assert view_of(d, 1).hand == cards(AUCTION[0][1])
    assert legal(d) == ["pass", *bids(130, 220)]
    do(d, "pass")
    assert d.declarer == 0 and not d.dark_standing


def test_dark_standing_doubles_the_deal_score_made() -> None:
    """RULES §4 dark: if the dark bidder becomes declarer his deal score counts double (+240
    at 120); the defenders' points are not doubled."""
    d = dark_deal(ONE_LOSS)
    do(d, "dark", "pass", "pass")
    assert d.declarer == 1 and d.dark_standing and view_of(d, 1).hand is not None
    do(d, "give KS", "give QS", "contract 120", *SCRIPT)
    res = result(d)
    assert res.dark and res.made and res.contract == 120
    assert res.values == (0, 240, 10)


def test_dark_standing_doubles_the_deal_score_failed() -> None:
    """RULES §4 dark: a failed dark contract costs double (−240 at 120)."""
    d = dark_deal(ONE_LOSS)
    no_marriage = [m.rstrip("+") for m in SCRIPT]  # 109 card points, no marriage
    do(d, "dark", "pass", "pass", "give KS", "give QS", "contract 120", *no_marriage)
    res = result(d)
    assert res.points == (0, 109, 11) and not res.made
    assert res.values == (0, -240, 10)


def test_dark_raised_contract_is_doubled() -> None:
    """RULES §4 dark: the declarer may still raise after the talon; the contract is doubled."""
    d = dark_deal(ONE_LOSS)
    do(d, "dark", "pass", "pass", "give KS", "give QS", "contract 205", *SCRIPT)
    assert result(d).values == (0, 410, 10)


def test_dark_marriages_not_doubled_with_declarer_scores_taken() -> None:
    """RULES §4 dark_marriages_doubled=false: with declarer_scores=taken, the marriage part of
    a made dark score is not doubled: 2 × 109 + 100; true: 2 × 209."""
    base: dict[str, Any] = {"declarer_scores": "taken", "rounding": 1}
    for doubled, expected in ((False, 318), (True, 418)):
        d = dark_deal(ONE_LOSS, rules("house", dark_marriages_doubled=doubled, **base))
        do(d, "dark", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
        assert result(d).values[1] == expected


def test_dark_marriages_doubled_no_effect_when_contract_scored() -> None:
    """RULES §4 dark_marriages_doubled: no effect when the contract is scored."""
    d = dark_deal(ONE_LOSS, rules("house", dark_marriages_doubled=False))
    do(d, "dark", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
    assert result(d).values[1] == 240


def test_dark_talon_hidden_from_the_others() -> None:
    """RULES §4 dark_talon_shown=false: the talon of a dark deal is not shown to the others."""
    d = do(dark_deal(r=rules("house", dark_talon_shown=False)), "dark", "pass", "pass")
    assert view_of(d, 1).talon == cards(AUCTION[1])
    assert view_of(d, 2).talon is None and view_of(d, 0).talon is None
    assert view_of(d, None).talon is None
    shown = do(dark_deal(), "dark", "pass", "pass")  # dark_talon_shown=true: everybody
    assert all(view_of(shown, s).talon == cards(AUCTION[1]) for s in (None, 0, 1, 2))


def test_dark_talon_hidden_is_shown_to_the_sitting_dealer_with_4_players() -> None:
    """RULES §4 dark_talon_shown=false (with 4 players: shown to the dealer only)."""
    hands = ["", *AUCTION[0][1:], AUCTION[0][0]]  # dealer 0 sits out; seats 1, 2, 3 play
    d = new_deal(hands, AUCTION[1], r=rules("textbook"), dark_allowed=True)
    assert d.active == (1, 2, 3) and d.phase == Phase.DARK_CHOICE
    do(d, "dark", "pass", "pass")
    talon = cards(AUCTION[1])
    assert view_of(d, 0).talon == talon and view_of(d, 1).talon == talon
    assert view_of(d, 2).talon is None and view_of(d, 3).talon is None
    assert view_of(d, None).talon is None


def test_dark_not_offered_when_the_context_does_not_allow_it() -> None:
    """RULES §4 dark: not allowed while anyone sits on the barrel or below dark_min_score: the
    game says so with ctx.dark_allowed=false, and the deal starts with the auction."""
    d = new_deal(*AUCTION, r=rules("house"), dark_allowed=False)
    assert d.phase == Phase.AUCTION and view_of(d, 1).hand is not None
    err = illegal(d, "dark")
    assert err.code == "dark_not_allowed" and str(err) == "dark: a dark bid is not possible now"


def test_a_record_move_other_than_dark_implies_look() -> None:
    """RULES §6: "look" is never recorded; any move other than "dark" in the dark choice
    implies it.  One undo takes back the move and the implied look together."""
    d = dark_deal()
    before = view_of(d, 1)
    do(d, "105")
    assert d.phase == Phase.AUCTION and d.high_bid == 105 and d.to_move == 2
    assert [mv.move_str(m) for m in d.history] == ["105"]
    assert view_of(d, 1).hand == cards(AUCTION[0][1])
    d.undo()
    assert view_of(d, 1) == before and d.phase == Phase.DARK_CHOICE
    # an illegal move in the dark choice leaves the hand unseen
    err = illegal(d, "pass")
    assert err.code == "first_bid_compulsory"
    assert d.phase == Phase.DARK_CHOICE and view_of(d, 1).hand is None


# ==================================================================== §2.3 talon and exchange


def test_talon_is_hidden_until_taken_then_shown_to_everyone() -> None:
    """RULES §2.3 / §4 talon_shown=all: the declarer shows the talon to everyone."""
    d = do(new_deal(*AUCTION), "100", "pass")
    assert all(view_of(d, s).talon is None for s in (None, 0, 1, 2))
    do(d, "pass")
    assert all(view_of(d, s).talon == cards(AUCTION[1]) for s in (None, 0, 1, 2))


def test_talon_not_shown_when_taken_at_100() -> None:
    """RULES §4 talon_shown=not_at_100: hidden when taken at 100, shown otherwise."""
    r = rules(talon_shown="not_at_100")
    at100 = do(new_deal(*AUCTION, r=r), "100", "pass", "pass")
    assert view_of(at100, 1).talon == cards(AUCTION[1])
    assert view_of(at100, 2).talon is None and view_of(at100, 0).talon is None
    assert view_of(at100, None).talon is None
    do(at100, "give 9D", "give JD", "contract 150")  # raising later does not show it
    assert view_of(at100, 2).talon is None
    at105 = do(new_deal(*AUCTION, r=r), "100", "105", "pass", "pass")
    assert at105.declarer == 2
    assert all(view_of(at105, s).talon == cards(AUCTION[1]) for s in (None, 0, 1, 2))


def test_declarer_takes_the_talon() -> None:
    """RULES §2.3: the declarer takes the talon (10 cards)."""
    d = do(new_deal(*AUCTION), "100", "pass", "pass")
    assert d.hands[1] == cards(AUCTION[0][1]) | cards(AUCTION[1])
    assert view_of(d, 1).hand_sizes == (7, 10, 7)
    assert legal(d) == ["give " + c for c in hand_of(d, 1).split()]


def test_first_give_goes_to_the_opponent_after_the_declarer() -> None:
    """RULES §6: "give CARD": the first to the opponent after the declarer clockwise, the
    second to the other; each opponent then holds 8 cards."""
    d = do(new_deal(*AUCTION), "100", "105", "pass", "pass")  # seat 2 declares
    do(d, "give 9D")
    assert d.given == [(parse_card("9D"), 0)]
    do(d, "give QS")
    assert d.given == [(parse_card("9D"), 0), (parse_card("QS"), 1)]
    assert [h.bit_count() for h in d.hands] == [8, 8, 8]
    assert d.phase == Phase.CONTRACT


def test_each_opponent_sees_only_the_card_he_received() -> None:
    """RULES §2.3: the cards are given face down: each opponent sees only his own; the
    history hides the other one (and a spectator sees neither)."""
    d = do(new_deal(*AUCTION), "100", "pass", "pass", "give AH", "give AS")
    heart, ace = parse_card("AH"), parse_card("AS")
    assert view_of(d, 1).given == ((heart, 2), (ace, 0))
    assert view_of(d, 2).given == ((heart, 2), (None, 0))
    assert view_of(d, 0).given == ((None, 2), (ace, 0))
    assert view_of(d, None).given == ((None, 2), (None, 0))
    assert view_of(d, 2).history[-2:] == ("give AH", "give ??")
    assert view_of(d, 0).history[-2:] == ("give ??", "give AS")
    assert view_of(d, None).history[-2:] == ("give ??", "give ??")
    assert view_of(d, 1).history[-2:] == ("give AH", "give AS")
    assert not view_of(d, 0).visible_cards() >> heart & 1
    assert view_of(d, 0).visible_cards() >> ace & 1


def test_discard_three() -> None:
    """RULES §4 exchange=discard_three: the declarer discards 3 face down, they count to his
    points; 7 cards each, 7 tricks; the discards are hidden from the others."""
    d = do(new_deal(*ONE_LOSS, r=rules(exchange="discard_three")), "100", "pass", "pass")
    assert legal(d)[0].startswith("discard ")
    err = illegal(d, "give KS")
    assert err.code == "wrong_phase"
    do(d, "discard KS", "discard QS", "discard 9S")
    assert d.phase == Phase.CONTRACT and [h.bit_count() for h in d.hands] == [7, 7, 7]
    assert view_of(d, 1).discards == cards("KS QS 9S")
    assert view_of(d, 2).discards is None and view_of(d, None).discards is None
    assert view_of(d, 2).history[-3:] == ("discard ??",) * 3
    assert view_of(d, 1).history[-3:] == ("discard KS", "discard QS", "discard 9S")
    do(d, "contract 120")
    # seven tricks: nobody got a spade, the 9S lies in the discards
    do(d, "AD", "9C", "JD", "KH+", "JC", "9D", "AH", "QC", "QD", "TH", "KC", "KD")
    do(d, "QH", "JS", "TD", "JH", "TS", "TC", "9H", "AS", "AC")
    res = result(d)
    assert len(d.tricks) == 7 and res.tricks == (0, 7, 0)
    # all 120 card points (7 of them in the discards) + the marriage
    assert res.points == (0, 220, 0) and res.values == (0, 120, 0)


# ==================================================================== §2.4 contract and concede


def test_contract_raise_capped_by_marriages_held_after_the_exchange() -> None:
    """RULES §2.4: the declarer may raise in bid steps; a raise is capped by the marriages in
    his hand after the exchange (a marriage from the talon counts, a given one does not)."""
    d = do(new_deal(*ONE_LOSS), "100", "pass", "pass")
    assert d.cap(1) == 260  # ♥ and, from the talon, ♠
    do(d, "give 9S", "give JH")
    assert legal(d) == ["contract " + b for b in bids(100, 260)]
    d.undo()
    d.undo()
    do(d, "give KS", "give QS")
    assert legal(d) == ["contract " + b for b in bids(100, 220)]
    err = illegal(d, "contract 225")
    assert err.code == "bid_over_cap"
    assert str(err) == "contract 225: you may not bid above 220 with your marriages"
    err = illegal(d, "contract 123")
    assert err.code == "bid_step" and str(err) == "contract 123: bids go in steps of 5"


def test_contract_steps_follow_bid_step() -> None:
    """RULES §4 bid_step=10 applies to the final contract too."""
    d = do(new_deal(*ONE_LOSS, r=rules(bid_step=10)), "100", "pass", "pass", "give KS", "give QS")
    assert legal(d) == ["contract " + b for b in bids(100, 220, 10)]


def test_keeping_the_bid_is_always_allowed_even_above_the_new_cap() -> None:
    """RULES §2.4 (decision): keeping the bid is always allowed, even when the exchange took
    his marriage away and the bid is now above his cap."""
    d = do(new_deal(*AUCTION), "200", "pass", "pass", "give KH", "give QH")
    assert d.cap(1) == 120
    assert legal(d) == ["contract 200"]
    do(d, "contract 200")
    assert d.phase == Phase.PLAY and d.contract == 200


def test_contract_is_never_lower_than_the_bid() -> None:
    """RULES §2.4: the declarer may raise the contract, never lower it."""
    d = do(new_deal(*AUCTION), "150", "pass", "pass", "give 9D", "give JD")
    err = illegal(d, "contract 145")
    assert err.code == "contract_too_low"
    assert str(err) == "contract 145: the contract may not be lower than the bid 150"
    err = illegal(d, "150")  # a bid is not a contract
    assert err.code == "wrong_phase"
    assert str(err) == "150: 150 is not possible now: seat 1 to name the contract"
    assert illegal_move_text(err, "ru") == "150 сейчас невозможно: очередь игрока 1 — назвать заказ"


def test_concede_offered_only_with_rule_and_context() -> None:
    """RULES §4 concede: after the talon, before the first lead, the declarer may give up;
    the game may forbid it for him (concede_limit, concede_on_barrel, concede_in_golden)."""
    off = do(new_deal(*AUCTION), "100", "pass", "pass", "give 9D", "give JD")
    assert "concede" not in legal(off)
    err = illegal(off, "concede")
    assert err.code == "concede_not_allowed"
    assert str(err) == "concede: you may not concede now: these rules have no concede"
    on = do(new_deal(*AUCTION, r=rules(concede=True)), "100", "pass", "pass")
    assert "concede" not in legal(on)  # not before the gives
    do(on, "give 9D", "give JD")
    assert legal(on)[-1] == "concede"
    barred = new_deal(*AUCTION, r=rules(concede=True), concede_allowed=(True, False, True))
    do(barred, "100", "pass", "pass", "give 9D", "give JD")
    assert "concede" not in legal(barred)
    err = illegal(barred, "concede")
    assert str(err) == "concede: you may not concede now: not for you in this deal"
    do(on, "contract 100")
    assert "concede" not in legal(on) and on.phase == Phase.PLAY


def conceded(r: Rules, bid: str = "100", **ctx: Any) -> DealResult:
    d = new_deal(*ONE_LOSS, r=r, **ctx)
    moves = [bid, "pass", "pass"] if not ctx.get("golden") else []
    do(d, *moves, "give KS", "give QS", "concede")
    return result(d)


def test_concede_values_60_each_declarer_minus_bid() -> None:
    """RULES §4 concede (60 each, declarer − contract) and §7 Concede: nothing is played,
    points all 0, the conceded contract is his bid."""
    res = conceded(rules(concede=True), "125")
    assert res.outcome == "conceded" and res.made is None
    assert (res.declarer, res.bid, res.contract) == (1, 125, 125)
    assert res.points == (0, 0, 0) and res.tricks == (0, 0, 0)
    assert res.values == (60, -125, 60)


def test_concede_half_contract_rounded() -> None:
    """RULES §4 concede_opponents_get=half_contract, §7: rounded with rounding
    (125 → 62.5 → 63 → 65 with 5: "half a contract is first rounded up to a whole number";
    130 → 65; with rounding=10, 65 → 70)."""
    half = rules(concede=True, concede_opponents_get="half_contract")
    assert conceded(half, "125").values == (65, -125, 65)
    assert conceded(half, "130").values == (65, -130, 65)
    ten = rules(concede=True, concede_opponents_get="half_contract", bid_step=10, rounding=10)
    assert conceded(ten, "130").values == (70, -130, 70)


def test_concede_declarer_loses_false() -> None:
    """RULES §4 concede_declarer_loses=false: the declarer loses nothing."""
    assert conceded(rules(concede=True, concede_declarer_loses=False)).values == (60, 0, 60)


def test_concede_refused_in_a_dark_deal_doubled_in_golden() -> None:
    """RULES §7 "A dark deal cannot be conceded"; golden_deals: the declarer's concede loss
    is a deal score and doubles with every score of the deal."""
    d = new_deal(*ONE_LOSS, r=rules("house"), dark_allowed=True)
    do(d, "dark", "pass", "pass", "give KS", "give QS")
    assert "concede" not in legal(d)
    err = illegal(d, "concede")
    assert err.code == "concede_not_allowed" and "dark deal" in str(err)
    golden = conceded(rules(concede=True, golden_deals=True), golden=True)
    assert golden.golden and golden.bid == 120
    assert golden.values == (120, -240, 120)


def test_concede_sitting_dealer_still_scores_the_talon() -> None:
    """RULES §7 Concede / Sitting-out dealer: the sitting-out dealer still scores the talon
    and is never an opponent for the concede payment."""
    hands = ["", *ONE_LOSS[0][1:], ONE_LOSS[0][0]]
    d = new_deal(hands, ONE_LOSS[1], r=rules("textbook"))
    do(d, "100", "pass", "pass", "discard 9S", "discard JH", "discard 9H", "concede")
    res = result(d)
    # talon 9S KS QS: 0 + (4 + 20) + (3 + 20) = 47 → 50 with rounding=10
    assert res.values == (50, 0, 60, 60)
    assert res.points == (0, 0, 0, 0)


# ==================================================================== §4 redeals

# Seat 2 holds four nines (and 6 points).
FOUR_NINES = (["TS KS QS TC KC QC TD", "AH TH KH QH AS AC AD", "9S 9C 9D 9H JS JC JD"], "KD QD JH")


def test_four_nines_redeal_on_the_first_turn() -> None:
    """RULES §4 redeal_four_nines, §6 (decision): a player dealt four nines demands the redeal
    on his first turn of the auction instead of bidding."""
    d = do(new_deal(*FOUR_NINES, r=rules(redeal_four_nines=True)), "100")
    assert legal(d) == ["redeal", "pass", *bids(105, 120)]
    do(d, "redeal")
    res = result(d)
    assert res.outcome == "redeal" and res.redeal_by == 2
    assert res.declarer is None and res.contract is None and res.made is None
    assert res.values == (0, 0, 0) and res.points == (0, 0, 0)
    assert d.phase == Phase.DONE and legal(d) == []


def test_four_nines_redeal_only_on_the_first_turn() -> None:
    """RULES §6 (decision): the redeal is demanded on his first turn, not later."""
    d = do(new_deal(*FOUR_NINES, r=rules(redeal_four_nines=True)), "100", "105", "pass", "110")
    assert d.to_move == 2 and "redeal" not in legal(d)
    err = illegal(d, "redeal")
    assert err.code == "redeal_not_entitled"
    assert str(err) == "redeal: you are not entitled to a redeal"


def test_four_nines_no_redeal_without_the_option() -> None:
    """RULES §4 redeal_four_nines=false (classic): four nines are just cards."""
    d = do(new_deal(*FOUR_NINES), "100")
    assert "redeal" not in legal(d)
    assert illegal(d, "redeal").code == "redeal_not_entitled"


def test_opener_may_demand_a_redeal_instead_of_opening() -> None:
    """RULES §6 (decision): the opener's first turn is his compulsory bid: he may demand the
    redeal instead."""
    hands = [FOUR_NINES[0][0], FOUR_NINES[0][2], FOUR_NINES[0][1]]  # the nines to seat 1
    d = new_deal(hands, FOUR_NINES[1], r=rules(redeal_four_nines=True))
    assert legal(d)[:2] == ["redeal", "100"]
    do(d, "redeal")
    assert result(d).redeal_by == 1


def test_redeal_demanded_in_the_dark_choice_implies_look() -> None:
    """RULES §6: a record move other than "dark" in the dark choice implies look, so
    "redeal" there is the opener's demand after looking."""
    hands = [FOUR_NINES[0][0], FOUR_NINES[0][2], FOUR_NINES[0][1]]
    d = new_deal(hands, FOUR_NINES[1], r=rules("house"), dark_allowed=True)
    assert legal(d) == ["dark", "look"]
    do(d, "redeal")
    assert result(d).outcome == "redeal" and result(d).redeal_by == 1


def test_weak_hand_redeal_under_14() -> None:
    """RULES §4 redeal_weak_hand=14: a hand under 14 points may demand a redeal before the
    auction; a hand of exactly 14 may not."""
    r = rules(redeal_weak_hand=14)
    d = do(new_deal(*FOUR_NINES, r=r), "100")  # seat 2: 6 points
    assert legal(d)[0] == "redeal"
    fourteen = new_deal(
        ["KS QS QC KC TC JD QD", "AH TH KH QH AS AC AD", "TS JS 9S JC 9C 9D 9H"], "KD TD JH", r=r
    )
    do(fourteen, "100")
    assert "redeal" not in legal(fourteen)


# AUCTION's talon QD JD 9D has 5 points and one nine: not weak.  Two variants are weak:
TWO_NINES = (["TC KC QC JC QD TD KD", *AUCTION[0][1:]], "9C JD 9D")  # two nines
FOUR_POINTS = (["TC KC QC QD 9C TD KD", *AUCTION[0][1:]], "JC JD 9D")  # under 5 points


def test_weak_talon_redeal_before_the_first_give() -> None:
    """RULES §4 redeal_weak_talon: a talon with two nines or under 5 points lets the declarer
    redeal before he gives cards (§6: instead of his first give)."""
    r = rules(redeal_weak_talon=True)
    for talon_deal in (TWO_NINES, FOUR_POINTS):
        d = do(new_deal(*talon_deal, r=r), "100", "pass", "pass")
        assert legal(d)[-1] == "redeal"
        do(d, "give 9D")
        assert "redeal" not in legal(d)
        assert illegal(d, "redeal").code == "redeal_not_entitled"
        d.undo()
        do(d, "redeal")
        res = result(d)
        assert res.outcome == "redeal" and res.redeal_by == 1 and res.values == (0, 0, 0)
    not_weak = do(new_deal(*AUCTION, r=r), "100", "pass", "pass")  # 5 points, one nine
    assert "redeal" not in legal(not_weak)
    off = do(new_deal(*TWO_NINES), "100", "pass", "pass")
    assert "redeal" not in legal(off)


def test_weak_talon_redeal_before_the_first_discard() -> None:
    """RULES §6: with discard_three the weak talon redeal comes instead of the first discard."""
    d = new_deal(*TWO_NINES, r=rules(redeal_weak_talon=True, exchange="discard_three"))
    do(d, "100", "pass", "pass")
    assert legal(d)[-1] == "redeal"
    do(d, "discard 9D")
    assert "redeal" not in legal(d)


def test_weak_talon_redeal_only_at_100() -> None:
    """RULES §4 redeal_weak_talon_only_at_100: only when the talon was taken at 100."""
    r = rules(redeal_weak_talon=True, redeal_weak_talon_only_at_100=True)
    at100 = do(new_deal(*TWO_NINES, r=r), "100", "pass", "pass")
    assert "redeal" in legal(at100)
    at105 = do(new_deal(*TWO_NINES, r=r), "100", "105", "pass", "pass")
    assert at105.declarer == 2 and "redeal" not in legal(at105)


# Seat 2 gets the fourth nine from the talon; with redeal_weak_hand=25 seat 0 ends with
# J×4 + Q×4 = 20 points.
AFTER_EXCHANGE = (
    ["JS JC JD JH QS QC QD", "AS AC AD AH TS TC TD", "9S 9C 9D KS KC KD KH"], "9H QH TH"
)


def test_redeal_after_exchange_offers_clockwise_from_the_declarer() -> None:
    """RULES §4 redeal_after_exchange: after the exchange a player who now holds four nines
    (or, with redeal_weak_hand, fewer points) may demand a redeal before the first lead;
    (decision) after the contract each entitled player answers redeal or pass, clockwise
    from the declarer."""
    r = rules(redeal_after_exchange=True, redeal_weak_hand=25)
    d = new_deal(*AFTER_EXCHANGE, r=r)
    do(d, "100", "pass", "pass", "give 9H", "give QH", "contract 100")
    assert d.phase == Phase.REDEAL_OFFER and d.to_move == 2
    assert legal(d) == ["redeal", "pass"]
    assert view_of(d, 2).legal == (mv.REDEAL, mv.PASS) and view_of(d, 0).legal == ()
    do(d, "pass")
    assert d.phase == Phase.REDEAL_OFFER and d.to_move == 0
    do(d, "pass")
    assert d.phase == Phase.PLAY and d.to_move == 1
    d.undo()
    do(d, "redeal")
    res = result(d)
    assert res.outcome == "redeal" and res.redeal_by == 0 and res.declarer is None


def test_redeal_after_exchange_four_nines_alone() -> None:
    """RULES §4 redeal_after_exchange: four nines entitle even without redeal_four_nines."""
    d = new_deal(*AFTER_EXCHANGE, r=rules(redeal_after_exchange=True))
    do(d, "100", "pass", "pass", "give 9H", "give QH", "contract 100")
    assert d.phase == Phase.REDEAL_OFFER and d.to_move == 2
    do(d, "redeal")
    assert result(d).redeal_by == 2
    plain = new_deal(*AFTER_EXCHANGE)  # the option off: straight to the play
    do(plain, "100", "pass", "pass", "give 9H", "give QH", "contract 100")
    assert plain.phase == Phase.PLAY


# ==================================================================== §2.5 play

# PLAY: seat 1 bids 100, gives QD to seat 2 and JC to seat 0, and plays with
#   seat 1: AS AH KH QH AC 9C AD 9D      seat 2: TS KS TH JH 9H TD KD QD
#   seat 0: QS JS 9S JD TC KC QC JC
PLAY = (["QS JS 9S JD TC KC QC", "AS AH KH QH AC QD JC", "TS KS TH JH 9H TD KD"], "9D 9C AD")


def play_deal(r: Rules | None = None) -> Deal:
    d = new_deal(*PLAY, r=r)
    return do(d, "100", "pass", "pass", "give QD", "give JC", "contract 100")


def test_declarer_leads_first_and_may_lead_any_card() -> None:
    """RULES §2.5: the declarer leads first; the leader may play any card."""
    d = play_deal()
    assert d.phase == Phase.PLAY and d.to_move == 1 and d.leader == 1
    assert legal(d) == ["AS", "AC", "9C", "AD", "9D", "AH", "KH", "QH"]
    assert d.trump == -1  # RULES §2.5: at the start of each deal there is no trump


def test_follow_suit() -> None:
    """RULES §2.5: follow suit if you can."""
    d = do(play_deal(), "AH")
    assert legal(d) == ["TH", "JH", "9H"]
    err = illegal(d, "KS")
    assert err.code == "must_follow" and str(err) == "KS: you must follow hearts"
    assert illegal_move_text(err, "ru") == "нужно ходить в масть: черви"


def test_void_without_trump_plays_any_card() -> None:
    """RULES §2.5: if you cannot follow and no trump is set, any card."""
    d = do(play_deal(), "AH", "9H")
    assert d.to_move == 0 and legal(d) == hand_of(d, 0).split()


def test_must_trump_when_void_of_the_led_suit() -> None:
    """RULES §2.5: if you cannot follow and a trump suit is set, you must play a trump."""
    d = do(play_deal(), "AH", "9H", "9S", "KH+", "JH", "JS", "AC")
    assert d.trump == 3 and d.to_move == 2
    assert legal(d) == ["TH"]
    err = illegal(d, "TD")
    assert err.code == "must_trump"
    assert str(err) == "TD: you have no clubs: you must play a trump (hearts)"
    do(d, "TH")
    assert legal(d) == ["TC", "KC", "QC", "JC"]  # seat 0 follows clubs
    do(d, "JC")
    # the trump wins over the ace of the suit led, and the winner leads next
    assert trick_texts(d)[-1] == "AC TH JC>2"
    assert d.leader == 2 and d.to_move == 2


def test_void_of_led_suit_and_of_trump_plays_any_card() -> None:
    """RULES §2.5: void of the led suit and of the trump: any card."""
    d = do(play_deal(), "AH", "9H", "9S", "KH+", "JH")
    assert d.trump == 3 and legal(d) == hand_of(d, 0).split()


def test_no_duty_to_beat_in_classic() -> None:
    """RULES §2.5: you need not beat the card led."""
    d = do(play_deal(), "AH", "9H", "9S", "KH+")
    assert legal(d) == ["TH", "JH"]  # JH is allowed although TH would win
    do(d, "JH", "JS", "AC", "TH", "JC", "TD", "JD")
    assert legal(d) == ["AD", "9D"]  # seat 1 may duck the ten of diamonds


def test_must_overtake() -> None:
    """RULES §4 must_overtake, §7: when following suit you must play a card higher than every
    card of the led suit already in the trick, if you hold one."""
    d = do(play_deal(rules(must_overtake=True)), "AH", "9H", "9S", "KH+")
    assert legal(d) == ["TH"]  # the ten beats the king
    err = illegal(d, "JH")
    assert err.code == "must_overtake" and str(err) == "JH: you must play higher than K♥"
    assert illegal_move_text(err, "ru") == "нужно перебить К♥"
    d2 = do(play_deal(rules(must_overtake=True)), "AH")
    assert legal(d2) == ["TH", "JH", "9H"]  # nothing beats the ace: any heart


def test_must_overtake_beats_the_highest_card_of_the_led_suit() -> None:
    """RULES §7 must_overtake: higher than *every* card of the led suit already in the trick:
    after 9D and QD, seat 0 must play above the queen (his JD beats only the nine)."""
    moves = ("100", "pass", "pass", "give QD", "give JD", "contract 100", "9D", "QD")
    d = do(new_deal(*AUCTION, r=rules(must_overtake=True)), *moves)
    assert legal(d) == ["TD", "KD"]
    err = illegal(d, "JD")
    assert err.code == "must_overtake" and str(err) == "JD: you must play higher than Q♦"
    classic = do(new_deal(*AUCTION), *moves)
    assert legal(classic) == ["TD", "KD", "JD"]


# OVERTRUMP: seat 1 leads AS (wins), declares KH+ (seat 2's AH wins it); seat 2 leads 9C:
# seat 0 trumps with JH; seat 1 holds QH and 9H.
OVERTRUMP = (["TS KS QS JS 9S TH JH", "AS KH QH AD TD KD QD", "AH AC TC KC QC JC 9C"], "JD 9D 9H")


def test_must_overtake_has_no_duty_to_overtrump() -> None:
    """RULES §7 must_overtake: there is no duty to overtrump: void of the led suit, any trump."""
    d = new_deal(*OVERTRUMP, r=rules("casual"))
    do(d, "100", "pass", "pass", "give JD", "give 9D", "contract 100")
    do(d, "AS", "JD", "9S", "KH+")
    assert legal(d) == ["AH"]
    do(d, "AH")
    assert legal(d) == ["TH", "JH"]  # nothing beats the ace
    do(d, "TH", "9C")
    assert d.trump == 3 and legal(d) == ["JH"]
    do(d, "JH")
    assert legal(d) == ["QH", "9H"]  # 9H allowed: no duty to overtrump
    do(d, "9H")
    assert trick_texts(d)[-1] == "9C JH 9H>0"


def test_trick_winner_ten_beats_king_and_winner_leads() -> None:
    """RULES §1 / §2.5: ranks 9 J Q K 10 A (the ten beats the king); the highest card of the
    suit led wins; the winner of a trick leads the next."""
    d = do(play_deal(), "AH", "9H", "9S", "KH+", "TH", "JS")
    assert trick_texts(d) == ["AH 9H 9S>1", "KH TH JS>2"]
    assert d.tricks[1].trump == 3 and d.tricks[1].points == 4 + 10 + 2
    assert d.to_move == 2 and d.leader == 2
    assert d.taken == [0, 11, 16] and d.tricks_won == [0, 1, 1]


def test_trick_winner_highest_trump() -> None:
    """RULES §2.5: the highest trump wins the trick, else the highest card of the suit led; a
    card of a third suit never wins."""
    d = do(play_deal(), "AH", "9H", "9S", "KH+", "JH", "JS", "AC", "TH", "JC")
    assert trick_texts(d)[-1] == "AC TH JC>2"
    do(d, "KS", "QS", "AS")  # spades led: the ace wins
    assert trick_texts(d)[-1] == "KS QS AS>1"
    do(d, "9C", "QD", "KC")  # clubs led, seat 2 void of clubs and trumps: a diamond wins nothing
    assert trick_texts(d)[-1] == "9C QD KC>0"


# ==================================================================== §2.6 declarations


def test_no_marriage_on_the_first_lead() -> None:
    """RULES §2.6: a marriage may not be declared on the first lead of the deal."""
    d = play_deal()
    assert "KH+" not in legal(d)
    err = illegal(d, "KH+")
    assert err.code == "no_declare_first_lead"
    assert str(err) == "KH+: no declaration on the first lead of the deal"


def test_marriage_on_first_lead_option() -> None:
    """RULES §4 marriage_on_first_lead=true: the first lead may declare."""
    d = play_deal(rules(marriage_on_first_lead=True))
    assert legal(d)[-2:] == ["KH+", "QH+"]
    do(d, "QH+")
    assert d.trump == 3 and d.bonus[1] == 100


def test_marriage_scores_at_once_and_is_trump_for_the_declaring_trick() -> None:
    """RULES §2.6: on lead, holding K and Q, he declares by leading one of them; he scores its
    value at once and that suit becomes trump, already for this trick."""
    d = do(play_deal(), "AH", "9H", "9S")
    assert legal(d)[-2:] == ["KH+", "QH+"]
    do(d, "KH+")
    assert d.bonus == [0, 100, 0] and d.trump == 3 and d.trump_declarer == 1
    assert d.declarations == [d.declarations[0]]
    decl = d.declarations[0]
    assert (decl.seat, decl.kind, decl.suit, decl.points, decl.trick) == (1, "marriage", 3, 100, 1)
    do(d, "JH", "JS")
    assert d.tricks[-1].trump == 3


def test_declaring_needs_the_partner_and_the_lead() -> None:
    """RULES §2.6: only the player on lead declares, and only with K and Q of the suit."""
    d = do(play_deal(), "AH", "9H", "9S")
    err = illegal(d, "AS+")
    assert err.code == "nothing_to_declare"
    assert str(err) == "AS+: A♠ declares nothing: you need its partner (K+Q of a suit)"
    do(d, "KH")  # led without "+": no declaration, no trump
    assert d.trump == -1 and d.bonus == [0, 0, 0]
    err = illegal(d, "TH+")
    assert err.code == "declare_not_on_lead"
    assert str(err) == "TH+: only the player on lead may declare"


def test_each_new_marriage_changes_the_trump() -> None:
    """RULES §2.6: each new marriage changes the trump."""
    d = new_deal(*ONE_LOSS)
    do(d, "100", "pass", "pass", "give 9S", "give JH", "contract 120")
    do(d, "AD", "9C", "9D", "KH+", "JC", "JH")
    assert d.trump == 3
    assert legal(d)[-2:] == ["KS+", "QS+"]  # hearts are declared already
    do(d, "KS+")
    assert d.trump == 0 and d.bonus[1] == 140
    do(d, "AS", "TD")
    assert trick_texts(d)[-1] == "KS AS TD>2"
    assert [(x.kind, x.suit, x.points) for x in d.declarations] == [
        ("marriage", 3, 100), ("marriage", 0, 40)
    ]


def test_a_defender_declares_too() -> None:
    """RULES §2.6: any player on lead may declare (classic: he scores it)."""
    d = new_deal(*ONE_LOSS)
    do(d, "100", "pass", "pass", "give 9S", "give JH", "contract 120")
    do(d, "AD", "9C", "9D", "KH+", "JC", "JH", "KS+", "AS", "TD")
    assert d.to_move == 2 and legal(d)[-2:] == ["KC+", "QC+"]
    do(d, "QC+")
    assert d.trump == 1 and d.trump_declarer == 2 and d.bonus == [0, 140, 60]


def test_marriage_points_declarer_only() -> None:
    """RULES §4 marriage_points_declarer_only: a defender's marriage changes the trump but
    scores nothing."""
    d = new_deal(*ONE_LOSS, r=rules(marriage_points_declarer_only=True))
    do(d, "100", "pass", "pass", "give 9S", "give JH", "contract 120")
    do(d, "AD", "9C", "9D", "KH+", "JC", "JH", "KS+", "AS", "TD", "QC+")
    assert d.trump == 1 and d.trump_declarer == 2 and d.bonus == [0, 140, 0]
    assert d.declarations[-1].points == 0 and d.declarations[-1].kind == "marriage"


# HALF: seat 1 keeps AS AH TH KH QH JH QC JC (hearts K+Q+J, clubs Q+J without the king).
HALF = (["KC 9C AD TD KD QD JD", "AS AH TH KH QH JH QC", "KS QS JS TS 9H AC TC"], "9S 9D JC")


def half_deal(**opts: Any) -> Deal:
    d = new_deal(*HALF, r=rules(**opts))
    return do(d, "100", "pass", "pass", "give 9S", "give 9D", "contract 100", "AS", "9S", "9D")


def test_half_marriage() -> None:
    """RULES §4 half_marriage: Q+J of a suit may be declared like a marriage for half its
    value; with K, Q and J, Q+ is the full marriage."""
    assert legal(half_deal())[-2:] == ["KH+", "QH+"]  # off: no half marriages
    d = half_deal(half_marriage=True)
    assert legal(d)[-5:] == ["QC+", "JC+", "KH+", "QH+", "JH+"]
    do(d, "QH+")
    assert (d.declarations[-1].kind, d.declarations[-1].points) == ("marriage", 100)
    do(d, "9H", "9C")
    # (decision) a suit is declared once: its queen belongs to one declaration only
    assert legal(d)[-2:] == ["QC+", "JC+"]
    err = illegal(d, "JH+")
    assert err.code == "nothing_to_declare"
    assert str(err) == (
        "JH+: J♥ declares nothing: you need its partner (K+Q of a suit); "
        "this suit's marriage has been declared already"
    )
    do(d, "JC+")
    assert (d.declarations[-1].kind, d.declarations[-1].points) == ("half_marriage", 30)
    assert d.trump == 1 and d.bonus[1] == 130


def test_half_marriage_jack_of_a_full_marriage_declares_half_once() -> None:
    """RULES §4 half_marriage (decision): with K, Q and J, J+ declares the half marriage; the
    suit is then declared and K+ or Q+ declares nothing more."""
    d = do(half_deal(half_marriage=True), "JH+")
    assert (d.declarations[-1].kind, d.declarations[-1].points) == ("half_marriage", 50)
    assert d.trump == 3
    do(d, "9H", "9C")
    assert "KH+" not in legal(d) and "QH+" not in legal(d)


# ACES: seat 1 keeps AS AC AD AH TS KH QH; seat 2 has only spades and clubs, seat 0 only
# diamonds and hearts.
ACES = (["TD KD QD JD 9D TH JH", "AS AC AD AH TS KH QH", "KS QS JS TC KC QC JC"], "9C 9H 9S")


def aces_deal(**opts: Any) -> Deal:
    d = new_deal(*ACES, r=rules(**opts))
    return do(d, "100", "pass", "pass", "give 9C", "give 9H", "contract 100", "TS", "JS", "9D")


def test_ace_marriage() -> None:
    """RULES §4 ace_marriage=200: holding four aces, the player on lead (same conditions as a
    marriage) leads the first ace with + and scores 200; no trump change (decision)."""
    assert "AD+" not in legal(aces_deal())
    first = new_deal(*ACES, r=rules(ace_marriage=200))
    do(first, "100", "pass", "pass", "give 9C", "give 9H", "contract 100")
    assert "AD+" not in legal(first)  # not on the first lead
    d = aces_deal(ace_marriage=200)
    assert legal(d)[-6:] == ["KH+", "QH+", "AS+", "AC+", "AD+", "AH+"]
    do(d, "AD+")
    assert d.bonus[1] == 200 and d.trump == -1
    assert d.declarations[-1].kind == "ace_marriage"
    do(d, "9C", "TD")
    assert "AS+" not in legal(d)  # three aces left: no second ace marriage
    assert legal(d)[-2:] == ["KH+", "QH+"]


def test_ace_marriage_trump() -> None:
    """RULES §4 ace_marriage_trump: the ace marriage also makes that suit trump."""
    d = do(aces_deal(ace_marriage=200, ace_marriage_trump=True), "AD+")
    assert d.trump == 2 and d.trump_declarer == 1 and d.bonus[1] == 200


def test_ace_marriage_all_in_row() -> None:
    """RULES §4 ace_marriage_all_in_row: after an ace marriage the four aces must be led in
    consecutive tricks while he keeps the lead."""
    d = do(aces_deal(ace_marriage=200, ace_marriage_all_in_row=True), "AD+", "9C", "TD")
    assert legal(d) == ["AS", "AC", "AH"]
    err = illegal(d, "KH+")
    assert err.code == "aces_in_row"
    assert str(err) == "KH+: after the ace marriage you must lead your aces in a row"
    do(d, "AS", "KS", "KD", "AC", "KC", "QD", "AH", "QS", "JH")
    assert legal(d) == ["9S", "KH", "QH", "KH+", "QH+"]  # the aces are out: free again


def test_ace_marriage_all_in_row_ends_when_he_loses_the_lead() -> None:
    """RULES §4 ace_marriage_all_in_row: only while he keeps the lead."""
    d = aces_deal(ace_marriage=200, ace_marriage_all_in_row=True, ace_marriage_trump=True)
    do(d, "AD+", "9C", "TD", "AS", "KS", "KD")  # seat 0 trumps the ace of spades
    assert trick_texts(d)[-1] == "AS KS KD>0" and d.aces_in_row == -1


def test_four_nines_bonus() -> None:
    """RULES §4 four_nines_bonus: holding four nines, leading the first nine scores it; no
    trump change; (decision) the same conditions as a marriage, so not on the first lead
    unless marriage_on_first_lead."""
    r = rules(four_nines_bonus=360)
    d = do(new_deal(*FOUR_NINES, r=r), "100", "105", "pass", "pass")
    do(d, "give KD", "give QD", "contract 105")  # seat 2 declares
    assert not any(m.endswith("+") for m in legal(d))
    r = rules(four_nines_bonus=360, marriage_on_first_lead=True)
    d = do(new_deal(*FOUR_NINES, r=r), "100", "105", "pass", "pass")
    do(d, "give KD", "give QD", "contract 105")
    assert legal(d)[-4:] == ["9S+", "9C+", "9D+", "9H+"]
    do(d, "9D+")
    assert d.bonus[2] == 360 and d.trump == -1 and d.declarations[-1].kind == "four_nines"


def test_no_lead_own_trump() -> None:
    """RULES §4 no_lead_own_trump: the player who declared the current trump may not lead
    trump, unless he holds only trumps (decision)."""
    d = new_deal(*ONE_LOSS, r=rules(no_lead_own_trump=True))
    do(d, "100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT[:6])
    assert legal(d) == ["9S"]
    err = illegal(d, "AH")
    assert err.code == "no_lead_own_trump"
    assert str(err) == "AH: you declared the trump, so you may not lead it"
    do(d, "9S", "AS", "9D")  # seat 2 takes it and leads a club: seat 1 trumps
    do(d, "QC", "TC", "9H")
    assert trick_texts(d)[-1] == "QC TC 9H>1"
    assert legal(d) == ["AH", "TH", "QH", "JH"]  # only trumps left: allowed


# ==================================================================== §2.7 deal values


def script_last(card: str) -> list[str]:
    """SCRIPT with seat 0 keeping ``card`` for the last trick (it goes to seat 2 with the AS)
    and playing his 9D in its place: seat 2 takes 11 + card points, seat 1 209 − them."""
    out = list(SCRIPT)
    i = out.index(card)
    out[i], out[-1] = "9D", card
    return out


def test_script_is_what_the_comments_say() -> None:
    """RULES §2.5 / §2.7: ONE_LOSS played by SCRIPT: seven tricks to seat 1, the last to 2."""
    d = one_loss(120)
    assert trick_texts(d) == [
        "AD 9C JD>1", "KH JC QS>1", "AH QC QD>1", "TH KC KD>1",
        "QH JS TD>1", "JH TS TC>1", "9H KS AC>1", "9S AS 9D>2",
    ]
    res = result(d)
    assert res.outcome == "played" and res.points == (0, 209, 11) and res.tricks == (0, 7, 1)
    assert sum(res.points) == 120 + 100  # every card point once, plus the marriage
    assert result(one_loss(120, script=script_last("KD"))).points == (0, 205, 15)


def test_declarer_made_scores_the_contract() -> None:
    """RULES §2.7: made (≥ contract) → + contract, however much more he took."""
    res = result(one_loss(120))
    assert res.made and res.values == (0, 120, 10)
    exact = result(one_loss(205, script=script_last("KD")))  # 205 points for 205
    assert exact.made and exact.values == (0, 205, 15)


def test_declarer_failed_by_one_point() -> None:
    """RULES §2.7: failed by even one point → − contract."""
    res = result(one_loss(210))  # 209 points
    assert res.made is False and res.values == (0, -210, 10)


@pytest.mark.parametrize(
    ("card", "taken", "by5", "by10"),
    [("9D", 11, 10, 10), ("JD", 13, 15, 10), ("QS", 14, 15, 10), ("KD", 15, 15, 20),
     ("TD", 21, 20, 20), ("AC", 22, 20, 20)],
)
def test_defenders_points_rounded(card: str, taken: int, by5: int, by10: int) -> None:
    """RULES §2.7: defenders score their points rounded to the nearest 5 (remainder 1–2 down,
    3–4 up); §4 rounding=10 (remainder 5–9 up); rounding=1: as taken."""
    for step, expected in ((5, by5), (10, by10), (1, taken)):
        res = result(one_loss(120, rules(rounding=step), script_last(card)))
        assert res.points[2] == taken and res.values[2] == expected


def test_round_points_examples() -> None:
    """RULES §2.7: 17 → 15, 18 → 20; §4 rounding=10: 14 → 10, 15 → 20; rounding=1: none."""
    assert [round_points(x, 5) for x in (15, 16, 17, 18, 19, 20)] == [15, 15, 15, 20, 20, 20]
    assert [round_points(x, 10) for x in (0, 4, 5, 9, 14, 15)] == [0, 0, 10, 10, 10, 20]
    assert [round_points(x, 1) for x in (0, 17, 18)] == [0, 17, 18]


def test_declarer_scores_taken() -> None:
    """RULES §4 declarer_scores=taken: a made contract scores the points actually taken
    (rounded with rounding); a failed one still costs the contract."""
    casual = rules("casual")  # taken, rounding=1, bid_step=10
    assert result(one_loss(200, casual)).values == (0, 209, 11)
    assert result(one_loss(210, casual)).values == (0, -210, 11)
    five = rules(declarer_scores="taken")
    assert result(one_loss(200, five)).values == (0, 210, 10)


def test_round_declarer_before_compare() -> None:
    """RULES §4 round_declarer_before_compare: 209 rounds to 210 and makes 210; 207 → 205
    does not."""
    r = rules(round_declarer_before_compare=True)
    assert result(one_loss(210, r)).made
    assert result(one_loss(210, r)).values == (0, 210, 10)
    assert not result(one_loss(210, r, script_last("JD"))).made
    assert not result(one_loss(210)).made  # off: compared as taken


def test_golden_deal_plays_120_and_doubles_every_score() -> None:
    """RULES §4 golden_deals: the opener plays 120 without an auction, may raise after the
    talon, and every score of the deal counts double."""
    d = new_deal(*ONE_LOSS, r=rules(golden_deals=True), golden=True)
    assert d.phase == Phase.EXCHANGE and (d.declarer, d.bid) == (1, 120)
    assert d.auction == [] and d.hands[1].bit_count() == 10
    do(d, "give KS", "give QS")
    assert legal(d)[0] == "contract 120" and legal(d)[-1] == "contract 220"
    do(d, "contract 120", *SCRIPT)
    res = result(d)
    assert res.golden and res.values == (0, 240, 20)


def four_players(r: Rules) -> Deal:
    """ONE_LOSS with four players: dealer 0 sits out, seat 3 holds seat 0's cards."""
    hands = ["", ONE_LOSS[0][1], ONE_LOSS[0][2], ONE_LOSS[0][0]]
    return new_deal(hands, ONE_LOSS[1], r=r)


def test_four_players_dealer_sits_out() -> None:
    """RULES §4 players=4: the dealer sits out that deal."""
    d = four_players(rules(players=4))
    assert d.active == (1, 2, 3) and d.to_move == 1
    do(d, "100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
    res = result(d)
    assert res.points == (0, 209, 11, 0) and res.values == (0, 120, 10, 0)


@pytest.mark.parametrize(
    ("how", "value"), [("talon_marriage", 40), ("talon_value", 45)]
)
def test_sitting_dealer_scores_the_talon(how: str, value: int) -> None:
    """RULES §4 sitting_dealer_scores: talon_marriage scores a marriage in the talon;
    talon_value the card points, each K or Q adding half its marriage value (♠K = 4+20);
    §7: rounded with rounding.  Talon 9S KS QS: 40; 0 + 24 + 23 = 47 → 45."""
    r = rules(players=4, sitting_dealer_scores=how)
    d = four_players(r)
    do(d, "100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
    assert result(d).values == (value, 120, 10, 0)
    assert sitting_dealer_value(cards("KS 9C 9D"), r) == (24 if how == "talon_value" else 0)
    ten = four_players(rules(players=4, sitting_dealer_scores=how, rounding=10))
    do(ten, "100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
    assert result(ten).values[0] == {"talon_marriage": 40, "talon_value": 50}[how]


# ==================================================================== views, undo, messages


def all_views(d: Deal) -> list[Any]:
    return [view_of(d, s) for s in (None, *range(d.players))]


def test_views_never_show_other_hands() -> None:
    """docs/architecture.md "What a seat sees" / RULES §2: a seat sees its own hand only; the other
    hands' unplayed cards are never visible to it (but for the talon cards everybody saw);
    a spectator sees no hand."""
    d = new_deal(*ONE_LOSS)
    moves = ["100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT]
    for m in [None, *moves]:
        if m is not None:
            do(d, m)
        spectator = view_of(d, None)
        assert spectator.hand is None and spectator.legal == ()
        for seat in range(3):
            v = view_of(d, seat)
            assert v.hand == d.hands[seat]
            shown = v.talon or 0  # the talon, once shown, is known wherever it went
            for other in range(3):
                if other != seat:
                    assert not v.visible_cards() & d.hands[other] & ~shown
            assert not spectator.visible_cards() & d.hands[seat] & ~shown
    assert d.done


def test_view_legal_moves_only_for_the_seat_to_move() -> None:
    """engine/view.py: a view lists legal moves only for its own seat when it is to move."""
    d = do(new_deal(*AUCTION), "100")
    assert view_of(d, 2).legal == tuple(d.legal_moves()) and view_of(d, 2).my_turn
    assert view_of(d, 0).legal == () and not view_of(d, 0).my_turn
    assert d.view(2) == view_of(d, 2)


def test_undo_restores_the_exact_state_everywhere() -> None:
    """apply + undo of every legal move at every step of a deal restores every view."""
    d = new_deal(*ONE_LOSS, r=rules("house", half_marriage=True, ace_marriage=200),
                 dark_allowed=True)
    moves = ["look", "100", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT]
    for m in moves:
        before = all_views(d)
        hands = list(d.hands)
        for option in list(d.legal_moves()):
            d.apply(option)
            d.undo()
            assert all_views(d) == before and d.hands == hands
        do(d, m)
    assert result(d).values == (0, 120, 10)
    while d.history:
        d.undo()
    assert d.phase == Phase.DARK_CHOICE and view_of(d, 1).hand is None


def test_undo_restores_a_declared_suit() -> None:
    """RULES §2.6 (decision): undoing a declaration frees its suit again."""
    d = do(half_deal(half_marriage=True), "QH+")
    d.undo()
    assert legal(d)[-5:] == ["QC+", "JC+", "KH+", "QH+", "JH+"]


def test_clone_is_independent() -> None:
    d = do(play_deal(), "AH")
    c = d.clone()
    do(c, "9H", "9S")
    assert len(d.tricks) == 0 and d.trick == [parse_card("AH")] and len(c.tricks) == 1


def test_illegal_play_messages() -> None:
    """Illegal moves say why in words a player understands (docs/protocol.md): cards not held, the
    deal over, a move of another phase."""
    d = play_deal()
    err = illegal(d, "TS")
    assert err.code == "not_in_hand" and str(err) == "TS: you do not hold 10♠"
    assert illegal_move_text(err, "ru") == "у вас нет карты 10♠"
    err = illegal(d, "give AS")
    assert err.code == "wrong_phase"
    d = one_loss()
    with pytest.raises(IllegalMove) as e:
        d.apply(parse_move("AS"))
    assert e.value.code == "deal_over" and str(e.value) == "AS: the deal is over"


def test_exchange_messages() -> None:
    """RULES §2.3: only his own cards can be given."""
    d = do(new_deal(*AUCTION), "100", "pass", "pass")
    err = illegal(d, "give KS")
    assert err.code == "not_in_hand" and str(err) == "give KS: you do not hold K♠"
    err = illegal(d, "contract 100")
    assert err.code == "wrong_phase"
    assert str(err) == "contract 100: contract 100 is not possible now: seat 1 to give a card"


def test_marriage_sum_and_cap_helpers() -> None:
    """RULES §1: marriage values ♠40 ♣60 ♦80 ♥100; §2.2 the cap adds every marriage held."""
    values = (40, 60, 80, 100)
    assert marriage_sum(cards("KS QS KH QH"), values) == 140
    assert marriage_sum(cards("KS QC KH JH"), values) == 0
    assert marriage_sum(FULL_DECK, values) == 280


def test_not_at_100_talon_is_shown_to_the_sitting_dealer() -> None:
    """RULES §4 talon_shown=not_at_100 with 4 players (decision, as for dark_talon_shown):
    the sitting-out dealer, who may score the talon, sees it; the defenders do not."""
    r = rules(players=4, talon_shown="not_at_100", sitting_dealer_scores="talon_value")
    d = four_players(r)
    do(d, "100", "pass", "pass")
    talon = cards(ONE_LOSS[1])
    assert view_of(d, 0).talon == talon and view_of(d, 1).talon == talon
    assert view_of(d, 2).talon is None and view_of(d, 3).talon is None
    assert view_of(d, None).talon is None


# ==================================================================== the play rules' one home
#
# thousand.engine.play_rules is the one home of the play rules (RULES §2.5-2.6, the play options
# of §4, §7 must_overtake): the engine plays by it, the solver's rules are made of it.  These
# tests tie the engine to it on random games and check the functions against literal
# readings of the rules.

PLAY_RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("casual", {}),  # must_overtake
    ("textbook", {}),  # ten_strength=natural, discard_three, four players
    ("casual", {"ten_strength": "natural"}),  # natural with must_overtake
    ("classic", {"half_marriage": True, "no_lead_own_trump": True,
                 "marriage_on_first_lead": True}),
    ("classic", {"ace_marriage": 200, "ace_marriage_trump": True,
                 "ace_marriage_all_in_row": True, "four_nines_bonus": 200,
                 "no_lead_own_trump": True, "half_marriage": True}),
]


def _literal_strength(card: int, ten_strength: str) -> int:
    """RULES §1: the place of a card's rank in the trick-taking order, written out here."""
    order = {"high": "9JQKTA", "natural": "9TJQKA"}[ten_strength]
    return order.index("9JQKTA"[card % 6])


def _literal_beats(card: int, best: int, trump: int, ten_strength: str) -> bool:
    if card // 6 == best // 6:
        return _literal_strength(card, ten_strength) > _literal_strength(best, ten_strength)
    return card // 6 == trump


@pytest.mark.parametrize(("preset", "overrides"), PLAY_RULESETS)
def test_engine_plays_by_play_rules(preset: str, overrides: dict[str, Any]) -> None:
    """Random games: at every card the engine's legal moves are those of
    play_rules.follow_cards / lead_cards (plain leads first, then the ``+`` leads:
    marriages suit by suit, aces, nines), every trick goes to play_rules.trick_winner and
    every declaration is play_rules.declaration."""
    import random

    from thousand.engine.game import Game
    from thousand.engine.play_rules import declaration, follow_cards, lead_cards, trick_winner

    r = rules(preset, **overrides)
    rng = random.Random(len(preset) * 31 + len(overrides))
    plays = declared = 0
    for seed in range(30):
        game = Game(r, seed=seed)
        while not game.over and game.deals_played < 3:
            d = game.deal
            assert d is not None
            if d.phase != Phase.PLAY:
                game.apply(rng.choice(game.legal_moves()))
                continue
            seat = d.to_move
            hand = d.hands[seat]
            if d.trick:
                allowed = follow_cards(hand, d.trick, d.trump, r.must_overtake, r.ten_strength)
                expected = cards_of(allowed)
            else:
                leads, declaring = lead_cards(
                    hand, seat, d.trump, d.trump_declarer, d.aces_in_row, d.declared_suits,
                    len(d.tricks), r,
                )
                # marriages suit by suit (K Q J), then the aces, then the nines
                ordered = sorted(cards_of(declaring), key=lambda c: (c % 6 in (0, 5), c % 6 == 0))
                expected = cards_of(leads) + [mv.play(c, True) for c in ordered]
            assert d.legal_moves() == expected, (d.trick, cards_of(hand))
            moves = d.legal_moves()
            plus = [m for m in moves if mv.is_declare(m)]
            move = rng.choice(plus) if plus and rng.random() < 0.7 else rng.choice(moves)
            n_tricks, n_decl = len(d.tricks), len(d.declarations)
            before = (hand, d.declared_suits)
            game.apply(move)
            plays += 1
            if len(d.declarations) > n_decl:
                declared += 1
                dec = d.declarations[-1]
                what = declaration(before[0], move % 24, r, before[1])
                assert what is not None and dec.kind == what[0] and dec.suit == move % 24 // 6
                full = what[1] if not r.marriage_points_declarer_only or seat == d.declarer else 0
                assert dec.points == full
            if len(d.tricks) > n_tricks:
                t = d.tricks[-1]
                i = trick_winner([c for _, c in t.cards], t.trump, r.ten_strength)
                assert t.winner == t.cards[i][0]
    assert plays > 300 and declared > 3, (plays, declared)


def test_play_rules_against_literal_readings() -> None:
    """play_rules on random hands and tricks against the rules read literally: follow suit,
    else trump, else anything; must_overtake above the strongest card of the suit led; the
    trick to the strongest trump, else the strongest card of the suit led (ten_strength);
    the ``+`` leads (K+Q, Q+J with half_marriage, four aces, four nines; a declared suit's
    queen serves no second declaration)."""
    import random

    from thousand.engine.play_rules import (
        beats,
        declaration,
        declaring_cards,
        follow_cards,
        strongest,
        trick_winner,
    )

    rng = random.Random(2024)
    for _ in range(4000):
        ts = rng.choice(("high", "natural"))
        deck = list(range(24))
        rng.shuffle(deck)
        hand = mask_of(deck[:rng.randrange(1, 9)])
        trick = deck[9:9 + rng.randrange(1, 3)]
        trump = rng.choice((-1, 0, 1, 2, 3))
        mo = rng.random() < 0.5
        # follow
        held = cards_of(hand)
        led = trick[0] // 6
        same = [c for c in held if c // 6 == led]
        top = max((c for c in trick if c // 6 == led), key=lambda c: _literal_strength(c, ts))
        assert strongest(trick, led, ts) == top
        if same:
            above = [c for c in same if _literal_strength(c, ts) > _literal_strength(top, ts)]
            want = (above or same) if mo else same
        else:
            want = [c for c in held if c // 6 == trump] or held
        assert follow_cards(hand, trick, trump, mo, ts) == mask_of(want)
        # the trick: the strongest trump, else the strongest card of the suit led
        full = [*trick, *deck[12:12 + 3 - len(trick)]]
        contenders = [c for c in full if c // 6 == trump] or [c for c in full if c // 6 == led]
        win = max(contenders, key=lambda c: _literal_strength(c, ts))
        assert trick_winner(full, trump, ts) == full.index(win)
        for i in range(3):
            for j in range(i + 1, 3):
                assert beats(full[j], full[i], trump, ts) == _literal_beats(
                    full[j], full[i], trump, ts
                )
        # declarations
        opts = rules(
            half_marriage=rng.random() < 0.5, ace_marriage=rng.choice((0, 200)),
            four_nines_bonus=rng.choice((0, 200)), ace_marriage_trump=rng.random() < 0.5,
        )
        if rng.random() < 0.3:
            hand |= mask_of(rng.choice(((5, 11, 17, 23), (0, 6, 12, 18))))
        done = rng.choice((0, rng.randrange(16)))
        expect = 0
        for s in range(4):
            k, q, j = 6 * s + 3, 6 * s + 2, 6 * s + 1
            if done >> s & 1:
                continue
            if hand >> k & 1 and hand >> q & 1:
                expect |= 1 << k | 1 << q
            if opts.half_marriage and hand >> q & 1 and hand >> j & 1:
                expect |= 1 << q | 1 << j
        if opts.ace_marriage and all(hand >> c & 1 for c in (5, 11, 17, 23)):
            expect |= mask_of((5, 11, 17, 23))
        if opts.four_nines_bonus and all(hand >> c & 1 for c in (0, 6, 12, 18)):
            expect |= mask_of((0, 6, 12, 18))
        assert declaring_cards(hand, done, opts) == expect
        for c in cards_of(hand):
            what = declaration(hand, c, opts, done)
            assert (what is not None) == bool(expect >> c & 1)
            if what is None:
                continue
            s, rank = divmod(c, 6)
            if rank == 5:
                assert what == ("ace_marriage", 200, opts.ace_marriage_trump)
            elif rank == 0:
                assert what == ("four_nines", 200, False)
            elif rank != 1 and hand >> (6 * s + 3) & 1 and hand >> (6 * s + 2) & 1:
                assert what == ("marriage", opts.marriage_values[s], True)
            else:
                assert what == ("half_marriage", opts.marriage_values[s] // 2, True)


def test_note_voids_reads_follow_cards_backwards() -> None:
    """play_rules.note_voids rules out of a seat's hand exactly the cards that would have made
    the card it played illegal (by follow_cards, with the trick as it stood when it played)."""
    import random

    from thousand.engine.play_rules import follow_cards, note_voids, void_suits

    rng = random.Random(77)
    for _ in range(3000):
        ts = rng.choice(("high", "natural"))
        mo = rng.random() < 0.5
        trump = rng.choice((-1, 0, 1, 2, 3))
        deck = list(range(24))
        rng.shuffle(deck)
        trick = [(seat, deck[seat]) for seat in range(rng.choice((2, 3)))]
        if rng.random() < 0.6:  # followers of the suit led, often
            suit = trick[0][1] // 6
            same = [c for c in deck[3:] if c // 6 == suit]
            trick = [trick[0]] + [(i + 1, same[i]) for i in range(len(trick) - 1)]
        played = mask_of(c for _, c in trick)
        exclude: dict[int, int] = {}
        note_voids(trick, trump, mo, exclude, ts)
        for i in range(1, len(trick)):
            seat, c = trick[i]
            before = [x for _, x in trick[:i]]
            lacks = 0
            for y in range(24):
                if played >> y & 1:
                    continue
                pair = 1 << c | 1 << y
                if not follow_cards(pair, before, trump, mo, ts) >> c & 1:
                    lacks |= 1 << y
            assert exclude.get(seat, 0) & ~played == lacks, (trick, trump, mo, ts, seat)
        if not mo:
            for m in exclude.values():
                suits = void_suits(m)
                assert m == mask_of(c for c in range(24) if suits >> (c // 6) & 1)


def test_wins_is_the_one_threshold() -> None:
    """RULES §4 win_score / win_strict: the game ends for a score that reaches the win score
    (passes it with win_strict); Rules.wins is the one home, the game asks it."""
    from thousand.engine.game import Game

    r = rules()
    assert r.score_to_win == 1000 and r.wins(1000) and not r.wins(999)
    strict = rules(win_strict=True)
    assert strict.score_to_win == 1001 and not strict.wins(1000) and strict.wins(1001)
    low = rules(win_score=500, barrel=None)
    assert low.wins(500) and not low.wins(495)
    for rr in (r, strict, low):
        g = Game(rr, seed=1)
        assert all(g._wins(s) == rr.wins(s) for s in range(-200, 1200, 5))
