"""Issue 27, "Safe in public": a guest (a person without an account) may not take an
account's name, and wherever a name is shown he is marked as a guest, so that his name
never passes for an account's (docs/server.md "Players", docs/protocol.md).

Against a real ``thousand serve`` (tests/live_server.py): an account and a guest at one
table, in a quick-play table while it waits, and in a tournament; then the table's page
in Chromium, where the guest's seat carries the mark and the account's does not.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from live_server import serve
from test_public_limits import guest, post, signup

Msg = dict[str, Any]
#: A table's seats: the account lays it, the guest takes seat 1, a bot plays seat 2.
SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # the bots think slowly: the shared table stays in play while the module looks at it
    with serve(tmp_path_factory.mktemp("guests"), "--bot-delay", "5") as base:
        yield base


@pytest.fixture(scope="module")
def people(server: str) -> tuple[httpx.Client, httpx.Client]:
    """The account «Марина» and the guest «Вася» (each a session of its own address)."""
    return signup(server, 20, "Марина"), guest(server, 21, "Вася")


@pytest.fixture(scope="module")
def table(server: str, people: tuple[httpx.Client, httpx.Client]) -> str:
    """A table laid by the account, its seat 1 taken by the guest."""
    account, visitor = people
    laid = post(account, "/api/tables", {"seats": SEATS})
    assert laid.status_code == 201, laid.text
    table: str = laid.json()["table"]
    took = post(visitor, f"/api/tables/{table}/seats/1", {"name": "Вася"})
    assert took.status_code == 200, took.text
    return table


def guests_of(seats: list[Msg]) -> list[bool]:
    return [s["guest"] for s in seats]


async def socket_seats(base: str, table: str) -> tuple[list[Msg], list[Msg]]:
    """A spectator's snapshot's seats, and the seats of the ``seats`` message its coming
    made the table send."""
    url = base.replace("http", "ws", 1) + f"/ws/{table}"
    async with websockets.connect(url, ping_interval=None) as ws:
        got: dict[str, list[Msg]] = {}
        while len(got) < 2:
            msg: Msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] in ("snapshot", "seats"):
                got.setdefault(msg["type"], msg["seats"])
        return got["snapshot"], got["seats"]


def test_the_table_the_lobby_and_the_socket_mark_the_guest_only(
        server: str, table: str) -> None:
    """The lobby's list, the table's info, a snapshot and a ``seats`` message mark the
    guest's seat and neither the account's nor the bot's."""
    with httpx.Client(base_url=server, timeout=30) as http:
        # all=1: a full table with nobody online is not among the lively ones
        listed = {t["table"]: t for t in http.get("/api/tables?all=1").json()["tables"]}
        assert guests_of(listed[table]["seats"]) == [False, True, False]
        one = http.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in one["seats"]][:2] == ["Марина", "Вася"]
        assert guests_of(one["seats"]) == [False, True, False]
    snapshot, seats = asyncio.run(socket_seats(server, table))
    assert guests_of(snapshot) == guests_of(seats) == [False, True, False]


def test_the_history_and_the_replay_mark_the_guest(server: str, table: str) -> None:
    """The history's game and its replay carry which seats guests held."""
    with httpx.Client(base_url=server, timeout=30) as http:
        games = {g["id"]: g for g in http.get("/api/games").json()["games"]}
        assert games[table]["players"][:2] == ["Марина", "Вася"]
        assert games[table]["guests"] == [False, True, False]
        replay = http.get(f"/api/games/{table}/replay")
        assert replay.status_code == 200, replay.text
        assert replay.json()["guests"] == [False, True, False]


def test_a_waiting_quick_play_table_marks_its_guest(
        server: str, people: tuple[httpx.Client, httpx.Client]) -> None:
    """The guest waits at a quick-play table; the account sits down beside him: the
    waiting table's seats mark the guest, not the account, nor the free seat."""
    account, visitor = people
    ask = {"preset": "classic", "clock": 43}  # a clock of its own: a table of its own
    first = post(visitor, "/api/quickplay", ask).json()
    with httpx.Client(base_url=server, timeout=30) as http:
        waiting = http.get(f"/api/tables/{first['table']}").json()
        assert waiting["status"] == "waiting"
        assert guests_of(waiting["seats"]) == [True, False, False]
        second = post(account, "/api/quickplay", ask).json()
        assert second["table"] == first["table"]
        seats = http.get(f"/api/tables/{first['table']}").json()["seats"]
    assert [s["taken"] for s in seats] == [True, True, False]
    assert guests_of(seats) == [True, False, False]


def test_a_tournament_marks_its_guest_in_entries_tables_and_standings(
        server: str, people: tuple[httpx.Client, httpx.Client]) -> None:
    """The account makes a tournament with a bot, the guest enters it: its entries, its
    round's table, the standings and the table's own seats mark the guest alone."""
    account, visitor = people
    made = post(account, "/api/tournaments", {"name": "Кубок", "rounds": 1,
                                              "bots": ["heuristic"]})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    assert post(visitor, f"/api/tournaments/{tid}/register").status_code == 200
    started = post(account, f"/api/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    out = started.json()
    marked = {e["name"]: e["guest"] for e in out["entries"]}
    assert marked == {"Марина": False, "Вася": True, next(
        e["name"] for e in out["entries"] if e["kind"] == "bot"): False}
    tab = out["pairings"][0]["tables"][0]
    assert tab["guests"] == [marked[n] for n in tab["players"]]
    assert {s["name"]: s["guest"] for s in out["standings"]} == marked
    with httpx.Client(base_url=server, timeout=30) as http:
        seats = http.get(f"/api/tables/{tab['table']}").json()["seats"]
    assert {s["name"]: s["guest"] for s in seats} == marked


def test_the_player_page_says_a_guest_is_one(
        server: str, people: tuple[httpx.Client, httpx.Client]) -> None:
    """A guest's page (``/api/players/{id}``) says he is a guest; an account's does not."""
    account, visitor = people
    for who, kind in ((visitor, "guest"), (account, "account")):
        pid = who.get("/api/me").json()["player"]["id"]
        assert who.get(f"/api/players/{pid}").json()["player"]["kind"] == kind


def test_the_account_s_own_tables_mark_the_guest_beside_him(
        server: str, people: tuple[httpx.Client, httpx.Client], table: str) -> None:
    """``GET /api/me`` names the account's live tables by who sits at them: the guest
    among them marked."""
    account, _ = people
    mine = {t["table"]: t for t in account.get("/api/me").json()["tables"]}
    assert mine[table]["names"][:2] == ["Марина", "Вася"]
    assert mine[table]["guests"] == [False, True, False]


@pytest.mark.needs("chromium")
def test_the_table_page_shows_the_guest_mark_beside_the_guest_only(
        server: str, table: str, browser: Any) -> None:
    """A spectator's table page: the guest's seat carries «гость» (its title says what
    it means), the account's and the bot's seats carry none; in English, "guest"."""
    page: Any = browser.new_context(locale="ru-RU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/t/{table}")

    def seat(name: str) -> Any:
        return page.locator(".seat").filter(
            has=page.locator(".seat-head .name", has_text=name))

    mark = seat("Вася").locator(".tag.guest")
    mark.wait_for()
    assert mark.inner_text() == "гость"
    assert "без учётной записи" in (mark.get_attribute("title") or "")
    assert seat("Марина").count() == 1
    assert seat("Марина").locator(".tag.guest").count() == 0
    assert page.locator(".seat .tag.guest").count() == 1
    # the score sheet's column of the guest is marked too, and only his
    _only_his_sheet_column_marked(page, "Вася")
    page.evaluate("localStorage.setItem('thousand.lang', 'en')")
    page.reload()
    page.locator(".seat .tag.guest").wait_for()
    assert page.locator(".seat .tag.guest").inner_text() == "guest"
    # the lobby's open tables: a guest waits at one for a second person, his line
    # marked and no other
    waiting = post(guest(server, 22, "Гоша"), "/api/tables", {"seats": SEATS})
    assert waiting.status_code == 201, waiting.text
    waits = waiting.json()["table"]
    page.goto(f"{server}/")
    card = page.locator(".table-card").filter(has=page.locator(f'a[href="/t/{waits}"]'))
    card.locator(".tag.guest").wait_for()
    assert card.locator(".tag.guest").count() == 1
    assert card.locator("li").first.locator(".tag.guest").count() == 1  # the seat he took
    assert errors == []


def _only_his_sheet_column_marked(page: Any, name: str) -> None:
    """The score sheet marks one column as a guest's (once it is drawn), and it is
    ``name``'s."""
    sheet_mark = page.locator(".sheet th.player .tag.guest")
    sheet_mark.wait_for(state="attached")
    assert sheet_mark.count() == 1
    assert name in page.locator(".sheet th.player").filter(
        has=page.locator(".tag.guest")).inner_text()


@pytest.mark.needs("chromium")
def test_the_history_and_the_replay_pages_mark_the_guest(server: str, table: str,
                                                         browser: Any) -> None:
    """The history's line of the game marks the guest once; the replay's board marks his
    seat and no other."""
    page: Any = browser.new_context(locale="ru-RU").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/history")
    row = page.locator("tr").filter(has=page.locator(f'a[href="/replay/{table}"]'))
    row.locator(".tag.guest").wait_for()
    assert row.locator(".tag.guest").count() == 1
    assert "Вася гость" in row.inner_text()
    page.goto(f"{server}/replay/{table}")
    page.locator(".seat .tag.guest").wait_for()
    assert page.locator(".seat .tag.guest").count() == 1
    guest_seat = page.locator(".seat").filter(has=page.locator(".tag.guest"))
    assert "Вася" in guest_seat.locator(".seat-head .name").inner_text()
    _only_his_sheet_column_marked(page, "Вася")  # and his sheet column
    assert errors == []
