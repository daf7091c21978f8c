"""The routes of an account's e-mail and of a forgotten password (docs/server.md "E-mail
and password recovery"; the rows in server/store/recovery.py, the sending in
server/ops/mail.py).

* ``GET /api/account/recovery``: whether the site sends mail at all (the pages say
  recovery is off when it does not, and every other route here answers 503 ``mail_off``).
* ``GET/POST/DELETE /api/account/email``: a signed-in account's address; a new one is
  confirmed by the link of a letter (``POST /api/account/email/verify``).
* ``POST /api/account/forgot``: a letter with a link to choose a new password, sent to a
  confirmed address only; the answer is the same whether the address is known or not,
  and comes at once (the letter goes in the background), so that neither the words nor
  the time tell who has an account.  ``POST /api/account/reset``: the new password by
  that link; every session of the account ends.

The limits (server/limits.py): ``recovery`` per client and address on every request
here that sends a letter or uses a link; ``mail_address`` on every letter asked to an
address, counted whether or not the address is known (refused alike); ``mail_account``
on the letters about one account (a forgotten password's over it is dropped silently,
as an unknown address's).
The links live in the database, so any worker redeems a link another one sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from thousand.words.mail import mail_text

from ..errors import ServerError
from ..features.accounts import Accounts, check_password
from ..limits import RateLimited, limiter_of
from ..limits import check as check_limit
from ..ops.mail import Mailer
from ..pages import page_lang
from ..reader import StrictRoute
from ..store.recovery import MAX_EMAIL, EmailTaken, RecoveryStore, email_key
from ..store.tables import Store
from .models import ErrorBody

__all__ = ["RESET_TTL", "VERIFY_TTL", "Recovery", "router"]

log = logging.getLogger("thousand.mail")
router = APIRouter(route_class=StrictRoute)

#: How long (seconds) a link to confirm an address works: a day.
VERIFY_TTL = 86400.0
#: How long (seconds) a link to choose a new password works: an hour.
RESET_TTL = 3600.0


@dataclass(slots=True)
class Recovery:
    """The application's mail (``app.state.recovery``): the mailer (None: mail is off),
    the rows, and how long each link works (the tests shorten them)."""

    mailer: Mailer | None
    store: RecoveryStore
    verify_ttl: float = VERIFY_TTL
    reset_ttl: float = RESET_TTL

    @classmethod
    def of(cls, mailer: Mailer | None, store: Store) -> Recovery:
        return cls(mailer, RecoveryStore(store))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class RecoveryState(_Strict):
    """Whether the site sends mail (e-mail addresses and password recovery work)."""

    enabled: bool


class MyEmail(_Strict):
    """The account's confirmed address, and one waiting for its link (or null)."""

    email: str | None
    pending: str | None


class EmailIn(_Strict):
    email: str = Field(json_schema_extra={"minLength": 3, "maxLength": MAX_EMAIL})


class TokenIn(_Strict):
    token: str


class ResetIn(_Strict):
    token: str
    password: str


class Sent(_Strict):
    """A letter was sent (or, for a forgotten password, would be if the address is an
    account's confirmed one: the answer is the same)."""

    sent: bool


class Done(_Strict):
    ok: bool


_WORDS = {
    400: "The body cannot be read, or it is no e-mail address (bad_email), a link that "
         "is wrong, used or expired (bad_link), a password against the rules "
         "(bad_password).",
    401: "Not signed in as an account (not_signed_in).",
    403: "A request with a session cookie without the right X-CSRF-Token (csrf), or "
         "from another site (cross_site).",
    409: "Another account has confirmed this address (email_taken).",
    429: "Too many letters to this address or about this account, or recovery requests "
         "(rate_limited: limits mail_address, mail_account, recovery): wait the seconds "
         "of Retry-After.",
    502: "The mail server did not take the letter (mail_failed): try again later.",
    503: "This server sends no mail: addresses and recovery are off (mail_off).",
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorBody, "description": _WORDS[s]}
            for s in sorted({400, *statuses})}


def _recovery(request: Request) -> tuple[Recovery, Mailer]:
    recovery = request.app.state.recovery
    assert isinstance(recovery, Recovery)
    if recovery.mailer is None:
        raise ServerError("mail_off", "this server sends no mail: e-mail addresses and "
                          "password recovery are off", status=503,
                          ru="этот сервер не отправляет почту: адреса и восстановление "
                             "пароля выключены")
    return recovery, recovery.mailer


def _accounts(request: Request) -> Accounts:
    accounts = request.app.state.accounts
    assert isinstance(accounts, Accounts)
    return accounts


async def _account(request: Request) -> tuple[Accounts, str, str]:
    """(accounts, player id, name) of the request's signed-in account."""
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is None or identity.player.kind != "account" or not identity.player.name:
        raise ServerError("not_signed_in", "sign in first", status=401)
    return accounts, identity.player.id, identity.player.name


def _address(value: str) -> tuple[str, str]:
    try:
        return email_key(value)
    except ValueError:
        raise ServerError("bad_email", "email: not an e-mail address", status=400,
                          ru="это не адрес электронной почты") from None


async def _letter_allowed(request: Request, name: str, who: str) -> int | None:
    """Count one letter against ``name`` (``mail_address``, ``mail_account``) for the
    client ``who`` (the address or the account; it is the "address" too, so that a
    ``--limit`` of one rate counts the same thing twice, not all letters together):
    None, or the seconds to wait."""
    return await limiter_of(request).hit(name, who, who)


async def _count_letter(request: Request, name: str, who: str) -> None:
    wait = await _letter_allowed(request, name, who)
    if wait is not None:
        raise RateLimited(name, wait)


def _bad_link() -> ServerError:
    return ServerError("bad_link", "the link is wrong, used already or expired: ask for "
                       "another", status=400, ru="ссылка неверна, уже использована или "
                       "устарела: попросите новую")


@router.get("/api/account/recovery", response_model=RecoveryState,
            responses=_errors())
async def recovery_state(request: Request) -> RecoveryState:
    """Whether e-mail and password recovery are on (the operator set ``--smtp``)."""
    recovery = request.app.state.recovery
    return RecoveryState(enabled=isinstance(recovery, Recovery)
                         and recovery.mailer is not None)


@router.get("/api/account/email", response_model=MyEmail, responses=_errors(401, 503))
async def my_email(request: Request) -> MyEmail:
    """The signed-in account's confirmed address, and the one waiting for its link."""
    recovery, _ = _recovery(request)
    accounts, player_id, _name = await _account(request)
    email = await accounts.hub.db(recovery.store.email_of, player_id)
    pending = await accounts.hub.db(recovery.store.pending, player_id, time.time())
    return MyEmail(email=email, pending=pending)


@router.post("/api/account/email", response_model=Sent,
             responses=_errors(401, 403, 429, 502, 503))
async def add_email(body: EmailIn, request: Request) -> Sent:
    """Give an address: a letter with a link to confirm it is sent there; until the
    link is opened the account's address (if any) stays as it was."""
    recovery, mailer = _recovery(request)
    accounts, player_id, name = await _account(request)
    email, key = _address(body.email)
    await check_limit(request, "recovery")  # per address too: many accounts, one sender
    await _count_letter(request, "mail_address", key)
    await _count_letter(request, "mail_account", player_id)
    lang = page_lang(request)
    secret = await accounts.hub.db(recovery.store.new_link, "verify", player_id, email,
                                   lang, time.time(), recovery.verify_ttl)
    subject, text = mail_text(lang, "verify", name=name,
                              link=mailer.link(f"/account#verify={secret}"),
                              hours=round(recovery.verify_ttl / 3600))
    if not await mailer.send(email, subject, text):
        raise ServerError("mail_failed", "the letter could not be sent: try again later",
                          status=502, ru="письмо не удалось отправить: попробуйте позже")
    return Sent(sent=True)


@router.delete("/api/account/email", response_model=Done,
               responses=_errors(401, 403, 503))
async def remove_email(request: Request) -> Done:
    """Remove the account's address (and its links): no letter will reach it."""
    recovery, _ = _recovery(request)
    accounts, player_id, _name = await _account(request)
    await accounts.hub.db(recovery.store.forget, player_id)
    return Done(ok=True)


@router.post("/api/account/email/verify", response_model=MyEmail,
             responses=_errors(403, 409, 429, 503))
async def verify_email(body: TokenIn, request: Request) -> MyEmail:
    """Confirm an address by its letter's link (signed in or not: the link is the
    proof); it becomes its account's."""
    recovery, _ = _recovery(request)
    await check_limit(request, "recovery")
    accounts = _accounts(request)
    try:
        row = await accounts.hub.db(recovery.store.verify, body.token, time.time())
    except EmailTaken:
        raise ServerError("email_taken", "another account has confirmed this address",
                          status=409, ru="этот адрес уже подтверждён другим именем"
                          ) from None
    if row is None:
        raise _bad_link()
    return MyEmail(email=row.email, pending=None)


@router.post("/api/account/forgot", response_model=Sent,
             responses=_errors(403, 429, 503))
async def forgot(body: EmailIn, request: Request) -> Sent:
    """Ask for a letter to choose a new password.  The same answer whether or not the
    address is an account's (the letter, if any, goes in the background)."""
    recovery, mailer = _recovery(request)
    await check_limit(request, "recovery")
    _email, key = _address(body.email)
    await _count_letter(request, "mail_address", key)  # known or not: refused alike
    accounts = _accounts(request)
    lang = page_lang(request)

    async def send() -> None:
        found = await accounts.hub.db(recovery.store.account_of, key)
        if found is None:
            return
        player_id, name, confirmed = found
        if await _letter_allowed(request, "mail_account", player_id) is not None:
            log.info("a password letter not sent: the account's mail limit")
            return
        secret = await accounts.hub.db(recovery.store.new_link, "reset", player_id,
                                       confirmed, lang, time.time(), recovery.reset_ttl)
        subject, text = mail_text(lang, "reset", name=name,
                                  link=mailer.link(f"/account#reset={secret}"),
                                  hours=max(1, round(recovery.reset_ttl / 3600)))
        await mailer.send(confirmed, subject, text)

    _background(send())
    return Sent(sent=True)


@router.post("/api/account/reset", response_model=Done,
             responses=_errors(403, 429, 503))
async def reset(body: ResetIn, request: Request) -> Done:
    """A new password by a forgotten password's link: the link is used up, every
    session of the account ends (sign in with the new password)."""
    recovery, _ = _recovery(request)
    await check_limit(request, "recovery")
    accounts = _accounts(request)
    row = await accounts.hub.db(recovery.store.link, "reset", body.token, time.time())
    if row is None:
        raise _bad_link()
    password = check_password(body.password, name=row.name)
    password_hash = await accounts.hash(password)
    if await accounts.hub.db(recovery.store.reset, body.token, password_hash,
                             time.time()) is None:
        raise _bad_link()  # used by another request meanwhile
    return Done(ok=True)


async def forget_email(request: Request, player_id: str) -> None:
    """A deleted account's address and links are forgotten (routes_accounts.py)."""
    recovery = request.app.state.recovery
    if isinstance(recovery, Recovery):
        await _accounts(request).hub.db(recovery.store.forget, player_id)


_tasks: set[asyncio.Task[None]] = set()


def _background(work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` without waiting for it (kept referenced until done); what goes
    wrong is logged, no one is waiting to be told."""
    async def run() -> None:
        try:
            await work
        except Exception:
            log.exception("a password letter failed")

    task = asyncio.create_task(run())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)

