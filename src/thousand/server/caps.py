"""The server's caps that count no client: how much a whole server (one worker process), a
table, a tournament or a request may hold at once (docs/server.md "Limits").

The limits of clients and addresses are :data:`thousand.server.limits.LIMITS`; these are
the rest (but the protocol's own sizes: a message of 4096 bytes, docs/protocol.md),
declared here once so that each has a default, a ``thousand serve`` flag
(``--limit NAME=N``, or its own where it had one before: ``--max-tables``) and its row in
the docs' one table of limits (tests/test_limits_table.py compares the two).  The modules
that use a cap take its value from the hub (:attr:`Hub.caps`), never a constant of their
own.

Nothing here imports the rest of the server: the hub, the application and the command
line all read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["CAPS", "PER", "Cap", "defaults"]

#: What a cap is counted per.
PER = ("server", "table", "tournament", "connection", "request")


@dataclass(frozen=True, slots=True)
class Cap:
    """One cap: at most ``value`` of ``what`` per ``per`` (one of :data:`PER`); ``flag``:
    its own ``thousand serve`` option, else ``""`` (``--limit NAME=N``)."""

    name: str
    value: int
    per: str
    what: str
    flag: str = ""


#: Every cap that counts no client (docs/server.md "Limits" shows them in its table).
CAPS: dict[str, Cap] = {cap.name: cap for cap in (
    Cap("tables", 1000, "server", "tables not over in memory, from everybody (at the cap "
        "the biggest holders' idle tables end first)", "--max-tables"),
    Cap("analysis_queue", 50, "server", "analyses waiting, from everybody"),
    Cap("argon2", 2, "server", "password hashes made or checked at once (64 MiB each)"),
    Cap("replays", 2, "server", "uploaded records being replayed at once"),
    Cap("upload_bytes", 2_000_000, "request", "the bytes of an uploaded record"),
    Cap("body_bytes", 64_000, "request", "the bytes of any other request's JSON body"),
    Cap("behind", 5000, "connection", "messages waiting for a slow table WebSocket before "
        "it is closed"),
    Cap("watchers", 100, "table", "a table's spectators' WebSockets (its players always "
        "get in)"),
    Cap("entries", 48, "tournament", "people and bots entered in one tournament"),
)}


def defaults(changed: Mapping[str, int] | None = None) -> dict[str, int]:
    """Every cap's value: its default, or the one in ``changed``."""
    return {name: (changed or {}).get(name, cap.value) for name, cap in CAPS.items()}
