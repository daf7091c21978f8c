"""Tournaments (thousand.evaluation.tournament, ``thousand tournament``): points by place, byes,
round-robin and Swiss pairings, registration, and a quick bot ladder (docs/ratings.md)."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from thousand.engine.rules import Rules
from thousand.evaluation.tournament import (
    Tournament,
    TournamentError,
    TournamentResult,
    bye_points,
    run_tournament,
    table_points,
)
from thousand.site.ratings import Rating, rate_game

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]


def paired(n: int, rounds: int, fmt: str = "round-robin", k: int = 3,
           seed: int = 0) -> Tournament:
    """A tournament of ``n`` players with every round paired (Swiss rounds recorded with
    made-up scores, so the next one can be paired)."""
    t = Tournament(fmt, rounds, k, seed)
    for i in range(n):
        t.register(f"p{i}")
    t.start()
    for _ in range(rounds):
        r = t.next_round()
        for i, table in enumerate(r.tables):
            t.record(r.number, i, [hash((p, r.number)) % 997 for p in table])
    return t


def meetings(t: Tournament) -> list[int]:
    met: Counter[frozenset[str]] = Counter()
    for r in t.rounds:
        for table in r.tables:
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
    return [met[frozenset(p)] for p in itertools.combinations(t.players, 2)]


def test_points_by_place() -> None:
    assert table_points([1, 2, 3]) == [2, 1, 0]
    assert table_points([2, 1, 3]) == [1, 2, 0]
    assert table_points([1, 1, 3]) == [1.5, 1.5, 0]
    assert table_points([1, 2, 2]) == [2, 0.5, 0.5]
    assert table_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert table_points([1, 2, 2, 4]) == [3, 1.5, 1.5, 0]
    assert bye_points(3) == 1 and bye_points(4) == 1.5


@pytest.mark.parametrize(("n", "rounds", "k", "times"), [
    (9, 4, 3, 1),    # the affine plane of order 3: every pair exactly once
    (5, 10, 3, 3),   # every three of five at a table once: every pair three times
    (4, 4, 3, 2),    # every three of four once, one bye each
    (8, 7, 4, 3),    # tables of four
])
def test_round_robin_meets_every_pair_evenly(n: int, rounds: int, k: int, times: int) -> None:
    t = paired(n, rounds, k=k)
    assert set(meetings(t)) == {times}
    for r in t.rounds:  # every player plays or sits out, once a round
        seated = [p for table in r.tables for p in table] + r.byes
        assert sorted(seated) == sorted(t.players)
        assert all(len(table) == k for table in r.tables)
    byes = Counter(b for r in t.rounds for b in r.byes)
    assert len(set(byes.values())) <= 1 and sum(byes.values()) == rounds * (n % k)


def test_round_robin_with_byes_spreads_them() -> None:
    t = paired(7, 7)
    byes = Counter(b for r in t.rounds for b in r.byes)
    assert sorted(byes.values()) == [1] * 7
    assert set(meetings(t)) == {2}  # every pair twice: the Fano plane's lines, twice over
    six = paired(6, 4)  # six in four rounds: some pair twice, another never, at best
    assert max(meetings(six)) - min(meetings(six)) <= 2


def test_pairings_are_deterministic_from_the_seed() -> None:
    first = [r.tables for r in paired(10, 5, seed=3).rounds]
    assert first == [r.tables for r in paired(10, 5, seed=3).rounds]
    assert first != [r.tables for r in paired(10, 5, seed=4).rounds]


def test_swiss_pairs_by_standing() -> None:
    t = Tournament("swiss", 4, 3, seed=1)
    for i in range(9):
        t.register(f"p{i}")
    t.start()
    first = t.next_round()
    for i in range(len(first.tables)):
        t.record(1, i, [300, 200, 100])  # seat 0 first, seat 1 second, seat 2 third
    winners = {table[0] for table in first.tables}
    seconds = {table[1] for table in first.tables}
    second = t.next_round()
    # the three winners (who never met) at the top table, the seconds next, then the rest
    assert [set(table) for table in second.tables[:2]] == [winners, seconds]
    for i in range(len(second.tables)):
        t.record(2, i, [10 * i, 5, 0])
    # later rounds still avoid meeting again where they can: nine players, four rounds
    for number in (3, 4):
        r = t.next_round()
        for i in range(len(r.tables)):
            t.record(number, i, [i, 2 * i, 0])
    assert set(meetings(t)) == {1}
    standings = t.standings()
    assert [s.place for s in standings] == sorted(s.place for s in standings)
    assert standings[0].points >= standings[-1].points
    assert t.finished


def test_swiss_byes_go_to_the_lowest_without_one() -> None:
    t = Tournament("swiss", 3, 3, seed=2)
    for name in ("a", "b", "c", "d"):
        t.register(name)
    t.start()
    r1 = t.next_round()
    assert len(r1.byes) == 1 and len(r1.tables) == 1
    t.record(1, 0, [100, 50, 0])
    last = r1.tables[0][2]
    r2 = t.next_round()
    # the bye of round 1 scored a seat's mean (1 point): above the table's last (0)
    assert r2.byes == [last]
    line = {s.name: s for s in t.standings()}
    assert line[r1.byes[0]].points == 1 and line[r1.byes[0]].byes == 1
    assert line[r1.byes[0]].games == 0


def test_registration_and_mistakes() -> None:
    t = Tournament("swiss", 2)
    t.register("  Аня  ")
    t.register("Боря")
    with pytest.raises(TournamentError, match="registered already"):
        t.register("аня")
    with pytest.raises(TournamentError, match="not started"):
        t.next_round()
    with pytest.raises(TournamentError) as few:
        t.start()
    assert few.value.text("ru") == "2 игрока записаны, а за столом нужно 3"
    assert str(few.value) == "2 players are registered; a table needs 3"
    t.register("Вера")
    t.start()
    assert t.players == ["Аня", "Боря", "Вера"]
    with pytest.raises(TournamentError, match="registration is closed"):
        t.register("Гена")
    t.next_round()
    with pytest.raises(TournamentError, match="round 1 has unfinished tables"):
        t.next_round()
    t.record(1, 0, [1, 2, 3])
    with pytest.raises(TournamentError, match="recorded already"):
        t.record(1, 0, [1, 2, 3])
    t.next_round()
    with pytest.raises(TournamentError, match="2 scores for a table of 3"):
        t.record(2, 0, [1, 2])
    with pytest.raises(TournamentError, match="a whole number, not '7'"):
        t.record(2, 0, [1, 2, "7"])
    with pytest.raises(TournamentError, match=r"winners \[3\] are not seats"):
        t.record(2, 0, [1, 2, 3], winners=3)
    with pytest.raises(TournamentError, match="all 2 rounds are paired"):
        t.next_round()
    with pytest.raises(TournamentError, match="round-robin or swiss"):
        Tournament("knockout")
    with pytest.raises(TournamentError, match="3 or 4 players"):
        Tournament("swiss", 2, table_size=2)


def test_a_winner_is_placed_first_and_points_follow() -> None:
    t = Tournament("round-robin", 1)
    for name in ("a", "b", "c"):
        t.register(name)
    t.start()
    r = t.next_round()
    # the declarer at seat 1 reached 1000 and won although seat 0 went further
    res = t.record(1, 0, [1010, 1000, 300], winners=1)
    assert res.places == (2, 1, 3) and res.points == (1, 2, 0)
    assert t.standings()[0].name == r.tables[0][1]


def test_duplicate_standings_go_by_the_difference_from_the_same_seat() -> None:
    """Issue 31: in a duplicate tournament a player's score is his table's final score
    less the mean of the others' who sat in his seat at the round's other tables (who
    held the same cards); the standings go by it before the points."""
    t = Tournament("round-robin", 1, 3, seed=0, scoring="duplicate")
    for i in range(6):
        t.register(f"p{i}")
    t.start()
    a, b = t.next_round().tables
    t.record(1, 0, [300, 100, 0])
    t.record(1, 1, [200, 100, 50])
    want = {a[0]: 100.0, b[0]: -100.0, a[1]: 0.0, b[1]: 0.0, a[2]: -50.0, b[2]: 50.0}
    standings = t.standings()
    assert {s.name: s.duplicate for s in standings} == want
    assert [s.name for s in standings][:2] == [a[0], b[2]]  # b[2] was last at its table
    assert [s.name for s in standings][-2:] == [a[2], b[0]]  # b[0] won its table
    assert [s.place for s in standings] == [1, 2, 3, 3, 5, 6]  # the seconds tie
    assert t.to_json()["scoring"] == "duplicate"
    by_places = paired(6, 1).standings()
    assert all(s.duplicate is None for s in by_places)


def test_duplicate_mistakes_in_both_languages() -> None:
    with pytest.raises(TournamentError) as bad:
        Tournament("swiss", 2, scoring="knockout")
    assert str(bad.value) == ("unknown tournament scoring 'knockout'; choose places or "
                              "duplicate")
    assert "неизвестный зачёт турнира 'knockout'" in bad.value.text("ru")
    t = Tournament("swiss", 2, scoring="duplicate")
    for name in ("a", "b", "c", "d", "e"):
        t.register(name)
    with pytest.raises(TournamentError) as few:
        t.start()
    assert str(few.value).startswith("5 players are registered; a duplicate tournament "
                                     "needs 6: two tables")
    assert few.value.text("ru").startswith("5 игроков записаны, а дубликатному турниру "
                                           "нужно 6: два стола")


def test_a_duplicate_bot_tournament_deals_every_table_of_a_round_alike() -> None:
    """The same seed at both tables of a round, and random bots seeded by their seat:
    the two tables play the same game, so every duplicate score is 0."""
    result = run_tournament(["random"] * 6, rounds=2, deals=1, seed=3, scoring="duplicate")
    t = result.tournament
    for r in t.rounds:
        assert len(r.tables) == 2 and r.results[0].scores == r.results[1].scores
    assert all(s.duplicate == 0 for s in t.standings())


@pytest.fixture(scope="module")
def ladder() -> TournamentResult:
    """The quick bot ladder: random, beginner and heuristic, 12 whole games."""
    return run_tournament(["random", "beginner", "heuristic"], rounds=12, seed=7)


def test_the_ladder_orders_the_bots(ladder: TournamentResult) -> None:
    standings = ladder.tournament.standings()
    assert [s.name for s in standings] == ["amateur", "beginner", "random"]  # heuristic
    shown = [ladder.ratings[s.name].after.display for s in standings]
    assert shown == sorted(shown, reverse=True)
    assert ladder.ratings["random"].delta < 0 < ladder.ratings["amateur"].delta
    assert ladder.family == "classic"


def test_the_tournament_rates_its_games_in_order(ladder: TournamentResult) -> None:
    t = ladder.tournament
    now = {p: Rating() for p in t.players}
    for r in t.rounds:
        res = r.results[0]
        for p, ch in zip(res.players, rate_game([now[p] for p in res.players],
                                                list(res.places)), strict=True):
            now[p] = ch.after
    assert {p: ladder.ratings[p].after for p in t.players} == now


def test_four_player_tables_with_a_bye_and_deals() -> None:
    rules = Rules.preset_rules("textbook")
    result = run_tournament(["random"] * 5, rounds=2, rules=rules, deals=1, seed=1,
                            format="swiss")
    t = result.tournament
    assert all(len(r.tables) == 1 and len(r.tables[0]) == 4 and len(r.byes) == 1
               for r in t.rounds)
    assert result.deals == 2 and all(r.results[0].deals == 1 for r in t.rounds)
    assert t.players == ["random 1", "random 2", "random 3", "random 4", "random 5"]


def test_jobs_change_only_the_speed() -> None:
    levels = ["random", "beginner", "random", "heuristic"]
    one = run_tournament(levels, rounds=4, deals=2, seed=5)
    two = run_tournament(levels, rounds=4, deals=2, seed=5, jobs=2)
    assert one.tournament.to_json() == two.tournament.to_json()
    assert one.ratings == two.ratings


def test_tournament_command() -> None:
    p = subprocess.run(
        [*CLI, "tournament", "--bots", "random,beginner,heuristic,random", "--rounds", "4",
         "--deals", "2", "--seed", "3", "--json"],
        capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert [r["round"] for r in out["pairings"]] == [1, 2, 3, 4]
    assert {s["name"] for s in out["standings"]} == {"random 1", "random 2", "beginner",
                                                     "amateur"}  # heuristic (issue 28, 9)
    assert all(s["byes"] == 1 and s["games"] == 3 for s in out["standings"])
    assert out["family"] is None  # two deals a table is not a game the site rates
    assert all("display" in s["rating"] for s in out["standings"])


def test_tournament_command_plays_a_duplicate_tournament() -> None:
    """``--scoring duplicate``: both tables of the round are dealt the same cards, so each
    seat's two holders' duplicate scores are each other's opposites (the round sums to
    zero) and the standings go by them; the printed table has the column; a scoring that
    does not exist is refused in the language asked for."""
    bots = "random,random,random,random,random,random"
    p = subprocess.run([*CLI, "tournament", "--bots", bots, "--rounds", "1", "--deals", "1",
                        "--seed", "5", "--scoring", "duplicate", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    standings = out["standings"]
    assert out["scoring"] == "duplicate" and len(standings) == 6
    assert all(s["duplicate"] is not None for s in standings)
    assert abs(sum(s["duplicate"] for s in standings)) < 1e-9
    assert [s["duplicate"] for s in standings] == sorted(
        (s["duplicate"] for s in standings), reverse=True)
    printed = subprocess.run([*CLI, "tournament", "--bots", bots, "--rounds", "1",
                              "--deals", "1", "--seed", "5", "--scoring", "duplicate",
                              "--lang", "ru", "--quiet"],
                             capture_output=True, text=True, timeout=120)
    assert printed.returncode == 0, printed.stderr
    assert "дубликат" in printed.stdout.lower()
    bad = subprocess.run([*CLI, "tournament", "--scoring", "mean", "--lang", "ru"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "зачёт" in bad.stderr, bad.stderr


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_tournament_command_prints_standings_that_fit(lang: str) -> None:
    env = {**os.environ, "COLUMNS": "80"}
    p = subprocess.run(
        [*CLI, "tournament", "--bots", "random,beginner,heuristic", "--rounds", "2",
         "--deals", "1", "--format", "swiss", "--lang", lang, "--quiet"],
        capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert max(len(line) for line in p.stdout.splitlines()) <= 80, p.stdout
    if lang == "ru":
        assert "любитель" in p.stdout and "рейтинг" in p.stdout
        assert "по швейцарской системе" in p.stdout and "2 тура" in p.stdout
    else:
        assert "amateur" in p.stdout and "rating" in p.stdout and "2 rounds" in p.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--bots", "random,random"], "2 bots for tables of 3"),
    (["--bots", "random,robot,random"], "unknown bot level 'robot'"),
    (["--deals", "2", "--games"], "--deals and --games"),
    (["--deals", "0"], "at least one deal"),
    (["--rounds", "0"], "from 1 to 1000 rounds"),
    (["--format", "knockout"], "unknown tournament format 'knockout'; choose round-robin"),
    (["--deals", "2", "--games", "--lang", "ru"], "ошибка: --deals и --games: выберите"),
    (["--rounds", "0", "--lang", "ru"], "в турнире от 1 до 1000 туров, а не 0"),
])
def test_tournament_command_errors(args: list[str], message: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input: one line that says what is wrong, exit status 2, no game played (run in
    this process: the command line's own entry point, without a process to start)."""
    from thousand.cli import run

    assert run(["tournament", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert err.startswith("ошибка: " if "--lang" in args else "error: ")
