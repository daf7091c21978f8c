"""The routes of the games: the history's list, a finished game's record, a game's replay
and the replay of a record sent in the body (docs/server.md "The API").  Who may see a
game's moves is routes/replay_access.py's one check."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from thousand.engine.record import dumps_record
from thousand.engine.table import Table

from ..catalog import name_forms_json
from ..errors import ServerError
from ..features.player_stats import seat_players_of
from ..limits import limit
from ..live.hub import LiveTable, hub_of, iso
from ..reader import StrictRoute, raw_body
from ..replay import ReplayRefused, record_replay, table_replay
from ..store.tables import TableRow
from .models import Games, ReplayOut, error_responses
from .replay_access import SeatTokenHeader, check_replay_allowed
from .tables import live_or_404

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)


def _game_json(row: TableRow, live: LiveTable | None) -> dict[str, Any]:
    seats = live.seats if live is not None else row.seats
    if live is not None:
        scores: list[int] | None = list(live.table.game.scores)
        winner = live.table.game.winner
        status = live.row.status
        names = list(live.table.names)
        finished = live.row.finished
    else:
        scores, winner, status, names, finished = (row.scores, row.winner, row.status,
                                                   row.names, row.finished)
    return {"id": row.id, "players": names, "preset": row.preset, "winner": winner,
            "scores": scores, "started": iso(row.created), "finished": iso(finished),
            "status": status, "player_ids": seat_players_of(seats),
            "guests": [s.guest for s in seats]}


@router.get("/api/games", responses=error_responses())
async def api_games(request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50,
                    offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> Games:
    """The listed tables' games, newest first (the history page)."""
    hub = hub_of(request)
    rows, total = await hub.db(hub.store.games, limit, offset, listed_only=True)
    return Games.model_validate({
        "games": [_game_json(r, hub.tables.get(r.id)) for r in rows],
        "total": total, "limit": limit, "offset": offset})


@router.get("/api/games/{game_id}/record", response_class=Response,
            responses={200: {"content": {"application/json": {}},
                             "description": "The game's record (RULES §6)."},
                       **error_responses(403, 404, 409)})
async def api_record(request: Request, game_id: str,
                     token: SeatTokenHeader = None) -> Response:
    """A finished game's record, as its creator let it be seen."""
    live = await live_or_404(request, game_id)
    if not live.over:
        raise ServerError("game_running", "the record is given once the game is over",
                          status=409)
    check_replay_allowed(live, token)
    text = dumps_record(live.table.to_record())
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="thousand-{live.id}.json"'})


@router.get("/api/games/{game_id}/replay", responses=error_responses(403, 404))
async def api_game_replay(request: Request, game_id: str,
                          token: SeatTokenHeader = None) -> ReplayOut:
    """A game's replay: a running game's without the hands, a finished one's whole."""
    live = await live_or_404(request, game_id)
    check_replay_allowed(live, token)
    async with live.lock:
        table: Table = live.table.clone()
    over = table.over
    try:
        steps = await hub_of(request).offload(lambda: table_replay(table, hands=over))
    except ReplayRefused as e:
        raise ServerError(e.code, str(e), status=400) from None
    return ReplayOut.model_validate({
        "record": table.to_record() if over else None, "header": table.header(),
        "over": over, "winner": table.game.winner, "steps": steps,
        "name_forms": name_forms_json(tuple(table.names)),
        "guests": [s.guest for s in live.seats]})


@router.post("/api/replay", dependencies=[Depends(limit("upload"))],
             responses=error_responses(413, 429), openapi_extra={
    "requestBody": {"required": True, "description": "A game's record (RULES §6).",
                    "content": {"application/json": {"schema": {"type": "object"}}}}})
@raw_body("upload_bytes")
async def api_replay(request: Request) -> ReplayOut:
    """The replay of a record sent in the body (checked as ``thousand replay`` does;
    at most the cap ``upload_bytes``, ``replays`` replayed at once)."""
    data = await request.body()
    uploads: asyncio.Semaphore = request.app.state.uploads
    try:
        async with uploads:
            out = await hub_of(request).offload(record_replay, data)
    except ReplayRefused as e:
        raise ServerError(e.code, str(e), status=400) from None
    players = out["header"].get("players") or []
    out["name_forms"] = name_forms_json(tuple(str(n) for n in players))
    return ReplayOut.model_validate(out)
