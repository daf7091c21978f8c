"""The routes of tournaments: make one, list them, show one, register and unregister, start
(docs/server.md "Tournaments").  The running logic is in server/features/tournaments.py, the
pairings and standings in thousand.evaluation.tournament; these only read the request, check
who asks and shape the answer."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from thousand.bots import bot_levels
from thousand.engine.rules import MAX_DEALS, PRESET_NAMES
from thousand.evaluation.tournament import FORMATS, MAX_ROUNDS, SCORINGS

from ..errors import ServerError, bad_request
from ..features import tournaments as st
from ..features.accounts import current_player, person_name
from ..ids import is_id
from ..limits import limit, limiter_of
from ..live.hub import hub_of
from ..reader import StrictRoute
from ..store.accounts import Player
from .models import ErrorBody, error_responses
from .play import MAX_CLOCK, MIN_CLOCK
from .time_controls import TIME_CONTROL_SCHEMA, chosen_control

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)

#: The most rounds a tournament on the site takes (a longer one is a typing mistake).
SITE_MAX_ROUNDS = min(MAX_ROUNDS, 50)
TournamentId = Annotated[str, PathParam(max_length=32)]
#: A bot level, as the schema says it (the levels registered when the server starts).
BotLevel = Annotated[str, Field(max_length=64, json_schema_extra={"enum": list(bot_levels())})]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


#: The move clock of a tournament's tables when its creator asks for one without saying
#: how long (``clock`` stated with its default); a tournament that names neither a clock
#: nor a time control gets the default time control (routes/time_controls.py): a player
#: who left would otherwise hold his table, and with it the next round, for ever.
DEFAULT_CLOCK = 60.0


class NewTournament(_Strict):
    """A tournament: its name, preset, format (the pairings), ``scoring`` (``places``, or
    ``duplicate``: the same cards at every table of a round, each player ranked by his
    score less the mean of the others' who held his seat's cards), rounds, ``deals`` per
    table (None: each table plays a whole game), a move clock for its tables (seconds;
    null: none — a table then waits for its slowest player) or a ``time_control`` (the
    default category when neither is given), the bot levels to enter (one entry each),
    whether its creator plays in it (``play``), and ``player_name`` for a guest who has
    no name yet."""

    name: str = Field(min_length=1, max_length=st.MAX_TITLE, pattern=r"\S")
    preset: str = Field(default="classic", max_length=64,
                        json_schema_extra={"enum": list(PRESET_NAMES)})
    # checked by the Tournament, which says what is wrong in both languages
    format: str = Field(default="swiss", max_length=32,
                        json_schema_extra={"enum": list(FORMATS)})
    scoring: str = Field(default="places", max_length=32,
                         json_schema_extra={"enum": list(SCORINGS)})
    rounds: int = Field(default=3, ge=1, le=SITE_MAX_ROUNDS)
    deals: int | None = Field(default=None, ge=1, le=MAX_DEALS)
    clock: float | None = Field(default=DEFAULT_CLOCK, json_schema_extra={  # stated (issue 27)
        "anyOf": [{"type": "number", "minimum": MIN_CLOCK, "maximum": MAX_CLOCK},
                  {"type": "null"}]})
    time_control: Any = Field(default=None, json_schema_extra=TIME_CONTROL_SCHEMA)
    bots: list[BotLevel] = Field(default_factory=list, max_length=st.MAX_BOTS)
    play: bool = True
    player_name: str | None = Field(default=None, max_length=200)


class Registration(_Strict):
    """``player_name`` for a guest who has no name yet."""

    player_name: str | None = Field(default=None, max_length=200)


class Empty(_Strict):
    """No fields."""


class EntryOut(_Strict):
    """A player of the tournament: ``kind`` ``person`` or ``bot`` (with its ``level``);
    ``guest`` for a person who entered without an account (his name is marked so)."""

    name: str
    kind: str
    level: str | None
    me: bool
    guest: bool


class TableOut(_Strict):
    """One table of a round: its id (the page ``/t/<id>``), the players in seat order
    (``guests``: which of them are guests) and, once it is over, their scores, places and
    tournament points."""

    table: str | None
    players: list[str]
    guests: list[bool]
    scores: list[int] | None = None
    places: list[int] | None = None
    points: list[float] | None = None
    deals: int | None = None


class RoundOut(_Strict):
    round: int
    tables: list[TableOut]
    byes: list[str]


class StandingOut(_Strict):
    """One line of the standings (``guest``: a person without an account;
    ``duplicate``: his duplicate score, in a duplicate tournament, which ranks by it)."""

    place: int
    name: str
    guest: bool
    points: float
    games: int
    byes: int
    firsts: int
    score: int
    duplicate: float | None = None


class TournamentBrief(_Strict):
    """A tournament in the list."""

    id: str
    name: str
    preset: str
    format: str
    scoring: str
    rounds: int
    deals: int | None
    status: str
    players: int
    url: str


class TournamentList(_Strict):
    tournaments: list[TournamentBrief]


class TournamentOut(_Strict):
    """One tournament: its entries, its rounds so far with their tables and results, and
    the standings; ``seed`` the draw of lots' and pairings' (any program pairs them again
    with thousand.evaluation.tournament); ``mine`` when the asker made it, ``registered`` when
    he entered it."""

    id: str
    name: str
    preset: str
    format: str
    #: ``places`` or ``duplicate`` (the standings' ``duplicate`` ranks)
    scoring: str
    rounds: int
    deals: int | None
    clock: float | None
    #: its tables' game clock (``base``, ``increment``, ``category``), or None
    time_control: dict[str, Any] | None = None
    seed: int
    #: a duplicate tournament's secret its rounds were dealt from, shown once it is over
    #: (``deal_seed(secret, round, "tournament")`` is every table's seed of the round)
    deal_secret: str | None = None
    status: str
    players: int
    url: str
    mine: bool
    registered: bool
    entries: list[EntryOut]
    pairings: list[RoundOut]
    standings: list[StandingOut]


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route: models.error_responses and 401 (no session)."""
    out = error_responses(*(s for s in statuses if s != 401))
    if 401 in statuses:
        out[401] = {"model": ErrorBody, "description": "No session: GET /api/me first."}
    return out


def _refused(e: st.TournamentRefused) -> ServerError:
    """A refusal in both languages (``ru``: the Russian words, when there are some)."""
    ru = {"ru": e.ru} if e.ru is not None else {}
    return ServerError(e.code, str(e), status=e.status, **ru)


async def _person(request: Request, name: str | None) -> tuple[Player, str]:
    """The asker (a session is needed: GET /api/me makes a guest) and the name he plays
    under: his own, else ``name`` (a guest without one)."""
    player = await current_player(request)
    if player is None:
        raise ServerError("not_signed_in", "no session: GET /api/me first", status=401)
    shown: Any = player.name or name
    if shown is None:
        raise bad_request("player_name: a guest without a name gives one")
    try:
        return player, await person_name(request, shown)
    except ValueError as e:
        raise bad_request(f"player_name: {e}") from None


def _out(info: st.Info, me: str | None) -> TournamentOut:
    t = info.tournament(shown=True)
    data = t.to_json()
    ids: list[list[str]] = info.state.get("tables", [])
    guests = {e.name for e in info.entries if e.guest}
    mine = {e.name for e in info.entries if me is not None and e.player_id == me}
    done = {r["round"] for r in data["pairings"]
            if all("scores" in tab for tab in r["tables"])}

    def table_id(number: int, index: int, players: list[str]) -> str | None:
        """A table's id (its page and replay), but a duplicate round's while the round
        is played only to those at it: another table could watch the same cards ahead."""
        if number > len(ids):
            return None
        hidden = (info.scoring == "duplicate" and number not in done
                  and not mine & set(players))
        return None if hidden else ids[number - 1][index]

    pairings = [RoundOut(round=r["round"], byes=r["byes"], tables=[
        TableOut(table=table_id(r["round"], i, tab["players"]),
                 guests=[n in guests for n in tab["players"]], **tab)
        for i, tab in enumerate(r["tables"])]) for r in data["pairings"]]
    return TournamentOut(
        id=info.id, name=info.name, preset=info.preset, format=info.format,
        scoring=info.scoring, rounds=info.rounds, deals=info.deals, clock=info.clock,
        time_control=info.state.get("time_control"),
        seed=int(info.state.get("seed", 0)), deal_secret=st.revealed_secret(info),
        status=info.status, players=len(info.entries), url=f"/tournaments/{info.id}",
        mine=me is not None and info.creator == me,
        registered=me is not None and any(e.player_id == me for e in info.entries),
        entries=[EntryOut(name=e.name, kind="bot" if e.bot else "person", level=e.bot,
                          me=me is not None and e.player_id == me, guest=e.guest)
                 for e in info.entries],
        pairings=pairings, standings=[StandingOut(guest=s["name"] in guests, **s)
                                      for s in data["standings"]])


async def _me(request: Request) -> str | None:
    player = await current_player(request)
    return player.id if player is not None else None


async def _get(request: Request, tid: str) -> st.Info:
    if not is_id(tid):
        raise ServerError("not_found", "no such tournament", status=404)
    try:
        return await st.get(hub_of(request), tid)
    except st.TournamentRefused as e:
        raise _refused(e) from None


@router.post("/api/tournaments", status_code=201, response_model=TournamentOut,
             dependencies=[Depends(limit("tournament"))],
             responses=_errors(401, 409, 413, 415, 422, 429))
async def create(body: NewTournament, request: Request) -> TournamentOut:
    """A tournament open for registration, made by the asker (who plays in it unless
    ``play`` is false); its bots are entered at once."""
    name = " ".join(body.name.split())
    if not 1 <= len(name) <= st.MAX_TITLE:
        raise bad_request(f"name: from 1 to {st.MAX_TITLE} characters")
    if body.preset not in PRESET_NAMES:
        raise bad_request(f"preset: one of {', '.join(PRESET_NAMES)}")
    low = float(getattr(request.app.state, "min_clock", 5.0))
    if body.clock is not None and not low <= body.clock <= MAX_CLOCK:
        raise bad_request(f"clock: null or seconds from {low:g} to {MAX_CLOCK:g}")
    control = chosen_control(body, low, default=True)
    clock = body.clock if control is None else None
    for level in body.bots:
        if level not in bot_levels():
            raise bad_request(f"bots: each one of {', '.join(bot_levels())}")
    player, shown = await _person(request, body.player_name)
    try:
        info = await st.create(hub_of(request), name=name, preset=body.preset,
                               format=body.format, scoring=body.scoring,
                               rounds=body.rounds, deals=body.deals,
                               clock=clock, bots=list(body.bots), creator=player.id,
                               creator_name=shown if body.play else None,
                               guest=player.kind != "account", control=control)
    except st.TournamentRefused as e:
        raise _refused(e) from None
    return _out(info, player.id)


@router.get("/api/tournaments", response_model=TournamentList, responses=_errors())
async def tournaments(request: Request) -> TournamentList:
    """The newest tournaments (every tournament is public)."""
    rows = await st.listing(hub_of(request))
    return TournamentList(tournaments=[TournamentBrief(
        id=i.id, name=i.name, preset=i.preset, format=i.format, scoring=i.scoring,
        rounds=i.rounds,
        deals=i.deals, status=i.status, players=n, url=f"/tournaments/{i.id}")
        for i, n in rows])


@router.get("/api/tournaments/{tid}", response_model=TournamentOut,
            responses=_errors(404))
async def tournament(tid: TournamentId, request: Request) -> TournamentOut:
    """One tournament: entries, rounds with their tables and results, standings."""
    return _out(await _get(request, tid), await _me(request))


@router.post("/api/tournaments/{tid}/register", response_model=TournamentOut,
             dependencies=[Depends(limit("register"))],
             responses=_errors(401, 404, 409, 413, 415, 429))
async def register(tid: TournamentId, body: Registration, request: Request) -> TournamentOut:
    """Enter the tournament, until it starts (at most ``MAX_ENTRIES`` entries: 409
    ``full``)."""
    await _get(request, tid)
    player, shown = await _person(request, body.player_name)
    try:
        info = await st.register(hub_of(request), tid, player.id, shown,
                                 guest=player.kind != "account")
    except st.TournamentRefused as e:
        raise _refused(e) from None
    return _out(info, player.id)


@router.post("/api/tournaments/{tid}/unregister", response_model=TournamentOut,
             responses=_errors(401, 404, 409, 413, 415))
async def unregister(tid: TournamentId, body: Empty, request: Request) -> TournamentOut:
    """Take one's entry back, until the tournament starts."""
    await _get(request, tid)
    player, _ = await _person(request, "-")
    try:
        info = await st.unregister(hub_of(request), tid, player.id)
    except st.TournamentRefused as e:
        raise _refused(e) from None
    return _out(info, player.id)


@router.post("/api/tournaments/{tid}/start", response_model=TournamentOut,
             responses=_errors(401, 403, 404, 409, 413, 415, 429, 503))
async def start(tid: TournamentId, body: Empty, request: Request) -> TournamentOut:
    """The creator starts the tournament: registration closes and round one is laid.
    Its tables are his: they count toward his ``live`` tables and his ``table`` rate,
    each one (429 when they would pass either)."""
    found = await _get(request, tid)
    player, _ = await _person(request, "-")
    hub, limiter = hub_of(request), limiter_of(request)
    mine = found.creator == player.id and found.status == "registering"
    need = st.first_tables(found) if mine else 0
    async with limiter.live_slots(request, hub.still_live, need) as laid:
        if mine:
            await limiter.check(request, "table", cost=max(1, need))
        try:
            info = await st.start(hub, tid, player.id)
        except st.TournamentRefused as e:
            raise _refused(e) from None
        for table_id in info.state["tables"][-1] if info.state["tables"] else ():
            laid(table_id)
    return _out(info, player.id)
