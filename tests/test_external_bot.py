"""External bots (thousand.bots.external; docs/bots.md "A bot in any language"): a program
that speaks JSON lines plays whole arena games, duplicate sets and `thousand arena --seat`;
whatever it does wrong (no answer in time, garbage, an illegal move, exiting) is logged on
one line, counted as its fault and answered by a legal fallback move, and no process it
started outlives the run."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from thousand.bots import BotError, register_bot
from thousand.bots.external import ExternalBot
from thousand.cli.common import seat_levels
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.record import replay
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.engine.view import View
from thousand.evaluation.arena import Referee, play_game, run_arena
from thousand.evaluation.duplicate import run_duplicate

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
RULES = Rules(max_deals=2)
SHORT = Rules(max_deals=1)

#: A test bot: it notes its pid in the directory argv[1], then plays by its mode argv[2].
BOT = """\
import json, os, sys, time
open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
mode = sys.argv[2]
if mode == "exit":
    sys.exit(3)
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "move_request":
        continue
    n += 1
    legal = msg["view"]["legal"]
    move = legal[0]
    if mode == "hang":
        open(os.path.join(sys.argv[1], f"asked-{os.getpid()}"), "w").close()
        time.sleep(3600)
    if mode == "slow" and n == 1:
        time.sleep(float(sys.argv[3]))
    if mode == "garbage" and n % 3 == 1:
        print("this is not json", flush=True)
        continue
    if mode == "illegal" and n % 3 == 1:
        move = next(m for m in ("contract 340", "AS", "pass", "KH") if m not in legal)
    print(json.dumps({"type": "move", "move": move, "version": msg["version"]}), flush=True)
"""


class Bots:
    """Commands for the test bot, and the processes they started."""

    def __init__(self, tmp: Path) -> None:
        self.script = tmp / "bot.py"
        self.script.write_text(BOT, encoding="utf-8")
        self.pids = tmp / "pids"
        self.pids.mkdir()

    def cmd(self, mode: str = "first", *args: str) -> str:
        argv = [sys.executable, str(self.script), str(self.pids), mode, *args]
        return "cmd:" + shlex.join(argv)

    def started(self) -> list[int]:
        return [int(p.name) for p in self.pids.iterdir() if p.name.isdigit()]

    def asked(self) -> int:
        """How many of the processes were asked for a move (and hang on it, mode hang)."""
        return sum(1 for p in self.pids.iterdir() if p.name.startswith("asked-"))

    def assert_all_gone(self, at_least: int = 1) -> None:
        pids = self.started()
        assert len(pids) >= at_least
        left = [pid for pid in pids if _alive(pid)]
        assert not left, f"processes left running (or unreaped): {left}"


def _alive(pid: int) -> bool:
    if os.path.isdir("/proc"):
        return os.path.exists(f"/proc/{pid}")  # a zombie is still there too
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def bots(tmp_path: Path) -> Bots:
    return Bots(tmp_path)


def assert_records_legal(save_dir: Path, n: int) -> None:
    """Every saved game replays move by move (replay checks each) and is finished."""
    files = sorted(save_dir.glob("*.json"))
    assert len(files) == n
    for f in files:
        assert replay(f.read_text(encoding="utf-8")).finished


def doc_block(lang: str, marker: str) -> str:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    blocks = re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)
    return next(b for b in blocks if marker in b)


# ------------------------------------------------------------------ playing


def test_python_bot_plays_whole_arena_games(bots: Bots, tmp_path: Path) -> None:
    """run_arena with a `cmd:` seat, in two processes: every game is played to its end
    with legal moves (the saved records replay), without a fault, one process a game,
    and every process is gone afterwards."""
    res = run_arena([bots.cmd(), "heuristic", "random"], 3, RULES, seed=1, jobs=2,
                    save_dir=str(tmp_path / "games"))
    assert res.games == 3 and res.bots[0].games == 3
    assert [(b.faults, b.fallback_moves) for b in res.bots] == [(0, 0)] * 3
    assert res.bots[0].label.startswith("cmd:")
    assert_records_legal(tmp_path / "games", 3)
    assert len(bots.started()) == 3
    bots.assert_all_gone(3)


def test_python_bot_plays_the_duplicate_arena(bots: Bots, tmp_path: Path) -> None:
    """run_duplicate with a `cmd:` seat: every set in every seating and whole games, no
    fault, report.json gives faults per bot, and no process is left."""
    out = tmp_path / "dup"
    rep = run_duplicate([bots.cmd(), "heuristic", "random"], 2, RULES, seed=1, games=1,
                        save_dir=str(out))
    assert len(rep.sets) == 2 and len(rep.games) == 3
    assert all(len(s.seatings) == 3 for s in rep.sets)
    summary = json.loads((out / "report.json").read_text(encoding="utf-8"))["summary"]
    assert [(b["faults"], b["fallback_moves"]) for b in summary["bots"]] == [(0, 0)] * 3
    assert len(bots.started()) == 2 * 3 + 3  # a process for every seating and game
    bots.assert_all_gone(9)


@pytest.mark.needs("node")
def test_the_javascript_bot_of_the_docs_plays_a_game(tmp_path: Path) -> None:
    """The JavaScript bot in docs/bots.md (taken from the page, so it cannot rot) plays a
    whole game without a fault."""
    script = tmp_path / "first.js"
    script.write_text(doc_block("js", "move_request"), encoding="utf-8")
    assert len(script.read_text(encoding="utf-8").strip().splitlines()) <= 10
    res = run_arena([f"cmd:node {shlex.quote(str(script))}", "heuristic", "random"], 1,
                    RULES, seed=2, save_dir=str(tmp_path / "games"))
    assert res.games == 1 and res.bots[0].faults == 0 and res.bots[0].fallback_moves == 0
    assert_records_legal(tmp_path / "games", 1)


def test_the_python_bot_of_the_docs_plays_a_game(tmp_path: Path) -> None:
    """The Python bot in docs/bots.md plays a whole game without a fault."""
    script = tmp_path / "first.py"
    script.write_text(doc_block("python", "move_request"), encoding="utf-8")
    assert len(script.read_text(encoding="utf-8").strip().splitlines()) <= 10
    command = "cmd:" + shlex.join([sys.executable, str(script)])
    res = run_arena(["random", command, "heuristic"], 1, RULES, seed=3)
    assert res.games == 1 and res.bots[1].faults == 0 and res.bots[1].fallback_moves == 0


# ------------------------------------------------------------------ faults


@pytest.mark.parametrize(("mode", "kind"), [
    ("hang", "timeout"), ("garbage", "malformed"), ("illegal", "illegal"), ("exit", "exited"),
])
def test_a_faulty_bot_is_logged_counted_and_replaced(
    bots: Bots, tmp_path: Path, capfd: pytest.CaptureFixture[str], mode: str, kind: str,
) -> None:
    """A bot that never answers, answers garbage, answers an illegal move, or exits at
    once: each failure is one stderr line naming the bot and the reason, counted as its
    fault; the fallback moves for it and the game ends with legal moves only; the process
    is gone afterwards."""
    res = run_arena([bots.cmd(mode), "heuristic", "random"], 1, SHORT, seed=2,
                    save_dir=str(tmp_path / "games"),
                    move_timeout=0.25 if mode == "hang" else 5.0)
    assert_records_legal(tmp_path / "games", 1)
    ext, heuristic, rnd = res.bots
    assert ext.faults >= 1 and ext.fallback_moves >= ext.faults
    assert heuristic.faults == rnd.faults == 0
    lines = [x for x in capfd.readouterr().err.splitlines() if x.startswith("fault:")]
    assert len(lines) == ext.faults
    for line in lines:
        assert line.startswith(f"fault: arena game 1, seat 0 ({ext.label}): {kind}: ")
        assert line.endswith(" instead")
    if mode == "exit":  # one fault; the fallback plays the rest of the game
        assert ext.faults == 1 and ext.fallback_moves > 1 and "status 3" in lines[0]
    else:
        assert ext.fallback_moves == ext.faults  # it kept its seat
    bots.assert_all_gone(1)


def test_a_late_answer_is_dropped_and_the_bot_plays_on(bots: Bots) -> None:
    """A bot too slow once is a timeout fault; its late answer (an old version) is dropped
    and its next answers are played (through play_game at a Table, with a referee)."""
    log: list[str] = []
    moves = [0, 0, 0]

    def count(game: Game, seat: int, move: int) -> None:
        moves[seat] += 1

    slow = ExternalBot(bots.cmd("slow", "0.6"), timeout=0.4)
    table = Table(SHORT, seed=5)
    referee = Referee(["slow", "random", "random"], seed=5, log=log.append)
    from thousand.bots import make_bot

    game = play_game(table, [slow, make_bot("random", 1), make_bot("random", 2)], count,
                     referee=referee)
    assert game.over
    assert referee.faults[0] >= 1 and all("timeout" in x for x in log)
    assert referee.fallback_moves[0] == referee.faults[0] < moves[0]
    bots.assert_all_gone(1)


class _Wrong:
    """An in-process bot that answers an illegal move every third turn and raises every
    fifth."""

    def __init__(self) -> None:
        self.n = 0

    def choose(self, view: View) -> Move:
        self.n += 1
        if self.n % 5 == 0:
            raise RuntimeError("a bug in the bot")
        if self.n % 3 == 0:
            return next(m for m in range(200) if m not in view.legal)
        return view.legal[0]


def test_an_illegal_move_of_any_bot_is_a_fault_not_an_abort(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """A registered (in-process) bot's illegal moves and exceptions are faults with a
    fallback in the arena, which plays on; play_game without a referee still raises."""
    register_bot("test-wrong", lambda seed: _Wrong())
    try:
        res = run_arena(["test-wrong", "heuristic", "random"], 2, SHORT, seed=4)
        assert res.games == 2 and res.bots[0].faults >= 2
        err = capfd.readouterr().err
        assert "(test-wrong): illegal: " in err and "(test-wrong): error: RuntimeError" in err
        with pytest.raises(BotError):
            play_game(Game(SHORT, seed=4), [_Wrong(), _Wrong(), _Wrong()])
    finally:
        from thousand.bots import _DESCRIPTIONS, _REGISTRY

        _REGISTRY.pop("test-wrong", None)
        _DESCRIPTIONS.pop("test-wrong", None)


def test_processes_are_stopped_when_the_run_is_interrupted(bots: Bots) -> None:
    """Ctrl-C (SIGINT, a KeyboardInterrupt) while the arena waits for a bot's answer stops
    and reaps every process of the game."""
    players = [ExternalBot(bots.cmd("hang")) for _ in range(3)]
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    stop = threading.Event()

    def interrupt_once_all_started() -> None:
        """Ctrl-C once the three processes run and the first was asked for its move, so
        that the arena waits for its answer (not after a fixed time: on a busy machine the
        third may not have started yet; and a Ctrl-C while the arena is still starting a
        process may land before the arena holds it: a loaded run once left one running)."""
        deadline = time.monotonic() + 120
        while not stop.is_set() and time.monotonic() < deadline:
            if len(bots.started()) >= 3 and bots.asked():
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.02)

    timer = threading.Thread(target=interrupt_once_all_started, daemon=True)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            play_game(Table(RULES, seed=1), players, referee=Referee(["a", "b", "c"]))
    finally:
        stop.set()
        signal.signal(signal.SIGINT, previous)
    bots.assert_all_gone(3)


# ------------------------------------------------------------------ the command line


def test_seats_from_bots_and_seat_options(bots: Bots) -> None:
    """--seat N=BOT replaces seat N of --bots, or --bots fills the seats left free; a bad
    seat, a program that is not there, or a command in --bots is refused."""
    cmd = bots.cmd()
    assert seat_levels(["heuristic", "random", "random"], [f"2={cmd}"], 3) == [
        "heuristic", "random", cmd]
    assert seat_levels(["heuristic", "random"], [f"0={cmd}"], 3) == [cmd, "heuristic", "random"]
    for bad, why in (([f"3={cmd}"], "from 0 to 2"), ([cmd], "N=BOT"),
                     (["1=cmd:no-such-program-here"], "cannot find"),
                     (["1=random", "1=heuristic"], "twice")):
        with pytest.raises(ValueError, match=why):
            seat_levels(["heuristic", "random", "random"], bad, 3)
    with pytest.raises(ValueError, match="seats --seat leaves free"):
        seat_levels(["heuristic"], [f"0={cmd}"], 3)


def test_arena_command_with_external_seats(bots: Bots, tmp_path: Path) -> None:
    """`thousand arena --seat 2=cmd:...` and `--duplicate` with a faulty bot: the run
    ends, the table and report.json give the faults per bot, stderr has a line for each."""
    p = subprocess.run(
        [*CLI, "arena", "--seat", f"2={bots.cmd()}", "-n", "2",
         "--set", "max_deals=2", "--seed", "1", "--quiet"],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "faults" in p.stdout and "fallback moves" in p.stdout and "cmd:" in p.stdout
    out = tmp_path / "dup"
    p = subprocess.run(
        [*CLI, "arena", "--duplicate", "--bots", "heuristic,random", "--seat",
         f"1={bots.cmd('garbage')}", "-n", "2", "--seed", "1", "--quiet", "--save", str(out),
         "--move-timeout", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    summary = json.loads((out / "report.json").read_text(encoding="utf-8"))["summary"]
    faults = [b["faults"] for b in summary["bots"]]
    assert faults[0] == faults[2] == 0 and faults[1] > 0
    assert p.stderr.count("fault: duplicate set ") == faults[1]
    assert "malformed" in p.stderr
    p = subprocess.run([*CLI, "arena", "--seat", "1=cmd:no-such-program-here", "-n", "1"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "cannot find the program" in p.stderr
    bots.assert_all_gone(2 + 6)
