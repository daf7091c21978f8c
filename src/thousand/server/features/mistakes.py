"""A signed-in player's mistakes across his analysed games (docs/analysis.md "Exercises
across games"; docs/server.md "Analysis"): the exercises of every game of his whose
analysis is done, each of its kind (thousand.analysis.mistake_kinds), and his progress
over time from them and from his recorded answers.

An exercise is never stored: it is rebuilt from the stored analysis and the game's stored
moves each time, so these functions read the store on its thread (``hub.db``)."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from ...analysis.exercises import Exercise, exercises_from
from ...analysis.mistake_kinds import KINDS, kind_of, weights_of
from ..store import analyses as st
from ..store.exercise_answers import Answer
from ..store.tables import Store, seats_t, tables_t
from .analysis_jobs import record_of

__all__ = ["Found", "GameMistakes", "analysed_games", "found_of", "progress"]

#: Every marked decision of a game is counted; so many of each game are exercises.
_ALL = 10**6


@dataclass(frozen=True, slots=True)
class Found:
    """An exercise with its id, game, kind and the analysis's decision it was made of."""

    id: str
    game: str
    kind: str
    exercise: Exercise
    decision: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameMistakes:
    """One analysed game of the player's: when it ended and his marked decisions (the
    heaviest marks first, as :func:`exercises_from` orders them)."""

    game: str
    finished: float
    mistakes: list[Found]


def _decision(analysis: dict[str, Any], ex: Exercise) -> dict[str, Any]:
    deal = next(d for d in analysis["deals"] if d["number"] == ex.deal)
    found: dict[str, Any] = next(d for d in deal["decisions"] if d["index"] == ex.index
                                 and d["played"] == ex.played)
    return found


def _seat_and_end(store: Store, game_id: str, account_id: str) -> tuple[int, float] | None:
    """The account's seat at the game and when the game ended (None: he held none)."""
    c = seats_t.c
    with store.engine.connect() as conn:
        seat = conn.execute(sa.select(c.seat).where(
            c.table_id == game_id, c.player_id == account_id).order_by(c.seat)).scalar()
        end = conn.execute(sa.select(tables_t.c.finished).where(
            tables_t.c.id == game_id)).scalar()
    return None if seat is None else (int(seat), float(end or 0.0))


def analysed_games(store: Store, account_id: str, row_id: int | None = None,
                   records: bool = True) -> list[GameMistakes]:
    """Every analysed game of the account's (one analysis a game: the newest), or with
    ``row_id`` only that analysis's (an answer rebuilds one game, not all).  Without
    ``records`` the games are not replayed for their records (the progress needs only
    the analyses): the exercises then hold an empty record and cannot be shown."""
    out: list[GameMistakes] = []
    seen: set[str] = set()
    for row in st.finished_analyses(store, account_id):
        if row.game_id in seen or row.result is None:
            continue
        seen.add(row.game_id)
        if row_id is not None and row.id != row_id:
            continue
        held = _seat_and_end(store, row.game_id, account_id)
        text = record_of(store, row.game_id) if records else "{}"
        if held is None or text is None:
            continue
        record = json.loads(text)
        found = []
        for ex in exercises_from(row.result, record, seat=held[0], limit=_ALL):
            d = _decision(row.result, ex)
            found.append(Found(f"{row.id}-{ex.deal}-{ex.index}", row.game_id,
                               kind_of(str(d.get("phase", "")), ex.played, ex.good), ex, d))
        out.append(GameMistakes(row.game_id, held[1], found))
    return out


def found_of(games: Iterable[GameMistakes], per_game: int) -> list[Found]:
    """The exercises: each game's ``per_game`` heaviest marked decisions."""
    return [f for g in games for f in g.mistakes[:per_game]]


def _week(t: float) -> str:
    """The Monday (UTC) of the week of ``t``, as ``YYYY-MM-DD``."""
    day = dt.datetime.fromtimestamp(t, dt.UTC).date()
    return (day - dt.timedelta(days=day.weekday())).isoformat()


def progress(games: list[GameMistakes], answers: list[Answer]) -> dict[str, Any]:
    """Per kind, over everything and week by week: the answers given and solved, the
    player's marked decisions and their cost per analysed game (the games by the week
    they ended, the answers by the week they were given)."""
    weights = weights_of((f.kind, f.exercise.cost) for g in games for f in g.mistakes)
    total: dict[str, dict[str, Any]] = {
        k: {"kind": k, "weight": round(weights[k], 4), "answered": 0, "solved": 0,
            "mistakes": 0, "cost": 0.0} for k in KINDS}
    weeks: dict[str, dict[str, Any]] = {}

    def week(t: float) -> dict[str, Any]:
        w = _week(t)
        return weeks.setdefault(w, {"week": w, "games": 0, "kinds": {
            k: {"answered": 0, "solved": 0, "cost": 0.0} for k in KINDS}})

    for g in games:
        at = week(g.finished)
        at["games"] += 1
        for f in g.mistakes:
            total[f.kind]["mistakes"] += 1
            total[f.kind]["cost"] += f.exercise.cost
            at["kinds"][f.kind]["cost"] += f.exercise.cost
    for a in answers:
        if a.kind not in total:
            continue
        for counts in (total[a.kind], week(a.answered)["kinds"][a.kind]):
            counts["answered"] += 1
            counts["solved"] += int(a.right)
    for w in weeks.values():  # the sums of the week's games, now a mean a game
        for counts in w["kinds"].values():
            counts["cost"] = round(counts["cost"] / w["games"], 1) if w["games"] else 0.0
    for counts in total.values():
        counts["cost"] = round(float(counts["cost"]), 1)
    return {"kinds": list(total.values()),
            "weeks": [weeks[w] for w in sorted(weeks)]}
