"""The routes of moderation and profiles (docs/server.md "Moderation", "A player's page"):
reporting a player, the moderators' page and its actions, a player's country and «о
себе».  The logic is server/features/moderation.py and server/features/profiles.py."""

from __future__ import annotations

from typing import Literal, get_args

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import Field

from ..errors import ServerError
from ..features.accounts import current_player
from ..features.moderation import ACTIONS, MAX_HOURS, MAX_REPORT_TEXT, REASONS, Moderation
from ..features.profiles import COUNTRIES, MAX_ABOUT, check_about, check_country
from ..limits import address_of
from ..limits import check as check_limit
from ..live.hub import hub_of
from ..pages import error_page
from ..reader import StrictRoute
from ..store import moderation as rows
from ..store import profiles
from ..store import ratings as site_store
from ..store.accounts import Player
from .models import error_responses
from .play import _Strict
from .shells import page

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)

Reason = Literal["abuse", "spam", "cheating", "name", "other"]
Action = Literal["dismiss", "mute", "hide", "close"]
assert set(get_args(Reason)) == set(REASONS) and set(get_args(Action)) == set(ACTIONS)


class NewReport(_Strict):
    """A report of a player: ``player`` (his id or account name, from his page) or a
    ``table`` and ``seat`` (from the table); a ``reason`` and a short ``text``."""

    player: str | None = Field(default=None, max_length=64)
    table: str | None = Field(default=None, max_length=32)
    seat: int | None = None
    reason: Reason
    text: str = Field(default="", max_length=MAX_REPORT_TEXT)


class ReportMade(_Strict):
    id: int


class ChatLine(_Strict):
    seat: int | None
    name: str
    text: str
    at: float


class ReportOut(_Strict):
    """An open report, with the table's chat as it was then (its game: ``/replay/{table}``)."""

    id: int
    reporter: str | None
    player_id: str
    player: str
    reason: str
    text: str
    table: str | None
    chat: list[ChatLine]
    created: float


class LogLine(_Strict):
    at: float
    moderator: str
    action: str
    player_id: str | None
    player: str
    report: int | None
    detail: str


class ModerationPage(_Strict):
    """The open reports, oldest first, and the moderators' log, newest first."""

    reports: list[ReportOut]
    log: list[LogLine]


class ActionIn(_Strict):
    """``action`` on a ``report``'s player (or on ``player``, by id); ``hours`` for
    ``mute``."""

    action: Action
    report: int | None = None
    player: str | None = Field(default=None, max_length=64)
    hours: int | None = Field(default=None, ge=1, le=MAX_HOURS)


class Done(_Strict):
    done: str


class ProfileIn(_Strict):
    """A country (ISO 3166 alpha-2, ``""`` for none) and «о себе» (plain text)."""

    country: str = Field(default="", max_length=2)
    about: str = Field(default="", max_length=MAX_ABOUT + 50)


class ProfileOut(_Strict):
    """The player's country and «о себе»; ``moderator``: whether he is one (his page
    links to /moderation); ``countries``: the codes he may choose from."""

    country: str | None
    about: str | None
    moderator: bool
    countries: list[str]


def _moderation(request: Request) -> Moderation:
    moderation = request.app.state.moderation
    assert isinstance(moderation, Moderation)
    return moderation


async def _player(request: Request) -> Player:
    player = await current_player(request)
    if player is None:
        raise ServerError("not_signed_in", "no session: GET /api/me first", status=401)
    return player


@router.post("/api/reports", status_code=201, response_model=ReportMade,
             responses=error_responses(401, 404, 429))
async def report(body: NewReport, request: Request) -> ReportMade:
    """Report a player to the moderators (anyone with a session; limited per client and
    per address: ``report``)."""
    moderation = _moderation(request)
    reporter = await _player(request)
    await check_limit(request, "report")
    if body.table is not None and body.seat is not None:
        reported = await moderation.reported_seat(body.table, body.seat)
    elif body.player is not None:
        hub = hub_of(request)
        found = await hub.db(site_store.find_player, hub.store, body.player)
        if found is None or found[1] == "bot":
            raise ServerError("not_found", "no such player", status=404)
        reported = (found[0], found[2] or "")
    else:
        raise ServerError("bad_request", "a player, or a table and a seat", status=400)
    moderation.words.check(body.text)
    made = await moderation.report(reporter, address_of(request), reported, body.reason,
                                   body.text.strip(), body.table)
    return ReportMade(id=made)


@router.api_route("/moderation", methods=["GET", "HEAD"], include_in_schema=False)
async def moderation_page(request: Request) -> Response:
    """The moderators' page; anyone else gets the 403 page."""
    if not await _moderation(request).is_moderator(await current_player(request)):
        return error_page(request, 403, "other")
    return page(request, "moderation")


@router.get("/api/moderation", response_model=ModerationPage,
            responses=error_responses(403))
async def moderation_state(request: Request) -> ModerationPage:
    """The open reports and the log (moderators only: 403 for anyone else)."""
    moderation = _moderation(request)
    await moderation.moderator(await current_player(request))
    hub = hub_of(request)
    reports = await hub.db(rows.open_reports, moderation.store)
    log = await hub.db(rows.log, moderation.store)
    return ModerationPage(
        reports=[ReportOut(id=r.id, reporter=r.reporter_name, player_id=r.reported_id,
                           player=r.reported_name, reason=r.reason, text=r.text,
                           table=r.table_id, chat=[ChatLine(**c) for c in r.chat],
                           created=r.created) for r in reports],
        log=[LogLine(at=x.at, moderator=x.moderator, action=x.action,
                     player_id=x.player_id, player=x.player_name, report=x.report_id,
                     detail=x.detail) for x in log])


@router.post("/api/moderation/actions", response_model=Done,
             responses=error_responses(403, 404))
async def act(body: ActionIn, request: Request) -> Done:
    """A moderator's action on a report's player, written in the log."""
    moderation = _moderation(request)
    moderator = await moderation.moderator(await current_player(request))
    done = await moderation.act(moderator, body.action, report_id=body.report,
                                player_id=body.player, hours=body.hours)
    return Done(done=done)


async def _profile(request: Request, player: Player) -> ProfileOut:
    moderation = _moderation(request)
    country, about = await moderation.hub.db(profiles.profile, moderation.store, player.id)
    return ProfileOut(country=country, about=about,
                      moderator=await moderation.is_moderator(player),
                      countries=sorted(COUNTRIES))


@router.get("/api/account/profile", response_model=ProfileOut,
            responses=error_responses(401))
async def my_profile(request: Request) -> ProfileOut:
    """The signed-in player's country and «о себе»."""
    return await _profile(request, await _player(request))


@router.post("/api/account/profile", response_model=ProfileOut,
             responses=error_responses(401))
async def set_profile(body: ProfileIn, request: Request) -> ProfileOut:
    """Set the account's country and «о себе» (an account's: a guest's page is not kept)."""
    player = await _player(request)
    if player.kind != "account":
        raise ServerError("not_signed_in", "sign in first", status=401)
    moderation = _moderation(request)
    country = check_country(body.country)
    about = check_about(body.about, moderation.words)
    await moderation.hub.db(profiles.set_profile, moderation.store, player.id, country, about)
    return await _profile(request, player)
