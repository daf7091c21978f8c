"""The deal of the day's routes (docs/server.md "The deal of the day"): today's set and
the asker's games of it, a day's leaderboard (its seed once revealed), a deal begun, and
the asker's days.  The feature is server/features/daily.py; these read the request, ask
it and shape the answer."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict

from ..errors import ServerError
from ..features import daily as fd
from ..features.accounts import current_player, person_name, seat_owner
from ..limits import limit, limiter_of
from ..live.hub import hub_of
from ..reader import StrictRoute
from ..store import daily as daily_store
from ..store.accounts import Player
from ..store.daily import PlayRow
from .models import error_responses

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DailyRow(_Strict):
    """A player's line of a day's leaderboard: his duplicate score (``total``) and his
    score in each deal he finished (``deals``: deal number -> score)."""

    place: int
    player: str
    name: str
    guest: bool
    total: float
    deals: dict[str, int]
    me: bool


class MyDeal(_Strict):
    """One deal of today for the asker: ``status`` ``new``, ``playing`` or ``over``; his
    table (its replay and analysis once over) and score."""

    deal: int
    status: str
    table: str | None
    url: str | None
    score: int | None


class DailyDay(_Strict):
    """A day's set: the commitment to its seed, the seed once revealed (``reveal_at``),
    its rules and bots, its leaderboard; today's with the asker's deals."""

    day: str
    today: bool
    deals: int
    preset: str
    bot_level: str
    commitment: str | None
    seed: str | None
    reveal_at: str
    board: list[DailyRow]
    mine: list[MyDeal]


class StartDaily(_Strict):
    """A guest's name for the leaderboard (an account plays under its own)."""

    name: str | None = None


class DailyStarted(_Strict):
    """A deal of today begun (or gone back to): its table, the seat (0) and its token."""

    day: str
    deal: int
    table: str
    seat: int
    token: str
    url: str


class MyDay(_Strict):
    """One day of a player's (the asker's on /daily, anyone's on his page): his place
    among how many (``place`` null: no deal of his scored), his duplicate score (against
    the field), the deals he finished."""

    day: str
    place: int | None
    players: int
    total: float | None
    played: int


class DailyHistory(_Strict):
    days: list[MyDay]


def _daily(request: Request) -> fd.Daily:
    daily = request.app.state.daily
    assert isinstance(daily, fd.Daily)
    return daily


#: A day in a path: ``YYYY-MM-DD`` (one that is no date, «2026-02-30», is no such day).
DAY_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


def _check_day(day: str) -> str:
    try:
        return dt.date.fromisoformat(day).isoformat()
    except ValueError:
        raise ServerError("not_found", "no such day", status=404) from None


def _mine(plays: list[PlayRow], player: Player | None) -> list[MyDeal]:
    held = {p.deal: p for p in plays if player is not None and p.player_id == player.id}
    out = []
    for deal in range(1, fd.DEALS + 1):
        p = held.get(deal)
        if p is None:
            out.append(MyDeal(deal=deal, status="new", table=None, url=None, score=None))
        else:
            over = p.finished is not None
            out.append(MyDeal(deal=deal, status="over" if over else "playing",
                              table=p.table_id,
                              url=f"/replay/{p.table_id}" if over else f"/t/{p.table_id}",
                              score=p.score))
    return out


@router.get("/api/daily", responses=error_responses())
async def daily_today(request: Request) -> DailyDay:
    """Today's set, its leaderboard so far and the asker's deals."""
    return await _day(request, _daily(request).today())


@router.get("/api/daily/days/{day}", responses=error_responses(404))
async def daily_day(request: Request,
                    day: Annotated[str, PathParam(pattern=DAY_PATTERN)]) -> DailyDay:
    """A day's set and leaderboard; its seed once the day is over (and its grace)."""
    return await _day(request, _check_day(day))


async def _day(request: Request, day: str) -> DailyDay:
    daily, hub = _daily(request), hub_of(request)
    found = await daily.day(day)
    if found is None and day > daily.today():
        raise ServerError("not_found", "that day has not come", status=404)
    plays = await hub.db(daily_store.plays_of_day, hub.store, day)
    me = await current_player(request)
    revealed = daily.revealed(day)
    board = [DailyRow(place=s.place, player=s.player_id, name=s.name, guest=s.guest,
                      total=s.total, deals={str(k): v for k, v in s.deals.items()},
                      me=me is not None and s.player_id == me.id)
             for s in fd.standings(plays)]
    reveal = dt.datetime.fromtimestamp(fd.day_end(day) + fd.GRACE, dt.UTC)
    return DailyDay(day=day, today=day == daily.today(), deals=fd.DEALS, preset=fd.PRESET,
                    bot_level=fd.BOT_LEVEL,
                    commitment=found.commitment if found is not None else None,
                    seed=str(found.seed) if found is not None and revealed else None,
                    reveal_at=reveal.isoformat().replace("+00:00", "Z"), board=board,
                    mine=_mine(plays, me) if day == daily.today() else [])


@router.post("/api/daily/deals/{deal}", dependencies=[Depends(limit("daily"))],
             responses=error_responses(403, 404, 409, 413, 415, 429, 503))
async def daily_start(request: Request,
                      deal: Annotated[int, PathParam(ge=1, le=fd.DEALS)],
                      body: StartDaily) -> DailyStarted:
    """Begin today's deal ``deal`` in seat 0 against the day's bots, or go back to it;
    refused (409 ``daily_played``) once played."""
    me = await current_player(request)
    owner = await seat_owner(request)
    if me is None or owner is None:
        raise ServerError("session_needed", "a deal of the day is played by a player: "
                          "get a session first (GET /api/me)", status=403)
    try:
        name = await person_name(request, body.name or me.name
                                 or "Гость")
    except ValueError as e:
        raise ServerError("bad_request", str(e), status=400) from None
    daily = _daily(request)
    async with limiter_of(request).live_slots(request, hub_of(request).still_live) as laid:
        play, token = await daily.start(deal, name, owner, me.kind != "account")
        laid(play.table_id)
    return DailyStarted(day=play.day, deal=deal, table=play.table_id, seat=0, token=token,
                        url=f"/t/{play.table_id}")


async def days_of(request: Request, player_id: str) -> list[MyDay]:
    """A player's days (the last :data:`~thousand.server.features.daily.HISTORY_DAYS` he
    played), newest first: /daily's and his page's."""
    return [MyDay(day=d.day, place=d.place, players=d.players, total=d.total,
                  played=d.played) for d in await _daily(request).history(player_id)]


@router.get("/api/daily/me", responses=error_responses())
async def daily_mine(request: Request) -> DailyHistory:
    """The asker's days (the last 30 he played), newest first."""
    me = await current_player(request)
    return DailyHistory(days=[] if me is None else await days_of(request, me.id))
