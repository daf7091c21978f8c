"""docs/server.md "A player's page": ``GET /api/players/{name}`` and ``/p/{name}`` after a
whole rated game on a real server (Uvicorn, real SQLite): the games, wins, declarer
statistics and barrel falls as the game's own deals say, the rating's history; a deleted
account's page is the site's 404; an unlisted game is shown to its players only; and the
leaderboard page.

A whole game is played fast by the table's own stand-in (as tests/test_site_ratings.py
does): the player lays a table with a short move clock and never connects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from test_accounts import PASSWORD, signup
from test_server import Server
from test_site_ratings import guest, lay, wait_over
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.store.tables import Store
from waiting import until


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("player_page") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def account(server: Server, name: str) -> httpx.Client:
    c = signup(server, name)
    c.headers["X-CSRF-Token"] = c.cookies["thousand_csrf"]
    return c


def replayed(server: Server, table_id: str) -> Table:
    """The finished table as the store keeps it, replayed from its moves."""
    store = Store(server.db_url)
    try:
        row = store.load(table_id)
    finally:
        store.close()
    assert row is not None
    return Table.from_moves(Rules.from_json(row.rules), row.names, row.first_dealer,
                            row.seed, row.moves)


def test_after_a_rated_game_the_page_shows_it(server: Server) -> None:
    """An account plays one whole classic game with two bots: his page counts it (won or
    not as the game says), his declarer statistics are those of the game's deals, his
    rating's history has one point, the very change the table showed, and the game is
    listed with its place and score; his page is an HTML page; the bot's page has the
    game too."""
    me = account(server, "Вера")
    table, _ = lay(me, {}, ("beginner", "heuristic"))
    info = wait_over(me, table)
    game = replayed(server, table).game
    r = server.get("/api/players/вера")  # an account's name in any case
    assert r.status_code == 200, r.text
    page: dict[str, Any] = r.json()
    assert page["player"]["name"] == "Вера" and page["player"]["kind"] == "account"
    assert page["since"] is not None
    winners = game.winner if isinstance(game.winner, list) else [game.winner]
    assert (page["played"], page["won"]) == (1, int(0 in winners))
    mine = [s.result for s in game.summaries
            if s.result.outcome != "redeal" and s.result.declarer == 0]
    declarer = page["declarer"]
    assert declarer["bids"] == len(mine)
    assert declarer["made"] == len([x for x in mine if x.made])
    assert declarer["conceded"] == len([x for x in mine if x.outcome == "conceded"])
    if mine:
        # The page shows the mean to a tenth, rounded as Python rounds (131.25 -> 131.2).
        average = sum(x.contract or 0 for x in mine) / len(mine)
        assert declarer["average_contract"] == round(average, 1)
    assert page["falls"] == game.seats[0].falls
    assert page["bolts"] == game.seats[0].bolts
    history = page["families"]["classic"]["history"]
    assert len(history) == 1
    assert history[0]["after"] == info["ratings"][0]["after"]
    assert history[0]["table"] == table
    [line] = page["games"]
    assert line["id"] == table and line["seat"] == 0 and line["preset"] == "classic"
    assert line["score"] == game.scores[0]
    assert line["place"] == (1 if 0 in winners else line["place"])
    assert line["players"] == list(game.names)
    pid = me.get("/api/me").json()["player"]["id"]
    assert line["player_ids"] == [pid, "bot:beginner", "bot:heuristic"]
    games = server.get("/api/games?limit=50").json()["games"]
    listed = next(g for g in games if g["id"] == table)  # the history links the names
    assert listed["player_ids"] == [pid, "bot:beginner", "bot:heuristic"]
    html = server.get("/p/Вера")
    assert html.status_code == 200 and 'src="/static/player.js"' in html.text
    bot = server.get("/api/players/bot:heuristic").json()
    assert bot["played"] >= 1 and table in [g["id"] for g in bot["games"]]
    assert bot["since"] is None


def test_a_deleted_player_and_nobody_are_not_found(server: Server) -> None:
    gone = account(server, "Уйдёт")
    assert server.get("/p/Уйдёт").status_code == 200
    r = gone.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    for path in ("/p/Уйдёт", "/p/nobody-at-all", "/p/bot:nonsense"):
        page = server.get(path)
        assert page.status_code == 404 and "page-error" in page.text, path
    assert server.get("/api/players/Уйдёт").status_code == 404
    assert server.get("/api/players/" + "x" * 65).status_code == 404


def test_an_unlisted_game_is_shown_to_its_players_only(server: Server) -> None:
    """A guest's game at an unlisted table is on his page for him (and counted), but a
    stranger's answer has not even its id, nor counts it (issue 27: the totals told what
    the list hid)."""
    me = guest(server)
    pid = me.get("/api/me").json()["player"]["id"]
    r = me.post("/api/tables", json={
        "preset": "classic", "open": False, "clock": 0.05, "options": {"max_deals": 1},
        "seats": [{"kind": "human", "name": "Гость"}, {"kind": "bot", "level": "random"},
                  {"kind": "bot", "level": "random"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    wait_over(me, table)
    own = me.get(f"/api/players/{pid}").json()
    assert own["played"] == 1 and [g["id"] for g in own["games"]] == [table]
    stranger = guest(server)
    for path in (f"/api/players/{pid}", "/api/players/bot:random"):
        seen = stranger.get(path)
        assert seen.status_code == 200 and table not in seen.text, path
    assert stranger.get(f"/api/players/{pid}").json()["played"] == 0
    assert own["played"] == 1  # his own page counts it


def test_the_leaderboard_page(server: Server) -> None:
    page = server.get("/leaderboard")
    assert page.status_code == 200 and 'src="/static/leaderboard.js"' in page.text


# --------------------------------------------------------------------------- the pages

def _sign_up_and_quick_play(context: Any, base: str, name: str, bots_after: float) -> str:
    """In a browser's context (its cookies): sign up, then quick play classic with a
    short move clock; the table's id."""
    r = context.request.post(base + "/api/account/signup",
                             data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "thousand_csrf")
    r = context.request.post(base + "/api/quickplay", headers={"X-CSRF-Token": csrf},
                             data={"preset": "classic", "clock": 0.05,
                                   "bots_after": bots_after, "bot_level": "beginner"})
    assert r.status == 200, r.text()
    return str(r.json()["table"])


@pytest.mark.needs("chromium")
def test_two_players_find_each_other_play_and_see_their_ratings(server: Server,
                                                                browser: Any) -> None:
    """Two people sign up in two browsers and find each other with quick play (a bot
    takes the third seat); their stand-ins play the whole game (a short clock); back at
    the table, the end dialog's rating line names each player with a link to his page;
    there the chart has a point for the game and the rating is the one the game made, and
    the game is among his last; the history page links his name there; the leaderboard
    page lists the bots (their ladder games put them there at once), marked, and links
    to a bot's page."""
    contexts = [browser.new_context(locale="ru-RU") for _ in range(2)]
    table = _sign_up_and_quick_play(contexts[0], server.base, "Галя", 2.0)
    assert _sign_up_and_quick_play(contexts[1], server.base, "Дима", 2.0) == table
    info = until(lambda: (got := server.get(f"/api/tables/{table}").json())["ratings"]
                 is not None and got, 120, "the stand-ins ended the game", every=0.2)
    after = {c["seat"]: c["after"] for c in info["ratings"]}
    errors: list[str] = []
    for seat, (context, name) in enumerate(zip(contexts, ("Галя", "Дима"),
                                               strict=True)):
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.base}/t/{table}")
        page.locator("#rating-changes a.player-link", has_text=name).click()
        page.wait_for_url("**/p/*")
        page.wait_for_selector(".rating-chart")
        assert page.locator("#player-name").inner_text() == name
        assert page.locator(".rating-chart circle.point").count() == 1
        shown = page.locator(".rating-family[data-family=classic] h3").inner_text()
        assert shown.endswith(f": {after[seat]}"), shown
        played = page.locator('#player-totals [data-stat="played"]')
        assert played.inner_text() == "1"
        assert page.locator(f'#player-games tr[data-game="{table}"]').count() == 1
    page.goto(f"{server.base}/history")  # the history links a name to his page
    page.locator(f'tr:has(a[href="/replay/{table}"]) a.player-link',
                 has_text="Дима").click()
    page.wait_for_url("**/p/*")
    assert page.locator("#player-name").inner_text() == "Дима"
    page.goto(f"{server.base}/leaderboard?family=classic")
    page.wait_for_selector("#board")
    assert page.locator("#board tr.bot").count() >= 1  # the bots, with their ladder
    assert "бот" in page.locator("#board tr.bot").first.inner_text()
    page.locator("#board tr.bot a").first.click()
    page.wait_for_url("**/p/bot*")
    page.wait_for_selector("#player-totals")
    assert not errors, errors
