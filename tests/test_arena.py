"""``thousand arena``: the table, the counting, --save (every record replays)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from thousand.engine.record import replay
from thousand.engine.rules import Rules
from thousand.evaluation.arena import run_arena

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
    # the heuristic bot by its English name for people, «amateur» (issue 28, 9)
    for word in ("amateur", "random 1", "random 2", "win % (95% CI)", "score/deal",
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
    from thousand.engine import moves as mv
    from thousand.evaluation.arena import _compulsory

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
    assert "amateur − random" in p.stdout  # the heuristic bot by its English name (issue 28)
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
    for word in ("бот", "партий", "победы, % (95% ДИ)", "очки/раздача", "ср. заказ",
                 "любитель, случайный, случайный — классика", "случайный 2"):
        assert word in out
    assert "heuristic" not in out and "random" not in out and "classic" not in out
    assert ("Слишком мало партий, чтобы сказать, кто сильнее: после 3 партий 95% интервалы "
            "перекрываются; сыграйте хотя бы 30.") in " ".join(out.split())
    assert "3 партии" in out and "games" not in out and "deals/s" not in out
    p = subprocess.run([*CLI, "arena", "-n", "0", "--lang", "ru"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "нужна хотя бы одна партия" in p.stderr


def test_verdict_comes_from_the_intervals_whatever_the_count() -> None:
    """Issue 15: a bot is called stronger when its 95% interval lies above every other
    bot's — 20 wins of 20 against none tells, though 20 games are few; overlapping
    intervals say "too few games" below 30 games and "overlap" from there on."""
    from thousand.evaluation.arena import MIN_SAMPLE, ArenaResult, SeatStats, verdict

    def result(games: int, wins: list[float]) -> ArenaResult:
        bots = [SeatStats(label=f"b{i}", level=f"b{i}", games=games, wins=w)
                for i, w in enumerate(wins)]
        return ArenaResult(bots, games=games)

    assert MIN_SAMPLE == 30
    assert verdict(result(20, [20, 0, 0])).startswith("b0 wins more often")
    assert verdict(result(20, [20, 0, 0]), "ru").startswith("b0 выигрывает чаще")
    assert "too few games" in verdict(result(29, [12, 9, 8])).lower()
    assert "после 29 партий" in verdict(result(29, [12, 9, 8]), "ru")
    assert "after 1 game " in verdict(result(1, [1, 0, 0]))  # 1 of 1: intervals overlap
    assert verdict(result(100, [90, 5, 5])).startswith("b0 wins more often")
    assert "overlap" in verdict(result(100, [40, 35, 25]))


@pytest.fixture(scope="module")
def lopsided() -> str:
    """One small arena whose table the width tests print at several widths."""
    return "--bots heuristic,random,random -n 4 --seed 1 --set max_deals=4 --quiet"


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_arena_table_fits_columns(columns: int, lang: str, lopsided: str) -> None:
    """Issue 15: the arena's table fits ``COLUMNS``: the columns that do not fit side by
    side go on in a further table that starts with the bot again, and no figure is cut."""
    import os

    env = {**os.environ, "COLUMNS": str(columns)}
    p = subprocess.run([*CLI, "arena", *lopsided.split(), "--lang", lang],
                       capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= columns, p.stdout
    assert "…" not in p.stdout
    rows = [line.split() for line in lines if line.strip().startswith(
        ("amateur", "любитель"))]
    assert len(rows) >= 2  # the bot starts every table
    cells = " ".join(" ".join(r) for r in rows)
    for figure in ("+", "%", "–"):  # score, rates, the interval
        assert figure in cells
    words = "made" if lang == "en" else "сыграно"
    assert words in p.stdout


def test_two_player_arena_rotates_the_seats_and_saves_replayable_records(
    tmp_path: Path,
) -> None:
    """Two players (RULES §4 "Two players"): a random and a beginner bot take turns in the
    two seats; every deal counts for both, wins add up to the games, and each saved record
    (its four-card talon, the talon chosen after the auction) replays."""
    from thousand.engine import moves as mv
    from thousand.engine.record import load_record

    two = Rules.preset_rules("two", max_deals=3)
    res = run_arena(["random", "beginner"], 4, two, seed=1, save_dir=str(tmp_path))
    rnd, beg = res.bots
    assert res.games == 4 and rnd.games == beg.games == 4
    assert sum(b.wins for b in res.bots) == 4
    assert rnd.deals == beg.deals == res.deals > 0
    assert rnd.declared + beg.declared <= res.deals
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4
    played = 0
    seatings = set()
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert replay(text).finished
        seatings.add(load_record(text).players)
        for deal in load_record(text).deals:
            assert len(deal.talons) == 2
            chosen = [i for i, m in enumerate(deal.moves) if mv.is_talon_choice(m)]
            assert len(chosen) <= 1
            if chosen:  # right after the auction (point 8)
                assert all(mv.is_bid(m) or m == mv.PASS for m in deal.moves[:chosen[0]])
                played += 1
    assert played > 0
    assert seatings == {("random", "beginner"), ("beginner", "random")}


def test_two_player_duplicate_arena_command() -> None:
    """`thousand arena --duplicate --preset two`: both seatings of each dealt set, the
    difference per deal with its 95% interval."""
    p = subprocess.run(
        [*CLI, "arena", "--duplicate", "--bots", "beginner,random", "--preset", "two",
         "-n", "3", "--seed", "3", "--quiet"],
        capture_output=True, text=True, timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert "beginner − random" in p.stdout and "95% CI" in p.stdout
    assert "3 sets × 2 seatings = 6 deals" in p.stdout
