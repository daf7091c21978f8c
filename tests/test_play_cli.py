"""``thousand play`` driven through its real input and output: piped stdin for whole
games, a pseudo-terminal (pexpect) for Ctrl-C and for answering what the table asks.

The terminal is a client of the table protocol (docs/protocol.md): it says what happened
from the events its seat receives, so these tests also check what a seat is told and what
it is not (the dealer's glimpse at the cut).  The saved record replays to the same scores
(RULES §6)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.cards import card_label, parse_card
from thousand.engine.record import replay
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.terminal import parse_card_text, parse_input

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
PROMPT = {"ru": "Ваш ход> ", "en": "Your move> "}
#: The offer of the analysis at the end of a game (terminal/analysis_view.py).
OFFER = {"ru": "Разобрать партию? [д/Н] ", "en": "Analyse the game? [y/N] "}


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every game of these tests saves after every move into its own data folder
    (``$XDG_DATA_HOME/thousand/saves``), never the user's."""
    home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def child_env() -> dict[str, str]:
    """The environment of a game the tests start: this process's own (``XDG_DATA_HOME``
    above) with a narrow ``COLUMNS``: piped, the game's lines stay whole whatever width
    the environment names (a script or a screen reader reads them line by line)."""
    return {**os.environ, "COLUMNS": "40"}


def run_play(
    args: list[str], lines: list[str] | list[bytes], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``thousand play ARGS`` with ``lines`` piped to it (bytes lines go as they are)."""
    if lines and isinstance(lines[0], bytes):
        data = b"\n".join(x for x in lines if isinstance(x, bytes)) + b"\n"
    else:
        data = ("\n".join(str(x) for x in lines) + "\n").encode("utf-8")
    p = subprocess.run(
        [*CLI, "play", *args], input=data, capture_output=True, timeout=timeout,
        env=child_env(),
    )
    return subprocess.CompletedProcess(
        p.args, p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")
    )


def play_here(capsys: pytest.CaptureFixture[str],
              args: list[str]) -> subprocess.CompletedProcess[str]:
    """``thousand play ARGS`` run in this process (``thousand.cli.run``, whose status
    ``main`` exits with), for what ends before the game starts: its status and what it
    printed, as :func:`run_play` gives them."""
    from thousand.cli import run as cli_run

    code = cli_run(["play", *args])
    out = capsys.readouterr()
    return subprocess.CompletedProcess(["play", *args], code, out.out, out.err)


def saved_record(path: Path) -> Any:
    """The game record inside a save that ``thousand play`` wrote (``"format":
    "thousand-save"``, which ``thousand play --resume`` continues), its sealed deal in play
    and seed put back (thousand.engine.record.unseal_record)."""
    from thousand.engine.record import unseal_record

    return unseal_record(json.loads(path.read_text(encoding="utf-8")))


def final_scores(out: str, word: str = "Счёт") -> list[int]:
    m = re.search(rf"{word}: (.*)", out)
    assert m, out[-2000:]
    return [int(x) for x in re.findall(r"(-?\d+)(?:,|$)", m.group(1).strip())]


def answers(out: str, prompt: str) -> list[str]:
    """What the game printed after each prompt, up to the next one."""
    return out.split(prompt)[1:]


def first_dealer(rules: Rules, seed: int) -> int:
    return Table(rules, seed=seed).game.first_dealer


def play_pty(args: list[str], respond: Callable[[str], str], lang: str = "ru",
             analyse: str = "н") -> str:
    """A game in a pseudo-terminal; ``respond`` answers each prompt from what the game
    printed since the last one, ``analyse`` the offer of the analysis at the end.  The
    whole output."""
    import pexpect
    child = pexpect.spawn(CLI[0], [*CLI[1:], "play", "--plain", *args], encoding="utf-8",
                          timeout=90, dimensions=(50, 200),
                          env={**child_env(), "COLUMNS": "200"})  # a wide terminal
    out = []
    try:
        for _ in range(400):
            i = child.expect([re.escape(PROMPT[lang]), pexpect.EOF,
                               re.escape(OFFER[lang])])
            out.append(child.before or "")
            if i == 1:
                break
            if i == 2:
                out.append(OFFER[lang])
                child.sendline(analyse)
                continue
            out.append(PROMPT[lang])
            child.sendline(respond(out[-2]))
    finally:
        child.close()
    return "".join(out)


# ------------------------------------------------------------------ input parsing


def test_card_input_in_both_notations() -> None:
    """A card is typed in English or Russian notation, with symbols or letters."""
    assert parse_card_text("KH") == parse_card("KH")
    assert parse_card_text("10h") == parse_card("TH")
    assert parse_card_text("кч") == parse_card("KH")
    assert parse_card_text("10п") == parse_card("TS")
    assert parse_card_text("Тб") == parse_card("AD")
    assert parse_card_text("вт") == parse_card("JC")
    assert parse_card_text("Д♥") == parse_card("QH")


def test_input_means_moves_in_notation_numbers_and_commands() -> None:
    """A line of input becomes a move in record notation for the table (a number picks
    from the list; Russian words for pass, buy, «сижу на ста»), a command, or nothing;
    garbage ("²", five thousand digits) never becomes a number."""
    table = Table(Rules(), seed=2)
    seat = table.to_move
    assert seat is not None
    view = table.view_json(seat)
    assert view["phase"] == "auction"
    assert parse_input("1", view) == view["legal"][0]
    assert parse_input("1", table.view(seat)) == view["legal"][0]  # the engine view too
    assert parse_input("105", view) == "105"
    assert parse_input("пас", view) == "pass"
    assert parse_input("куплю", view) == "buy"
    assert parse_input("перекуп", view) == "buy"
    assert parse_input("сижу на  ста", view) == "100"
    assert parse_input("hint", view) == "hint"
    assert parse_input("подсказка", view) == "hint"
    assert parse_input("help", view) == "help"
    assert parse_input("quit", view) == "quit"
    assert parse_input("blah", view) is None
    assert parse_input("²", view) is None
    assert parse_input("[/]", view) is None
    assert parse_input("9" * 5000, view) == "9" * 5000  # the table refuses it, no int()
    assert parse_input("KH+", view) == "KH+"
    assert parse_input("кч", view) == "KH"
    assert parse_input("заказ 130", view) == "contract 130"


# --------------------------------------------------------------- whole games


def test_whole_game_piped_with_illegal_input_hint_and_save(tmp_path: Path) -> None:
    """A whole game through the table protocol from piped input: an illegal bid explained
    in words, a hint, help, nonsense; the narration, the score sheet, the end; the saved
    record replays to the printed scores."""
    save = tmp_path / "game.json"
    lines = ["300", "hint", "help", "xyzzy"] + ["1"] * 200
    p = run_play(["--seed", "5", "--set", "max_deals=2", "--save", str(save)], lines)
    out = p.stdout
    assert p.returncode == 0, p.stderr
    assert "Так нельзя: нельзя заказать больше" in out  # the illegal bid, explained
    assert re.search(r"Подсказка \((любитель|сильный|мастер)\): [А-Я]", out)
    assert "Не понял" in out
    assert "Ваши карты" in out and "Торговля" in out
    assert "Взятка" in out and "берёт" in out
    assert "Запись" in out  # the score sheet after each deal
    assert "Игра окончена" in out
    assert f"Игра сохранена: {save}" in out
    # the saved record replays to the same result
    result = replay(saved_record(save))
    assert result.finished
    assert list(result.scores) == final_scores(out)


def test_seed_makes_the_game_reproducible() -> None:
    """The same seed deals the same cards, draws the same first dealer, seats the same
    bots: the same game, line for line."""
    lines = ["1"] * 200

    def game() -> str:  # but for the line naming its file, which is new each time
        out = run_play(["--seed", "8", "--set", "max_deals=1"], lines).stdout
        return re.sub(r"сохраняется после каждого хода в файл \S+", "", out)

    assert game() == game()


def test_english_open_hands_and_four_players(tmp_path: Path) -> None:
    """English, open hands (every event shown, the bots' hands too), four players with the
    dealer sitting out; the record replays to the printed scores."""
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
    assert list(replay(saved_record(save)).scores) == final_scores(out, "Scores")


def test_textbook_table_states_the_natural_ten() -> None:
    """The rules summary at the start of a textbook table says the ten takes tricks in its
    natural place, 9 10 J Q K A (and «сижу на ста», the discard of three)."""
    p = run_play(["textbook", "--lang", "en", "--seed", "1"], ["quit", "n"])
    assert p.returncode == 0, p.stderr
    head = p.stdout.split("Deal 1")[0]
    assert "the ten in its natural place: 9 10 J Q K A" in head
    assert "I sit on 100" in head and "discards three" in head
    p = run_play(["textbook", "--seed", "1"], ["quit", "н"])
    assert "десятка на своём месте: 9 10 В Д К Т" in p.stdout.split("Раздача 1")[0]


def test_end_of_input_offers_to_save_and_leaves(tmp_path: Path) -> None:
    """``quit`` asks whether to save; the partial record replays as far as it went."""
    save = tmp_path / "partial.json"
    p = run_play(["--seed", "5", "--set", "max_deals=3"], ["1", "1", "quit", "y", str(save)])
    assert p.returncode == 0, p.stderr
    assert "Сохранить копию игры в другой файл?" in p.stdout
    assert save.exists()
    result = replay(saved_record(save))
    assert not result.finished  # an unfinished game replays as far as it went


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    """A bad bot level, ruleset, ``--seat``, ``--seed`` or ``--names`` (count, empty, a
    control character, too long: thousand.engine.record.check_name) is one error line in the
    game's language (Russian by default, ``--lang en``) and exit status 2: the first from a
    process of its own (its exit status), the others from the command line run in this one
    (``thousand.cli.run``, what ``main`` exits with: a process start is a CPU-second)."""
    p = run_play(["--bots", "grandmaster"], [])
    assert p.returncode == 2
    assert p.stderr.startswith("ошибка: --bots: уровня ботов «grandmaster» нет; уровни: ")

    p = play_here(capsys, ["--bots", "grandmaster", "--lang", "en"])
    assert p.returncode == 2 and p.stderr.startswith("error: unknown bot level 'grandmaster'")
    p = play_here(capsys, ["--set", "players=5", "--lang", "en"])
    assert p.returncode == 2 and p.stderr.startswith("error: ") and "players" in p.stderr
    p = play_here(capsys, ["--seat", "3"])
    assert p.returncode == 2 and p.stderr == "ошибка: --seat: место — число от 0 до 2\n"
    p = play_here(capsys, ["--seed", str(2**128)])
    assert p.returncode == 2 and p.stderr.startswith("ошибка: --seed: номер партии")
    for names, lang, why in [
        ("Аня,Боря", "ru", "ошибка: --names: нужно 3 имени через запятую"),
        ("Аня,Боря", "en", "error: --names needs 3 names"),
        ("Аня,,Вова", "ru", "ошибка: --names: имя места 1 пустое"),
        ("Аня,,Вова", "en", "error: --names: the name of seat 1 is empty"),
        ("Аня,Бо\x01ря,Вова", "en", "control character U+0001"),
        ("Аня,Боря," + "В" * 101, "en", "a name has at most 100"),
    ]:
        p = play_here(capsys, ["--names", names, "--lang", lang])
        assert p.returncode == 2, (names, p.stdout[-500:])
        assert p.stderr.startswith(why) or (why in p.stderr and "--names" in p.stderr), p.stderr
        assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_names_with_markup_are_printed_as_text() -> None:
    """Player names are never read as Rich markup: ``[/]``, ``[bold]`` and a trailing
    backslash are shown as typed, in the narration and in the score sheet."""
    names = ["[/]", "[bold]Боря", "Вова\\"]
    dealer = first_dealer(Rules(), 5)
    p = run_play(["--names", ",".join(names), "--seed", "5", "--set", "max_deals=1"],
                 ["1"] * 200)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert f"Сдаёт {names[dealer]}." in out
    assert "[/]: " in out and "[bold]Боря: " in out and "Вова\\: " in out
    assert "Вова\\\\" not in out  # the backslash is not doubled
    assert "Игра окончена" in out


# ------------------------------------------------------------ the new rule moments


def test_buy_offer_shows_its_price_and_kuplyu_buys(tmp_path: Path) -> None:
    """talon_buy (перекуп): the person, who deals and so passes in the auction, is asked
    «Перекупить прикуп за P? buy / pass» with the price, answers «куплю», and the table
    announces that he bought the talon for P; the record holds the ``buy``."""
    rules = Rules.preset_rules("classic", talon_buy=True, max_deals=1)
    seat = first_dealer(rules, 1)
    save = tmp_path / "buy.json"
    offers: list[str] = []

    def respond(chunk: str) -> str:
        m = re.search(r"Перекупить прикуп за (\d+)\? buy \(куплю\) / pass \(пас\)", chunk)
        if m and not offers:
            offers.append(m.group(1))
            return "куплю"
        return "1"

    out = play_pty(["--seed", "1", "--set", "talon_buy=true", "--set", "max_deals=1",
                    "--seat", str(seat), "--save", str(save)], respond)
    assert offers, out[-3000:]
    assert f"Вы перекупаете прикуп за {offers[0]}" in out
    assert f"перекупить за {offers[0]}" in out  # the numbered move
    assert "Игра окончена" in out and "Traceback" not in out
    record = replay(saved_record(save))
    assert record.finished


def test_buy_in_english_names_the_price() -> None:
    """In English the offer is "Buy the talon for P? buy / pass" and a buy by anyone is
    announced with its price."""
    p = run_play(["--lang", "en", "--seed", "1", "--set", "talon_buy=true",
                  "--set", "max_deals=1", "--seat",
                  str(first_dealer(Rules.preset_rules("classic", talon_buy=True), 1))],
                 ["1"] * 200)
    assert p.returncode == 0, p.stderr
    m = re.search(r"Buy the talon for (\d+)\? buy / pass", p.stdout)
    assert m, p.stdout[-3000:]
    assert re.search(r"(You buy|\w+ buys) the talon for \d+ \(from \w+\)", p.stdout)


def test_dealer_opens_the_person_sits_on_100() -> None:
    """dealer-opens: the person deals, so he opens, and may only say 100 — the table asks
    for «сижу на ста», takes «сижу», and says «Вы: 100 — «сижу на ста»»."""
    rules = Rules.preset_rules("dealer-opens")
    seat = first_dealer(rules, 2)
    p = run_play(["dealer-opens", "--seed", "2", "--set", "max_deals=1", "--seat", str(seat)],
                 ["сижу"] + ["1"] * 200)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "вы открываете, и первая ставка только 100 — «сижу на ста»" in out
    assert "1) 100 («сижу на ста»)" in out
    assert "Вы: 100 — «сижу на ста»" in out
    assert "Игра окончена" in out


def test_house_a_bot_opener_sits_on_100() -> None:
    """house (opening_bid=exactly_100, golden deals and dark bid off for the test): the bot
    who opens says "100 — I sit on 100", in the person's language."""
    seat = first_dealer(Rules.preset_rules("house"), 4)  # a bot opens
    p = run_play(["house", "--lang", "en", "--seed", "4", "--set", "golden_deals=false",
                  "--set", "dark=false", "--set", "max_deals=1", "--seat", str(seat)],
                 ["1"] * 200)
    assert p.returncode == 0, p.stderr
    assert re.search(r'\n\w+: 100 — "I sit on 100"\n', p.stdout), p.stdout[:3000]


def _seed_with_cut(wanted: Callable[[tuple[int, ...]], bool]) -> tuple[int, Table]:
    """The first seed whose first dealer-opens deal has the cut ``wanted``."""
    rules = Rules.preset_rules("dealer-opens")
    for seed in range(1000):
        table = Table(rules, seed=seed)
        assert table.game.deal is not None
        if wanted(table.game.deal.ctx.cut):
            return seed, table
    raise AssertionError("no such cut in 1000 seeds")


def _cut_lines(out: str, word: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith(word)]


def test_cut_the_dealer_sees_his_glimpse_and_nobody_else_does() -> None:
    """dealer-opens (cut_nines): the nine at the cut is shown to every seat; the bottom
    card the dealer glimpses (a talon card) is told to the dealer only — the person who
    deals sees it named, the one who does not is told only that the dealer looked."""
    seed, table = _seed_with_cut(lambda cut: len(cut) == 2 and cut[-1] % 6 not in (0, 1))
    deal = table.game.deal
    assert deal is not None
    cut = [card_label(c, "ru") for c in deal.ctx.cut]  # a nine, then the glimpse
    dealer = table.game.first_dealer
    base = ["dealer-opens", "--seed", str(seed), "--set", "max_deals=1"]

    out = run_play([*base, "--seat", str(dealer)], ["1"] * 200).stdout
    lines = _cut_lines(out, "Съём")
    assert len(lines) == 2, lines
    assert f"внизу {cut[0]} — девятка, её видят все" in lines[0]
    assert f"подсмотрели нижнюю карту — {cut[1]}; она уйдёт в прикуп" in lines[1]

    other = (dealer + 1) % 3
    out = run_play([*base, "--seat", str(other)], ["1"] * 200).stdout
    lines = _cut_lines(out, "Съём")
    assert len(lines) == 2, lines
    assert f"внизу {cut[0]} — девятка, её видят все" in lines[0]
    assert "подсмотрел нижнюю карту; её видел только он" in lines[1]
    assert cut[1] not in lines[1] and "подсмотрели" not in out

    out = run_play([*base, "--seat", str(other), "--lang", "en"], ["1"] * 200).stdout
    lines = _cut_lines(out, "The cut")
    assert len(lines) == 2 and "only the dealer saw it" in lines[1], lines


def _shown(events: list[dict[str, object]], lang: str) -> str:
    """What the terminal of seat 0 prints for these table events."""
    from rich.console import Console

    from thousand.terminal import TerminalGame

    out = io.StringIO()
    table = Table(Rules.preset_rules("dealer-opens"), ["Аня", "Боря", "Вова"], seed=2)
    session = TerminalGame(table, {}, human=0, console=Console(file=out, width=200), lang=lang)
    session._show(events)  # what run() does with the events each move returns
    return out.getvalue()


def test_every_game_mark_gets_its_line_from_its_event() -> None:
    """A golden deal, the barrel (on, fall, knock-off, time out), a bolt, a penalty, both
    samosvals, the fall reset, the golden restart, a redeal, and the end of the game with
    the settlement: each event the table sends gets its own clear line, in the second
    person for the person's own seat."""
    def ev(kind: str, **data: object) -> dict[str, object]:
        return {"type": kind, "audience": "all", "v": 1, **data}

    scored = dict(number=1, dealer=0, outcome="played", declarer=1, bid=120, contract=120,
                  made=True, dark=False, golden=True, points=[20, 130, 0], tricks=[1, 7, 0],
                  values=[40, 240, 0], redeal_by=None, changes=[40, 240, 0],
                  scores=[555, 880, -120])
    events = [
        ev("deal_started", number=1, dealer=0, opener=1, active=[1, 2, 0], golden=True),
        ev("deal_scored", **scored),
        ev("barrel_on", seat=1, amount=0),
        ev("bolt", seat=2, amount=0),
        ev("penalty", seat=2, amount=-120, reason="bolt"),
        ev("samosval", seat=0, amount=-555),
        ev("bolt_samosval", seat=2, amount=-300),
        ev("fall", seat=1, amount=0),
        ev("knocked_off", seat=0, amount=-120),
        ev("barrel_timeout", seat=2, amount=-120),
        ev("fall_reset", seat=2, amount=-760),
        ev("penalty", seat=0, amount=-120, reason="cut"),
        ev("golden_restart", seat=None, amount=0),
        ev("deal_started", number=2, dealer=1, opener=1, active=[2, 0, 1], golden=False),
        ev("deal_scored", **{**scored, "outcome": "redeal", "declarer": None,
                             "redeal_by": 2, "golden": False}),
        ev("game_over", winner=1, scores=[15, 1000, 0], settlement=[985, 0, 1000]),
    ]
    out = _shown(events, "ru")
    for line in [
        "Раздача 1. Сдаёт Аня. Золотой кон: Боря играет 120 без торговли.",
        "Боря: заказ 120 сыгран, 130 очков.",
        "Золотой кон: очки вдвойне.",
        "Боря садится на бочку.",
        "У Вовы болт (ни одной взятки).",
        "Штраф Вове -120 — за болты.",
        "Самосвал у вас! Ровно 555 — счёт обнуляется.",
        "Три болта подряд у Вовы — самосвал: счёт 300 → 0.",
        "Боря слетает с бочки.",
        "Вас сталкивают с бочки (-120).",
        "У Вовы вышел срок на бочке — падение (-120).",
        "Очередное падение Вовы с бочки — счёт становится 0.",
        "Штраф вам -120 — за три девятки при съёме.",
        "В золотых конах никто не сыграл: игра начинается заново, все с нуля.",
        "Пересдача по требованию Вовы: раздачу сдают заново.",
        "Победитель — Боря.",
        "Расчёт: вы платите 985, Вова платит 1000",
    ]:
        assert f"\n{line}" in out, (line, out)
    out = _shown(events, "en")
    for line in [
        "Bob climbs on the barrel.", "Vic gets a bolt (no trick).",
        "Samosval for you! Exactly 555 — the score resets to 0.",
        "You are knocked off the barrel", "Redeal, demanded by Vic",
        "Settlement: you pay 985, Vic pays 1000",
    ]:
        assert line.replace("Bob", "Боря").replace("Vic", "Вова") in out, (line, out)


# --------------------------------------------------------------- garbage input


GARBAGE: list[tuple[bytes, str]] = [
    ("²".encode(), "I did not understand \"²\""),
    (b"9" * 5000, "I did not understand \"999"),
    (b"[/]", "I did not understand \"[/]\""),
    (b"[bold]x[/bold]", "I did not understand \"[bold]x[/bold]\""),
    (b"\xff\xfe not utf-8", "not UTF-8"),
    (b"save bad\x00name.json", "Could not save bad\\x00name.json"),
    (b"contract " + b"7" * 5000, "I did not understand \"contract 777"),
    (b"\x1b[31mred", "I did not understand \"\\x1b[31mred\""),
]


def test_garbage_input_gives_one_line_and_the_game_goes_on(tmp_path: Path) -> None:
    """Each kind of garbage — a superscript digit, five thousand digits, Rich markup under
    --lang en, a save path with a NUL byte, bytes that are not UTF-8, an escape sequence —
    is answered with exactly one line, no traceback, and changes nothing: the game that
    follows is the game without the garbage, move for move."""
    clean_save = tmp_path / "clean.json"
    dirty_save = tmp_path / "dirty.json"
    args = ["--lang", "en", "--seed", "5", "--set", "max_deals=1"]
    clean = run_play([*args, "--save", str(clean_save)], [b"1"] * 200)
    dirty = run_play([*args, "--save", str(dirty_save)],
                     [line for line, _ in GARBAGE] + [b"1"] * 200)
    assert clean.returncode == 0 and dirty.returncode == 0
    assert "Traceback" not in dirty.stderr + dirty.stdout
    replies = answers(dirty.stdout, PROMPT["en"])
    for (line, expected), reply in zip(GARBAGE, replies, strict=False):
        assert reply.count("\n") == 1, (line[:40], reply)
        assert expected in reply, (line[:40], reply)
        assert len(reply) < 200
    assert "The game is over" in dirty.stdout
    assert clean_save.read_text(encoding="utf-8") == dirty_save.read_text(encoding="utf-8")


def test_end_of_input_is_one_line_then_the_save_question() -> None:
    """The end of input in the middle of a game: one line saying so, the question whether
    to save (unanswered: no), goodbye; exit status 0 and no traceback."""
    p = run_play(["--seed", "5", "--set", "max_deals=1"], ["1"])
    assert p.returncode == 0 and p.stderr == ""
    tail = p.stdout.split("Ввод закончился.")
    assert len(tail) == 2, p.stdout[-1000:]
    assert "Сохранить копию игры в другой файл?" in tail[1] and "До свидания!" in tail[1]
    # the game itself stays saved, and the line says where and how to go on
    assert "Партия сохранена в " in tail[1] and "Продолжить: thousand play --resume" in tail[1]


def test_unwritable_save_path_is_asked_again(tmp_path: Path) -> None:
    """Leaving with a save path the system refuses (a NUL byte, a directory): one line each,
    the file is asked for again, and a good path saves the game."""
    good = tmp_path / "good.json"
    p = run_play(["--lang", "en", "--seed", "5"],
                 ["quit", "y", "bad\x00.json", str(tmp_path), str(good)])
    assert p.returncode == 0, p.stderr
    assert "Could not save bad\\x00.json: the file name holds a NUL byte" in p.stdout
    assert p.stdout.count("Could not save") == 2  # the directory too, in the system's words
    assert f"Game saved: {good}" in p.stdout
    assert not replay(saved_record(good)).finished


# -------------------------------------------------------------- pseudo-terminal


def test_pseudo_terminal_game_with_ctrl_c(tmp_path: Path) -> None:
    """In a terminal: an illegal bid, a hint, garbage ("²", "[/]"), moves, then Ctrl-C at
    the prompt offers to save; the saved record replays."""
    import pexpect
    save = tmp_path / "ctrl-c.json"
    child = pexpect.spawn(
        CLI[0], [*CLI[1:], "play", "--plain", "--seed", "5", "--set", "max_deals=2"],
        encoding="utf-8", timeout=60, dimensions=(50, 160), env=child_env(),
    )
    try:
        child.expect("Ваш ход> ")
        child.sendline("300")
        child.expect("Так нельзя")
        child.expect("Ваш ход> ")
        child.sendline("hint")
        child.expect("Подсказка")
        child.expect("Ваш ход> ")
        child.sendline("²")
        child.expect("Не понял «²»")
        child.expect("Ваш ход> ")
        child.sendline("[/]")
        child.expect(re.escape("Не понял «[/]»"))
        for _ in range(6):
            child.expect("Ваш ход> ")
            child.sendline("1")
        # the prompt is written by the read of the line itself (input()), so once it is
        # seen the game waits for the line: no clock, however loaded the machine
        child.expect("Ваш ход> ")
        child.sendintr()  # Ctrl-C
        child.expect(r"Сохранить копию игры в другой файл\? \[д/н\]")
        child.sendline("д")
        child.expect("Файл")
        child.sendline(str(save))
        child.expect("Игра сохранена")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert save.exists()
    replay(saved_record(save))


def test_pseudo_terminal_whole_game(tmp_path: Path) -> None:
    """In a terminal, a whole game to the end; the saved record replays as finished."""
    save = tmp_path / "pty.json"
    out = play_pty(["--seed", "6", "--set", "max_deals=1", "--save", str(save)],
                   lambda chunk: "1")
    assert "Игра окончена" in out and "Игра сохранена" in out
    assert out.count("Разобрать партию? [д/Н]") == 1  # the offer of the analysis
    assert save.exists()
    assert replay(saved_record(save)).finished


def test_ctrl_c_while_a_bot_thinks_offers_to_save(tmp_path: Path) -> None:
    """Ctrl-C while a bot thinks (before the person's first move) offers to save; the
    record saved is the unfinished game.  The first dealer is fixed here (seat 1), so seat
    2 opens the auction before the person."""
    from rich.console import Console

    from thousand.bots import make_bot
    from thousand.engine.view import View
    from thousand.terminal import TerminalGame

    class Interrupted:
        def choose(self, view: View) -> int:
            raise KeyboardInterrupt

    save = tmp_path / "interrupted.json"
    answers_ = iter(["y", str(save)])  # Вова (seat 2) bids before the human
    out = io.StringIO()
    table = Table(Rules(), ["Вы", "Боря", "Вова"], first_dealer=1, seed=5)
    session = TerminalGame(
        table, {1: make_bot("heuristic", 1), 2: Interrupted()}, human=0,
        console=Console(file=out, width=120), input_fn=lambda prompt: next(answers_),
    )
    assert session.run() == 0
    assert "Игра сохранена" in out.getvalue()
    assert not replay(saved_record(save)).finished


@pytest.mark.parametrize(("args", "lang", "word", "chosen"), [
    (["two"], "ru", "прикуп 1", 1),
    (["classic", "--set", "players=2", "--lang", "en"], "en", "second talon", 2),
])
def test_two_players_choose_a_talon_typed_and_see_the_other_at_the_end(
        tmp_path: Path, args: list[str], lang: str, word: str, chosen: int) -> None:
    """Two players, points 1, 3 and 6 (``thousand play two`` and ``classic --set
    players=2``), piped: the person bids 120 and is the declarer; the two talons lie face
    down with their numbers, a hint advises one, the talon is chosen with a typed word
    («прикуп 1», "second talon"), he takes its two cards and discards two; when the deal
    ends the other talon is turned over with its points to the defender, and the score
    sheet has two columns."""
    save = tmp_path / "two.json"
    lines = ["120", "hint", word, "1", "1", "1"] + ["1"] * 12
    p = run_play([*args, "--plain", "--seed", "4", "--set", "max_deals=1", "--no-analyse",
                  "--save", str(save)], lines)
    assert p.returncode == 0, p.stderr
    out = p.stdout
    deal = saved_record(save)["deals"][0]
    talons = [deal["talon"][:2], deal["talon"][2:]]  # point 8: talon 1, then talon 2
    assert deal["moves"][deal["moves"].index(f"talon {chosen}") - 2:][:2] == ["120", "pass"]

    def shown(cards: list[str]) -> str:
        return " ".join(card_label(parse_card(c), lang) for c in cards)

    taken, other = talons[chosen - 1], talons[2 - chosen]
    points = sum({"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}[c[0]] for c in other)
    if lang == "ru":
        assert "Выберите прикуп, не глядя: первый или второй." in out
        hint = r"Подсказка \(.+\): Возьмите (первый|второй) прикуп( — [^\[\n]+)? \[[12]\]"
        assert re.search(hint, out)
        assert "Прикупы: 1) рубашкой вверх; 2) рубашкой вверх" in out
        assert f"Прикупы: 1) {shown(taken)} — взят; 2) рубашкой вверх" in out
        assert "1) прикуп 1  2) прикуп 2" in out
        assert f"Вы берёте первый прикуп: {shown(taken)}" in out
        assert out.count("Вы кладёте в снос") == 2
        ending = f"Невзятый второй прикуп: {shown(other)} — {points} очк"
        sheet = re.search(r"^Запись — вдвоём\n.* Вы +Боря *$", out, re.MULTILINE)
    else:
        assert "Choose a talon, unseen: the first or the second." in out
        assert re.search(r"Hint \(.+\): Take the (first|second) talon( — [^\[\n]+)? \[[12]\]", out)
        assert "Talons: 1) face down; 2) face down" in out
        assert f"Talons: 1) face down; 2) {shown(taken)} — taken" in out
        assert f"You take the second talon: {shown(taken)}" in out
        ending = f"The first talon, not taken: {shown(other)} — {points} point"
        sheet = re.search(r"^Score sheet — classic\n.* You +Bob *$", out, re.MULTILINE)
    assert ending in out and out.index(ending) < out.index("Раздача окончена." if lang == "ru"
                                                           else "The deal is over.")
    assert sheet is not None, out[-800:]
    assert "Вова" not in out and "Vic" not in out  # nobody in a third place


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_play_help_lists_two_among_the_presets_of_both_ways_to_name_one(
        lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, 18: ``thousand play`` takes ``two``, as the argument and as --preset."""
    from thousand.cli import run as cli_run

    assert cli_run(["play", "--help", "--lang", lang]) == 0
    out = " ".join(capsys.readouterr().out.replace("│", " ").split())
    option = out.split("--preset", 1)[1].split("--plain", 1)[0]
    assert "two" in option and "casual" in option
