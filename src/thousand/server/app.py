"""The web application: pages, the JSON API and the table WebSocket (docs/server.md).

:func:`create_app` opens the store (running its migrations) at once, so a database that
cannot be used is reported before the server listens; the live tables are rebuilt when
the application starts (its lifespan) and their bots and clocks stop when it stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from thousand.bots import bot_levels
from thousand.record import MAX_RECORD_BYTES, dumps_record
from thousand.rules import Rules, RulesError
from thousand.rules_text import value_words
from thousand.table import Table

from .account_store import AccountStore
from .accounts import Accounts, seat_owner
from .catalog import name_forms_json, rules_catalog, texts_catalog
from .checks import check_name
from .hub import Conn, Hub, LiveTable, ServerError, iso
from .pages import error_page
from .replay import ReplayRefused, record_replay, table_replay
from .routes_accounts import router as accounts_router
from .routes_play import router as play_router
from .store import SeatRow, Store, TableRow

__all__ = ["create_app", "default_db_url"]

log = logging.getLogger("thousand.server")

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
#: The move clock's bounds, in seconds.
MIN_CLOCK, MAX_CLOCK = 5.0, 3600.0
#: The largest JSON body of a request other than a record.
MAX_BODY = 64_000

#: The pages: path -> the file of src/thousand/web/ that is its shell.
PAGES = {"lobby": "index.html", "table": "table.html", "history": "history.html",
         "replay": "replay.html", "account": "account.html"}


def default_db_url() -> str:
    """SQLite in the user's data folder: ``$XDG_DATA_HOME/thousand/thousand.db``
    (``~/.local/share/thousand/thousand.db``), so games last whatever folder the server
    is started from."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    folder = Path(base) / "thousand"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'thousand.db'}"


def _web_dir() -> Path:
    return Path(str(resources.files("thousand").joinpath("web")))


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status)


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang", "ru")
    if lang not in ("ru", "en"):
        raise ServerError("bad_request", "lang: use ru or en", status=400)
    return lang


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query_params.get(name)
    if text is None:
        return default
    if not re.fullmatch(r"[0-9]{1,9}", text) or not low <= int(text) <= high:
        raise ServerError("bad_request", f"{name}: a whole number from {low} to {high}",
                          status=400)
    return int(text)


async def _body(request: Request, limit: int) -> bytes:
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise ServerError("too_large", f"the body is larger than {limit} bytes", status=413)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise ServerError("too_large", f"the body is larger than {limit} bytes",
                              status=413)
    return bytes(data)


async def _json_body(request: Request) -> Any:
    import json

    data = await _body(request, MAX_BODY)
    try:
        return json.loads(data) if data.strip() else {}
    except ValueError:
        raise ServerError("bad_request", "the body is not JSON", status=400) from None


def _check_keys(obj: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(obj) - allowed)
    if extra:
        raise ServerError("bad_request", f"{where}unknown key {extra[0]!r}", status=400)


def _parse_seats(value: Any, players: int) -> list[SeatRow]:
    levels = bot_levels()
    if value is None:
        value = [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)
    if not isinstance(value, list) or len(value) != players:
        raise ServerError("bad_request", f"seats: a list of {players} seats for a "
                          f"{players}-player game", status=400)
    out = []
    for i, s in enumerate(value):
        if not isinstance(s, dict):
            raise ServerError("bad_request", f"seats[{i}]: an object", status=400)
        _check_keys(s, {"kind", "level", "name"}, f"seats[{i}]: ")
        kind = s.get("kind", "human")
        if kind not in ("human", "bot"):
            raise ServerError("bad_request", f"seats[{i}].kind: human or bot", status=400)
        level = s.get("level")
        if kind == "bot":
            level = level if level is not None else "heuristic"
            if level not in levels:
                raise ServerError("bad_request", f"seats[{i}].level: one of "
                                  f"{', '.join(levels)}", status=400)
        elif level is not None:
            raise ServerError("bad_request", f"seats[{i}]: a person has no level",
                              status=400)
        name = s.get("name")
        if name is None or (isinstance(name, str) and not name.strip()):
            name = f"Бот {i + 1}" if kind == "bot" else f"Игрок {i + 1}"
        try:
            name = check_name(name)
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


def _with_labels(catalog: dict[str, Any], lang: str) -> dict[str, Any]:
    """The rules catalogue with ``labels``: beside each option's ``values``, each value in
    the players' words (``thousand.rules_text.value_words``: «игрок слева от сдающего»,
    not ``left_of_dealer``), for the new-table form."""
    out = copy.deepcopy(catalog)
    for group in out.get("groups", []):
        for option in group.get("options", []):
            if isinstance(option.get("values"), list) and "labels" not in option:
                option["labels"] = [value_words(option["name"], v, lang)
                                    for v in option["values"]]
    return out


def _game_json(row: TableRow, live: LiveTable | None) -> dict[str, Any]:
    if live is not None:
        scores: list[int] | None = list(live.table.game.scores)
        winner = live.table.game.winner
        status = live.row.status
        names = list(live.table.names)
        finished = live.row.finished
    else:
        scores, winner, status, names, finished = (row.scores, row.winner, row.status,
                                                   row.names, row.finished)
    return {"id": row.id, "players": names, "preset": row.preset, "winner": winner,
            "scores": scores, "started": iso(row.created), "finished": iso(finished),
            "status": status}


def create_app(db_url: str | None = None, *, bots_threads: int = 2, bot_delay: float = 0.6,
               web_dir: str | Path | None = None, min_clock: float = MIN_CLOCK) -> FastAPI:
    """The server's application over the database ``db_url`` (any SQLAlchemy URL;
    :func:`default_db_url` when None).  ``bots_threads`` threads think for the bots and
    hints; a bot waits ``bot_delay`` seconds before it moves, so people see its card;
    a table's move clock is at least ``min_clock`` seconds (the tests use less)."""
    store = Store(db_url or default_db_url())
    hub = Hub(store, bots_threads=bots_threads, bot_delay=bot_delay)
    web = Path(web_dir) if web_dir is not None else _web_dir()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            store.close()

    app = FastAPI(title="thousand", lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.hub = hub
    # the players (server/accounts.py; docs/server.md "Players"): their routes, and the
    # CSRF check of every state-changing request with a session (the middleware below)
    app.state.accounts = Accounts(hub, AccountStore(store))
    app.include_router(accounts_router)
    app.state.min_clock = min_clock
    app.include_router(play_router)  # quick play, leaving, ratings (routes_play.py)
    app.state.store = store

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, e: ServerError) -> JSONResponse:
        return JSONResponse(e.http_json(), status_code=e.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> Response:
        # the API answers in JSON; everything else is a page for a person, in his language
        if request.url.path.startswith("/api/"):
            code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code,
                                                                      "http_error")
            return _error(e.status_code, code, str(e.detail))
        return error_page(request, web, e.status_code,
                          "page" if e.status_code == 404 else "other")

    @app.middleware("http")
    async def _csrf(request: Request, call_next: Any) -> Response:
        refusal = await app.state.accounts.check_request(request)
        if refusal is not None:
            return refusal  # type: ignore[no-any-return]
        response: Response = await call_next(request)
        return response

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    async def live_or_404(table_id: str) -> LiveTable:
        live = await hub.get(table_id) if _ID.fullmatch(table_id) else None
        if live is None:
            raise ServerError("not_found", "no such table", status=404)
        return live

    # ------------------------------------------------------------------ pages

    def page(name: str) -> Response:
        path = web / PAGES[name]
        if path.is_file():
            return FileResponse(path, media_type="text/html",
                                headers={"Cache-Control": "no-cache"})
        return HTMLResponse(
            "<!doctype html><meta charset=utf-8><title>Тысяча</title>"
            "<p>The web client is not installed; the API is at <a href=/api/docs>"
            "/api/docs</a>.</p>", status_code=200)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby_page() -> Response:
        return page("lobby")

    async def known(table_id: str) -> str | None:
        """Whether a table (a game) can be shown: ``"live"`` (in memory, or finished and
        stored), ``"closed"`` (its creator closed it), else None — without loading it."""
        if not _ID.fullmatch(table_id):
            return None
        if table_id in hub.tables:
            return "live"
        row = await hub.db(store.load, table_id, with_moves=False)
        if row is None:
            return None
        return {"over": "live", "closed": "closed"}.get(row.status)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        state = await known(table_id)
        if state == "live":
            return page("table")
        return error_page(request, web, 410 if state == "closed" else 404,
                          state or "table")

    @app.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
    async def account_page() -> Response:
        return page("account")

    @app.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
    async def history_page() -> Response:
        return page("history")

    @app.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_upload_page() -> Response:
        return page("replay")

    @app.api_route("/replay/{game_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(request: Request, game_id: str) -> Response:
        if await known(game_id) == "live":
            return page("replay")
        return error_page(request, web, 404, "game")

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")

    # ------------------------------------------------------------------ the API

    @app.get("/api/rules")
    async def api_rules(request: Request) -> dict[str, Any]:
        return _with_labels(rules_catalog(_lang(request)), _lang(request))

    @app.get("/api/texts")
    async def api_texts(request: Request) -> dict[str, Any]:
        return texts_catalog(_lang(request))

    @app.post("/api/tables", status_code=201)
    async def api_create(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body is a JSON object", status=400)
        _check_keys(body, {"preset", "options", "seats", "clock", "open"}, "")
        preset = body.get("preset", "classic")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ServerError("bad_request", "options: an object {name: value}", status=400)
        if "preset" in options:
            raise ServerError("bad_request", "options: give the preset as \"preset\"",
                              status=400)
        try:
            rules = Rules.from_json({"preset": preset, **options})
        except RulesError as e:
            raise ServerError("bad_rules", str(e), status=422) from None
        except (ValueError, TypeError) as e:
            raise ServerError("bad_rules", str(e), status=422) from None
        seats = _parse_seats(body.get("seats"), rules.players)
        clock = _parse_clock(body.get("clock"), min_clock)
        listed = body.get("open", True)
        if not isinstance(listed, bool):
            raise ServerError("bad_request", "open: true or false", status=400)
        live, seat, token = await hub.create(rules, seats, clock, listed,
                                             await seat_owner(request))
        return {"table": live.id, "seat": seat, "token": token, "url": f"/t/{live.id}"}

    @app.get("/api/tables")
    async def api_tables(request: Request) -> dict[str, Any]:
        everything = request.query_params.get("all") in ("1", "true")
        tables = [t for t in hub.tables.values()
                  if t.row.listed and (everything or (not t.over and t.lively()))]
        tables.sort(key=lambda t: t.row.created, reverse=True)
        return {"tables": [t.info_json() for t in tables[:200]]}

    @app.get("/api/tables/{table_id}")
    async def api_table(table_id: str) -> dict[str, Any]:
        live = await live_or_404(table_id)
        return {**live.info_json(), "header": live.table.header()}

    @app.post("/api/tables/{table_id}/close")
    async def api_close(table_id: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body is a JSON object", status=400)
        _check_keys(body, {"token"}, "")
        token = body.get("token")
        if not isinstance(token, str) or not token:
            raise ServerError("bad_request", "token: the seat token the table gave its "
                              "creator", status=400)
        live = await live_or_404(table_id)
        seat = live.seat_of_token(token)
        if seat is None:
            raise ServerError("bad_token", "this token holds no seat at this table",
                              status=403)
        if seat != live.creator_seat():
            raise ServerError("not_creator", "only the one who laid the table may close it",
                              status=403)
        await hub.close_table(live)
        return {"table": live.id, "status": "closed"}

    @app.post("/api/tables/{table_id}/seats/{seat}")
    async def api_take_seat(table_id: str, seat: str, request: Request) -> dict[str, Any]:
        live = await live_or_404(table_id)
        if not re.fullmatch(r"[0-9]{1,2}", seat):
            raise ServerError("no_such_seat", f"{seat[:10]!r} is not a seat", status=404)
        body = await _json_body(request)
        if not isinstance(body, dict):
            raise ServerError("bad_request", "the body is a JSON object", status=400)
        _check_keys(body, {"name"}, "")
        try:
            name = check_name(body.get("name"))
        except ValueError as e:
            raise ServerError("bad_request", str(e), status=400) from None
        token = await hub.take_seat(live, int(seat), name, await seat_owner(request))
        return {"table": live.id, "seat": int(seat), "token": token,
                "url": f"/t/{live.id}"}

    @app.get("/api/games")
    async def api_games(request: Request) -> dict[str, Any]:
        limit = _int_param(request, "limit", 50, 1, 500)
        offset = _int_param(request, "offset", 0, 0, 10**9)
        rows, total = await hub.db(store.games, limit, offset)
        return {"games": [_game_json(r, hub.tables.get(r.id)) for r in rows],
                "total": total, "limit": limit, "offset": offset}

    @app.get("/api/games/{game_id}/record")
    async def api_record(game_id: str) -> Response:
        live = await live_or_404(game_id)
        if not live.over:
            raise ServerError("game_running", "the record is given once the game is over",
                              status=409)
        text = dumps_record(live.table.to_record())
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="thousand-{live.id}.json"'})

    @app.get("/api/games/{game_id}/replay")
    async def api_game_replay(game_id: str) -> dict[str, Any]:
        live = await live_or_404(game_id)
        async with live.lock:
            table: Table = live.table.clone()
        over = table.over
        try:
            steps = await hub.offload(lambda: table_replay(table, hands=over))
        except ReplayRefused as e:
            raise ServerError(e.code, str(e), status=400) from None
        return {"record": table.to_record() if over else None, "header": table.header(),
                "over": over, "winner": table.game.winner, "steps": steps,
                "name_forms": name_forms_json(tuple(table.names))}

    @app.post("/api/replay")
    async def api_replay(request: Request) -> dict[str, Any]:
        data = await _body(request, MAX_RECORD_BYTES)
        try:
            out = await hub.offload(record_replay, data)
        except ReplayRefused as e:
            raise ServerError(e.code, str(e), status=400) from None
        players = out["header"].get("players") or []
        out["name_forms"] = name_forms_json(tuple(str(n) for n in players))
        return out

    # ------------------------------------------------------------------ the table socket

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        if not _same_origin(websocket.headers.get("origin"), websocket.headers.get("host")):
            await websocket.close(code=4403)  # another site's page: refused
            return
        await websocket.accept()
        live = await hub.get(table_id) if _ID.fullmatch(table_id) else None
        if live is None:
            await _refuse(websocket, 4404, "no_such_table", "no such table")
            return
        token = websocket.query_params.get("token")
        seat: int | None = None
        if token:
            seat = live.seat_of_token(token)
            if seat is None:
                await _refuse(websocket, 4401, "bad_token",
                              "this token holds no seat at this table")
                return
        conn = Conn(seat)
        writer = asyncio.create_task(_writer(websocket, conn))
        try:
            await live.attach(conn)
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                await live.handle(conn, raw)
        except WebSocketDisconnect:
            pass
        except RuntimeError:  # the socket went away mid-receive
            pass
        finally:
            live.detach(conn)
            try:
                await asyncio.wait_for(writer, 5)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()

    return app


def _same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a WebSocket comes from a page of this server (or from no page at all: a
    program sends no ``Origin``).  Host names and ports are compared, default ports
    filled in."""
    if origin is None or host is None:
        return True
    try:
        page = urlsplit(origin)
        here = urlsplit(f"//{host}")
        defaults = {"http": 80, "https": 443}
        page_port = page.port or defaults.get(page.scheme)
        here_port = here.port or defaults.get(page.scheme)
    except ValueError:
        return False
    return bool(page.hostname) and page.hostname == here.hostname and page_port == here_port


async def _refuse(websocket: WebSocket, code: int, error: str, message: str) -> None:
    await websocket.send_json({"type": "error", "code": error, "params": {},
                               "message": message})
    await websocket.close(code=code)


async def _writer(websocket: WebSocket, conn: Conn) -> None:
    """Send the connection's queue in order; at its end (the connection closed, or fell
    too far behind) close the socket, which ends the reader too."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:
        conn.closed = True
        return
    if websocket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await websocket.close(code=1000)
