"""A signed-in player's exercises (docs/server.md "Analysis"): ``GET /api/exercises``
draws from the costliest marked moves of all his finished games whose analysis is done,
weighted by the kind of mistake he makes most (thousand.analysis.mistake_kinds), each as
the position he saw; ``POST /api/exercises/{id}/answer`` tells whether a move is one of
the good ones and keeps the answer; ``GET /api/exercises/progress`` sums his mistakes and
answers by kind, in all and week by week.

An exercise is not stored: it is rebuilt from the stored analysis and the game's stored
moves each time (server/features/mistakes.py), so its id,
``<analysis row>-<deal>-<move index>``, is all a client keeps; only the answers are."""

from __future__ import annotations

import random
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from ...analysis.exercises import check, position_view
from ...analysis.mistake_kinds import draw, weights_of
from ...engine.moves import MoveError, move_str, parse_move
from ...engine.protocol import view_json
from ..errors import ServerError
from ..features.accounts import current_player
from ..features.mistakes import Found, GameMistakes, analysed_games, found_of, progress
from ..limits import check as check_limit
from ..live.hub import hub_of
from ..reader import StrictRoute
from ..store import exercise_answers as ea
from ..store.tables import Store
from .models import error_responses

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)

#: At most so many exercises of one analysed game.
PER_GAME = 10
#: So many exercises a draw.
DRAWN = 10


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ExerciseOut(_Strict):
    """One position to solve: the seat's ``view`` before the move (as the table's
    WebSocket gives it), the game's ``players`` and the ``legal`` moves in the record
    notation."""

    id: str
    game: str
    kind: str
    deal: int
    index: int
    seat: int
    players: list[str]
    view: dict[str, Any]
    legal: list[str]


class ExerciseList(_Strict):
    """``GET /api/exercises``: a draw of the player's exercises, weighted by kind."""

    exercises: list[ExerciseOut]


class KindTotal(_Strict):
    """One kind over all his games: its ``weight`` in the draw, his ``answered`` and
    ``solved`` exercises, his marked decisions (``mistakes``) and what they ``cost``."""

    kind: str
    weight: float
    answered: int
    solved: int
    mistakes: int
    cost: float


class KindWeek(_Strict):
    """One kind in one week: the answers given and solved, the mean cost a game."""

    answered: int
    solved: int
    cost: float


class Week(_Strict):
    """One week (its Monday): the analysed games that ended in it, and each kind."""

    week: str
    games: int
    kinds: dict[str, KindWeek]


class Progress(_Strict):
    """``GET /api/exercises/progress``: every kind in all, and week by week."""

    kinds: list[KindTotal]
    weeks: list[Week]


class AnswerAsk(_Strict):
    """``POST /api/exercises/{id}/answer``: the move chosen, in the record notation."""

    move: str


class Verdict(_Strict):
    """Whether the move is ``right`` (one of ``good``); ``played``: the game's move,
    ``best``: the analysis's best, ``reason``: its words on the game's move (in the
    analysis's language), ``cost``: what the game's move lost."""

    right: bool
    kind: str
    played: str
    best: str
    good: list[str]
    reason: str | None
    cost: float


def _draw(games: list[GameMistakes], answers: list[ea.Answer]) -> list[Found]:
    """A weighted draw (thousand.analysis.mistake_kinds) of the exercises he has not yet
    solved (all of them again once he has solved every one)."""
    pool = found_of(games, PER_GAME)
    solved = {a.exercise for a in answers if a.right}
    fresh = [f for f in pool if f.id not in solved] or pool
    weights = weights_of((f.kind, f.exercise.cost) for g in games for f in g.mistakes)
    return draw(fresh, lambda f: f.kind, weights, DRAWN, random.Random())


def _drawn(store: Store, account: str) -> list[Found]:
    return _draw(analysed_games(store, account), ea.answers_of(store, account))


def _progress(store: Store, account: str) -> dict[str, Any]:
    return progress(analysed_games(store, account, records=False),
                    ea.answers_of(store, account))


def _out(found: Found) -> ExerciseOut:
    ex = found.exercise
    view = position_view(ex)
    return ExerciseOut(id=found.id, game=found.game, kind=found.kind, deal=ex.deal,
                       index=ex.index,
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
    found = await hub.db(_drawn, hub.store, account)
    return ExerciseList(exercises=await hub.offload(lambda: [_out(f) for f in found]))


@router.get("/api/exercises/progress", response_model=Progress,
            responses=error_responses(401))
async def exercises_progress(request: Request) -> Progress:
    """The signed-in player's mistakes and answers by kind, in all and week by week."""
    account = await _account(request)
    hub = hub_of(request)
    return Progress.model_validate(await hub.db(_progress, hub.store, account),
                                   strict=False)


@router.post("/api/exercises/{exercise_id}/answer", response_model=Verdict,
             responses=error_responses(401, 403, 404, 429))
async def answer_exercise(exercise_id: str, body: AnswerAsk, request: Request) -> Verdict:
    """Whether ``move`` is a good one at the exercise's position (400: not a move, or
    not a legal one there), kept as his answer (limited per client and per address:
    ``exercise``)."""
    account = await _account(request)
    await check_limit(request, "exercise")
    hub = hub_of(request)
    head = exercise_id.split("-", 1)[0]
    row_id = int(head) if head.isascii() and head.isdigit() and len(head) < 10 else -1
    games = await hub.db(analysed_games, hub.store, account, row_id)
    found = next((f for f in found_of(games, PER_GAME) if f.id == exercise_id), None)
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
    right = check(ex, move_str(move))
    await hub.db(ea.record_answer, hub.store, account, found.game, found.id, found.kind,
                 right, ex.cost)
    return Verdict(right=right, kind=found.kind, played=ex.played, best=str(best),
                   good=list(ex.good), reason=d.get("reason"), cost=ex.cost)
