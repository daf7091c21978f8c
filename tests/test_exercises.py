"""Exercises (issue 18, part 5): marked decisions become positions to solve again.

The analysis is the real one (thousand.analysis.analyse_record, open cards) of games of
random moves, which make costly decisions.
"""

from __future__ import annotations

import json
import random
from typing import Any

from thousand.analysis import analyse_record
from thousand.analysis.exercises import Exercise, check, exercises_from, position_view
from thousand.engine.game import Game
from thousand.engine.moves import move_str
from thousand.engine.record import game_to_record
from thousand.engine.rules import Rules


def _costly_game() -> tuple[dict[str, Any], dict[str, Any]]:
    """A one-deal game of random moves and its open-card analysis, with at least one
    card that lost an inaccuracy's worth or more."""
    for seed in range(40):
        game = Game(Rules.preset_rules("classic", max_deals=1), first_dealer=0, seed=seed)
        rng = random.Random(seed)
        while game.deal is not None and not game.over:
            game.apply(rng.choice(game.legal_moves()))
        record = game_to_record(game)
        analysis = analyse_record(record, view_based=False)
        if any(e["mark"] and e["phase"] == "play" for d in analysis["deals"]
               for e in d["decisions"]):
            return record, analysis
    raise AssertionError("no costly random move in 40 games")


def test_a_costly_move_is_an_exercise_and_check_accepts_the_best_and_refuses_it() -> None:
    record, analysis = _costly_game()
    exercises = exercises_from(analysis, record)
    marked = [d for d in analysis["deals"][0]["decisions"] if d["mark"]]
    assert len(exercises) == len(marked)
    worst = max(marked, key=lambda d: d["open"]["lost"])
    ex = exercises[0]
    assert (ex.index, ex.played) == (worst["index"], worst["played"])
    assert ex.cost == worst["open"]["lost"]
    assert check(ex, worst["open"]["best"])
    assert not check(ex, ex.played)
    view = position_view(ex)
    assert view.seat == ex.seat == view.to_move
    assert ex.played in {move_str(m) for m in view.legal}


def test_an_exercise_goes_through_json_unchanged() -> None:
    record, analysis = _costly_game()
    ex = exercises_from(analysis, record, limit=1)[0]
    again = Exercise.from_json(json.loads(json.dumps(ex.to_json())))
    assert again == ex
    assert position_view(again).hand == position_view(ex).hand


def test_only_the_chosen_seat_and_never_a_forced_move() -> None:
    record, analysis = _costly_game()
    seat = exercises_from(analysis, record)[0].seat
    assert all(e.seat == seat for e in exercises_from(analysis, record, seat=seat))
    for d in analysis["deals"][0]["decisions"]:
        d["forced"] = True
    assert exercises_from(analysis, record) == []


def test_the_terminal_drill_solves_one_and_fails_one() -> None:
    import io

    from rich.console import Console

    from thousand.cli.exercises_cmd import drill

    record, analysis = _costly_game()
    ex = exercises_from(analysis, record, limit=1)[0]
    answers = iter([ex.good[0], ex.played])
    out = io.StringIO()
    solved = drill([ex, ex], "ru", lambda _prompt: next(answers),
                   Console(file=out, width=120, color_system=None))
    assert solved == 1
    shown = out.getvalue()
    assert "Верно" in shown and "Неверно" in shown and "Решено 1 из 2" in shown
