"""The web application: pages, the JSON API and the table WebSocket (docs/server.md).

:func:`create_app` opens the store (running its migrations) at once, so a database that
cannot be used is reported before the server listens; the live tables are rebuilt when
the application starts (its lifespan) and their bots and clocks stop when it stops.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import hashlib
import hmac
import logging
import os
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketDisconnect, WebSocketState

from thousand.bots import bot_levels
from thousand.engine.record import dumps_record
from thousand.engine.rules import Rules, RulesError
from thousand.engine.table import Table
from thousand.words.rules import value_words

from . import gc_tuning
from . import metrics as metrics_
from .account_store import AccountStore
from .accounts import Accounts, person_name, seat_owner
from .analysis_jobs import AnalysisLimits, AnalysisRunner
from .bot_turns import ThinkingCaps
from .catalog import name_forms_json, rules_catalog, texts_catalog
from .checks import check_name, token_matches
from .cluster import FORWARDED, Cluster, owned_path
from .health import (
    Health,
    Readiness,
    health_responses,
    limits_check,
    redis_check,
    store_check,
)
from .holdings import ALL, Holdings, LocalHoldings
from .hub import MAX_LIVE_TABLES, Conn, Hub, LiveTable, ServerError, frames, iso
from .ids import is_id
from .limits import Limiter, RateLimited, count, limit
from .models import (
    Closed,
    CloseTable,
    Created,
    CreateTable,
    Games,
    ReplayOut,
    SeatSpec,
    SeatTaken,
    TableOne,
    Tables,
    TakeSeat,
    error_responses,
)
from .names import check_person_name
from .pages import error_page, page_lang, page_words, shell_page
from .player_stats import seat_players_of
from .reader import ReadError, StrictRoute, raw_body
from .reaper import Reaper, adjourned_table, resume
from .replay import ReplayRefused, record_replay, table_replay
from .replay_access import SeatTokenHeader, check_replay_allowed
from .room import room_maker
from .routes_accounts import router as accounts_router
from .routes_analysis import router as analysis_router
from .routes_exercises import router as exercises_router
from .routes_play import MAX_CLOCK, MIN_CLOCK
from .routes_play import router as play_router
from .routes_players import router as players_router
from .routes_tournaments import router as tournaments_router
from .store import SeatRow, Store, StoreError, TableRow, normalize_url
from .web_security import (
    CONTENT_SECURITY_POLICY,
    PRIVATE_NETWORKS,
    address_allowed,
    same_origin,
)
from .worker import worker_id

__all__ = ["check_cluster_db", "create_app", "default_db_url"]

log = logging.getLogger("thousand.server")

#: A query string's secrets, and anything shaped like a seat token (43 URL-safe
#: characters: checks.new_token), as the log must never show them.
_QUERY = re.compile(r"(/[^\s?\"']*)\?[^\s\"']*")
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
_PROTOCOL_TOKEN = re.compile(r"(token|invite)\.[A-Za-z0-9_-]+")
#: The WebSocket subprotocol of a table's socket; a seat's token travels beside it as
#: ``token.<token>`` (never in the URL, which logs and proxies keep).
WS_PROTOCOL = "thousand"
#: The response header naming the worker that answered (many workers: docs/server.md).
WORKER_HEADER = "X-Thousand-Worker"

#: The ``lang`` query parameter: the language of the words a route gives.
Lang = Annotated[Literal["ru", "en"], Query(description="ru or en")]

def default_db_url() -> str:
    """SQLite in the user's data folder: ``$XDG_DATA_HOME/thousand/thousand.db``
    (``~/.local/share/thousand/thousand.db``), so games last whatever folder the server
    is started from."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    folder = Path(base) / "thousand"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'thousand.db'}"


def check_cluster_db(db_url: str) -> None:
    """Refuse (:class:`StoreError`) a database that many workers cannot share: ``--redis``
    needs PostgreSQL.  The refusal's one home: ``thousand serve`` asks it before it starts
    any worker (so that N workers do not each fail alone), :func:`create_app` before it
    opens the store (so that an embedding program is refused as well)."""
    if make_url(normalize_url(db_url)).get_backend_name() != "postgresql":
        raise StoreError("--redis (many workers) needs a PostgreSQL database (--db "
                         "postgresql+psycopg://...): SQLite is one process's database",
                         ru="--redis (много процессов) требует базу PostgreSQL (--db "
                            "postgresql+psycopg://...): SQLite — база одного процесса")


def _web_dir() -> Path:
    return Path(str(resources.files("thousand").joinpath("web")))


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}},
                        status_code=status)


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


def _with_labels(catalog: dict[str, Any], lang: str) -> dict[str, Any]:
    """The rules catalogue with ``labels``: beside each option's ``values``, each value in
    the players' words (``thousand.words.rules.value_words``: «игрок слева от сдающего»,
    not ``left_of_dealer``), for the new-table form."""
    out = copy.deepcopy(catalog)
    for group in out.get("groups", []):
        for option in group.get("options", []):
            if isinstance(option.get("values"), list) and "labels" not in option:
                option["labels"] = [value_words(option["name"], v, lang)
                                    for v in option["values"]]
    return out


def _game_json(row: TableRow, live: LiveTable | None) -> dict[str, Any]:
    seats = live.seats if live is not None else row.seats
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
            "status": status, "player_ids": seat_players_of(seats),
            "guests": [s.guest for s in seats]}


def invite_secret(row: TableRow) -> str:
    """The secret of an unlisted table's link (``/t/{id}?invite=...``) that its free seats
    need: derived from the table's secret seed (HMAC-SHA-256 of its id), so it needs no
    column of its own and lasts across restarts, and nobody without the seed can make it
    (the seed is never shown while the game runs)."""
    mac = hmac.new(str(row.seed).encode("ascii"), f"invite:{row.id}".encode(),
                   hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:16]).rstrip(b"=").decode("ascii")


class _HideSecrets(logging.Filter):
    """Keep seat tokens and invite secrets out of every log line (uvicorn's access log
    prints the path with its query, its debug log the handshake's headers): query strings
    are cut, the ``token.`` subprotocol and token-shaped words replaced; and no traceback
    for a client's bad UTF-8."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], UnicodeError):
            # uvicorn logs a client's frame of bad UTF-8 with its traceback (it closes
            # the socket with 1007): one line is enough, a traceback a way to flood
            record.exc_info, record.exc_text = None, None
        args = record.args
        if (record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5
                and isinstance(args[2], str)):
            record.args = (args[0], args[1], _hide(args[2]), args[3], args[4])
            return True
        try:
            text = record.getMessage()
        except (TypeError, ValueError):
            return True
        hidden = _hide(text)
        if hidden != text:
            record.msg, record.args = hidden, None
        return True


def _hide(text: str) -> str:
    text = _QUERY.sub(lambda m: m.group(1) + "?…", text)
    text = _PROTOCOL_TOKEN.sub(lambda m: m.group(1) + ".…", text)
    return _TOKEN_SHAPED.sub("…", text)


_HIDER = _HideSecrets()


def hide_secrets_in_logs() -> None:
    """Put :class:`_HideSecrets` on uvicorn's loggers and on every handler there is (a
    logger's filter sees only its own records; a handler's, the propagated ones too).
    Called when the application is made and again when it starts, after uvicorn has set
    up its logging."""
    names = ["", "uvicorn", "uvicorn.error", "uvicorn.access", "websockets",
             "websockets.server", "thousand"]
    for name in names:
        logger = logging.getLogger(name)
        if _HIDER not in logger.filters:
            logger.addFilter(_HIDER)
        for handler in logger.handlers:
            if _HIDER not in handler.filters:
                handler.addFilter(_HIDER)


def _openapi_errors(app: FastAPI) -> None:
    """FastAPI documents a 422 "validation error" of its own shape on every route with a
    parameter; this server answers those as 400 in its own shape (declared per route),
    so the document drops them and keeps only the 422 a route declares itself."""
    make = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = make()
        for item in doc.get("paths", {}).values():
            for op in item.values():
                responses = op.get("responses", {}) if isinstance(op, dict) else {}
                ref = str(responses.get("422", {}).get("content", {})
                          .get("application/json", {}).get("schema", {}).get("$ref", ""))
                if ref.endswith("/HTTPValidationError"):
                    del responses["422"]
        schemas = doc.get("components", {}).get("schemas", {})
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]


def _allowed(app: FastAPI, request: Request) -> str:
    """The ``Allow`` of a 405: the methods of every route of the request's path."""
    methods: set[str] = set()
    for route in app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return ", ".join(sorted(methods))


def _validation_message(e: RequestValidationError) -> str:
    """The first thing wrong with a request, for a person: where and what."""
    errors = e.errors()
    if not errors:
        return "the request is not valid"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body",)]
    where = ".".join(loc[1:] if loc and loc[0] in ("query", "path", "header") else loc)
    msg = str(first.get("msg", "not valid"))
    if first.get("type") == "missing" and not where:
        return "the body is missing: send a JSON object"
    return f"{where}: {msg}" if where else msg


def create_app(db_url: str | None = None, *, bots_threads: int = 2, bot_delay: float = 0.6,
               web_dir: str | Path | None = None, min_clock: float = MIN_CLOCK,
               limiter: Limiter | None = None, waiting_timeout: float | None = None,
               adjourn_after: float | None = None, metrics: bool = True,
               bot_processes: int = 1, redis_url: str | None = None,
               redis_prefix: str = "thousand", lease_ttl: float = 5.0,
               tune_gc: bool = False,
               analysis_limits: AnalysisLimits | None = None,
               max_tables: int = MAX_LIVE_TABLES,
               metrics_from: Sequence[str] = PRIVATE_NETWORKS,
               caps: Mapping[str, int] | None = None) -> FastAPI:
    """The server's application over the database ``db_url`` (any SQLAlchemy URL;
    :func:`default_db_url` when None).  ``bot_processes`` processes of their own think for
    the bots and hints (server/bot_pool.py; 0: ``bots_threads`` threads of this process,
    for a program that embeds the server); a bot waits ``bot_delay`` seconds before it
    moves, so people see its card;
    a table's move clock is at least ``min_clock`` seconds (the tests use less).
    ``limiter`` counts each client's actions (server/limits.py; ``thousand serve`` gives
    one always; None limits nothing, for a program that embeds the server and tests that
    play fast); a waiting table with nobody at it ends after ``waiting_timeout``
    seconds, an untouched game is adjourned after ``adjourn_after`` (server/reaper.py;
    None: never).  ``metrics``: Prometheus' ``GET /metrics`` (server/metrics.py), for
    the client addresses of ``metrics_from`` only (CIDR; the private networks).
    ``redis_url``: one of many workers sharing the tables over that Redis
    (keys and channels under ``redis_prefix``) and this PostgreSQL database, each table
    held by one worker for ``lease_ttl`` seconds at a time (server/cluster.py).
    ``tune_gc``: the process's cyclic collector set for many live tables once they are
    loaded (server/gc_tuning.py; ``thousand serve`` does, an embedding program decides).
    ``analysis_limits``: how many analyses the queue takes (server/analysis_jobs.py;
    None: those of ``limiter``'s ``analyses`` and of ``caps``).  ``max_tables``: the live
    tables the server holds at most (at the cap the biggest holders' idle tables end
    first: server/room.py); ``caps``: the other caps of server/caps.py that are not
    their defaults (``thousand serve --limit NAME=N``).  The bots' pool shares its places
    by the ``thinking`` limit of ``limiter`` (server/bot_turns.py), on or off."""
    db_url = db_url or default_db_url()
    if redis_url is not None:
        check_cluster_db(db_url)
    store = Store(db_url)
    limiter = limiter if limiter is not None else Limiter(enabled=False)
    thinking = limiter.limits["thinking"]  # a fair share of the bots' pool, always
    hub = Hub(store, bots_threads=bots_threads, bot_processes=bot_processes,
              bot_delay=bot_delay, max_tables=max_tables, caps=caps,
              thinking=ThinkingCaps(count(thinking, "client"), count(thinking, "account"),
                                    count(thinking, "address")))
    if redis_url is not None:
        hub.cluster = Cluster(hub, redis_url, prefix=redis_prefix, ttl=lease_ttl)
    web = Path(web_dir) if web_dir is not None else _web_dir()
    reaper = Reaper(hub, waiting_timeout=waiting_timeout, adjourn_after=adjourn_after)
    limiter.is_live = hub.still_live
    # what clients hold at once (live tables, sockets) and the --max-tables cap: one
    # process counts its own, many workers add theirs up in Redis (server/holdings.py)
    holdings = _holdings(redis_url, redis_prefix, lease_ttl)
    limiter.holdings = hub.holdings = holdings
    hub.make_room = room_maker(hub, limiter, reaper)  # the cap shuts nobody out
    hub.laid_for = lambda player, ids: limiter.laid_for(f"player:{player}", ids)
    limiter.on_laid = hub.laid  # whose share of the bots' pool a table's bots take
    uploads = asyncio.Semaphore(hub.caps["replays"])
    analyses = AnalysisRunner(store, cluster=redis_url is not None,  # routes_analysis.py
                              limits=analysis_limits or AnalysisLimits.of(limiter.limits,
                                                                          hub.caps))
    readiness = Readiness()  # GET /readyz (server/health.py)
    readiness.add("store", store_check(store, hub.db))
    limits_ready = limits_check(limiter.storage)
    if limits_ready is not None:
        readiness.add("limits storage", limits_ready)
    if redis_url is not None:  # the workers' bus
        readiness.add("redis", redis_check(redis_url))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hide_secrets_in_logs()  # uvicorn has set up its loggers and handlers by now
        await hub.start()
        await holdings.start(lambda: {**limiter.counts(), ("tables", ALL): hub.held_here()})
        if tune_gc:
            gc_tuning.tune()
        reaper.start()
        analyses.start()
        readiness.started = True
        try:
            yield
        finally:
            readiness.started = False
            await reaper.stop()
            await analyses.stop()
            await holdings.stop()
            await hub.stop()
            store.close()

    app = FastAPI(title="thousand", lifespan=lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json", redoc_url=None)
    # every body is read by the one strict reader (server/reader.py); other modules'
    # routers take the same class: APIRouter(route_class=StrictRoute)
    app.router.route_class = StrictRoute
    _openapi_errors(app)
    hide_secrets_in_logs()
    app.state.hub = hub
    if hub.cluster is not None:
        hub.cluster.app = app
    # the players (server/accounts.py; docs/server.md "Players"): their routes, and the
    # CSRF check of every state-changing request with a session (the middleware below)
    app.state.accounts = Accounts(hub, AccountStore(store))
    app.include_router(accounts_router)
    app.state.min_clock = min_clock
    app.state.max_body = hub.caps["body_bytes"]  # server/reader.py's StrictRoute reads it
    app.include_router(play_router)  # quick play, leaving, ratings (routes_play.py)
    app.include_router(tournaments_router)  # tournaments (routes_tournaments.py)
    app.include_router(players_router)  # a player's page, the leaderboard page
    app.include_router(analysis_router)  # a finished game's analysis on request
    app.include_router(exercises_router)  # a player's exercises from his analyses
    app.state.analyses = analyses
    app.state.web = web
    app.state.store = store
    app.state.limiter = limiter
    app.state.readiness = readiness  # another service to wait for: readiness.add(...)
    if metrics:
        metrics_.watch(tables=lambda: sum(1 for t in hub.tables.values() if not t.over),
                       connections=lambda: sum(len(t.conns) for t in hub.tables.values()))
        metrics_.watch_bots(queued=hub.bots.queued, busy=hub.bots.busy,
                            restarts=lambda: hub.bots.restarts)
        if hub.cluster is not None:
            metrics_.watch_cluster(hub.cluster.stats)

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, e: ServerError) -> JSONResponse:
        return JSONResponse(e.http_json(), status_code=e.status)

    @app.exception_handler(ReadError)
    async def _read_error(_request: Request, e: ReadError) -> JSONResponse:
        return _error(e.status, e.code, e.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        return _error(400, "bad_request", _validation_message(e))

    @app.exception_handler(RateLimited)
    async def _rate_limited(request: Request, e: RateLimited) -> JSONResponse:
        # a person reads it: in his language (the pages' words, "limit_<name>")
        words = page_words(page_lang(request))
        said = words.get(f"limit_{e.limit}", "").replace("{seconds}", str(e.seconds))
        body = e.http_json()
        body["error"]["message"] = said or e.message
        metrics_.rate_limited(e.limit)
        return JSONResponse(body, status_code=429,
                            headers={"Retry-After": str(e.seconds)})

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException) -> Response:
        # the API answers in JSON; everything else is a page for a person, in his language
        if request.url.path.startswith("/api/"):
            code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code,
                                                                      "http_error")
            response = _error(e.status_code, code, str(e.detail))
            for key, value in (e.headers or {}).items():
                response.headers[key] = value
            if e.status_code == 405:  # every method of the path, not one route's
                response.headers["Allow"] = _allowed(app, request)
            return response
        page = error_page(request, e.status_code,
                          "page" if e.status_code == 404 else "other")
        if e.status_code == 405:  # /healthz, /readyz: GET routes outside /api/
            page.headers["Allow"] = _allowed(app, request)
        return page

    @app.middleware("http")
    async def _csrf(request: Request, call_next: Any) -> Response:
        refusal = await app.state.accounts.check_request(request)
        if refusal is not None:
            return refusal  # type: ignore[no-any-return]
        response: Response = await call_next(request)
        app.state.accounts.refresh_csrf(request, response)
        return response

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        response.headers.setdefault(WORKER_HEADER, worker_id())
        return response

    @app.middleware("http")
    async def _to_owner(request: Request, call_next: Any) -> Response:
        # many workers: a request about one table held by another worker is answered
        # there (server/cluster.py), whole, by the same routes
        cluster = hub.cluster
        if cluster is not None and FORWARDED not in request.headers:
            key = owned_path(request.url.path)
            if key is not None:
                owner = await cluster.owner_of_key(key)
                if owner is not None:
                    return await cluster.forward(request, owner)
        response: Response = await call_next(request)
        return response

    async def live_or_404(table_id: str) -> LiveTable:
        live = await hub.get(table_id) if is_id(table_id) else None
        if live is None:
            raise ServerError("not_found", "no such table", status=404)
        return live

    # ------------------------------------------------------------------ pages

    def page(name: str) -> Response:
        return shell_page(web, name)  # server/pages.py: the one shell, the page's script

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby_page() -> Response:
        return page("lobby")

    async def known(table_id: str) -> str | None:
        """Whether a table (a game) can be shown: ``"live"`` (in memory, or finished and
        stored), ``"closed"`` (its creator closed it), else None — without loading it."""
        if not is_id(table_id):
            return None
        if table_id in hub.tables:
            return "live"
        row = await hub.db(store.load, table_id, with_moves=False)
        if row is None:
            return None
        if hub.cluster is not None and row.status in ("waiting", "playing"):
            return "live"  # held by another worker, or taken over when it is opened
        return {"over": "live", "adjourned": "live", "closed": "closed"}.get(row.status)

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> Response:
        state = await known(table_id)
        if state == "live":
            return page("table")
        return error_page(request, 410 if state == "closed" else 404,
                          state or "table")

    @app.api_route("/account", methods=["GET", "HEAD"], include_in_schema=False)
    async def account_page() -> Response:
        return page("account")

    @app.api_route("/exercises", methods=["GET", "HEAD"], include_in_schema=False)
    async def exercises_page() -> Response:
        return page("exercises")  # the player's exercises (web/exercises.js)

    @app.api_route("/tournaments", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/tournaments/{tid}", methods=["GET", "HEAD"], include_in_schema=False)
    async def tournaments_page() -> Response:
        return page("tournaments")  # the list, or one tournament (web/tournaments.js)

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
        return error_page(request, 404, "game")

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")

    # ------------------------------------------------------------------ operations

    @app.get("/healthz", tags=["operations"], responses=health_responses(alive=True),
             response_model_exclude_none=True)
    async def healthz() -> Health:
        """The process is alive (it answers): for a supervisor that restarts it when not."""
        return Health(status="ok", worker=worker_id())

    @app.get("/readyz", tags=["operations"], response_model=Health,
             responses=health_responses(alive=False))
    async def readyz() -> Response:
        """Ready to serve: the store answers, the live tables are rebuilt, and every
        service it was given answers (a proxy sends players only to a ready worker); 503
        with the ``reason`` otherwise."""
        reason = await readiness.reason()
        if reason is None:
            return JSONResponse(Health(status="ok", worker=worker_id()).model_dump(
                exclude_none=True), headers={"Cache-Control": "no-store"})
        return JSONResponse(Health(status="unavailable", worker=worker_id(),
                                   reason=reason).model_dump(), status_code=503,
                            headers={"Cache-Control": "no-store", "Retry-After": "5"})

    if metrics:
        @app.get("/metrics", include_in_schema=False)
        async def prometheus_metrics(request: Request) -> Response:
            """Prometheus' text format (server/metrics.py).  Read-only, and refused to
            another site's page (the browser says so: ``Sec-Fetch-Site``); an operator
            serves it on the private network only (docs/server.md "Metrics")."""
            if request.headers.get("sec-fetch-site") == "cross-site":
                return _error(403, "cross_site", "the metrics are not for other sites")
            if not address_allowed(request.client.host if request.client else None,
                                   metrics_from):  # as if there were none
                return _error(404, "not_found", "Not Found")
            return Response(metrics_.render(), media_type=metrics_.CONTENT_TYPE,
                            headers={"Cache-Control": "no-store"})

    # ------------------------------------------------------------------ the API

    @app.get("/api/rules", responses=error_responses())
    async def api_rules(lang: Lang = "ru") -> dict[str, Any]:
        """The rules catalogue in ``lang``: presets, options, their values in words."""
        return _with_labels(rules_catalog(lang), lang)

    @app.get("/api/texts", responses=error_responses())
    async def api_texts(lang: Lang = "ru") -> dict[str, Any]:
        """The server's message catalogue in ``lang`` (the pages' words for the engine)."""
        return texts_catalog(lang)

    @app.post("/api/tables", status_code=201, dependencies=[Depends(limit("table"))],
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
        clock = _parse_clock(body.clock, min_clock)
        async with limiter.live_slots(request, hub.still_live) as laid:
            live, seat, token = await hub.create(rules, seats, clock, body.open,
                                                 await seat_owner(request),
                                                 replay=body.replay)
            laid(live.id)
        invite = None if live.row.listed else invite_secret(live.row)
        url = f"/t/{live.id}" + (f"?invite={invite}" if invite else "")
        return Created(table=live.id, seat=seat, token=token, url=url, invite=invite)

    @app.get("/api/tables", responses=error_responses())
    async def api_tables(
            everything: Annotated[Literal["0", "1", "true", "false"] | None,
                                  Query(alias="all")] = None) -> Tables:
        """The listed tables: live ones with a free seat or somebody at them (``all``:
        finished ones too).  An unlisted table is never here."""
        wide = everything in ("1", "true")
        if hub.cluster is not None:  # every worker's own tables
            parts = await hub.cluster.gather("tables", {"wide": wide})
            found = {t["table"]: t for part in parts for t in part or []}
            infos = sorted(found.values(), key=lambda t: str(t["created"]), reverse=True)
            return Tables.model_validate({"tables": infos[:200]})
        tables = [t for t in hub.tables.values()
                  if t.row.listed and (wide or (not t.over and t.lively()))]
        tables.sort(key=lambda t: t.row.created, reverse=True)
        return Tables.model_validate({"tables": [t.info_json() for t in tables[:200]]})

    @app.get("/api/tables/{table_id}", responses=error_responses(404))
    async def api_table(table_id: str) -> TableOne:
        """One table, by its id (an unlisted table's id is known only from its link)."""
        stored = await adjourned_table(hub, table_id) if (
            is_id(table_id) and table_id not in hub.tables) else None
        live = stored or await live_or_404(table_id)
        return TableOne.model_validate({**live.info_json(), "header": live.table.header()})

    @app.post("/api/tables/{table_id}/close",
              responses=error_responses(403, 404, 409, 413, 415))
    async def api_close(table_id: str, body: CloseTable) -> Closed:
        """The creator ends a table that is not over, for good."""
        live = await live_or_404(table_id)
        seat = live.seat_of_token(body.token)
        if seat is None:
            raise ServerError("bad_token", "this token holds no seat at this table",
                              status=403)
        if seat != live.creator_seat():
            raise ServerError("not_creator", "only the one who laid the table may close it",
                              status=403)
        await hub.close_table(live)
        return Closed(table=live.id, status="closed")

    @app.post("/api/tables/{table_id}/seats/{seat}", dependencies=[Depends(limit("seat"))],
              responses=error_responses(403, 404, 409, 413, 415, 429))
    async def api_take_seat(table_id: str, seat: Annotated[int, PathParam(ge=0, le=99)],
                            body: TakeSeat, request: Request) -> SeatTaken:
        """A person takes a free seat; an unlisted table's seats need its link's
        ``invite``."""
        live = await live_or_404(table_id)
        if not live.row.listed and not hmac.compare_digest(
                (body.invite or "").encode("utf-8", "surrogatepass"),
                invite_secret(live.row).encode("ascii")):
            raise ServerError("invite_needed", "this table is not listed: its seats are "
                              "taken only with its link (invite)", status=403)
        try:
            name = await person_name(request, body.name)
        except ValueError as e:
            raise ServerError("bad_request", str(e), status=400) from None
        token = await hub.take_seat(live, seat, name, await seat_owner(request))
        return SeatTaken(table=live.id, seat=seat, token=token, url=f"/t/{live.id}")

    @app.get("/api/games", responses=error_responses())
    async def api_games(limit: Annotated[int, Query(ge=1, le=500)] = 50,
                        offset: Annotated[int, Query(ge=0, le=10**9)] = 0) -> Games:
        """The listed tables' games, newest first (the history page)."""
        rows, total = await hub.db(store.games, limit, offset, listed_only=True)
        return Games.model_validate({
            "games": [_game_json(r, hub.tables.get(r.id)) for r in rows],
            "total": total, "limit": limit, "offset": offset})

    @app.get("/api/games/{game_id}/record", response_class=Response,
             responses={200: {"content": {"application/json": {}},
                              "description": "The game's record (RULES §6)."},
                        **error_responses(403, 404, 409)})
    async def api_record(game_id: str, token: SeatTokenHeader = None) -> Response:
        """A finished game's record, as its creator let it be seen."""
        live = await live_or_404(game_id)
        if not live.over:
            raise ServerError("game_running", "the record is given once the game is over",
                              status=409)
        check_replay_allowed(live, token)
        text = dumps_record(live.table.to_record())
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="thousand-{live.id}.json"'})

    @app.get("/api/games/{game_id}/replay", responses=error_responses(403, 404))
    async def api_game_replay(game_id: str, token: SeatTokenHeader = None) -> ReplayOut:
        """A game's replay: a running game's without the hands, a finished one's whole."""
        live = await live_or_404(game_id)
        check_replay_allowed(live, token)
        async with live.lock:
            table: Table = live.table.clone()
        over = table.over
        try:
            steps = await hub.offload(lambda: table_replay(table, hands=over))
        except ReplayRefused as e:
            raise ServerError(e.code, str(e), status=400) from None
        return ReplayOut.model_validate({
            "record": table.to_record() if over else None, "header": table.header(),
            "over": over, "winner": table.game.winner, "steps": steps,
            "name_forms": name_forms_json(tuple(table.names)),
            "guests": [s.guest for s in live.seats]})

    @app.post("/api/replay", dependencies=[Depends(limit("upload"))],
              responses=error_responses(413, 429), openapi_extra={
        "requestBody": {"required": True, "description": "A game's record (RULES §6).",
                        "content": {"application/json": {"schema": {"type": "object"}}}}})
    @raw_body(hub.caps["upload_bytes"])
    async def api_replay(request: Request) -> ReplayOut:
        """The replay of a record sent in the body (checked as ``thousand replay`` does;
        at most the cap ``upload_bytes``, ``replays`` replayed at once)."""
        data = await request.body()
        try:
            async with uploads:
                out = await hub.offload(record_replay, data)
        except ReplayRefused as e:
            raise ServerError(e.code, str(e), status=400) from None
        players = out["header"].get("players") or []
        out["name_forms"] = name_forms_json(tuple(str(n) for n in players))
        return ReplayOut.model_validate(out)

    # ------------------------------------------------------------------ the table socket

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        if not same_origin(websocket.headers.get("origin"), websocket):
            await websocket.close(code=4403)  # another site's page: refused
            return
        offered = _subprotocols(websocket.headers.get("sec-websocket-protocol"))
        await websocket.accept(subprotocol=WS_PROTOCOL if WS_PROTOCOL in offered else None)
        try:  # how often and how many sockets one client and one address open
            await limiter.check(websocket, "socket")
            closed = await limiter.open_socket(websocket)
        except RateLimited as e:
            await _refuse(websocket, 4429, "rate_limited", e.message,
                          {"limit": e.limit, "seconds": e.seconds})
            return
        try:
            await serve_socket(websocket, table_id, offered)
        finally:
            closed()

    async def serve_socket(websocket: WebSocket, table_id: str, offered: list[str]) -> None:
        token = _socket_token(offered) or websocket.query_params.get("token")

        async def refused(row: TableRow, seat: int | None, abandoned: set[int]) -> bool:
            """Refuse, saying why, a token that holds no seat for this connection (none
            such, the seat left, or a browser whose session is not the seat's player's),
            or a spectator of an unlisted table without its link; True when refused."""
            if token:
                if seat is None or seat in abandoned or not await (
                        app.state.accounts.may_hold(websocket, row.seats[seat].player_id)):
                    await _refuse(websocket, 4401, "bad_token",
                                  "this token holds no seat at this table")
                    return True
            elif not row.listed and not hmac.compare_digest(
                    (_socket_token(offered, "invite") or "").encode("utf-8", "replace"),
                    invite_secret(row).encode("ascii")):
                # an unlisted table is watched, as its replay is seen, with its link only
                await _refuse(websocket, 4403, "invite_needed", "this table is not listed: "
                              "it is watched only with its link (invite)")
                return True
            return False

        if hub.cluster is not None and is_id(table_id):
            owner = await hub.cluster.owner_for_socket(table_id)
            if owner is not None:  # held by another worker: this one relays
                row = await hub.db(hub.store.load, table_id, with_moves=False)
                held = None if row is None or not token else next(
                    (s.seat for s in row.seats
                     if s.kind == "human" and token_matches(token, s.token_hash)), None)
                if row is not None and await refused(row, held, row.abandoned):
                    return
                conn = Conn(None, hub.caps["behind"])
                conn.limit = limiter.for_socket(websocket)
                writer = asyncio.create_task(_writer(websocket, conn))
                try:
                    await hub.cluster.relay(websocket, conn, table_id, token, owner)
                finally:
                    try:
                        await asyncio.wait_for(writer, 5)
                    except (TimeoutError, asyncio.CancelledError):
                        writer.cancel()
                return
        live = await hub.get(table_id) if is_id(table_id) else None
        if live is None and token:  # an adjourned game comes back for its player
            live = await resume(hub, table_id, token)
        if live is None and hub.cluster is not None and is_id(table_id) and (
                hub.cluster.stopping or await hub.cluster.owner_elsewhere(table_id)):
            # this worker is leaving, or another took the table just now: reconnect (no
            # error message: a page reconnects at once, saying nothing); the client may
            # have gone already
            with contextlib.suppress(Exception):
                await websocket.close(code=1012)
            return
        if live is None:
            await _refuse(websocket, 4404, "no_such_table", "no such table")
            return
        seat = live.seat_of_token(token) if token else None
        if await refused(live.row, seat, live.abandoned):
            return
        if seat is None and sum(c.seat is None for c in live.conns) >= hub.caps["watchers"]:
            await _refuse(websocket, 4429, "too_many_watchers",
                          "this table has as many spectators as it takes")
            return
        conn = Conn(seat, hub.caps["behind"])
        conn.limit = limiter.for_socket(websocket)
        writer = asyncio.create_task(_writer(websocket, conn))
        try:
            await live.attach(conn)
            async for raw in frames(websocket, conn):
                await live.handle(conn, raw)
        except WebSocketDisconnect:
            pass
        finally:
            live.detach(conn)
            try:
                await asyncio.wait_for(writer, 5)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()

    return app


def _subprotocols(header: str | None) -> list[str]:
    return [p.strip() for p in (header or "").split(",") if p.strip()][:8]


def _holdings(redis_url: str | None, prefix: str, ttl: float) -> Holdings:
    """Where what is held at once is added up: this process alone, or, with ``--redis``,
    every worker's in Redis, each worker's count gone ``ttl`` seconds after it stopped
    renewing it (server/shared_holdings.py)."""
    if redis_url is None:
        return LocalHoldings()
    from .shared_holdings import RedisHoldings

    return RedisHoldings(redis_url, prefix=prefix, worker=worker_id(), ttl=ttl)


def _socket_token(offered: list[str], kind: str = "token") -> str | None:
    """The seat token a client sends beside the ``thousand`` subprotocol, as
    ``token.<token>`` (a page: ``new WebSocket(url, ["thousand", "token." + token])``),
    so that it is in no URL; ``?token=`` is still read for older programs.  An unlisted
    table's invite travels the same way, as ``invite.<secret>`` (``kind="invite"``)."""
    if WS_PROTOCOL not in offered:
        return None
    prefix = kind + "."
    for p in offered:
        if p.startswith(prefix) and len(p) > len(prefix):
            return p[len(prefix):]
    return None


async def _refuse(websocket: WebSocket, code: int, error: str, message: str,
                  params: dict[str, Any] | None = None) -> None:
    with contextlib.suppress(Exception):  # the client may have gone already
        await websocket.send_json({"type": "error", "code": error, "params": params or {},
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
            await websocket.close(code=conn.close_code)
