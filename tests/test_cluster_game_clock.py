"""docs/server.md "Time controls" and "Many workers": a table's game clock survives its
worker's death — real ``thousand serve`` workers on PostgreSQL and Redis
(tests/cluster_live.py); the owner is SIGKILLed after the person's move, and the worker
that takes the table over shows the time that move left him, read back from the store
(written with the move, under the lease's fence)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from cluster_live import Worker, fresh_workers
from test_game_clock import move_on_my_turn
from test_server import Client
from waiting import until

pytestmark = [pytest.mark.cluster, pytest.mark.needs("postgres", "redis")]


async def _connect(worker: Worker, table: str, token: str, deadline: float) -> Client:
    """Seat 0's connection on ``worker``, tried again while the table is between
    workers (the first message is then a ``moved``/``unavailable`` error, not a
    snapshot)."""
    while True:
        try:
            return await Client.connect(worker, table, token, seat=0,  # type: ignore[arg-type]
                                        sync=False)
        except (AssertionError, OSError, TimeoutError) as e:
            if time.monotonic() > deadline:
                raise AssertionError(f"no snapshot from {worker.name}: {e}") from e
            await asyncio.sleep(0.2)


def test_the_worker_taking_a_table_over_resumes_its_clock(tmp_path: Path) -> None:
    with fresh_workers(tmp_path, "clock") as cluster:
        seats = [{"kind": "human", "name": "Анна"}, {"kind": "bot", "level": "random"},
                 {"kind": "bot", "level": "random"}]
        r = cluster["w1"].post("/api/tables", {"preset": "classic", "seats": seats,
                                                "time_control": "fast"})
        assert r.status_code == 201, r.text
        table, token = r.json()["table"], r.json()["token"]
        owner = cluster[cluster.owner(table)]
        other = next(w for w in cluster.workers.values() if w is not owner)

        def stored() -> dict[str, Any]:
            with cluster.engine.connect() as conn:
                text = conn.execute(sa.text("select game_clock from tables where id = :id"),
                                    {"id": table}).scalar_one()
            return dict(json.loads(text))

        async def before() -> None:
            me = await _connect(owner, table, token, time.monotonic() + 60)
            await move_on_my_turn(me)
            await me.close()

        asyncio.run(before())
        until(lambda: stored()["left"][0] != 300, 60, "his time stored with his move")
        left = stored()["left"][0]
        assert 270 < left <= 303
        owner.kill()

        async def after() -> None:
            me = await _connect(other, table, token, time.monotonic() + 90)
            assert me.snap is not None
            clock = me.snap["clock"]
            assert clock["category"] == "fast"
            assert left - 30 < clock["remaining"][0] <= left + 0.05
            await me.close()

        asyncio.run(after())
        assert cluster.owner(table) == other.name
