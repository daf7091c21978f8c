"""The rules the seeds state that the first engine lacked (RULES §1, §4, §7): the ten's
strength, "sitting on 100", one-step raises, steps other than 5 and 10, the dark bid of the
player left of the dealer, ``dark_doubles=all``, the talon buy-out, the write-off by aces,
``concede_on_barrel=false`` for everybody, ``barrel_score=kept``, the cut that shapes the
deal and the first dealer drawn by lot.

Every test names the rule line it checks.  Deals are built from hand-picked cards with the
helpers of test_rules_deal (three players, dealer 0, seat 1 opens unless said otherwise).
"""

from __future__ import annotations

from typing import Any

import pytest

from test_rules_deal import (
    ONE_LOSS,
    SCRIPT,
    cards,
    do,
    hand_of,
    illegal,
    legal,
    new_deal,
    result,
    rules,
    trick_texts,
)
from thousand.engine import moves as mv
from thousand.engine.cards import NINE, RANK_MASK, card_str, parse_card
from thousand.engine.deal import Phase, view_of
from thousand.engine.game import Game
from thousand.engine.record import game_to_record, load_record, replay
from thousand.engine.rules import Rules

# ----------------------------------------------------------------------- ten_strength

# Seat 1 leads JS; seat 2 holds TS QS KS AS (and gets 9S from the talon); seat 0 has no
# spades.  Seat 1 gives 9S to seat 2 and TD to seat 0.
TEN = (["TH JD KC QC JC TC QD", "JS AH KH QH AC AD 9C", "TS QS KS AS 9H JH 9D"], "9S TD KD")


def ten_deal(**overrides: Any) -> Any:
    d = new_deal(*TEN, r=rules(**overrides))
    return do(d, "100", "pass", "pass", "give 9S", "give TD", "contract 100", "JS")


def test_ten_natural_loses_to_the_jack() -> None:
    """RULES §1 / §4 ten_strength=natural: "9 10 J Q K A in taking tricks": a ten played to a
    led jack loses; with the default (high) the same ten takes the trick."""
    natural = do(ten_deal(ten_strength="natural"), "TS", "QD")
    assert trick_texts(natural) == ["JS TS QD>1"]
    high = do(ten_deal(), "TS", "QD")
    assert trick_texts(high) == ["JS TS QD>2"]


def test_ten_natural_points_unchanged() -> None:
    """RULES §1 ten_strength=natural: "its points stay 10": the trick JS TS QD is 15 points."""
    d = do(ten_deal(ten_strength="natural"), "TS", "QD")
    assert d.taken[1] == 2 + 10 + 3


def test_ten_natural_does_not_overtake_the_jack() -> None:
    """RULES §7 must_overtake with ten_strength=natural: following a jack, the ten is not
    higher: only the queen, king and ace overtake; with high strength the ten does."""
    natural = ten_deal(ten_strength="natural", must_overtake=True)
    assert legal(natural) == ["AS", "KS", "QS"]
    err = illegal(natural, "TS")
    assert err.code == "must_overtake" and str(err) == "TS: you must play higher than J♠"
    high = ten_deal(must_overtake=True)
    assert legal(high) == ["AS", "TS", "KS", "QS"]


# ----------------------------------------------------------------------- the auction

AUCTION3 = (["TC KC QC JC 9C TD KD", "AH TH KH QH AS AC AD", "9H JH TS KS QS JS 9S"], "QD JD 9D")


def test_opener_sits_on_100() -> None:
    """RULES §4 opening_bid=exactly_100: the opener's bid is 100 ("сижу на ста")."""
    d = new_deal(*AUCTION3, r=rules(opening_bid="exactly_100"))
    assert legal(d) == ["100"]
    err = illegal(d, "105")
    assert err.code == "opening_exactly_100"
    assert str(err) == "105: the opener bids 100 (he sits on 100)"


def test_opener_on_100_raises_later_like_anyone() -> None:
    """RULES §4 opening_bid=exactly_100: "he may raise later in his turn like anyone"."""
    d = do(new_deal(*AUCTION3, r=rules(opening_bid="exactly_100")), "100", "105", "pass")
    assert d.to_move == 1 and legal(d)[:3] == ["pass", "110", "115"]


def test_one_step_raises_refuse_a_jump() -> None:
    """RULES §4 bid_jumps=false: every raise in the auction is exactly one step; a jump is
    refused with a message naming the step."""
    d = do(new_deal(*AUCTION3, r=rules(bid_jumps=False)), "100")
    assert legal(d) == ["pass", "105"]
    err = illegal(d, "120")
    assert err.code == "one_step" and str(err) == "120: every raise is one step of 5: bid 105"
    ten = do(new_deal(*AUCTION3, r=rules(bid_jumps=False, bid_step=10)), "100")
    assert legal(ten) == ["pass", "110"]


def test_one_step_leaves_the_contract_raise_free() -> None:
    """RULES §4 bid_jumps=false: "the contract raise after the talon stays free"."""
    d = do(new_deal(*AUCTION3, r=rules(bid_jumps=False)), "100", "pass", "pass",
           "give QD", "give JD")
    assert legal(d)[:3] == ["contract 100", "contract 105", "contract 110"]
    assert legal(d)[-1] == "contract 220"


def test_bid_step_any_multiple_of_5() -> None:
    """RULES §4 bid_step: "any multiple of 5 up to 50: a bid is 100 plus a multiple of the
    step": with 15 the bids are 100, 115, 130 …"""
    d = new_deal(*AUCTION3, r=rules(bid_step=15))
    assert legal(d)[:3] == ["100", "115", "130"]
    do(d, "100")
    assert legal(d)[:4] == ["pass", "115", "130", "145"]  # seat 2: ♠K+Q, cap 160
    err = illegal(d, "120")
    assert err.code == "bid_step"
    with pytest.raises(ValueError, match="multiple of 5 from 5 to 50"):
        rules(bid_step=12)


def test_dark_belongs_to_the_left_of_the_dealer_where_the_dealer_opens() -> None:
    """RULES §4 dark: "the player left of the dealer (also where the dealer opens) may bid 120
    blind, if the bid is still below 120": the dealer bids first, seeing his cards; then the
    left of the dealer chooses before seeing his."""
    r = rules(first_bidder="dealer", dark=True)
    d = new_deal(*AUCTION3, r=r, opener=0, dark_allowed=True)
    assert d.phase == Phase.AUCTION and d.to_move == 0 and view_of(d, 0).hand is not None
    assert view_of(d, 1).hand is None
    do(d, "100")
    assert d.phase == Phase.DARK_CHOICE and d.to_move == 1 and legal(d) == ["dark", "look"]
    do(d, "dark")
    assert d.high_bid == 120 and d.dark_standing and d.to_move == 2


def test_dark_not_offered_once_the_bid_reached_120() -> None:
    """RULES §4 dark: only "if the bid is still below 120": after the dealer's 120 the left
    of the dealer simply looks at his cards and bids on."""
    r = rules(first_bidder="dealer", dark=True)
    d = do(new_deal(*AUCTION3, r=r, opener=0, dark_allowed=True), "120")
    assert d.phase == Phase.AUCTION and d.to_move == 1
    assert view_of(d, 1).hand == cards(AUCTION3[0][1])
    assert "dark" not in legal(d)


def test_dark_on_100_opening_is_dark_or_100() -> None:
    """RULES §7: "opening_bid=exactly_100 with dark: the opener either bids dark (where he
    may) or 100"; bid_jumps=false allows the dark 120 "as it is"."""
    r = rules(opening_bid="exactly_100", bid_jumps=False, dark=True)
    d = new_deal(*AUCTION3, r=r, dark_allowed=True)
    assert legal(d) == ["dark", "look"]
    do(d, "look")
    assert legal(d) == ["100"]
    d2 = do(new_deal(*AUCTION3, r=r, dark_allowed=True), "dark")
    assert d2.high_bid == 120


def test_dark_doubles_all() -> None:
    """RULES §4 dark_doubles=all, §7 Dark doubling: every player's deal value (after
    rounding) is doubled; with `declarer` only the declarer's."""
    values = {}
    for doubles in ("declarer", "all"):
        r = rules("house", dark_doubles=doubles, opening_bid="at_least_100")
        d = new_deal(*ONE_LOSS, r=r, dark_allowed=True)
        do(d, "dark", "pass", "pass", "give KS", "give QS", "contract 120", *SCRIPT)
        values[doubles] = result(d).values
    assert values["declarer"] == (0, 240, 10)
    assert values["all"] == (0, 240, 20)


# ----------------------------------------------------------------------- talon buy-out

BUY = rules(talon_buy=True, concede=True)


def test_buy_offered_clockwise_at_120() -> None:
    """RULES §4 "Talon buy-out": when the talon has been shown to everyone, before the
    declarer gives a card, each other player in turn clockwise from the declarer may buy it
    (`buy`) or not (`pass`); the price is the smallest of 120, 240, … above the contract."""
    d = do(new_deal(*AUCTION3, r=BUY), "100", "pass", "pass")
    assert d.phase == Phase.BUY and d.to_move == 2 and legal(d) == ["buy", "pass"]
    assert view_of(d, 2).buy_price == 120 and view_of(d, 2).talon == cards("QD JD 9D")
    do(d, "pass", "pass")
    assert d.phase == Phase.EXCHANGE and d.to_move == 1 and d.declarer == 1


def test_buy_moves_the_talon_and_the_declarer() -> None:
    """RULES §4 "Talon buy-out": the buyer takes the talon into his own hand and is the
    declarer at the price; the former declarer becomes a defender."""
    d = do(new_deal(*AUCTION3, r=BUY), "100", "pass", "pass", "buy")
    assert d.declarer == 2 and d.bid == 120 and d.contract == 120
    assert hand_of(d, 1) == "AS AC AD AH TH KH QH"  # back to his seven cards
    assert d.hands[2] & cards("QD JD 9D") == cards("QD JD 9D")
    assert d.buys == [(2, 120)]
    # the others, the former declarer too, are asked again from the new declarer
    assert d.phase == Phase.BUY and d.to_move == 0


def test_rebuy_by_the_former_declarer() -> None:
    """RULES §4 "Talon buy-out": after a buy the others, the former declarer too, are asked
    again at the next price (240); when all have passed the declarer gives cards and names
    his contract, at least the price (no marriage needed)."""
    d = do(new_deal(*AUCTION3, r=BUY), "100", "pass", "pass", "buy", "pass", "buy")
    assert d.declarer == 1 and d.contract == 240 and d.buys == [(2, 120), (1, 240)]
    assert d.to_move == 2 and view_of(d, 2).buy_price == 360
    do(d, "pass", "pass")
    assert d.phase == Phase.EXCHANGE and d.declarer == 1
    do(d, "give QD", "give JD")
    assert legal(d) == ["contract 240", "concede"]  # his cap is 220: he keeps the price


def test_buyer_concedes_and_the_former_declarer_is_paid() -> None:
    """RULES §4 "Talon buy-out": "the former declarer becomes a defender and loses nothing";
    a buyer may concede as usual; the conceded contract is the price."""
    d = do(new_deal(*AUCTION3, r=BUY), "100", "pass", "pass", "buy", "pass", "pass",
           "give 9D", "give JD", "concede")
    res = result(d)
    assert res.declarer == 2 and res.contract == 120 and res.values == (60, 60, -120)


def test_buy_refused_in_a_dark_deal() -> None:
    """RULES §4 "Talon buy-out": not in a dark deal; §7 "its talon cannot be bought"."""
    r = rules(talon_buy=True, dark=True)
    d = do(new_deal(*ONE_LOSS, r=r, dark_allowed=True), "dark", "pass", "pass")
    assert d.phase == Phase.EXCHANGE and "buy" not in legal(d)
    err = illegal(d, "buy")
    assert err.code == "buy_not_allowed"


def test_buy_not_when_the_talon_stays_hidden() -> None:
    """RULES §4 "Talon buy-out": not "when it stays hidden" (talon_shown=not_at_100)."""
    r = rules(talon_buy=True, talon_shown="not_at_100")
    d = do(new_deal(*AUCTION3, r=r), "100", "pass", "pass")
    assert d.phase == Phase.EXCHANGE
    d2 = do(new_deal(*AUCTION3, r=r), "105", "pass", "pass")
    assert d2.phase == Phase.BUY


def test_buy_undone_move_by_move() -> None:
    """RULES §4 talon_buy with undo: taking back a buy gives the talon back."""
    d = do(new_deal(*AUCTION3, r=BUY), "100", "pass", "pass")
    before = [view_of(d, s) for s in (None, 0, 1, 2)]
    do(d, "buy", "pass", "buy")
    for _ in range(3):
        d.undo()
    assert [view_of(d, s) for s in (None, 0, 1, 2)] == before


# ----------------------------------------------------------------------- concede


def conceded_at(r: Rules, bid: str = "100") -> Any:
    d = new_deal(*ONE_LOSS, r=r)
    do(d, bid, "pass", "pass", "give KS", "give QS", "concede")
    return result(d)


def test_write_off_by_aces() -> None:
    """RULES §4 "Write-off by aces is concede_declarer_loses=half with
    concede_opponents_get=aces": 11 for each ace the declarer holds when he concedes; he
    loses half the contract, rounded up to a whole number and then with `rounding`."""
    r = rules(concede=True, concede_declarer_loses="half", concede_opponents_get="aces")
    # seat 1 holds AH and AD when he concedes
    assert conceded_at(r, "105").values == (22, -55, 22)  # 52.5 → 53 → 55
    assert conceded_at(r, "100").values == (22, -50, 22)


# ----------------------------------------------------------------------- game rules


def new_game(preset: str = "classic", **overrides: Any) -> Game:
    return Game(Rules.preset_rules(preset, **overrides), first_dealer=0, seed=1,
                auto_deal=False)


def play_out(g: Game, declarer: int, script: list[str]) -> None:
    for m in script:
        g.apply(mv.parse_move(m))


def test_nobody_concedes_while_anyone_sits_on_the_barrel() -> None:
    """RULES §4 concede_on_barrel=false: "nobody may concede while any player sits on the
    barrel": the declarer, not himself on it, is refused."""
    g = new_game(concede=True, concede_on_barrel=False)
    g.seats[2].score, g.seats[2].on_barrel = 880, True
    d = g.start_deal(tuple(cards(h) for h in ONE_LOSS[0]), cards(ONE_LOSS[1]))
    play_out(g, 1, ["100", "pass", "pass", "give KS", "give QS"])
    assert mv.CONCEDE not in d.legal_moves()
    with pytest.raises(ValueError, match="may not concede"):
        g.apply(mv.CONCEDE)


def test_barrel_score_kept_at_950() -> None:
    """RULES §4 barrel_score=kept: "it stays as it is, and the rest of the barrel rule
    holds": 850 + 100 = 950 sits on the barrel at 950, not 900; as a defender nothing is
    recorded for him."""
    g = new_game(barrel=900, barrel_score="kept", barrel_deals=None)
    g.seats[1].score = 850
    d = g.start_deal(tuple(cards(h) for h in ONE_LOSS[0]), cards(ONE_LOSS[1]))
    play_out(g, 1, ["100", "pass", "pass", "give KS", "give QS", "contract 100", *SCRIPT])
    assert d.result is not None and d.result.made
    assert g.scores[1] == 950 and g.seats[1].on_barrel


def test_barrel_score_kept_fail_subtracts_from_his_own_score() -> None:
    """RULES §7 "With barrel_score=kept, wherever these rules say 'barrel − …' the sitter's
    own score stands in for the barrel": at 950, failing 120 leaves 830, one fall."""
    g = new_game(barrel=900, barrel_score="kept", barrel_deals=None)
    g.seats[1].score, g.seats[1].on_barrel = 950, True
    g.start_deal(tuple(cards(h) for h in ONE_LOSS[0]), cards(ONE_LOSS[1]))
    no_marriage = [m.rstrip("+") for m in SCRIPT]  # 109 card points
    play_out(g, 1, ["120", "pass", "pass", "give KS", "give QS", "contract 120", *no_marriage])
    assert g.scores[1] == 830 and not g.seats[1].on_barrel and g.seats[1].falls == 1


def test_sitter_concede_at_no_cost_stays_on_the_barrel() -> None:
    """RULES §7 "A sitter's concede that costs him nothing (concede_declarer_loses=false)
    leaves him on the barrel and is no fall"."""
    g = new_game(concede=True, concede_declarer_loses=False)
    g.seats[1].score, g.seats[1].on_barrel = 880, True
    g.start_deal(tuple(cards(h) for h in ONE_LOSS[0]), cards(ONE_LOSS[1]))
    play_out(g, 1, ["100", "pass", "pass", "give KS", "give QS", "concede"])
    assert g.scores[1] == 880 and g.seats[1].on_barrel and g.seats[1].falls == 0


def test_first_dealer_drawn_by_lot_and_repeated_by_the_seed() -> None:
    """Seed 002 (RULES §4 first_bidder=dealer's game): the first dealer is drawn by lot when a
    game starts without one given; the record keeps it; the same seed draws the same."""
    rules_ = Rules.preset_rules("dealer-opens")
    drawn = {Game(rules_, seed=s).first_dealer for s in range(40)}
    assert drawn == {0, 1, 2}
    g = Game(rules_, seed=7)
    assert Game(rules_, seed=7).first_dealer == g.first_dealer
    assert g.deal is not None and g.deal.ctx.dealer == g.first_dealer
    assert game_to_record(g)["first_dealer"] == g.first_dealer


# ----------------------------------------------------------------------- the cut


def cut_game(seed: int) -> Game:
    return Game(Rules.preset_rules("dealer-opens"), first_dealer=0, seed=seed)


def test_cut_dealer_view_holds_the_talon_card() -> None:
    """RULES §4 "The cut": the bottom card after the cut is a talon card: the dealer knows
    the last card he saw (unless a jack ended the cut); the others do not, but everyone
    knows the nines and the jack shown."""
    checked = 0
    for seed in range(60):
        g = cut_game(seed)
        deal = g.deal
        assert deal is not None
        cut = deal.ctx.cut
        last = cut[-1]
        if last % 6 in (NINE, 1):
            continue
        dealer, other = view_of(deal, 0), view_of(deal, 1)
        assert dealer.talon_known == 1 << last and deal.talon >> last & 1
        assert dealer.cut == cut and dealer.talon is None
        assert other.talon_known == 0 and other.cut[-1] is None
        assert other.cut[:-1] == cut[:-1]  # the nines, shown to all
        assert not other.visible_cards() >> last & 1
        assert view_of(deal, None).cut[-1] is None
        checked += 1
    assert checked >= 20


def test_cut_three_nines_known_to_all() -> None:
    """RULES §4 "The cut": "when the bottom card has been a nine three times … the deal goes
    on as the deck lies": the third nine, shown to all, is a talon card all know."""
    seed = 0
    while True:
        g = Game(Rules.preset_rules("dealer-opens"), first_dealer=0, seed=seed, auto_deal=False)
        hands, talon, *_ = g.random_cards()
        if talon & RANK_MASK[NINE]:
            break
        seed += 1
    nine = next(c for c in range(0, 24, 6) if talon >> c & 1)
    cut = (nine, nine, nine)  # the same nine may come up again: a real cut can
    deal = g.start_deal(hands, talon, cut)
    for seat in (None, 0, 1, 2):
        v = view_of(deal, seat)
        assert v.cut == cut and v.talon_known == 1 << nine


@pytest.mark.parametrize(
    ("cut", "why"),
    [
        (["9S"], "ends with a nine"),
        (["KC", "9S"], "after the first card that is not a nine"),
        (["JC", "AH"], "after the first card that is not a nine"),
        (["9S", "9C", "9D", "AH"], "after three nines"),
        ([], "missing"),
    ],
)
def test_cut_list_checked(cut: list[str], why: str) -> None:
    """RULES §6: the cut lists "up to three nines, then, unless there were three, one other
    card; after a jack nothing more"; any other list is rejected."""
    g = Game(Rules.preset_rules("dealer-opens"), first_dealer=0, seed=0, auto_deal=False)
    hands, talon, *_ = g.random_cards()
    with pytest.raises(ValueError, match=why):
        g.start_deal(hands, talon, tuple(parse_card(c) for c in cut))


def test_cut_last_card_must_be_in_the_talon() -> None:
    """RULES §6: "The last card listed must be in the talon unless it is a jack"."""
    g = Game(Rules.preset_rules("dealer-opens"), first_dealer=0, seed=0, auto_deal=False)
    hands, talon, *_ = g.random_cards()
    outside = next(c for c in range(24) if not talon >> c & 1 and c % 6 not in (NINE, 1))
    with pytest.raises(ValueError, match=f"{card_str(outside)}.*must be in the talon"):
        g.start_deal(hands, talon, (outside,))
    jack = next(c for c in range(1, 24, 6) if not talon >> c & 1)
    g.start_deal(hands, talon, (jack,))  # a jack ends the cut wherever it lies


def test_cut_replays_from_the_record() -> None:
    """RULES §6: a record with its cut lists replays to the same game."""
    g = cut_game(3)
    while not g.over and len(g.summaries) < 3:
        g.apply(g.legal_moves()[0])
    rec = game_to_record(g)
    again = replay(load_record(rec))
    assert again.game.scores == g.scores
