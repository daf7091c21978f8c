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


def test_every_play_decision_of_a_random_game() -> None:
    """Every card decision of a deal between heuristic bots is valued, the moves are the
    legal ones and the best one is among them."""
    from thousand.bots import make_bot

    g = Game(Rules.preset_rules("classic"), seed=11)
    bots = [make_bot("heuristic", s) for s in range(3)]
    rng = random.Random(0)
    seen = 0
    while g.deal is not None and g.deals_played == 0 and seen < 8:
        view = g.view(g.to_move)
        if view.phase == Phase.PLAY:
            val = valuate(view, samples=2, seed=rng.randrange(100))
            assert set(val.moves) == set(view.legal) and val.best() in view.legal
            seen += 1
        g.apply(bots[g.to_move].choose(view))
    assert seen
