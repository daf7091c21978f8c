"""A player's page and the leaderboard page (docs/server.md "A player's page"): ``GET
/p/{name}`` and ``GET /leaderboard`` (shells of ``web/`` their scripts fill in) and ``GET
/api/players/{name}`` (who he is, his ratings and their history, his totals, his last
games, his days of the deal of the day).  The numbers are kept as each game ends
(server/features/player_stats.py, server/store/ratings.py); these routes only read them
and shape the answer."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field

from ..errors import ServerError
from ..features import player_stats
from ..features.accounts import current_player
from ..live.hub import hub_of
from ..live.time_control import TimeControl, category_of
from ..pages import error_page, shell_page
from ..reader import StrictRoute
from ..store import profiles
from ..store import ratings as site_store
from .daily import MyDay, days_of
from .models import error_responses
from .play import FamilyRating, HistoryPoint, PlayerRef, _Strict, family_games
from .shells import web_of

__all__ = ["HISTORY", "LAST_GAMES", "router"]

router = APIRouter(route_class=StrictRoute)

#: How many games of a player's page are listed.
LAST_GAMES = 20
#: How many rating changes per family the page's chart draws.
HISTORY = 200


class Declarer(_Strict):
    """The deals whose bidding he won (``bids``), the contracts he made, his average
    contract (None before his first), the deals he conceded."""

    bids: int
    made: int
    average_contract: float | None
    conceded: int


class GameLine(_Strict):
    """One of his games: the table (its replay is ``/replay/{id}``), when it ended, its
    preset, the players' names, seats' players and guests (as ``GET /api/games`` gives
    them), his seat, place (1 = first) and final score."""

    id: str
    finished: float
    preset: str
    players: list[str]
    player_ids: list[str | None]
    guests: list[bool]
    seat: int
    place: int
    score: int


class TimeControlRef(_Strict):
    """A game clock a player has played: seconds for the game and added a move, and its
    category's name (``fast``, ``normal``, ``unhurried``; None: a table's own)."""

    base: float
    increment: float
    category: str | None


class PlayerPage(_Strict):
    """Everything a player's page shows: ``since`` is when the player was made (None
    for a bot); ``games`` only those whose replay the asker may see; what he tells of
    himself (``country``: ISO 3166 alpha-2, ``about``: plain text); the rated games he
    ``abandoned``; the move ``clocks`` (seconds) and the game clocks (``time_controls``:
    base, increment and category) of the games he finished; his days of
    the deal of the day (``daily``, newest first: his place of how many, his score against
    the field)."""

    player: PlayerRef
    since: float | None
    families: dict[str, FamilyRating]
    played: int
    won: int
    declarer: Declarer
    falls: int
    bolts: int
    games: list[GameLine]
    country: str | None = None
    about: str | None = None
    abandoned: int = 0
    clocks: list[float] = Field(default_factory=list)
    time_controls: list[TimeControlRef] = Field(default_factory=list)
    daily: list[MyDay] = Field(default_factory=list)


class Family(_Strict):
    """A rating family: a preset played by a number of players (``house-4p``)."""

    family: str
    preset: str
    players: int


class Families(_Strict):
    families: list[Family]


def _families() -> list[Family]:
    """routes.play.families() (the leaderboard's own list), each with its preset and
    number of players."""
    return [Family(family=f, preset=p, players=n) for f, (p, n) in family_games().items()]


def _shell(request: Request, name: str) -> Response:
    return shell_page(web_of(request), name)


async def _find(request: Request, name: str) -> tuple[str, str, str | None] | None:
    if not 1 <= len(name) <= 64:
        return None
    hub = hub_of(request)
    return await hub.db(site_store.find_player, hub.store, name)


@router.api_route("/p/{name}", methods=["GET", "HEAD"], include_in_schema=False)
async def player_page(request: Request, name: str) -> Response:
    """A player's page; the site's 404 page for nobody (or a deleted account)."""
    if await _find(request, name) is None:
        return error_page(request, 404)
    return _shell(request, "player")


@router.api_route("/leaderboard", methods=["GET", "HEAD"], include_in_schema=False)
async def leaderboard_page(request: Request) -> Response:
    """The leaderboard per preset family (its script reads /api/leaderboard)."""
    return _shell(request, "leaderboard")


@router.get("/api/families", response_model=Families, responses=error_responses())
async def families() -> Families:
    """Every rating family (the leaderboard page's switch), each preset's own number of
    players first."""
    return Families(families=_families())


@router.get("/api/players/{name}", response_model=PlayerPage,
            responses=error_responses(404))
async def player(name: str, request: Request) -> PlayerPage:
    """A player's page: ``name`` is an account's name (in any case), a player id, or
    ``bot:<level>``.  His last games are those whose replay the asker may see."""
    found = await _find(request, name)
    if found is None:
        raise ServerError("not_found", "no such player", status=404)
    pid, kind, shown = found
    hub = hub_of(request)
    viewer = await current_player(request)
    ratings = await hub.db(site_store.player_history, hub.store, pid, HISTORY)
    totals = await hub.db(player_stats.stats_of, hub.store, pid,
                          viewer.id if viewer is not None else None)
    games = await hub.db(player_stats.last_games, hub.store, pid,
                         viewer.id if viewer is not None else None, LAST_GAMES)
    since = await hub.db(player_stats.since, hub.store, pid)
    country, about = await hub.db(profiles.profile, hub.store, pid)
    bids = totals["bids"]
    return PlayerPage(
        player=PlayerRef(id=pid, kind=kind, name=shown), since=since,
        families={f: FamilyRating(rating=v["rating"], mu=v["mu"], sigma=v["sigma"],
                                  games=v["games"],
                                  history=[HistoryPoint(**h) for h in v["history"]])
                  for f, v in ratings.items()},
        played=totals["games"], won=totals["wins"],
        declarer=Declarer(bids=bids, made=totals["made"], conceded=totals["conceded"],
                          average_contract=round(totals["contracts"] / bids, 1)
                          if bids else None),
        falls=totals["falls"], bolts=totals["bolts"],
        games=[GameLine(**g) for g in games], country=country, about=about,
        abandoned=await hub.db(profiles.abandoned, hub.store, pid),
        clocks=await hub.db(profiles.clocks, hub.store, pid),
        time_controls=[TimeControlRef(base=b, increment=i,
                                      category=category_of(TimeControl(b, i)))
                       for b, i in await hub.db(profiles.time_controls, hub.store, pid)],
        daily=[] if kind == "bot" else await days_of(request, pid))
