"""The view-based valuation of every candidate move (thousand.bots.valuation)."""

from __future__ import annotations

import pytest

from thousand.bots.search import SearchBot, SearchConfig
from thousand.bots.valuation import Valuation, valuate
from thousand.engine import moves as mv
from thousand.engine.cards import mask_of, parse_cards
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View
from two_player_deals import talon_choice


def _replay(hands: list[list[str]], talon: list[str], moves: list[str], dealer: int,
            rules: Rules | None = None) -> Game:
    g = Game(rules or Rules(), first_dealer=dealer, seed=0, auto_deal=False)
    g.start_deal([mask_of(parse_cards(h)) for h in hands], mask_of(parse_cards(talon)))
    for m in moves:
        g.apply(mv.parse_move(m))
    return g


#: seat 1 declares 100 and leads A♠; seat 2 holds T♠ and 9♠ and must follow spades
#: (RULES: follow suit): the ten under the ace gives the declarer 10 points, while the
#: 9 keeps the ten (the only higher spade is gone)
ACE_LED = _replay(
    [["QS", "JS", "TH", "KH", "QH", "JH", "9H"], ["AS", "KS", "AC", "TC", "KC", "AD", "TD"],
     ["TS", "9S", "AH", "KD", "QD", "JD", "9D"]],
    ["QC", "JC", "9C"],
    ["100", "pass", "pass", "give 9C", "give JC", "contract 100", "AS"],
    dealer=0,
)


def _view(g: Game) -> View:
    return g.view(g.to_move)


def test_a_ten_under_the_ace_costs_points() -> None:
    view = _view(ACE_LED)
    assert view.phase == Phase.PLAY and view.seat == 2
    ten, nine = mv.parse_move("TS"), mv.parse_move("9S")
    assert set(view.legal) == {ten, nine}
    val = valuate(view, samples=16, seed=0)
    assert val.best() == nine
    assert val.mean(ten) < val.mean(nine)
    est, low, high = val.cost(ten)
    assert low > 0 and low <= est <= high
    assert val.cost(nine) == (0.0, 0.0, 0.0)
    assert len(val.weights) == 16 and all(len(val.samples[m]) == 16 for m in val.moves)


def test_a_forced_move_costs_nothing() -> None:
    # after A♠ 9♠, seat 0's only spade is Q♠: following suit leaves one legal card
    g = _replay(
        [["QS", "TH", "KH", "QH", "JH", "9H", "9D"], ["AS", "KS", "AC", "TC", "KC", "AD", "TD"],
         ["TS", "9S", "AH", "KD", "QD", "JD", "JS"]],
        ["QC", "JC", "9C"],
        ["100", "pass", "pass", "give 9C", "give JC", "contract 100", "AS", "9S"],
        dealer=0,
    )
    view = _view(g)
    assert view.seat == 0 and tuple(view.legal) == (mv.parse_move("QS"),)
    val = valuate(view)
    assert val.moves == tuple(view.legal) and val.weights == ()
    assert val.cost(val.moves[0]) == (0.0, 0.0, 0.0)
    assert val.best() == val.moves[0]


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_the_best_move_is_the_bots_choice(level: str) -> None:
    """At equal samples and seed the bot plays the valuation's best card; ``expert``
    weighs the deals by the cards played (its weights are not all 1 once the others
    have played)."""
    from thousand.bots.valuation import search_bot

    n = 8
    g = Game(seed=5)
    checked = 0
    weighted = False
    bot = search_bot(level, n, 3)
    plain = SearchBot(3, SearchConfig(time_limit=None, min_samples=n, max_samples=n))
    while checked < 6 and not g.over:
        view = _view(g)
        move = bot.choose(view)
        if view.phase == Phase.PLAY and len(view.legal) > 1:
            val = valuate(view, samples=n, seed=3, level=level)
            assert val.best() == move
            if level == "strong":
                assert plain.choose(view) == move
            weighted = weighted or any(w != 1.0 for w in val.weights)
            checked += 1
        g.apply(move)
    assert checked == 6
    assert weighted == (level == "expert")


def test_reproducible_for_a_seed() -> None:
    view = _view(ACE_LED)
    a, b = valuate(view, 8, seed=4), valuate(view, 8, seed=4)
    assert a == b
    c = valuate(view, 8, seed=5)
    assert isinstance(c, Valuation) and c.moves == a.moves


def test_a_constant_difference_has_a_zero_width_interval() -> None:
    a, b = mv.parse_move("AS"), mv.parse_move("9S")
    val = Valuation((a, b), {a: (10.0, 20.0, 5.0), b: (7.0, 17.0, 2.0)}, (1.0, 1.0, 1.0))
    assert val.best() == a
    assert val.cost(b) == pytest.approx((3.0, 3.0, 3.0))


def _walk_decisions(rules: Rules, seed: int, deals: int) -> list[View]:
    """The views of the seat to move at every decision of ``deals`` deals of a heuristic
    game."""
    from thousand.bots.heuristic import HeuristicBot

    g = Game(rules, seed=seed)
    bot = HeuristicBot(seed)
    out: list[View] = []
    while not g.over and g.deals_played < deals and len(out) < 40 * deals:
        view = _view(g)
        out.append(view)
        g.apply(bot.choose(view))
    return out


#: the rules' options that bring the rarer phases (RULES: concede, a redeal after the
#: exchange, dark bids, the talon buy-out), and the phases each must reach
WALKS = [
    (Rules(concede=True, redeal_after_exchange=True), 11,
     {Phase.AUCTION, Phase.PLAY, Phase.CONTRACT, Phase.EXCHANGE}),
    (Rules(dark=True, talon_buy=True), 3, {Phase.DARK_CHOICE, Phase.BUY}),
]


@pytest.mark.parametrize(("rules", "seed", "must"), WALKS)
def test_every_phase_valued_as_the_bot_chooses(rules: Rules, seed: int,
                                                must: set[Phase]) -> None:
    """In every decision of two deals: every legal move valued, each with one utility
    per sampled deal, and the best move is the bot's at the same samples and seed."""
    from thousand.bots.valuation import search_bot

    n = 4
    bot = search_bot("strong", n, 7)
    phases: set[Phase] = set()
    for view in _walk_decisions(rules, seed, 2):
        val = valuate(view, n, 7)
        assert set(val.moves) == set(view.legal)
        assert all(len(val.samples[m]) == len(val.weights) for m in val.moves)
        assert val.best() == bot.choose(view), view.phase
        phases.add(view.phase)
    assert must <= phases


def test_exchange_values_every_card_and_keeps_the_marriage() -> None:
    """A declarer with a huge hand (the hearts marriage, three aces): giving away K♥
    breaks the marriage (RULES: a marriage scores only when both cards are held) and is
    valued below the best give, which is a low card."""
    hands = [
        ["AH", "KH", "QH", "TH", "AD", "TD", "AS"],
        ["9S", "JS", "QS", "KS", "9C", "JC", "QC"],
        ["KC", "TC", "AC", "KD", "QD", "JD", "9H"],
    ]
    g = _replay(hands, ["JH", "9D", "TS"], ["100", "pass", "pass"], dealer=2)
    view = _view(g)
    assert view.phase == Phase.EXCHANGE and view.seat == 0
    val = valuate(view, samples=8, seed=1)
    assert set(val.moves) == set(view.legal)
    best = val.best()
    assert mv.card_of(best) not in parse_cards(["KH", "QH", "AH", "AD", "AS"])
    king = mv.give(parse_cards(["KH"])[0])
    est, low, _ = val.cost(king)
    assert est > 0 and low > 0


def test_two_player_talon_choice_and_discards_valued_as_the_bot_chooses() -> None:
    """RULES §4 "Two players" 3, in the shared deal of two (tests/two_player_deals.py):
    the talon choice values both talons on the same sampled deals (talon 2, with the
    glimpsed ace, the better, as the bot at the same figures chooses); the first discard
    values every card and keeps the hearts marriage (RULES §2: it scores only with both
    cards held)."""
    from thousand.bots.valuation import search_bot

    g = talon_choice(Rules.preset_rules("two", cut_nines=True))
    view = _view(g)
    assert view.phase == Phase.TALON_CHOICE
    val = valuate(view, samples=6, seed=2)
    assert set(val.moves) == set(mv.TALONS) and len(val.weights) == 6
    assert val.best() == mv.TALON_2 == search_bot("strong", 6, 2).choose(view)
    g.apply(mv.TALON_2)
    view = _view(g)
    val = valuate(view, samples=3, seed=2)
    assert set(val.moves) == set(view.legal)
    assert mv.card_of(val.best()) not in parse_cards(["KH", "QH"])
    assert val.cost(mv.discard(parse_cards(["KH"])[0]))[0] > 0
