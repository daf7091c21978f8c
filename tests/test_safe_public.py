"""Issue 27, "Safe in public" (docs/server.md "Players", "Security", "Unlisted tables"):
names that cannot be faked, no hand before a quick-play table is full, requests from other
sites refused, the CSRF token bound to the session, JSON said to be JSON, the WebSocket's
origin, unlisted tables watched with their link only, common passwords refused — against a
real server (Uvicorn in a thread, SQLite, httpx and real WebSockets)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from http_client import HTTP
from test_server import Server
from waiting import until

PASSWORD = "correct horse"
#: Each way the issue found of making a second «Anna» that reads as the first.
INVISIBLE = {
    "zero-width space": "An\u200bna", "zero-width joiner": "An\u200dna",
    "zero-width non-joiner": "An\u200cna", "soft hyphen": "An\u00adna",
    "Hangul filler": "Anna\u3164", "braille blank": "Anna\u2800",
    "tag character": "Anna\U000e0041", "left-to-right mark": "\u200eAnna",
    "right-to-left mark": "Anna\u200f", "word joiner": "An\u2060na",
}
#: Names that look like «Anna» (or «Pope») in other alphabets.
LOOK_ALIKE = {"Greek Α": "Αnna", "Cherokee Ꭺ": "Ꭺnna", "Armenian ո": "Aոոa",
              "Cyrillic А": "Аnna", "Greek capitals": "ΑΝΝΑ"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("safe") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.2) as s:
        yield s


def browser(server: Server) -> httpx.Client:
    """A browser's session (a guest), sending its CSRF token as the pages do."""
    c = httpx.Client(base_url=server.base, timeout=30)
    assert c.get("/api/me").status_code == 200
    c.headers["X-CSRF-Token"] = c.cookies["thousand_csrf"]
    return c


def signed_up(server: Server, name: str) -> httpx.Client:
    c = browser(server)
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.headers["X-CSRF-Token"] = c.cookies["thousand_csrf"]
    return c


def error(r: httpx.Response, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()["error"]
    return body


@pytest.fixture(scope="module")
def anna(server: Server) -> httpx.Client:
    return signed_up(server, "Anna")


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize("how", sorted(INVISIBLE))
def test_an_invisible_character_makes_no_name(server: Server, anna: httpx.Client,
                                              how: str) -> None:
    name = INVISIBLE[how]
    r = HTTP.post(server.base + "/api/account/signup",
                   json={"name": name, "password": PASSWORD}, timeout=30)
    assert error(r, 400)["code"] == "bad_name", how
    guest = browser(server)
    assert error(guest.post("/api/me/name", json={"name": name}), 400)["code"] == "bad_name"
    r = guest.post("/api/quickplay", json={"preset": "classic", "name": name})
    assert error(r, 400)["code"] == "bad_request"
    r = HTTP.post(server.base + "/api/tables", json={"seats": [
        {"kind": "human", "name": name}, {"kind": "bot"}, {"kind": "bot"}]}, timeout=30)
    assert error(r, 400)["code"] == "bad_request"


@pytest.mark.parametrize("how", sorted(LOOK_ALIKE))
def test_a_look_alike_is_the_same_name(server: Server, anna: httpx.Client, how: str) -> None:
    name = LOOK_ALIKE[how]
    r = HTTP.post(server.base + "/api/account/signup",
                   json={"name": name, "password": PASSWORD}, timeout=30)
    assert r.status_code in (400, 409), (how, r.text)  # mixed alphabets, or taken
    assert r.json()["error"]["code"] in ("bad_name", "name_taken")
    r = browser(server).post("/api/me/name", json={"name": name})
    assert r.status_code in (400, 409), (how, r.text)


def test_one_alphabet_look_alikes_share_a_key(server: Server) -> None:
    signed_up(server, "Pope")
    for name in ("Роре", "ΡΟΡΕ", "POPE", "pope"):  # Cyrillic, Greek capitals, Latin
        r = HTTP.post(server.base + "/api/account/signup",
                       json={"name": name, "password": PASSWORD}, timeout=30)
        assert error(r, 409)["code"] == "name_taken", name


def test_a_guest_cannot_sit_under_an_account_s_name(server: Server) -> None:
    owner = signed_up(server, "Пётр_Т")
    guest = browser(server)
    for name in ("Пётр_Т", "пётр_т", "ПЁТР_Т"):
        err = error(guest.post("/api/me/name", json={"name": name}), 409)
        assert err["code"] == "name_taken" and "войдите" in err["ru"]
        r = guest.post("/api/quickplay", json={"preset": "classic", "name": name})
        assert error(r, 409)["code"] == "name_taken"
        r = guest.post("/api/tables", json={"seats": [
            {"kind": "human", "name": name}, {"kind": "bot"}, {"kind": "bot"}]})
        assert error(r, 409)["code"] == "name_taken"
    # nor at a table laid by somebody else
    laid = HTTP.post(server.base + "/api/tables", json={"seats": [
        {"kind": "human", "name": "Хозяин"}, {"kind": "human"}, {"kind": "bot"}]},
        timeout=30).json()
    r = guest.post(f"/api/tables/{laid['table']}/seats/1", json={"name": "Пётр_Т"})
    assert error(r, 409)["code"] == "name_taken"
    # the account sits under his own name, whatever his request says
    r = owner.post(f"/api/tables/{laid['table']}/seats/1", json={"name": "Anna"})
    assert r.status_code == 200, r.text
    seats = HTTP.get(f"{server.base}/api/tables/{laid['table']}", timeout=30).json()["seats"]
    assert seats[1]["name"] == "Пётр_Т"


def test_a_common_password_or_one_s_own_name_is_refused(server: Server) -> None:
    for password in ("password", "12345678", " " * 8, "qwertyuiop", "aaaaaaaa",
                     "Password"):
        r = HTTP.post(server.base + "/api/account/signup",
                       json={"name": "Осторожный", "password": password}, timeout=30)
        err = error(r, 400)
        assert err["code"] == "bad_password" and "пар" in err["ru"], password
    r = HTTP.post(server.base + "/api/account/signup",
                   json={"name": "Осторожный", "password": "осторожный-1"}, timeout=30)
    assert "name" in error(r, 400)["message"]


# --------------------------------------------------------------------------- requests


def test_the_csrf_token_is_the_session_s(server: Server) -> None:
    one, two = browser(server), browser(server)
    assert one.cookies["thousand_csrf"] != two.cookies["thousand_csrf"]
    r = one.post("/api/me/name", json={"name": "Первый"})
    assert r.status_code == 200, r.text
    # another session's token (or a cookie planted beside it) is no token of this one
    r = one.post("/api/me/name", json={"name": "Первый"},
                 headers={"X-CSRF-Token": two.cookies["thousand_csrf"]})
    assert error(r, 403)["code"] == "csrf"
    planted = httpx.Client(base_url=server.base, timeout=30,
                           cookies={"thousand_session": one.cookies["thousand_session"],
                                    "thousand_csrf": "planted"})
    r = planted.post("/api/me/name", json={"name": "Первый"},
                     headers={"X-CSRF-Token": "planted"})
    assert error(r, 403)["code"] == "csrf"


def test_another_site_s_page_cannot_change_anything(server: Server) -> None:
    c = browser(server)
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Sec-Fetch-Site": "same-site"},
                    {"Origin": f"https://127.0.0.1:{server.port}"}):
        r = c.post("/api/me/name", json={"name": "Жертва"}, headers=headers)
        err = error(r, 403)
        assert err["code"] == "cross_site" and err["ru"], headers
        # with no session either (a cross-site form would lay tables in the name of
        # whoever's browser it runs in)
        r = HTTP.post(server.base + "/api/tables", json={}, headers=headers, timeout=30)
        assert error(r, 403)["code"] == "cross_site", headers
    for headers in ({"Origin": server.base}, {"Sec-Fetch-Site": "same-origin"}):
        assert c.post("/api/me/name", json={"name": "Свой"},
                      headers=headers).status_code == 200


def test_json_is_said_to_be_json(server: Server) -> None:
    c = browser(server)
    for kind in (None, "text/plain", "application/x-www-form-urlencoded"):
        headers = {"X-CSRF-Token": c.cookies["thousand_csrf"]}
        if kind is not None:
            headers["Content-Type"] = kind
        r = c.post("/api/me/name", content=b'{"name": "Beacon"}', headers=headers)
        assert error(r, 415)["code"] == "unsupported_media_type", kind


def test_the_pages_carry_a_content_security_policy(server: Server) -> None:
    for path in ("/", "/account", "/api/rules"):
        csp = server.get(path).headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp


# --------------------------------------------------------------------------- sockets


async def _first(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return msg


async def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The socket's next message of type ``kind`` (the seats' news may come between)."""
    deadline = time.monotonic() + 30
    while True:
        msg = await _first(ws)
        if msg["type"] == kind:
            return msg
        assert time.monotonic() < deadline, f"no {kind}"


def test_the_socket_s_origin_must_match_in_scheme_host_and_port(server: Server) -> None:
    laid = HTTP.post(server.base + "/api/tables", json={}, timeout=30).json()

    async def main() -> None:
        for origin in (f"https://127.0.0.1:{server.port}", "http://127.0.0.1:1",
                       "http://localhost.evil.example"):
            with pytest.raises(websockets.InvalidStatus):
                await websockets.connect(server.ws_url(laid["table"]), origin=origin,
                                         ping_interval=None)
        ws = await websockets.connect(server.ws_url(laid["table"]), origin=server.base,
                                      ping_interval=None)
        assert (await _first(ws))["type"] == "snapshot"
        await ws.close()

    asyncio.run(main())


def test_an_unlisted_table_is_watched_with_its_link_only(server: Server) -> None:
    laid = HTTP.post(server.base + "/api/tables", json={"open": False}, timeout=30).json()
    url = server.ws_url(laid["table"])

    async def main() -> None:
        ws = await websockets.connect(url, ping_interval=None, subprotocols=["thousand"])
        assert (await _first(ws))["code"] == "invite_needed"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        wrong = ["thousand", "invite.wrong"]
        ws = await websockets.connect(url, ping_interval=None, subprotocols=wrong)
        assert (await _first(ws))["code"] == "invite_needed"
        await ws.close()
        given = ["thousand", f"invite.{laid['invite']}"]
        ws = await websockets.connect(url, ping_interval=None, subprotocols=given)
        assert (await _first(ws))["type"] == "snapshot"
        await ws.close()

    asyncio.run(main())


def test_a_signed_out_browser_holds_no_seat(server: Server) -> None:
    """A seat's token kept by a browser whose session ended (signed out here or
    everywhere) holds no seat there; a program (no session cookie) still plays by it."""
    c = signed_up(server, "Ушедший")
    laid = c.post("/api/tables", json={}).json()
    cookie = f"thousand_session={c.cookies['thousand_session']}"
    assert c.post("/api/account/signout-everywhere").status_code == 200

    async def main() -> None:
        ws = await websockets.connect(server.ws_url(laid["table"], laid["token"]),
                                      additional_headers={"Cookie": cookie},
                                      ping_interval=None)
        assert (await _first(ws))["code"] == "bad_token"
        await ws.close()
        ws = await websockets.connect(server.ws_url(laid["table"], laid["token"]),
                                      ping_interval=None)
        snap = await _first(ws)
        assert snap["type"] == "snapshot" and snap["seat"] == laid["seat"]
        await ws.close()

    asyncio.run(main())


def test_a_waiting_quick_play_table_shows_no_card(server: Server) -> None:
    """While a quick-play table waits, its first player sees no hand (nor a deal event
    with cards): leaving and asking again could otherwise pick a hand.  When it fills,
    every seat gets its own view."""
    first = browser(server)
    got = first.post("/api/quickplay", json={"preset": "classic", "clock": 37,
                                             "name": "Первый"}).json()
    url = server.ws_url(got["table"], got["token"])

    def cards_in(msg: dict[str, Any]) -> bool:
        text = json.dumps(msg.get("view", {})) + json.dumps(msg.get("events", []))
        return msg.get("view", {}).get("hand") is not None or '"hand"' in json.dumps(
            msg.get("events", [])) or any(f'"{c}"' in text for c in ("AS", "TS", "KS"))

    async def main() -> None:
        ws = await websockets.connect(url, ping_interval=None)
        snap = await _first(ws)
        assert snap["type"] == "snapshot" and snap["status"] == "waiting"
        assert snap["seat"] == got["seat"] and not cards_in(snap)
        await ws.send(json.dumps({"type": "sync", "version": -1}))
        synced = await _next(ws, "events")
        assert not cards_in(synced) and synced["events"]
        for name in ("Второй", "Третий"):
            r = browser(server).post("/api/quickplay", json={
                "preset": "classic", "clock": 37, "name": name})
            assert r.json()["table"] == got["table"], r.text
        msg = await _next(ws, "snapshot")  # after the seats' news, its own view at last
        assert msg["status"] == "playing" and len(msg["view"]["hand"]) >= 7
        await ws.close()

    asyncio.run(main())


def test_leaving_a_rated_game_after_the_deal_loses_it(server: Server) -> None:
    """A rated quick-play game (a person and bots): its snapshot says it is rated; the
    person leaves after the deal, a bot plays his seat out, his token holds it no more,
    and the rating places him last."""
    c = browser(server)
    got = c.post("/api/quickplay", json={"preset": "classic", "name": "Беглец",
                                         "bots_after": 0, "bot_level": "heuristic"}).json()
    table = got["table"]
    until(lambda: HTTP.get(f"{server.base}/api/tables/{table}", timeout=30).json()[
        "status"] == "playing", 30, "the bots came")

    async def snapshot() -> dict[str, Any]:
        ws = await websockets.connect(server.ws_url(table, got["token"]), ping_interval=None)
        try:
            msg = await _first(ws)
            while msg["type"] not in ("snapshot", "error"):
                msg = await _first(ws)
            return msg
        finally:
            await ws.close()

    assert asyncio.run(snapshot())["rated"] is True
    r = c.post(f"/api/tables/{table}/leave", json={"token": got["token"]})
    assert r.status_code == 200, r.text
    assert asyncio.run(snapshot())["type"] == "error"  # bad_token: the seat is not his
    info = until(lambda: (got := HTTP.get(f"{server.base}/api/tables/{table}",
                                           timeout=30).json())["ratings"] and got,
                 what="the bots played the game out", every=0.2)
    mine = next(ch for ch in info["ratings"] if ch["seat"] == got["seat"])
    assert mine["delta"] < 0, info["ratings"]  # last, below both bots


# --------------------------------------------------------------------------- /metrics


def test_metrics_are_not_served_to_the_internet(tmp_path: Path) -> None:
    from live_server import serve

    with serve(tmp_path, "--trusted-proxy", "127.0.0.1") as base:
        assert HTTP.get(base + "/metrics", timeout=30).status_code == 200  # loopback
        for address in ("203.0.113.9", "8.8.8.8"):
            r = HTTP.get(base + "/metrics", headers={"X-Forwarded-For": address},
                          timeout=30)
            assert r.status_code == 404, address
        r = HTTP.get(base + "/metrics", headers={"X-Forwarded-For": "10.1.2.3"}, timeout=30)
        assert r.status_code == 200
