"""Players (docs/server.md "Players"): accounts, sessions, CSRF, seats that follow their
player to another device, a guest who signs up, an account deleted — against a real server
(Uvicorn in a thread, SQLite, httpx and real WebSockets); the store's part also on the
PostgreSQL server; one real browser signing up."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets

from http_client import HTTP
from live_server import postgres_schema, wait_over
from test_server import Server
from thousand.server.features.accounts import check_account_name
from thousand.server.store.accounts import DELETED_NAME, AccountStore, NameTaken
from thousand.server.store.tables import SeatRow, Store, TableRow, players_t, sessions_t

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("accounts") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.2) as s:
        yield s


def client(server: Server) -> httpx.Client:
    """A browser-like client: it keeps the cookies, and sends X-CSRF-Token as the pages
    do (see :func:`csrf`)."""
    return httpx.Client(base_url=server.base, timeout=30)


def csrf(c: httpx.Client) -> dict[str, str]:
    return {"X-CSRF-Token": c.cookies.get("thousand_csrf") or ""}


def post(c: httpx.Client, path: str, body: Any = None) -> httpx.Response:
    return c.post(path, json=body, headers=csrf(c))


def signup(server: Server, name: str, password: str = PASSWORD) -> httpx.Client:
    c = client(server)
    r = post(c, "/api/account/signup", {"name": name, "password": password})
    assert r.status_code == 201, r.text
    return c


def signin(server: Server, name: str, password: str = PASSWORD) -> httpx.Client:
    c = client(server)
    r = post(c, "/api/account/signin", {"name": name, "password": password})
    assert r.status_code == 200, r.text
    return c


def me(c: httpx.Client) -> dict[str, Any]:
    r = c.get("/api/me")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def lay_table(c: httpx.Client, **extra: Any) -> dict[str, Any]:
    """A classic table: this client's person and two bots."""
    r = post(c, "/api/tables", {"seats": [{"kind": "human", "name": "Я"}, {"kind": "bot"},
                                          {"kind": "bot"}], **extra})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


# --------------------------------------------------------------------------- names


def test_names_are_checked_and_unique_case_insensitively(server: Server) -> None:
    a = signup(server, "Аня")
    assert me(a)["player"] == {"id": me(a)["player"]["id"], "kind": "account",
                               "name": "Аня"}
    signup(server, "Anna")
    for taken in ("аня", "АНЯ", "ANNA", "anna", " Anna "):
        r = client(server).post("/api/account/signup",
                                json={"name": taken, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", taken
    for bad, why in (("Аnna", "mixes Latin and Cyrillic"), ("", "empty"),
                     ("x" * 33, "at most 32"), ("a\x07b", "control"), ("123", "letter"),
                     (DELETED_NAME.upper(), "cannot be taken")):
        r = client(server).post("/api/account/signup", json={"name": bad, "password": PASSWORD})
        assert r.status_code == 400, (bad, r.text)
        assert r.json()["error"]["code"] == "bad_name" and why in r.json()["error"]["message"]
    r = client(server).post("/api/account/signup", json={"name": "Boris", "password": "short"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password"
    r = client(server).post("/api/account/signup", json={"name": "Boris", "password": 12345678})
    assert r.status_code == 400  # the model is strict: a number is no password (400: app.py)


def test_account_names_fold_spaces_and_case() -> None:
    name, key = check_account_name("  Анна   Мария ")
    assert name == "Анна Мария" and key == check_account_name("анна мария")[1]
    assert check_account_name("ANNA")[1] == check_account_name("anna")[1]


# --------------------------------------------------------------------------- sessions


def test_sign_in_and_a_wrong_password_that_does_not_tell_whether_the_name_exists(
        server: Server) -> None:
    signup(server, "Глеб")
    c = signin(server, "глеб")
    player = me(c)["player"]
    assert player["kind"] == "account" and player["name"] == "Глеб"
    cookie = c.cookies.jar
    session = next(k for k in cookie if k.name == "thousand_session")
    assert session.has_nonstandard_attr("HttpOnly")
    wrong = client(server).post("/api/account/signin",
                                json={"name": "Глеб", "password": "not the password"})
    nobody = client(server).post("/api/account/signin",
                                 json={"name": "Никто", "password": "not the password"})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"error": {
        "code": "bad_credentials", "message": "wrong name or password"}}


def test_an_expired_session_is_a_guest_again(server: Server,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    c = signup(server, "Vera")
    vera = me(c)["player"]["id"]
    # move the clock: the session's end is in the past
    with sa.create_engine(server.db_url).begin() as conn:
        conn.execute(sessions_t.update().where(sessions_t.c.player_id == vera)
                     .values(expires=time.time() - 1))
    now = me(c)["player"]
    assert now["kind"] == "guest" and now["id"] != vera
    # and the idle time is the server's setting
    accounts = server.app.state.accounts
    old, accounts.idle = accounts.idle, 0.5
    # the server's clock stands still while she signs in and is seen, then moves on past
    # the idle time (not a wait: on a busy machine half a second may pass between the
    # sign-in and the next request, and she would be a guest before the first look)
    import thousand.server.features.accounts as accounts_module

    clock = SimpleNamespace(now=time.time())
    monkeypatch.setattr(accounts_module, "time", SimpleNamespace(time=lambda: clock.now))
    try:
        c2 = signin(server, "Vera")
        assert me(c2)["player"]["id"] == vera
        clock.now += 0.7
        assert me(c2)["player"]["kind"] == "guest"
    finally:
        accounts.idle = old


def test_csrf_a_session_without_the_token_is_refused(server: Server) -> None:
    c = signup(server, "Дина")
    for headers in ({}, {"X-CSRF-Token": "wrong"}):
        r = c.post("/api/tables", json={}, headers=headers)
        assert r.status_code == 403 and r.json()["error"]["code"] == "csrf", headers
        r = c.post("/api/account/signout", headers=headers)
        assert r.status_code == 403
    assert me(c)["player"]["name"] == "Дина"  # still signed in: nothing was done
    assert post(c, "/api/tables", {}).status_code == 201
    # no session cookie, no ambient authority: a script is not asked for the token
    assert HTTP.post(server.base + "/api/tables", json={}).status_code == 201


def test_sign_out_and_sign_out_everywhere(server: Server) -> None:
    signup(server, "Egor")
    phone, laptop, tablet = (signin(server, "Egor") for _ in range(3))
    assert post(phone, "/api/account/signout").json() == {"ended": 1}
    assert me(phone)["player"]["kind"] == "guest"
    assert me(tablet)["player"]["name"] == "Egor"
    r = post(laptop, "/api/account/signout-everywhere")
    assert r.status_code == 200 and r.json()["ended"] >= 2
    assert me(tablet)["player"]["kind"] == "guest"
    assert me(laptop)["player"]["kind"] == "guest"


def test_change_the_password(server: Server) -> None:
    c = signup(server, "Жанна")
    other = signin(server, "Жанна")
    r = post(c, "/api/account/password", {"old": "wrong password", "new": "новый пароль"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_password"
    r = post(c, "/api/account/password", {"old": PASSWORD, "new": "новый пароль"})
    assert r.status_code == 200 and r.json() == {"ended": 1}
    assert me(c)["player"]["name"] == "Жанна"       # this session goes on
    assert me(other)["player"]["kind"] == "guest"   # the other ended
    assert client(server).post("/api/account/signin", json={
        "name": "Жанна", "password": PASSWORD}).status_code == 401
    signin(server, "Жанна", "новый пароль")


def test_the_argon2_hash_has_the_default_parameters(server: Server) -> None:
    signup(server, "Зоя")
    with sa.create_engine(server.db_url).connect() as conn:
        stored = conn.execute(sa.text(
            "select password_hash from players where name = 'Зоя'")).scalar_one()
    assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    assert PASSWORD not in stored


def test_a_hash_with_older_parameters_is_made_again_at_sign_in(server: Server) -> None:
    from argon2 import PasswordHasher

    signup(server, "Юра")
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    engine = sa.create_engine(server.db_url)
    query = sa.text("select password_hash from players where name = 'Юра'")
    with engine.begin() as conn:
        conn.execute(sa.text("update players set password_hash = :h where name = 'Юра'"),
                     {"h": weak})
    signin(server, "Юра")
    with engine.connect() as conn:
        stored = conn.execute(query).scalar_one()
    assert stored != weak and stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    signin(server, "Юра")


# --------------------------------------------------------------------------- seats


async def _play_one_move(server: Server, table: str, token: str, seat: int) -> None:
    """Connect with the token: the seat is ours, and a move of ours is taken."""
    async with websockets.connect(server.ws_url(table, token), ping_interval=None) as ws:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        assert msg["type"] == "snapshot" and msg["seat"] == seat
        while msg.get("type") != "snapshot" or msg["view"]["to_move"] != seat:
            await ws.send(json.dumps({"type": "snapshot"}))
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        version = msg["version"]
        await ws.send(json.dumps({"type": "move", "move": msg["view"]["legal"][0],
                                  "version": version}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert msg["type"] != "error", msg
            if msg["type"] == "events" and msg["version"] > version:
                assert any(e.get("seat") == seat for e in msg["events"]), msg
                return


def test_a_second_device_takes_the_seat_back(server: Server) -> None:
    phone = signup(server, "Ilya")
    laid = lay_table(phone)
    tablet = signin(server, "ilya")
    seats = tablet.get("/api/me/seats").json()["seats"]
    assert seats == [{"table": laid["table"], "seat": 0, "token": laid["token"],
                      "url": laid["url"]}]
    assert [t["table"] for t in me(tablet)["tables"]] == [laid["table"]]
    asyncio.run(_play_one_move(server, laid["table"], seats[0]["token"], 0))
    # nobody else gets it: another account, a guest, a script
    assert signup(server, "Kira").get("/api/me/seats").json() == {"seats": []}
    guest = client(server)
    me(guest)
    assert guest.get("/api/me/seats").json() == {"seats": []}
    assert HTTP.get(server.base + "/api/me/seats").json() == {"seats": []}


def test_a_guest_who_signs_up_keeps_his_seats_and_games(server: Server) -> None:
    c = client(server)
    guest = me(c)["player"]
    assert guest["kind"] == "guest" and guest["name"] is None
    r = post(c, "/api/me/name", {"name": "Лёва"})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Лёва"
    laid = lay_table(c)
    other = lay_table(signup(server, "Someone"))
    r = post(c, f"/api/tables/{other['table']}/seats/0", {"name": "Лёва"})
    assert r.status_code == 409  # taken: but a free one would be his too
    r = post(c, "/api/account/signup", {"name": "Лёва", "password": PASSWORD})
    assert r.status_code == 201
    assert r.json()["player"] == {"id": guest["id"], "kind": "account", "name": "Лёва"}
    assert [t["table"] for t in me(c)["tables"]] == [laid["table"]]
    elsewhere = signin(server, "лёва")
    assert [s["token"] for s in elsewhere.get("/api/me/seats").json()["seats"]] == [
        laid["token"]]
    # an account keeps the name it signed up with
    assert post(c, "/api/me/name", {"name": "Other"}).status_code == 409


def test_taking_a_seat_records_the_player(server: Server) -> None:
    c = signup(server, "Маша")
    r = HTTP.post(server.base + "/api/tables", json={"seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
    table = r.json()["table"]
    r = post(c, f"/api/tables/{table}/seats/1", {"name": "Маша"})
    assert r.status_code == 200
    seats = c.get("/api/me/seats").json()["seats"]
    assert seats == [{"table": table, "seat": 1, "token": r.json()["token"],
                      "url": f"/t/{table}"}]


@pytest.mark.needs("chromium")
def test_deleting_an_account_keeps_its_games_under_another_name(server: Server,
                                                                browser: Any) -> None:
    c = signup(server, "Nina")
    # one deal, played out by the stand-in of her absent seat (clock 0.2 s) and two bots
    laid = lay_table(c, options={"max_deals": 1}, clock=0.2)
    table = laid["table"]
    wait_over(server.base, table, what="the deal")
    r = c.request("DELETE", "/api/account", json={"password": "wrong password"},
                  headers=csrf(c))
    assert r.status_code == 403
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(c))
    assert r.status_code == 200, r.text
    record = HTTP.get(f"{server.base}/api/games/{table}/record").json()
    assert record["players"][0] == DELETED_NAME
    games = HTTP.get(server.base + "/api/games?limit=500").json()["games"]
    assert next(g for g in games if g["id"] == table)["players"][0] == DELETED_NAME
    assert "Nina" not in json.dumps(record, ensure_ascii=False)
    # signed out, and the name is free again
    assert me(c)["player"]["kind"] == "guest"
    assert client(server).post("/api/account/signin", json={
        "name": "Nina", "password": PASSWORD}).status_code == 401
    signup(server, "nina")
    _history_shows(browser, server.base, {"en": "deleted player", "ru": DELETED_NAME})


def _history_shows(browser: Any, base: str, words: dict[str, str]) -> None:
    """The history page, in each language, shows a deleted player's name in it."""
    import playwright.sync_api as sync_api

    page = browser.new_page()
    for lang, word in words.items():
        page.goto(f"{base}/history?lang={lang}")
        sync_api.expect(page.locator("main").get_by_text(word).first).to_be_visible()


# --------------------------------------------------------------------------- the store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        s = Store(f"sqlite:///{tmp_path / 'store.db'}")
        yield s
        s.close()
        return
    url, drop = postgres_schema()
    s = Store(url)
    try:
        yield s
    finally:
        s.close()
        drop()


def test_the_account_store(store: Store) -> None:
    accounts = AccountStore(store)
    now = time.time()
    guest = accounts.new_guest(now)
    accounts.new_session("s1", guest.id, now, 100)
    found = accounts.session("s1", now + 1, 100)
    assert found is not None and found.player == guest
    assert accounts.session("s1", now + 101, 100) is None      # expired: and removed
    assert accounts.session("s1", now + 1, 100) is None
    player = accounts.sign_up("Аня", "аня", "hash", now, guest.id)
    assert player.id == guest.id and player.kind == "account"
    with pytest.raises(NameTaken):
        accounts.sign_up("АНЯ", "аня", "hash", now, None)
    assert accounts.account("аня") == (player, "hash")
    for sid in ("s2", "s3"):
        accounts.new_session(sid, player.id, now, 100)
    assert accounts.end_sessions(player.id, keep="s3") == 1
    assert accounts.session("s3", now, 100) is not None
    assert accounts.delete(player.id, now) == []
    assert accounts.account("аня") is None and accounts.session("s3", now, 100) is None
    accounts.sign_up("аня", "аня", "hash", now, None)  # the name is free
    # forgotten: expired sessions, and old guests with neither a session nor a seat
    idle, kept, seated = (accounts.new_guest(now - 10) for _ in range(3))
    accounts.new_session("s4", kept.id, now - 10, 100)
    accounts.new_session("s5", idle.id, now - 10, 5)
    store.create_table(TableRow("t1", now, "classic", {}, [], 0, 1, None, "waiting", True,
                                seats=[SeatRow(0, "human", None, "x", None, seated.id)]))
    assert accounts.purge(now + 1, guest_age=5) == (1, 1)
    assert accounts.session("s4", now, 100) is not None
    with store.engine.connect() as conn:
        left = set(conn.execute(sa.select(players_t.c.id)).scalars())
    assert kept.id in left and seated.id in left and idle.id not in left


# --------------------------------------------------------------------------- the page


@pytest.mark.needs("chromium")
def test_sign_up_in_the_browser_shows_the_name_in_the_header(server: Server,
                                                             browser: Any) -> None:
    """The account page in Russian: a guest takes a name; every page's header shows it;
    the page's requests carry the CSRF token (else the server would refuse them)."""
    import playwright.sync_api as sync_api

    base = server.base
    page = browser.new_page(locale="ru-RU")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/account")
    header = page.locator("header.top a.account")
    sync_api.expect(header).to_have_text("Войти")
    page.locator("#guest-name").fill("Федя")
    page.get_by_role("button", name="Сохранить").click()
    sync_api.expect(header).to_have_text("Федя (гость)")
    page.locator("#signup-name").fill("Фёдор")
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Завести").click()
    sync_api.expect(page.locator("#signed-in")).to_have_text("Вы вошли как Фёдор.")
    sync_api.expect(header).to_have_text("Фёдор")
    page.goto(base + "/history")
    sync_api.expect(page.locator("header.top a.account")).to_have_text("Фёдор")
    page.goto(base + "/account")
    page.locator("#signout").click()
    sync_api.expect(page.locator("header.top a.account")).to_have_text("Войти")
    page.locator("#signin-name").fill("фёдор")
    page.locator("#signin-password").fill("not the password")
    page.get_by_role("button", name="Войти", exact=True).last.click()
    sync_api.expect(page.locator("#signin-error")).to_have_text(
        "Неверное имя или пароль.")
    # a table laid on another device: signed in here, its page takes the seat back
    owner = httpx.Client(base_url=base, timeout=30)
    assert owner.post("/api/account/signup", json={
        "name": "Гриша", "password": PASSWORD}).status_code == 201
    laid = lay_table(owner)
    page.locator("#signin-name").fill("Гриша")
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Войти", exact=True).last.click()
    sync_api.expect(page.locator("header.top a.account")).to_have_text("Гриша")
    page.goto(base + laid["url"])
    key = f"thousand.seat.{laid['table']}"
    page.wait_for_function("k => localStorage.getItem(k) !== null", arg=key)
    kept = json.loads(page.evaluate("k => localStorage.getItem(k)", key))
    assert kept == {"seat": 0, "token": laid["token"]}
    assert not errors


def test_the_limits_count_a_signed_in_request_against_its_player() -> None:
    from starlette.requests import Request

    from thousand.server.features.accounts import client_key
    from thousand.server.store.accounts import Identity, Player

    request = Request({"type": "http", "client": ("192.0.2.7", 5000), "headers": [],
                       "state": {}})
    assert client_key(request) == "addr:192.0.2.7"
    request.state.identity = Identity(Player("p_x", "account", "Аня"), "00", "s")
    assert client_key(request) == "player:p_x"
