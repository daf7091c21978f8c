"""An unlisted table (``"open": false``: "only those given its link") against a real
``thousand serve`` (docs/server.md "Unlisted tables"):

* its id is in no response a stranger can get: the lobby's lists, the history of games,
  the lobby and history pages (a real browser);
* its free seats need the secret of its link (``invite``); the table's page and its
  invite link pass the secret on (a real browser);
* its replay and record are for its players while the game runs, and once it is over as
  its creator chose (``"replay": "public" | "players"``).

One server for the module; the games that must end are one deal of bots.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_client import HTTP
from live_server import CHROMIUM, CHROMIUM_ARGS, serve, wait_over
from test_server import Server

BOTS = [{"kind": "bot", "level": "random"}] * 3
HUMAN_AND_BOTS = [{"kind": "human", "name": "Аня"}, {"kind": "human"},
                  {"kind": "bot", "level": "random"}]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("privacy"), "--bot-delay", "0") as url:
        yield url


def lay(base: str, **body: Any) -> dict[str, Any]:
    r = HTTP.post(base + "/api/tables", json=body, timeout=30)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def over(base: str, table: str) -> None:
    wait_over(base, table, what="the bots")


def everything_a_stranger_reads(base: str) -> str:
    """Every list a stranger can fetch, as text."""
    parts = [HTTP.get(base + path, timeout=30).text for path in (
        "/api/tables", "/api/tables?all=1", "/api/tables?all=true", "/", "/history",
        "/api/games?limit=500", "/api/leaderboard?min_games=0",
        "/api/players/bot:random/ratings", "/api/players/bot:heuristic/ratings")]
    total = HTTP.get(base + "/api/games?limit=1", timeout=30).json()["total"]
    for offset in range(0, total, 500):
        parts.append(HTTP.get(f"{base}/api/games?limit=500&offset={offset}",
                               timeout=30).text)
    return "\n".join(parts)


def test_an_unlisted_table_is_in_no_public_list(base: str) -> None:
    listed = lay(base, seats=HUMAN_AND_BOTS)
    hidden = lay(base, seats=HUMAN_AND_BOTS, open=False)
    finished = lay(base, seats=BOTS, open=False, options={"max_deals": 1})
    over(base, finished["table"])
    seen = everything_a_stranger_reads(base)
    assert listed["table"] in seen  # the lists do list the listed one
    assert hidden["table"] not in seen
    assert finished["table"] not in seen
    games = HTTP.get(base + "/api/games?limit=500", timeout=30).json()
    assert games["total"] == len(games["games"])  # the count leaves the hidden ones out too


def test_its_seat_needs_the_links_secret(base: str) -> None:
    t = lay(base, seats=HUMAN_AND_BOTS, open=False)
    assert t["invite"] and t["url"] == f"/t/{t['table']}?invite={t['invite']}"
    seat = f"{base}/api/tables/{t['table']}/seats/1"
    for body in ({"name": "Чужой"}, {"name": "Чужой", "invite": ""},
                 {"name": "Чужой", "invite": t["invite"][:-1] + "x"},
                 {"name": "Чужой", "invite": t["token"]}):
        r = HTTP.post(seat, json=body, timeout=30)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "invite_needed"
    assert not HTTP.get(f"{base}/api/tables/{t['table']}", timeout=30).json()[
        "seats"][1]["taken"]
    r = HTTP.post(seat, json={"name": "Друг", "invite": t["invite"]}, timeout=30)
    assert r.status_code == 200, r.text
    # a listed table takes no invite: its seats are anybody's
    listed = lay(base, seats=HUMAN_AND_BOTS)
    assert listed["invite"] is None and listed["url"] == f"/t/{listed['table']}"
    r = HTTP.post(f"{base}/api/tables/{listed['table']}/seats/1", json={"name": "Вася"},
                   timeout=30)
    assert r.status_code == 200, r.text


def replay_status(base: str, table: str, token: str | None = None) -> tuple[int, int]:
    headers = {"X-Seat-Token": token} if token else {}
    replay = HTTP.get(f"{base}/api/games/{table}/replay", headers=headers, timeout=30)
    record = HTTP.get(f"{base}/api/games/{table}/record", headers=headers, timeout=30)
    return replay.status_code, record.status_code


def test_its_replay_is_for_its_players_while_it_runs(base: str) -> None:
    t = lay(base, seats=HUMAN_AND_BOTS, open=False)
    stranger = HTTP.get(f"{base}/api/games/{t['table']}/replay", timeout=30)
    assert stranger.status_code == 403
    assert stranger.json()["error"]["code"] == "players_only"
    assert replay_status(base, t["table"], "not-a-token") == (403, 409)
    assert replay_status(base, t["table"], t["token"]) == (200, 409)  # the record: at the end
    listed = lay(base, seats=HUMAN_AND_BOTS)
    assert replay_status(base, listed["table"]) == (200, 409)  # a listed game is watched


@pytest.mark.parametrize(("open_", "choice", "strangers"), [
    (False, None, False),      # unlisted: for its players
    (False, "public", True),   # unlisted, shown once over as its creator chose
    (True, None, True),        # listed: public
    (True, "players", False),  # listed, kept for its players as chosen
])
def test_once_over_as_its_creator_chose(base: str, open_: bool, choice: str | None,
                                        strangers: bool) -> None:
    body: dict[str, Any] = {"seats": BOTS, "open": open_, "options": {"max_deals": 1}}
    if choice is not None:
        body["replay"] = choice
    t = lay(base, **body)
    over(base, t["table"])
    assert replay_status(base, t["table"]) == ((200, 200) if strangers else (403, 403))


def test_the_choice_lasts_a_restart(tmp_path: Path) -> None:
    """The creator's choice is stored with the table, not only in memory (the application
    made twice in this process on one database: what a restart keeps is the store's)."""
    db = f"sqlite:///{tmp_path / 'thousand.db'}"
    with Server(db, bot_processes=0) as first:
        url = first.base
        t = lay(url, seats=BOTS, open=True, replay="players", options={"max_deals": 1})
        over(url, t["table"])
    with Server(db, bot_processes=0) as again:
        url = again.base
        assert replay_status(url, t["table"]) == (403, 403)
        assert t["table"] in HTTP.get(url + "/api/games", timeout=30).text  # listed


def test_the_pages_pass_the_secret_on(base: str) -> None:
    """In a browser: the creator lays an unlisted table, his invite link carries the
    secret, a friend takes the seat with it; a stranger's lobby shows the table nowhere;
    the replay page shows the running game to its player, not to the stranger."""
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            anna = browser.new_context(locale="ru-RU").new_page()
            t = lay(base, seats=HUMAN_AND_BOTS, open=False)
            anna.goto(base + "/")  # the page keeps the token as the lobby would
            anna.evaluate("([k, v]) => localStorage.setItem(k, v)",
                          [f"thousand.seat.{t['table']}",
                           f'{{"seat": 0, "token": "{t["token"]}"}}'])
            anna.goto(base + t["url"])
            anna.wait_for_selector("#invite-url")
            link = anna.locator("#invite-url").input_value()
            assert f"invite={t['invite']}" in link and "seat=1" in link
            anna.reload()  # the secret is kept for the creator's next visit
            anna.wait_for_selector("#invite-url")
            assert anna.locator("#invite-url").input_value() == link

            boris = browser.new_context(locale="ru-RU").new_page()
            boris.goto(link)
            boris.wait_for_selector(".join-form")
            boris.fill("#join-name", "Боря")
            boris.click('.join-form button[data-seat="1"]')
            boris.wait_for_selector(".seat.pos-bottom .tag.you")

            stranger = browser.new_context(locale="ru-RU").new_page()
            stranger.goto(base + "/")
            stranger.wait_for_selector("#create-button")
            stranger.wait_for_load_state("networkidle")
            assert t["table"] not in stranger.content()

            # the running game's replay: its player's page sends the seat's token, a
            # stranger's is refused
            anna.goto(f"{base}/replay/{t['table']}")
            anna.wait_for_selector(".play-col p .muted")  # loaded: "the record after the game"
            assert not anna.locator(".error-line").count()
            stranger.goto(f"{base}/replay/{t['table']}")
            stranger.wait_for_selector(".error-line")
        finally:
            browser.close()


def test_a_players_rating_history_names_no_unlisted_table(tmp_path: Path) -> None:
    """``GET /api/players/{name}/ratings`` is public: a rated game at an unlisted table
    moves the rating, but its id is not shown (the store on real SQLite)."""
    from thousand.server.store import ratings as site_store
    from thousand.server.store.accounts import AccountStore
    from thousand.server.store.tables import SeatRow, Store, TableRow

    store = Store(f"sqlite:///{tmp_path / 'ratings.db'}")
    try:
        guest = AccountStore(store).new_guest(time.time())
        for table, listed in (("listed1", True), ("hidden1", False)):
            store.create_table(TableRow(
                table, time.time(), "classic", {}, ["Аня", "Бот 2", "Бот 3"], 0, 1, None,
                "over", listed, seats=[SeatRow(0, "human", None, "Аня", None, guest.id),
                                       SeatRow(1, "bot", "heuristic", "Бот 2"),
                                       SeatRow(2, "bot", "random", "Бот 3")]))
            assert site_store.rate_table(store, table, "classic", [1000, 300, 200], 0,
                                         {1: "heuristic", 2: "random"})
        for player in (guest.id, "bot:heuristic"):
            history = site_store.player_history(store, player, 10)["classic"]["history"]
            assert len(history) == 2  # both games moved the rating
            assert [h["table"] for h in history] == ["listed1", None]
    finally:
        store.close()


def test_a_players_page_shows_a_stranger_no_unlisted_game(tmp_path: Path) -> None:
    """``GET /api/players/{name}`` lists a player's last games: a stranger's list (and a
    list without a session) has his listed game only; he himself sees both (his seat is
    his); both count in his totals (the store on real SQLite)."""
    from thousand.server.features import player_stats
    from thousand.server.store.accounts import AccountStore
    from thousand.server.store.tables import SeatRow, Store, TableRow

    store = Store(f"sqlite:///{tmp_path / 'pages.db'}")
    try:
        accounts = AccountStore(store)
        guest, stranger = accounts.new_guest(time.time()), accounts.new_guest(time.time())
        stats = [player_stats.SeatStats(seat, seat == 0, 1, 1, 120, 0, 0, 0, seat + 1, 0)
                 for seat in range(3)]
        for table, listed in (("listed2", True), ("hidden2", False)):
            store.create_table(TableRow(
                table, time.time(), "classic", {}, ["Аня", "Бот 2", "Бот 3"], 0, 1, None,
                "over", listed, seats=[SeatRow(0, "human", None, "Аня", None, guest.id),
                                       SeatRow(1, "bot", "heuristic", "Бот 2"),
                                       SeatRow(2, "bot", "random", "Бот 3")]))
            assert player_stats.record_game(store, table, stats, {1: "heuristic", 2: "random"},
                                            time.time(), listed) == 3
        for player in (guest.id, "bot:heuristic"):
            for viewer in (None, stranger.id, "bot:heuristic"):
                seen = player_stats.last_games(store, player, viewer, 20)
                assert [g["id"] for g in seen] == ["listed2"], (player, viewer)
            own = player_stats.last_games(store, player, guest.id, 20)
            assert [g["id"] for g in own] == ["hidden2", "listed2"]
        # his totals count both for him, the public one for anybody else (issue 27)
        assert player_stats.stats_of(store, guest.id, guest.id)["games"] == 2
        assert player_stats.stats_of(store, guest.id, stranger.id)["games"] == 1
    finally:
        store.close()
