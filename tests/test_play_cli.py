"""``thousand play`` driven through its real input and output: piped stdin for whole
games, a pseudo-terminal (pexpect) for Ctrl-C; the saved record replays to the same
scores (RULES.md §6)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from thousand import moves as mv
from thousand.cards import parse_card
from thousand.deal import Phase
from thousand.game import Game
from thousand.record import replay
from thousand.rules import Rules
from thousand.terminal import parse_card_text, parse_input

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]


def run_play(
    args: list[str], lines: list[str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "play", *args], input="\n".join(lines) + "\n", capture_output=True,
        text=True, timeout=timeout, encoding="utf-8",
    )


def final_scores(out: str, word: str = "Счёт") -> list[int]:
    m = re.search(rf"{word}: (.*)", out)
    assert m, out[-2000:]
    return [int(x) for x in re.findall(r"(-?\d+)(?:,|$)", m.group(1).strip())]


# ------------------------------------------------------------------ input parsing


def test_card_input_in_both_notations() -> None:
    assert parse_card_text("KH") == parse_card("KH")
    assert parse_card_text("10h") == parse_card("TH")
    assert parse_card_text("кч") == parse_card("KH")
    assert parse_card_text("10п") == parse_card("TS")
    assert parse_card_text("Тб") == parse_card("AD")
    assert parse_card_text("вт") == parse_card("JC")
    assert parse_card_text("Д♥") == parse_card("QH")


def test_input_means_moves_numbers_and_commands() -> None:
    g = Game(Rules(), seed=2)
    view = g.view(g.to_move)
    assert view.phase == Phase.AUCTION
    assert parse_input("1", view) == view.legal[0]
    assert parse_input("105", view) == mv.bid(105)
    assert parse_input("пас", view) == mv.PASS
    assert parse_input("hint", view) == "hint"
    assert parse_input("подсказка", view) == "hint"
    assert parse_input("help", view) == "help"
    assert parse_input("quit", view) == "quit"
    assert parse_input("blah", view) is None
    assert parse_input("KH+", view) == mv.play(parse_card("KH"), True)


# --------------------------------------------------------------- whole games


def test_whole_game_piped_with_illegal_input_hint_and_save(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    lines = ["300", "hint", "help", "xyzzy"] + ["1"] * 200
    p = run_play(["--seed", "5", "--set", "max_deals=2", "--save", str(save)], lines)
    out = p.stdout
    assert p.returncode == 0, p.stderr
    assert "Так нельзя: нельзя заказать больше" in out  # the illegal bid, explained
    assert re.search(r"Подсказка \((heuristic|strong|expert)\): ", out)
    assert "Не понял" in out
    assert "Ваши карты" in out and "Торговля" in out
    assert "Взятка" in out and "берёт" in out
    assert "Запись" in out  # the score sheet after each deal
    assert "Игра окончена" in out
    assert f"Игра сохранена: {save}" in out
    # the saved record replays to the same result
    result = replay(save.read_text(encoding="utf-8"))
    assert result.finished
    assert list(result.scores) == final_scores(out)


def test_seed_makes_the_game_reproducible() -> None:
    lines = ["1"] * 200
    a = run_play(["--seed", "8", "--set", "max_deals=1"], lines).stdout
    b = run_play(["--seed", "8", "--set", "max_deals=1"], lines).stdout
    assert a == b


def test_english_open_hands_and_four_players(tmp_path: Path) -> None:
    save = tmp_path / "g4.json"
    p = run_play(
        ["--lang", "en", "--open", "--set", "players=4", "--set", "max_deals=2",
         "--bots", "heuristic,random", "--seed", "3", "--save", str(save)],
        ["hint"] + ["1"] * 200,
    )
    out = p.stdout
    assert p.returncode == 0, p.stderr
    assert "Your move" in out and "Cards: Bob" in out and "Cards: Greg" in out
    assert "sits out" in out
    assert re.search(r"Hint \((heuristic|strong|expert)\): ", out)
    assert "The game is over" in out
    assert list(replay(save.read_text(encoding="utf-8")).scores) == final_scores(out, "Scores")


def test_end_of_input_offers_to_save_and_leaves(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    p = run_play(["--seed", "5", "--set", "max_deals=3"], ["1", "1", "quit", "y", str(save)])
    assert p.returncode == 0, p.stderr
    assert "Сохранить игру?" in p.stdout
    assert save.exists()
    result = replay(save.read_text(encoding="utf-8"))
    assert not result.finished  # an unfinished game replays as far as it went


def test_bad_options_exit_2() -> None:
    p = run_play(["--bots", "grandmaster"], [])
    assert p.returncode == 2 and "unknown bot level" in p.stderr
    p = run_play(["--set", "players=5"], [])
    assert p.returncode == 2 and "players" in p.stderr


# -------------------------------------------------------------- pseudo-terminal


def test_pseudo_terminal_game_with_ctrl_c(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "ctrl-c.json"
    child = pexpect.spawn(
        CLI[0], [*CLI[1:], "play", "--seed", "5", "--set", "max_deals=2"],
        encoding="utf-8", timeout=60, dimensions=(50, 160),
    )
    try:
        child.expect("Ваш ход> ")
        child.sendline("300")
        child.expect("Так нельзя")
        child.expect("Ваш ход> ")
        child.sendline("hint")
        child.expect("Подсказка")
        for _ in range(6):
            child.expect("Ваш ход> ")
            child.sendline("1")
        child.expect("Ваш ход> ")
        child.sendintr()  # Ctrl-C
        child.expect(r"Сохранить игру\? \[д/н\]")
        child.sendline("д")
        child.expect("Файл")
        child.sendline(str(save))
        child.expect("Игра сохранена")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert save.exists()
    replay(save.read_text(encoding="utf-8"))


def test_pseudo_terminal_whole_game(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "pty.json"
    child = pexpect.spawn(
        CLI[0], [*CLI[1:], "play", "--seed", "6", "--set", "max_deals=1", "--save", str(save)],
        encoding="utf-8", timeout=60, dimensions=(50, 160),
    )
    try:
        while True:
            i = child.expect(["Ваш ход> ", "Игра сохранена"])
            if i == 1:
                break
            child.sendline("1")
        child.expect(pexpect.EOF)
        out = child.before or ""
    finally:
        child.close()
    assert save.exists()
    assert replay(save.read_text(encoding="utf-8")).finished
    assert out is not None


def test_ctrl_c_while_a_bot_thinks_offers_to_save(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from thousand.bots import make_bot
    from thousand.terminal import TerminalGame
    from thousand.view import View

    class Interrupted:
        def choose(self, view: View) -> int:
            raise KeyboardInterrupt

    save = tmp_path / "interrupted.json"
    answers = iter(["y", str(save)])  # Вова (seat 2) bids before the human
    out = io.StringIO()
    game = Game(Rules(), players=["Вы", "Боря", "Вова"], seed=5)
    session = TerminalGame(
        game, {1: make_bot("heuristic", 1), 2: Interrupted()}, human=0,
        console=Console(file=out, width=120), input_fn=lambda prompt: next(answers),
    )
    assert session.run() == 0
    assert "Игра сохранена" in out.getvalue()
    assert not replay(save.read_text(encoding="utf-8")).finished
