"""The routes of the turn notices by Web Push (docs/server.md "Web Push"; the sending in
server/features/push.py, the rows in server/store/push.py).

* ``GET /api/push/key``: whether the site sends push notices, and the VAPID public key a
  browser subscribes with (none when push is off: the pages then do not offer it).
* ``POST /api/push/subscription``: a signed-in account's browser subscription
  (``PushSubscription.toJSON()``: the push service's endpoint and the browser's keys)
  kept, worded in the page's language; ``DELETE`` forgets it.

Both count against the ``push`` limit, per client and address (server/limits.py).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from ..errors import ServerError
from ..features.accounts import Accounts
from ..features.push import TurnPush
from ..limits import check as check_limit
from ..pages import page_lang
from ..reader import StrictRoute
from ..store.push import MAX_ENDPOINT, Subscription
from .models import ErrorBody

__all__ = ["router"]

router = APIRouter(route_class=StrictRoute)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PushKey(_Strict):
    """Whether the site sends turn notices by push, and its VAPID public key (the
    uncompressed P-256 point, base64url) to subscribe with."""

    enabled: bool
    key: str | None


class Keys(_Strict):
    p256dh: str = Field(json_schema_extra={"minLength": 1, "maxLength": 128})
    auth: str = Field(json_schema_extra={"minLength": 1, "maxLength": 64})


class SubscriptionIn(BaseModel):
    """A browser's ``PushSubscription.toJSON()`` (its ``expirationTime`` is not kept)."""

    model_config = ConfigDict(extra="ignore", strict=True)
    endpoint: str = Field(json_schema_extra={"minLength": 8, "maxLength": MAX_ENDPOINT})
    keys: Keys


class EndpointIn(_Strict):
    endpoint: str = Field(json_schema_extra={"minLength": 8, "maxLength": MAX_ENDPOINT})


class Done(_Strict):
    ok: bool


_WORDS = {
    400: "The body cannot be read, or the subscription is none a push service gives "
         "(bad_subscription).",
    401: "Not signed in as an account (not_signed_in): guests get the page's own notice.",
    403: "A request with a session cookie without the right X-CSRF-Token (csrf), or "
         "from another site (cross_site).",
    429: "Too many subscriptions (rate_limited: the limit push): wait the seconds of "
         "Retry-After.",
    503: "This server sends no push notices (push_off).",
}


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": ErrorBody, "description": _WORDS[s]}
            for s in sorted({400, *statuses})}


def _push(request: Request) -> TurnPush:
    push = getattr(request.app.state, "push", None)
    if not isinstance(push, TurnPush):
        raise ServerError("push_off", "this server sends no push notices", status=503,
                          ru="этот сервер не отправляет push-уведомления")
    return push


async def _account(request: Request) -> str:
    accounts = request.app.state.accounts
    assert isinstance(accounts, Accounts)
    identity = await accounts.identity(request)
    if identity is None or identity.player.kind != "account":
        raise ServerError("not_signed_in", "sign in first", status=401,
                          ru="сначала войдите")
    return identity.player.id


def _endpoint(value: str) -> str:
    """A push service's address: an https URL (http only on this machine, for tests and
    a local push service)."""
    url = urlsplit(value)
    local = url.hostname in ("127.0.0.1", "localhost", "::1")
    if not url.hostname or not (url.scheme == "https" or (url.scheme == "http" and local)):
        raise ServerError("bad_subscription", "endpoint: an https URL", status=400,
                          ru="endpoint: нужен адрес https")
    return value


@router.get("/api/push/key", response_model=PushKey, responses=_errors())
async def push_key(request: Request) -> PushKey:
    """Whether turn notices by push are on (the operator gave a VAPID key), and the key."""
    push = getattr(request.app.state, "push", None)
    if not isinstance(push, TurnPush):
        return PushKey(enabled=False, key=None)
    return PushKey(enabled=True, key=push.keys.public_key)


@router.post("/api/push/subscription", response_model=Done,
             responses=_errors(401, 403, 429, 503))
async def subscribe(body: SubscriptionIn, request: Request) -> Done:
    """Keep this browser's subscription for the signed-in account: his turn notices
    reach it while he has no table open, in this page's language."""
    push = _push(request)
    player_id = await _account(request)
    await check_limit(request, "push")
    sub = Subscription(_endpoint(body.endpoint), body.keys.p256dh, body.keys.auth,
                       page_lang(request))
    await push.hub.db(push.store.add, player_id, sub, time.time())
    return Done(ok=True)


@router.delete("/api/push/subscription", response_model=Done,
               responses=_errors(401, 403, 429, 503))
async def unsubscribe(body: EndpointIn, request: Request) -> Done:
    """Forget this browser's subscription: no more notices reach it."""
    push = _push(request)
    player_id = await _account(request)
    await check_limit(request, "push")
    return Done(ok=await push.hub.db(push.store.remove, player_id, body.endpoint))
