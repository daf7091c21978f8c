"""Soft evidence from the cards played (thousand.bots.inference), used by ``expert``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from thousand.bots.heuristic import HeuristicBot
from thousand.bots.inference import play_history, play_likelihood, start_position
from thousand.bots.sampling import World, knowledge
from thousand.bots.search import EXPERT, SearchBot, SearchConfig, position
from thousand.engine.deal import Phase
from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.engine.view import View
from thousand.solver import PlayOptions, Solver
from thousand.solver.position import apply_move

RULES = Rules.preset_rules("classic", max_deals=1)
NATURAL = Rules.preset_rules("classic", max_deals=1, ten_strength="natural", must_overtake=True)


def _truth(g: Game) -> World:
    deal = g.deal
    assert deal is not None
    return World(tuple(deal.hands), 0, deal.discards)


class Oracle:
    """Plays the best card with every hand open (it reads the game: a test device, not a
    bot), and bids like the heuristic bot."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.solver = Solver()
        self.inner = HeuristicBot(seed)

    def choose(self, view: View) -> int:
        if view.phase != Phase.PLAY or len(view.legal) == 1:
            return self.inner.choose(view)
        values = self.solver.solve_moves(
            position(view, _truth(self.game), PlayOptions.from_rules(view.rules)))
        best = max if view.seat == view.declarer else min
        target = best(values.values())
        return min(m for m, v in values.items() if v == target)


def _play_views(seed: int, bots: list[Any], game: Game) -> list[tuple[View, World]]:
    """Every play-phase view of seat 0 with more than one card to choose, with the truth."""
    out = []
    while not game.over:
        seat = game.to_move
        view = game.view(seat)
        if seat == 0 and view.phase == Phase.PLAY and len(view.legal) > 1:
            out.append((view, _truth(game)))
        game.apply(bots[seat].choose(view))
    return out


@pytest.mark.parametrize("rules", [RULES, NATURAL], ids=["classic", "natural"])
def test_the_history_replays_to_the_position_of_the_view(rules: Rules) -> None:
    """RULES §3 play (declarations change the trump and score), and RULES §1
    ten_strength=natural with must_overtake (who wins each trick): replaying the cards
    played, declaring leads marked, from the first lead in the true deal gives the view's
    position."""
    checked = 0
    for seed in range(6):
        g = Game(rules, seed=seed)
        bots: list[Any] = [HeuristicBot(seed * 3 + s) for s in range(3)]
        for view, truth in _play_views(seed, bots, g):
            opts = PlayOptions.from_rules(view.rules)
            history = play_history(view)
            assert len(history) == 3 * len(view.tricks) + len(view.trick)
            pos = start_position(view, truth, history, opts)
            for _, move in history:
                pos = apply_move(pos, move)
            now = position(view, truth, opts)
            assert (pos.hands, pos.leader, pos.trick, pos.trump, pos.declared_suits) == (
                now.hands, now.leader, now.trick, now.trump, now.declared_suits)
            assert pos.declarer_points == now.declarer_points
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("rules", [RULES, NATURAL], ids=["classic", "natural"])
def test_best_play_by_the_others_fits_the_true_deal_best(rules: Rules) -> None:
    """When the other seats play the best card with all hands open, the true deal scores 1
    and sampled deals score no more; some sampled deals are found less likely (also with
    RULES §1 ten_strength=natural and must_overtake)."""
    solver = Solver()
    below = 0
    for seed in range(4):
        g = Game(rules, seed=100 + seed)
        bots: list[Any] = [HeuristicBot(seed), Oracle(g, 1), Oracle(g, 2)]
        for view, truth in _play_views(seed, bots, g):
            opts = PlayOptions.from_rules(view.rules)
            history = play_history(view)
            assert play_likelihood(solver, view, truth, history, opts, 10.0, 6) == 1.0
            know = knowledge(view)
            rng = random.Random(seed)
            for _ in range(10):
                w = know.sample(rng)
                assert w is not None
                p = play_likelihood(solver, view, w, history, opts, 10.0, 6)
                assert 0.0 < p <= 1.0
                below += p < 1.0
    assert below > 0


def test_no_evidence_before_the_others_play() -> None:
    """The declarer's first lead: nothing played by anyone else yet, every deal weighs 1."""
    g = Game(RULES, seed=3)
    bots: list[Any] = [HeuristicBot(s) for s in range(3)]
    while g.view(g.to_move).phase != Phase.PLAY:
        g.apply(bots[g.to_move].choose(g.view(g.to_move)))
    view = g.view(g.to_move)
    assert not view.tricks and not view.trick
    assert play_likelihood(Solver(), view, _truth(g), play_history(view),
                           PlayOptions.from_rules(view.rules), 10.0, 6) == 1.0


def test_the_expert_weights_its_deals_and_plays_legal_cards() -> None:
    """``expert`` has inference on; a bot with it plays whole deals with legal moves only."""
    assert EXPERT.play_inference > 0
    config = SearchConfig(time_limit=None, min_samples=6, max_samples=6, exchange_cards=4,
                          bid_gives=1, play_inference=10.0, inference_moves=6)
    for seed in range(2):
        g = Game(RULES, seed=seed)
        bots: list[Any] = [SearchBot(seed, config), HeuristicBot(1), HeuristicBot(2)]
        while not g.over:
            view = g.view(g.to_move)
            move = bots[g.to_move].choose(view)
            assert move in view.legal
            g.apply(move)
