"""docs/server.md "Limits" and "Many workers": what one address holds at once — its live
tables, its open table WebSockets — is counted over every worker, not once per worker
(server/holdings.py, server/cluster/holdings.py), with real ``thousand serve`` workers on
PostgreSQL and Redis (tests/cluster_live.py).

The clients are told apart by their address, as in tests/test_public_limits.py: each
binds its own loopback source address (127.0.0.n).  Nothing waits a fixed time: every
wait polls with a deadline (tests/waiting.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
import websockets

from cluster_live import REDIS_URL, Cluster, Worker, fresh_workers
from test_public_limits import addr, client
from waiting import until

pytestmark = [pytest.mark.cluster, pytest.mark.needs("postgres", "redis")]

#: Small budgets, so that a flood is short: 3 live tables and 2 sockets an address (and
#: a client: without a session the client is the address), 2 seats taken a minute, no
#: other rate in the way of polling.
LIMITS = ["live=3|3", "sockets=2|2", "seat=2/minute|2/minute", "table=off", "socket=off"]
#: The addresses of the test's clients (127.0.0.n).
A, B, C, D, E = 41, 42, 43, 44, 45
Msg = dict[str, Any]


@contextlib.contextmanager
def workers(folder: Path, limits: list[str], extra: Sequence[str] = ()) -> Iterator[Cluster]:
    """Two workers w1, w2 with ``limits`` (``--limit`` options) on a schema and a Redis
    prefix of their own."""
    with fresh_workers(folder, "held", limits=limits, extra=extra) as c:
        yield c


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """The two workers with the small budgets (:data:`LIMITS`)."""
    with workers(tmp_path_factory.mktemp("held"), LIMITS) as c:
        yield c


@pytest.fixture
def healed(cluster: Cluster) -> Iterator[Cluster]:
    """The two workers, both running again after the test (one may kill a worker)."""
    yield cluster
    cluster.heal()


def lay(worker: Worker, n: int) -> httpx.Response:
    """A table waiting for a second person, laid through ``worker`` from address ``n``."""
    with client(worker.base, n) as c:
        return c.post("/api/tables", json={
            "preset": "classic", "options": {"max_deals": 1},
            "seats": [{"kind": "human", "name": "Анна"}, {"kind": "human", "name": "Борис"},
                      {"kind": "bot", "level": "heuristic"}]})


def refused_for(r: httpx.Response) -> str | None:
    """The limit a 429 names (None: not refused for a limit)."""
    return r.json()["error"]["limit"] if r.status_code == 429 else None


async def watch(worker: Worker, table: str, n: int) -> websockets.ClientConnection | None:
    """A spectator's WebSocket of ``table`` through ``worker`` from address ``n``: open
    (its first message is not a refusal), or None when it was refused for ``sockets``."""
    ws = await websockets.connect(worker.ws_url(table), ping_interval=None,
                                  local_addr=(addr(n), 0), close_timeout=1)
    first: Msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if first.get("type") == "error" and first.get("code") == "rate_limited":
        assert first["params"]["limit"] == "sockets", first
        await asyncio.wait_for(closed(ws), 30)
        assert ws.close_code == 4429
        return None
    return ws


async def closed(ws: websockets.ClientConnection) -> None:
    """Read what is still sent until the connection is closed."""
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await ws.recv()


def held_in_redis(cluster: Cluster, worker: str) -> dict[str, str]:
    """A worker's counts as Redis holds them (its hash; empty once it expired)."""
    r = redis.Redis.from_url(REDIS_URL, decode_responses=True)
    try:
        got: dict[str, str] = r.hgetall(f"{cluster.prefix}:held:w:{worker}")  # type: ignore[assignment]
        return got
    finally:
        r.close()


def test_an_address_lays_only_its_budget_of_tables_across_workers(cluster: Cluster) -> None:
    """Promise: the ``live`` budget of one address is one, whichever worker lays its
    tables — laid alternately through w1 and w2 it is refused (429 ``live``) on both once
    it holds 3 in all, while another address is served; a table that ends gives its place
    back (through the other worker: the ending is seen within the counts' renewal)."""
    w1, w2 = cluster["w1"], cluster["w2"]
    laid = []
    for worker in (w1, w2, w1):
        r = lay(worker, A)
        assert r.status_code == 201, f"{worker.name}: {r.text}"
        laid.append(r.json())
    for worker in (w2, w1):
        r = lay(worker, A)
        assert refused_for(r) == "live", f"{worker.name} let a 4th table be laid: {r.text}"
    r = lay(w2, B)
    assert r.status_code == 201, f"another address was refused: {r.text}"
    first = laid[0]  # laid through w1, closed through w2 (forwarded to its owner)
    r = w2.post(f"/api/tables/{first['table']}/close", {"token": first["token"]})
    assert r.status_code == 200, r.text
    until(lambda: lay(w2, A).status_code == 201, 30,
          "the table closed gave the address its place back", every=0.2)
    assert refused_for(lay(w1, A)) == "live", "the budget came back twice"


def test_an_address_opens_only_its_budget_of_sockets_across_workers(
        healed: Cluster) -> None:
    """Promise: the ``sockets`` budget of one address is one over every worker — with one
    socket open on w1 and one on w2 a third is refused (4429, ``sockets``) on either,
    while another address connects; a socket closed gives its place back.  A worker
    SIGKILLed while it holds an address's sockets cannot close them: its counts are gone
    from Redis once its lease's time has passed, and the address connects again."""
    cluster = healed
    w1, w2 = cluster["w1"], cluster["w2"]
    r = lay(w1, C)
    assert r.status_code == 201, r.text
    table = r.json()["table"]

    async def main() -> None:
        one, two = await watch(w1, table, A), await watch(w2, table, A)
        assert one is not None and two is not None, "refused within the budget"
        for worker in (w1, w2):
            assert await watch(worker, table, A) is None, f"{worker.name}: a 3rd socket"
        other = await watch(w2, table, B)
        assert other is not None, "another address was refused"
        await other.close()
        await one.close()

        async def again() -> websockets.ClientConnection:
            while True:  # polled: the count comes down when w1 has written it
                ws = await watch(w2, table, A)
                if ws is not None:
                    return ws
                await asyncio.sleep(0.2)

        three = await asyncio.wait_for(again(), 30)
        assert held_in_redis(cluster, "w2").get("sockets|addr:" + addr(A)) == "2"
        cluster["w2"].kill()  # w2 holds both of the address's sockets, and cannot close them
        for ws in (two, three):
            await asyncio.wait_for(closed(ws), 30)

    asyncio.run(asyncio.wait_for(main(), 120))
    until(lambda: not held_in_redis(cluster, "w2"), 30, "the killed worker's counts expired")

    async def after() -> None:
        opened = [await watch(w1, table, A), await watch(w1, table, A)]
        assert all(ws is not None for ws in opened), "the killed worker's sockets still count"
        for ws in opened:
            assert ws is not None
            await ws.close()

    asyncio.run(asyncio.wait_for(after(), 60))


def test_a_rate_is_counted_once_over_the_workers(cluster: Cluster) -> None:
    """Promise: without ``--limits-storage`` the workers count the rates together in
    their own Redis (``limits.rates_storage``), not each its own: an address taking seats
    at tables held by w1 and by w2 is refused the third of its 2 a minute (429 ``seat``),
    though neither worker counted more than 2 of them."""
    w1, w2 = cluster["w1"], cluster["w2"]
    tables = []
    for worker in (w1, w2, w2):  # a seat is taken by the table's owner (forwarded)
        r = lay(worker, D)
        assert r.status_code == 201, r.text
        tables.append(r.json()["table"])
    with client(w1.base, E) as c:
        taken = [c.post(f"/api/tables/{t}/seats/1", json={"name": "Вера"}) for t in tables]
    assert [r.status_code for r in taken[:2]] == [200, 200], [r.text for r in taken]
    assert refused_for(taken[2]) == "seat", f"a 3rd seat in a minute: {taken[2].text}"


def test_the_table_cap_is_the_whole_servers_and_makes_room_across_workers(
        tmp_path: Path) -> None:
    """Promise: ``--max-tables`` caps the tables of every worker together, not of each —
    at the cap an address's table is ended to make room when that address holds the most
    counted over both workers (two tables, one on each: the one on the worker asked is
    ended), and when every address holds one, nobody's is ended and the next table is
    refused (503 ``too_many_tables``), on whichever worker."""
    with workers(tmp_path, ["table=off"], ["--max-tables", "3"]) as c:
        w1, w2 = c["w1"], c["w2"]
        laid = {}
        for n, worker in ((A, w1), (A, w2), (B, w1)):
            r = lay(worker, n)
            assert r.status_code == 201, f"{worker.name}: {r.text}"
            laid[n, worker.name] = r.json()["table"]
        r = lay(w2, C)  # the cap: A holds two, one of them here
        assert r.status_code == 201, f"no room was made: {r.text}"
        until(lambda: c.status(laid[A, "w2"]) != "waiting", 30,
              "the biggest holder's table on w2 ended")
        assert c.status(laid[A, "w1"]) == "waiting", "both of A's tables were ended"
        until(lambda: held_in_redis(c, "w2").get("live|addr:" + addr(A)) is None, 30,
              "w2's count of A's tables came down")
        r = lay(w1, D)  # w1 holds two of the three: every address holds one
        assert r.status_code == 503 and r.json()["error"]["code"] == "too_many_tables", \
            r.text
        assert c.status(laid[A, "w1"]) == "waiting" and c.status(laid[B, "w1"]) == "waiting"
