"""Moderation and profiles (docs/server.md "Moderation", "A player's page"; issue 31):
reports and their limits per account and per address, the moderators' page and its
actions (a site-wide chat mute that ends, a hidden name, a closed account), their log,
the word filter (the default list and the operator's file), ``thousand admin``, and the
profile's country and «о себе» — against a real server (Uvicorn in a thread, SQLite,
httpx and real WebSockets)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from test_accounts import client, me, post, signin, signup
from test_server import Client, Server
from thousand.server.features.chat_filter import ChatFilter, FilterFileError, load
from thousand.server.limits import Limiter, parse_overrides
from thousand.server.names import name_key
from thousand.server.store import moderation as rows
from thousand.server.store.tables import Store, seats_t, tables_t

#: The operator's own word in the test server's --chat-filter file.
OPERATOR_WORD = "кабачок"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("moderation")
    words = folder / "words.txt"
    words.write_text(f"# the operator's words\n{OPERATOR_WORD}\nредиск*\n", "utf-8")
    with Server(f"sqlite:///{folder / 'games.db'}", min_clock=0.2, chat_filter=words) as s:
        yield s


_names = iter(range(10_000))


def account(server: Server, stem: str = "Игрок") -> tuple[httpx.Client, dict[str, Any]]:
    """A new account (a fresh name each call) and its player."""
    c = signup(server, f"{stem}{'абвгдежзик'[next(_names) % 10]}{next(_names)}")
    return c, me(c)["player"]


def moderator(server: Server) -> httpx.Client:
    c, player = account(server, "Модератор")
    store = server.app.state.moderation.store
    assert rows.set_role(store, name_key(player["name"]), rows.MODERATOR) == player["name"]
    return c


def table_of(a: httpx.Client, b: httpx.Client) -> tuple[str, str, str]:
    """A classic table where ``a`` sits at seat 0 and ``b`` at seat 1 (a bot at 2):
    (table, a's token, b's token)."""
    r = post(a, "/api/tables", {"seats": [{"kind": "human"}, {"kind": "human"},
                                          {"kind": "bot"}]})
    assert r.status_code == 201, r.text
    table = r.json()["table"]
    taken = post(b, f"/api/tables/{table}/seats/1", {})
    assert taken.status_code == 200, taken.text
    return table, r.json()["token"], taken.json()["token"]


def chat(server: Server, table: str, token: str, seat: int, text: str) -> dict[str, Any]:
    """Say ``text`` from a seat: the chat line the table sends back, or the refusal."""
    async def main() -> dict[str, Any]:
        c = await Client.connect(server, table, token, seat=seat)
        try:
            await c.send({"type": "chat", "text": text})
            return await c.expect(lambda m: m["type"] in ("chat", "error"))
        finally:
            await c.close()

    return asyncio.run(main())


def page(c: httpx.Client) -> dict[str, Any]:
    r = c.get("/api/moderation")
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def act(c: httpx.Client, **body: Any) -> httpx.Response:
    return post(c, "/api/moderation/actions", body)


def test_a_report_from_the_table_keeps_its_chat_and_is_limited_per_account_and_address(
        server: Server) -> None:
    """A report names a seat of a table (or a player from his page), a reason of the list
    and a short text; the table's chat is kept with it.  Three an hour per account, four
    per address (the test server's limits): the fourth from one account is refused, and
    so is the first of another account once the address has made four."""
    a, _ = account(server)
    b, pb = account(server)
    c, _ = account(server)
    d, _ = account(server)
    table, _ta, tb = table_of(a, b)
    said = chat(server, table, tb, 1, "ты играешь как бот")
    assert said["type"] == "chat"
    # the reports alone limited, on a limiter of this test's own: 3 an hour per client,
    # 4 per address (the server's others: not limited here)
    state = server.app.state
    kept, state.limiter = state.limiter, Limiter(
        limits=parse_overrides(["report=3/hour|4/hour"]))
    try:
        reports_limited(server, a, b, c, d, table, pb)
    finally:
        state.limiter = kept


def reports_limited(server: Server, a: httpx.Client, b: httpx.Client, c: httpx.Client,
                    d: httpx.Client, table: str, pb: dict[str, Any]) -> None:
    r = post(a, "/api/reports", {"table": table, "seat": 1, "reason": "abuse",
                                 "text": "грубит"})
    assert r.status_code == 201, r.text
    mod = moderator(server)
    made = next(x for x in page(mod)["reports"] if x["id"] == r.json()["id"])
    assert made["player_id"] == pb["id"] and made["reason"] == "abuse"
    assert made["table"] == table and made["chat"][-1]["text"] == "ты играешь как бот"
    # what the API refuses before counting: a bad reason, a long text, oneself, a bot
    assert post(a, "/api/reports", {"player": pb["id"], "reason": "rude"}).status_code == 400
    assert post(a, "/api/reports", {"player": pb["id"], "reason": "other",
                                    "text": "x" * 301}).status_code == 400
    for limited in range(2):
        r = post(a, "/api/reports", {"player": pb["name"], "reason": "spam"})
        assert r.status_code == 201, (limited, r.text)
    r = post(a, "/api/reports", {"player": pb["name"], "reason": "spam"})
    assert r.status_code == 429 and r.json()["error"]["limit"] == "report"
    assert int(r.headers["Retry-After"]) > 0
    assert post(c, "/api/reports", {"player": pb["id"], "reason": "name"}).status_code == 201
    # the address has made its four
    r = post(d, "/api/reports", {"player": pb["id"], "reason": "name"})
    assert r.status_code == 429 and r.json()["error"]["limit"] == "report"
    assert post(b, "/api/reports", {"player": "nobody", "reason": "name"}).status_code == 429


def test_only_a_moderator_sees_the_page_and_acts(server: Server) -> None:
    a, pa = account(server)
    guest = client(server)
    me(guest)
    for c in (a, guest):
        assert c.get("/api/moderation").status_code == 403
        assert c.get("/moderation").status_code == 403
        r = act(c, action="mute", player=pa["id"], hours=1)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_moderator"
    mod = moderator(server)
    assert mod.get("/moderation").status_code == 200
    assert mod.get("/api/account/profile").json()["moderator"] is True
    assert a.get("/api/account/profile").json()["moderator"] is False


def test_a_muted_player_is_refused_at_every_table_until_the_mute_ends(
        server: Server) -> None:
    moderation = server.app.state.moderation
    a, _ = account(server)
    b, pb = account(server)
    one, _, tb1 = table_of(a, b)
    two, _, tb2 = table_of(a, b)
    bot = post(a, "/api/reports", {"table": one, "seat": 2, "reason": "abuse"})
    assert bot.status_code == 400 and bot.json()["error"]["code"] == "no_such_seat"
    rude = post(a, "/api/reports", {"table": one, "seat": 1, "reason": "abuse",
                                    "text": "он сука"})
    assert rude.status_code == 400 and rude.json()["error"]["code"] == "filtered"
    r = post(a, "/api/reports", {"table": one, "seat": 1, "reason": "abuse"})
    assert r.status_code == 201, r.text
    mod = moderator(server)
    done = act(mod, action="mute", report=r.json()["id"], hours=2)
    assert done.status_code == 200, done.text
    assert all(x["id"] != r.json()["id"] for x in page(mod)["reports"])  # handled
    for table, token in ((one, tb1), (two, tb2)):
        refused = chat(server, table, token, 1, "привет")
        assert refused["type"] == "error" and refused["code"] == "chat_muted"
        assert refused["params"]["until"] > time.time() + 3600
    try:  # two hours and a minute later
        moderation.now = lambda: time.time() + 7260
        assert chat(server, two, tb2, 1, "я снова здесь")["type"] == "chat"
    finally:
        moderation.now = time.time
    line = page(mod)["log"][0]
    assert (line["action"], line["player_id"], line["detail"]) == ("mute", pb["id"], "2 h")
    assert line["report"] == r.json()["id"] and line["moderator"].startswith("Модератор")


def test_a_hidden_name_is_neutral_everywhere_and_its_player_still_signs_in(
        server: Server) -> None:
    a, pa = account(server)
    b, _ = account(server)
    table, _, _ = table_of(a, b)
    mod = moderator(server)
    assert act(mod, action="hide", player=pa["id"]).status_code == 200
    shown = server.get(f"/api/players/{pa['id']}").json()["player"]["name"]
    assert shown.startswith("игрок ") and shown != pa["name"]
    assert server.get(f"/api/tables/{table}").json()["seats"][0]["name"] == shown
    again = signin(server, pa["name"])
    assert me(again)["player"] == {**pa, "name": shown}
    line = page(mod)["log"][0]
    assert line["action"] == "hide" and line["player"] == pa["name"]
    assert line["detail"] == f"→ {shown}" and line["report"] is None


def test_a_closed_account_loses_its_sessions_and_cannot_sign_in(server: Server) -> None:
    a, pa = account(server)
    mod = moderator(server)
    r = post(a, "/api/reports", {"player": pa["id"], "reason": "other"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "self_report"
    assert post(client(server), "/api/reports",
                {"player": pa["id"], "reason": "name"}).status_code == 401
    assert act(mod, action="close", player=pa["id"]).status_code == 200
    assert me(a)["player"]["id"] != pa["id"]  # the old cookie is no session: a new guest
    r = post(client(server), "/api/account/signin",
             {"name": pa["name"], "password": "correct horse"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_closed"
    assert page(mod)["log"][0]["action"] == "close"
    # dismissing a report changes nothing but the report, and is logged too
    c, pc = account(server)
    made = post(c, "/api/reports", {"player": moderator_name(server), "reason": "spam"})
    assert made.status_code == 201, made.text
    assert act(mod, action="dismiss", report=made.json()["id"]).status_code == 200
    assert page(mod)["log"][0]["action"] == "dismiss"
    assert act(mod, action="mute", player=pc["id"], hours=0).status_code == 400
    assert act(mod, action="mute", report=10**6, hours=1).status_code == 404


def moderator_name(server: Server) -> str:
    return rows.moderators(server.app.state.moderation.store)[0]


def test_the_word_filter_refuses_default_and_operator_words(server: Server) -> None:
    """Refused, not masked: the sender is told (``filtered``, both languages)."""
    a, _ = account(server)
    b, _ = account(server)
    table, ta, _ = table_of(a, b)
    for text in ("ну ты и бляха муха, сука", "Fucking cards", f"какой {OPERATOR_WORD}!",
                 "редиска ты", "xуй"):  # the last with a Latin x
        refused = chat(server, table, ta, 0, text)
        assert refused["type"] == "error" and refused["code"] == "filtered", text
    assert chat(server, table, ta, 0, "сукно и хлеба, shitake")["type"] == "chat"


def test_the_filter_reads_its_lists() -> None:
    words = ChatFilter.of(["бля", "ебан*", "shit"])
    assert words.matches("Бля!") and words.matches("ЕБАНЫЙ") and words.matches("Shit.")
    assert not words.matches("бляха") and not words.matches("shitake")
    default = load()
    assert default.matches("пиздец") and default.matches("ёбаный")
    assert not default.matches("потребляю хлеба, сукно")
    with pytest.raises(FilterFileError):
        load("/nonexistent/words.txt")


def test_the_admin_command_grants_lists_and_revokes(server: Server,
                                                      tmp_path: Path) -> None:
    from test_fuzz_replay import invoke

    db = f"sqlite:///{tmp_path / 'admin.db'}"
    store = Store(db)
    with store.engine.begin() as conn:
        conn.execute(sa.text("INSERT INTO players (id, kind, name, name_key, seat_secret, "
                             "created) VALUES ('p_1', 'account', 'Вера', :key, 's', 0)"),
                     {"key": name_key("Вера")})
    store.close()
    code, out, _err, _ = invoke(["admin", "list-moderators", "--db", db])
    assert code == 0 and out.strip() == "no moderators"
    code, out, _err, _ = invoke(["admin", "grant-moderator", "ВЕРА", "--db", db])
    assert code == 0 and out.strip() == "Вера is a moderator"
    code, out, _err, _ = invoke(["admin", "list-moderators", "--db", db, "--lang", "ru"])
    assert code == 0 and out.strip() == "Вера"
    code, _out, err, _ = invoke(["admin", "grant-moderator", "Никто", "--db", db])
    assert code == 1 and "Никто" in err
    code, out, _err, _ = invoke(["admin", "revoke-moderator", "Вера", "--db", db,
                                 "--lang", "ru"])
    assert code == 0 and out.strip() == "Вера больше не модератор"
    store = Store(db)
    assert rows.moderators(store) == []
    store.close()


def test_a_profile_has_a_country_and_plain_text_about_within_limits(
        server: Server) -> None:
    a, pa = account(server)
    about = "Играю с 1985 года.\n<b>не разметка</b> & «кавычки»"
    r = post(a, "/api/account/profile", {"country": "ru", "about": about})
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["country"], got["about"], got["moderator"]) == ("RU", about, False)
    assert "RU" in got["countries"] and len(got["countries"]) == 249
    for body, field in (({"country": "XX"}, "country"), ({"about": "я" * 301}, "about"),
                        ({"about": "a\u202eb"}, "about"), ({"about": "я кабачок"}, "about")):
        r = post(a, "/api/account/profile", body)
        assert r.status_code == 400 and r.json()["error"]["field"] == field, (body, r.text)
    assert len(post(a, "/api/account/profile", {"about": "я" * 300}).json()["about"]) == 300
    post(a, "/api/account/profile", {"country": "ru", "about": about})
    guest = client(server)
    me(guest)
    assert post(guest, "/api/account/profile", {"country": "RU"}).status_code == 401
    # his page: the profile, the rated games he abandoned, the clocks he played
    b, _ = account(server)
    table, _, _ = table_of(a, b)
    store = Store(server.db_url)
    with store.engine.begin() as conn:
        conn.execute(seats_t.update().where(seats_t.c.table_id == table, seats_t.c.seat == 0)
                     .values(abandoned=True))
    store.close()
    shown = server.get(f"/api/players/{pa['name']}").json()
    assert (shown["country"], shown["about"], shown["abandoned"]) == ("RU", about, 1)
    assert shown["clocks"] == [] and shown["time_controls"] == []
    # two finished games with game clocks (a category's and a table's own), each named
    # once, shortest first, as they stood after the last move
    store = Store(server.db_url)
    for (base, increment), left in (((900.0, 5.0), 12.5), ((300.0, 3.0), 40.0),
                                    ((300.0, 3.0), 7.0)):
        done, _, _ = table_of(a, b)
        clock = {"base": base, "increment": increment, "left": [left] * 3, "missed": [0] * 3}
        with store.engine.begin() as conn:
            conn.execute(tables_t.update().where(tables_t.c.id == done)
                         .values(status="over", game_clock=json.dumps(clock)))
    store.close()
    shown = server.get(f"/api/players/{pa['name']}").json()
    assert shown["time_controls"] == [
        {"base": 300.0, "increment": 3.0, "category": "fast"},
        {"base": 900.0, "increment": 5.0, "category": None}]
    post(a, "/api/account/profile", {})
    assert server.get(f"/api/players/{pa['id']}").json()["country"] is None
