"""Password guessing, limited so that nobody can lock another out (docs/server.md "Limits").

Counting every sign-in attempt on a name, before the password was looked at, let anyone
keep a chosen player out: five wrong tries a minute, from anywhere, and the owner's right
password was refused too.  So (OWASP's "Blocking Brute Force Attacks"):

* only **failures** count, and they are counted per *name and address together*
  (``signin``'s client rates, growing windows: a few a minute, more an hour) and per
  *address* (``signin``'s address rates), so that an attacker elsewhere never uses up
  the owner's tries;
* per *account*, from every address, at most ``guesses`` (100 an hour: ASVS 2.2.1), so
  that many addresses cannot guess on together;
* a browser that signed in to the account before carries a **device cookie**
  (:data:`DEVICE_COOKIE`: a nonce and its HMAC under the account's password hash, so
  that it is worthless to anyone else and ends with the password); with it a sign-in is
  not held back by the counts above: the owner gets in while an attacker is refused;
* changing the password and deleting the account check the password under the same
  counts (no device bypass there: whoever holds the session may not guess on).

The counts are the limiter's (server/limits.py: ``limits``' moving windows, in Redis with
many workers); :meth:`MovingWindowRateLimiter.test` asks before the password is checked,
a failure is a hit afterwards.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ..limits import RateLimited, address_of, limiter_of

__all__ = ["DEVICE_COOKIE", "failed", "refuse_if_over", "remember_device", "trusted_device"]

DEVICE_COOKIE = "thousand_device"
#: How long a browser keeps its device cookie (seconds: a year).
DEVICE_AGE = 365 * 86400


def _mac(password_hash: str, who: str, nonce: str) -> str:
    key = password_hash.encode("utf-8", "surrogatepass")
    return hmac.new(key, f"device:{who}:{nonce}".encode(), hashlib.sha256).hexdigest()[:32]


def trusted_device(conn: HTTPConnection, password_hash: str, who: str) -> bool:
    """Whether the browser signed in to the account ``who`` (its id) before: its device
    cookie is this account's, under its present password."""
    value = conn.cookies.get(DEVICE_COOKIE, "")
    nonce, _, mac = value.partition(".")
    if not nonce or len(value) > 200:
        return False
    return hmac.compare_digest(mac.encode(), _mac(password_hash, who, nonce).encode())


def remember_device(conn: HTTPConnection, response: Response, password_hash: str,
                    who: str) -> None:
    """Give the browser that has just signed in the account's device cookie."""
    nonce = secrets.token_urlsafe(12)
    response.set_cookie(DEVICE_COOKIE, f"{nonce}.{_mac(password_hash, who, nonce)}",
                        max_age=DEVICE_AGE, path="/api/account", httponly=True,
                        samesite="lax", secure=conn.url.scheme == "https")


def _here(conn: HTTPConnection, who: str) -> str:
    return f"{who}@{address_of(conn)}"


async def refuse_if_over(conn: HTTPConnection, who: str) -> None:
    """Before a password is checked: :class:`RateLimited` when the failures of ``who``
    (an account's id, or ``name:<key>`` for a name nobody has) from this address, of
    this address, or of the account from anywhere have reached their limit."""
    limiter = limiter_of(conn)
    address = address_of(conn)
    for name, client in (("signin", _here(conn, who)), ("guesses", who)):
        wait = await limiter.test(name, client, address)
        if wait is not None:
            raise RateLimited(name, wait)


async def failed(conn: HTTPConnection, who: str) -> None:
    """A wrong password for ``who``: counted per name and address, per address, and per
    account."""
    limiter = limiter_of(conn)
    address = address_of(conn)
    await limiter.hit("signin", _here(conn, who), address)
    await limiter.hit("guesses", who, address)
