"""The routes of the tables: lay one, list them, show one, close it, take a seat
(docs/server.md "The API").  The live tables are the hub's (server/live/hub.py); these
read the request, ask the hub and shape the answer."""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi import Path as PathParam

from thousand.bots import bot_levels
from thousand.engine.rules import Rules, RulesError

from ..checks import check_name
from ..cluster.workers import cluster_of
from ..errors import ServerError
from ..features.accounts import person_name, seat_owner
from ..ids import is_id
from ..limits import limit, limiter_of
from ..live.hub import LiveTable, hub_of
from ..live.reaper import adjourned_table
from ..names import check_person_name
from ..reader import StrictRoute
from ..store.tables import SeatRow, TableRow
from .models import (
    Closed,
    CloseTable,
    Created,
    CreateTable,
    SeatSpec,
    SeatTaken,
    TableOne,
    Tables,
    TakeSeat,
    error_responses,
)
from .play import MAX_CLOCK
from .time_controls import chosen_control

__all__ = ["invite_secret", "live_or_404", "router"]

router = APIRouter(route_class=StrictRoute)


def invite_secret(row: TableRow) -> str:
    """The secret of an unlisted table's link (``/t/{id}?invite=...``) that its free seats
    need: derived from the table's secret seed (HMAC-SHA-256 of its id), so it needs no
    column of its own and lasts across restarts, and nobody without the seed can make it
    (the seed is never shown while the game runs)."""
    mac = hmac.new(str(row.seed).encode("ascii"), f"invite:{row.id}".encode(),
                   hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:16]).rstrip(b"=").decode("ascii")


async def live_or_404(request: Request, table_id: str) -> LiveTable:
    """The live table of ``table_id`` (loaded if it is stored), or a 404."""
    hub = hub_of(request)
    live = await hub.get(table_id) if is_id(table_id) else None
    if live is None:
        raise ServerError("not_found", "no such table", status=404)
    return live


def _parse_seats(value: list[SeatSpec] | None, players: int) -> list[SeatRow]:
    levels = bot_levels()
    if value is None:
        value = [SeatSpec(kind="human")] + [SeatSpec(kind="bot")] * (players - 1)
    if len(value) != players:
        raise ServerError("bad_request", f"seats: a list of {players} seats for a "
                          f"{players}-player game", status=400)
    out = []
    for i, s in enumerate(value):
        kind, level = s.kind, s.level
        if kind == "bot":
            level = level if level is not None else "heuristic"
            if level not in levels:
                raise ServerError("bad_request", f"seats[{i}].level: one of "
                                  f"{', '.join(levels)}", status=400)
        elif level is not None:
            raise ServerError("bad_request", f"seats[{i}]: a person has no level",
                              status=400)
        name: str | None = s.name
        if name is None or not name.strip():
            name = f"Бот {i + 1}" if kind == "bot" else f"Игрок {i + 1}"
        try:
            name = check_name(name) if kind == "bot" else check_person_name(name)
        except ValueError as e:
            raise ServerError("bad_request", f"seats[{i}].{e}", status=400) from None
        out.append(SeatRow(i, kind, level, name))
    return out


def _parse_clock(value: Any, low: float) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            low <= value <= MAX_CLOCK):
        raise ServerError("bad_request", f"clock: null or seconds from {low:g} to "
                          f"{MAX_CLOCK:g}", status=400)
    return float(value)


@router.post("/api/tables", status_code=201, dependencies=[Depends(limit("table"))],
             responses=error_responses(409, 413, 415, 422, 429, 503))
async def api_create(body: CreateTable, request: Request) -> Created:
    """Lay a table; the first person's seat is the creator's (docs/server.md)."""
    if "preset" in body.options:
        raise ServerError("bad_request", "options: give the preset as \"preset\"",
                          status=400)
    try:
        rules = Rules.from_json({"preset": body.preset, **body.options})
    except RulesError as e:
        raise ServerError("bad_rules", str(e), status=422) from None
    except (ValueError, TypeError) as e:
        raise ServerError("bad_rules", str(e), status=422) from None
    seats = _parse_seats(body.seats, rules.players)
    mine = next((s for s in seats if s.kind == "human"), None)
    if mine is not None:  # the creator's seat: his own name, or one that is no account's
        mine.name = await person_name(request, mine.name)
    clock = _parse_clock(body.clock, request.app.state.min_clock)
    control = chosen_control(body, request.app.state.min_clock, default=False)
    hub = hub_of(request)
    async with limiter_of(request).live_slots(request, hub.still_live) as laid:
        live, seat, token = await hub.create(rules, seats, clock, body.open,
                                             await seat_owner(request),
                                             replay=body.replay, control=control)
        laid(live.id)
    invite = None if live.row.listed else invite_secret(live.row)
    url = f"/t/{live.id}" + (f"?invite={invite}" if invite else "")
    return Created(table=live.id, seat=seat, token=token, url=url, invite=invite)


@router.get("/api/tables", responses=error_responses())
async def api_tables(
        request: Request,
        everything: Annotated[Literal["0", "1", "true", "false"] | None,
                              Query(alias="all")] = None) -> Tables:
    """The listed tables: live ones with a free seat or somebody at them (``all``:
    finished ones too).  An unlisted table is never here."""
    wide = everything in ("1", "true")
    cluster = cluster_of(request)
    if cluster is not None:  # every worker's own tables
        parts = await cluster.gather("tables", {"wide": wide})
        found = {t["table"]: t for part in parts for t in part or []}
        infos = sorted(found.values(), key=lambda t: str(t["created"]), reverse=True)
        return Tables.model_validate({"tables": infos[:200]})
    tables = [t for t in hub_of(request).tables.values()
              if t.row.listed and (wide or (not t.over and t.lively()))]
    tables.sort(key=lambda t: t.row.created, reverse=True)
    return Tables.model_validate({"tables": [t.info_json() for t in tables[:200]]})


@router.get("/api/tables/{table_id}", responses=error_responses(404))
async def api_table(request: Request, table_id: str) -> TableOne:
    """One table, by its id (an unlisted table's id is known only from its link)."""
    hub = hub_of(request)
    stored = await adjourned_table(hub, table_id) if (
        is_id(table_id) and table_id not in hub.tables) else None
    live = stored or await live_or_404(request, table_id)
    return TableOne.model_validate({**live.info_json(), "header": live.table.header()})


@router.post("/api/tables/{table_id}/close",
             responses=error_responses(403, 404, 409, 413, 415))
async def api_close(request: Request, table_id: str, body: CloseTable) -> Closed:
    """The creator ends a table that is not over, for good."""
    live = await live_or_404(request, table_id)
    seat = live.seat_of_token(body.token)
    if seat is None:
        raise ServerError("bad_token", "this token holds no seat at this table",
                          status=403)
    if seat != live.creator_seat():
        raise ServerError("not_creator", "only the one who laid the table may close it",
                          status=403)
    await hub_of(request).close_table(live)
    return Closed(table=live.id, status="closed")


@router.post("/api/tables/{table_id}/seats/{seat}", dependencies=[Depends(limit("seat"))],
             responses=error_responses(403, 404, 409, 413, 415, 429))
async def api_take_seat(table_id: str, seat: Annotated[int, PathParam(ge=0, le=99)],
                        body: TakeSeat, request: Request) -> SeatTaken:
    """A person takes a free seat; an unlisted table's seats need its link's
    ``invite``."""
    live = await live_or_404(request, table_id)
    if not live.row.listed and not hmac.compare_digest(
            (body.invite or "").encode("utf-8", "surrogatepass"),
            invite_secret(live.row).encode("ascii")):
        raise ServerError("invite_needed", "this table is not listed: its seats are "
                          "taken only with its link (invite)", status=403)
    try:
        name = await person_name(request, body.name)
    except ValueError as e:
        raise ServerError("bad_request", str(e), status=400) from None
    token = await hub_of(request).take_seat(live, seat, name, await seat_owner(request))
    return SeatTaken(table=live.id, seat=seat, token=token, url=f"/t/{live.id}")
