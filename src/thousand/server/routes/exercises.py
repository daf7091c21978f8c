"""A signed-in player's exercises (docs/server.md "Analysis"): ``GET /api/exercises``
lists the costliest marked moves of his finished games whose analysis is done, each as
the position he saw; ``POST /api/exercises/{id}/answer`` tells whether a move is one of
the good ones.

Nothing is stored for them: an exercise is rebuilt from the stored analysis and the
game's stored moves each time (thousand.analysis.exercises), so its id,
``<analysis row>-<deal>-<move index>``, is all a client keeps."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from ...analysis.exercises import Exercise, check, exercises_from, position_view
from ...engine.moves import MoveError, move_str, parse_move
from ...engine.protocol import view_json
from ..errors import ServerError
from ..features.accounts import current_player
from ..features.analysis_jobs import record_of
from ..live.hub import hub_of
from ..reader import StrictRoute
from ..store import analyses as st
from ..store.tables import Store, seats_t
from .models import error_responses

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)

#: At most so many exercises of one analysed game.
PER_GAME = 10


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ExerciseOut(_Strict):
    """One position to solve: the seat's ``view`` before the move (as the table's
    WebSocket gives it), the game's ``players`` and the ``legal`` moves in the record
    notation."""

    id: str
    game: str
    deal: int
    index: int
    seat: int
    players: list[str]
    view: dict[str, Any]
    legal: list[str]


class ExerciseList(_Strict):
    """``GET /api/exercises``: the player's exercises, the heaviest marks first."""

    exercises: list[ExerciseOut]


class AnswerAsk(_Strict):
    """``POST /api/exercises/{id}/answer``: the move chosen, in the record notation."""

    move: str


class Verdict(_Strict):
    """Whether the move is ``right`` (one of ``good``); ``played``: the game's move,
    ``best``: the analysis's best, ``reason``: its words on the game's move (in the
    analysis's language), ``cost``: what the game's move lost."""

    right: bool
    played: str
    best: str
    good: list[str]
    reason: str | None
    cost: float


@dataclass(frozen=True, slots=True)
class _Found:
    """An exercise with what the answer tells besides: the analysis's decision."""

    id: str
    game: str
    exercise: Exercise
    decision: dict[str, Any]


def _seat_of(store: Store, game_id: str, account_id: str) -> int | None:
    """The account's seat at the game (None: he held none)."""
    c = seats_t.c
    with store.engine.connect() as conn:
        seat = conn.execute(sa.select(c.seat).where(
            c.table_id == game_id, c.player_id == account_id).order_by(c.seat)).scalar()
    return None if seat is None else int(seat)


def _decision(analysis: dict[str, Any], ex: Exercise) -> dict[str, Any]:
    deal = next(d for d in analysis["deals"] if d["number"] == ex.deal)
    found: dict[str, Any] = next(d for d in deal["decisions"] if d["index"] == ex.index
                                 and d["played"] == ex.played)
    return found


def exercises_of(store: Store, account_id: str, row_id: int | None = None) -> list[_Found]:
    """Every exercise of the account's analysed games (one analysis a game: the newest),
    or with ``row_id`` only that analysis's (an answer rebuilds one game, not all)."""
    out: list[_Found] = []
    seen: set[str] = set()
    for row in st.finished_analyses(store, account_id):
        if row.game_id in seen or row.result is None:
            continue
        seen.add(row.game_id)
        if row_id is not None and row.id != row_id:
            continue
        seat = _seat_of(store, row.game_id, account_id)
        text = record_of(store, row.game_id)
        if seat is None or text is None:
            continue
        record = json.loads(text)
        for ex in exercises_from(row.result, record, seat=seat, limit=PER_GAME):
            out.append(_Found(f"{row.id}-{ex.deal}-{ex.index}", row.game_id, ex,
                              _decision(row.result, ex)))
    return out


def _out(found: _Found) -> ExerciseOut:
    ex = found.exercise
    view = position_view(ex)
    return ExerciseOut(id=found.id, game=found.game, deal=ex.deal, index=ex.index,
                       seat=ex.seat, players=[str(p) for p in ex.record["players"]],
                       view=view_json(view),
                       legal=[move_str(m) for m in view.legal])


async def _account(request: Request) -> str:
    player = await current_player(request)
    if player is None or player.kind != "account":
        raise ServerError("not_signed_in", "sign in to see your exercises", status=401)
    return player.id


@router.get("/api/exercises", response_model=ExerciseList, responses=error_responses(401))
async def list_exercises(request: Request) -> ExerciseList:
    """The signed-in player's exercises, made from the done analyses of his games."""
    account = await _account(request)
    hub = hub_of(request)
    found = await hub.db(exercises_of, hub.store, account)
    return ExerciseList(exercises=await hub.offload(lambda: [_out(f) for f in found]))


@router.post("/api/exercises/{exercise_id}/answer", response_model=Verdict,
             responses=error_responses(401, 403, 404))
async def answer_exercise(exercise_id: str, body: AnswerAsk, request: Request) -> Verdict:
    """Whether ``move`` is a good one at the exercise's position (400: not a move, or
    not a legal one there)."""
    account = await _account(request)
    hub = hub_of(request)
    head = exercise_id.split("-", 1)[0]
    row_id = int(head) if head.isascii() and head.isdigit() and len(head) < 10 else -1
    found = next((f for f in await hub.db(exercises_of, hub.store, account, row_id)
                  if f.id == exercise_id), None)
    if found is None:
        raise ServerError("not_found", "no such exercise", status=404)
    try:
        move = parse_move(body.move)
    except MoveError as e:
        raise ServerError("bad_move", str(e), status=400) from None
    ex = found.exercise
    legal = (await hub.offload(position_view, ex)).legal
    if move not in legal:
        raise ServerError("illegal_move", f"{move_str(move)} is not a legal move here",
                          status=400)
    d = found.decision
    basis = d.get("basis") or ("view" if d.get("view") else "open")
    best = (d.get(basis) or d.get("view") or d.get("open") or {}).get("best") or ex.good[0]
    return Verdict(right=check(ex, move_str(move)), played=ex.played, best=str(best),
                   good=list(ex.good), reason=d.get("reason"), cost=ex.cost)
