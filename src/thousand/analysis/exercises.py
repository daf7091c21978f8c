"""Exercises: the costliest decisions of a player's games, to be solved again.

An exercise is a position from a finished game where the player's move was marked by
the analysis (docs/analysis.md); the answer is right when it is one of the moves the
same analysis values within the inaccuracy threshold of the best.  The record travels
with the exercise so that the position is rebuilt by the engine, never trusted from
the outside.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game
from ..engine.record import load_record
from ..engine.view import View
from .walk import game_before

#: Marks in order of weight: the heavier marks come first among the exercises.
_MARK_ORDER = {"blunder": 0, "mistake": 1, "inaccuracy": 2}
_DEFAULT_INACCURACY = 10.0


@dataclass(frozen=True)
class Exercise:
    """One position to solve again, with the analysis's verdict on its moves."""

    record: dict[str, Any]
    deal: int
    index: int
    seat: int
    played: str
    good: tuple[str, ...]
    cost: float

    def to_json(self) -> dict[str, Any]:
        """JSON for a file or the browser (the record inside)."""
        return {
            "kind": "thousand-exercise",
            "record": self.record,
            "deal": self.deal,
            "index": self.index,
            "seat": self.seat,
            "played": self.played,
            "good": list(self.good),
            "cost": self.cost,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Exercise:
        """The inverse of :meth:`to_json`; the position is checked when it is rebuilt."""
        return cls(
            record=dict(data["record"]),
            deal=int(data["deal"]),
            index=int(data["index"]),
            seat=int(data["seat"]),
            played=str(data["played"]),
            good=tuple(str(m) for m in data["good"]),
            cost=float(data["cost"]),
        )


def good_moves(
    decision: Mapping[str, Any], threshold: float, declarer: int | None
) -> tuple[str, ...]:
    """The moves whose cost against the best is below ``threshold``, judged on the basis
    the decision was marked on.

    Values in the unit ``utility`` are the mover's own (higher is better); values in the
    unit ``declarer_total`` (every open-card value, and the sampled values of a card) are
    the declarer's final total, so a defender's best is the lowest (spec section 2).
    Reading a defender's card values as his own made the worst cards the good answers,
    and the exercise of a marked move vanished (issue 28).  The move the analysis names
    as better is always among them."""
    view, opened = decision.get("view"), decision.get("open")
    as_declarer = decision["seat"] == declarer
    on_view = bool(view and view.get("moves")) and not (
        decision.get("basis") == "open" and opened and opened.get("moves"))
    if on_view:
        assert view is not None
        good = _within(view, as_declarer, threshold)
        if opened and opened.get("moves"):
            good += _within(opened, as_declarer, 0.5)  # the open best, where it is not listed
        best = view.get("best")
    elif opened and opened.get("moves"):
        good, best = _within(opened, as_declarer, threshold), opened.get("best")
    else:
        best = (view or {}).get("best") or (opened or {}).get("best")
        good = []
    if best and best not in good:
        good.insert(0, str(best))
    return tuple(dict.fromkeys(good))


def _within(block: Mapping[str, Any], as_declarer: bool, threshold: float) -> list[str]:
    """The listed moves within ``threshold`` of the best (0.5: equal to the best), the
    values read in the block's unit (the open-card blocks: the declarer's total)."""
    pairs = [(m["move"], float(m["value"])) for m in block["moves"]]
    unit = block.get("unit", "declarer_total")
    sign = -1.0 if unit == "declarer_total" and not as_declarer else 1.0
    best = max(sign * v for _, v in pairs)
    return [m for m, v in pairs if best - sign * v < threshold]


def exercises_from(
    analysis: dict[str, Any],
    record: Mapping[str, Any],
    seat: int | None = None,
    limit: int = 10,
) -> list[Exercise]:
    """The costliest marked decisions (blunders, then mistakes, then inaccuracies;
    within a mark the costliest first) of ``seat`` (every seat when None)."""
    thresholds = analysis.get("settings", {}).get("thresholds", {})
    threshold = float(thresholds.get("inaccuracy", _DEFAULT_INACCURACY))
    found: list[tuple[int, float, Exercise]] = []
    for deal in analysis.get("deals", []):
        for d in deal.get("decisions", []):
            mark = d.get("mark")
            mine = seat is None or d["seat"] == seat
            if mark not in _MARK_ORDER or d.get("forced") or not mine:
                continue
            cost = _cost(d)
            good = tuple(m for m in good_moves(d, threshold, deal.get("declarer"))
                         if m != d["played"])
            if not good:
                continue
            ex = Exercise(dict(record), int(deal["number"]), int(d["index"]), int(d["seat"]),
                          str(d["played"]), good, cost)
            found.append((_MARK_ORDER[mark], -cost, ex))
    found.sort(key=lambda t: (t[0], t[1], t[2].deal, t[2].index))
    return [ex for _, _, ex in found[:limit]]


def _cost(decision: Mapping[str, Any]) -> float:
    """The marking cost: view-based when computed, else the open-card loss."""
    if decision.get("basis") == "view" and decision.get("view"):
        return float(decision["view"]["cost"])
    if decision.get("open"):
        return float(decision["open"]["lost"])
    return float((decision.get("view") or {}).get("cost", 0.0))


def position_game(ex: Exercise) -> Game:
    """The game replayed up to the exercise's position (checked by the engine)."""
    return game_before(load_record(ex.record), ex.deal, ex.index)


def position_view(ex: Exercise) -> View:
    """The seat's view before the move (what the player saw when he chose)."""
    view = position_game(ex).view(ex.seat)
    if view.to_move != ex.seat:
        raise ValueError(f"deal {ex.deal}, move {ex.index + 1}: seat {ex.seat} is not to move")
    return view


def check(ex: Exercise, move: str) -> bool:
    """Whether the answer is one of the analysis's good moves."""
    return move.strip() in ex.good
