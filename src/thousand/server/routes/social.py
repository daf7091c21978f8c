"""The routes of presence, challenges and friends (docs/server.md "Presence, challenges
and friends", docs/protocol.md "The lobby socket"): the lobby's WebSocket ``/ws/lobby``,
who is here, a player's presence settings, challenges sent and answered, follows and
blocks.  The logic is in server/features/presence.py, challenges.py and
server/store/social.py; these read the request and shape the answer."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from starlette.websockets import WebSocketDisconnect

from thousand.bots import bot_levels
from thousand.engine.rules import PRESET_NAMES, Rules, RulesError

from ..errors import ServerError, bad_request
from ..features.accounts import Accounts, Player, current_player
from ..features.challenges import Challenges
from ..features.presence import LobbyConn, Presence, counts
from ..ids import is_id
from ..limits import limit, limiter_of
from ..live.hub import frames, hub_of
from ..reader import StrictRoute
from ..store.social import SocialStore, blocks_t, follows_t
from ..web_security import same_origin
from .models import error_responses
from .socket import counted, refuse, write_out, written
from .tables import parse_clock

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


def presence_of(conn: Request | WebSocket) -> Presence:
    presence: Any = conn.app.state.presence
    assert isinstance(presence, Presence)
    return presence


def _challenges(request: Request) -> Challenges:
    challenges: Any = request.app.state.challenges
    assert isinstance(challenges, Challenges)
    return challenges


def _social(request: Request) -> SocialStore:
    return _challenges(request).social


async def _me(request: Request) -> Player:
    player = await current_player(request)
    if player is None:
        raise ServerError("not_signed_in", "open a page of the site first: it makes you "
                          "a guest (GET /api/me)", status=401)
    return player


def _other(player_id: str) -> str:
    if not (player_id.startswith("p_") and is_id(player_id)):
        raise ServerError("not_found", "no such player", status=404)
    return player_id


# ---------------------------------------------------------------------- the lobby socket


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """Who is here, live, and this player's notices (docs/protocol.md "The lobby
    socket").  The page must have a session (``GET /api/me`` makes a guest's)."""
    if not same_origin(websocket.headers.get("origin"), websocket):
        await websocket.close(code=4403)
        return
    await websocket.accept()
    accounts: Accounts = websocket.app.state.accounts
    identity = await accounts.identity(websocket)
    if identity is None:
        await refuse(websocket, 4401, "not_signed_in", "open a page of the site first")
        return
    closed = await counted(websocket)  # with the tables' sockets
    if closed is None:
        return
    player = identity.player
    presence = presence_of(websocket)
    hub = hub_of(websocket)
    # his setting known before he joins: the next tick shows him (or not), no later one
    settings = await hub.db(presence.social.settings, [player.id])
    presence.hidden[player.id] = settings[player.id][0]
    conn = LobbyConn(player.id, player.name, player.kind != "account", hub.caps["behind"])
    writer = asyncio.create_task(write_out(websocket, conn))
    try:
        conn.send({"type": "hello", "me": player.id})
        presence.join(conn)
        async for _raw in frames(websocket, conn):
            pass  # the lobby says nothing: what it asks goes through the API
    except WebSocketDisconnect:
        pass
    finally:
        presence.leave(conn)
        conn.close()
        closed()
        await written(writer)


class Online(_Strict):
    """Who is here: each player's id, name, whether a guest, where (``lobby``,
    ``waiting``, ``playing``) and at which table; and how many where."""

    players: list[dict[str, Any]]
    counts: dict[str, int]


@router.get("/api/presence", response_model=Online, responses=error_responses())
async def online(request: Request) -> Online:
    """Who is here, as the lobby sockets were last told (the socket has it live)."""
    shown = presence_of(request).shown
    return Online(players=list(shown.values()), counts=counts(shown))


class Settings(_Strict):
    """A player's choices: ``hidden`` — nobody sees him online; ``strangers`` — false:
    only the players he follows may challenge him."""

    hidden: bool = False
    strangers: bool = True


@router.get("/api/me/social", response_model=Settings, responses=error_responses(401))
async def my_settings(request: Request) -> Settings:
    me = await _me(request)
    hub = hub_of(request)
    hidden, strangers = (await hub.db(_social(request).settings, [me.id]))[me.id]
    return Settings(hidden=hidden, strangers=strangers)


@router.put("/api/me/social", response_model=Settings, responses=error_responses(401))
async def set_settings(body: Settings, request: Request) -> Settings:
    me = await _me(request)
    await hub_of(request).db(_social(request).set_settings, me.id, body.hidden,
                             body.strangers)
    presence_of(request).set_hidden(me.id, body.hidden)
    return body


# ---------------------------------------------------------------------- challenges


class ChallengeAsk(_Strict):
    """``POST /api/challenges``: challenge the player ``to`` to a game: a preset, its
    options changed (as for a table laid in the lobby), a move clock, and a bot's level
    for each seat after the two people's (the heuristic bot when not given)."""

    to: str = Field(max_length=40)
    preset: str = Field(default="classic", max_length=64,
                        json_schema_extra={"enum": list(PRESET_NAMES)})
    options: dict[str, Any] = Field(default_factory=dict, max_length=100)
    clock: float | None = None
    bots: list[str] = Field(default_factory=list, max_length=4)


class ChallengeOut(_Strict):
    id: str
    status: str
    table: str | None
    url: str | None
    challenge: dict[str, Any]


class ChallengeList(_Strict):
    challenges: list[dict[str, Any]]


def _game(body: ChallengeAsk, low_clock: float) -> dict[str, Any]:
    """The game a challenge describes, checked as a table laid in the lobby is."""
    if "preset" in body.options:
        raise bad_request("options: give the preset as \"preset\"")
    try:
        rules = Rules.from_json({"preset": body.preset, **body.options})
    except (RulesError, ValueError, TypeError) as e:
        raise ServerError("bad_rules", str(e), status=422) from None
    levels = bot_levels()
    if len(body.bots) > rules.players - 2 or any(b not in levels for b in body.bots):
        raise bad_request(f"bots: at most {rules.players - 2} levels, each one of "
                          f"{', '.join(levels)}")
    return {"preset": body.preset, "options": body.options,
            "clock": parse_clock(body.clock, low_clock), "bots": body.bots}


def _out(c: Any) -> ChallengeOut:
    return ChallengeOut(id=c.id, status=c.status, table=c.table_id,
                        url=f"/t/{c.table_id}" if c.table_id else None,
                        challenge=c.json())


@router.post("/api/challenges", status_code=201, response_model=ChallengeOut,
             dependencies=[Depends(limit("challenge"))],
             responses=error_responses(401, 403, 404, 409, 422, 429))
async def challenge(body: ChallengeAsk, request: Request) -> ChallengeOut:
    """Challenge a player: he is told at once on his lobby socket (and finds it in
    ``GET /api/challenges`` if he is away) until he answers or it expires."""
    me = await _me(request)
    if me.kind == "guest" and not me.name:
        raise ServerError("name_needed", "choose a name first (POST /api/me/name)",
                          status=403)
    game = _game(body, float(getattr(request.app.state, "min_clock", 5.0)))
    return _out(await _challenges(request).send(me.id, _other(body.to), game))


@router.get("/api/challenges", response_model=ChallengeList,
            responses=error_responses(401))
async def my_challenges(request: Request) -> ChallengeList:
    """The open challenges this player sent or got, newest first."""
    me = await _me(request)
    hub, social = hub_of(request), _social(request)
    await hub.db(social.expire, time.time())
    found = await hub.db(social.challenges_of, me.id, time.time())
    return ChallengeList(challenges=[c.json() for c in found])


@router.post("/api/challenges/{challenge_id}/{action}", response_model=ChallengeOut,
             responses=error_responses(401, 403, 404, 409, 429, 503))
async def answer(challenge_id: str, action: Literal["accept", "decline", "cancel"],
                 request: Request) -> ChallengeOut:
    """Accept or decline a challenge one got, or cancel one sent.  Accepting lays the
    table with both seated; it counts toward the accepting player's live tables."""
    me = await _me(request)
    if not (challenge_id.startswith("c_") and is_id(challenge_id[2:])):
        raise ServerError("not_found", "no such challenge", status=404)
    hub = hub_of(request)
    if action != "accept":
        return _out(await _challenges(request).answer(me.id, challenge_id, action))
    async with limiter_of(request).live_slots(request, hub.still_live) as laid:
        found = await _challenges(request).answer(me.id, challenge_id, action)
        if found.table_id is not None:
            laid(found.table_id)
    return _out(found)


# ---------------------------------------------------------------------- friends


class Tie(_Strict):
    player: str
    on: bool


class Friend(_Strict):
    """A player one follows or blocks, and, for one followed, where he is now (None:
    not online, or hiding)."""

    id: str
    name: str | None
    presence: dict[str, Any] | None = None


class Friends(_Strict):
    follows: list[Friend]
    blocks: list[Friend]


_TIES = {"follows": follows_t, "blocks": blocks_t}


@router.get("/api/friends", response_model=Friends, responses=error_responses(401))
async def friends(request: Request) -> Friends:
    """Whom this player follows (each with his presence: his game to watch) and whom
    he blocks."""
    me = await _me(request)
    hub, social, shown = hub_of(request), _social(request), presence_of(request).shown
    followed = await hub.db(social.ties, follows_t, me.id)
    blocked = await hub.db(social.ties, blocks_t, me.id)
    return Friends(follows=[Friend(id=p, name=n, presence=shown.get(p)) for p, n in followed],
                   blocks=[Friend(id=p, name=n) for p, n in blocked])


@router.put("/api/friends/{kind}/{player_id}", response_model=Tie,
            dependencies=[Depends(limit("follow"))],
            responses=error_responses(401, 404, 429))
async def tie(kind: Literal["follows", "blocks"], player_id: str,
              request: Request) -> Tie:
    """Follow (``follows``) or block (``blocks``) a player."""
    return await _tie(request, kind, player_id, True)


@router.delete("/api/friends/{kind}/{player_id}", response_model=Tie,
               dependencies=[Depends(limit("follow"))],
               responses=error_responses(401, 404, 429))
async def untie(kind: Literal["follows", "blocks"], player_id: str,
                request: Request) -> Tie:
    """Stop following, or unblock, a player."""
    return await _tie(request, kind, player_id, False)


async def _tie(request: Request, kind: str, player_id: str, on: bool) -> Tie:
    me = await _me(request)
    other = _other(player_id)
    hub, social = hub_of(request), _social(request)
    if other == me.id or not await hub.db(social.is_person, other):
        raise ServerError("not_found", "no such player", status=404)
    await hub.db(social.tie, _TIES[kind], me.id, other, on, time.time())
    return Tie(player=other, on=on)
