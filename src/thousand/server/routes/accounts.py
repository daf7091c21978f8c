"""The routes of players: sign up, sign in and out, the password, deleting an account, the
player himself and his seats (docs/server.md "Players"; the logic is in
server/features/accounts.py)."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..checks import MAX_NAME, seat_token, token_matches
from ..errors import ServerError
from ..features import guesses
from ..features.accounts import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    Accounts,
    check_account_name,
    check_password,
    person_name,
    rename_live,
)
from ..limits import check as check_limit
from ..names import legacy_key
from ..reader import StrictRoute
from ..store.accounts import DELETED_NAME, NameTaken, Player
from .recovery import forget_email

__all__ = ["router"]

# every body read by the one strict reader (server/reader.py), as the other routes'
router = APIRouter(route_class=StrictRoute)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# The lengths the routes check, stated in the OpenAPI document only (the routes' own
# refusals keep their codes and words: bad_name, bad_password)
_NAME = Field(json_schema_extra={"minLength": 1, "maxLength": MAX_NAME})
_PASSWORD = Field(json_schema_extra={"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD})


class Credentials(_Strict):
    """An account's name and password (sign up, sign in)."""

    name: str = _NAME
    password: str = _PASSWORD


class NewPassword(_Strict):
    old: str
    new: str = _PASSWORD


class Password(_Strict):
    password: str


class GuestName(_Strict):
    name: str = _NAME


class PlayerOut(_Strict):
    """A player: ``kind`` guest or account; a guest may have no name yet (null)."""

    id: str
    kind: str
    name: str | None


class MySeat(_Strict):
    """One of the player's live seats; ``names`` are the table's seats' names, by seat
    (his page names a table by who sits at it, not by its id), ``guests`` which of them
    guests hold."""

    table: str
    seat: int
    status: str
    preset: str
    url: str
    names: list[str]
    guests: list[bool]


class Me(_Strict):
    """The request's player and the unfinished tables where he holds a seat."""

    player: PlayerOut
    tables: list[MySeat]


class SeatToken(_Strict):
    table: str
    seat: int
    token: str
    url: str


class MySeats(_Strict):
    """The tokens of the player's seats at live tables (for his other devices)."""

    seats: list[SeatToken]


class SignedIn(_Strict):
    player: PlayerOut


class Ended(_Strict):
    """How many sessions ended."""

    ended: int


class _ErrorDetail(BaseModel):
    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class _ErrorBody(BaseModel):
    error: _ErrorDetail


_WORDS = {
    400: "The body cannot be read, or a name or password breaks the rules "
         "(codes bad_request, bad_name, bad_password).",
    401: "Not signed in (not_signed_in), or a wrong name or password "
         "(bad_credentials: the same for a name that does not exist).",
    403: "A request with a session cookie without the right X-CSRF-Token (csrf), a "
         "wrong password (wrong_password), or an account a moderator closed "
         "(account_closed).",
    409: "The name is another account's (name_taken), or the request's player is of "
         "the wrong kind (signed_in, not_guest).",
    422: "The body is not the model's.",
    429: "Too many guests or sign-ups from this address, or wrong passwords for this "
         "name from this address, from this address, or for this account "
         "(rate_limited): wait the seconds of Retry-After.",
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": _ErrorBody, "description": _WORDS[s]} for s in (400, *statuses)}


def _accounts(request: Request) -> Accounts:
    accounts = request.app.state.accounts
    assert isinstance(accounts, Accounts)
    return accounts


def _out(player: Player) -> PlayerOut:
    return PlayerOut(id=player.id, kind=player.kind, name=player.name)


async def _signed_in(request: Request) -> tuple[Accounts, Player]:
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is None or identity.player.kind != "account":
        raise ServerError("not_signed_in", "sign in first", status=401)
    return accounts, identity.player


async def _check_password(request: Request, accounts: Accounts, player: Player,
                          password: str) -> None:
    """The signed-in player's password, checked under the same limits as a sign-in
    (server/features/guesses.py): a wrong one counts, too many are 429."""
    await guesses.refuse_if_over(request, player.id)
    if not await accounts.verify(await accounts.hub.db(accounts.store.password_hash,
                                                       player.id), password):
        await guesses.failed(request, player.id)
        raise ServerError("wrong_password", "the password is wrong", status=403)


@router.post("/api/account/signup", status_code=201, response_model=SignedIn,
             responses=_errors(409, 429))
async def signup(body: Credentials, request: Request, response: Response) -> SignedIn:
    """A new account; a guest who signs up becomes it, keeping his seats and games."""
    accounts = _accounts(request)
    await check_limit(request, "signup")
    try:
        name, key = check_account_name(body.name)
    except ValueError as e:
        raise ServerError("bad_name", str(e), status=400) from None
    password = check_password(body.password, name=name)
    identity = await accounts.identity(request)
    if identity is not None and identity.player.kind != "guest":
        raise ServerError("signed_in", "sign out before signing up again", status=409)
    password_hash = await accounts.hash(password)
    guest = identity.player.id if identity is not None else None
    try:
        player = await accounts.hub.db(accounts.store.sign_up, name, key, password_hash,
                                       time.time(), guest)
    except NameTaken:
        raise ServerError("name_taken", "this name is taken", status=409) from None
    await accounts.start_session(request, response, player)
    return SignedIn(player=_out(player))


@router.post("/api/account/signin", response_model=SignedIn, responses=_errors(401, 403, 429))
async def signin(body: Credentials, request: Request, response: Response) -> SignedIn:
    """Sign in: a new session (the old one, a guest's or another's, ends)."""
    accounts = _accounts(request)
    try:
        _name, key = check_account_name(body.name)
    except ValueError:
        key = ""
    found = await accounts.hub.db(accounts.store.account, key) if key else None
    if found is None and isinstance(body.name, str):  # made before skeleton keys
        found = await accounts.hub.db(accounts.store.account, legacy_key(body.name))
    # only failures count, per name and address, per address and per account; a browser
    # that signed in to this account before is not held back (server/features/guesses.py)
    who = found[0].id if found else f"name:{key}"
    if found is None or not guesses.trusted_device(request, found[1], who):
        await guesses.refuse_if_over(request, who)
    ok = await accounts.verify(found[1] if found else None, body.password)
    if found is None or not ok:
        await guesses.failed(request, who)
        raise ServerError("bad_credentials", "wrong name or password", status=401)
    player, password_hash = found
    if await accounts.hub.db(accounts.store.closed, player.id):
        raise ServerError("account_closed", "a moderator closed this account", status=403,
                          ru="модератор закрыл эту учётную запись")
    if accounts.needs_rehash(password_hash):
        password_hash = await accounts.hash(body.password)
        await accounts.hub.db(accounts.store.set_password, player.id, password_hash)
    guesses.remember_device(request, response, password_hash, player.id)
    await accounts.start_session(request, response, player)
    return SignedIn(player=_out(player))


@router.post("/api/account/signout", response_model=Ended, responses=_errors(403))
async def signout(request: Request, response: Response) -> Ended:
    """End this session (the browser is a guest again at its next visit)."""
    accounts = _accounts(request)
    had = await accounts.identity(request) is not None
    await accounts.end_session(request)
    accounts.clear_cookies(request, response)
    return Ended(ended=1 if had else 0)


@router.post("/api/account/signout-everywhere", response_model=Ended,
             responses=_errors(401, 403))
async def signout_everywhere(request: Request, response: Response) -> Ended:
    """End every session of the account, this one too, on every device."""
    accounts, player = await _signed_in(request)
    ended = await accounts.hub.db(accounts.store.end_sessions, player.id)
    accounts.clear_cookies(request, response)
    return Ended(ended=ended)


@router.post("/api/account/password", response_model=Ended,
             responses=_errors(401, 403, 429))
async def change_password(body: NewPassword, request: Request) -> Ended:
    """A new password; the account's other sessions end (this one goes on)."""
    accounts, player = await _signed_in(request)
    new = check_password(body.new, "new", name=player.name)
    await _check_password(request, accounts, player, body.old)
    await accounts.hub.db(accounts.store.set_password, player.id, await accounts.hash(new))
    identity = await accounts.identity(request)
    keep = identity.session_id if identity is not None else None
    return Ended(ended=await accounts.hub.db(accounts.store.end_sessions, player.id, keep))


@router.delete("/api/account", response_model=Ended, responses=_errors(401, 403, 429))
async def delete_account(body: Password, request: Request, response: Response) -> Ended:
    """Delete the account: its name is free again, its games stay under
    «удалённый игрок»."""
    accounts, player = await _signed_in(request)
    await _check_password(request, accounts, player, body.password)
    seats = await accounts.hub.db(accounts.store.delete, player.id, time.time())
    await forget_email(request, player.id)  # its address and links (server/routes/recovery.py)
    await rename_live(accounts.hub, seats, DELETED_NAME)
    accounts.clear_cookies(request, response)
    return Ended(ended=1)


@router.get("/api/me", response_model=Me, responses=_errors(429))
async def me(request: Request, response: Response) -> Me:
    """The request's player — a new guest when it has none — and his live seats."""
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is None:
        await check_limit(request, "guest")  # each kept 30 days: made only so fast
        player = await accounts.new_guest(request, response)
        return Me(player=_out(player), tables=[])
    seats = await accounts.hub.db(accounts.store.seats, identity.player.id)
    names = await accounts.hub.db(accounts.store.table_names, [s.table_id for s in seats])
    return Me(player=_out(identity.player), tables=[
        MySeat(table=s.table_id, seat=s.seat, status=s.status, preset=s.preset,
               url=f"/t/{s.table_id}", names=[n for n, _ in names.get(s.table_id, [])],
               guests=[g for _, g in names.get(s.table_id, [])]) for s in seats])


@router.post("/api/me/name", response_model=SignedIn, responses=_errors(401, 403, 409))
async def guest_name(body: GuestName, request: Request) -> SignedIn:
    """A guest's name (an account's name is the one he signed up with)."""
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is None:
        raise ServerError("not_signed_in", "no session: GET /api/me first", status=401)
    if identity.player.kind != "guest":
        raise ServerError("not_guest", "an account keeps the name it signed up with",
                          status=409)
    try:
        name = await person_name(request, body.name)
    except ValueError as e:
        raise ServerError("bad_name", str(e), status=400) from None
    await accounts.hub.db(accounts.store.set_name, identity.player.id, name)
    return SignedIn(player=PlayerOut(id=identity.player.id, kind="guest", name=name))


@router.get("/api/me/seats", response_model=MySeats, responses=_errors())
async def my_seats(request: Request) -> MySeats:
    """The tokens of the player's seats at the live tables, so that his other device
    takes them back (the table page asks when it keeps no token of its own)."""
    accounts = _accounts(request)
    identity = await accounts.identity(request)
    if identity is None:
        return MySeats(seats=[])
    out = []
    hub = accounts.hub
    for s in await hub.db(accounts.store.seats, identity.player.id):
        live = hub.tables.get(s.table_id)
        seats = live.seats if live is not None and not live.over else None
        if live is None and hub.cluster is not None:  # held by another worker: as stored
            row = await hub.db(hub.store.load, s.table_id, with_moves=False)
            if row is not None and row.status in ("waiting", "playing"):
                seats = row.seats
        if seats is None or not 0 <= s.seat < len(seats):
            continue
        token = seat_token(identity.seat_secret, s.table_id, s.seat)
        if token_matches(token, seats[s.seat].token_hash):
            out.append(SeatToken(table=s.table_id, seat=s.seat, token=token,
                                 url=f"/t/{s.table_id}"))
    return MySeats(seats=out)
