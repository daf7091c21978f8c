"""The bots value a deal as the engine scores it (RULES §7 "Deal values", "Barrel").

The search bot's stakes (:func:`thousand.bots.search.stakes`) are checked against what the
engine's :class:`~thousand.engine.game.Game` records for the declarer of a finished deal:
the score change less the penalties and barrel events the sheet marks (which are no part
of the deal's value), on random deals of every preset and of option mixes, from random
scores on and off the barrel."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thousand.bots.heuristic import HeuristicBot
from thousand.bots.search import stakes
from thousand.engine import moves as mv
from thousand.engine.game import DealSummary, Game
from thousand.engine.rules import PRESETS, Rules
from thousand.engine.view import View

#: The bonus the bots add for winning the game: any value shows whether it was added.
WIN = 5000.0

#: Option mixes that change how a deal is worth (RULES §4 declarer_scores, dark, golden)
MIXES: list[dict[str, Any]] = [
    {},
    {"declarer_scores": "taken"},
    {"declarer_scores": "taken", "dark": True, "dark_marriages_doubled": False},
    {"declarer_scores": "taken", "dark": True, "dark_doubles": "all", "golden_deals": True},
    {"dark": True, "dark_marriages_doubled": False, "round_declarer_before_compare": True},
    {"golden_deals": True, "barrel_score": "kept", "rounding": 10},
]

#: Scores to start from: some on the barrel (the preset's, or 880) and near the win.
SCORES = st.lists(st.sampled_from([0, 300, 700, 860, 880, 900, 950, 990]), min_size=4,
                  max_size=4)


def play_deal(
    rules: Rules, seed: int, scores: list[int], dark: bool
) -> tuple[View, DealSummary, Game] | None:
    """One deal played by heuristic bots from ``scores`` (a seat at or above the barrel
    sits on it; ``dark``: a blind bid whenever it is offered): the declarer's view before
    the last move, the deal's score sheet row and the game after it.  None when the deal
    was not played out (redealt or conceded)."""
    game = Game(rules, seed=seed, auto_deal=False)
    for seat, st_ in enumerate(game.seats):
        st_.score = scores[seat]
        st_.on_barrel = rules.barrel is not None and rules.barrel <= scores[seat]
    game.start_deal()
    bots = [HeuristicBot(seed + s) for s in range(game.n)]
    rng = random.Random(seed)
    last: View | None = None
    while not game.summaries:
        deal = game.deal
        assert deal is not None
        legal = game.legal_moves()
        keep = [m for m in legal if m not in (mv.REDEAL, mv.CONCEDE)] or legal
        if dark and mv.DARK in legal:
            move = mv.DARK
        elif len(keep) < len(legal) or rng.random() < 0.1:
            move = rng.choice(keep)
        else:
            move = bots[deal.to_move].choose(deal.view(deal.to_move))
        if deal.declarer >= 0:
            last = game.view(deal.declarer)
        game.apply(move)
    summary = game.summaries[-1]
    if summary.result.outcome != "played" or last is None:
        return None
    return last, summary, game


def check_stakes(view: View, summary: DealSummary, game: Game) -> bool:
    """The bots' value of the deal is the engine's change of the declarer's score, and the
    win bonus is added exactly when that change wins the game.  True when checked (not
    when a game restart left nothing to compare)."""
    res = summary.result
    d = res.declarer
    assert d is not None and res.contract is not None
    if any(e.kind == "golden_restart" for e in summary.events):
        return False
    marked = sum(e.amount for e in summary.events if e.seat == d)
    engine = summary.changes[d] - marked
    bonus = view.bonus[d]  # the last move is no lead: nothing more was declared
    for win in (0.0, WIN):
        s = stakes(view, d, win)
        bot = s.made(res.contract, res.points[d], bonus) if res.made else s.failed(res.contract)
        if win == 0.0:
            assert bot == engine, (res, summary.events, view.game)
        elif not any(e.seat == d for e in summary.events):
            assert (bot - engine == WIN) == game.rules.wins(game.scores[d])
    return True


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)), mix=st.sampled_from(MIXES),
    seed=st.integers(0, 2**31), scores=SCORES, dark=st.booleans(),
)
def test_bots_value_a_deal_as_the_game_scores_it(
    preset: str, mix: dict[str, Any], seed: int, scores: list[int], dark: bool
) -> None:
    """RULES §7: on random finished deals of every preset and option mix."""
    rules = Rules.preset_rules(preset, **mix)
    found = play_deal(rules, seed, scores, dark)
    if found is not None:
        check_stakes(*found)


def _cases(mix: dict[str, Any], scores: list[int], dark: bool, want: str) -> int:
    """Check many deals under ``mix`` from ``scores``; count those of the kind ``want``
    (so that a test shows it met the case it names)."""
    rules = Rules.preset_rules("classic", **mix)
    met = 0
    for seed in range(400):
        found = play_deal(rules, seed, scores, dark)
        if found is None:
            continue
        view, summary, game = found
        res = summary.result
        d = res.declarer
        assert d is not None and res.contract is not None
        checked = check_stakes(view, summary, game)
        if not (checked and res.made):
            continue
        if want == "barrel" and view.game is not None and view.game.on_barrel[d]:
            need = rules.score_to_win - view.game.scores[d]
            met += res.contract < need <= res.values[d]
        if want == "dark" and res.dark and view.bonus[d]:
            met += 1
        if met >= 3:
            break
    return met


def test_a_barrel_sitter_who_takes_the_win_under_declarer_scores_taken() -> None:
    """RULES §7 Barrel with declarer_scores=taken: a sitter's made contract wins when the
    points he scores (not his contract) reach the win."""
    scores = [880, 880, 880, 880]
    assert _cases({"declarer_scores": "taken"}, scores, False, "barrel") > 0


@pytest.mark.parametrize("doubled", [False, True])
def test_a_dark_deal_with_or_without_doubled_marriages(doubled: bool) -> None:
    """RULES §7 dark_marriages_doubled: a dark declarer's declarations count once when the
    option is off."""
    mix = {"declarer_scores": "taken", "dark": True, "dark_marriages_doubled": doubled,
           "dark_outbid_needs_marriage": False}
    assert _cases(mix, [0, 0, 0, 0], True, "dark") > 0
