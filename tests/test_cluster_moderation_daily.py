"""docs/server.md "Moderation" and "The deal of the day" with many workers (issue 31: "the
same flows with the two players on different workers"): two real ``thousand serve``
workers on PostgreSQL and Redis (tests/cluster_live.py), started once for the module.

* A moderation: Boris's table is on w2, where he chats; Anna reports him through w2; the
  moderator, on w1, sees the report and mutes him there; Boris's next line at his table
  on w2 is refused.
* The deal of the day: Darya plays today's first deal on w1, Egor on w2, each table held
  by its own worker; both workers' leaderboards of the day rank the two of them, and each
  one's page (through the other worker) counts him among two.

Nothing waits a fixed time."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cluster_live import CLI, Cluster, Worker, fresh_workers
from test_daily import play_deal
from test_moderation import chat
from test_site_tournaments import guest, ok
from waiting import until

pytestmark = [pytest.mark.cluster, pytest.mark.needs("postgres", "redis")]

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with fresh_workers(tmp_path_factory.mktemp("moderation-daily-cluster"), "moddaily") as c:
        yield c


def account(worker: Worker, name: str) -> httpx.Client:
    """A browser's session on ``worker``, signed up as ``name``."""
    client = httpx.Client(base_url=worker.base, timeout=30)
    assert client.get("/api/me").status_code == 200
    client.headers["X-CSRF-Token"] = client.cookies["thousand_csrf"]
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    client.headers["X-CSRF-Token"] = client.cookies["thousand_csrf"]  # the account's own
    return client


def test_a_mute_on_one_worker_refuses_the_next_line_on_the_other(cluster: Cluster) -> None:
    w1, w2 = cluster["w1"], cluster["w2"]
    anna, boris = account(w2, "Анна"), account(w2, "Борис")
    vera = account(w1, "Вера")
    granted = subprocess.run([*CLI, "admin", "grant-moderator", "Вера", "--db", cluster.db_url],
                             capture_output=True, text=True, timeout=120)
    assert granted.returncode == 0, granted.stderr
    laid = ok(anna.post("/api/tables", json={"seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}), 201)
    table = laid["table"]
    token = ok(boris.post(f"/api/tables/{table}/seats/1", json={}))["token"]
    assert cluster.owner(table) == "w2"
    assert chat(w2, table, token, 1, "сам ты бот")["type"] == "chat"  # type: ignore[arg-type]
    report = ok(anna.post("/api/reports", json={"table": table, "seat": 1,
                                                "reason": "abuse"}), 201)["id"]
    listed = ok(vera.get("/api/moderation"))["reports"]
    seen = next(r for r in listed if r["id"] == report)
    assert seen["player"] == "Борис" and seen["chat"][-1]["text"] == "сам ты бот"
    assert ok(vera.post("/api/moderation/actions",
                        json={"action": "mute", "report": report, "hours": 1}))
    refused = chat(w2, table, token, 1, "а теперь?")  # type: ignore[arg-type]
    assert refused["type"] == "error" and refused["code"] == "chat_muted", refused
    assert cluster.owner(table) == "w2"  # said where the table is, not where he was muted


def test_a_deal_of_the_day_on_two_workers_lands_on_one_board(cluster: Cluster) -> None:
    w1, w2 = cluster["w1"], cluster["w2"]
    darya, egor = guest(w1.base, "Дарья"), guest(w2.base, "Егор")
    started = {"Дарья": ok(darya.post("/api/daily/deals/1", json={})),
               "Егор": ok(egor.post("/api/daily/deals/1", json={}))}
    if started["Дарья"]["day"] != started["Егор"]["day"]:  # midnight (UTC) between them
        started["Дарья"] = ok(darya.post("/api/daily/deals/1", json={}))
    day = started["Егор"]["day"]
    assert started["Дарья"]["day"] == day
    workers = {"Дарья": w1, "Егор": w2}
    for i, (name, s) in enumerate(started.items()):
        assert cluster.owner(s["table"]) == workers[name].name
        play_deal(workers[name], s["table"], s["token"], random.Random(i))  # type: ignore[arg-type]

    def board(worker: Worker) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = ok(worker.get(f"/api/daily/days/{day}"))["board"]
        return rows

    until(lambda: len(board(w1)) == 2, 120, "both deals scored on one leaderboard")
    names = sorted(r["name"] for r in board(w1))
    assert names == ["Дарья", "Егор"] and board(w2) == board(w1)
    for row in board(w1):
        other = w2 if workers[row["name"]] is w1 else w1
        days = ok(other.get(f"/api/players/{row['player']}"))["daily"]
        assert days[0]["day"] == day and days[0]["players"] == 2
        assert (days[0]["place"], days[0]["total"]) == (row["place"], row["total"])
