"""Who a request comes from: guests and accounts, their sessions, CSRF (docs/server.md
"Players").

Every browser gets a *player*: a guest the first time a page asks ``GET /api/me``, an
account once he signs up (the guest becomes the account, keeping his id and so his seats
and games) or signs in.  The session is the cookie :data:`SESSION_COOKIE` (HttpOnly,
SameSite=Lax, Secure over https); the store keeps only its SHA-256.  A session ends when
its player signs out, after :data:`SESSION_IDLE` seconds unused, or when he signs out
everywhere; an ended or unknown cookie is no session (the browser is a guest again).

CSRF: a state-changing request (POST, PUT, PATCH, DELETE) that carries a session cookie
must carry the header :data:`CSRF_HEADER` equal to :func:`csrf_token` of its session, an
HMAC of the session's secret that the pages read from the cookie :data:`CSRF_COOKIE`
(another site's page can make the browser send the cookies but cannot read them; and a
CSRF cookie planted from elsewhere does not match the session).  A request with no
session cookie is not checked: it has no ambient authority (scripts, programs).  Over
https the cookies are ``__Host-`` cookies (:func:`web_security.cookie_name`), and every
state-changing API request from another site's page is refused
(:func:`web_security.cross_site_refusal`).

Passwords are hashed with Argon2id (argon2-cffi's default parameters; a hash made with
older parameters is made again at the next sign-in), always in a thread, never on the
event loop.  A seat a player takes gets a token derived from his ``seat_secret``
(:func:`thousand.server.checks.seat_token`), so that his other devices get it from
``GET /api/me/seats``.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import time
from functools import cache
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request, Response
from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from ..errors import ServerError
from ..live.hub import Hub
from ..names import check_person_name, name_key
from ..store.accounts import DELETED_NAME, AccountStore, Identity, Player
from ..web_security import cookie_name, cross_site_refusal

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "MAX_PASSWORD",
    "MIN_PASSWORD",
    "SESSION_COOKIE",
    "SESSION_IDLE",
    "Accounts",
    "Player",
    "check_account_name",
    "check_password",
    "client_key",
    "csrf_token",
    "current_player",
    "person_name",
    "rename_live",
]

SESSION_COOKIE = "thousand_session"
CSRF_COOKIE = "thousand_csrf"
CSRF_HEADER = "X-CSRF-Token"
#: A session unused for this long (seconds: 30 days) has ended.
SESSION_IDLE = 30 * 86400.0
#: How long the browser keeps the cookies (the server's idle limit is what counts).
COOKIE_AGE = 400 * 86400
#: A password's length, in characters.
MIN_PASSWORD, MAX_PASSWORD = 8, 128
#: How often (seconds) expired sessions and unused guests are forgotten.
PURGE_EVERY = 3600.0
_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_NO_IDENTITY = object()


def _session_id(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def csrf_token(secret: str) -> str:
    """The CSRF token of the session ``secret``: HMAC-SHA-256 of a fixed label under it,
    so bound to the session (none other's, and no planted cookie, matches) while it tells
    nothing of the secret (the CSRF cookie is readable by the pages)."""
    mac = hmac.new(secret.encode("utf-8", "surrogatepass"), b"thousand csrf",
                   hashlib.sha256)
    return mac.hexdigest()


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset({name_key(DELETED_NAME)})


#: The words of the names the server gives («Игрок», «Игрок 2», «Бот 3»): no account may
#: take one, or nobody without a session could sit under it (server/names.py).
_DEFAULT_WORDS = ("Игрок", "Бот", "Player", "Bot")


def _default_name(name: str) -> bool:
    words = name.split(" ")
    if len(words) == 2 and words[1].isdigit():
        words = words[:1]
    return len(words) == 1 and name_key(words[0]) in {name_key(w) for w in _DEFAULT_WORDS}


def check_account_name(value: object) -> tuple[str, str]:
    """An account's name and its key (what must be unique): a person's name
    (:func:`names.check_person_name`: no invisible, format or direction character, not
    Latin and Cyrillic letters mixed) with at least one letter.  The key is the name's confusable
    skeleton, casefolded (:func:`names.name_key`), so Аня and аня, Anna, ANNA and the
    Greek «Αnna» are one name."""
    name = check_person_name(value)
    if not any(c.isalpha() for c in name):
        raise ValueError("name: must have a letter")
    key = name_key(name)
    if key in _reserved_keys() or _default_name(name) or len(key) > 64:
        raise ValueError("name: this name cannot be taken")
    return name, key


@cache
def _common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords (zxcvbn's list, from leaked password sets), the
    first thing a guesser tries: a password among them is no secret."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS  # type: ignore[import-untyped]

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password(value: object, field: str = "password", *, name: str | None = None) -> str:
    """A password one may choose: 8 to 128 characters that can be stored, and none a
    guesser tries first: not one of the common passwords (casefolded, spaces trimmed),
    not fewer than three different characters (eight spaces, «aaaaaaaa»), not the
    player's own name in it.  ServerError ``bad_password`` (400) says why, in Russian
    (``ru``) and English."""
    def refuse(en: str, ru: str) -> ServerError:
        return ServerError("bad_password", f"{field}: {en}", status=400, ru=ru)

    if not isinstance(value, str) or not MIN_PASSWORD <= len(value) <= MAX_PASSWORD:
        raise refuse(f"from {MIN_PASSWORD} to {MAX_PASSWORD} characters",
                     f"пароль — от {MIN_PASSWORD} до {MAX_PASSWORD} символов")
    if "\x00" in value or any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise refuse("has a character that cannot be stored",
                     "в пароле символ, который нельзя сохранить")
    folded = value.strip().casefold()
    if len(set(value)) < 3 or folded in _common_passwords():
        raise refuse("one of the most common passwords, guessed first: choose another",
                     "это один из самых частых паролей, его подберут первым: выберите "
                     "другой")
    if name and " ".join(name.split()).casefold() in " ".join(folded.split()):
        raise refuse("has your name in it: choose another",
                     "в пароле ваше имя: выберите другой")
    return value


class Accounts:
    """The players of one server: its :class:`AccountStore`, the hashing, the sessions."""

    def __init__(self, hub: Hub, store: AccountStore, *, idle: float = SESSION_IDLE) -> None:
        self.hub = hub
        self.store = store
        self.idle = idle
        self.hasher = PasswordHasher()
        # Argon2id hashes made or checked at once (64 MiB each for its time; the cap
        # ``argon2``): a burst of sign-ins waits its turn instead of growing the server
        self._argon2 = asyncio.Semaphore(hub.caps["argon2"])
        self._dummy: str | None = None
        self._purged = 0.0

    # ------------------------------------------------------------------ passwords

    async def hash(self, password: str) -> str:
        async with self._argon2:
            return await self.hub.offload(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether the password is the hash's.  With no hash (no such name) a dummy one
        is checked all the same, so that the answer takes as long either way."""
        if password_hash is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_urlsafe(16))
            password_hash = self._dummy
            password = "\x00" + password  # never the dummy's

        def check() -> bool:
            try:
                return bool(self.hasher.verify(password_hash, password))
            except (VerificationError, InvalidHashError):
                return False

        async with self._argon2:
            return await self.hub.offload(check)

    def needs_rehash(self, password_hash: str) -> bool:
        return bool(self.hasher.check_needs_rehash(password_hash))

    # ------------------------------------------------------------------ sessions

    async def identity(self, request: HTTPConnection) -> Identity | None:
        """The request's valid session, looked up once per request."""
        known = getattr(request.state, "identity", _NO_IDENTITY)
        if known is not _NO_IDENTITY:
            return known if isinstance(known, Identity) else None
        secret = request.cookies.get(cookie_name(request, SESSION_COOKIE))
        found: Identity | None = None
        if secret and len(secret) <= 200:
            found = await self.hub.db(self.store.session, _session_id(secret), time.time(),
                                      self.idle)
        request.state.identity = found
        return found

    async def new_guest(self, request: Request, response: Response) -> Player:
        """A new guest and his session.  At most once an hour, the expired sessions and
        the guests nobody can come back as are forgotten first (:meth:`AccountStore.purge`),
        so that browsers that looked once do not pile up."""
        now = time.time()
        if now - self._purged >= PURGE_EVERY:
            self._purged = now
            await self.hub.db(self.store.purge, now)
        player = await self.hub.db(self.store.new_guest, now)
        await self.start_session(request, response, player)
        return player

    async def start_session(self, request: Request, response: Response,
                            player: Player) -> None:
        """A new session for ``player`` (the request's old one, if any, ended: a new
        privilege gets a new cookie); its cookies set on ``response``."""
        old = request.cookies.get(cookie_name(request, SESSION_COOKIE))
        if old:
            await self.hub.db(self.store.end_session, _session_id(old))
        secret = secrets.token_urlsafe(32)
        await self.hub.db(self.store.new_session, _session_id(secret), player.id,
                          time.time(), self.idle)
        secure = request.url.scheme == "https"
        response.set_cookie(cookie_name(request, SESSION_COOKIE), secret,
                            max_age=COOKIE_AGE, path="/", httponly=True, samesite="lax",
                            secure=secure)
        self.set_csrf_cookie(request, response, secret)
        request.state.identity = None  # looked up afresh by the next request

    @staticmethod
    def set_csrf_cookie(request: Request, response: Response, secret: str) -> None:
        response.set_cookie(cookie_name(request, CSRF_COOKIE), csrf_token(secret),
                            max_age=COOKIE_AGE, path="/", httponly=False, samesite="lax",
                            secure=request.url.scheme == "https")

    def refresh_csrf(self, request: Request, response: Response) -> None:
        """Give a session's CSRF cookie again when the browser's is not the session's (a
        session begun before the token was bound to it), so that its pages go on."""
        secret = request.cookies.get(cookie_name(request, SESSION_COOKIE))
        if (secret and len(secret) <= 200 and "set-cookie" not in response.headers
                and request.cookies.get(cookie_name(request, CSRF_COOKIE))
                != csrf_token(secret)):
            self.set_csrf_cookie(request, response, secret)

    @staticmethod
    def clear_cookies(request: Request, response: Response) -> None:
        secure = request.url.scheme == "https"
        for base in (SESSION_COOKIE, CSRF_COOKIE):
            response.delete_cookie(cookie_name(request, base), path="/", secure=secure,
                                   httponly=base == SESSION_COOKIE, samesite="lax")

    async def end_session(self, request: Request) -> None:
        secret = request.cookies.get(cookie_name(request, SESSION_COOKIE))
        if secret:
            await self.hub.db(self.store.end_session, _session_id(secret))

    async def may_hold(self, conn: HTTPConnection, player_id: str | None) -> bool:
        """Whether a browser may use a seat token of ``player_id``'s seat: a connection
        with a session cookie only while that cookie is his live session (signed out, here
        or everywhere, the browser holds none of his seats even if a page kept a token);
        a connection without one (a program) by the token alone, as ever."""
        secret = conn.cookies.get(cookie_name(conn, SESSION_COOKIE))
        if player_id is None or secret is None:
            return True
        identity = await self.identity(conn)
        return identity is not None and identity.player.id == player_id

    # ------------------------------------------------------------------ the middleware

    async def check_request(self, request: Request) -> Response | None:
        """The CSRF check of an API request that carries a session cookie (None: go on;
        else the 403 to answer); its session is looked up for the route on the way."""
        if not request.url.path.startswith("/api/"):
            return None
        refusal = cross_site_refusal(request)
        if refusal is not None:
            return refusal
        secret = request.cookies.get(cookie_name(request, SESSION_COOKIE))
        if secret is None:
            return None
        if request.method in _UNSAFE:
            header = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(csrf_token(secret).encode("ascii"),
                                       header.encode("utf-8", "replace")):
                return JSONResponse({"error": {
                    "code": "csrf",
                    "message": f"a request with a session cookie needs the header "
                               f"{CSRF_HEADER} equal to the cookie {CSRF_COOKIE}",
                    "ru": "страница устарела: обновите её и попробуйте снова"}},
                    status_code=403)
        await self.identity(request)
        return None


def _accounts(request: Request) -> Accounts:
    accounts: Any = request.app.state.accounts
    assert isinstance(accounts, Accounts)
    return accounts


async def current_player(request: Request) -> Player | None:
    """The player of the request's valid session, or None (no session: a script, or a
    browser whose session ended)."""
    identity = await _accounts(request).identity(request)
    return identity.player if identity is not None else None


async def person_name(request: Request, proposed: object) -> str:
    """The name a person sits (or plays a tournament) under: a signed-in account's own
    name, whatever the request proposes; anyone else's ``proposed``, a valid person's name
    (ValueError: why not) that is no account's and does not look like one (the same
    :func:`names.name_key`): a guest cannot sit as «Пётр_Т» beside the account «Пётр_Т»
    (ServerError ``name_taken``, 409)."""
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is not None and identity.player.kind == "account" and identity.player.name:
        return identity.player.name
    name = check_person_name(proposed)
    if await accounts.hub.db(accounts.store.account, name_key(name)) is not None:
        raise ServerError("name_taken", f"«{name}» is an account's name (or looks like "
                          "one): sign in to use it, or choose another",
                          status=409, ru=f"«{name}» — имя зарегистрированного игрока "
                          "(или похоже на него): войдите или выберите другое имя")
    return name


async def rename_live(hub: Hub, seats: list[tuple[str, int]], name: str) -> None:
    """The tables in memory show a player's new name at once (his account deleted, his
    name hidden by a moderator): ``seats`` are the (table, seat) the store renamed."""
    for table_id, seat in seats:
        live = hub.tables.get(table_id)
        if live is None or not 0 <= seat < len(live.seats):
            continue
        async with live.lock:
            live.seats[seat].name = name
            live.table.game.names[seat] = name
            live.row.names[seat] = name
        live.broadcast_seats()


async def seat_owner(request: Request) -> tuple[str, str] | None:
    """(player id, seat secret) for a seat the request takes or lays (Hub.create,
    Hub.take_seat), or None when the request has no session."""
    identity = await _accounts(request).identity(request)
    return (identity.player.id, identity.seat_secret) if identity is not None else None


def client_key(conn: HTTPConnection) -> str:
    """Whom the limits count a request (or a WebSocket) against: ``player:<id>`` when its
    session is valid (looked up by the middleware for every API request with a session
    cookie), else ``addr:<address>``."""
    identity = getattr(conn.state, "identity", None)
    if isinstance(identity, Identity):
        return f"player:{identity.player.id}"
    host = conn.client.host if conn.client is not None else "unknown"
    return f"addr:{host}"
