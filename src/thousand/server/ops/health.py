"""Whether this worker is alive (``GET /healthz``) and ready to serve (``GET /readyz``):
docs/server.md "Health checks".

Alive is the process answering at all: a load balancer or systemd that gets no 200 from
``/healthz`` restarts it.  Ready is more: the store answers a query on its own tables (a
dropped schema or a database gone is not ready, though the process lives), the hub has
rebuilt the live tables, and every other service it was given answers (a Redis the rate
limits count in, the cluster's Redis): a proxy sends players only to a ready worker.

Each check is a name and a coroutine that raises when its service does not answer; the
first failure is the reason in the 503.  A check that hangs fails after
:data:`CHECK_SECONDS`, so ``/readyz`` answers in bounded time whatever is down.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import sqlalchemy as sa
from pydantic import BaseModel, Field

from ..store.tables import Store, tables_t
from .logs import error_line

__all__ = ["CHECK_SECONDS", "Check", "Health", "Readiness", "health_responses",
           "limits_check", "redis_check", "store_check"]

#: The longest a check may take before it counts as failed.
CHECK_SECONDS = 2.0

#: A readiness check: raises (anything) when its service is not there.
Check = Callable[[], Awaitable[None]]


class Health(BaseModel):
    """``/healthz`` and ``/readyz``: ``ok`` (or ``unavailable`` with the ``reason``), and
    which worker answered."""

    status: Literal["ok", "unavailable"]
    worker: str = Field(description="The worker id (thousand serve --worker-id).")
    reason: str | None = Field(default=None, description="What is not ready (503 only).")


def health_responses(*, alive: bool) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of ``/healthz`` (``alive``: 200 only) or ``/readyz``
    (200 or 503)."""
    if alive:
        return {}
    return {503: {"model": Health, "description": "Not ready: the reason says what is "
                  "not answering (the store, Redis) or that it is starting.",
                  "headers": {"Retry-After": {"schema": {"type": "integer"},
                                              "description": "Seconds to wait."}}}}


class Readiness:
    """The checks of one application, and whether its hub has started."""

    def __init__(self) -> None:
        self.started = False
        self.checks: list[tuple[str, Check]] = []

    def add(self, name: str, check: Check) -> None:
        """Check ``name`` too (the cluster's Redis: ``readiness.add("redis",
        redis_check(url))``)."""
        self.checks.append((name, check))

    async def reason(self) -> str | None:
        """None when ready, else what is not (the first failing check, in words)."""
        if not self.started:
            return "hub: not running (the live tables are being rebuilt, or it stops)"
        for name, check in self.checks:
            try:
                await asyncio.wait_for(check(), CHECK_SECONDS)
            except TimeoutError:
                return f"{name}: no answer within {CHECK_SECONDS:g} s"
            except Exception as e:
                return f"{name}: {error_line(e)}"
        return None


def store_check(store: Store, run: Callable[..., Awaitable[Any]]) -> Check:
    """The store answers a query on its tables (not just ``SELECT 1``: a schema dropped
    under a running server answers that).  ``run`` is the hub's ``db``: the query runs on
    the store's own thread, behind the moves being written."""

    def query() -> None:
        with store.engine.connect() as conn:
            conn.execute(sa.select(tables_t.c.id).limit(1)).all()

    async def check() -> None:
        await run(query)

    return check


def limits_check(storage: Any) -> Check | None:
    """The rate limits' storage answers, when it is a service (Redis); None for counts
    kept in memory."""
    if type(storage).__name__.startswith("Memory"):
        return None

    async def check() -> None:
        if not await storage.check():
            raise ConnectionError("the rate limits' storage does not answer")

    return check


def redis_check(url: str) -> Check:
    """A Redis at ``url`` answers ``PING`` (a connection of its own each time: the check
    must not wait behind, or break, the cluster's pub/sub connection)."""

    async def check() -> None:
        from redis.asyncio import Redis  # only a worker given a Redis needs it

        client = Redis.from_url(url, socket_connect_timeout=CHECK_SECONDS,
                                socket_timeout=CHECK_SECONDS)
        try:
            await client.ping()
        finally:
            await client.aclose()

    return check
