"""Web Push with VAPID (RFC 8030, 8291, 8292) through pywebpush: the operator's key and
the sending of one message (docs/server.md "Web Push").

The operator makes a P-256 key once (``openssl ecparam -name prime256v1 -genkey -noout
-out vapid.pem``) and gives it with a contact (``thousand serve --vapid-private-key
vapid.pem --vapid-subject mailto:admin@example.org``); without both, push is off.  The
public half is what a browser subscribes with (``GET /api/push/key``); every message is
signed with the private half (the push service checks that it comes from the site the
browser subscribed to) and encrypted for the browser's own keys, so that the push
service carries it without reading it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
from dataclasses import dataclass
from typing import Any

from .setting import SettingError

__all__ = ["GONE", "PushError", "PushKeys", "push_keys_of", "send"]

log = logging.getLogger("thousand.push")

#: A push service's answers that mean the subscription is no more: forget it.
GONE = frozenset({404, 410})
#: Seconds a push service has to take a message.
SEND_TIMEOUT = 15.0


class PushError(SettingError):
    """A VAPID setting (``--vapid-private-key``, ``--vapid-subject``) that cannot be
    used."""


@dataclass(frozen=True, slots=True)
class PushKeys:
    """The site's VAPID key, its contact (``mailto:`` or ``https:``, sent to the push
    services with every message) and the public key as a browser subscribes with it
    (the uncompressed P-256 point, base64url without padding)."""

    vapid: Any
    subject: str
    public_key: str


def _public_key(vapid: Any) -> str:
    numbers = vapid.public_key.public_numbers()
    point = b"\x04" + numbers.x.to_bytes(32, "big") + numbers.y.to_bytes(32, "big")
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode("ascii")


def push_keys_of(key_file: str | None, subject: str | None) -> PushKeys | None:
    """The keys of ``--vapid-private-key`` and ``--vapid-subject``: None when neither is
    given (push is off); :class:`PushError` when one is missing or cannot be used."""
    if key_file is None and subject is None:
        return None
    if key_file is None or subject is None:
        raise PushError("--vapid-private-key and --vapid-subject go together",
                        "--vapid-private-key и --vapid-subject задаются вместе")
    if not subject.startswith(("mailto:", "https://")):
        raise PushError("--vapid-subject: a mailto: or https: address",
                        "--vapid-subject: адрес mailto: или https:")
    if not os.path.isfile(key_file):  # (pywebpush would make a new key there)
        raise PushError(f"--vapid-private-key: no file {key_file}",
                        f"--vapid-private-key: нет файла {key_file}")
    from pywebpush import Vapid  # only a site with push pays for its import (below)

    try:
        vapid = Vapid.from_file(private_key_file=key_file)
        public = _public_key(vapid)
    except Exception as e:
        raise PushError(f"--vapid-private-key: not a P-256 key in PEM or DER ({e})",
                        f"--vapid-private-key: это не ключ P-256 в PEM или DER ({e})"
                        ) from None
    return PushKeys(vapid, subject, public)


async def send(keys: PushKeys, subscription: dict[str, Any], message: dict[str, Any],
               ttl: int) -> int:
    """Send ``message`` (JSON) to one browser's ``subscription``, kept by its push
    service for ``ttl`` seconds: the push service's status (201 taken; 404 or 410 the
    subscription is gone; 0 unreachable).

    pywebpush is imported here, not at the top: with aiohttp and its TLS context it is a
    quarter of what a server's start imports, and most sites never push."""
    from pywebpush import WebPushException, webpush_async

    try:
        response = await asyncio.wait_for(webpush_async(
            subscription, json.dumps(message, ensure_ascii=False),
            vapid_private_key=keys.vapid, vapid_claims={"sub": keys.subject}, ttl=ttl,
            headers={"Urgency": "high"}), SEND_TIMEOUT)
    except WebPushException as e:
        log.info("a push was refused (%s)", e.status_code)
        return int(e.status_code or 0)
    except Exception as e:  # unreachable, slow, a bad answer: never the game's concern
        log.warning("a push could not be sent: %r", e)
        return 0
    return int(response.status)
