"""Exercises (issue 18, part 5): marked decisions become positions to solve again.

The analysis core (thousand.analysis.analyse_record) is not merged on this branch yet,
so the analysis here is built in the spec's JSON shape from the solver's open-card
values of the real position (thousand.solver.solve_moves, all hands known): the values
come from the solver, the random player's move is the one being judged.
"""

from __future__ import annotations

import json
import random
from typing import Any

from thousand.analysis.exercises import Exercise, check, exercises_from, position_view
from thousand.bots.sampling import World
from thousand.bots.search import position
from thousand.deal import Phase
from thousand.game import Game
from thousand.moves import move_str
from thousand.record import game_to_record
from thousand.rules import Rules
from thousand.solver import solve_moves

THRESHOLDS = {"inaccuracy": 10, "mistake": 25, "blunder": 60}


def _mark(cost: float) -> str | None:
    """The spec's marks by cost (section 2)."""
    for name in ("blunder", "mistake", "inaccuracy"):
        if cost >= THRESHOLDS[name]:
            return name
    return None


def _costly_game() -> tuple[dict[str, Any], dict[str, Any]]:
    """A one-deal random game and an open-card analysis of its play decisions, with at
    least one random move that loses an inaccuracy's worth or more."""
    for seed in range(40):
        game = Game(Rules.preset_rules("classic", max_deals=1), first_dealer=0, seed=seed)
        rng = random.Random(seed)
        decisions: list[dict[str, Any]] = []
        index = 0
        while game.deal is not None and not game.over:
            view = game.view(game.to_move)
            move = rng.choice(game.legal_moves())
            if view.phase == Phase.PLAY and len(view.legal) > 1:
                deal = game.deal
                vals = solve_moves(position(view, World(tuple(deal.hands), 0, deal.discards)))
                as_declarer = view.to_move == view.declarer
                sign = 1 if as_declarer else -1
                best = max(vals, key=lambda m: sign * vals[m])
                played = next(m for m in vals if move_str(m) == move_str(move).rstrip("+"))
                lost = sign * (vals[best] - vals[played])
                moves = [{"move": move_str(m), "value": v} for m, v in vals.items()]
                decisions.append({
                    "index": index, "seat": view.to_move, "phase": "play",
                    "played": move_str(played), "forced": False, "trick": len(view.tricks) + 1,
                    "view": None, "open": {"best": move_str(best), "lost": lost, "moves": moves},
                    "mark": _mark(lost), "basis": "open", "reason": None,
                })
                declarer = view.declarer
            game.apply(move)
            index += 1
        if any(d["mark"] for d in decisions) and all("+" not in d["played"] for d in decisions):
            analysis = {
                "format": 1, "kind": "thousand-analysis",
                "settings": {"thresholds": THRESHOLDS},
                "deals": [{"number": 1, "declarer": declarer, "decisions": decisions}],
            }
            return game_to_record(game), analysis
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
