"""``thousand serve``: play in the browser — the game server (docs/server.md).

Prints the address to open; opens it in a browser too when there is a display to show
one on and ``--no-browser`` is not given.  Games are kept in a database (SQLite in the
user's data folder by default, any SQLAlchemy URL with ``--db``): a server stopped or
killed in the middle of a game goes on from the same move when it starts again.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from thousand.cli import app
from thousand.server.caps import CAPS

from .common import fail, os_reason

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

    from thousand.server.limits import Limit
    from thousand.server.ops.mail import Mailer
    from thousand.server.ops.webpush import PushKeys


def _has_display() -> bool:
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


#: The command's own lines: key -> (English, Russian).
LINES: dict[str, tuple[str, str]] = {
    "bad_host": ("--host {host}: {why}", "--host {host}: такого адреса нет"),
    "in_use": ("the port is in use", "порт занят"),
    "no_listen": ("cannot listen on {host}:{port}: {why}",
                  "не удаётся слушать {host}:{port}: {why}"),
    "log_level": ("--log-level: warning, info, debug or error",
                  "--log-level: можно warning, info, debug или error"),
    "log_format": ("--log-format: text or json", "--log-format: можно text или json"),
    "need_redis": ("--workers {workers} needs --redis redis://host:port/0 (the workers' "
                   "bus)", "--workers {workers} требует --redis redis://host:port/0 "
                   "(шина процессов)"),
    "worker_id": ("--worker-id: {why}", "--worker-id: {why}"),
    "serving": ("thousand: serving at {address}  (database: {db}; Ctrl+C stops)",
                "thousand: сервер работает, откройте {address}  (база данных: {db}; "
                "Ctrl+C — остановить)"),
}


#: permessage-deflate on the table sockets: off. Since the events carry each move's view
#: changes, a message is a few hundred bytes; compressing them cost about 0.2 ms of the
#: server's CPU a move and half of each connection's memory (benchmarks/results/server.txt)
WS_DEFLATE = False


def _line(key: str, lang: str, **params: object) -> str:
    en, ru = LINES[key]
    return (ru if lang == "ru" else en).format(**params)


def _listen(host: str, port: int, lang: str = "en") -> socket.socket:
    """The listening socket, made here so that a port in use is one clear line."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise fail(_line("bad_host", lang, host=repr(host), why=e.strerror), lang=lang) from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(128)
    except OSError as e:
        sock.close()
        why = _line("in_use", lang) if e.errno == errno.EADDRINUSE else os_reason(e, lang)
        raise fail(_line("no_listen", lang, host=host, port=port, why=why), lang=lang) from None
    sock.set_inheritable(True)
    return sock


def _address(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


@app.command("serve")
def serve_command(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port (0: any free one).",
                                      min=0, max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="The database: any SQLAlchemy URL (default: SQLite in "
        "~/.local/share/thousand/thousand.db).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser",
                                             help="Do not open a browser.")] = False,
    bot_delay: Annotated[float, typer.Option(
        "--bot-delay", help="Seconds a bot waits before its move.", min=0.0, max=10.0)] = 0.6,
    bots_threads: Annotated[int, typer.Option(
        "--bots-threads", help="Threads that think for the bots (with --bot-processes 0).",
        min=1, max=32)] = 2,
    bot_processes: Annotated[int, typer.Option(
        "--bot-processes", help="Processes that think for the bots and hints, niced so "
        "that people's moves go first (0: threads of the server's process).",
        min=0, max=64)] = 1,
    log_level: Annotated[str, typer.Option("--log-level",
                                           help="warning, info or debug.")] = "warning",
    lang: Annotated[str, typer.Option("--lang", help="ru or en: the language of the "
                                      "errors it prints")] = "ru",
    waiting_timeout: Annotated[float, typer.Option(
        "--waiting-timeout", help="Seconds a table waiting for people may have nobody at "
        "it before it is closed (0: never).", min=0.0)] = 600.0,
    adjourn_after: Annotated[float, typer.Option(
        "--adjourn-after", help="Seconds without a move and without its people before a "
        "game is adjourned (0: never).", min=0.0)] = 3600.0,
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        "--trusted-proxy", help="The address of a reverse proxy whose X-Forwarded-For "
        "gives the client's address (repeatable).")] = None,
    limit_specs: Annotated[list[str] | None, typer.Option(
        "--limit", help="NAME=RATE (e.g. table=10/minute;60/hour, CLIENT|ADDRESS rates, "
        "or off): a limit per client and address; NAME=N a cap (e.g. entries=24): "
        "every one in docs/server.md \"Limits\".")] = None,
    limits_storage: Annotated[str | None, typer.Option(
        "--limits-storage", help="Where the limits count: memory:// or redis://host:port "
        "(default: the --redis one, else memory://)")] = None,
    max_tables: Annotated[int, typer.Option(
        "--max-tables", help="The live tables the server holds at most; at the cap the "
        "biggest holders' idle tables end first (docs/server.md \"Limits\").",
        min=1, max=1_000_000)] = CAPS["tables"].value,
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", help="Limit no client (a private server; tests that play fast)."
        )] = False,
    log_format: Annotated[str, typer.Option(
        "--log-format", help="text (for people) or json (one object a line, with the "
        "worker id: for a log store).")] = "text",
    no_metrics: Annotated[bool, typer.Option(
        "--no-metrics", help="No Prometheus metrics at /metrics.")] = False,
    metrics_from: Annotated[list[str] | None, typer.Option(
        "--metrics-from", help="A network (CIDR) whose clients may read /metrics "
        "(repeatable; default: loopback and the private networks).")] = None,
    redis: Annotated[str | None, typer.Option(
        "--redis", help="redis://host:port/db: one of many workers sharing the tables "
        "over this Redis and the --db PostgreSQL (docs/server.md \"Many workers\")."
        )] = None,
    redis_prefix: Annotated[str, typer.Option(
        "--redis-prefix", help="The prefix of every Redis key and channel.")] = "thousand",
    workers: Annotated[int, typer.Option(
        "--workers", help="Worker processes on this port (more than 1 needs --redis).",
        min=1, max=64)] = 1,
    worker_id_opt: Annotated[str | None, typer.Option(
        "--worker-id", help="This worker's name (default: host-pid); with --workers N "
        "each is NAME-pid.")] = None,
    lease_ttl: Annotated[float, typer.Option(
        "--lease-ttl", help="Seconds a worker's hold on a table lasts unrenewed (many "
        "workers): after that another takes it over.", min=1.0, max=120.0)] = 5.0,
    smtp: Annotated[str | None, typer.Option(
        "--smtp", envvar="THOUSAND_SMTP", help="The mail server: smtp://user:password@"
        "host:587?starttls=1 or smtps://…:465; without it e-mail and password recovery "
        "are off (docs/server.md \"E-mail and password recovery\").")] = None,
    mail_from: Annotated[str | None, typer.Option(
        "--mail-from", envvar="THOUSAND_MAIL_FROM", help="The letters' From address "
        "(default: noreply@ the --public-url host).")] = None,
    public_url: Annotated[str | None, typer.Option(
        "--public-url", envvar="THOUSAND_PUBLIC_URL", help="The site's address as players "
        "open it (https://example.org): the letters' links are made from it.")] = None,
    chat_filter: Annotated[str | None, typer.Option(
        "--chat-filter", help="A file of words the chat refuses besides the default ones "
        "(one a line, * at the end: any ending; docs/server.md \"Moderation\").")] = None,
    vapid_private_key: Annotated[str | None, typer.Option(
        "--vapid-private-key", envvar="THOUSAND_VAPID_PRIVATE_KEY", help="The site's VAPID "
        "key (a P-256 key in PEM) for turn notices by Web Push; without it and "
        "--vapid-subject push is off (docs/server.md \"Web Push\").")] = None,
    vapid_subject: Annotated[str | None, typer.Option(
        "--vapid-subject", envvar="THOUSAND_VAPID_SUBJECT", help="The contact the push "
        "services are given with every notice: mailto:admin@example.org.")] = None,
) -> None:
    """Serve the game to browsers: tables with people and bots, chat, replays."""
    options = ServeOptions(
        host=host, port=port, db=db, no_browser=no_browser, bot_delay=bot_delay,
        bots_threads=bots_threads, bot_processes=bot_processes, log_level=log_level,
        lang="en" if lang == "en" else "ru", waiting_timeout=waiting_timeout,
        adjourn_after=adjourn_after, trusted_proxy=trusted_proxy, limit_specs=limit_specs,
        limits_storage=limits_storage, max_tables=max_tables, no_limits=no_limits,
        log_format=log_format, no_metrics=no_metrics, metrics_from=metrics_from,
        redis=redis, redis_prefix=redis_prefix, workers=workers,
        worker_id_opt=worker_id_opt, lease_ttl=lease_ttl, smtp=smtp, mail_from=mail_from,
        public_url=public_url, chat_filter=chat_filter,
        vapid_private_key=vapid_private_key, vapid_subject=vapid_subject)
    checked = _check(options)
    if workers > 1:
        _supervise(options, checked)
    else:
        _serve_one(options, checked)


@dataclass(frozen=True)
class ServeOptions:
    """``thousand serve``'s options as given (``lang`` made ``en`` or ``ru``): one
    value carried through the command's steps instead of some thirty parameters each."""

    host: str
    port: int
    db: str | None
    no_browser: bool
    bot_delay: float
    bots_threads: int
    bot_processes: int
    log_level: str
    lang: str
    waiting_timeout: float
    adjourn_after: float
    trusted_proxy: list[str] | None
    limit_specs: list[str] | None
    limits_storage: str | None
    max_tables: int
    no_limits: bool
    log_format: str
    no_metrics: bool
    metrics_from: list[str] | None
    redis: str | None
    redis_prefix: str
    workers: int
    worker_id_opt: str | None
    lease_ttl: float
    smtp: str | None
    mail_from: str | None
    public_url: str | None
    chat_filter: str | None
    vapid_private_key: str | None
    vapid_subject: str | None


@dataclass(frozen=True)
class _Checked:
    """What the checks made of the options, for the server that starts after them."""

    url: str  # the database's SQLAlchemy URL (--db, else SQLite in the data folder)
    level: str  # --log-level, lower case
    proxies: list[str]  # the --trusted-proxy addresses, one each
    overrides: dict[str, Limit]  # the rates of --limit NAME=RATE
    caps: dict[str, int]  # the caps of --limit NAME=N
    mailer: Mailer | None  # --smtp's (None: mail is off)
    push: PushKeys | None  # the VAPID keys (None: turn notices by push are off)


def _check(o: ServeOptions) -> _Checked:
    """Every option checked before any worker starts, in the order people meet them: a
    bad one is one clear line in ``--lang`` and exit status 2 (:func:`.common.fail`)."""
    from thousand.server import default_db_url
    from thousand.server.app import check_cluster_db
    from thousand.server.limits import LimitError, parse_caps, parse_overrides
    from thousand.server.ops import logs
    from thousand.server.ops.mail import MailError, mailer_of
    from thousand.server.store.tables import StoreError

    lang = o.lang
    level = o.log_level.lower()
    if level not in ("warning", "info", "debug", "error"):
        raise fail(_line("log_level", lang), lang=lang)
    if o.log_format not in logs.FORMATS:
        raise fail(_line("log_format", lang), lang=lang)
    url = o.db or default_db_url()
    if o.workers > 1 and o.redis is None:
        raise fail(_line("need_redis", lang, workers=o.workers), lang=lang)
    if o.redis is not None:
        try:
            check_cluster_db(url)
        except StoreError as e:
            raise fail(e.text(lang), lang=lang) from None
    _set_worker_id(o.worker_id_opt, lang)
    # X-Forwarded-For is believed from the proxies named only (uvicorn would otherwise
    # believe it from 127.0.0.1 by default: any local client could pick its address)
    proxies = [p.strip() for spec in o.trusted_proxy or [] for p in spec.split(",")
               if p.strip()]
    specs = o.limit_specs or []
    try:  # a bad --limit is one clear line, before any worker starts
        overrides, caps = parse_overrides(specs), parse_caps(specs)
    except LimitError as e:
        raise fail(e.text(lang), lang=lang) from None
    try:  # a bad --smtp, --mail-from or --public-url, too
        mailer = mailer_of(o.smtp, o.mail_from, o.public_url)
    except MailError as e:
        raise fail(e.text(lang), lang=lang) from None
    _check_chat_filter(o.chat_filter, lang)
    return _Checked(url, level, proxies, overrides, caps, mailer,
                    _push_keys(o.vapid_private_key, o.vapid_subject, lang))


def _push_keys(key_file: str | None, subject: str | None, lang: str) -> PushKeys | None:
    """``--vapid-private-key`` and ``--vapid-subject``: the keys of turn notices by push,
    or one clear line when they cannot be used (None: neither given, push is off)."""
    from thousand.server.ops.webpush import PushError, push_keys_of

    try:
        return push_keys_of(key_file, subject)
    except PushError as e:
        raise fail(e.text(lang), lang=lang) from None


def _set_worker_id(given: str | None, lang: str) -> None:
    """``--worker-id``: this process's name in the logs and the cluster, when given."""
    if given is None:
        return
    from thousand.server.ops.worker import set_worker_id

    try:
        set_worker_id(given)
    except ValueError as e:
        raise fail(_line("worker_id", lang, why=e), lang=lang) from None


def _check_chat_filter(path: str | None, lang: str) -> None:
    """A ``--chat-filter`` file that cannot be read is one clear line, too."""
    from thousand.server.features.chat_filter import FilterFileError, load

    try:
        load(path)
    except FilterFileError as e:
        raise fail(str(e), lang=lang) from None


def _serve_one(o: ServeOptions, checked: _Checked) -> None:
    """One process: build the application, listen, say where, open a browser when there
    is one, and serve until stopped (exit status 1 when the server could not start)."""
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from thousand.server.ops import logs
    from thousand.server.ops.worker import worker_id
    from thousand.server.store.tables import shown_url

    level = checked.level
    uvicorn_logs = logs.configure(o.log_format, level,
                                  worker=worker_id() if o.redis is not None else None)
    application = _application(o, checked)
    sock = _listen(o.host, o.port, o.lang)
    actual = sock.getsockname()[1]
    # JSON lines: uvicorn's loggers reach the root's JSON handler (server/ops/logs.py)
    config = uvicorn.Config(application, log_level=level, access_log=level == "debug",
                            log_config=LOGGING_CONFIG if uvicorn_logs else None,
                            ws_max_size=65536, lifespan="on",
                            proxy_headers=bool(checked.proxies),
                            forwarded_allow_ips=checked.proxies or None,
                            ws_per_message_deflate=WS_DEFLATE,
                            timeout_graceful_shutdown=5 if o.redis is not None else None)
    server = uvicorn.Server(config)
    address = _address(o.host, actual)
    typer.echo(_line("serving", o.lang, address=address, db=shown_url(checked.url)))
    sys.stdout.flush()
    if not o.no_browser and _has_display():
        _open_when_started(server, address)
    server.run(sockets=[sock])
    if not server.started:
        raise typer.Exit(1)


def _application(o: ServeOptions, checked: _Checked) -> FastAPI:
    """The one process's application: its limiter (a bad ``--limits-storage`` is one
    clear line) and :func:`thousand.server.create_app` with the options."""
    from thousand.server import create_app
    from thousand.server.limits import Limiter, LimitError, rates_storage
    from thousand.server.store.tables import StoreError
    from thousand.server.web_security import PRIVATE_NETWORKS

    try:
        storage, key_prefix = rates_storage(o.limits_storage, o.redis, o.redis_prefix)
        limiter = Limiter(storage, checked.overrides, enabled=not o.no_limits,
                          key_prefix=key_prefix)
    except LimitError as e:
        raise fail(e.text(o.lang), lang=o.lang) from None
    try:
        return create_app(checked.url, bots_threads=o.bots_threads, bot_delay=o.bot_delay,
                          bot_processes=o.bot_processes,
                          limiter=limiter, waiting_timeout=o.waiting_timeout or None,
                          adjourn_after=o.adjourn_after or None,
                          metrics=not o.no_metrics, redis_url=o.redis,
                          metrics_from=o.metrics_from or PRIVATE_NETWORKS,
                          redis_prefix=o.redis_prefix, lease_ttl=o.lease_ttl,
                          tune_gc=True, max_tables=o.max_tables, caps=checked.caps,
                          mailer=checked.mailer, chat_filter=o.chat_filter,
                          push=checked.push)
    except StoreError as e:
        raise fail(e.text(o.lang), lang=o.lang) from None


def _open_when_started(server: uvicorn.Server, address: str) -> None:
    """Open ``address`` in a browser once the server listens (for at most 10 seconds),
    from a thread of its own so that serving does not wait for it."""
    def open_when_ready() -> None:
        import webbrowser

        for _ in range(200):
            if server.started:
                webbrowser.open(address)
                return
            time.sleep(0.05)

    threading.Thread(target=open_when_ready, daemon=True).start()


def _cluster_options(o: ServeOptions, checked: _Checked) -> dict[str, object]:
    """The options each of ``--workers N``'s processes builds its application from
    (server/cluster_app.py reads them as JSON)."""
    return {
        "db": checked.url, "redis": o.redis, "redis_prefix": o.redis_prefix,
        "lease_ttl": o.lease_ttl, "worker_id": o.worker_id_opt,
        "bots_threads": o.bots_threads, "bot_processes": o.bot_processes,
        "bot_delay": o.bot_delay, "log_level": checked.level, "log_format": o.log_format,
        "metrics": not o.no_metrics, "metrics_from": o.metrics_from or [],
        "waiting_timeout": o.waiting_timeout or None,
        "adjourn_after": o.adjourn_after or None,
        "limits_storage": o.limits_storage, "limits": o.limit_specs or [],
        "limits_on": not o.no_limits, "max_tables": o.max_tables,
        "mail": [o.smtp, o.mail_from, o.public_url],
        "chat_filter": o.chat_filter, "push": [o.vapid_private_key, o.vapid_subject]}


def _supervise(o: ServeOptions, checked: _Checked) -> None:
    """``--workers N``: bind the port once here and let uvicorn's supervisor run N
    worker processes on it, starting a new one whenever one dies; each builds its
    application from :func:`_cluster_options` (server/cluster_app.py).  The database is opened (and
    migrated) here first, so that a database that cannot be used is one clear line."""
    import json

    import uvicorn
    from uvicorn.config import LOGGING_CONFIG
    from uvicorn.supervisors import Multiprocess

    from thousand.server.cluster_app import ENV
    from thousand.server.store.tables import Store, StoreError, shown_url

    lang, level, proxies = o.lang, checked.level, checked.proxies
    try:
        Store(checked.url).close()
    except StoreError as e:
        raise fail(e.text(lang), lang=lang) from None
    os.environ[ENV] = json.dumps(_cluster_options(o, checked))
    sock = _listen(o.host, o.port, lang)
    config = uvicorn.Config("thousand.server.cluster_app:worker_app", factory=True,
                            workers=o.workers, log_level=level, access_log=level == "debug",
                            log_config=None if o.log_format == "json" else LOGGING_CONFIG,
                            ws_max_size=65536, lifespan="on", timeout_graceful_shutdown=5,
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                            ws_per_message_deflate=WS_DEFLATE)
    address = _address(o.host, sock.getsockname()[1])
    typer.echo(_line("serving", lang, address=address, db=shown_url(checked.url)))
    sys.stdout.flush()
    Multiprocess(config, sockets=[sock]).run()
