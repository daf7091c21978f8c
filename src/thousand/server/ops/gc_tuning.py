"""The cyclic garbage collector of a server process, tuned for many live tables.

A worker holding hundreds of tables holds hundreds of megabytes of objects (a table's game,
its event log and its views: some 180 KB), and every full collection of CPython's cyclic
collector walks all of them: a stall of a few hundred milliseconds that every move in
flight waits for.  benchmarks/results/server.txt measured it: 1,000 tables on one process,
p99 369 ms with the collector as CPython sets it and 17 ms with it off.  The game's objects
are freed by reference counting as they go; the cyclic collector only finds cycles, which
the server makes few of — so it runs much less often here: the youngest generation after
:data:`YOUNG` allocations instead of 700, the oldest after :data:`OLD` collections of the
middle one instead of 10.  A cycle of garbage lives longer; none is kept for ever.
"""

from __future__ import annotations

import gc

__all__ = ["MIDDLE", "OLD", "YOUNG", "tune"]

#: Allocations (less deallocations) before the youngest generation is collected.
YOUNG = 20_000
#: Collections of the youngest generation before the middle one is.
MIDDLE = 20
#: Collections of the middle generation before a full collection (CPython also waits until
#: the objects that survived since the last full one are a quarter of those before).
OLD = 100


def tune() -> None:
    """Set this process's collector for a server (``thousand serve`` calls it once its
    tables are loaded; a program embedding the server decides for itself)."""
    gc.collect()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
