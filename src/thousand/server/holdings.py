"""What clients hold at once — live tables, open table WebSockets, and the server's live
tables against ``--max-tables`` — counted where the whole server can see it
(docs/server.md "Limits", "Many workers").

A rate is counted by the ``limits`` package in its storage; what is *held* is known only
to the process that holds it (its tables in memory, its sockets), so each worker keeps
its own counts (server/limits.py) and a :class:`Holdings` adds up everybody's.  One
process (SQLite) has nobody else to ask: :class:`LocalHoldings` judges its own counts
alone and needs no Redis.  Many workers share Redis: ``cluster.holdings.RedisHoldings``
keeps each worker's counts in a hash of its own that expires when the worker stops
renewing it, so that a worker killed does not hold its address's budget for ever.
``create_app`` chooses one.

A count is named ``(name, who)``: ``("live", "addr:10.0.0.1")``,
``("sockets", "player:42")``, ``("tables", "*")``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["ALL", "Holdings", "LocalHoldings", "Snapshot", "Want"]

#: The ``who`` of a count of the whole server (its live tables: ``("tables", ALL)``).
ALL = "*"

#: A count of this process: (name, who) -> how many it holds now.
Snapshot = Callable[[], dict[tuple[str, str], int]]

#: One key of a :meth:`Holdings.take`: (who, what this process would hold with the new
#: ones, the most the whole server may hold).
Want = tuple[str, int, int]


class Holdings(Protocol):
    """The counts of what is held, added up over every process of the server."""

    async def take(self, name: str, wants: Sequence[Want]) -> str | None:
        """Whether this process may hold what it says (each ``(who, mine, most)``: the
        others' count of ``who`` and ``mine`` together at most ``most``): None, and its
        counts are recorded at once (so two processes asking together cannot both pass
        the last place); else the ``who`` that is over, and nothing is recorded."""
        ...

    async def elsewhere(self, name: str, whos: Sequence[str]) -> list[int]:
        """How many of ``(name, who)`` the other processes hold, for each of ``whos``."""
        ...

    def changed(self) -> None:
        """Something held was let go here (a socket closed, a table ended): the shared
        count is brought down soon (it is not waited for)."""
        ...

    async def start(self, snapshot: Snapshot) -> None:
        """Keep this process's counts (``snapshot()``: all of them, now) where the others
        read them, until :meth:`stop`."""
        ...

    async def stop(self) -> None:
        """This process holds nothing any more: its counts go at once."""
        ...


class LocalHoldings:
    """One process: its own counts are the server's (nothing to share, no Redis)."""

    async def take(self, name: str, wants: Sequence[Want]) -> str | None:
        for who, mine, most in wants:
            if mine > most:
                return who
        return None

    async def elsewhere(self, name: str, whos: Sequence[str]) -> list[int]:
        return [0] * len(whos)

    def changed(self) -> None:
        pass

    async def start(self, snapshot: Snapshot) -> None:
        pass

    async def stop(self) -> None:
        pass
