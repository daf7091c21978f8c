"""A real SMTP server on loopback for the tests of the site's mail (aiosmtpd, on a free
port in a thread of its own): it keeps every letter it is given, and a test waits for
the one it expects (no sleep: it is woken by each letter, up to a generous deadline)."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from live_server import free_port, serve

#: Seconds a test waits for a letter (a loaded two-core machine).
MAIL_DEADLINE = 60.0


class Mailbox:
    """The letters an SMTP server on 127.0.0.1 received (``port``), in order."""

    def __init__(self) -> None:
        self.letters: list[EmailMessage] = []
        self.arrived = threading.Condition()
        self.port = free_port()

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:
        letter = message_from_bytes(envelope.content, policy=default)
        with self.arrived:
            self.letters.append(letter)
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.arrived:
            return [m for m in self.letters if m["To"] == address]

    def wait(self, address: str, count: int = 1) -> EmailMessage:
        """The ``count``-th letter to ``address``, once it has come."""
        deadline = time.monotonic() + MAIL_DEADLINE
        with self.arrived:
            while True:
                found = [m for m in self.letters if m["To"] == address]
                if len(found) >= count:
                    return found[count - 1]
                left = deadline - time.monotonic()
                assert left > 0, f"no letter {count} to {address} came"
                self.arrived.wait(left)


def text_of(letter: EmailMessage) -> str:
    """The letter's plain text."""
    body = letter.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def link_of(letter: EmailMessage, kind: str) -> tuple[str, str]:
    """(the link, its token) of a letter's ``#verify=`` or ``#reset=`` link."""
    text = text_of(letter)
    found = re.search(rf"(\S+/account#{kind}=([A-Za-z0-9_-]+))", text)
    assert found, text
    return found.group(1), found.group(2)


@contextmanager
def smtp_server(**options: Any) -> Iterator[Mailbox]:
    """A mailbox and its SMTP server (aiosmtpd's Controller ``options`` too: a login
    asked for), stopped at the end."""
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=box.port, **options)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@pytest.fixture(scope="module")
def mailbox() -> Iterator[Mailbox]:
    """The module's SMTP server and the letters it got (import it as a fixture)."""
    with smtp_server() as box:
        yield box


@contextmanager
def serve_mailing(folder: Path, box: Mailbox, *extra: str) -> Iterator[str]:
    """``thousand serve --smtp`` to ``box``'s server (its public URL its own address):
    its base URL once it answers (tests/live_server.py's ``serve``)."""
    port = free_port()
    with serve(folder, "--smtp", f"smtp://127.0.0.1:{box.port}", "--mail-from",
               "games@example.org", "--public-url", f"http://127.0.0.1:{port}", *extra,
               port=port) as base:
        yield base
