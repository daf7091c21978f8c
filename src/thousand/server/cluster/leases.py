"""The leases of many workers: which one holds each live table (docs/server.md "Many
workers").

A lease is a row of ``leases`` (migration 0007): the table, the worker holding it, its
``fence`` and when it ``expires`` by the **database's** clock (``now()``: the workers'
clocks never have to agree).  A worker takes a table over only when its lease expired
(or was never taken, or is its own), and every take-over adds one to the fence; every
write of a live table checks, in its own transaction, that the fence is still the
writer's (:func:`thousand.server.store.tables.check_fence`), so a worker that was paused past
its lease cannot write after it wakes up.

These are plain synchronous calls on the store's engine, for a worker's lease thread;
PostgreSQL only (``INSERT ... ON CONFLICT`` and ``now()``).
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from ..store.tables import Store

__all__ = ["claim", "expired_unfinished", "owners", "release", "renew", "seconds_left"]

_CLAIM = sa.text(
    "INSERT INTO leases (table_id, worker, fence, expires) "
    "VALUES (:id, :me, 1, now() + make_interval(secs => :ttl)) "
    "ON CONFLICT (table_id) DO UPDATE SET worker = :me, fence = leases.fence + 1, "
    "expires = now() + make_interval(secs => :ttl) "
    "WHERE leases.expires < now() OR leases.worker = :me RETURNING fence")


#: A transaction's limits while it may hold a lease row locked: a worker paused in the
#: middle of one (SIGSTOP) must not keep the row locked for ever — PostgreSQL ends its
#: transaction after this idle time — and a claim waits at most ``lock_timeout`` for the
#: row (then the table is left to a later sweep).
GUARDS = ("SELECT set_config('idle_in_transaction_session_timeout', '5s', true), "
          "set_config('lock_timeout', '1s', true)")


def claim(store: Store, table_id: str, worker: str, ttl: float) -> int | None:
    """Take the table's lease for ``worker``: its new fence, or None when another worker
    holds a lease that has not expired (or its row stays locked by a write: a worker
    paused in the middle of one).  Taking one's own lease again moves the fence on too
    (the table is rebuilt from the store, so nothing written before is lost)."""
    try:
        with store.engine.begin() as conn:
            conn.execute(sa.text(GUARDS))
            got = conn.execute(_CLAIM, {"id": table_id, "me": worker, "ttl": ttl}).scalar()
    except sa.exc.OperationalError as e:
        if "lock timeout" in str(e) or "LockNotAvailable" in type(e.orig).__name__:
            return None
        raise
    return None if got is None else int(got)


def renew(store: Store, worker: str, ttl: float, table_ids: Iterable[str]) -> dict[str, int]:
    """Push the leases of ``worker`` on the tables it holds in memory ``ttl`` seconds on:
    the leases it still holds (table -> fence); a table it thought it held and that is
    not here was taken over.  Only those tables: a worker started again under the same
    name must not bring back the leases its former process let go."""
    ids = list(table_ids)
    if not ids:
        return {}
    with store.engine.begin() as conn:
        # the rows locked in the order of the tables' ids, as a group commit of moves
        # checks their fences (Store.append_many): no deadlock between the two
        rows = conn.execute(sa.text(
            "WITH mine AS (SELECT table_id FROM leases WHERE worker = :me "
            "AND table_id = ANY(:ids) AND expires >= now() ORDER BY table_id FOR UPDATE) "
            "UPDATE leases SET expires = now() + make_interval(secs => :ttl) FROM mine "
            "WHERE leases.table_id = mine.table_id "
            "RETURNING leases.table_id, leases.fence"), {"me": worker, "ttl": ttl, "ids": ids})
        return {str(r[0]): int(r[1]) for r in rows}


def release(store: Store, worker: str, table_ids: Iterable[str] | None = None) -> int:
    """Let leases of ``worker`` expire at once (every one when ``table_ids`` is None), so
    that another worker takes the tables over without waiting: how many."""
    with store.engine.begin() as conn:
        if table_ids is None:
            result = conn.execute(sa.text(
                "UPDATE leases SET expires = now() - interval '1 second' "
                "WHERE worker = :me"), {"me": worker})
        else:
            ids = list(table_ids)
            if not ids:
                return 0
            result = conn.execute(sa.text(
                "UPDATE leases SET expires = now() - interval '1 second' "
                "WHERE worker = :me AND table_id = ANY(:ids)"), {"me": worker, "ids": ids})
        return int(result.rowcount)


def seconds_left(store: Store, table_id: str) -> tuple[str, float] | None:
    """A table's lease holder and the seconds its lease has left by the database's clock
    (negative: expired); None when the table has no lease."""
    with store.engine.connect() as conn:
        row = conn.execute(sa.text(
            "SELECT worker, EXTRACT(EPOCH FROM (expires - now())) FROM leases "
            "WHERE table_id = :id"), {"id": table_id}).first()
    return None if row is None else (str(row[0]), float(row[1]))


def owners(store: Store, table_ids: Iterable[str]) -> dict[str, tuple[str, bool]]:
    """Each table's lease holder and whether the lease is still good (not expired); a
    table with no lease is not in the answer."""
    ids = list(table_ids)
    if not ids:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT table_id, worker, expires > now() FROM leases WHERE table_id = ANY(:ids)"),
            {"ids": ids})
        return {str(r[0]): (str(r[1]), bool(r[2])) for r in rows}


def expired_unfinished(store: Store, limit: int) -> list[str]:
    """Tables waiting or playing whose lease expired or was never taken (their worker
    died or stopped): up to ``limit`` of them, in a random order so that workers
    sweeping at once spread the tables among them."""
    with store.engine.connect() as conn:
        rows = conn.execute(sa.text(
            "SELECT t.id FROM tables t LEFT JOIN leases l ON l.table_id = t.id "
            "WHERE t.status IN ('waiting', 'playing') "
            "AND (l.table_id IS NULL OR l.expires < now()) "
            "ORDER BY random() LIMIT :n"), {"n": limit})
        return [str(r[0]) for r in rows]
