"""docs/server.md "Rematch": at a finished table every person asks «Ещё партию» over the
WebSocket; bots agree at once; everybody is told who asked; when the last person asks, a
new table is laid with the same seats, names, bots and rules, the first dealer moved on,
and each person is sent his own seat at it.  A real server (Uvicorn, SQLite), real
WebSockets; the game is played out fast by the stand-ins of two absent people (a short
move clock), then both come back to ask."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import playwright.sync_api as sync_api
import pytest

from http_client import HTTP
from live_server import wait_over
from test_browser import MOVE
from test_server import Client, Server
from thousand.server.store.tables import Store
from waiting import until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("rematch") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def finished_table(server: Server) -> tuple[str, dict[int, str]]:
    """A table of two people and a bot, one deal long, played out by the stand-ins."""
    seats = [{"kind": "human", "name": "Аня"}, {"kind": "human", "name": "Боря"},
             {"kind": "bot", "level": "beginner", "name": "Бот 3"}]
    r = server.post("/api/tables", {"preset": "classic", "options": {"max_deals": 1},
                                     "seats": seats, "clock": 0.05})
    assert r.status_code == 201, r.text
    table, tokens = r.json()["table"], {0: r.json()["token"]}
    r = server.post(f"/api/tables/{table}/seats/1", {"name": "Боря"})
    assert r.status_code == 200, r.text
    tokens[1] = r.json()["token"]
    wait_over(server.base, table, 60, "the game")
    return table, tokens


def test_a_rematch_when_all_agree_lays_the_same_table_with_the_dealer_moved_on(
        server: Server) -> None:
    table, tokens = finished_table(server)

    async def main() -> tuple[dict[str, Any], dict[str, Any]]:
        anna = await Client.connect(server, table, tokens[0], seat=0, sync=False)
        boris = await Client.connect(server, table, tokens[1], seat=1, sync=False)
        watcher = await Client.connect(server, table, sync=False)
        assert anna.snap is not None and anna.snap["rematch"] == {
            "asked": [], "waiting": [0, 1], "table": None}
        await watcher.send({"type": "rematch"})
        assert (await watcher.error())["code"] == "spectator"
        await anna.send({"type": "rematch"})
        for c in (anna, boris, watcher):
            told = await c.expect(lambda m: m["type"] == "rematch_asked")
            assert told == {"type": "rematch_asked", "asked": [0], "waiting": [1],
                            "table": None}
        await boris.send({"type": "rematch"})
        mine = await anna.expect(lambda m: m["type"] == "rematch")
        his = await boris.expect(lambda m: m["type"] == "rematch")
        laid = await watcher.expect(lambda m: m["type"] == "rematch_asked")
        assert laid["table"] == mine["table"] == his["table"] and laid["waiting"] == []
        assert (mine["seat"], his["seat"]) == (0, 1) and mine["token"] != his["token"]
        assert mine["url"] == f"/t/{mine['table']}"
        assert not any(m["type"] == "rematch" for m in watcher.inbox)
        await anna.send({"type": "rematch"})  # asked again (a page come back): his seat
        again = await anna.expect(lambda m: m["type"] == "rematch")
        assert again == mine
        new_anna = await Client.connect(server, mine["table"], mine["token"], seat=0,
                                        sync=False)
        new_boris = await Client.connect(server, his["table"], his["token"], seat=1,
                                         sync=False)
        for c in (anna, boris, watcher, new_anna, new_boris):
            await c.close()
        return mine, his

    mine, _ = asyncio.run(main())
    store = Store(server.db_url)
    try:
        old, new = store.load(table), store.load(mine["table"])
    finally:
        store.close()
    assert old is not None and new is not None
    assert new.names == old.names == ["Аня", "Боря", "Бот 3"]
    assert [(s.kind, s.level) for s in new.seats] == [(s.kind, s.level) for s in old.seats]
    assert new.rules == old.rules and new.clock == old.clock and new.listed == old.listed
    assert new.first_dealer == (old.first_dealer + 1) % 3
    assert new.status == "playing"


def test_a_rematch_of_a_game_for_two(server: Server) -> None:
    """RULES §4 "Two players": a finished game for two (a person and a bot, one deal,
    played by his stand-in) — the person asks, the bot agrees at once, and the new table
    has the same two seats and rules with the first dealer moved on to the other seat."""
    r = server.post("/api/tables", {"preset": "two", "options": {"max_deals": 1},
                                     "clock": 0.05, "seats": [
                                         {"kind": "human", "name": "Аня"},
                                         {"kind": "bot", "level": "random", "name": "Бот"}]})
    assert r.status_code == 201, r.text
    table, token = r.json()["table"], r.json()["token"]
    wait_over(server.base, table, 60, "the game")

    async def main() -> dict[str, Any]:
        anna = await Client.connect(server, table, token, seat=0, sync=False)
        assert anna.snap is not None
        assert anna.snap["rematch"] == {"asked": [], "waiting": [0], "table": None}
        await anna.send({"type": "rematch"})
        mine = await anna.expect(lambda m: m["type"] == "rematch")
        await anna.close()
        return mine

    mine = asyncio.run(main())
    assert mine["seat"] == 0
    store = Store(server.db_url)
    try:
        old, new = store.load(table), store.load(mine["table"])
    finally:
        store.close()
    assert old is not None and new is not None
    assert new.names == old.names == ["Аня", "Бот"]
    assert [(s.kind, s.level) for s in new.seats] == [("human", None), ("bot", "random")]
    assert new.rules == old.rules and new.rules["players"] == 2
    assert new.first_dealer == (old.first_dealer + 1) % 2
    assert new.status == "playing"


def test_a_rematch_is_asked_for_only_once_the_game_is_over(server: Server) -> None:
    r = HTTP.post(server.base + "/api/tables", json={"preset": "classic"}, timeout=30)
    table, token = r.json()["table"], r.json()["token"]

    async def main() -> str:
        me = await Client.connect(server, table, token, seat=0, sync=False)
        await me.send({"type": "rematch"})
        # the bots may bid before the answer comes: their events are not the answer
        code = str((await me.expect(lambda m: m["type"] == "error"))["code"])
        await me.close()
        return code

    assert asyncio.run(main()) == "game_running"


# --------------------------------------------------------------------------- the pages

def _quick(page: Any, base: str, name: str, *, wait: str = "") -> str:
    """Quick play from the lobby's box: classic with a 5-second clock; the table's id."""
    page.goto(base + "/")
    page.wait_for_selector("#quick-button")
    page.fill("#my-name", name)
    page.dispatch_event("#my-name", "change")
    page.check("#quick-clock-on")
    page.fill("#quick-clock", "5")
    page.dispatch_event("#quick-clock", "change")
    page.select_option("#quick-wait", wait)
    if wait:
        page.select_option("#quick-level", "beginner")
    page.click("#quick-button")
    page.wait_for_url("**/t/*")
    return str(page.url.rsplit("/", 1)[1])


def _act(page: Any) -> bool:
    """One move for this page if it has one: pass the auction, else the first move."""
    if page.locator("#sheet-close, #rematch-box").count():
        return False
    buttons = page.locator(".actions button:not([disabled])")
    fks = [buttons.nth(i).get_attribute("data-fk") or "" for i in range(buttons.count())]
    # A dialog (the deal's sheet, the game's end) may open between the look and the click,
    # when a stand-in or a bot ends the deal: the click then gives up soon and the caller
    # looks again (and closes the dialog), instead of waiting its whole timeout.
    try:
        if fks:
            contract = [f for f in fks if f.startswith("act-contract")]
            pick = "act-pass" if "act-pass" in fks else contract[0] if contract else fks[0]
            page.click(f'[data-fk="{pick}"]', timeout=5_000)
            return True
        card = page.locator(".hand button.playable:not([disabled])")
        if card.count():
            card.first.click(timeout=5_000)
            return True
    except sync_api.TimeoutError:
        return False
    return False


def _a_move_to_make(pages: list[Any]) -> bool:
    """A page whose deal goes on has a move to make, or every page's deal is scored."""
    scored = [bool(page.locator("#sheet-close").count()) for page in pages]
    return all(scored) or any(not done and page.locator(MOVE).count()
                              for page, done in zip(pages, scored, strict=True))


@pytest.mark.needs("chromium")
def test_two_players_find_each_other_play_and_ask_for_a_rematch(server: Server,
                                                                 browser: Any) -> None:
    """In two browsers: Аня asks quick play for classic with a 5-second clock and bots
    after 10 s, Боря asks for the same and sits at her table; the beginner bot takes the
    third seat; they play a deal by clicking; then they close their pages and the
    stand-ins play the game to its end; back at the table, the end dialog says what the
    game did to the ratings and offers «Ещё партию»: Боря sees that Аня agreed, agrees,
    and both pages move to the new table, each at his own seat."""
    pages = [browser.new_context(locale="ru-RU").new_page() for _ in range(2)]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda e: errors.append(str(e)))
    anna, boris = pages
    table = _quick(anna, server.base, "Аня", wait="10")
    anna.wait_for_selector("#leave-button")
    assert _quick(boris, server.base, "Боря") == table
    for page in pages:  # the bot comes after the wait, and the game begins
        page.wait_for_function("() => document.getElementById('waiting').hidden",
                               timeout=30_000)
    info = server.get(f"/api/tables/{table}").json()
    assert [s["name"] for s in info["seats"]][:2] == ["Аня", "Боря"]
    assert (info["seats"][2]["kind"], info["seats"][2]["level"]) == ("bot", "beginner")
    deadline = time.monotonic() + 60
    while not (anna.locator("#sheet-close").count()
               and boris.locator("#sheet-close").count()):
        assert time.monotonic() < deadline, "the deal did not end in time"
        if not any([_act(anna), _act(boris)]):
            until(lambda: _a_move_to_make(pages), 60, "a move for either player",
                  every=0.08)
    for page in pages:  # they go away: the stand-ins play the rest of the game
        page.goto("about:blank")
    wait_over(server.base, table, 60, "the stand-ins' game")
    for page in pages:  # back: the end dialog, the ratings line, «Ещё партию»
        page.goto(f"{server.base}/t/{table}")
        page.wait_for_selector("#rematch-button")
        said = page.locator("#rating-changes").inner_text()  # «Аня +65 → 1565; …»
        assert said.startswith("Рейтинг: ") and "Аня" in said and "→" in said, said
    anna.click("#rematch-button")
    boris.wait_for_selector("#rematch-agreed")
    assert "Аня" in boris.locator("#rematch-agreed").inner_text()
    boris.click("#rematch-button")
    for page in pages:
        page.wait_for_url(lambda url: table not in url and "/t/" in url)
    assert anna.url == boris.url
    new = anna.url.rsplit("/", 1)[1]
    seats = server.get(f"/api/tables/{new}").json()["seats"]
    assert [s["name"] for s in seats] == [s["name"] for s in info["seats"]]
    for page in pages:
        page.wait_for_selector(".seat.pos-bottom .tag.you")
    assert not errors, errors
