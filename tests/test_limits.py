"""docs/server.md "Limits": one client over its limit is refused (HTTP 429 with
``Retry-After``, a WebSocket error ``rate_limited`` with the seconds to wait, the
connection kept) while everybody else plays on; chat is limited in length and rate, and a
player may mute another at his table.

Against a real ``thousand serve`` (tests/live_server.py) with the default limits, behind
``--trusted-proxy 127.0.0.1``: each test's clients are told apart by the address their
``X-Forwarded-For`` gives, as a reverse proxy would.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from starlette.requests import Request

import needs
from http_client import HTTP
from live_server import serve
from test_browser import _page, browser
from thousand.server.caps import CAPS
from thousand.server.limits import (
    LIMITS,
    Limiter,
    LimitError,
    RateLimited,
    parse_caps,
    parse_overrides,
)

__all__ = ["browser"]  # the fixture, shared with test_browser.py

Msg = dict[str, Any]
BOTS = [{"kind": "human", "name": "Анна"}, {"kind": "bot"}, {"kind": "bot"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("limits"), "--trusted-proxy", "127.0.0.1",
               "--bot-delay", "0", limited=True) as base:
        yield base


def ws_url(base: str, table: str, token: str | None = None) -> str:
    return base.replace("http", "ws", 1) + f"/ws/{table}" + (f"?token={token}" if token
                                                             else "")


class Socket:
    """A table WebSocket from one address (``X-Forwarded-For``)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    @classmethod
    async def open(cls, base: str, table: str, token: str | None, address: str) -> Socket:
        ws = await websockets.connect(ws_url(base, table, token), ping_interval=None,
                                      additional_headers={"X-Forwarded-For": address})
        return cls(ws)

    async def send(self, message: Msg) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 20.0) -> Msg:
        msg: Msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        return msg

    async def expect(self, *types: str, timeout: float = 20.0) -> Msg:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] in types:
                return msg

    async def snapshot(self) -> Msg:
        """The table's snapshot; asked again, as a page would, after the wait a refusal
        for the rate (``sync``) names."""
        while True:
            await self.send({"type": "snapshot"})
            reply = await self.expect("snapshot", "error")
            if reply["type"] == "snapshot":
                return reply
            if reply.get("code") == "rate_limited":
                await asyncio.sleep(reply["params"]["seconds"])


async def lay(client: httpx.AsyncClient, seats: list[Msg], **body: Any) -> Msg:
    r = await client.post("/api/tables", json={"seats": seats, **body})
    assert r.status_code == 201, r.text
    out: Msg = r.json()
    return out


async def play_out(base: str, table: str, token: str, address: str) -> Msg:
    """Play the seat's legal moves until the game is over; a refusal for the rate is
    waited out as a client should.  The last snapshot."""
    sock = await Socket.open(base, table, token, address)
    try:
        while True:
            snap = await sock.snapshot()
            if snap["over"]:
                return snap
            view = snap["view"]
            if view["to_move"] != snap["seat"]:
                await sock.expect("events")
                continue
            await sock.send({"type": "move", "move": view["legal"][0],
                             "version": snap["version"]})
            reply = await sock.expect("events", "error")
            if reply["type"] == "error" and reply["code"] == "rate_limited":
                await asyncio.sleep(reply["params"]["seconds"])
    finally:
        await sock.ws.close()


def test_a_flood_of_tables_is_refused_while_another_player_plays_a_deal(server: str) -> None:
    """One client lays tables as fast as it can (40 at once): the limit lets 10 through,
    the rest are 429 with ``Retry-After`` and words in the asker's language; meanwhile a
    player from another address lays a table and plays a whole game of one deal with
    two bots."""
    per_client = int(LIMITS["table"].client.split("/")[0])

    async def main() -> tuple[list[httpx.Response], httpx.Response, Msg]:
        flood = httpx.AsyncClient(base_url=server, headers={"X-Forwarded-For": "10.0.0.1"})
        other = httpx.AsyncClient(base_url=server, headers={"X-Forwarded-For": "10.0.0.2"})
        async with flood, other:
            async def player() -> Msg:
                laid = await lay(other, BOTS, options={"max_deals": 1})
                return await play_out(server, laid["table"], laid["token"], "10.0.0.2")

            flooding = asyncio.gather(*(flood.post("/api/tables", json={"seats": BOTS})
                                        for _ in range(40)))
            rs, last = await asyncio.gather(flooding, player())
            english = await flood.post("/api/tables", json={"seats": BOTS},
                                       headers={"Accept-Language": "en-GB,en;q=0.9"})
            return list(rs), english, last

    rs, english, last = asyncio.run(main())
    codes = [r.status_code for r in rs]
    assert codes.count(201) == per_client and codes.count(429) == 40 - per_client, codes
    for r in rs:
        if r.status_code == 429:
            error = r.json()["error"]
            assert error["code"] == "rate_limited" and error["limit"] == "table"
            assert 1 <= int(r.headers["retry-after"]) <= 60
            assert error["seconds"] == int(r.headers["retry-after"])
            assert error["message"].startswith("Вы создаёте столы слишком часто")
    assert english.status_code == 429
    assert english.json()["error"]["message"].startswith("You are laying tables too often")
    assert last["over"] and last["status"] == "over"


def test_without_a_trusted_proxy_no_client_picks_its_address(tmp_path: Path) -> None:
    """Without ``--trusted-proxy`` an ``X-Forwarded-For`` is believed from nobody (uvicorn
    would believe it from 127.0.0.1): a client that names a new address in every request
    is still one client and is refused after its limit."""
    with serve(tmp_path, "--limit", "table=3/minute", limited=True) as base:
        codes = [HTTP.post(base + "/api/tables", json={"seats": BOTS},
                            headers={"X-Forwarded-For": f"10.9.0.{i}"}).status_code
                 for i in range(5)]
    assert codes == [201] * 3 + [429] * 2, codes


def test_chat_length_rate_and_mute(server: str) -> None:
    """A chat line over 200 characters is refused; more than 5 lines in 10 seconds are
    refused with ``rate_limited`` and the seconds to wait, the connection kept (its next
    snapshot comes); a muted player's lines reach everybody but the one who muted him,
    now and in his next snapshot, until he unmutes."""
    people = [{"kind": "human", "name": "Анна"}, {"kind": "human", "name": "Борис"},
              {"kind": "bot"}]

    async def main() -> None:
        a_http = httpx.AsyncClient(base_url=server, headers={"X-Forwarded-For": "10.0.1.1"})
        b_http = httpx.AsyncClient(base_url=server, headers={"X-Forwarded-For": "10.0.1.2"})
        async with a_http, b_http:
            laid = await lay(a_http, people)
            table = laid["table"]
            r = await b_http.post(f"/api/tables/{table}/seats/1", json={"name": "Борис"})
            assert r.status_code == 200, r.text
            b_token = r.json()["token"]
        a = await Socket.open(server, table, laid["token"], "10.0.1.1")
        b = await Socket.open(server, table, b_token, "10.0.1.2")
        watcher = await Socket.open(server, table, None, "10.0.1.3")

        await a.send({"type": "chat", "text": "x" * 201})
        assert (await a.expect("error"))["code"] == "malformed"

        await b.send({"type": "mute", "seat": 0})
        assert (await b.expect("muted"))["seats"] == [0]
        await a.send({"type": "chat", "text": "тихо"})
        assert (await watcher.expect("chat"))["text"] == "тихо"
        await b.send({"type": "chat", "text": "я здесь"})
        heard = await b.expect("chat")
        assert heard["seat"] == 1, f"a muted line reached the one who muted: {heard}"
        again = await Socket.open(server, table, b_token, "10.0.1.2")
        snap = await again.expect("snapshot")
        assert snap["muted"] == [0]
        assert [c["text"] for c in snap["chat"]] == ["я здесь"]
        await again.ws.close()

        await b.send({"type": "unmute", "seat": 0})
        assert (await b.expect("muted"))["seats"] == []
        await a.send({"type": "chat", "text": "снова слышно"})
        assert (await b.expect("chat"))["text"] == "снова слышно"

        # 3 lines of 5 spent: of 6 more, 2 are said and 4 refused for the rate
        for i in range(6):
            await a.send({"type": "chat", "text": f"строка {i}"})
        said: list[Msg] = []
        refused: list[Msg] = []
        while len(said) + len(refused) < 6:
            msg = await a.expect("chat", "error")
            if msg["type"] == "error":
                refused.append(msg)
            elif msg["text"].startswith("строка"):  # not the lines said before
                said.append(msg)
        # (under a slow machine the first lines may have left the 10-second window)
        assert [m["text"] for m in said] == [f"строка {i}" for i in range(len(said))]
        assert 2 <= len(said) <= 5 and refused
        for m in refused:
            assert m["code"] == "rate_limited" and m["params"]["limit"] == "chat"
            assert 1 <= m["params"]["seconds"] <= 10
        assert (await a.snapshot())["id"] == table  # the connection is kept
        await b.send({"type": "chat", "text": "а я могу"})  # others talk on
        while (await watcher.expect("chat"))["text"] != "а я могу":
            pass
        for s in (a, b, watcher):
            await s.ws.close()

    asyncio.run(main())


def test_moves_and_hints_over_their_rate_are_refused(server: str) -> None:
    """Moves sent faster than 10 a second, and hints asked for faster than 20 a minute,
    are refused with ``rate_limited``; the table still answers the connection."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server,
                                     headers={"X-Forwarded-For": "10.0.2.1"}) as client:
            laid = await lay(client, BOTS)
        sock = await Socket.open(server, laid["table"], laid["token"], "10.0.2.1")
        for _ in range(15):
            await sock.send({"type": "move", "move": "pass", "version": 10**6})
        moves = [await sock.expect("error") for _ in range(15)]
        for _ in range(25):
            await sock.send({"type": "hint"})
        hints = [await sock.expect("error", "hint") for _ in range(25)]
        assert moves[0]["code"] != "rate_limited"
        limited = [m for m in moves if m["code"] == "rate_limited"]
        assert len(limited) >= 5 and all(m["params"]["limit"] == "move" for m in limited)
        assert sum(1 for m in hints if m.get("code") == "rate_limited") >= 5
        assert (await sock.snapshot())["id"] == laid["table"]
        await sock.ws.close()

    asyncio.run(main())


def test_a_flood_of_sign_in_attempts_is_slowed(server: str) -> None:
    """Wrong passwords for one name from one address: five are answered (401), then 429
    with ``Retry-After`` — but not from another address, since the failures count per
    name *and* address (nobody locks another out: docs/server.md "Limits"); a sign-up
    flood from one address is refused the same way."""
    wrong = {"name": "Анна", "password": "неверный пароль"}
    with httpx.Client(base_url=server, headers={"X-Forwarded-For": "10.0.3.1"},
                      timeout=30) as one, \
            httpx.Client(base_url=server, headers={"X-Forwarded-For": "10.0.3.2"},
                         timeout=30) as two:
        codes = [one.post("/api/account/signin", json=wrong).status_code for _ in range(6)]
        assert codes == [401] * 5 + [429], codes
        refused = one.post("/api/account/signin", json=wrong)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"]["message"].startswith("Слишком много неверных")
        assert two.post("/api/account/signin", json=wrong).status_code == 401
        made = []
        for i in range(6):
            two.cookies.clear()  # each a new visitor of that address
            made.append(two.post("/api/account/signup", json={
                "name": f"игрок{i}", "password": "пароль-длинный"}).status_code)
    assert made == [201] * 5 + [429], made


def _request(address: str) -> Request:
    return Request({"type": "http", "method": "POST", "path": "/", "headers": [],
                    "client": (address, 5000), "query_string": b""})


def test_wrong_passwords_are_counted_per_name_and_address_and_per_address() -> None:
    """``server/features/guesses.py``: a wrong password counts against its name from its address
    (five a minute) and against its address (twenty a minute, whatever the names), and
    only a failure counts: asking first (``Limiter.test``) counts nothing."""

    async def main() -> None:
        limiter = Limiter()
        for _ in range(10):  # asked, never failed: nothing counted
            assert await limiter.test("signin", "анна@10.1.0.1", "10.1.0.1") is None
        for _ in range(5):
            assert await limiter.hit("signin", "анна@10.1.0.1", "10.1.0.1") is None
        wait = await limiter.test("signin", "анна@10.1.0.1", "10.1.0.1")
        assert wait is not None and 1 <= wait <= 60
        assert await limiter.test("signin", "анна@10.1.0.9", "10.1.0.9") is None
        for i in range(20):
            await limiter.hit("signin", f"{i}@10.2.0.1", "10.2.0.1")
        assert await limiter.test("signin", "ещё@10.2.0.1", "10.2.0.1") is not None

    asyncio.run(main())


def test_a_client_lays_only_so_many_tables_at_once() -> None:
    """The ``live`` limit counts a client's tables that are not over: at the limit a new
    one is refused (429), and a table that ends makes room again."""
    limiter = Limiter(limits=parse_overrides(["live=2"]))
    asker, live = _request("10.3.0.1"), {"t1", "t2"}

    async def lay(conn: Request) -> None:
        async with limiter.live_slots(conn, live.__contains__):
            pass

    async def main() -> None:
        limiter.laid_by(asker, "t1")
        limiter.laid_by(asker, "t2")
        with pytest.raises(RateLimited) as refused:
            await lay(asker)
        assert refused.value.limit == "live" and refused.value.status == 429
        await lay(_request("10.3.0.2"))  # another client
        live.discard("t1")  # that game ended
        await lay(asker)

    asyncio.run(main())


def test_workers_share_one_count_in_redis() -> None:
    """``--limits-storage redis://…``: two limiters (two workers) over one Redis count
    together — five chat lines in ten seconds between them, not five each."""
    import uuid

    needs.require("redis")
    who = f"test-{uuid.uuid4().hex}"

    async def main() -> list[int | None]:
        one, two = Limiter("redis://127.0.0.1:6379"), Limiter("redis://127.0.0.1:6379")
        return [await (one if i % 2 else two).hit("chat", who, who) for i in range(7)]

    waits = asyncio.run(main())
    assert waits[:5] == [None] * 5 and all(w is not None and 1 <= w <= 10 for w in waits[5:])


def test_limit_options_are_checked() -> None:
    """``--limit`` takes NAME=RATE, CLIENT|ADDRESS or off for a limit and NAME=N for a
    cap (each parser leaves the other's names alone), and says what is wrong with a bad
    one, in Russian and English (``thousand serve`` prints it in its ``--lang``).  The
    docs' table of them all: tests/test_limits_table.py."""
    specs = ["table=3/minute", "chat=off", "seat=1/second|5/second", "entries=24"]
    changed = parse_overrides(specs)
    assert (changed["table"].client, changed["table"].address) == ("3/minute", "3/minute")
    assert (changed["chat"].client, changed["chat"].address) == ("", "")
    assert (changed["seat"].client, changed["seat"].address) == ("1/second", "5/second")
    assert parse_caps(specs) == {**{name: cap.value for name, cap in CAPS.items()},
                                 "entries": 24}
    for bad, words in (("tablez=1/minute", "NAME one of"), ("table", "NAME=RATE"),
                       ("table=fast", "is not a rate"), ("live=1/minute", "is not a rate"),
                       ("tables=5", "--max-tables"), ("entries=0", "whole number"),
                       ("watchers=off", "whole number")):
        with pytest.raises(LimitError, match=words) as refused:
            parse_overrides([bad])
            parse_caps([bad])
        assert refused.value.text("ru").startswith(f"--limit {bad!r}: ")
        assert re.search("[а-я]", refused.value.text("ru"))
    cli = [sys.executable, "-c", "from thousand.cli import main; main()", "serve",
           "--no-browser", "--port", "0", "--db", "sqlite://", "--limit", "table=fast"]
    said = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert said.returncode == 2
    assert said.stderr.strip() == "ошибка: --limit 'table=fast': 'fast' — не частота " \
        "(например 10/minute;60/hour или off)", said.stderr


@pytest.mark.needs("chromium")
def test_the_table_page_mutes_and_unmutes_a_player(server: str, browser: Any) -> None:
    """On the table page a seated player hides another's chat with the «Скрыть» beside
    his line: his next line does not show, the chat says whose messages are hidden, and
    «Показать снова» brings the later ones back.  (Last in the module: Playwright's sync
    API keeps an event loop running in this thread from here on, so no test after it
    could use ``asyncio.run``.)"""
    from websockets.sync.client import connect

    people = [{"kind": "human", "name": "Анна"}, {"kind": "human", "name": "Борис"},
              {"kind": "bot"}]
    with httpx.Client(base_url=server, headers={"X-Forwarded-For": "10.0.4.1"}) as http:
        laid = http.post("/api/tables", json={"seats": people}).json()
        table = laid["table"]
        taken = http.post(f"/api/tables/{table}/seats/1", json={"name": "Борис"},
                          headers={"X-Forwarded-For": "10.0.4.2"}).json()
    page = _page(browser)
    page.goto(f"{server}/history")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"thousand.seat.{table}", json.dumps({"seat": 1, "token": taken["token"]})])
    page.goto(f"{server}/t/{table}")
    chat = page.locator("#chat")
    with connect(ws_url(server, table, laid["token"]),
                 additional_headers={"X-Forwarded-For": "10.0.4.1"}) as anna:
        anna.recv(timeout=10)
        anna.send(json.dumps({"type": "chat", "text": "первая"}))
        page.locator("#chat li", has_text="первая").wait_for()
        page.locator('#chat button.chat-mute[data-seat="0"]').click()
        page.locator("#chat .chat-muted", has_text="Анна").wait_for()
        anna.send(json.dumps({"type": "chat", "text": "вторая"}))
        page.fill("#chat-input", "моя")
        page.press("#chat-input", "Enter")
        page.locator("#chat li", has_text="моя").wait_for()
        assert "вторая" not in chat.inner_text()
        page.locator('#chat button.chat-unmute[data-seat="0"]').click()
        page.locator("#chat .chat-muted").wait_for(state="detached")
        anna.send(json.dumps({"type": "chat", "text": "третья"}))
        page.locator("#chat li", has_text="третья").wait_for()
    assert page.errors == []
    page.context.close()
