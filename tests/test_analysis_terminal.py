"""The analysis of a finished game in the terminal (issue 18, docs/analysis.md): the
offer at the end of ``thousand play``'s line mode, and the full-screen analysis screen
(F7) that steps through the person's decisions.

The stepping is checked against an analysis of the contract's JSON shape made here from
a real finished game (its real moves and legal alternatives, marks put on chosen
decisions), so that what the screen must show is known independently of the analysis'
own numbers; the runs through the real analysis use its open-card mode (no sampling).
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from thousand.bots import make_bot
from thousand.cli import run as cli_run
from thousand.engine import moves as mv
from thousand.engine.cards import card_str
from thousand.engine.game import Game
from thousand.engine.record import load_record
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.terminal import analysis_view as av
from thousand.terminal.session import Seats, TerminalGame
from thousand.terminal.tui import ThousandApp
from thousand.terminal.tui.analysis_screen import AnalysisScreen
from thousand.terminal.tui.words import W

NAMES = ["Вы", "Боря", "Вова"]
SEAT = 0


def finished_table(seed: int = 3, preset: str = "classic") -> Table:
    """A one-deal game played to its end by bots at every seat (fast)."""
    rules = Rules.preset_rules(preset, max_deals=1)
    table = Table(rules, NAMES[: rules.players], seed=seed)
    bots = {s: make_bot("heuristic", seed=s) for s in range(rules.players)}
    while not table.over:
        seat = table.to_move
        assert seat is not None
        move = bots[seat].choose(table.view(seat))
        table.submit(seat, mv.move_str(move), table.version)
    return table


def seat_decisions(record: dict[str, Any], seat: int) -> Iterator[tuple[int, int, Any, Any]]:
    """(deal, index, move, the seat's legal moves) of every move of ``seat``, by an own
    replay of the record."""
    rec = load_record(record)
    game = Game(rec.rules, rec.players, rec.first_dealer, auto_deal=False)
    for number, dealt in enumerate(rec.deals, 1):
        game.start_deal(dealt.hands, dealt.talon, dealt.cut, dealt.talons)
        for index, move in enumerate(dealt.moves):
            assert game.deal is not None
            if game.deal.to_move == seat:
                yield number, index, move, tuple(game.deal.view(seat).legal)
            game.apply(move)


def hand_made_analysis(record: dict[str, Any], marked: set[int]) -> dict[str, Any]:
    """An analysis of format 1 for SEAT: the decisions numbered in ``marked`` (0-based
    among SEAT's unforced ones) are mistakes whose better move is another legal move."""
    deals: dict[int, list[dict[str, Any]]] = {}
    unforced = 0
    for number, index, move, legal in seat_decisions(record, SEAT):
        played = mv.move_str(move)
        forced = len(legal) == 1
        entry: dict[str, Any] = {
            "index": index, "seat": SEAT, "phase": "play", "played": played,
            "forced": forced, "trick": None, "view": None, "open": None, "mark": None,
            "basis": None, "reason": None}
        if not forced:
            other = mv.move_str(next(m for m in legal if m != move))
            if unforced in marked:
                entry.update(mark="mistake", basis="open", reason="причина " + other,
                             open={"best": other, "lost": 30, "moves": [
                                 {"move": other, "value": 100}, {"move": played, "value": 70}]})
            else:
                entry.update(open={"best": played, "lost": 0,
                                   "moves": [{"move": played, "value": 100}]})
            unforced += 1
        deals.setdefault(number, []).append(entry)
    return {
        "format": 1, "kind": "thousand-analysis",
        "deals": [{"number": n, "decisions": d} for n, d in deals.items()],
        "players": [{"seat": SEAT, "name": NAMES[SEAT], "decisions": unforced,
                     "marks": {"inaccuracy": 0, "mistake": len(marked), "blunder": 0},
                     "lost_view": None, "lost_open": 30 * len(marked), "accuracy": 77.7}],
    }


@pytest.fixture(scope="module")
def game() -> tuple[Table, dict[str, Any]]:
    table = finished_table()
    return table, table.to_record()


def test_steps_and_jumps_go_by_decision_and_by_mark(game: tuple[Table, dict[str, Any]]
                                                   ) -> None:
    _, record = game
    analysis = hand_made_analysis(record, {2, 4})
    steps = av.steps(analysis, SEAT)
    mine = list(seat_decisions(record, SEAT))
    assert [(s.deal, s.index) for s in steps] == [(d, i) for d, i, _, _ in mine]
    assert av.steps(analysis, 1) == []
    marked = [i for i, s in enumerate(steps) if s.mark]
    assert len(marked) == 2
    assert av.jump(steps, 0, 1) == 1 and av.jump(steps, 1, -1) == 0
    assert av.jump(steps, 0, -1) == 0  # nothing before the first
    assert av.jump(steps, 0, 1, marked=True) == marked[0]
    assert av.jump(steps, marked[0], 1, marked=True) == marked[1]
    assert av.jump(steps, marked[1], 1, marked=True) == marked[1]  # none after the last
    assert av.jump(steps, len(steps) - 1, -1, marked=True) == marked[1]


def test_the_position_is_the_seats_view_before_its_move(game: tuple[Table, dict[str, Any]]
                                                        ) -> None:
    """RULES: a player plays a card from his own hand, on his own turn."""
    _, record = game
    for deal, index, move, _ in seat_decisions(record, SEAT):
        view = av.position(record, deal, index, SEAT)
        assert view["to_move"] == SEAT
        if mv.is_card_play(move):
            assert card_str(mv.card_of(move)) in view["hand"]


def test_a_marked_step_says_the_better_move_and_why(game: tuple[Table, dict[str, Any]]
                                                    ) -> None:
    _, record = game
    analysis = hand_made_analysis(record, {0})
    steps = av.steps(analysis, SEAT)
    at = av.jump(steps, -1, 1, marked=True)
    better = steps[at].decision["open"]["best"]
    for lang, mistake, word in (("ru", "ошибка", "Лучше"), ("en", "mistake", "Better")):
        text = "\n".join(av.step_lines(steps, at, NAMES, lang))
        shown = av._move(better, lang)
        assert f"— {mistake}" in text
        assert f"{word}: {shown} (−30" in text
        assert "причина" in text
    plain = [i for i, s in enumerate(steps) if not s.mark and not s.decision["forced"]]
    assert "Лучше" not in "\n".join(av.step_lines(steps, plain[0], NAMES, "ru"))
    summary = av.summary_lines(analysis, "en")
    assert summary == ["You: accuracy 77.7%, inaccuracies 0, mistakes 1, blunders 0, "
                       "lost 30 points"]


def test_the_offer_is_asked_at_the_end_and_a_no_prints_nothing_more() -> None:
    table = finished_table()
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "н"

    out = io.StringIO()
    session = TerminalGame(table, {}, human=SEAT, console=Console(file=out, width=100),
                           input_fn=answer, show_seed=False)
    assert session.run() == 0
    assert prompts == ["Разобрать партию? [д/Н] "]
    assert "Анализ" not in out.getvalue()
    prompts.clear()
    TerminalGame(table, {}, human=SEAT, console=Console(file=io.StringIO()),
                 input_fn=answer, analyse=False).run()
    assert prompts == []


def test_a_yes_runs_the_analysis_of_the_persons_seat_and_prints_its_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The wiring, whatever the analysis says: a yes analyses the finished game's record
    for the person's seat with the samples asked for, in the game's language, and prints
    the analysis' own report after the game."""
    table = finished_table()
    asked: list[tuple[Any, ...]] = []

    def analyse(record: Any, seat: int | None, **kw: Any) -> dict[str, Any]:
        asked.append((len(record["deals"]), seat, kw["samples"], kw["lang"]))
        return {"players": []}

    monkeypatch.setattr("thousand.terminal.session.analyse_game", analyse)
    monkeypatch.setattr("thousand.terminal.session.report_text",
                        lambda analysis, lang: f"REPORT {lang} {analysis}")
    out = io.StringIO()
    TerminalGame(table, {}, human=SEAT, console=Console(file=out, width=100), lang="en",
                 input_fn=lambda prompt: "y", analysis_samples=7).run()
    assert asked == [(1, SEAT, 7, "en")]
    text = out.getvalue()
    assert text.index("REPORT en {'players': []}") > text.index("The game is over")


def test_a_yes_prints_the_analysis_report() -> None:
    table = finished_table()
    out = io.StringIO()
    session = TerminalGame(table, {}, human=SEAT, console=Console(file=out, width=100),
                           input_fn=lambda prompt: "да", analysis_samples=0, lang="ru")
    assert session.run() == 0
    text = out.getvalue()
    assert "Разобрать" not in text  # the prompt goes through input_fn, not the console
    assert "%" in text  # the accuracy
    assert NAMES[SEAT] in text.split("Игра окончена")[-1]


def run_app(app: ThousandApp, script: Any) -> None:
    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(go())


def test_f7_opens_the_analysis_and_steps_through_it(game: tuple[Table, dict[str, Any]],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _, record = game
    analysis = hand_made_analysis(record, {1})
    calls: list[tuple[int, int]] = []

    def fake(rec: Any, seat: int | None, **kw: Any) -> dict[str, Any]:
        for i in range(3):
            kw["progress"](i + 1, 3)
            calls.append((i + 1, 3))
        assert seat == SEAT and kw["samples"] == 0
        return analysis

    monkeypatch.setattr("thousand.terminal.tui.screens.analyse_game", fake)
    restored = Table.from_record(record)
    app = ThousandApp(restored, Seats(restored, {}, SEAT), lang="ru", bot_delay=0,
                      analysis_samples=0)

    async def script(pilot: Any) -> None:
        await pilot.press("escape")  # the score sheet shown at the end
        assert W("ru", "key_analysis") in str(app.query_one("#keys").render())
        await pilot.press("f7")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        for _ in range(200):
            await pilot.pause()
            if screen.steps:
                break
        assert calls == [(1, 3), (2, 3), (3, 3)]
        steps = screen.steps
        assert screen.at == 0 and "ход 1 из" in screen.text
        await pilot.press("right")
        assert screen.at == 1
        await pilot.press("left")
        assert screen.at == 0
        await pilot.press("right_square_bracket")
        at = screen.at
        assert steps[at].mark == "mistake"
        better = av._move(steps[at].decision["open"]["best"], "ru")
        assert f"Лучше: {better}" in screen.text
        await pilot.press("left_square_bracket")
        assert screen.at == at  # no marked decision before it
        await pilot.press("escape")
        assert not isinstance(app.screen, AnalysisScreen)
        assert app.analysis is analysis  # kept: F7 again shows it without a new run
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, AnalysisScreen) and app.screen.steps == steps
        assert len(calls) == 3

    run_app(app, script)


def test_no_analysis_key_before_the_game_is_over() -> None:
    table = Table(Rules.preset_rules("classic", max_deals=1), NAMES, seed=3)
    app = ThousandApp(table, Seats(table, {s: make_bot("heuristic", seed=s)
                                           for s in (1, 2)}, SEAT), lang="en", bot_delay=0)

    async def script(pilot: Any) -> None:
        assert W("en", "key_analysis") not in str(app.query_one("#keys").render())
        await pilot.press("f7")
        assert not isinstance(app.screen, AnalysisScreen)

    run_app(app, script)


def test_an_analysis_closed_while_it_runs_is_kept(game: tuple[Table, dict[str, Any]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Esc while the worker thinks: the table is back at once, and the analysis made
    meanwhile is kept for F7 (which shows it without a second run)."""
    _, record = game
    analysis = hand_made_analysis(record, set())
    release = threading.Event()
    runs: list[int] = []

    def slow(rec: Any, seat: int | None, **kw: Any) -> dict[str, Any]:
        runs.append(1)
        assert release.wait(10)
        return analysis

    monkeypatch.setattr("thousand.terminal.tui.screens.analyse_game", slow)
    restored = Table.from_record(record)
    app = ThousandApp(restored, Seats(restored, {}, SEAT), lang="en", bot_delay=0,
                      analysis_samples=0, analyse=True)

    async def script(pilot: Any) -> None:
        assert isinstance(app.screen, AnalysisScreen)  # --analyse: opened by itself
        assert app.screen.text == W("en", "analysis_running")
        await pilot.press("escape")
        assert not isinstance(app.screen, AnalysisScreen)
        release.set()
        for _ in range(200):
            await pilot.pause()
            if app.analysis is not None:
                break
        assert app.analysis is analysis
        await pilot.press("escape")  # the sheet
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, AnalysisScreen) and app.screen.steps
        assert runs == [1]

    try:
        run_app(app, script)
    finally:
        release.set()  # never a worker left waiting


def test_no_analyse_takes_f7_away(game: tuple[Table, dict[str, Any]]) -> None:
    _, record = game
    restored = Table.from_record(record)
    app = ThousandApp(restored, Seats(restored, {}, SEAT), lang="ru", bot_delay=0,
                      analyse=False)

    async def script(pilot: Any) -> None:
        await pilot.press("escape")
        assert W("ru", "key_analysis") not in str(app.query_one("#keys").render())
        await pilot.press("f7")
        assert not isinstance(app.screen, AnalysisScreen)

    run_app(app, script)


def test_play_help_names_analyse_and_hides_the_samples(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    assert cli_run(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--analyse" in out and "--no-analyse" in out
    assert "--analysis-samples" not in out  # for tests and the curious: not advertised


def test_analyse_flag_prints_the_report_of_a_piped_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``--analyse`` in a pipe (where nothing is asked): the report follows the game."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"1\n" * 200)))
    code = cli_run(["play", "--plain", "--seed", "5", "--set", "max_deals=1", "--analyse",
                    "--analysis-samples", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Разобрать" not in out
    report = out.split("Игра окончена")[-1]
    assert "%" in report and "Вы" in report


def test_a_game_left_before_its_end_offers_no_analysis() -> None:
    table = Table(Rules.preset_rules("classic", max_deals=1), NAMES, seed=3)
    answers = iter(["quit", "n"])
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    bots = {s: make_bot("heuristic", seed=s) for s in (1, 2)}
    TerminalGame(table, bots, human=SEAT, console=Console(file=io.StringIO()),
                 input_fn=answer).run()
    assert not table.over and len(prompts) == 2
    assert av.word("ru", "offer") not in prompts



def _app_with_analysis(record: dict[str, Any], analysis: dict[str, Any],
                       monkeypatch: pytest.MonkeyPatch) -> ThousandApp:
    """The full-screen table of a finished record, in Russian, whose F7 gets ``analysis``
    at once (no analysis is computed)."""
    monkeypatch.setattr("thousand.terminal.tui.screens.analyse_game",
                        lambda rec, seat, **kw: analysis)
    restored = Table.from_record(record)
    return ThousandApp(restored, Seats(restored, {}, SEAT), lang="ru", bot_delay=0,
                       analysis_samples=0)


def test_f7_steps_through_a_game_for_two(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28, 11: the analysis of a game for two replays its deals with their two
    talons (RULES §4 "Two players" 8), so stepping to a decision shows its position
    instead of ending the table with a ValueError."""
    table = finished_table(preset="two")
    record = table.to_record()
    analysis = hand_made_analysis(record, set())
    app = _app_with_analysis(record, analysis, monkeypatch)

    async def script(pilot: Any) -> None:
        await pilot.press("escape")  # the score sheet shown at the end
        await pilot.press("f7")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        for _ in range(400):
            await pilot.pause()
            if screen.steps:
                break
        assert len(screen.steps) > 2
        for at in (1, 2):
            await pilot.press("right")
            assert screen.at == at
        assert app.is_running and "ход 3 из" in screen.text

    run_app(app, script)
    for deal, index, _, _ in seat_decisions(record, SEAT):
        assert av.position(record, deal, index, SEAT)["to_move"] == SEAT


def _after_a_pass(record: dict[str, Any], analysis: dict[str, Any]) -> list[int]:
    """The steps of SEAT whose position shows an auction with a pass in it."""
    out = []
    for i, s in enumerate(av.steps(analysis, SEAT)):
        view = av.position(record, s.deal, s.index, SEAT)
        if view["phase"] != "play" and any(a["move"] == "pass" for a in view["auction"]):
            out.append(i)
    return out


def test_f7_words_the_auction_in_the_players_language(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """Issue 28, 14: the auction on the analysis screen says «пас», as the table does,
    never the record's "pass"."""
    for seed in range(1, 40):
        record = finished_table(seed).to_record()
        analysis = hand_made_analysis(record, set())
        passed = _after_a_pass(record, analysis)
        if passed:
            break
    assert passed, "no decision of the seat after a pass in the auction"
    app = _app_with_analysis(record, analysis, monkeypatch)

    async def script(pilot: Any) -> None:
        await pilot.press("escape")
        await pilot.press("f7")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        for _ in range(400):
            await pilot.pause()
            if screen.steps:
                break
        for _ in range(passed[0]):
            await pilot.press("right")
        await pilot.pause()
        shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "пас" in shown and "pass" not in shown

    run_app(app, script)
