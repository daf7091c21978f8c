"""Limits per client: how often one client may lay a table, take a seat, move, chat, ask
for a hint, sign up or try to sign in (docs/server.md "Limits").

A public server must not be spoiled by one client: an anonymous script once laid the
server's thousand tables in 4.6 seconds and every later table, from anyone, was refused.
So every costly action is counted twice, in a moving window (the ``limits`` package):

* per *client* — the player (``accounts.client_key``: ``player:<id>`` for a valid session,
  else ``addr:<address>``), so that one account or guest cannot flood;
* per *address* — with a higher rate (many people may share one address behind a NAT),
  so that a script that makes a new guest for every request is caught too.

The address is the connection's peer, or, behind a reverse proxy that ``thousand serve
--trusted-proxy`` names, the one the proxy gives in ``X-Forwarded-For`` (uvicorn's proxy
headers middleware rewrites it, and trusts the header from that proxy only).

A client over its limit is refused, everybody else plays on: an HTTP request gets 429 with
``Retry-After`` (:class:`RateLimited`, worded in the request's language by the
application), a WebSocket message an ``error`` with the code ``rate_limited`` and the
``seconds`` to wait (the connection kept).  The counts live in a storage named by a URL:
``memory://`` (one process, the default) or ``redis://host:6379`` (shared by many
workers).

:data:`LIMITS` is the one place that names every limit and its rates.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection, Request

from .hub import ServerError

__all__ = ["LIMITS", "Limit", "LimitError", "Limiter", "RateLimited", "address_of", "check",
           "client_of", "limit", "parse_overrides"]

#: The session cookie (part of accounts); keyed on when the accounts module is absent.
SESSION_COOKIE = "thousand_session"


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit: the rates (``limits`` notation, ``;`` between several: all must hold)
    per client and per address; ``""`` means none.  ``live`` limits count a client's
    tables not over instead of a rate (:meth:`Limiter.check_live`)."""

    name: str
    client: str
    address: str
    what: str


#: Every limit of the server (docs/server.md "Limits" is the same table in words).
LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("table", "10/minute;60/hour", "30/minute;300/hour", "laying a table"),
    Limit("live", "10", "50", "tables laid and not over (waiting or playing) at once"),
    Limit("seat", "20/minute", "60/minute", "taking a seat"),
    Limit("move", "10/second;600/minute", "30/second;2000/minute",
          "a move sent over the WebSocket"),
    Limit("chat", "5/10 seconds;30/minute", "20/10 seconds;100/minute", "a chat line"),
    Limit("hint", "20/minute", "60/minute", "a hint asked for"),
    Limit("tournament", "5/minute;20/hour", "20/minute;100/hour", "a tournament made"),
    Limit("signup", "5/hour", "20/hour", "an account made"),
    Limit("signin", "5/minute", "20/minute",
          "a sign-in attempt (the client key is the name tried)"),
)}

class RateLimited(ServerError):
    """Over a limit: 429, ``Retry-After: seconds``; ``limit`` names which
    (:data:`LIMITS`)."""

    def __init__(self, limit: str, seconds: int) -> None:
        super().__init__("rate_limited", f"too many requests ({LIMITS[limit].what}); try "
                         f"again in {seconds} s", status=429, limit=limit, seconds=seconds)
        self.limit = limit
        self.seconds = seconds


class LimitError(ValueError):
    """A ``--limit`` or ``--limits-storage`` that cannot be used: what is wrong, in English
    (``str``) and in Russian (:meth:`text`), for ``thousand serve`` to print."""

    def __init__(self, en: str, ru: str) -> None:
        super().__init__(en)
        self.texts = {"en": en, "ru": ru}

    def text(self, lang: str = "ru") -> str:
        return self.texts.get(lang, self.texts["en"])


def parse_overrides(specs: list[str]) -> dict[str, Limit]:
    """``--limit NAME=RATE`` options (``RATE`` for both, ``CLIENT|ADDRESS`` for each,
    ``off`` for none): the limits with them applied.  A bad one is a :class:`LimitError`
    that says what is wrong."""
    out = dict(LIMITS)
    for spec in specs:
        name, sep, rates = spec.partition("=")
        name = name.strip()
        if not sep or name not in LIMITS:
            names = ", ".join(LIMITS)
            raise LimitError(f"--limit {spec!r}: NAME=RATE, NAME one of {names}",
                             f"--limit {spec!r}: нужно ИМЯ=ЧАСТОТА, ИМЯ — одно из: {names}")
        client, bar, address = rates.partition("|")
        client = client.strip()
        address = address.strip() if bar else client
        pair = ["" if r == "off" else r for r in (client, address)]
        for r in pair:
            if not r:
                continue
            try:
                if name == "live":
                    if not r.isdigit():
                        raise ValueError(r)
                else:
                    parse_many(r)
            except ValueError:
                example = "10" if name == "live" else "10/minute;60/hour"
                raise LimitError(f"--limit {spec!r}: {r!r} is not a rate (e.g. {example}, "
                                 "or off)", f"--limit {spec!r}: {r!r} — не частота "
                                 f"(например {example} или off)") from None
        out[name] = replace(out[name], client=pair[0], address=pair[1])
    return out


def address_of(conn: HTTPConnection) -> str:
    """The client's address (already the proxy's ``X-Forwarded-For`` one when the proxy
    is trusted: uvicorn rewrites it)."""
    return conn.client.host if conn.client is not None else "unknown"


def client_of(conn: HTTPConnection) -> str:
    """The client's key: ``accounts.client_key`` (``player:<id>``/``addr:<address>``);
    until the accounts module is there, the session cookie's hash, else the address."""
    try:
        accounts = importlib.import_module("thousand.server.accounts")
        key = accounts.client_key(conn)
        if isinstance(key, str) and key:
            return key
    except Exception:  # no accounts module, or it cannot read this connection
        pass
    cookie = conn.cookies.get(SESSION_COOKIE)
    if cookie:
        return "session:" + hashlib.sha256(cookie.encode()).hexdigest()[:24]
    return "addr:" + address_of(conn)


class Limiter:
    """The counts of every client against :data:`LIMITS` (or ``limits``), in the storage
    ``storage`` (a ``limits`` URL: ``memory://``, ``redis://…``); ``enabled=False`` lets
    everything through (a program that embeds the server and limits nothing)."""

    def __init__(self, storage: str = "memory://", limits: dict[str, Limit] | None = None,
                 *, enabled: bool = True) -> None:
        url = storage if storage.startswith("async+") else "async+" + storage
        try:
            self.storage = storage_from_string(url)
        except Exception as e:
            raise LimitError(f"--limits-storage {storage!r}: {e}",
                             f"--limits-storage {storage!r}: такое хранилище не годится "
                             f"({e})") from None
        self.strategy = MovingWindowRateLimiter(self.storage)
        self.limits = dict(limits or LIMITS)
        self.enabled = enabled
        self._items: dict[str, list[RateLimitItem]] = {}
        # the tables each client laid (live limit): key -> table ids; this process only
        self.laid: dict[str, set[str]] = {}
        self._is_live: Callable[[str], bool] | None = None
        self._prune_at = 4096

    def _parsed(self, rates: str) -> list[RateLimitItem]:
        items = self._items.get(rates)
        if items is None:
            items = self._items[rates] = parse_many(rates) if rates else []
        return items

    async def _hit(self, name: str, who: str, rates: str) -> int | None:
        """Count one for ``who``: None when within every rate, else the seconds to wait."""
        for item in self._parsed(rates):
            if not await self.strategy.hit(item, name, who):
                stats = await self.strategy.get_window_stats(item, name, who)
                return max(1, math.ceil(stats.reset_time - time.time()))
        return None

    async def hit(self, name: str, client: str, address: str) -> int | None:
        """One ``name`` action by ``client`` from ``address``: None when allowed, else the
        seconds until it would be."""
        if not self.enabled:
            return None
        limit = self.limits[name]
        wait = await self._hit(name, "c:" + client, limit.client)
        if wait is None:
            wait = await self._hit(name, "a:" + address, limit.address)
        return wait

    async def check(self, conn: HTTPConnection, name: str, key: str | None = None) -> None:
        """Count one ``name`` action of this connection's client (``key`` instead of its
        client key when given: a sign-in counts per name tried); over a limit:
        :class:`RateLimited`."""
        wait = await self.hit(name, key if key is not None else client_of(conn),
                              address_of(conn))
        if wait is not None:
            raise RateLimited(name, wait)

    def check_live(self, conn: HTTPConnection, is_live: Callable[[str], bool]) -> None:
        """Refuse a new table while this client (or address) has as many tables laid and
        not over as the ``live`` limit allows (``is_live(table_id)``: still waiting or
        playing).  The tables that ended are forgotten here."""
        if not self.enabled:
            return
        self._is_live = is_live
        limit = self.limits["live"]
        for who, most in ((client_of(conn), limit.client),
                          ("addr:" + address_of(conn), limit.address)):
            if not most:
                continue
            ids = self.laid.get(who)
            if ids is None:
                continue
            ids.intersection_update({t for t in ids if is_live(t)})
            if len(ids) >= int(most):
                raise RateLimited("live", 60)

    def laid_by(self, conn: HTTPConnection, table_id: str) -> None:
        """Remember that this connection's client laid ``table_id`` (the live limit).
        The clients whose tables all ended are forgotten now and then, so that the map
        stays as small as the live tables."""
        if not self.enabled:
            return
        for who in {client_of(conn), "addr:" + address_of(conn)}:
            self.laid.setdefault(who, set()).add(table_id)
        is_live = self._is_live
        if is_live is not None and len(self.laid) > self._prune_at:
            kept = {who: {t for t in ids if is_live(t)} for who, ids in self.laid.items()}
            self.laid = {who: ids for who, ids in kept.items() if ids}
            self._prune_at = max(4096, 2 * len(self.laid))

    def for_socket(self, conn: HTTPConnection) -> Callable[[str], Awaitable[int | None]]:
        """The check of one WebSocket's messages (``move``, ``chat``, ``hint``), keyed as
        the connection was when it opened: ``await it(kind)`` is None or the seconds to
        wait."""
        client, address = client_of(conn), address_of(conn)

        async def check_message(kind: str) -> int | None:
            return await self.hit(kind, client, address)

        return check_message


def _limiter(conn: HTTPConnection) -> Limiter:
    limiter: Any = getattr(conn.app.state, "limiter", None)
    if not isinstance(limiter, Limiter):
        raise RuntimeError("the application has no limiter (create_app sets one)")
    return limiter


async def check(request: HTTPConnection, name: str, key: str | None = None) -> None:
    """Count one ``name`` action (:data:`LIMITS`) of the request's client against the
    application's limiter; over the limit it raises :class:`RateLimited` (429 with
    ``Retry-After``).  Sign-in calls it as ``check(request, "signin", name_key)``: the
    attempts are counted per name tried and per address."""
    await _limiter(request).check(request, name, key)


def limit(name: str) -> Callable[[Request], Awaitable[None]]:
    """A FastAPI dependency: ``dependencies=[Depends(limit("table"))]`` counts the
    route's requests against the limit ``name``."""
    if name not in LIMITS:
        raise ValueError(f"no limit {name!r}: one of {', '.join(LIMITS)}")

    async def dependency(request: Request) -> None:
        await check(request, name)

    dependency.__name__ = f"limit_{name}"
    return dependency
