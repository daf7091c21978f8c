"""docs/server.md "Presence, challenges and friends" with many workers: who is here and a
challenge's news cross the workers over the bus.  Two real ``thousand serve`` workers on
PostgreSQL and Redis (tests/cluster_live.py): Anna's lobby socket is on w1, Boris's on
w2; each sees the other; Boris hides through w1 and is gone from every lobby, then shows
himself again; Boris challenges Anna through w2 and her socket on w1 is told;
she accepts through w1 and his socket on w2 is told the table, where both are seated.
Nothing waits a fixed time."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from cluster_live import Cluster, fresh_workers
from test_presence import Lobby, guest, me
from waiting import until

pytestmark = [pytest.mark.cluster, pytest.mark.needs("postgres", "redis")]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with fresh_workers(tmp_path_factory.mktemp("presence-cluster"), "presence") as c:
        yield c


def test_presence_and_a_challenge_cross_the_workers(cluster: Cluster) -> None:
    w1, w2 = cluster["w1"], cluster["w2"]
    anna = guest(httpx.Client(base_url=w1.base, timeout=30), "Анна")
    boris = guest(httpx.Client(base_url=w2.base, timeout=30), "Борис")
    a, b = Lobby(w1.base, anna), Lobby(w2.base, boris)
    try:
        until(lambda: me(boris) in a.online, what="Anna (w1) sees Boris (w2)")
        until(lambda: me(anna) in b.online, what="Boris (w2) sees Anna (w1)")
        assert a.online[me(boris)]["name"] == "Борис"
        # Boris hides through w1 while his socket is on w2: every worker hides him
        via_w1 = httpx.Client(base_url=w1.base, timeout=30, cookies=boris.cookies,
                              headers={"X-CSRF-Token": boris.headers["X-CSRF-Token"]})
        assert via_w1.put("/api/me/social", json={"hidden": True,
                                                   "strangers": True}).status_code == 200
        until(lambda: me(boris) not in a.online, what="Boris (w2) hidden, told through w1")
        via_w1.put("/api/me/social", json={"hidden": False, "strangers": True})
        until(lambda: me(boris) in a.online, what="Boris shown again")
        r = boris.post("/api/challenges", json={"to": me(anna), "preset": "classic"})
        assert r.status_code == 201, r.text
        challenge = r.json()["id"]
        until(lambda: any(c["id"] == challenge for c in a.challenges()),
              what="Anna's socket on w1 told of Boris's challenge made on w2")
        r = anna.post(f"/api/challenges/{challenge}/accept")
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        until(lambda: any(c["status"] == "accepted" and c["table"] == table
                          for c in b.challenges()),
              what="Boris's socket on w2 told of the table laid on w1")
        seats = boris.get("/api/me/seats").json()["seats"]
        assert any(s["table"] == table and s["seat"] == 0 for s in seats)
        b.close()
        until(lambda: me(boris) not in a.online, what="Anna sees Boris leave w2")
    finally:
        a.close()
