"""docs/server.md "The deal of the day": the day's seed and its commitment, the duplicate
scores (each player's score less the mean of the others' on the same deal), and over a
real server (Uvicorn, SQLite) three players playing day N's first deal in seat 0 against
the same bots, the leaderboard ranking them by their duplicate scores, a second attempt
refused, and the seed hidden until the day (and its grace) is over (the clock injected)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_client import HTTP
from test_a11y import serious
from test_server import Client, Server
from test_site_tournaments import guest, ok
from thousand.engine.table import Table
from thousand.server.features import daily as fd
from thousand.server.store.daily import PlayRow
from waiting import until

DAY = "2026-03-14"
NOON = fd.day_end(DAY) - 12 * 3600


def test_a_days_seed_deals_each_deal_from_its_own_seed_and_commits_to_it() -> None:
    assert fd.day_of(NOON) == DAY and fd.day_of(fd.day_end(DAY)) == "2026-03-15"
    seed = 2**127 + 12345
    c = fd.commitment(DAY, seed)
    assert c == fd.commitment(DAY, seed) and len(c) == 64
    assert c != fd.commitment("2026-03-15", seed) and c != fd.commitment(DAY, seed + 1)
    seeds = [fd.deal_seed(seed, k) for k in range(1, fd.DEALS + 1)]
    assert len(set(seeds)) == fd.DEALS and all(0 <= s < 2**128 for s in seeds)
    assert seeds == [fd.deal_seed(seed, k) for k in range(1, fd.DEALS + 1)]
    # one deal seed deals the same cards every time, another other cards
    hands = [Table(None, None, None, s).game.deal.hands for s in seeds[:2]]  # type: ignore[union-attr]
    assert hands[0] == Table(None, None, None, seeds[0]).game.deal.hands  # type: ignore[union-attr]
    assert hands[0] != hands[1]


def test_the_duplicate_score_is_the_difference_from_the_others_mean() -> None:
    scores = fd.duplicate_scores([("a", 1, 120), ("b", 1, -100), ("c", 1, 40),
                                  ("a", 2, 0), ("b", 2, 60), ("d", 1, 0)])
    # deal 1: a 120 - mean(-100, 40, 0) = 140; deal 2: a 0 - 60 = -60
    assert scores["a"] == pytest.approx(140 - 60)
    assert scores["b"] == pytest.approx((-100 - 160 / 3) + 60)
    assert scores["c"] == pytest.approx(40 - 20 / 3)
    assert scores["d"] == pytest.approx(0 - 60 / 3)
    assert fd.duplicate_scores([("alone", 1, 80)]) == {"alone": 0.0}  # nobody to differ from
    plays = [PlayRow(DAY, 1, p, f"t{p}", p.upper(), p == "c", 0.0, 1.0, s)
             for p, s in (("a", 50), ("b", 50), ("c", -100))]
    plays.append(PlayRow(DAY, 2, "a", "ta2", "A", False, 0.0, None, None))  # not over
    board = fd.standings(plays)
    assert [(s.place, s.name, s.total) for s in board] == [(1, "A", 75.0), (1, "B", 75.0),
                                                           (3, "C", -150.0)]
    assert board[2].guest and board[0].deals == {1: 50}


class Clock:
    """The server's clock for the deal of the day, set by the test."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("daily") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def play_deal(server: Server, table: str, token: str, rng: random.Random) -> None:
    """Seat 0's moves, drawn by ``rng`` from the legal ones, until the game is over; the
    bots answer."""

    async def main() -> None:
        me = await Client.connect(server, table, token, seat=0)
        while True:
            snap = await me.snapshot()
            if snap["over"]:
                break
            view = snap["view"]
            if view["to_move"] == 0 and view["legal"]:
                await me.send({"type": "move", "move": rng.choice(view["legal"]),
                               "version": snap["version"]})
            await me.expect(lambda m, v=snap["version"]: m["type"] == "events"
                            and m["version"] > v, timeout=60)
        await me.close()

    asyncio.run(main())


def test_three_players_play_a_deal_and_the_board_ranks_them(server: Server) -> None:
    clock = Clock(NOON)
    daily: fd.Daily = server.app.state.daily
    daily.now, daily.move_clock = clock, None
    people = {name: guest(server.base, name) for name in ("Анна", "Борис", "Вера")}
    today = ok(people["Анна"].get("/api/daily"))
    assert today["day"] == DAY and today["today"] and today["deals"] == fd.DEALS
    assert len(today["commitment"]) == 64 and today["seed"] is None
    assert [d["status"] for d in today["mine"]] == ["new"] * fd.DEALS
    firsts = []
    pages: list[list[dict[str, Any]]] = []  # Анна's page's days after each deal
    for i, (name, client) in enumerate(people.items()):
        started = ok(client.post("/api/daily/deals/1", json={"name": name}))
        assert started["day"] == DAY and started["seat"] == 0
        again = ok(client.post("/api/daily/deals/1", json={}))  # gone back to: the same table
        assert (again["table"], again["token"]) == (started["table"], started["token"])
        live = server.hub.tables[started["table"]]
        firsts.append((live.table.game.deal.hands[0], live.table.game.first_dealer))
        assert [s.kind for s in live.seats] == ["human", "bot", "bot"]
        play_deal(server, started["table"], started["token"], random.Random(i))
        mine = until(lambda c=client: ok(c.get("/api/daily"))["mine"][0]["status"] == "over"
                     and ok(c.get("/api/daily"))["mine"][0], what=f"{name}'s deal scored")
        assert mine["url"] == f"/replay/{started['table']}"
        refused = client.post("/api/daily/deals/1", json={})
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "daily_played"
        assert client.post("/api/daily/deals/9", json={}).status_code in (400, 404)
        anna = ok(people["Анна"].get("/api/daily"))["board"]
        anna_id = next(r["player"] for r in anna if r["name"] == "Анна")
        pages.append(ok(client.get(f"/api/players/{anna_id}"))["daily"])
    assert firsts[0] == firsts[1] == firsts[2], "everyone holds the same cards"
    board = ok(people["Вера"].get("/api/daily"))["board"]
    raw = {r["name"]: r["deals"]["1"] for r in board}
    assert set(raw) == set(people)
    expected = fd.duplicate_scores((n, 1, s) for n, s in raw.items())
    assert [r["name"] for r in board] == sorted(expected, key=lambda n: -expected[n])
    assert [r["total"] for r in board] == [round(expected[r["name"]], 2) for r in board]
    assert [r["me"] for r in board].count(True) == 1 and all(r["guest"] for r in board)
    history = ok(people["Борис"].get("/api/daily/me"))["days"]
    assert history[0]["day"] == DAY and history[0]["players"] == 3
    assert history[0]["played"] == 1
    # Анна's page, seen by anyone, shows her day: her rank of how many, her score against
    # the field; read afresh while the day runs (one player, then two, then three)
    line = next(r for r in board if r["name"] == "Анна")
    assert [[(d["day"], d["players"]) for d in days] for days in pages] == [
        [(DAY, 1)], [(DAY, 2)], [(DAY, 3)]]
    assert pages[0][0]["place"] == 1 and pages[0][0]["total"] == 0  # nobody to differ from
    assert pages[2] == [{"day": DAY, "place": line["place"], "players": 3,
                         "total": line["total"], "played": 1}]
    assert ok(server.get("/api/players/bot:heuristic"))["daily"] == []
    # the seed is hidden through the day and its grace, then revealed and checkable
    clock.now = fd.day_end(DAY) + 60
    past = ok(people["Анна"].get(f"/api/daily/days/{DAY}"))
    assert past["seed"] is None and not past["today"] and past["mine"] == []
    assert people["Анна"].post("/api/daily/deals/1", json={}).json()["day"] != DAY  # a new day
    clock.now = fd.day_end(DAY) + fd.GRACE
    past = ok(people["Анна"].get(f"/api/daily/days/{DAY}"))
    seed = int(past["seed"])
    assert fd.commitment(DAY, seed) == today["commitment"] == past["commitment"]
    dealt = Table(None, None, None, fd.deal_seed(seed, 1)).game
    assert (dealt.deal.hands[0], dealt.first_dealer) == firsts[0]  # type: ignore[union-attr]
    assert [r["name"] for r in past["board"]] == [r["name"] for r in board]
    # the revealed day's board is final: kept by the worker, the same on her page (under
    # the next day's, begun above and not yet scored)
    after = ok(server.get(f"/api/players/{anna_id}"))["daily"]
    assert after[0]["place"] is None and after[0]["played"] == 0 and after[1:] == pages[2]
    assert DAY in daily._final
    assert server.get("/api/daily/days/2999-01-01").status_code == 404
    assert server.get("/api/daily/days/bad").status_code == 400
    assert server.get("/api/daily/days/2026-02-30").status_code == 404


def test_a_deal_needs_a_session_and_its_table_is_not_closed(server: Server) -> None:
    r = HTTP.post(f"{server.base}/api/daily/deals/1", json={}, timeout=30)
    assert r.status_code == 403 and r.json()["error"]["code"] == "session_needed"
    daily: fd.Daily = server.app.state.daily
    daily.now, daily.move_clock = Clock(NOON + 86400 * 3), None
    client = guest(server.base, "Глеб")
    started = ok(client.post("/api/daily/deals/2", json={}))
    closed = client.post(f"/api/tables/{started['table']}/close",
                         json={"token": started["token"]})
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "daily_table"


def test_a_deal_begun_before_a_restart_is_scored_after_it(tmp_path: Path) -> None:
    """The day's seed and a deal's table outlive a restart: the table is known again as a
    deal's (not closed), its game is scored when it ends, and the commitment is the same."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    clock = Clock(NOON + 86400 * 5)
    with Server(url, min_clock=0.05) as first:
        first.app.state.daily.now, first.app.state.daily.move_clock = clock, None
        client = guest(first.base, "Зоя")
        started = ok(client.post("/api/daily/deals/3", json={}))
        committed = ok(client.get("/api/daily"))["commitment"]
        cookies = dict(client.cookies)
    with Server(url, min_clock=0.05) as second:
        second.app.state.daily.now, second.app.state.daily.move_clock = clock, None
        client = httpx.Client(base_url=second.base, timeout=30, cookies=cookies)
        client.headers["X-CSRF-Token"] = cookies["thousand_csrf"]
        assert ok(client.get("/api/daily"))["commitment"] == committed
        closed = client.post(f"/api/tables/{started['table']}/close",
                             json={"token": started["token"]})
        assert closed.status_code == 409 and closed.json()["error"]["code"] == "daily_table"
        play_deal(second, started["table"], started["token"], random.Random(7))
        until(lambda: ok(client.get("/api/daily"))["board"], what="the deal scored")
        assert ok(client.get("/api/daily"))["mine"][2]["status"] == "over"


def test_the_page_is_served(server: Server, tmp_path: Path) -> None:
    r = server.get("/daily")
    assert r.status_code == 200 and "daily.js" in r.text


@pytest.mark.needs("chromium")
@pytest.mark.needs("axe-core")
def test_three_browsers_play_the_first_deal_and_see_the_board(server: Server,
                                                              browser: Any) -> None:
    """Three people, each in a browser of his own, open /daily, give their names and play
    deal 1 (a short move clock: their stand-ins move for them); back on /daily each sees
    his deal scored with its replay's link and the day's leaderboard of three, and the
    first one's page his day, rank of three (axe finds nothing serious there)."""
    daily: fd.Daily = server.app.state.daily
    daily.now, daily.move_clock = Clock(NOON + 86400 * 10), 0.05
    names = ("Дарья", "Егор", "Жанна")
    errors: list[str] = []
    pages = [browser.new_context(locale="ru-RU").new_page() for _ in names]
    for page, name in zip(pages, names, strict=True):
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.base}/daily")
        page.wait_for_selector("#daily-deals li[data-deal='1'] button.daily-play")
        page.fill("#daily-name", name)
        page.click("#daily-deals li[data-deal='1'] button.daily-play")
        page.wait_for_url("**/t/*")
    for page in pages:
        def scored(page: Any = page) -> bool:
            page.goto(f"{server.base}/daily")
            page.wait_for_selector("#daily-deals li[data-deal='1']")
            return page.locator("#daily-deals li[data-deal='1'] a").count() == 1
        until(scored, 90, "the deal scored on the page", every=0.5)
    for page in pages:  # the board as it is once all three deals are over
        page.goto(f"{server.base}/daily")
        page.wait_for_function(
            "() => document.querySelectorAll('#daily-board tbody tr').length === 3")
        board = page.locator("#daily-board").inner_text()
        assert all(name in board for name in names), board
        assert page.locator("#daily-board tr.me").count() == 1
        link = page.locator("#daily-deals li[data-deal='1'] a").get_attribute("href")
        assert link is not None and link.startswith("/replay/")
        assert page.locator("#daily-history tbody tr").count() == 1
    # the first one's page shows his day: his rank of three
    first = pages[0].locator("#daily-board tr.me").get_attribute("data-player")
    pages[1].goto(f"{server.base}/p/{first}")
    day = pages[1].locator("#player-daily tbody tr")
    day.wait_for()
    assert " 3" in day.locator("td").nth(1).inner_text()  # «N из 3»
    assert serious(pages[1]) == []
    assert not errors, errors
