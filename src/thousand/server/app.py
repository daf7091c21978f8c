"""The web application: pages, the JSON API and the table WebSocket (docs/server.md).

:func:`create_app` wires the rooms (docs/architecture.md "The server's rooms"): it opens
the store (running its migrations) at once, so a database that cannot be used is reported
before the server listens; makes the hub and subscribes the features to its tables; and
includes every router of server/routes/ — no route is declared here.  The live tables are
rebuilt when the application starts (its lifespan) and their bots and clocks stop when it
stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import iter_route_contexts
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .cluster.workers import FORWARDED, Cluster, owned_path
from .errors import ServerError, error_response
from .features.accounts import Accounts
from .features.analysis_jobs import AnalysisLimits, AnalysisRunner
from .features.challenges import Challenges
from .features.chat_filter import load as load_chat_filter
from .features.daily import Daily
from .features.events import subscribe
from .features.moderation import Moderation
from .features.presence import Presence
from .features.push import TurnPush
from .holdings import ALL, Holdings, LocalHoldings
from .limits import Limiter, RateLimited, count
from .live.bot_turns import ThinkingCaps
from .live.hub import MAX_LIVE_TABLES, Hub
from .live.reaper import Reaper
from .live.room import room_maker
from .ops import gc_tuning
from .ops import metrics as metrics_
from .ops.health import Readiness, limits_check, redis_check, store_check
from .ops.mail import Mailer
from .ops.webpush import PushKeys
from .ops.worker import worker_id
from .pages import error_page, page_lang, page_words
from .reader import ReadError, StrictRoute
from .routes.accounts import router as accounts_router
from .routes.analysis import router as analysis_router
from .routes.catalog import router as catalog_router
from .routes.daily import router as daily_router
from .routes.exercises import router as exercises_router
from .routes.games import router as games_router
from .routes.moderation import router as moderation_router
from .routes.operations import metrics_router
from .routes.operations import router as operations_router
from .routes.play import MIN_CLOCK
from .routes.play import router as play_router
from .routes.players import router as players_router
from .routes.push import router as push_router
from .routes.recovery import Recovery
from .routes.recovery import router as recovery_router
from .routes.shells import router as shells_router
from .routes.social import router as social_router
from .routes.socket import router as socket_router
from .routes.tables import router as tables_router
from .routes.tournaments import router as tournaments_router
from .routes.web_app import router as web_app_router
from .store.accounts import AccountStore
from .store.social import SocialStore
from .store.tables import Store, StoreError, normalize_url
from .web_security import CONTENT_SECURITY_POLICY, PRIVATE_NETWORKS

__all__ = ["check_cluster_db", "create_app", "default_db_url"]

log = logging.getLogger("thousand.server")

#: A query string's secrets, and anything shaped like a seat token (43 URL-safe
#: characters: checks.new_token), as the log must never show them.
_QUERY = re.compile(r"(/[^\s?\"']*)\?[^\s\"']*")
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")
_PROTOCOL_TOKEN = re.compile(r"(token|invite)\.[A-Za-z0-9_-]+")
#: The response header naming the worker that answered (many workers: docs/server.md).
WORKER_HEADER = "X-Thousand-Worker"


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
    """The ``Allow`` of a 405: the methods of every route of the request's path (those of
    the included routers too: FastAPI keeps a router's routes in the router)."""
    methods: set[str] = set()
    for route in iter_route_contexts(app.router.routes):
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= set(route.methods or ())
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
               caps: Mapping[str, int] | None = None,
               mailer: Mailer | None = None,
               chat_filter: str | Path | None = None,
               push: PushKeys | None = None) -> FastAPI:
    """The server's application over the database ``db_url`` (any SQLAlchemy URL;
    :func:`default_db_url` when None).  ``bot_processes`` processes of their own think for
    the bots and hints (server/live/bot_pool.py; 0: ``bots_threads`` threads of this process,
    for a program that embeds the server); a bot waits ``bot_delay`` seconds before it
    moves, so people see its card;
    a table's move clock is at least ``min_clock`` seconds (the tests use less).
    ``limiter`` counts each client's actions (server/limits.py; ``thousand serve`` gives
    one always; None limits nothing, for a program that embeds the server and tests that
    play fast); a waiting table with nobody at it ends after ``waiting_timeout``
    seconds, an untouched game is adjourned after ``adjourn_after`` (server/live/reaper.py;
    None: never).  ``metrics``: Prometheus' ``GET /metrics`` (server/ops/metrics.py), for
    the client addresses of ``metrics_from`` only (CIDR; the private networks).
    ``redis_url``: one of many workers sharing the tables over that Redis
    (keys and channels under ``redis_prefix``) and this PostgreSQL database, each table
    held by one worker for ``lease_ttl`` seconds at a time (server/cluster/workers.py).
    ``tune_gc``: the process's cyclic collector set for many live tables once they are
    loaded (server/ops/gc_tuning.py; ``thousand serve`` does, an embedding program decides).
    ``analysis_limits``: how many analyses the queue takes (server/features/analysis_jobs.py;
    None: those of ``limiter``'s ``analyses`` and of ``caps``).  ``max_tables``: the live
    tables the server holds at most (at the cap the biggest holders' idle tables end
    first: server/live/room.py); ``caps``: the other caps of server/caps.py that are not
    their defaults (``thousand serve --limit NAME=N``); ``mailer``: the site's mail
    (server/ops/mail.py; None: e-mail addresses and password recovery are off).
    ``chat_filter``: the operator's file of words the chat refuses besides the default ones
    (server/features/chat_filter.py; ``FilterFileError`` when it cannot be read).
    ``push``: the site's VAPID key, for turn notices by Web Push (server/ops/webpush.py,
    server/features/push.py; None: push is off).  The
    bots' pool shares its places by the ``thinking`` limit of ``limiter``
    (server/live/bot_turns.py), on or off."""
    db_url = db_url or default_db_url()
    if redis_url is not None:
        check_cluster_db(db_url)
    store = Store(db_url)
    limiter = limiter if limiter is not None else Limiter(enabled=False)
    hub = _hub(store, limiter, bots_threads=bots_threads, bot_processes=bot_processes,
               bot_delay=bot_delay, max_tables=max_tables, caps=caps)
    moderation, daily, pusher = _listeners(hub, store, limiter, chat_filter, push)
    cluster = None if redis_url is None else Cluster(hub, redis_url, prefix=redis_prefix,
                                                     ttl=lease_ttl)
    hub.cluster = cluster
    reaper = Reaper(hub, waiting_timeout=waiting_timeout, adjourn_after=adjourn_after)
    holdings = _hold(hub, limiter, reaper, _holdings(redis_url, redis_prefix, lease_ttl))
    analyses = AnalysisRunner(store, cluster=redis_url is not None,  # server/routes/analysis.py
                              limits=analysis_limits or AnalysisLimits.of(limiter.limits,
                                                                          hub.caps))
    readiness = _readiness(store, hub, limiter, redis_url)
    presence = _presence(hub, store, cluster)
    services = _Services(hub, store, limiter, reaper, holdings, analyses, readiness, tune_gc,
                         presence)
    app = _application(services, cluster)
    web = Path(web_dir) if web_dir is not None else _web_dir()
    _keep(app.state, hub=hub, cluster=cluster, store=store, limiter=limiter, web=web,
          accounts=Accounts(hub, AccountStore(store)), analyses=analyses,
          readiness=readiness, min_clock=min_clock, moderation=moderation,
          metrics_from=metrics_from,
          presence=presence, challenges=Challenges(hub, presence.social, presence),
          uploads=asyncio.Semaphore(hub.caps["replays"]),
          recovery=Recovery.of(mailer, store), daily=daily, push=pusher)
    _route(app, web, metrics)
    if metrics:
        _watch(hub, cluster)
        metrics_.watch_presence(lambda: len(presence.conns), lambda: len(presence.shown))
    _answer_errors(app, web)
    _middleware(app, cluster)
    return app


def _listeners(hub: Hub, store: Store, limiter: Limiter, chat_filter: str | Path | None,
               push: PushKeys | None) -> tuple[Moderation, Daily, TurnPush | None]:
    """The features that need more than the tables' events, subscribed with the rest to
    ``hub``'s tables (server/features/events.py): the moderation (with the operator's
    chat filter), the deal of the day and, when the site has VAPID keys, the turn notices
    by push."""
    moderation = Moderation(hub, store, load_chat_filter(chat_filter))
    daily = Daily(hub)
    pusher = None if push is None else TurnPush(hub, push, limiter.counter("push_sent"))
    subscribe(hub, moderation, daily, pusher)
    return moderation, daily, pusher


def _hub(store: Store, limiter: Limiter, **options: Any) -> Hub:
    """The live tables' hub over ``store``, its bots' pool shared by the ``thinking``
    limit of ``limiter`` (a fair share of the pool, always: server/live/bot_turns.py)."""
    thinking = limiter.limits["thinking"]
    return Hub(store, thinking=ThinkingCaps(count(thinking, "client"),
                                            count(thinking, "account"),
                                            count(thinking, "address")), **options)


def _application(services: _Services, cluster: Cluster | None) -> FastAPI:
    """The FastAPI application around ``services`` (its lifespan): every body read by the
    one strict reader, the errors of the OpenAPI document, no secret in the logs, and the
    cluster told of it (it forwards requests through it)."""
    app = FastAPI(title="thousand", lifespan=services.lifespan, docs_url="/api/docs",
                  openapi_url="/api/openapi.json", redoc_url=None)
    # every body is read by the one strict reader (server/reader.py); every router takes
    # the same class: APIRouter(route_class=StrictRoute)
    app.router.route_class = StrictRoute
    _openapi_errors(app)
    hide_secrets_in_logs()
    if cluster is not None:
        cluster.app = app
    return app


class _Services:
    """What runs beside the routes while the application lives (its lifespan): the live
    tables, what clients hold, the reaper, the analyses' queue and the readiness."""

    def __init__(self, hub: Hub, store: Store, limiter: Limiter, reaper: Reaper,
                 holdings: Holdings, analyses: AnalysisRunner, readiness: Readiness,
                 tune_gc: bool, presence: Presence) -> None:
        self.hub, self.store, self.limiter, self.reaper = hub, store, limiter, reaper
        self.holdings, self.analyses, self.readiness = holdings, analyses, readiness
        self.tune_gc, self.presence = tune_gc, presence

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        hide_secrets_in_logs()  # uvicorn has set up its loggers and handlers by now
        hub, limiter = self.hub, self.limiter
        await hub.start()
        await self.holdings.start(
            lambda: {**limiter.counts(), ("tables", ALL): hub.held_here()})
        if self.tune_gc:
            gc_tuning.tune()
        self.reaper.start()
        self.analyses.start()
        self.presence.start()
        self.readiness.started = True
        try:
            yield
        finally:
            self.readiness.started = False
            await self.presence.stop()
            await self.reaper.stop()
            await self.analyses.stop()
            await self.holdings.stop()
            await hub.stop()
            self.store.close()


def _hold(hub: Hub, limiter: Limiter, reaper: Reaper, holdings: Holdings) -> Holdings:
    """Tie the hub and the limiter together: what clients hold at once (live tables,
    sockets) and the --max-tables cap, counted in ``holdings`` (server/holdings.py); the
    room the cap makes; whose tables a tournament lays and whose share of the bots' pool
    a table's bots take."""
    limiter.is_live = hub.still_live
    limiter.holdings = hub.holdings = holdings
    hub.make_room = room_maker(hub, limiter, reaper)  # the cap shuts nobody out
    hub.laid_for = lambda player, ids: limiter.laid_for(f"player:{player}", ids)
    limiter.on_laid = hub.laid  # whose share of the bots' pool a table's bots take
    return holdings


def _presence(hub: Hub, store: Store, cluster: Cluster | None) -> Presence:
    """Who is here (server/features/presence.py): with many workers, told to the others
    and heard from them over the workers' bus."""
    presence = Presence(hub, SocialStore(store))
    if cluster is not None:
        presence.publish = lambda data: cluster.tell_all("presence", data)
        cluster.topics["presence"] = presence.heard
    return presence


def _readiness(store: Store, hub: Hub, limiter: Limiter, redis_url: str | None) -> Readiness:
    """What ``GET /readyz`` waits for (server/ops/health.py): the store, the limits'
    storage, the workers' bus; another service is added with ``readiness.add(...)``."""
    readiness = Readiness()
    readiness.add("store", store_check(store, hub.db))
    limits_ready = limits_check(limiter.storage)
    if limits_ready is not None:
        readiness.add("limits storage", limits_ready)
    if redis_url is not None:  # the workers' bus
        readiness.add("redis", redis_check(redis_url))
    return readiness


def _keep(state: Any, **values: Any) -> None:
    """What the routes of every router find in ``app.state`` (``hub_of``, ``cluster_of``,
    ``limiter_of``...); ``max_body`` and ``upload_bytes`` are the caps server/reader.py's
    StrictRoute reads."""
    for name, value in values.items():
        setattr(state, name, value)
    state.max_body = values["hub"].caps["body_bytes"]
    state.upload_bytes = values["hub"].caps["upload_bytes"]


def _route(app: FastAPI, web: Path, metrics: bool) -> None:
    """Every router, in the order their routes are matched."""
    app.include_router(accounts_router)  # the players (server/features/accounts.py)
    # their e-mail and a forgotten password (server/routes/recovery.py; off without a mailer)
    app.include_router(recovery_router)
    app.include_router(push_router)  # turn notices by Web Push (off without a VAPID key)
    app.include_router(play_router)  # quick play, leaving, ratings (server/routes/play.py)
    app.include_router(tournaments_router)  # tournaments (server/routes/tournaments.py)
    app.include_router(daily_router)  # the deal of the day (server/routes/daily.py)
    app.include_router(players_router)  # a player's page, the leaderboard page
    app.include_router(moderation_router)  # reports, moderators, profiles
    app.include_router(analysis_router)  # a finished game's analysis on request
    app.include_router(exercises_router)  # a player's exercises from his analyses
    app.include_router(social_router)  # the lobby socket, challenges, friends
    app.include_router(shells_router)  # the pages (server/routes/shells.py)
    app.include_router(web_app_router)  # the app: manifest, service worker, offline page
    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    app.include_router(operations_router)  # /healthz, /readyz
    if metrics:
        app.include_router(metrics_router)  # /metrics
    app.include_router(catalog_router)  # the rules and the words
    app.include_router(tables_router)  # lay, list, show, close a table, take a seat
    app.include_router(games_router)  # the games: history, record, replay
    app.include_router(socket_router)  # the table's WebSocket


def _watch(hub: Hub, cluster: Cluster | None) -> None:
    """What Prometheus' ``GET /metrics`` counts (server/ops/metrics.py)."""
    metrics_.watch(tables=lambda: sum(1 for t in hub.tables.values() if not t.over),
                   connections=lambda: sum(len(t.conns) for t in hub.tables.values()))
    metrics_.watch_bots(queued=hub.bots.queued, busy=hub.bots.busy,
                        restarts=lambda: hub.bots.restarts)
    if cluster is not None:
        metrics_.watch_cluster(cluster.stats)


def _answer_errors(app: FastAPI, web: Path) -> None:
    """Every refusal in the API's error shape; a page for a person, in his language."""

    @app.exception_handler(ServerError)
    async def _server_error(_request: Request, e: ServerError) -> JSONResponse:
        return JSONResponse(e.http_json(), status_code=e.status)

    @app.exception_handler(ReadError)
    async def _read_error(_request: Request, e: ReadError) -> JSONResponse:
        return error_response(e.status, e.code, e.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        return error_response(400, "bad_request", _validation_message(e))

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
            response = error_response(e.status_code, code, str(e.detail))
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


def _middleware(app: FastAPI, cluster: Cluster | None) -> None:
    """What every request goes through: the CSRF check of a state-changing request with
    a session (server/features/accounts.py), the security headers, and with many workers
    the forwarding of a request about a table held by another worker."""

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
        # there (server/cluster/workers.py), whole, by the same routes
        if cluster is not None and FORWARDED not in request.headers:
            key = owned_path(request.url.path)
            if key is not None:
                owner = await cluster.owner_of_key(key)
                if owner is not None:
                    return await cluster.forward(request, owner)
        response: Response = await call_next(request)
        return response


def _holdings(redis_url: str | None, prefix: str, ttl: float) -> Holdings:
    """Where what is held at once is added up: this process alone, or, with ``--redis``,
    every worker's in Redis, each worker's count gone ``ttl`` seconds after it stopped
    renewing it (server/cluster/holdings.py)."""
    if redis_url is None:
        return LocalHoldings()
    from .cluster.holdings import RedisHoldings

    return RedisHoldings(redis_url, prefix=prefix, worker=worker_id(), ttl=ttl)
