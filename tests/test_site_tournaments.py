"""docs/server.md "Tournaments": a tournament made, registered for and started over a real
server (Uvicorn, SQLite), its rounds laid as the server's tables, their results recorded
and the next round paired, to standings equal to thousand.evaluation.tournament's for the same
results; a restart mid-tournament resumes it; in a real browser two people and four bots
play three rounds to the standings.  Tables play one deal; the people's seats are played
by their stand-ins once a short move clock runs out (the hub's clock)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_client import HTTP
from test_server import Server
from thousand.evaluation.tournament import Tournament
from thousand.server.features.daily import deal_seed

MsgT = dict[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("tournaments") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def guest(base: str, name: str) -> httpx.Client:
    """A browser's session: a named guest, his cookies and the CSRF header."""
    client = httpx.Client(base_url=base, timeout=30)
    assert client.get("/api/me").status_code == 200
    client.headers["X-CSRF-Token"] = client.cookies["thousand_csrf"]
    assert client.post("/api/me/name", json={"name": name}).status_code == 200
    return client


def ok(r: httpx.Response, status: int = 200) -> MsgT:
    assert r.status_code == status, r.text
    out: MsgT = r.json()
    return out


def wait_over(client: httpx.Client, tid: str, seconds: float = 40) -> MsgT:
    deadline = time.monotonic() + seconds
    while (info := ok(client.get(f"/api/tournaments/{tid}")))["status"] != "over":
        assert time.monotonic() < deadline, f"the tournament did not end: {info}"
        time.sleep(0.1)
    return info


def replay_standings(info: MsgT) -> list[MsgT]:
    """The standings thousand.evaluation.tournament gives for the tournament's entries, seed and
    results, after checking that it pairs every round as the server did; each with its
    entry's guest mark, as the server adds it."""
    t = Tournament(info["format"], info["rounds"], 3, info["seed"])
    for e in info["entries"]:
        t.register(e["name"])
    t.start()
    for rnd in info["pairings"]:
        paired = t.next_round()
        assert [list(x) for x in paired.tables] == [tab["players"] for tab in rnd["tables"]]
        assert paired.byes == rnd["byes"]
        for i, tab in enumerate(rnd["tables"]):
            firsts = [seat for seat, place in enumerate(tab["places"]) if place == 1]
            t.record(rnd["round"], i, tab["scores"], firsts, tab["deals"])
    guests = {e["name"]: e["guest"] for e in info["entries"]}
    return [{**s.to_json(), "guest": guests[s.name]} for s in t.standings()]


def test_a_tournament_registers_starts_plays_its_rounds_and_ends(server: Server) -> None:
    """Made by Анна with four bots; Борис registers, Вера registers and takes it back;
    only Анна may start; nobody registers after; three rounds of two tables are laid one
    after another as the server's tables, each person's seat his own; the standings are
    the Tournament module's for the same results."""
    anna, boris, vera = (guest(server.base, n) for n in ("Анна", "Борис", "Вера"))
    body = {"name": "Кубок", "preset": "classic", "format": "swiss", "rounds": 3,
            "deals": 1, "clock": 0.05, "bots": ["random", "random", "beginner", "random"]}
    info = ok(anna.post("/api/tournaments", json=body), 201)
    tid = info["id"]
    assert info["status"] == "registering" and info["mine"] and info["registered"]
    assert [e["name"] for e in info["entries"]] == [
        "Анна", "случайный 1", "случайный 2", "новичок 1", "случайный 3"]
    assert ok(boris.post(f"/api/tournaments/{tid}/register", json={}))["registered"]
    assert boris.post(f"/api/tournaments/{tid}/register", json={}).status_code == 409
    ok(vera.post(f"/api/tournaments/{tid}/register", json={}))
    left = ok(vera.post(f"/api/tournaments/{tid}/unregister", json={}))
    assert not left["registered"] and left["players"] == 6
    assert boris.post(f"/api/tournaments/{tid}/start", json={}).status_code == 403
    listed = ok(anna.get("/api/tournaments"))["tournaments"]
    assert any(x["id"] == tid and x["players"] == 6 for x in listed)

    started = ok(anna.post(f"/api/tournaments/{tid}/start", json={}))
    assert started["status"] == "running"
    late = vera.post(f"/api/tournaments/{tid}/register", json={})
    assert late.status_code == 409 and late.json()["error"]["code"] == "started"
    assert "регистрация закрыта" in late.json()["error"]["ru"]
    first = started["pairings"][0]["tables"]
    assert len(first) == 2 and all(tab["table"] for tab in first)
    anna_table = next(tab["table"] for tab in first if "Анна" in tab["players"])
    seats = ok(server.get(f"/api/tables/{anna_table}"))["seats"]
    assert {s["name"]: s["kind"] for s in seats}["Анна"] == "human"

    final = wait_over(anna, tid)
    assert [len(r["tables"]) for r in final["pairings"]] == [2, 2, 2]
    assert all(tab["scores"] is not None and tab["deals"] == 1
               for r in final["pairings"] for tab in r["tables"])
    for r in final["pairings"]:
        for tab in r["tables"]:
            game = ok(server.get(f"/api/tables/{tab['table']}"))
            assert game["status"] == "over"
            assert [s["name"] for s in game["seats"]] == tab["players"]
    assert final["standings"] == replay_standings(final)
    assert sum(s["points"] for s in final["standings"]) == 3 * 2 * 3  # 3 rounds × 2 × (2+1+0)
    assert anna.post(f"/api/tournaments/{tid}/start", json={}).status_code == 409


def test_bad_tournaments_are_refused_with_what_is_wrong(server: Server) -> None:
    anna = guest(server.base, "Анна")
    base = {"name": "Кубок", "bots": ["random", "random"]}
    for bad, status in (({"format": "knockout"}, 422), ({"rounds": 0}, 422),
                        ({"preset": "poker"}, 400), ({"bots": ["god"]}, 400),
                        ({"name": "  "}, 400), ({"extra": 1}, 422)):
        r = anna.post("/api/tournaments", json={**base, **bad})
        assert r.status_code in (status, 400, 422), (bad, r.text)
        assert r.json()["error"]["message"]
    few = ok(anna.post("/api/tournaments", json={**base, "bots": ["random"]}), 201)
    r = anna.post(f"/api/tournaments/{few['id']}/start", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "few"
    assert HTTP.post(f"{server.base}/api/tournaments", json=base).status_code == 401
    assert server.get("/api/tournaments/nope").status_code == 404


def stored_games(server: Server, ids: list[str]) -> dict[str, Any]:
    """The games of the tables ``ids`` as the store keeps them (seed, first dealer,
    moves), played again by the engine: what the test checks the server's answers
    against, independently of them."""
    from thousand.engine.rules import Rules
    from thousand.engine.table import Table
    from thousand.server.store.tables import Store

    store = Store(server.db_url)
    try:
        rows = {i: store.load(i) for i in ids}
    finally:
        store.close()
    out = {}
    for table_id, row in rows.items():
        assert row is not None, table_id
        out[table_id] = (row, Table.from_moves(Rules.from_json(row.rules), row.names,
                                               row.first_dealer, row.seed, row.moves).game)
    return out


def test_a_duplicate_tournament_deals_the_same_cards_and_ranks_by_the_difference(
        server: Server) -> None:
    """Issue 31: a duplicate tournament of six (two tables a round): both tables of a
    round are dealt the same cards to the same seats, with the same first dealer, and
    are unlisted (a finished one would show the cards to the other); each player's
    duplicate score is the sum over the rounds of his final score less the mean of the
    others' in his seat of the round (from the stored games), and the standings go by
    it; the list and the tournament say how it ranks."""
    anna = guest(server.base, "Анна")
    body = {"name": "Дубль", "scoring": "duplicate", "format": "round-robin", "rounds": 2,
            "deals": 1, "clock": 0.05, "bots": ["random"] * 5}
    made = ok(anna.post("/api/tournaments", json=body), 201)
    assert made["scoring"] == "duplicate" and made["format"] == "round-robin"
    listed = ok(anna.get("/api/tournaments"))["tournaments"]
    assert next(x for x in listed if x["id"] == made["id"])["scoring"] == "duplicate"
    started = ok(anna.post(f"/api/tournaments/{made['id']}/start", json={}))
    assert made["deal_secret"] is None and started["deal_secret"] is None  # not yet
    # while the round is played, each person is given his own table only (another could
    # be watched playing the same cards ahead)
    first = started["pairings"][0]["tables"]
    if not all(tab["scores"] is not None for tab in first):
        assert [tab["table"] is not None for tab in first] == [
            "Анна" in tab["players"] for tab in first]
    final = wait_over(anna, made["id"])
    rounds = [[tab["table"] for tab in r["tables"]] for r in final["pairings"]]
    assert [len(ids) for ids in rounds] == [2, 2]
    games = stored_games(server, [i for ids in rounds for i in ids])
    expected: dict[str, float] = {}
    for r, ids in zip(final["pairings"], rounds, strict=True):
        (row_a, a), (row_b, b) = (games[i] for i in ids)
        assert not row_a.listed and not row_b.listed
        assert row_a.seed == row_b.seed and a.first_dealer == b.first_dealer
        assert a.records and b.records
        for x, y in zip(a.records, b.records, strict=False):  # what both tables dealt
            if x.dealer != y.dealer:  # a redeal at one table only: the dealing parts
                break
            assert (x.hands, x.talon, x.cut) == (y.hands, y.talon, y.cut)
        for tab, game in zip(r["tables"], (a, b), strict=True):
            assert tab["scores"] == list(game.scores)  # the stored game is the recorded one
        for seat in range(3):
            held = [(tab["players"][seat], game.scores[seat])
                    for tab, game in zip(r["tables"], (a, b), strict=True)]
            for name, score in held:
                others = [s for n, s in held if n != name]
                expected[name] = expected.get(name, 0.0) + score - sum(others) / len(others)
    # each round is dealt its own cards; once it is over the secret they came from is
    # shown (anyone can check every table's seed), and the replays are everybody's
    assert games[rounds[0][0]][0].seed != games[rounds[1][0]][0].seed
    secret = int(final["deal_secret"])
    for number, ids in enumerate(rounds, 1):
        assert {games[i][0].seed for i in ids} == {deal_seed(secret, number, "tournament")}
        for i in ids:
            assert games[i][0].replay == "public"
            assert HTTP.get(f"{server.base}/api/games/{i}/record").status_code == 200
    standings = final["standings"]
    assert {s["name"]: s["duplicate"] for s in standings} == pytest.approx(expected, abs=0.01)
    shown = [s["duplicate"] for s in standings]
    assert shown == sorted(shown, reverse=True)
    assert [s["place"] for s in standings] == sorted(s["place"] for s in standings)
    assert sum(shown) == pytest.approx(0, abs=0.05)  # differences from the others' means


def test_a_duplicate_round_is_shown_only_once_every_table_of_it_is_over() -> None:
    """A duplicate round's first table over: the pages show neither its scores nor the
    standings it moves until the other table, playing the same cards, is over too (it
    would tell those players how the cards went); by places, a table shows at once."""
    from thousand.server.features.tournaments import Entry, Info

    def info(scoring: str) -> Info:
        return Info(id="t", name="Дубль", preset="classic", format="round-robin", rounds=2,
                    deals=1, status="running", creator="p", created=0.0, started=1.0,
                    finished=None, scoring=scoring,
                    state={"seed": 1, "tables": [["a", "b"]], "results": [
                        {"round": 1, "table": 0, "scores": [100, 50, -20], "winners": [0],
                         "deals": 1}]},
                    entries=[Entry(n, None, "random", 0.0) for n in "абвгде"])

    shown = info("duplicate").tournament(shown=True).to_json()
    assert all("scores" not in tab for tab in shown["pairings"][0]["tables"])
    assert all(s["games"] == 0 and s["score"] == 0 for s in shown["standings"])
    kept = info("duplicate").tournament().to_json()  # what the server records with
    assert kept["pairings"][0]["tables"][0]["scores"] == [100, 50, -20]
    by_places = info("places").tournament(shown=True).to_json()
    assert by_places["pairings"][0]["tables"][0]["scores"] == [100, 50, -20]


def test_bad_scoring_and_too_few_for_duplicate_are_refused_in_both_languages(
        server: Server) -> None:
    anna = guest(server.base, "Анна")
    base = {"name": "Кубок", "bots": ["random", "random"]}
    for bad, code, en, ru in (
            ({"scoring": "knockout"}, "bad_scoring", "places or duplicate", "зачёт"),
            ({"format": "knockout"}, "bad_format", "round-robin or swiss", "формат")):
        r = anna.post("/api/tournaments", json={**base, **bad})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["code"] == code and en in error["message"] and ru in error["ru"], error
    assert anna.post("/api/tournaments", json={**base, "scoring": 1}).status_code == 400
    few = ok(anna.post("/api/tournaments", json={**base, "scoring": "duplicate"}), 201)
    r = anna.post(f"/api/tournaments/{few['id']}/start", json={})
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "few_duplicate" and "two tables" in error["message"]
    assert "два стола" in error["ru"]
    assert ok(anna.get(f"/api/tournaments/{few['id']}"))["status"] == "registering"


def test_a_restart_mid_tournament_resumes_it(tmp_path: Path) -> None:
    """Анна's seat at round one's table is hers (``/api/me/seats`` gives its token); the
    server stops while the round is played; the new one rebuilds its tables, the
    tournament finds them again, records them and plays on to the end."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with Server(url, min_clock=0.05) as s:
        anna = guest(s.base, "Анна")
        body = {"name": "Кубок", "rounds": 2, "deals": 1, "clock": 1.5,
                "bots": ["random", "random"]}
        tid = ok(anna.post("/api/tournaments", json=body), 201)["id"]
        first = ok(anna.post(f"/api/tournaments/{tid}/start", json={}))
        table = first["pairings"][0]["tables"][0]["table"]
        # her seat is her own: its token derives from her secret, so her pages find it
        mine = ok(anna.get("/api/me/seats"))["seats"]
        assert [(x["table"], x["url"]) for x in mine] == [(table, f"/t/{table}")]
        cookies = dict(anna.cookies)
    with Server(url, min_clock=0.05) as s:
        anna = httpx.Client(base_url=s.base, timeout=30, cookies=cookies)
        mid = ok(anna.get(f"/api/tournaments/{tid}"))
        assert mid["status"] == "running" and len(mid["pairings"]) == 1
        assert mid["pairings"][0]["tables"][0]["scores"] is None
        final = wait_over(anna, tid)
        assert [len(r["tables"]) for r in final["pairings"]] == [1, 1]
        assert final["standings"] == replay_standings(final)


def test_a_tournament_table_cannot_be_closed(server: Server) -> None:
    """The first person at a table may close a table he laid; a tournament's table is
    nobody's to close: its round would wait for it for ever."""
    anna = guest(server.base, "Анна")
    body = {"name": "Кубок", "rounds": 1, "bots": ["random", "random"], "clock": None}
    tid = ok(anna.post("/api/tournaments", json=body), 201)["id"]
    ok(anna.post(f"/api/tournaments/{tid}/start", json={}))
    [seat] = ok(anna.get("/api/me/seats"))["seats"]
    r = anna.post(f"/api/tables/{seat['table']}/close", json={"token": seat["token"]})
    assert r.status_code == 409 and r.json()["error"]["code"] == "tournament_table", r.text
    assert ok(server.get(f"/api/tables/{seat['table']}"))["status"] == "playing"


def test_a_tournament_names_its_bots_for_people_has_a_clock_and_leads_back(
        server: Server) -> None:
    """Issue 28, 2: the bots entered as «heuristic 1» (raw ids at the tables, the logs,
    the sheets, /history); a tournament made without a clock had none, so a player who
    left held the next round for ever; a finished table's end offered «Ещё партию» and no
    way back to the tournament.  Now the bots are «любитель 1», a tournament gets the
    default clock, and the table's rematch names the tournament's page instead (a
    rematch there is refused)."""
    from test_server import Client
    from thousand.server.live.time_control import DEFAULT_CATEGORY

    anna = guest(server.base, "Анна")
    made = ok(anna.post("/api/tournaments", json={
        "name": "Кубок", "rounds": 1, "bots": ["heuristic", "heuristic"]}), 201)
    # the default time control since issue 31 (it was the default move clock)
    assert made["clock"] is None and made["time_control"]["category"] == DEFAULT_CATEGORY
    assert [e["name"] for e in made["entries"]] == ["Анна", "любитель 1", "любитель 2"]
    # a clock of a second: her seat is still live when she asks for its token, and her
    # stand-in then plays the deal out
    body = {"name": "Кубок", "rounds": 1, "deals": 1, "clock": 1.0,
            "bots": ["random", "random"]}
    tid = ok(anna.post("/api/tournaments", json=body), 201)["id"]
    ok(anna.post(f"/api/tournaments/{tid}/start", json={}))
    [table_id] = [t["table"] for t in ok(anna.get(f"/api/tournaments/{tid}"))["pairings"][0][
        "tables"]]
    [seat] = [s for s in ok(anna.get("/api/me/seats"))["seats"] if s["table"] == table_id]
    table = ok(server.get(f"/api/tables/{seat['table']}"))
    assert sorted(s["name"] for s in table["seats"] if s["kind"] == "bot") == [
        "случайный 1", "случайный 2"]
    wait_over(anna, tid)

    async def main() -> None:
        me = await Client.connect(server, seat["table"], seat["token"], seat=seat["seat"],
                                  sync=False)
        assert me.snap is not None
        assert me.snap["rematch"]["tournament"] == f"/tournaments/{tid}", me.snap["rematch"]
        assert me.snap["rematch"]["waiting"] == []
        await me.send({"type": "rematch"})
        assert (await me.error())["code"] == "tournament_table"
        await me.close()

    import asyncio
    asyncio.run(main())


# --------------------------------------------------------------------------- the pages

CHROMIUM = "/usr/bin/chromium"


def test_the_pages_are_served(server: Server) -> None:
    for path in ("/tournaments", "/tournaments/anything"):
        page = server.get(path)
        assert page.status_code == 200 and 'src="/static/tournaments.js"' in page.text


@pytest.mark.needs("chromium")
def test_two_people_and_four_bots_play_three_rounds_to_the_standings(server: Server) -> None:
    """In two browsers: Анна makes a duplicate Swiss tournament of three rounds, one deal
    a table, with four bots, from the form; Борис opens its page, gives his name and
    registers; Анна starts it; the stand-ins play the people's seats (a short move clock)
    and both pages show three rounds of two tables, each person's own with its link (a
    duplicate round's tables are their players'), and the final standings of six by
    their duplicate scores.  (Last in the module: Playwright's sync API keeps an event
    loop running in this thread.)"""
    import playwright.sync_api as sync_api
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run"])
        try:
            errors: list[str] = []
            anna, boris = (browser.new_context(locale="ru-RU").new_page() for _ in range(2))
            for page in (anna, boris):
                page.on("pageerror", lambda e: errors.append(str(e)))
            anna.goto(f"{server.base}/tournaments")
            anna.wait_for_selector("#tour-form")
            anna.fill("#tour-my-name", "Анна")
            anna.fill("#tour-name", "Кубок сада")
            anna.select_option("#tour-scoring", "duplicate")
            anna.fill("#tour-rounds", "3")
            anna.fill("#tour-deals", "1")
            anna.check("#tour-clock-on")  # a move clock on purpose, over «обычная»
            anna.fill("#tour-clock", "0.05")
            anna.fill("#tour-bots", "4")
            anna.select_option("#tour-bot-level", "random")
            anna.click("#tour-create")
            anna.wait_for_url("**/tournaments/*")
            anna.wait_for_selector("#tour-start")
            assert anna.locator("#tour-entries li").count() == 5
            assert "случайный 1" in anna.locator("#tour-entries").inner_text()

            assert "дубликат" in anna.locator("#tour-meta").inner_text()
            assert anna.locator("#tour-duplicate-note").count() == 1
            boris.goto(anna.url)
            boris.wait_for_selector("#tour-register")
            boris.fill("#tour-my-name", "Борис")
            boris.click("#tour-register")
            boris.wait_for_selector("#tour-unregister")
            assert boris.locator("#tour-start").count() == 0  # not his to start
            anna.wait_for_function(
                "() => document.querySelectorAll('#tour-entries li').length === 6")
            anna.click("#tour-start")
            for page in (anna, boris):
                page.wait_for_selector("#tour-status[data-status=over]", timeout=50_000)
                assert page.locator(".tour-round").count() == 3
                # one table of each round is this person's: its link only
                assert page.locator(".tour-round li a.button").count() == 3
                rows = page.locator("#tour-standings tbody tr")
                assert rows.count() == 6
                assert "Итоговая таблица" in page.locator("#tour-standings caption").inner_text()
                assert "Дубликат" in page.locator("#tour-standings thead").inner_text()
                assert page.locator("#tour-standings td.tour-duplicate").count() == 6
            shown = {anna.locator("#tour-standings tbody tr").nth(i).get_attribute("data-player")
                     for i in range(6)}
            assert {"Анна", "Борис"} <= shown
            assert not errors, errors
        finally:
            browser.close()
