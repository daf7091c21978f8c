"""The save of ``thousand play`` after every move (thousand.terminal.autosave): unseeded
saves that replay and verify, a game killed by SIGTERM or SIGHUP and resumed with no move
lost, atomic writes, a save that does not show the hands at a glance, the errors of
``--resume`` in Russian and English, and the full-screen table saving after a move.

Each test has its own data folder (``XDG_DATA_HOME``), never the user's."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from thousand.cli import run as cli_run
from thousand.engine.record import MAX_SEED, RecordError, load_record, unseal_record
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.terminal.autosave import (
    Autosave,
    SaveError,
    last_unfinished,
    load_save,
    read_save,
    save_text,
    saves_dir,
    write_atomic,
)
from thousand.terminal.session import Seats, make_bots

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
PROMPT = {"ru": "Ваш ход> ", "en": "Your move> "}
#: A card in record notation, as a hand or a talon lists it.
CARD = re.compile(r'"(?:9|J|Q|K|T|A)[SCDH]"')


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "data-home"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def play(args: list[str], lines: list[str]) -> subprocess.CompletedProcess[str]:
    """``thousand ARGS`` with ``lines`` piped in (this process's environment, given whole:
    a ``COLUMNS`` in the C environment underneath would fold the lines)."""
    data = ("\n".join(lines) + "\n").encode("utf-8")
    p = subprocess.run([*CLI, *args], input=data, capture_output=True, timeout=120,
                       env=dict(os.environ))
    return subprocess.CompletedProcess(p.args, p.returncode, p.stdout.decode("utf-8"),
                                       p.stderr.decode("utf-8"))


def record_of(path: Path) -> dict[str, Any]:
    """The whole record in a save, its sealed part put back."""
    return unseal_record(json.loads(path.read_text(encoding="utf-8")))


def moves_of(path: Path) -> list[list[str]]:
    return [deal["moves"] for deal in record_of(path)["deals"]]


def mid_deal_table(seed: int | None = 3, moves: int = 4) -> Table:
    """A classic table a few moves into its first deal."""
    table = Table(Rules(), ["Вы", "Боря", "Вова"], seed=seed)
    for _ in range(moves):
        seat = table.to_move
        assert seat is not None
        table.submit(seat, table.view_json(seat)["legal"][0], table.version)
    return table


# ------------------------------------------------------------------ the seed's digits


def test_an_unseeded_game_saves_replays_and_verifies(tmp_path: Path) -> None:
    """Issue 15.1: a game started without ``--seed`` has a 128-bit seed (up to 39 digits);
    its save — mid-game and finished — replays (``thousand replay``) and the finished one
    verifies (``thousand verify``: every deal's commitment)."""
    mid = tmp_path / "mid.json"
    p = play(["play", "--plain", "--save", str(mid)], ["1", "quit", "n"])
    assert p.returncode == 0, p.stderr
    done = tmp_path / "done.json"
    p = play(["play", "--plain", "--set", "max_deals=1", "--save", str(done)], ["1"] * 200)
    assert p.returncode == 0, p.stderr
    seed = record_of(done)["seed"]
    assert len(str(seed)) > 20  # what the old bound refused (1 in 10**18 to be shorter)
    for path in (mid, done):
        r = play(["replay", str(path), "--json"], [])
        assert r.returncode == 0, r.stderr
    assert json.loads(play(["replay", str(done), "--json"], []).stdout)["winner"] is not None
    v = play(["verify", str(done)], [])
    assert v.returncode == 0, v.stdout + v.stderr
    assert "all 1 deal verified" in v.stdout


def test_only_the_seed_has_39_digits() -> None:
    """The top-level seed takes every number below 2**128 (39 digits); every other number
    stays at 20 digits, and a seed of 40 digits is refused before JSON reads it."""
    record = mid_deal_table().to_record(with_seed=True)
    record["seed"] = MAX_SEED - 1
    assert load_record(json.dumps(record)).seed == MAX_SEED - 1
    record["seed"] = MAX_SEED
    with pytest.raises(RecordError, match="is not a seed"):
        load_record(json.dumps(record))
    text = json.dumps({**record, "seed": 7})
    with pytest.raises(RecordError, match="a number of 40 digits"):
        load_record(text.replace('"seed": 7', '"seed": ' + "9" * 40))
    dealer = f'"first_dealer": {record["first_dealer"]}'
    with pytest.raises(RecordError, match="a number of 21 digits; a record's numbers have "
                                          "at most 20"):
        load_record(text.replace(dealer, '"first_dealer": ' + "1" * 21))


# ------------------------------------------------------------------ killed and resumed


def _kill_and_resume(signum: int, lang: str, tmp_path: Path) -> None:
    """Three moves of the person in a pseudo-terminal, the signal at the fourth prompt, then
    ``thousand play --resume`` (no file) and ``quit``: the resumed game's record holds
    exactly the moves of the same game played without a kill to the same point."""
    import pexpect
    args = ["--seed", "11", "--lang", lang]
    twin = tmp_path / "twin.json"
    p = play(["play", "--plain", *args, "--save", str(twin)], ["1", "1", "1", "quit", "n"])
    assert p.returncode == 0, p.stderr
    child = pexpect.spawn(CLI[0], [*CLI[1:], "play", "--plain", *args], encoding="utf-8",
                          timeout=60, dimensions=(40, 200), env=dict(os.environ))
    try:
        for _ in range(3):
            child.expect_exact(PROMPT[lang])
            child.sendline("1")
        child.expect_exact(PROMPT[lang])
        child.kill(signum)
        child.expect_exact("thousand play --resume")
        child.expect(pexpect.EOF)
        said = child.before or ""
    finally:
        child.close()
    assert child.exitstatus == 128 + signum, (child.exitstatus, child.signalstatus, said)
    saved = last_unfinished()
    assert saved is not None and saved.parent == saves_dir()
    resumed = play(["play", "--plain", "--resume"], ["quit", "n"])
    assert resumed.returncode == 0, resumed.stderr
    assert PROMPT[lang] in resumed.stdout  # the game went on, in its own language
    assert moves_of(saved) == moves_of(twin)
    assert sum(len(m) for m in moves_of(saved)) > 3


def test_sigterm_mid_deal_then_resume_loses_no_move(tmp_path: Path) -> None:
    _kill_and_resume(signal.SIGTERM, "ru", tmp_path)


def test_sighup_mid_deal_then_resume_loses_no_move(tmp_path: Path) -> None:
    _kill_and_resume(signal.SIGHUP, "en", tmp_path)


def test_every_move_is_saved_and_a_finished_game_is_not_resumed(tmp_path: Path) -> None:
    """At every prompt the file holds the table as it stands (the bots' moves and the
    person's); once the game is over the save says so, and ``--resume`` with no file
    passes it over."""
    from rich.console import Console

    from thousand.terminal.session import TerminalGame

    rules = Rules.preset_rules("classic", max_deals=1)
    table = Table(rules, ["Вы", "Боря", "Вова"], seed=4)
    bots, levels = make_bots(table, ["random"], 0, 4)
    path = tmp_path / "every.json"
    seen: list[int] = []

    def answer(prompt: str) -> str:
        assert load_save(path.read_text(encoding="utf-8")).table.version == table.version
        seen.append(table.version)
        return "1"

    game = TerminalGame(table, bots, 0, console=Console(file=io.StringIO()),
                        input_fn=answer, levels=levels,
                        autosave=Autosave(str(path), 0, levels, "ru", False))
    assert game.run() == 0
    assert table.over and len(seen) > 5
    assert json.loads(path.read_text(encoding="utf-8"))["finished"] is True
    assert last_unfinished(tmp_path) is None


# ------------------------------------------------------------------ atomic writes


def test_the_save_is_replaced_whole_never_written_in_place(tmp_path: Path) -> None:
    """Each save is a new file renamed over the old one (its inode changes, no temporary
    file stays); a reader reading all the while only ever sees a complete save; a write
    that fails leaves the old save as it was."""
    table = mid_deal_table()
    path = tmp_path / "atomic.json"
    first = save_text(table, 0, {1: "random", 2: "random"})
    write_atomic(path, first)
    inode = path.stat().st_ino
    write_atomic(path, first)
    assert path.stat().st_ino != inode
    texts = []
    for _ in range(6):  # saves of different lengths
        seat = table.to_move
        assert seat is not None
        table.submit(seat, table.view_json(seat)["legal"][0], table.version)
        texts.append(save_text(table, 0, {1: "random", 2: "random"}))
    stop = threading.Event()
    bad: list[str] = []

    def reader() -> None:
        while not stop.is_set():
            text = path.read_text(encoding="utf-8")
            try:
                load_save(text)
            except SaveError as e:
                bad.append(str(e))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for i in range(120):
            write_atomic(path, texts[i % len(texts)])
    finally:
        stop.set()
        thread.join()
    assert bad == []
    assert [p.name for p in tmp_path.iterdir()] == ["atomic.json"]
    before = path.read_bytes()
    with pytest.raises(UnicodeEncodeError):
        write_atomic(path, "\ud800")  # cannot be written: fails before the rename
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["atomic.json"]


# ------------------------------------------------------------------ not readable at a glance


def test_the_hands_in_play_are_not_in_plain_text_and_old_saves_still_read(
    tmp_path: Path,
) -> None:
    """A save mid-deal holds no card in record notation and no seed in the open (the deal
    and the seed are sealed: base64 of zlib'd JSON); it resumes to the same table, and
    ``thousand replay`` reads it.  A finished game is open whole; a save of the first form
    (version 1, the record open) is still read by both."""
    table = mid_deal_table(seed=None)
    text = save_text(table, 0, {1: "random", 2: "random"})
    hand = table.view_json(0)["hand"]
    assert hand and not CARD.search(text), text  # no "9S", "KH"… (base64 is unquoted)
    assert str(table.seed) not in text
    obj = json.loads(text)
    assert obj["version"] == 2 and obj["finished"] is False and obj["record"]["deals"] == []
    assert unseal_record(obj)["deals"] == table.to_record()["deals"]
    assert load_save(text).table.view_json(0) == table.view_json(0)
    path = tmp_path / "sealed.json"
    path.write_text(text, encoding="utf-8")
    assert play(["replay", str(path), "--json"], []).returncode == 0

    old = {"format": "thousand-save", "version": 1, "human": 0, "bots": [None, "random",
           "random"], "lang": "en", "open": False, "table_version": table.version,
           "record": table.to_record(with_seed=True)}
    old_path = tmp_path / "old.json"
    old_path.write_text(json.dumps(old), encoding="utf-8")
    assert read_save(str(old_path)).table.view_json(0) == table.view_json(0)
    assert play(["replay", str(old_path), "--json"], []).returncode == 0

    over = Table(Rules.preset_rules("classic", max_deals=1), ["Вы", "Боря", "Вова"], seed=2)
    while not over.over:
        seat = over.to_move
        assert seat is not None
        over.submit(seat, over.view_json(seat)["legal"][0], over.version)
    done = json.loads(save_text(over, 0, {1: "random", 2: "random"}))
    assert "sealed" not in done and done["finished"] is True
    assert done["record"]["deals"][0]["hands"] and done["record"]["seed"] == 2


# ------------------------------------------------------------------ errors of --resume


def _resume_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    code = cli_run(["play", "--plain", *args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err.strip()


def test_resume_errors_in_russian_and_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A missing file, a directory, a file that is not a save, a damaged sealed part, a
    finished game, and nothing to resume: one line each, in Russian by default and in
    English with ``--lang en``; exit status 2."""
    missing = str(tmp_path / "none.json")
    junk = tmp_path / "junk.json"
    junk.write_text("это не сохранение", encoding="utf-8")
    damaged = tmp_path / "damaged.json"
    obj = json.loads(save_text(mid_deal_table(), 0, {1: "random", 2: "random"}))
    obj["sealed"] = obj["sealed"][:-12] + "AAAA"
    damaged.write_text(json.dumps(obj), encoding="utf-8")
    finished = tmp_path / "finished.json"
    p = play(["play", "--plain", "--seed", "2", "--set", "max_deals=1", "--save",
              str(finished)], ["1"] * 200)
    assert p.returncode == 0, p.stderr
    cases = [
        ([missing], f"ошибка: {missing}: такого файла нет",
         f"error: {missing}: no such file"),
        ([str(tmp_path)], f"ошибка: {tmp_path}: это папка, а не сохранение",
         f"error: {tmp_path}: is a directory, not a save"),
        ([str(junk)], f"ошибка: {junk}: это не сохранение игры (",
         f"error: {junk}: not a save: "),
        ([str(damaged)], f"ошибка: {damaged}: сохранение повреждено (sealed: ",
         f"error: {damaged}: the save is damaged: sealed: "),
        ([str(finished)], f"ошибка: {finished}: эта партия уже окончена — продолжать нечего",
         f"error: {finished}: this game is over: there is nothing to resume"),
        ([], f"ошибка: продолжать нечего: в {saves_dir()} нет незаконченных партий",
         f"error: nothing to resume: no unfinished game in {saves_dir()}"),
    ]
    for args, ru, en in cases:
        assert _resume_error(capsys, ["--resume", *args]).startswith(ru)
        assert _resume_error(capsys, ["--resume", *args, "--lang", "en"]).startswith(en)
    # options the save already says
    said = _resume_error(capsys, ["--resume", str(finished), "--bots", "random"])
    assert said == "ошибка: --resume берёт правила, ботов и места из сохранения; уберите --bots"


# ------------------------------------------------------------------ the full-screen table


def test_full_screen_table_saves_after_a_move_and_stops_on_sigterm(tmp_path: Path) -> None:
    """The Textual table writes the autosave after the person's move and the bots' (the
    file holds the table's version), says where at the start, and SIGTERM's handler ends
    it saved, with the resume line and the exit status 143."""
    from thousand.terminal.tui import ThousandApp

    table = Table(Rules(), ["Вы", "Боря", "Вова"], seed=5)
    bots, levels = make_bots(table, ["random"], 0, 5)
    path = tmp_path / "tui.json"
    app = ThousandApp(table, Seats(table, bots, 0, levels=levels, hint_level="random"),
                      bot_delay=0, autosave=Autosave(str(path), 0, levels, "ru", False))

    async def go() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(400):
                await pilot.pause()
                if not app.busy and table.to_move == 0 and app.choices:
                    break
                await asyncio.sleep(0.005)
            before = table.version
            await pilot.press("enter")  # the picked move
            for _ in range(400):
                await pilot.pause()
                if table.version > before and not app.busy:
                    break
                await asyncio.sleep(0.005)
            assert table.version > before
            saved = load_save(path.read_text(encoding="utf-8"))
            assert saved.table.version == table.version
            assert saved.table.view_json(0) == table.view_json(0)
            assert any(str(path) in line for line in app.log_lines)
            app._stop(signal.SIGTERM)
            await pilot.pause()

    asyncio.run(go())
    assert app.exit_status == 143
    assert "SIGTERM" in app.farewell[0] and str(path) in app.farewell[0]
    assert load_save(path.read_text(encoding="utf-8")).table.version == table.version


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_waits_for_the_move_and_its_save(signum: int) -> None:
    """Inside a move and its save (SignalGuard.critical) a signal is held until the section
    ends, then raised: SIGTERM/SIGHUP as Stopped, SIGINT as KeyboardInterrupt; outside
    one it is raised at once.  The old handlers are back afterwards."""
    from thousand.terminal.autosave import SignalGuard, Stopped

    before = signal.getsignal(signum)
    guard = SignalGuard()
    expected: type[BaseException] = KeyboardInterrupt if signum == signal.SIGINT else Stopped
    finished = []
    with guard.installed():
        with pytest.raises(expected), guard.critical():
            os.kill(os.getpid(), signum)
            for _ in range(1000):  # the handler has run by now, and held it
                pass
            finished.append(True)
        assert finished == [True]
        with pytest.raises(expected):
            os.kill(os.getpid(), signum)
            for _ in range(100_000):
                pass
            finished.append(False)
    assert finished == [True]
    assert signal.getsignal(signum) == before


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_help_names_the_folder_of_the_saves(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``thousand play --help`` says where the games are saved (the data folder)."""
    monkeypatch.setenv("COLUMNS", "400")  # the path on one line
    p = play(["play", "--help", "--lang", lang], [])
    assert p.returncode == 0, p.stderr
    joined = re.sub(r"[\s│]*\n[\s│]*", "", p.stdout)  # lines folded inside the path too
    assert str(saves_dir()) in joined, p.stdout


def test_resuming_a_bare_record_leaves_it_as_it_is(tmp_path: Path) -> None:
    """``--resume RECORD`` of a bare game record (a server's, say) plays on from it but
    saves into a new file of the data folder: the record itself is never overwritten."""
    record = tmp_path / "record.json"
    record.write_text(json.dumps(mid_deal_table(seed=9, moves=2).to_record(with_seed=True)),
                      encoding="utf-8")
    before = record.read_bytes()
    p = play(["play", "--plain", "--resume", str(record)], ["1", "quit", "n"])
    assert p.returncode == 0, p.stderr
    assert record.read_bytes() == before
    saved = last_unfinished()
    assert saved is not None and str(saved) in p.stdout
    assert sum(len(m) for m in moves_of(saved)) > 2


def test_a_sealed_part_that_unpacks_huge_or_wrong_is_a_record_error() -> None:
    """The sealed part is hostile input like any record: one that unpacks past 10 MB (a
    zlib bomb), is not base64, or holds keys a sealed part has not, is a RecordError,
    read in bounded memory."""
    import base64
    import zlib

    obj = json.loads(save_text(mid_deal_table(), 0, {1: "random", 2: "random"}))
    for sealed, fragment in [
        (base64.b64encode(zlib.compress(b" " * 20_000_000)).decode(), "larger than 10 MB"),
        ("not base64!", "damaged: not the base64 of zlib data"),
        (base64.b64encode(zlib.compress(b'{"hands": []}')).decode(), "unknown key 'hands'"),
    ]:
        with pytest.raises(RecordError, match=fragment):
            load_record(json.dumps({**obj, "sealed": sealed}))


def test_a_two_player_save_after_the_talon_choice_keeps_the_other_talon_unseen() -> None:
    """Two players, points 3 and 8: saved right after the declarer took talon 2, the save
    shows no card in the open (the unchosen talon above all, which nobody may see before
    the deal ends) and resumes at the same version with the same choice, the other talon
    still hidden and the moves the same; the record lists the four talon cards and the
    move "talon 2" right after the auction."""
    table = Table(Rules.preset_rules("two"), ["Вы", "Боря"], seed=4)
    for _ in range(10):
        seat = table.to_move
        assert seat is not None
        view = table.view_json(seat)
        if view["phase"] == "talon choice":
            break
        table.submit(seat, "120" if "120" in view["legal"] else "pass", table.version)
    table.submit(table.to_move or 0, "talon 2", table.version)
    text = save_text(table, 0, {1: "heuristic"})
    assert not CARD.search(text), text
    saved = load_save(text)
    assert saved.levels == {1: "heuristic"} and saved.table.version == table.version
    for seat in (0, 1):
        view = saved.table.view_json(seat)
        assert view == table.view_json(seat)
        assert view["talon_choice"] == 2 and view["other_talon"] is None
    deal = unseal_record(json.loads(text))["deals"][0]
    assert len(deal["talon"]) == 4 and deal["moves"][-1] == "talon 2"
    assert deal["moves"][:-1] and all(m in ("pass", "120") or m.isdigit()
                                      for m in deal["moves"][:-1])


# ------------------------------------------------------------------ issue 28


def test_the_quit_dialog_says_the_game_is_saved_and_offers_a_copy(tmp_path: Path) -> None:
    """Issue 28, 15: with the autosave the game is saved already, so the full-screen
    dialog says so and offers a copy in a new file (as the line mode asks); «Нет» leaves
    with the autosave's file named and no copy written."""
    from thousand.terminal.tui import ThousandApp
    from thousand.terminal.tui.widgets import LeaveScreen

    table = mid_deal_table()
    path = tmp_path / "auto.json"
    app = ThousandApp(table, Seats(table, {}, 0), bot_delay=0,
                      autosave=Autosave(str(path), 0, {}, "ru", False))

    async def go() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.action_leave()
            for _ in range(400):
                await pilot.pause()
                if isinstance(app.screen, LeaveScreen):
                    break
            screen = app.screen
            assert isinstance(screen, LeaveScreen)
            assert "Сохранить игру перед выходом" not in screen._question
            assert "сохраняется после каждого хода" in screen._question
            assert f"Игра: {path}" in screen._where and "Копия: " in screen._where
            await pilot.press("н")
            for _ in range(400):
                await pilot.pause()
                if app.leaving:
                    break

    asyncio.run(go())
    assert app.saved is None  # no copy
    assert not any("Игра сохранена:" in line for line in app.farewell)
    assert any(str(path) in line for line in app.farewell)


def test_the_resume_command_is_the_one_the_game_was_started_with(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28, 16: after ``./run play`` (which sets THOUSAND_LAUNCHER) the hint names
    ``./run play --resume``; started as ``thousand`` it names ``thousand play``."""
    from thousand.terminal.autosave import LAUNCHER_ENV, resume_command

    monkeypatch.delenv(LAUNCHER_ENV, raising=False)
    assert resume_command("/x/y.json") == "thousand play --resume /x/y.json"
    monkeypatch.setenv(LAUNCHER_ENV, "./run")
    assert resume_command("/x/y.json") == "./run play --resume /x/y.json"
    assert _resume_error(capsys, ["--resume"]).endswith("Новая игра: ./run play")
    run = (Path(__file__).resolve().parent.parent / "run").read_text(encoding="utf-8")
    assert f'{LAUNCHER_ENV}="$0" exec .venv/bin/thousand' in run


def test_a_crash_of_the_full_screen_table_is_not_exit_status_0(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 28, 11: an exception inside the Textual app (its return code 1) makes
    ``thousand play`` fail, not exit 0 after the traceback."""
    from thousand.terminal.tui import ThousandApp

    def crashed(self: ThousandApp, *args: Any, **kwargs: Any) -> None:
        self._return_code = 1

    monkeypatch.setattr("thousand.cli.play_cmd.full_screen_possible", lambda: True)
    monkeypatch.setattr(ThousandApp, "run", crashed)
    assert cli_run(["play", "--seed", "3"]) == 1
