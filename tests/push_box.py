"""A push service on loopback for the tests (docs/server.md "Web Push"): a tiny HTTP
server that takes what pywebpush POSTs to a subscription's endpoint, keeps each request
(path, headers, body) and answers 201, or 410 for an endpoint under ``/gone/`` (a
subscription the service dropped); and browser-like subscriptions to it, with the keys
to decrypt what arrives (RFC 8291, as a browser does)."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

__all__ = ["Browser", "PushBox", "Pushed", "push_box", "vapid_pem"]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def vapid_pem() -> bytes:
    """A new P-256 private key in PEM, as ``openssl ecparam -genkey`` makes the site's."""
    return ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())


@dataclass
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Browser:
    """A browser's subscription at ``endpoint``: its key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def json(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``."""
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def read(self, pushed: Pushed) -> dict[str, Any]:
        """What the browser reads of a message (it fails unless encrypted for it)."""
        plain = http_ece.decrypt(pushed.body, private_key=self.key, auth_secret=self.auth,
                                 version="aes128gcm")
        value: dict[str, Any] = json.loads(plain)
        return value


class PushBox:
    """The push service: ``received`` in order of arrival."""

    def __init__(self) -> None:
        self.received: list[Pushed] = []
        #: held while ``received`` changes, and told when a message arrives (as
        #: tests/smtp_box.py's letters are)
        self.arrived = threading.Condition()
        box = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with box.arrived:
                    box.received.append(Pushed(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    box.arrived.notify_all()
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *_: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def browser(self, name: str) -> Browser:
        return Browser(f"{self.base}/{name}")

    def to(self, path: str) -> list[Pushed]:
        with self.arrived:
            return [p for p in self.received if p.path == path]

    def wait(self, path: str, n: int = 1, timeout: float = 60.0) -> list[Pushed]:
        """The first ``n`` messages to ``path``, waiting for them (a busy machine)."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(got := self.to(path)) < n:  # (the condition's lock is reentrant)
                left = deadline - time.monotonic()
                assert left > 0, f"no push to {path}: {self.received}"
                self.arrived.wait(left)
        return got


@pytest.fixture(scope="module")
def push_box() -> Iterator[PushBox]:
    box = PushBox()
    yield box
    box.http.shutdown()
