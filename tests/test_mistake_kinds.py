"""Exercises across games (docs/analysis.md "Exercises across games"): a marked decision's
kind from its phase and moves, each kind's weight from what the player's mistakes of it
cost, and the draw that follows the weights (a property over seeded draws)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from test_exercises import _costly_game
from thousand.analysis.exercises import exercises_from
from thousand.analysis.mistake_kinds import KINDS, draw, kind_of, weights_of


@pytest.mark.parametrize(("phase", "played", "good", "kind"), [
    ("auction", "120", ["pass"], "auction"),
    ("auction", "pass", ["105"], "auction"),
    ("dark", "dark", ["look"], "auction"),
    ("buy", "buy", ["pass"], "auction"),
    ("contract", "contract 140", ["contract 120"], "auction"),
    ("exchange", "give 9S", ["give AH"], "exchange"),
    ("exchange", "discard KD", ["discard 9C"], "exchange"),
    ("talon", "talon 1", ["talon 2"], "exchange"),
    ("play", "AS", ["TS"], "play"),
    ("play", "QH+", ["AS"], "marriage"),  # a marriage declared when it should not be
    ("play", "QH", ["QH+", "KH+"], "marriage"),  # a declaration missed
    ("play", "9C", ["KS+"], "marriage"),
])
def test_a_decision_is_of_the_kind_of_its_phase_and_moves(
        phase: str, played: str, good: list[str], kind: str) -> None:
    assert kind_of(phase, played, good) == kind


def test_the_phases_of_a_real_analysis_have_kinds() -> None:
    """Every marked decision of a real (open-card) analysis is of one of the four kinds,
    and a marked card of the play is a ``play`` or ``marriage`` one."""
    record, analysis = _costly_game()
    phases = {(d["index"], d["played"]): d["phase"] for deal in analysis["deals"]
              for d in deal["decisions"]}
    for ex in exercises_from(analysis, record):
        phase = phases[(ex.index, ex.played)]
        kind = kind_of(phase, ex.played, ex.good)
        assert kind in KINDS
        assert (kind in ("play", "marriage")) == (phase == "play")


def test_a_kinds_weight_is_its_share_of_the_cost() -> None:
    w = weights_of([("play", 30.0), ("play", 50.0), ("auction", 20.0)])
    assert w == {"auction": 0.2, "exchange": 0.0, "play": 0.8, "marriage": 0.0}
    assert weights_of([]) == dict.fromkeys(KINDS, 0.0)


def test_a_player_with_many_play_mistakes_is_drawn_mostly_play() -> None:
    """Eight play mistakes against one of the auction and one of the exchange, as costly
    each: the play's weight is 0.8, and over 500 seeded draws of three the play makes
    most of them (about 0.8 of the first drawn; never one exercise twice in a draw)."""
    pool = [("play", i) for i in range(8)] + [("auction", 8), ("exchange", 9)]
    weights = weights_of((kind, 40.0) for kind, _ in pool)
    assert weights["play"] == pytest.approx(0.8)
    rng = random.Random(31)
    first: Counter[str] = Counter()
    every: Counter[str] = Counter()
    for _ in range(500):
        drawn = draw(pool, lambda e: e[0], weights, 3, rng)
        assert len(drawn) == len(set(drawn)) == 3
        first[drawn[0][0]] += 1
        every.update(kind for kind, _ in drawn)
    assert 0.72 <= first["play"] / 500 <= 0.88
    assert every["play"] > 2 * (every["auction"] + every["exchange"])
    assert first["auction"] > 0 and first["exchange"] > 0  # the rarer kinds still come up


def test_the_weights_follow_the_cost_not_only_the_count() -> None:
    """One dear auction mistake outweighs three cheap ones of the play."""
    pool = [("auction", 0, 150.0)] + [("play", i, 10.0) for i in range(1, 4)]
    weights = weights_of((k, c) for k, _, c in pool)
    rng = random.Random(7)
    firsts = Counter(draw(pool, lambda e: e[0], weights, 1, rng)[0][0] for _ in range(400))
    assert firsts["auction"] > 3 * firsts["play"]


def test_a_draw_takes_everything_when_asked_for_more_and_runs_out_kind_by_kind() -> None:
    pool = [("play", 1), ("play", 2), ("marriage", 3)]
    drawn = draw(pool, lambda e: e[0], {"play": 1.0}, 10, random.Random(1))
    assert sorted(drawn) == sorted(pool)
    assert drawn[-1] == ("marriage", 3)  # a kind without weight only once the rest is out
