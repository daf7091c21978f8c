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


# --------------------------------------------------------------------------- issue 28


def _play_exercise() -> tuple[dict[str, Any], Exercise]:
    """A marked card play of a costly random game, the card's player called «Вы»."""
    record, analysis = _costly_game()
    ex = next(e for e in exercises_from(analysis, record)
              if position_view(e).phase.name == "PLAY" and position_view(e).tricks)
    players = list(record["players"])
    players[ex.seat] = "Вы"
    record = {**record, "players": players}
    return record, Exercise.from_json({**ex.to_json(), "record": record})


def test_a_position_shows_what_the_line_mode_would_have_told() -> None:
    """Issue 28, 12: the contract and trump, the cards already played, the trick on the
    table and the numbered legal moves, all in the player's language."""
    import io

    from rich.console import Console

    from thousand.cli.exercises_cmd import show_position
    from thousand.engine.cards import card_label

    _, ex = _play_exercise()
    view = position_view(ex)
    out = io.StringIO()
    show_position(ex, 1, 1, "ru", Console(file=out, width=200, color_system=None))
    shown = out.getvalue()
    assert "Козырь:" in shown and "Заказ" in shown and "Вышли:" in shown
    assert "Можно: 1) " in shown and "ваш ход" in shown
    first = view.tricks[0].cards[0][1]
    assert card_label(first, "ru") in shown.split("Вышли:")[1].splitlines()[0]


def test_an_answer_that_is_no_move_is_asked_again_in_words() -> None:
    """Issue 28, 12: "help", "xyz" and an illegal move do not use the exercise up; the
    verdict names the moves in Russian words, not the record's notation."""
    import io

    from rich.console import Console

    from thousand.cli.exercises_cmd import drill
    from thousand.words.catalogue import move_words

    _, ex = _play_exercise()
    legal = [move_str(m) for m in position_view(ex).legal]
    illegal = next(c for c in ("AS", "AC", "AD", "AH", "KS", "KH") if c not in legal)
    answers = iter(["help", "xyz", illegal, ex.played])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    solved = drill([ex], "ru", ask, Console(file=out, width=200, color_system=None))
    shown = out.getvalue()
    assert solved == 0 and len(prompts) == 4 and set(prompts) == {"Ваш ход: "}
    assert "Не понял «xyz»" in shown and "Так сейчас нельзя" in shown
    assert shown.count("Неверно") == 1 and "Решено 0 из 1" in shown
    assert f"сыграно: {move_words(ex.played, 'ru')}" in shown
    assert ex.played not in shown.split("Неверно")[1]  # a card in the record's notation


def test_a_bots_decision_is_not_called_yours() -> None:
    """Issue 28, 12: without --seat on a record with nobody called «Вы», the prompt names
    whose move it is."""
    import io

    from rich.console import Console

    from thousand.cli.exercises_cmd import drill

    record, analysis = _costly_game()
    ex = exercises_from(analysis, record, limit=1)[0]
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return ex.played

    drill([ex], "ru", ask, Console(file=io.StringIO(), width=200))
    assert prompts and "Ваш ход" not in prompts[0] and prompts[0].startswith("Ход за ")


def test_every_move_the_analysis_marks_is_an_exercise() -> None:
    """Issue 28, 12: a defender's card is valued in the declarer's total (lower is better
    for him), so its good answers are the low ones: read as his own utility the worst
    cards were the answers and the marked move gave no exercise (``--seat 0`` found none
    where ``analyse`` marked one)."""
    from thousand.analysis.exercises import good_moves

    decision = {"seat": 0, "played": "TS", "mark": "inaccuracy", "basis": "view",
                "view": {"best": "QS", "cost": 13.0, "unit": "declarer_total", "moves": [
                    {"move": "QS", "value": 111.0}, {"move": "TS", "value": 124.0}]},
                "open": None}
    assert good_moves(decision, 10.0, declarer=1) == ("QS",)


def test_the_seat_of_a_save_is_the_one_drilled(tmp_path: Any) -> None:
    """Issue 28, 12: without --seat, a save's person is the player of the exercises."""
    from thousand.cli.exercises_cmd import reader_seat
    from thousand.engine.table import Table
    from thousand.terminal.autosave import save_text

    table = Table(Rules.preset_rules("classic"), ["Аня", "Боря", "Вика"], seed=2)
    path = tmp_path / "save.json"
    path.write_text(save_text(table, 2, {0: "random", 1: "random"}), encoding="utf-8")
    assert reader_seat(str(path), "ru", ["Аня", "Боря", "Вика"]) == 2
    bare = tmp_path / "record.json"
    bare.write_text(json.dumps(table.to_record()), encoding="utf-8")
    assert reader_seat(str(bare), "ru", ["Аня", "Боря", "Вика"]) is None
    assert reader_seat(str(bare), "ru", ["Аня", "Вы", "Вика"]) == 1
