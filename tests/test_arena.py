"""``thousand arena``: the table, the counting, --save (every record replays)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from thousand.bots.arena import run_arena
from thousand.record import replay
from thousand.rules import Rules

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]


def test_arena_command_prints_the_table_and_saves_records(tmp_path: Path) -> None:
    out_dir = tmp_path / "records"
    p = subprocess.run(
        [*CLI, "arena", "--bots", "heuristic,random,random", "-n", "4", "--seed", "1",
         "--set", "max_deals=10", "--jobs", "2", "--save", str(out_dir), "--quiet"],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for word in ("heuristic", "random 1", "random 2", "win % (95% CI)", "score/deal",
                 "declared", "made, contested", "contract", "deals/s"):
        assert word in out
    assert "faults" not in out  # shown only when a bot had one or a seat is a program
    files = sorted(out_dir.glob("*.json"))
    assert len(files) == 4
    for f in files:
        assert replay(f.read_text(encoding="utf-8")).finished


def test_arena_rejects_a_wrong_number_of_bots() -> None:
    p = subprocess.run([*CLI, "arena", "--bots", "heuristic,random", "-n", "1"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "one level per seat" in p.stderr


def test_shared_wins_count_fractionally() -> None:
    # max_deals=1 with rounding makes ties likely; whatever happens wins add up to games
    res = run_arena(["random", "random", "random"], 12, Rules(max_deals=1), seed=4)
    assert sum(b.wins for b in res.bots) == 12
    assert sum(b.games for b in res.bots) == 36


def test_compulsory_openings_are_told_apart() -> None:
    from thousand import moves as mv
    from thousand.bots.arena import _compulsory

    assert _compulsory([mv.bid(100), mv.PASS, mv.PASS, mv.give(0)])
    assert not _compulsory([mv.bid(100), mv.bid(105), mv.PASS, mv.PASS, mv.give(0)])
    assert not _compulsory([mv.DARK, mv.PASS, mv.PASS, mv.give(0)])
    assert not _compulsory([mv.give(0), mv.give(1)])  # a golden deal has no auction
    res = run_arena(["heuristic"] * 3, 3, Rules(max_deals=10), seed=1)
    for b in res.bots:
        assert 0 <= b.compulsory <= b.declared
        assert 0 <= b.contested_make_rate <= 1


def test_four_players_arena() -> None:
    res = run_arena(["heuristic", "random", "random", "beginner"], 2,
                    Rules.preset_rules("textbook", max_deals=6), seed=2)
    assert res.games == 2 and sum(b.deals for b in res.bots) == 3 * res.deals


def test_duplicate_arena_command(tmp_path: Path) -> None:
    """Issue 4: `thousand arena --duplicate` plays each dealt set in every seating and
    reports the deal score per bot with a 95% interval, and what one level gains."""
    p = subprocess.run(
        [*CLI, "arena", "--duplicate", "--bots", "heuristic,random,random", "-n", "4",
         "--seed", "3", "--quiet", "--save", str(tmp_path / "dup")],
        capture_output=True, text=True, timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "heuristic − random" in p.stdout
    assert "4 sets × 3 seatings = 12 deals" in p.stdout
    assert (tmp_path / "dup" / "sets.jsonl").exists()


def test_duplicate_options_need_duplicate() -> None:
    p = subprocess.run([*CLI, "arena", "--whole-games", "2", "-n", "1"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "--duplicate" in p.stderr


def test_arena_in_russian_and_honest_about_few_games() -> None:
    """``--lang ru``: the table, the notes and the pace in Russian; from fewer than 30
    games the report says it cannot tell who is stronger."""
    p = subprocess.run(
        [*CLI, "arena", "--bots", "heuristic,random,random", "-n", "3", "--seed", "2",
         "--set", "max_deals=6", "--quiet", "--lang", "ru"],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for word in ("бот", "партий", "победы, % (95% ДИ)", "очки/раздача", "ср. заказ"):
        assert word in out
    assert "Слишком мало партий, чтобы сказать, кто сильнее: 3; нужно хотя бы 30." in out
    assert "3 партии" in out and "games" not in out and "deals/s" not in out
    p = subprocess.run([*CLI, "arena", "-n", "0", "--lang", "ru"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "нужна хотя бы одна партия" in p.stderr


def test_verdict_needs_enough_games_and_separate_intervals() -> None:
    """A bot is called stronger only from 30 games on, and only when its 95% interval
    lies above every other bot's; otherwise the report says the intervals overlap."""
    from thousand.bots.arena import MIN_SAMPLE, ArenaResult, SeatStats, verdict

    def result(games: int, wins: list[float]) -> ArenaResult:
        bots = [SeatStats(label=f"b{i}", level="random", games=games, wins=w)
                for i, w in enumerate(wins)]
        return ArenaResult(bots, games=games)

    assert MIN_SAMPLE == 30
    assert "too few games" in verdict(result(29, [29, 0, 0])).lower()
    assert verdict(result(100, [90, 5, 5])).startswith("b0 wins more often")
    assert "overlap" in verdict(result(100, [40, 35, 25]))
    assert verdict(result(100, [90, 5, 5]), "ru").startswith("b0 выигрывает чаще")
