"""The pages: each path's one shell (server/templates/shell.html) with its script of
``web/`` (the lobby, a table, the account, the exercises, the tournaments, the history,
the replays).  A table's
or a game's page is answered only for a table the server knows (404, or 410 for a closed
one: server/pages.py's error page, in the reader's language)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..cluster.workers import cluster_of
from ..ids import is_id
from ..live.hub import hub_of
from ..pages import error_page, shell_page
from ..reader import StrictRoute

__all__ = ["router", "web_of"]

router = APIRouter(route_class=StrictRoute)

def web_of(request: Request) -> Path:
    """The folder of the pages' scripts (``create_app`` keeps it in ``app.state.web``)."""
    web = request.app.state.web
    assert isinstance(web, Path)
    return web


def page(request: Request, name: str) -> Response:
    """Page ``name``: the one shell and the page's script (server/pages.py)."""
    return shell_page(web_of(request), name)


async def known(request: Request, table_id: str) -> str | None:
    """Whether a table (a game) can be shown: ``"live"`` (in memory, or finished and
    stored), ``"closed"`` (its creator closed it), else None — without loading it."""
    if not is_id(table_id):
        return None
    hub = hub_of(request)
    if table_id in hub.tables:
        return "live"
    row = await hub.db(hub.store.load, table_id, with_moves=False)
    if row is None:
        return None
    if cluster_of(request) is not None and row.status in ("waiting", "playing"):
        return "live"  # held by another worker, or taken over when it is opened
    return {"over": "live", "adjourned": "live", "closed": "closed"}.get(row.status)


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def lobby_page(request: Request) -> Response:
    return page(request, "lobby")


@router.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def table_page(request: Request, table_id: str) -> Response:
    state = await known(request, table_id)
    if state == "live":
        return page(request, "table")
    return error_page(request, 410 if state == "closed" else 404,
                      state or "table")


@router.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
async def account_page(request: Request) -> Response:
    return page(request, "account")


@router.api_route("/exercises", methods=["GET", "HEAD"], include_in_schema=False)
async def exercises_page(request: Request) -> Response:
    return page(request, "exercises")  # the player's exercises (web/exercises.js)


@router.api_route("/friends", methods=["GET", "HEAD"], include_in_schema=False)
async def friends_page(request: Request) -> Response:
    return page(request, "friends")  # follows, blocks, presence settings (web/friends.js)


@router.api_route("/tournaments", methods=["GET", "HEAD"], include_in_schema=False)
@router.api_route("/tournaments/{tid}", methods=["GET", "HEAD"], include_in_schema=False)
async def tournaments_page(request: Request) -> Response:
    return page(request, "tournaments")  # the list, or one tournament (web/tournaments.js)


@router.api_route("/daily", methods=["GET", "HEAD"], include_in_schema=False)
async def daily_page(request: Request) -> Response:
    return page(request, "daily")  # the deal of the day (web/daily.js)


@router.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
async def history_page(request: Request) -> Response:
    return page(request, "history")


@router.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
async def replay_upload_page(request: Request) -> Response:
    return page(request, "replay")


@router.api_route("/replay/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
async def replay_page(request: Request, game_id: str) -> Response:
    if await known(request, game_id) == "live":
        return page(request, "replay")
    return error_page(request, 404, "game")
