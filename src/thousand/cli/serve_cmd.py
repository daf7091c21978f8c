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
from typing import Annotated

import typer

from thousand.cli import app

from .common import fail, os_reason


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
    "serving": ("thousand: serving at {address}  (database: {db}; Ctrl+C stops)",
                "thousand: сервер работает, откройте {address}  (база данных: {db}; "
                "Ctrl+C — остановить)"),
}


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
        "or off): a limit per client (docs/server.md).")] = None,
    limits_storage: Annotated[str, typer.Option(
        "--limits-storage", help="Where the limits count: memory:// or redis://host:port"
        )] = "memory://",
    no_limits: Annotated[bool, typer.Option(
        "--no-limits", help="Limit no client (a private server; tests that play fast)."
        )] = False,
    log_format: Annotated[str, typer.Option(
        "--log-format", help="text (for people) or json (one object a line, with the "
        "worker id: for a log store).")] = "text",
    no_metrics: Annotated[bool, typer.Option(
        "--no-metrics", help="No Prometheus metrics at /metrics.")] = False,
) -> None:
    """Serve the game to browsers: tables with people and bots, chat, replays."""
    lang = "en" if lang == "en" else "ru"
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from thousand.server import create_app, default_db_url, logs
    from thousand.server.limits import Limiter, LimitError, parse_overrides
    from thousand.server.store import StoreError, shown_url

    level = log_level.lower()
    if level not in ("warning", "info", "debug", "error"):
        raise fail(_line("log_level", lang), lang=lang)
    if log_format not in logs.FORMATS:
        raise fail(_line("log_format", lang), lang=lang)
    uvicorn_logs = logs.configure(log_format, level)
    url = db or default_db_url()
    try:
        limiter = Limiter(limits_storage, parse_overrides(limit_specs or []),
                          enabled=not no_limits)
    except LimitError as e:
        raise fail(e.text(lang), lang=lang) from None
    try:
        application = create_app(url, bots_threads=bots_threads, bot_delay=bot_delay,
                                 bot_processes=bot_processes,
                                 limiter=limiter, waiting_timeout=waiting_timeout or None,
                                 adjourn_after=adjourn_after or None,
                                 metrics=not no_metrics)
    except StoreError as e:
        raise fail(e.text(lang), lang=lang) from None
    sock = _listen(host, port, lang)
    actual = sock.getsockname()[1]
    # X-Forwarded-For is believed from the proxies named only (uvicorn would otherwise
    # believe it from 127.0.0.1 by default: any local client could pick its address)
    proxies = [p.strip() for spec in trusted_proxy or [] for p in spec.split(",")
               if p.strip()]
    # JSON lines: uvicorn's loggers reach the root's JSON handler (server/logs.py)
    config = uvicorn.Config(application, log_level=level, access_log=level == "debug",
                            log_config=LOGGING_CONFIG if uvicorn_logs else None,
                            ws_max_size=65536, lifespan="on", proxy_headers=bool(proxies),
                            forwarded_allow_ips=proxies or None)
    server = uvicorn.Server(config)
    address = _address(host, actual)
    typer.echo(_line("serving", lang, address=address, db=shown_url(url)))
    sys.stdout.flush()

    if not no_browser and _has_display():
        def open_when_ready() -> None:
            import webbrowser

            for _ in range(200):
                if server.started:
                    webbrowser.open(address)
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_ready, daemon=True).start()
    server.run(sockets=[sock])
    if not server.started:
        raise typer.Exit(1)
