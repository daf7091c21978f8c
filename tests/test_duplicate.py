"""The duplicate arena (thousand.evaluation.duplicate), on a few sets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from thousand.engine.game import Game
from thousand.engine.rules import Rules
from thousand.evaluation.duplicate import (
    DuplicateReport,
    load_partial,
    mean_ci,
    play_set,
    report_lines,
    report_table,
    report_text,
    run_duplicate,
)


def test_every_rotation_gets_the_same_cards() -> None:
    """One set: three seatings; every bot sits in every seat once; a heuristic bot in the
    same seat with the same cards does the same thing, so its scores repeat by seat."""
    res = play_set(0, ["heuristic", "heuristic", "heuristic"], Rules(), seed=3)
    assert [s.rotation for s in res.seatings] == [0, 1, 2]
    by_seat = []
    for st in res.seatings:
        # entry e sits at seat (e + rotation) % 3
        by_seat.append(tuple(st.scores[(s - st.rotation) % 3] for s in range(3)))
    assert by_seat[0] == by_seat[1] == by_seat[2]


def test_a_level_in_the_same_seat_draws_the_same_dice() -> None:
    """Common random numbers: the random bot rolls with a seed of its seat, so three random
    bots play one set alike in every seating (with a seed per bot they would not)."""
    for index in range(3):
        res = play_set(index, ["random", "random", "random"], Rules(), seed=5)
        by_seat = [tuple(st.scores[(s - st.rotation) % 3] for s in range(3))
                   for st in res.seatings]
        assert by_seat[0] == by_seat[1] == by_seat[2]


def h_mean_less_randoms(s: Any) -> float:
    """A set's score of entry 0 less the mean of entries 1 and 2, over its seatings."""
    return (sum(x.scores[0] for x in s.seatings) / 3
            - sum(x.scores[1] + x.scores[2] for x in s.seatings) / 6)


def test_run_report_and_saved_log(tmp_path: Path) -> None:
    out = tmp_path / "run"
    rep = run_duplicate(["heuristic", "random", "random"], 6, Rules(), seed=1, games=1,
                        save_dir=str(out))
    assert len(rep.sets) == 6 and len(rep.games) == 3
    h, r1, _r2 = rep.entries()
    assert h.label == "amateur" and r1.label == "random 1"  # heuristic, for people
    assert h.seatings == 18 and h.games == 3
    assert h.mean > r1.mean  # random bots overbid and fail
    m, ci = rep.difference("heuristic", "random")
    assert m > 0 and ci > 0
    # each set's paired difference, the sample that runs at other tables can pool
    xs = rep.set_differences("heuristic", "random")
    assert len(xs) == 6
    assert xs[0] == pytest.approx(h_mean_less_randoms(rep.sets[0]))
    assert sum(xs) / 6 == pytest.approx(m)
    # the log and the report on disk
    assert (out / "report.json").exists() and (out / "report.txt").exists()
    again = load_partial(str(out / "sets.jsonl"))
    assert [s.index for s in again.sets] == list(range(6))
    assert again.entry(0).mean == pytest.approx(h.mean)
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert data["n_sets"] == 6 and data["summary"]["bots"][0]["label"] == "amateur"
    assert all(b["faults"] == b["fallback_moves"] == 0 for b in data["summary"]["bots"])
    back = DuplicateReport.from_json(rep.to_json())
    assert back.entry(1).mean == pytest.approx(r1.mean)
    text = report_text(rep)
    assert "amateur − random" in text and "deal score" in text
    assert "очки за раздачу" in report_text(rep, "ru")
    assert report_table(rep).row_count == 3
    assert "faults" not in text  # shown only when a bot had one or a seat is a program
    assert any("made" in line for line in report_lines(rep))


def test_a_log_written_before_faults_were_counted_loads() -> None:
    """A set or game saved without the faults fields (an older sets.jsonl) still loads."""
    rep = DuplicateReport.from_json({
        "levels": ["heuristic", "random", "random"], "rules": Rules().to_json(), "seed": 1,
        "sets": [{"index": 0, "seed": 5, "dealer": 0, "seatings": [
            {"rotation": 0, "scores": [1, 2, 3], "declarer": 0, "contract": 100,
             "made": True, "outcome": "played"}]}],
        "games": [{"index": 0, "rotation": 0, "wins": [1.0, 0.0, 0.0], "deals": 3}],
    })
    assert rep.entry(0).faults == 0 and rep.entry(0).fallback_moves == 0


def test_compulsory_openings_are_told_apart() -> None:
    rep = run_duplicate(["heuristic"] * 3, 12, Rules(), seed=3)
    seatings = [st for s in rep.sets for st in s.seatings]
    assert any(st.compulsory for st in seatings)
    assert all(st.contract is not None and st.contract >= 100 for st in seatings)
    assert rep.declarer_make_rate(contested_only=True)[2] < rep.declarer_make_rate()[2]


def test_resume_carries_on(tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    run_duplicate(["heuristic", "heuristic", "random"], 3, Rules(), seed=2, save_dir=out)
    rep = run_duplicate(["heuristic", "heuristic", "random"], 5, Rules(), seed=2,
                        save_dir=out, resume=True)
    assert [s.index for s in rep.sets] == list(range(5))
    full = run_duplicate(["heuristic", "heuristic", "random"], 5, Rules(), seed=2)
    assert [s.seatings for s in full.sets] == [s.seatings for s in rep.sets]
    with pytest.raises(ValueError, match="another run"):
        run_duplicate(["heuristic", "random", "random"], 5, Rules(), seed=2, save_dir=out,
                      resume=True)


def test_parallel_equals_serial_and_four_players() -> None:
    rules = Rules.preset_rules("textbook")
    levels = ["heuristic", "random", "heuristic", "random"]
    a = run_duplicate(levels, 3, rules, seed=4, jobs=2)
    b = run_duplicate(levels, 3, rules, seed=4, jobs=1)
    assert [s.seatings for s in a.sets] == [s.seatings for s in b.sets]
    assert len(a.sets[0].seatings) == 4
    with pytest.raises(ValueError, match="one bot per seat"):
        run_duplicate(["heuristic"], 1, rules)


def test_search_bot_in_the_duplicate_arena() -> None:
    rep = run_duplicate(["strong", "heuristic", "heuristic"], 1, Rules(), seed=5)
    assert len(rep.sets[0].seatings) == 3


def test_mean_ci() -> None:
    """The interval of a mean takes Student's t: two values are far less sure than 1.96
    standard errors say."""
    m, ci = mean_ci([1.0, 3.0])
    assert m == 2.0 and ci == pytest.approx(12.706 * 1.0)
    assert mean_ci([1.0, 3.0] * 50)[1] == pytest.approx((1.96 + 2.4 / 99) * 0.1005, rel=1e-3)
    assert mean_ci([])[1] == float("inf")


def test_difference_verdict_and_the_report_in_russian() -> None:
    """The duplicate report says which level is stronger only from 30 dealt sets on and
    when the 95% interval of the difference leaves out 0; the whole report reads in
    Russian with ``lang="ru"`` (counts agreed)."""
    from thousand.evaluation.duplicate import difference_verdict, report_lines

    # issue 15: an interval that leaves out 0 tells, whatever the number of sets
    assert difference_verdict("a", "b", 50.0, 10.0, 3) == "a is stronger than b"
    assert difference_verdict("a", "b", 50.0, 10.0, 30) == "a is stronger than b"
    assert difference_verdict("a", "b", -50.0, 10.0, 30) == "b is stronger than a"
    assert "too few deals" in difference_verdict("a", "b", 5.0, 10.0, 29)
    assert difference_verdict("a", "b", 5.0, 10.0, 300).startswith("no clear difference")
    assert difference_verdict("a", "b", 5.0, 10.0, 3, "ru").startswith("слишком мало раздач")
    assert "после 3 наборов" in difference_verdict("a", "b", 5.0, 10.0, 3, "ru")
    rep = run_duplicate(["heuristic", "random", "random"], 2, Rules(), seed=5)
    lines = report_lines(rep, "ru")
    assert lines[0].startswith("любитель − случайный: "), lines[0]
    assert "2 набора × 3 рассадки = 6 раздач" in lines[-1]
    text = report_text(rep, "ru")
    assert "любитель" in text and "случайный 2" in text and "seed" not in text


def _captured_games(monkeypatch: pytest.MonkeyPatch) -> list[Game]:
    """The games the duplicate arena plays, as it plays them."""
    import thousand.evaluation.duplicate as dup

    games: list[Game] = []
    play = dup.play_game

    def keep(game: Game, *args: Any, **kwargs: Any) -> Game:
        games.append(play(game, *args, **kwargs))
        return games[-1]

    monkeypatch.setattr(dup, "play_game", keep)
    return games


@pytest.mark.parametrize("levels", [["random", "random"], ["random", "beginner"]])
def test_two_players_play_both_seatings_of_the_same_cards(
    levels: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two players (RULES §4 "Two players" 1): each dealt set is played twice, the same
    hands and the same two talons by seat with the bots swapped; a seating's scores by bot
    are the deal's score changes of the seat it sat in."""
    two = Rules.preset_rules("two")
    for index in range(3):
        games = _captured_games(monkeypatch)
        res = play_set(index, levels, two, seed=6)
        assert [s.rotation for s in res.seatings] == [0, 1] and len(games) == 2
        first, second = (g.records[0] for g in games)
        assert (first.dealer, first.hands, first.talons, first.cut) == (
            second.dealer, second.hands, second.talons, second.cut)
        assert first.talons[0] | first.talons[1] == first.talon
        for st, game in zip(res.seatings, games, strict=True):
            # entry e sits at seat (e + rotation) % 2
            changes = [sum(x.changes[s] for x in game.summaries) for s in range(2)]
            assert st.scores == [changes[(e + st.rotation) % 2] for e in range(2)]
        if levels[0] == levels[1]:  # one level in one seat rolls the same dice
            assert res.seatings[0].scores == res.seatings[1].scores[::-1]


def test_two_player_report_pairs_the_seatings() -> None:
    """Two players: a bot's mean deal score averages its two seatings of each set, and the
    difference of two bots is the mean of the per-set differences with a paired 95%
    interval (Student's t over the sets)."""
    rep = run_duplicate(["random", "beginner"], 5, Rules.preset_rules("two"), seed=2)
    assert len(rep.sets) == 5 and all(len(s.seatings) == 2 for s in rep.sets)
    rnd, beg = rep.entries()
    assert rnd.seatings == beg.seatings == 10
    assert rnd.declared + beg.declared == sum(
        st.declarer is not None for s in rep.sets for st in s.seatings)
    per_set = [(s.seatings[0].scores[0] + s.seatings[1].scores[0]) / 2 for s in rep.sets]
    assert rnd.mean == pytest.approx(sum(per_set) / 5)
    diffs = [s.mean_score(0) - s.mean_score(1) for s in rep.sets]
    assert rep.difference("random", "beginner") == pytest.approx(mean_ci(diffs))
    assert rep.difference(0, 1)[0] == pytest.approx(rnd.mean - beg.mean)
    assert "5 sets × 2 seatings = 10 deals" in report_lines(rep)[-1]
    assert "5 наборов × 2 рассадки = 10 раздач" in report_lines(rep, "ru")[-1]
    with pytest.raises(ValueError, match="one bot per seat"):
        run_duplicate(["random", "random", "random"], 1, Rules.preset_rules("two"))
