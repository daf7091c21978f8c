"""The pages: each path's HTML shell of ``web/`` that its script fills in (the lobby, a
table, the account, the exercises, the tournaments, the history, the replays).  A table's
or a game's page is answered only for a table the server knows (404, or 410 for a closed
one: server/pages.py's error page, in the reader's language)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

from ..cluster.workers import cluster_of
from ..ids import is_id
from ..live.hub import hub_of
from ..pages import error_page
from ..reader import StrictRoute

__all__ = ["PAGES", "router", "web_of"]

router = APIRouter(route_class=StrictRoute)

#: The pages: path -> the file of src/thousand/web/ that is its shell.
PAGES = {"lobby": "index.html", "table": "table.html", "history": "history.html",
         "replay": "replay.html", "account": "account.html",
         "tournaments": "tournaments.html", "exercises": "exercises.html"}


def web_of(request: Request) -> Path:
    """The folder of the pages and their scripts (``create_app`` keeps it in
    ``app.state.web``)."""
    web = request.app.state.web
    assert isinstance(web, Path)
    return web


def page(request: Request, name: str) -> Response:
    path = web_of(request) / PAGES[name]
    if path.is_file():
        return FileResponse(path, media_type="text/html",
                            headers={"Cache-Control": "no-cache"})
    return HTMLResponse(
        "<!doctype html><meta charset=utf-8><title>Тысяча</title>"
        "<p>The web client is not installed; the API is at <a href=/api/docs>"
        "/api/docs</a>.</p>", status_code=200)


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
    return error_page(request, web_of(request), 410 if state == "closed" else 404,
                      state or "table")


@router.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
async def account_page(request: Request) -> Response:
    return page(request, "account")


@router.api_route("/exercises", methods=["GET", "HEAD"], include_in_schema=False)
async def exercises_page(request: Request) -> Response:
    return page(request, "exercises")  # the player's exercises (web/exercises.js)


@router.api_route("/tournaments", methods=["GET", "HEAD"], include_in_schema=False)
@router.api_route("/tournaments/{tid}", methods=["GET", "HEAD"], include_in_schema=False)
async def tournaments_page(request: Request) -> Response:
    return page(request, "tournaments")  # the list, or one tournament (web/tournaments.js)


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
    return error_page(request, web_of(request), 404, "game")
