"""A finished game's analysis on request (docs/server.md "Analysis"):
``POST /api/games/{id}/analysis`` queues it, ``GET`` tells where it is and gives it once
done.  The jobs run in server/features/analysis_jobs.py; the rows are server/store/analyses.py's.

One analysis per game and settings: asking again for one that is queued, running or done
gives that one (no limit counted).  A new one is refused when the asker (his player,
else his address) has ``per_client_active`` queued or running already (an account
``per_account_active``), or his address ``per_address_active`` (``too_many_analyses``),
or when ``queue_max`` jobs wait (``queue_full``): the runner's limits
(:class:`AnalysisLimits`, ``create_app(analysis_limits=...)``); and when he asked too many
today (the limiter's rate ``analysis``: 429 ``rate_limited``)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request

from ..errors import ServerError
from ..features.accounts import client_key, current_player
from ..features.analysis_jobs import AnalysisRunner
from ..limits import address_of, is_account
from ..limits import check as check_limit
from ..live.hub import LiveTable, hub_of
from ..reader import StrictRoute
from ..store import analyses as st
from .models import Analysis, AnalysisAsk, Progress, error_responses
from .replay_access import SeatTokenHeader, check_replay_allowed

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)


def _runner(request: Request) -> AnalysisRunner:
    runner = request.app.state.analyses
    assert isinstance(runner, AnalysisRunner)
    return runner


async def _finished_game(request: Request, game_id: str, token: str | None) -> LiveTable:
    hub = hub_of(request)
    live = await hub.get(game_id) if 1 <= len(game_id) <= 32 else None
    if live is None:
        raise ServerError("not_found", "no such game", status=404)
    check_replay_allowed(live, token)
    if not live.over:
        raise ServerError("game_running", "a game is analysed once it is over", status=409)
    return live


async def _out(request: Request, row: st.AnalysisRow) -> Analysis:
    hub = hub_of(request)
    position = await hub.db(st.position, hub.store, row.id) if row.status == "queued" else 0
    s = row.settings
    return Analysis(game=row.game_id, status=row.status,  # type: ignore[arg-type]
                    progress=Progress(done=row.done, total=row.total), position=position,
                    settings={"samples": s.samples, "view_based": s.view_based,
                              "lang": s.lang},
                    result=row.result, error=row.error)


@router.post("/api/games/{game_id}/analysis", response_model=Analysis,
             responses=error_responses(403, 404, 409, 429, 503))
async def ask_analysis(game_id: str, body: AnalysisAsk, request: Request,
                       token: SeatTokenHeader = None) -> Analysis:
    """Queue the analysis of a finished game whose replay the asker may see (or give
    the one already asked for with these settings)."""
    await _finished_game(request, game_id, token)
    hub = hub_of(request)
    settings = st.Settings(body.samples, body.view_based, body.lang)
    row = await hub.db(st.find, hub.store, game_id, settings)
    if row is not None and row.status != "failed":
        return await _out(request, row)
    client, address = client_key(request), address_of(request)
    counts = await hub.db(st.counts_of, hub.store, client, address)
    limits = _runner(request).limits
    most = limits.per_account_active if is_account(request) else limits.per_client_active
    if (most is not None and counts.client >= most) or (
            limits.per_address_active is not None
            and counts.address >= limits.per_address_active):
        raise ServerError("too_many_analyses", "wait until your analysis is done",
                          status=429)
    if counts.queued >= limits.queue_max:
        raise ServerError("queue_full", "the analyses' queue is full; try later",
                          status=503)
    await check_limit(request, "analysis")  # so many a day
    player = await current_player(request)
    account = player.id if player is not None and player.kind == "account" else None
    row = await hub.db(st.ask, hub.store, game_id, settings, client, account, address)
    _runner(request).wake()
    return await _out(request, row)


@router.get("/api/games/{game_id}/analysis", response_model=Analysis | None,
            responses=error_responses(403, 404, 409))
async def get_analysis(game_id: str, request: Request, token: SeatTokenHeader = None,
                       lang: Annotated[Literal["ru", "en"] | None, Query()] = None,
                       samples: Annotated[int | None, Query(ge=1, le=48)] = None,
                       view_based: Annotated[bool | None, Query()] = None,
                       optional: Annotated[bool, Query()] = False) -> Analysis | None:
    """Where the game's analysis is: with ``samples`` and ``view_based`` the one of these
    settings (and ``lang``, ru by default), else the newest asked (of ``lang`` if given).
    None asked is 404, or with ``optional`` a plain ``null``: the replay page asks on
    every opening whether there is one, and «none yet» is no error in its console."""
    await _finished_game(request, game_id, token)
    hub = hub_of(request)
    if samples is not None and view_based is not None:
        row = await hub.db(st.find, hub.store, game_id,
                           st.Settings(samples, view_based, lang or "ru"))
    else:
        row = await hub.db(st.latest, hub.store, game_id, lang)
    if row is None:
        if optional:
            return None
        raise ServerError("not_found", "this game's analysis was not asked for",
                          status=404)
    return await _out(request, row)
