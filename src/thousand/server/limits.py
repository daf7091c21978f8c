"""Limits per client and per address on every costly action: tables laid and held, seats,
quick play, moves, chat, hints, syncs, sockets, tournaments and their entries, analyses,
guests, uploads, accounts, wrong passwords and mail (docs/server.md "Limits").

A public server must not be spoiled by one client: an anonymous script once laid the
server's thousand tables in 4.6 seconds and every later table, from anyone, was refused.
So every costly action is counted twice, in a moving window (the ``limits`` package):

* per *client* — the player (``accounts.client_key``: ``player:<id>`` for a valid session,
  else ``addr:<address>``), so that one account or guest cannot flood;
* per *address* — with a higher rate (many people may share one address behind a NAT),
  so that a script that makes a new guest for every request is caught too.

An action is counted on what it costs (``cost``: a tournament's start costs a table each
of its first round's), an account may have rates of its own (:attr:`Limit.account`), and
what is held at once (:data:`COUNTS`: live tables, open sockets) is counted by the
process that holds it and added up over every worker (:attr:`Limiter.holdings`:
server/holdings.py).  Wrong passwords count only when they are wrong: the sign-in
asks first (:meth:`Limiter.test`) and counts a failure after (server/features/guesses.py).

The address is the connection's peer, or, behind a reverse proxy that ``thousand serve
--trusted-proxy`` names, the one the proxy gives in ``X-Forwarded-For`` (uvicorn's proxy
headers middleware rewrites it, and trusts the header from that proxy only).

A client over its limit is refused, everybody else plays on: an HTTP request gets 429 with
``Retry-After`` (:class:`RateLimited`, worded in the request's language by the
application), a WebSocket message an ``error`` with the code ``rate_limited`` and the
``seconds`` to wait (the connection kept).  The counts live in a storage named by a URL:
``memory://`` (one process, the default) or ``redis://host:6379`` (shared by many
workers: by default the workers' own, :func:`rates_storage`); what is held at once, in
the workers' Redis (server/cluster/holdings.py).

:data:`LIMITS` is the one place that names every limit and its rates; the caps that count
no client (a server's, a table's, a tournament's, a request's) are
:data:`thousand.server.caps.CAPS`.  ``thousand serve --limit NAME=VALUE`` sets either kind
(:func:`parse_overrides`, :func:`parse_caps`): one option that knows every name rather
than a flag each.  The counts ``analyses`` and ``thinking`` are kept by those who hold
them (the analyses' queue, the bots' pool: server/live/bot_turns.py), whether the limiter is
on or not: they share the server fairly rather than refuse a client.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import math
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import HTTPConnection, Request

from . import caps
from .caps import CAPS
from .errors import ServerError
from .holdings import Holdings, LocalHoldings, Want
from .live.bot_turns import Share

__all__ = ["ASKER", "COUNTS", "LIMITS", "Limit", "LimitError", "Limiter", "RateLimited",
           "address_of", "check", "client_of", "count", "is_account", "limit", "limiter_of",
           "parse_caps", "parse_overrides", "rates_storage"]

#: The address key (``addr:<address>``) of the request that is laying a table now, set
#: by :meth:`Limiter.live_slots`: the global cap makes room only at the cost of those who
#: hold more than he does (server/live/room.py).
ASKER: ContextVar[str | None] = ContextVar("thousand_table_asker", default=None)

#: The session cookie (part of accounts); keyed on when the accounts module is absent.
SESSION_COOKIE = "thousand_session"


@dataclass(frozen=True, slots=True)
class Limit:
    """One limit: the rates (``limits`` notation, ``;`` between several: all must hold)
    per client and per address; ``""`` means none.  ``account``: the client's rates when
    the client is a signed-in account (``""``: the same as a guest's), so that a known
    player may do more than a fresh guest.  A limit of :data:`COUNTS` counts things held
    at once (a number) instead of a rate."""

    name: str
    client: str
    address: str
    what: str
    account: str = ""

    def rates_for(self, account: bool) -> str:
        """The client's rates: an account's own when it has them."""
        return self.account if account and self.account else self.client


#: The limits that count what a client holds at once (a number), not a rate.
COUNTS = frozenset({"live", "sockets", "analyses", "thinking"})

#: Every limit of the server (docs/server.md "Limits" is the same table in words).
LIMITS: dict[str, Limit] = {limit.name: limit for limit in (
    Limit("table", "10/minute;60/hour", "30/minute;300/hour", "laying a table",
          "20/minute;120/hour"),
    Limit("live", "10", "50", "tables laid and not over (waiting or playing) at once",
          "20"),
    Limit("quickplay", "10/minute;60/hour", "30/minute;300/hour", "a quick-play seat"),
    Limit("seat", "20/minute", "60/minute", "taking a seat"),
    Limit("move", "10/second;600/minute", "30/second;2000/minute",
          "a move sent over the WebSocket"),
    Limit("chat", "5/10 seconds;30/minute", "20/10 seconds;100/minute", "a chat line"),
    Limit("hint", "20/minute", "60/minute", "a hint asked for"),
    Limit("sync", "10/second;300/minute", "30/second;1000/minute",
          "a sync or snapshot message"),
    Limit("socket", "30/minute", "120/minute", "a table WebSocket opened"),
    Limit("sockets", "20", "200", "table WebSockets open at once"),
    Limit("tournament", "5/minute;20/hour", "20/minute;100/hour", "a tournament made"),
    Limit("register", "10/minute;60/hour", "20/minute;100/hour",
          "registering for a tournament"),
    Limit("analysis", "5/day", "60/day", "an analysis asked for", "20/day"),
    Limit("exercise", "30/minute;600/day", "120/minute;3000/day",
          "an exercise's answer (kept for the player's progress)"),
    Limit("analyses", "1", "3", "analyses queued or running at once", "2"),
    Limit("thinking", "1", "2", "the bots' pool's places held at once by the tables one "
          "laid", "2"),
    Limit("challenge", "5/minute;30/hour", "20/minute;100/hour",
          "a challenge sent to a player"),
    Limit("follow", "30/minute;200/hour", "100/minute;1000/hour",
          "following, blocking, or undoing either"),
    Limit("guest", "10/minute;50/hour", "10/minute;50/hour", "a guest made"),
    Limit("upload", "10/minute;100/hour", "30/minute;300/hour", "a record uploaded"),
    Limit("signup", "5/hour", "20/hour", "an account made"),
    Limit("signin", "5/minute;20/hour", "20/minute;100/hour",
          "a wrong password (the client is the name tried from this address)"),
    Limit("guesses", "100/hour", "", "wrong passwords of one account, from anywhere"),
    Limit("recovery", "5/hour;20/day", "20/hour;100/day",
          "a letter asked for (an address to confirm, a forgotten password), or a link used"),
    Limit("mail_address", "3/hour;10/day", "", "a letter to one e-mail address (the "
          "client is the address, known or not)"),
    Limit("mail_account", "5/hour;20/day", "", "a letter about one account (the client "
          "is the account)"),
    Limit("report", "5/hour;20/day", "20/hour;100/day", "a player reported to the "
          "moderators"),
    Limit("daily", "10/minute;30/hour", "30/minute;200/hour", "a deal of the day begun"),
    Limit("push", "10/hour;30/day", "30/hour;100/day", "a browser subscribed to turn "
          "notices by push, or unsubscribed"),
    Limit("push_sent", "30/hour;200/day", "", "a turn notice pushed to one account (the "
          "client is the account)"),
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


def _split(spec: str) -> tuple[str, str]:
    """``NAME=VALUE`` of one ``--limit``: NAME a limit's (:data:`LIMITS`) or a cap's
    (:data:`thousand.server.caps.CAPS`, but for one with a flag of its own)."""
    name, sep, value = spec.partition("=")
    name = name.strip()
    cap = CAPS.get(name)
    if cap is not None and cap.flag:
        raise LimitError(f"--limit {spec!r}: {name} is set with {cap.flag}",
                         f"--limit {spec!r}: {name} задаётся флагом {cap.flag}")
    if not sep or (name not in LIMITS and cap is None):
        names = ", ".join([*LIMITS, *(c for c in CAPS if not CAPS[c].flag)])
        raise LimitError(f"--limit {spec!r}: NAME=RATE, NAME one of {names}",
                         f"--limit {spec!r}: нужно ИМЯ=ЧАСТОТА, ИМЯ — одно из: {names}")
    return name, value


def parse_caps(specs: list[str]) -> dict[str, int]:
    """The caps (:data:`thousand.server.caps.CAPS`) of ``--limit NAME=N`` options (the
    others are :func:`parse_overrides`'): every cap's value."""
    out = caps.defaults()
    for spec in specs:
        name, value = _split(spec)
        if name in CAPS:
            if not value.strip().isdigit() or int(value) < 1:
                raise LimitError(f"--limit {spec!r}: {value!r} is not a whole number from 1",
                                 f"--limit {spec!r}: {value!r} — не целое число от 1")
            out[name] = int(value)
    return out


def parse_overrides(specs: list[str]) -> dict[str, Limit]:
    """``--limit NAME=RATE`` options (``RATE`` for both, ``CLIENT|ADDRESS`` for each,
    ``CLIENT|ADDRESS|ACCOUNT`` with an account's own, ``off`` for none): the limits with
    them applied (a cap's, ``NAME=N``, is :func:`parse_caps`').  A bad one is a
    :class:`LimitError` that says what is wrong."""
    out = dict(LIMITS)
    for spec in specs:
        name, rates = _split(spec)
        if name in CAPS:
            continue
        parts = [r.strip() for r in rates.split("|")]
        client = parts[0]
        address = parts[1] if len(parts) > 1 else client
        account = parts[2] if len(parts) > 2 else (out[name].account and client)
        triple = ["" if r == "off" else r for r in (client, address, account)]
        for r in triple:
            if r:
                _check_rate(spec, name, r)
        out[name] = replace(out[name], client=triple[0], address=triple[1],
                            account=triple[2])
    return out


def _check_rate(spec: str, name: str, rate: str) -> None:
    try:
        if name in COUNTS:
            if not rate.isdigit():
                raise ValueError(rate)
        else:
            parse_many(rate)
    except ValueError:
        example = "10" if name in COUNTS else "10/minute;60/hour"
        raise LimitError(f"--limit {spec!r}: {rate!r} is not a rate (e.g. {example}, "
                         "or off)", f"--limit {spec!r}: {rate!r} — не частота "
                         f"(например {example} или off)") from None


def count(limit: Limit, which: str) -> int | None:
    """The number a :data:`COUNTS` limit lets ``which`` (``client``, ``account``,
    ``address``) hold at once; None: no cap (``off``)."""
    most = (limit.rates_for(True) if which == "account" else
            limit.address if which == "address" else limit.client)
    return int(most) if most else None


def rates_storage(given: str | None, redis_url: str | None,
                  prefix: str) -> tuple[str, str | None]:
    """Where the rates count and the prefix of their keys (:class:`Limiter`):
    ``--limits-storage`` when given; else, for one of many workers (``--redis``), the
    workers' own Redis under ``{prefix}:limits`` — so that the site counts each rate once,
    not once per worker, apart from another site's on the same Redis; else this process's
    memory."""
    if given:
        return given, None
    if redis_url:
        return redis_url, f"{prefix}:limits"
    return "memory://", None


def address_of(conn: HTTPConnection) -> str:
    """The client's address (already the proxy's ``X-Forwarded-For`` one when the proxy
    is trusted: uvicorn rewrites it)."""
    return conn.client.host if conn.client is not None else "unknown"


def client_of(conn: HTTPConnection) -> str:
    """The client's key: ``accounts.client_key`` (``player:<id>``/``addr:<address>``);
    until the accounts module is there, the session cookie's hash, else the address."""
    try:
        accounts = importlib.import_module("thousand.server.features.accounts")
        key = accounts.client_key(conn)
        if isinstance(key, str) and key:
            return key
    except Exception:  # no accounts module, or it cannot read this connection
        pass
    cookie = conn.cookies.get(SESSION_COOKIE)
    if cookie:
        return "session:" + hashlib.sha256(cookie.encode()).hexdigest()[:24]
    return "addr:" + address_of(conn)


def is_account(conn: HTTPConnection) -> bool:
    """Whether the connection's session is a signed-in account's (its limits may be an
    account's own, higher ones: :attr:`Limit.account`)."""
    identity = getattr(conn.state, "identity", None)
    player = getattr(identity, "player", None)
    return getattr(player, "kind", None) == "account"


class Limiter:
    """The counts of every client against :data:`LIMITS` (or ``limits``), in the storage
    ``storage`` (a ``limits`` URL: ``memory://``, ``redis://…``); ``enabled=False`` lets
    everything through (a program that embeds the server and limits nothing)."""

    def __init__(self, storage: str = "memory://", limits: dict[str, Limit] | None = None,
                 *, enabled: bool = True, key_prefix: str | None = None) -> None:
        url = storage if storage.startswith("async+") else "async+" + storage
        options = {"key_prefix": key_prefix} if key_prefix else {}
        try:
            self.storage = storage_from_string(url, **options)
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
        self.is_live: Callable[[str], bool] | None = None
        self._prune_at = 4096
        # the table WebSockets open now (sockets limit): key -> how many; this process
        self.open: Counter[str] = Counter()
        # the tables being laid now (live limit): key -> how many (:meth:`live_slots`)
        self.pending: Counter[str] = Counter()
        #: told of each table laid and who laid it, whatever ``enabled`` says: the bots'
        #: pool shares its thinking by the address that laid a table (Hub.laid)
        self.on_laid: Callable[[str, Share], None] | None = None
        #: these counts added up with the other workers' (server/holdings.py): this
        #: process's alone unless ``create_app`` gives it the cluster's
        self.holdings: Holdings = LocalHoldings()

    def _parsed(self, rates: str) -> list[RateLimitItem]:
        items = self._items.get(rates)
        if items is None:
            items = self._items[rates] = parse_many(rates) if rates else []
        return items

    async def _wait(self, item: RateLimitItem, name: str, who: str) -> int:
        stats = await self.strategy.get_window_stats(item, name, who)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def _hit(self, name: str, who: str, rates: str, cost: int = 1) -> int | None:
        """Count ``cost`` for ``who``: None when within every rate, else the seconds to
        wait."""
        for item in self._parsed(rates):
            if not await self.strategy.hit(item, name, who, cost=cost):
                return await self._wait(item, name, who)
        return None

    async def _test(self, name: str, who: str, rates: str) -> int | None:
        """Whether one more would be within every rate (counting nothing): None, else
        the seconds to wait."""
        for item in self._parsed(rates):
            if not await self.strategy.test(item, name, who):
                return await self._wait(item, name, who)
        return None

    async def hit(self, name: str, client: str, address: str, *, cost: int = 1,
                  account: bool = False) -> int | None:
        """``cost`` ``name`` actions by ``client`` from ``address`` (``account``: the
        client is a signed-in account): None when allowed, else the seconds until it
        would be."""
        if not self.enabled:
            return None
        limit = self.limits[name]
        wait = await self._hit(name, "c:" + client, limit.rates_for(account), cost)
        if wait is None:
            wait = await self._hit(name, "a:" + address, limit.address, cost)
        return wait

    async def test(self, name: str, client: str, address: str) -> int | None:
        """Whether one more ``name`` action of ``client`` from ``address`` would be
        allowed, counting nothing (sign-in counts failures only: it asks first)."""
        if not self.enabled:
            return None
        limit = self.limits[name]
        wait = await self._test(name, "c:" + client, limit.client)
        if wait is None:
            wait = await self._test(name, "a:" + address, limit.address)
        return wait

    def counter(self, name: str) -> Callable[[str], Awaitable[int | None]]:
        """Counts one ``name`` action against a key that is no request's client (an
        account's pushed notices): the key is the client and the "address" too, as a
        letter's (server/routes/recovery.py)."""
        async def count(key: str) -> int | None:
            return await self.hit(name, key, key)

        return count

    async def check(self, conn: HTTPConnection, name: str, key: str | None = None,
                    *, cost: int = 1) -> None:
        """Count ``cost`` ``name`` actions of this connection's client (``key`` instead
        of its client key when given); over a limit: :class:`RateLimited`."""
        wait = await self.hit(name, key if key is not None else client_of(conn),
                              address_of(conn), cost=cost, account=is_account(conn))
        if wait is not None:
            raise RateLimited(name, wait)

    def _keys(self, conn: HTTPConnection) -> list[tuple[str, str]]:
        """(key, the most it may hold) of a ``COUNTS`` limit: the client, the address."""
        return [(client_of(conn), "client"), ("addr:" + address_of(conn), "address")]

    def _most(self, name: str, which: str, conn: HTTPConnection) -> int | None:
        if which == "client" and is_account(conn):
            which = "account"
        return count(self.limits[name], which)

    def _live_now(self, who: str, is_live: Callable[[str], bool]) -> int:
        """The live tables ``who`` holds here, those being laid included; the tables
        that ended are forgotten here."""
        ids = self.laid.get(who, set())
        ids.intersection_update({t for t in ids if is_live(t)})
        return len(ids) + self.pending[who]

    def _wants(self, name: str, conn: HTTPConnection,
               mine: Callable[[str], int]) -> list[Want]:
        """(key, what this process would hold, the most) of a ``COUNTS`` limit, for
        every key of the connection that has a most."""
        wants = []
        for who, which in self._keys(conn):
            most = self._most(name, which, conn)
            if most is not None:
                wants.append((who, mine(who), most))
        return wants

    @contextlib.asynccontextmanager
    async def live_slots(self, conn: HTTPConnection, is_live: Callable[[str], bool],
                         need: int = 1) -> AsyncIterator[Callable[[str], None]]:
        """Refuse ``need`` new tables (:class:`RateLimited`) while this client (or
        address) has so many tables laid and not over (``is_live(table_id)``: still
        waiting or playing) — here and, with many workers, on the others
        (:attr:`holdings`) — that they would pass the ``live`` limit; else hold the
        ``need`` tables for it until the block ends, so that requests in flight at once
        cannot all pass the check before any has laid its table.  The block calls what
        it is given with each table laid (:meth:`laid_by`)."""
        if not self.enabled:  # nothing refused, but the bots' share still told
            yield lambda table_id: self.laid_by(conn, table_id)
            return
        self.is_live = is_live
        ASKER.set("addr:" + address_of(conn))
        keys = {who for who, _ in self._keys(conn)}  # one key when no session
        for who in keys:
            self.pending[who] += need
        laid: list[str] = []

        def lay(table_id: str) -> None:
            laid.append(table_id)
            self.laid_by(conn, table_id)

        try:
            wants = self._wants("live", conn, lambda who: self._live_now(who, is_live))
            if wants and await self.holdings.take("live", wants) is not None:
                raise RateLimited("live", 60)
            yield lay
        finally:
            for who in keys:
                self.pending[who] -= need
                if self.pending[who] <= 0:
                    del self.pending[who]
            if len(laid) < need:  # fewer laid than held: the others see it soon
                self.holdings.changed()

    def laid_by(self, conn: HTTPConnection, table_id: str) -> None:
        """Remember that this connection's client laid ``table_id`` (the live limit).
        The clients whose tables all ended are forgotten now and then, so that the map
        stays as small as the live tables."""
        if self.on_laid is not None:
            self.on_laid(table_id, Share(client_of(conn), "addr:" + address_of(conn),
                                         is_account(conn)))
        if not self.enabled:
            return
        for who, _ in self._keys(conn):
            self.laid.setdefault(who, set()).add(table_id)
        is_live = self.is_live
        if is_live is not None and len(self.laid) > self._prune_at:
            kept = {who: {t for t in ids if is_live(t)} for who, ids in self.laid.items()}
            self.laid = {who: ids for who, ids in kept.items() if ids}
            self._prune_at = max(4096, 2 * len(self.laid))

    def laid_for(self, who: str, table_ids: list[str]) -> None:
        """Count tables laid later on a client's behalf (a tournament's next rounds: its
        creator's, ``player:<id>``) toward his live tables (and their bots' thinking
        toward his share: no address is known for them)."""
        if self.on_laid is not None:
            for table_id in table_ids:
                self.on_laid(table_id, Share(who, who))
        if self.enabled:
            self.laid.setdefault(who, set()).update(table_ids)

    def held(self, who: str) -> int:
        """How many live tables ``who`` (a key: ``addr:<address>``) holds."""
        is_live = self.is_live or (lambda _t: True)
        return sum(1 for t in self.laid.get(who, ()) if is_live(t))

    def holders(self) -> list[tuple[str, set[str]]]:
        """The addresses that hold live tables here, those that hold most here first
        (the global cap ends their idle tables first: server/live/room.py)."""
        is_live = self.is_live or (lambda _t: True)
        held = [(who, {t for t in ids if is_live(t)}) for who, ids in self.laid.items()
                if who.startswith("addr:")]
        return sorted((h for h in held if h[1]), key=lambda h: -len(h[1]))

    async def open_socket(self, conn: HTTPConnection) -> Callable[[], None]:
        """Count one table WebSocket of this client and address open (``sockets``: here
        and, with many workers, on the others): the function that counts it closed; over
        the limit :class:`RateLimited`."""
        if not self.enabled:
            return lambda: None
        keys = {who for who, _ in self._keys(conn)}  # one key when no session
        for who in keys:
            self.open[who] += 1

        def closed() -> None:
            for who in keys:
                self.open[who] -= 1
                if self.open[who] <= 0:
                    del self.open[who]
            self.holdings.changed()

        wants = self._wants("sockets", conn, lambda who: self.open[who])
        if wants and await self.holdings.take("sockets", wants) is not None:
            closed()
            raise RateLimited("sockets", 60)
        return closed

    def counts(self) -> dict[tuple[str, str], int]:
        """What this process holds now, for :meth:`Holdings.start`: each key's live
        tables (those being laid included) and open table WebSockets."""
        is_live = self.is_live or (lambda _t: True)
        out = {("live", who): self._live_now(who, is_live)
               for who in set(self.laid) | set(self.pending)}
        out.update({("sockets", who): n for who, n in self.open.items()})
        return out

    def for_socket(self, conn: HTTPConnection) -> Callable[[str], Awaitable[int | None]]:
        """The check of one WebSocket's messages (``move``, ``chat``, ``hint``, ``sync``),
        keyed as the connection was when it opened: ``await it(kind)`` is None or the
        seconds to wait."""
        client, address = client_of(conn), address_of(conn)

        async def check_message(kind: str) -> int | None:
            return await self.hit(kind, client, address)

        return check_message


def limiter_of(conn: HTTPConnection) -> Limiter:
    limiter: Any = getattr(conn.app.state, "limiter", None)
    if not isinstance(limiter, Limiter):
        raise RuntimeError("the application has no limiter (create_app sets one)")
    return limiter


async def check(request: HTTPConnection, name: str, key: str | None = None,
                *, cost: int = 1) -> None:
    """Count ``cost`` ``name`` actions (:data:`LIMITS`) of the request's client against
    the application's limiter; over the limit it raises :class:`RateLimited` (429 with
    ``Retry-After``).  ``key`` counts them against another client than the request's."""
    await limiter_of(request).check(request, name, key, cost=cost)


def limit(name: str) -> Callable[[Request], Awaitable[None]]:
    """A FastAPI dependency: ``dependencies=[Depends(limit("table"))]`` counts the
    route's requests against the limit ``name``."""
    if name not in LIMITS:
        raise ValueError(f"no limit {name!r}: one of {', '.join(LIMITS)}")

    async def dependency(request: Request) -> None:
        await check(request, name)

    dependency.__name__ = f"limit_{name}"
    return dependency
