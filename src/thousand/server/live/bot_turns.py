"""Whose ask the bots' pool thinks about next: a fair share by the address (and client)
that laid each table (docs/server.md "Limits", the ``thinking`` limit).

The pool's slots (a bot process's places, or the threads' pool's) once took their asks
first come, first served: one address that laid ten tables of expert bots kept ten asks
waiting at every moment, and another person's one table waited behind all ten for each
move of its bots.  So a free place now goes to the waiting ask of the address that holds
fewest places at that moment, of those the one served least recently (an address not yet
served before anybody served already) — an address waits for at most one ask of each
other address that holds no more places than it — and no address (nor client: an account
more than a guest) holds more than its ``thinking`` places at once, however many tables
it laid: the rest of a flood waits even when a place is free.  A person's hint goes
before the bots' moves (a person waits for it, a bot's table can wait), fairly too.

The asks of one table always go to the same slot (its bots live in that process), so each
slot has its own line; the counts of what each address and client holds are the pool's.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["Share", "ThinkingCaps", "Turns"]


@dataclass(frozen=True, slots=True)
class Share:
    """Who a table's thinking is counted against: the ``client`` and ``address`` keys of
    whoever laid it (server/limits.py), and whether the client is a signed-in
    ``account``.  A table whose layer is unknown (taken over from another worker, laid
    before a restart) is its own: :meth:`of_table`."""

    client: str
    address: str
    account: bool = False

    @classmethod
    def of_table(cls, table: str) -> Share:
        key = "table:" + table
        return cls(key, key)


@dataclass(frozen=True, slots=True)
class ThinkingCaps:
    """The pool's places one client (a guest; ``account``: a signed-in one) and one
    address may hold at once; None: no cap."""

    client: int | None = None
    account: int | None = None
    address: int | None = None

    def for_client(self, account: bool) -> int | None:
        return self.account if account and self.account is not None else self.client


@dataclass(slots=True, eq=False)  # each waiter is itself: a line removes that one
class _Waiter:
    slot: int
    share: Share
    urgent: bool
    order: int
    turn: asyncio.Future[None] = field(repr=False)


class Turns:
    """The places of ``slots`` slots, ``places`` each, given fairly (the module's
    docstring).  Bound to the event loop it is made in (its futures are)."""

    def __init__(self, slots: int, places: int, caps: ThinkingCaps | None = None) -> None:
        if slots < 1 or places < 1:
            raise ValueError("slots and places must be at least 1")
        self.places = places
        self.caps = caps if caps is not None else ThinkingCaps()
        self.held = [0] * slots
        self.clients: Counter[str] = Counter()
        self.addresses: Counter[str] = Counter()
        self._lines: list[list[_Waiter]] = [[] for _ in range(slots)]
        self._served: dict[str, int] = {}
        self._ticks = itertools.count()

    def waiting(self) -> int:
        """Asks waiting for a place (the ``bot_queue`` gauge)."""
        return sum(len(line) for line in self._lines)

    async def acquire(self, slot: int, share: Share, urgent: bool = False) -> None:
        """Wait for a place in ``slot`` for an ask of ``share``'s table; the caller
        :meth:`release` s it when the thinking is done."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = _Waiter(slot, share, urgent, next(self._ticks), turn)
        self._lines[slot].append(waiter)
        self._dispatch()
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.release(slot, share)  # its place came as it stopped waiting
            elif waiter in self._lines[slot]:  # else _dispatch saw it cancelled
                self._lines[slot].remove(waiter)
            raise

    def release(self, slot: int, share: Share) -> None:
        """A place of ``share``'s is free: the next fair ask takes it (in any slot: the
        address may have been at its cap there)."""
        self.held[slot] -= 1
        for counts, key in ((self.clients, share.client), (self.addresses, share.address)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]
        self._dispatch()

    def _may(self, share: Share) -> bool:
        most = self.caps.for_client(share.account)
        if most is not None and self.clients[share.client] >= most:
            return False
        most = self.caps.address
        return most is None or self.addresses[share.address] < most

    def _next(self, slot: int) -> _Waiter | None:
        """The waiting ask of ``slot`` whose turn it is: a hint first, then the address
        holding fewest places, then the one served least recently, then the oldest."""
        best: tuple[bool, int, int, int] | None = None
        chosen = None
        for waiter in self._lines[slot]:
            if not self._may(waiter.share):
                continue
            address = waiter.share.address
            key = (not waiter.urgent, self.addresses[address],
                   self._served.get(address, -1), waiter.order)
            if best is None or key < best:
                best, chosen = key, waiter
        return chosen

    def _dispatch(self) -> None:
        for slot, line in enumerate(self._lines):
            while line and self.held[slot] < self.places:
                waiter = self._next(slot)
                if waiter is None:
                    break
                line.remove(waiter)
                if waiter.turn.done():  # cancelled meanwhile: it removes nothing more
                    continue
                waiter.turn.set_result(None)
                self.held[slot] += 1
                self.clients[waiter.share.client] += 1
                self.addresses[waiter.share.address] += 1
                self._served[waiter.share.address] = next(self._ticks)
        if len(self._served) > 4096:  # forget those neither waiting nor holding
            present = {w.share.address for line in self._lines for w in line}
            self._served = {a: t for a, t in self._served.items()
                            if a in present or a in self.addresses}
