"""The routes of finding a game and of ratings: quick play, leaving a waiting table, the
leaderboard and a player's ratings (docs/server.md "Quick play", "Ratings").  The logic is
in server/features/matchmaking.py and server/store/ratings.py; these only read the request
and shape the answer."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from thousand.bots import bot_levels
from thousand.engine.rules import PRESET_NAMES, PRESETS, Rules
from thousand.site.ratings import rating_family

from ..checks import MAX_NAME
from ..errors import ServerError, bad_request
from ..features import matchmaking
from ..features.accounts import current_player, person_name, seat_owner
from ..ids import is_id
from ..limits import limit, limiter_of
from ..live.hub import LiveTable, hub_of
from ..reader import StrictRoute
from ..store import ratings as site_store
from .models import error_responses
from .time_controls import TIME_CONTROL_SCHEMA, chosen_control

__all__ = ["MAX_BOTS_AFTER", "MIN_GAMES", "router"]

router = APIRouter(route_class=StrictRoute)

#: The longest wait before bots fill a quick-play table (seconds).
MAX_BOTS_AFTER = 600.0
#: The rated games a player needs to be on the leaderboard: one lucky game is no place.
MIN_GAMES = 1
#: The move clock's bounds, in seconds: the same for a table laid in the lobby, a
#: quick-play table and a tournament's (``create_app(min_clock=)`` may lower the first).
MIN_CLOCK, MAX_CLOCK = 5.0, 3600.0


#: The numbers of players a game may have (RULES §4 "Two players": two as well).
PLAYER_COUNTS = (2, 3, 4)


@functools.cache
def family_games() -> dict[str, tuple[str, int]]:
    """Every rating family, with the preset and the number of players whose game it is:
    each preset at its own number first, then at the others its rules allow, named as
    :func:`~thousand.site.ratings.rating_family` names a game of them (classic for two is
    the family ``two``: one family, not two)."""
    out: dict[str, tuple[str, int]] = {}
    own = {p: int(PRESETS[p].get("players", 3)) for p in PRESET_NAMES}
    pairs = [(p, own[p]) for p in PRESET_NAMES] + [
        (p, n) for p in PRESET_NAMES for n in PLAYER_COUNTS if n != own[p]]
    for preset, n in pairs:
        try:
            family = rating_family(Rules.preset_rules(preset, players=n))
        except ValueError:
            continue  # a combination the preset does not allow (RULES §7)
        if family is not None:
            out.setdefault(family, (preset, n))
    return out


def families() -> tuple[str, ...]:
    """Every rating family (:func:`family_games`), each preset's own first."""
    return tuple(family_games())


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class QuickPlay(_Strict):
    """What a player asks quick play for: a preset's game, with a time control (the
    default category unless ``time_control`` or a move ``clock`` is given, even null);
    ``bots_after`` seconds (none: wait for people) before bots of ``bot_level`` take the
    seats nobody took, if he lays the table; ``name`` for a request without a session."""

    # the limits the route checks, stated in the OpenAPI document (issue 27: a fuzzer's
    # schema-valid request must be accepted); the route's own refusals keep their words
    preset: str = Field(default="classic", max_length=64,
                        json_schema_extra={"enum": list(PRESET_NAMES)})
    clock: float | None = Field(default=None, json_schema_extra={
        "anyOf": [{"type": "number", "minimum": MIN_CLOCK, "maximum": MAX_CLOCK},
                  {"type": "null"}]})
    time_control: Any = Field(default=None, json_schema_extra=TIME_CONTROL_SCHEMA)
    bots_after: float | None = Field(default=None, json_schema_extra={
        "anyOf": [{"type": "number", "minimum": 0, "maximum": MAX_BOTS_AFTER},
                  {"type": "null"}]})
    bot_level: str = Field(default="heuristic", max_length=64,
                           json_schema_extra={"enum": list(bot_levels())})
    name: str | None = Field(default=None, max_length=200, json_schema_extra={
        "anyOf": [{"type": "string", "maxLength": MAX_NAME}, {"type": "null"}]})


class QuickSeat(_Strict):
    """The seat quick play gave; ``waiting`` while the table waits for more players."""

    table: str
    seat: int
    token: str
    url: str
    waiting: bool


class Leave(_Strict):
    """The seat token of the person who leaves."""

    token: str = Field(max_length=200)


class Left(_Strict):
    table: str
    seat: int
    status: str


class BoardRow(_Strict):
    """One player of the leaderboard: ``rating`` is the number shown (1500 + 20 ×
    (μ − 3σ)); a bot has its ``level`` and no name."""

    place: int
    player: str
    kind: str
    name: str | None
    level: str | None
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool


class Board(_Strict):
    family: str
    min_games: int
    players: list[BoardRow]
    total: int
    limit: int
    offset: int


class HistoryPoint(_Strict):
    """What one rated game did: the numbers before and after, and when (Unix time); the
    table's id, or None for an unlisted table (found only through its link)."""

    table: str | None
    before: int
    after: int
    delta: int
    at: float


class FamilyRating(_Strict):
    rating: int
    mu: float
    sigma: float
    games: int
    history: list[HistoryPoint]


class PlayerRef(_Strict):
    id: str
    kind: str
    name: str | None


class PlayerRatings(_Strict):
    """A player's rating in each family he (or the bot) played, with its history."""

    player: PlayerRef
    families: dict[str, FamilyRating]


@router.post("/api/quickplay", response_model=QuickSeat,
             dependencies=[Depends(limit("quickplay"))],
             responses=error_responses(403, 409, 429, 503))
async def quick_play(body: QuickPlay, request: Request) -> QuickSeat:
    """A seat at the oldest waiting table of the preset and clock with a free seat, or
    at a new one laid for the player that waits for others.  The seat counts toward the
    asker's live tables (``live`` limit), as a table he laid would."""
    if body.preset not in PRESET_NAMES:
        raise bad_request(f"preset: one of {', '.join(PRESET_NAMES)}")
    low = float(getattr(request.app.state, "min_clock", 5.0))
    if body.clock is not None and not low <= body.clock <= MAX_CLOCK:
        raise bad_request(f"clock: null or seconds from {low:g} to {MAX_CLOCK:g}")
    control = chosen_control(body, low, default=True)
    if body.bots_after is not None and not 0 <= body.bots_after <= MAX_BOTS_AFTER:
        raise bad_request(f"bots_after: null or seconds from 0 to {MAX_BOTS_AFTER:g}")
    if body.bot_level not in bot_levels():
        raise bad_request(f"bot_level: one of {', '.join(bot_levels())}")
    player = await current_player(request)
    name: Any = body.name if body.name is not None and body.name.strip() else (
        player.name if player is not None and player.name else "Игрок")
    try:
        name = await person_name(request, name)
    except ValueError as e:
        raise bad_request(str(e)) from None
    owner = await seat_owner(request)
    hub = hub_of(request)
    async with limiter_of(request).live_slots(request, hub.still_live) as laid:
        got = await matchmaking.quick_play(hub, name, owner, body.preset, body.clock,
                                           body.bots_after, body.bot_level, control)
        laid(got.table)
    live = hub.tables.get(got.table)
    return QuickSeat(table=got.table, seat=got.seat, token=got.token, url=got.url,
                     waiting=live is not None and live.row.status == "waiting")


async def _live(request: Request, table_id: str) -> LiveTable:
    live = await hub_of(request).get(table_id) if is_id(table_id) else None
    if live is None:
        raise ServerError("not_found", "no such table", status=404)
    return live


@router.post("/api/tables/{table_id}/leave", response_model=Left,
             responses=error_responses(403, 404, 409))
async def leave(table_id: str, body: Leave, request: Request) -> Left:
    """Give back one's seat at a table still waiting for players: it is free again (a
    table left by every person closes).  Leaving a rated game after the deal abandons
    it: a bot plays the seat out and the rating counts the game as his loss."""
    live = await _live(request, table_id)
    seat = await matchmaking.leave(live, body.token)
    return Left(table=live.id, seat=seat, status=live.row.status)


@router.get("/api/leaderboard", response_model=Board, responses=error_responses())
async def leaderboard(
    request: Request,
    family: Annotated[str, Query(max_length=32,
                                 json_schema_extra={"enum": list(families())})] = "classic",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    min_games: Annotated[int, Query(ge=0, le=10**6)] = MIN_GAMES,
) -> Board:
    """The players (people and bots) of a family with at least ``min_games`` rated games,
    by rating, highest first."""
    if family not in families():
        raise bad_request(f"family: one of {', '.join(families())}")
    hub = hub_of(request)
    rows, total = await hub.db(site_store.leaderboard, hub.store, family, min_games, limit,
                               offset)
    return Board(family=family, min_games=min_games, total=total, limit=limit,
                 offset=offset, players=[BoardRow(**r) for r in rows])


@router.get("/api/players/{name}/ratings", response_model=PlayerRatings,
            responses=error_responses(404))
async def player_ratings(
    name: str, request: Request,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> PlayerRatings:
    """A player's ratings per family and each one's last ``limit`` changes, oldest first;
    ``name`` is an account's name (in any case), a player id, or ``bot:<level>``."""
    if not 1 <= len(name) <= 64:
        raise ServerError("not_found", "no such player", status=404)
    hub = hub_of(request)
    found = await hub.db(site_store.find_player, hub.store, name)
    if found is None:
        raise ServerError("not_found", "no such player", status=404)
    pid, kind, shown = found
    data = await hub.db(site_store.player_history, hub.store, pid, limit)
    return PlayerRatings(player=PlayerRef(id=pid, kind=kind, name=shown),
                         families={f: FamilyRating(
                             rating=v["rating"], mu=v["mu"], sigma=v["sigma"],
                             games=v["games"],
                             history=[HistoryPoint(**h) for h in v["history"]])
                             for f, v in data.items()})
