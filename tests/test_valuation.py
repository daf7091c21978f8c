"""The view-based valuation of a decision (thousand.bots.valuation; issue 18): every legal
move valued on the same sampled deals as the search bot's choice."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from thousand import moves as mv
from thousand.bots.search import SearchBot, SearchConfig
from thousand.bots.valuation import Valuation, valuate
from thousand.cards import mask_of, parse_cards
from thousand.deal import Phase
from thousand.game import Game
from thousand.rules import Rules
from thousand.view import View

N = 6  # sampled deals: small, the tests stay fast


def _cards(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def _game(*moves: str) -> Game:
    """Seat 1 declares 120 with the spade, club top cards; seat 2 holds T♠ 9♠ only in
    spades, seat 0 J♠ (seat 0 deals)."""
    hands = ("JS TC JC 9C TH KH QH", "AS KS QS AC KC QC AD", "TS 9S TD KD QD JD 9D")
    g = Game(Rules.preset_rules("classic"), first_dealer=0, seed=1, auto_deal=False)
    g.start_deal(tuple(_cards(h) for h in hands), _cards("AH JH 9H"))
    for m in ("100", "pass", "pass", "give 9H", "give JH", "contract 120", *moves):
        g.apply(mv.parse_move(m))
    return g


def _ten_under_ace() -> View:
    g = _game("AS")
    view = g.view(g.to_move)
    assert view.phase == Phase.PLAY and view.seat == 2
    return view


def test_a_ten_thrown_under_the_ace_costs_points() -> None:
    """Following the declarer's A♠ with T♠ hands him 10 card points that 9♠ keeps
    (card values, RULES §3): the valuation ranks T♠ below 9♠, with a significant cost."""
    val = valuate(_ten_under_ace(), samples=N, seed=3)
    ten, nine = mv.parse_move("TS"), mv.parse_move("9S")
    assert set(val.moves) == {ten, nine}
    assert val.mean(nine) > val.mean(ten)
    est, low, high = val.cost(ten)
    assert est > 0 and low > 0 and high >= est
    assert val.cost(val.best())[0] == 0.0


def test_a_forced_move_costs_nothing() -> None:
    """A lone legal move (here seat 0's J♠, its only spade, must follow suit) is not
    sampled: one move, zero cost."""
    g = _game("AS", "9S")
    view = g.view(g.to_move)
    assert len(view.legal) == 1
    val = valuate(view, samples=N)
    assert val.moves == tuple(view.legal)
    assert val.cost(view.legal[0]) == (0.0, 0.0, 0.0)


def test_paired_samples_and_weights() -> None:
    val = valuate(_ten_under_ace(), samples=N, seed=5)
    assert len(val.weights) == N
    assert all(len(val.samples[m]) == N for m in val.moves)


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_best_is_the_bots_choice(level: str) -> None:
    """The analysis's best move is the move the bot plays at the same samples and seed
    (one code path), in a position with several candidates."""
    g = _game()  # the declarer's first lead: 10 cards to choose from
    view = g.view(g.to_move)
    assert len(view.legal) > 5
    for seed in (1, 2):
        val = valuate(view, samples=N, seed=seed, level=level)
        base = SearchConfig(play_inference=10.0, inference_moves=6) if level == "expert" \
            else SearchConfig()
        cfg = replace(base, time_limit=None, min_samples=N, max_samples=N)
        assert SearchBot(seed, cfg, level).choose(view) == val.best()


def test_reproducible_for_a_seed() -> None:
    view = _ten_under_ace()
    assert valuate(view, samples=N, seed=7) == valuate(view, samples=N, seed=7)


def test_constant_difference_has_zero_width() -> None:
    """Equal differences in every deal: the interval closes on the estimate."""
    a, b = 1, 2
    val = Valuation((a, b), {a: (5.0, 7.0, 9.0), b: (1.0, 3.0, 5.0)}, (1.0, 1.0, 1.0))
    assert val.best() == a
    assert val.cost(b) == (4.0, 4.0, 4.0)


@pytest.mark.parametrize(("preset", "seed"), [("classic", 11), ("house", 3)])
def test_every_decision_of_a_random_deal(preset: str, seed: int) -> None:
    """Every decision of a deal between heuristic bots is valued (the phases not valued
    yet say so): the moves are the legal ones, the best is among them, and the samples
    are paired."""
    from thousand.bots import make_bot

    g = Game(Rules.preset_rules(preset), seed=seed)
    bots = [make_bot("heuristic", s) for s in range(3)]
    rng = random.Random(0)
    phases = set()
    while g.deal is not None and g.deals_played == 0:
        view = g.view(g.to_move)
        try:
            val = valuate(view, samples=2, seed=rng.randrange(100))
        except NotImplementedError:
            assert view.phase in (Phase.EXCHANGE, Phase.REDEAL_OFFER)
        else:
            assert set(val.moves) == set(view.legal) and val.best() in view.legal
            assert {len(val.samples[m]) for m in val.moves} == {len(val.weights)}
            phases.add(view.phase)
        g.apply(bots[g.to_move].choose(view))
    assert Phase.PLAY in phases and len(phases) >= 2


def _bot_choice(view: View, seed: int) -> int:
    cfg = replace(SearchConfig(), time_limit=None, min_samples=N, max_samples=N)
    return SearchBot(seed, cfg).choose(view)


def test_auction_values_every_bid_and_agrees_with_the_bot() -> None:
    """The opener's compulsory first bid (RULES §4: the one after the dealer opens at 100)
    and the next bidder's choice: every legal bid and pass valued, best = the bot's bid."""
    g = _fresh(5)
    view = g.view(g.to_move)
    assert view.phase == Phase.AUCTION
    for _ in range(2):
        val = valuate(view, samples=N, seed=2)
        assert set(val.moves) == set(view.legal)
        assert val.best() == _bot_choice(view, 2)
        if mv.PASS in view.legal:
            # passing is the bot's fixed value: the same in every sampled deal
            assert len(set(val.samples[mv.PASS])) == 1
        g.apply(val.best())
        view = g.view(g.to_move)


def test_a_jump_bid_is_never_worth_more_than_the_lowest() -> None:
    """The lowest bid keeps every higher contract open, so a jump is worth no more."""
    view = _fresh(9).view(1)
    val = valuate(view, samples=N, seed=1)
    low = min((m for m in view.legal if mv.is_bid(m)), key=mv.value_of)
    for m in view.legal:
        if mv.is_bid(m):
            assert val.mean(m) <= val.mean(low) + 1e-9


def _fresh(seed: int, **overrides: object) -> Game:
    return Game(Rules.preset_rules("classic", **overrides), first_dealer=0, seed=seed)


def test_dark_choice_is_valued_and_agrees_with_the_bot() -> None:
    """RULES §4 dark (house preset): the blind 120 is valued per sampled hand, looking is
    the fixed value of passing; the best is the bot's choice."""
    g = Game(Rules.preset_rules("house", golden_deals=False), seed=4, first_dealer=0)
    view = g.view(g.to_move)
    assert view.phase == Phase.DARK_CHOICE
    val = valuate(view, samples=N, seed=3)
    assert set(val.moves) == set(view.legal) == {mv.DARK, mv.LOOK}
    assert len(set(val.samples[mv.LOOK])) == 1
    assert val.best() == _bot_choice(view, 3)


def test_contract_values_every_contract_and_agrees_with_the_bot() -> None:
    """RULES §4 contract: after the exchange the declarer names 120 or more; every legal
    contract is valued and the best is the bot's contract."""
    hands = ("JS TC JC 9C TH KH QH", "AS KS QS AC KC QC AD", "TS 9S TD KD QD JD 9D")
    g = Game(Rules.preset_rules("classic"), first_dealer=0, seed=1, auto_deal=False)
    g.start_deal(tuple(_cards(h) for h in hands), _cards("AH JH 9H"))
    for m in ("100", "pass", "pass", "give 9H", "give JH"):
        g.apply(mv.parse_move(m))
    view = g.view(g.to_move)
    assert view.phase == Phase.CONTRACT
    val = valuate(view, samples=N, seed=1)
    assert set(val.moves) == set(view.legal)
    assert val.best() == _bot_choice(view, 1)


def test_buy_is_valued_and_agrees_with_the_bot() -> None:
    """RULES §4 talon buy-out: K♥ Q♥ A♠ complete seat 2's ♥ marriage; buying is valued
    per sampled deal, passing by the bot's fixed value; best = the bot's choice."""
    hands = ("QD 9H JH AC TC KC QC", "9S JS QS KS TS 9D JD", "AH TH AD TD KD 9C JC")
    g = Game(Rules.preset_rules("classic", talon_buy=True), first_dealer=0, seed=0,
             auto_deal=False)
    g.start_deal(tuple(_cards(h) for h in hands), _cards("KH QH AS"))
    for m in ("100", "pass", "pass"):
        g.apply(mv.parse_move(m))
    view = g.view(2)
    assert view.phase == Phase.BUY
    val = valuate(view, samples=N, seed=1)
    assert set(val.moves) == set(view.legal) == {mv.BUY, mv.PASS}
    assert len(set(val.samples[mv.PASS])) == 1
    assert val.best() == _bot_choice(view, 1) == mv.BUY
