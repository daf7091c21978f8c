"""Issue 27 "Safe in public", part A (docs/server.md "Limits"): each finding of the review,
played again against a real ``thousand serve`` — and refused now, while everybody else
goes on.

The clients are told apart as the server tells them apart in public, by their address:
each binds its own loopback source address (127.0.0.2, 127.0.0.3, …; Linux routes all of
127.0.0.0/8 to the loopback), with no ``X-Forwarded-For`` and no ``--trusted-proxy``.
Small caps come from the server's own flags (``--max-tables``, ``--limit``), so that a
flood is short.  Nothing waits a fixed time before it looks: every wait polls with a
generous deadline.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from http_client import TLS
from live_server import serve, wait_over
from thousand.server.features.tournaments import MAX_ENTRIES
from thousand.server.store.analyses import fair_order

Msg = dict[str, Any]
BOTS = [{"kind": "human", "name": "Анна"}, {"kind": "bot"}, {"kind": "bot"}]
PASSWORD = "верный-пароль-1"


def addr(n: int) -> str:
    """The loopback address of client ``n``."""
    return f"127.0.0.{n}"


def client(base: str, n: int) -> httpx.Client:
    """An HTTP client whose connections leave from ``127.0.0.n``."""
    return httpx.Client(base_url=base, timeout=60,
                        transport=httpx.HTTPTransport(local_address=addr(n), verify=TLS))


def aclient(base: str, n: int) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=60,
                             transport=httpx.AsyncHTTPTransport(local_address=addr(n),
                                                                verify=TLS))


def post(c: httpx.Client, path: str, body: Msg | None = None) -> httpx.Response:
    """A POST with the CSRF header a page would send with its session."""
    return c.post(path, json=body if body is not None else {},
                  headers={"X-CSRF-Token": c.cookies.get("thousand_csrf") or ""})


def guest(base: str, n: int, name: str = "Гость") -> httpx.Client:
    """A new guest of address ``n`` with a name (a session, as a page makes one)."""
    c = client(base, n)
    assert c.get("/api/me").status_code == 200
    assert post(c, "/api/me/name", {"name": name}).status_code == 200
    return c


async def spectate(base: str, table: str, n: int) -> tuple[Any, Msg]:
    """A spectator's table WebSocket from the address 127.0.0.``n``, and the first
    message it got (a snapshot, or the refusal)."""
    url = base.replace("http", "ws", 1) + f"/ws/{table}"
    ws = await websockets.connect(url, ping_interval=None, close_timeout=1,
                                  local_addr=(addr(n), 0))
    first: Msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
    return ws, first


def server_pid(base: str) -> int:
    """The process of the ``thousand serve`` listening at ``base`` (its command line
    names the port)."""
    port = base.rsplit(":", 1)[1]
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in args and b"--port" in args and \
                args[args.index(b"--port") + 1] == port.encode():
            return int(proc.name)
    raise AssertionError(f"no thousand serve on port {port}")


def _status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    raise AssertionError(key)


def peak_growth_mb(pid: int, work: Any) -> float:
    """How far (MB) the process's resident memory rose above where it was while
    ``work()`` ran: its peak (``VmHWM``, reset first through ``clear_refs``) less its
    resident size before."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
    before = _status_kb(pid, "VmRSS")
    work()
    return (_status_kb(pid, "VmHWM") - before) / 1024


async def play_out(base: str, table: str, token: str, n: int) -> Msg:
    """Play the seat's first legal move each turn until the game is over, from address
    ``n``; a refusal for a rate is waited out as a page would.  The last snapshot."""
    url = base.replace("http", "ws", 1) + f"/ws/{table}?token={token}"
    async with websockets.connect(url, ping_interval=None, local_addr=(addr(n), 0)) as ws:
        async def ask(message: Msg, *types: str) -> Msg:
            await ws.send(json.dumps(message))
            while True:
                reply: Msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if reply["type"] == "error" and reply["code"] == "rate_limited":
                    await asyncio.sleep(reply["params"]["seconds"])
                    await ws.send(json.dumps(message))
                elif reply["type"] in types:
                    return reply

        while True:
            snap = await ask({"type": "snapshot"}, "snapshot")
            if snap["over"]:
                return snap
            view = snap["view"]
            if view["to_move"] != snap["seat"]:
                await asyncio.wait_for(ws.recv(), 60)  # something happened: look again
                continue
            await ask({"type": "move", "move": view["legal"][0],
                       "version": snap["version"]}, "events", "error")


# ---------------------------------------------------------------- 1. quick play


@pytest.fixture
def small(tmp_path: Path) -> Iterator[str]:
    """A server that holds 3 live tables, each address at most 3 (for one test)."""
    with serve(tmp_path, "--bot-delay", "0", "--max-tables", "3",
               "--limit", "live=3|3", limited=True) as base:
        yield base


def test_a_quick_play_flood_shuts_nobody_out(small: str) -> None:
    """Finding 1: one address floods quick play (120 requests, 8 at a time) while a player
    of another address lays a table and plays a whole deal with two bots.  The flood
    holds at most its 3 live tables (quick-play seats count) and is refused with 429;
    the server's cap (3 tables, all the flood's) does not shut the player out: the
    flood's idle tables end first (the flood itself meets only 503 at the cap), and his
    game is played to its end."""

    filled = asyncio.Event()  # the flood holds the server's three tables

    async def flood() -> list[httpx.Response]:
        async with aclient(small, 2) as c:
            gate = asyncio.Semaphore(8)
            seated = 0

            async def one() -> httpx.Response:
                nonlocal seated
                async with gate:
                    r = await c.post("/api/quickplay", json={"name": "Флуд"})
                seated += r.status_code == 200
                if seated >= 9:
                    filled.set()
                return r

            try:
                return list(await asyncio.gather(*(one() for _ in range(120))))
            finally:
                filled.set()

    async def player() -> Msg:
        async with aclient(small, 9) as c:
            await filled.wait()
            r = await c.post("/api/tables", json={"seats": BOTS,
                                                  "options": {"max_deals": 1}})
            assert r.status_code == 201, r.text
            laid: Msg = r.json()
            return await play_out(small, laid["table"], laid["token"], 9)

    async def main() -> tuple[list[httpx.Response], Msg]:
        results = await asyncio.gather(flood(), player())
        return results[0], results[1]

    answers, last = asyncio.run(main())
    codes = [r.status_code for r in answers]
    assert last["over"], "the player's game did not end"
    assert codes.count(200) <= 3 * 3 * 2, codes  # three tables of three, twice at most
    assert codes.count(429) >= 100, codes  # the rest: 503 at the cap, its own doing
    limits = {r.json()["error"]["limit"] for r in answers if r.status_code == 429}
    assert limits <= {"live", "quickplay"} and "live" in limits, limits


# ---------------------------------------------------------------- the default server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("public"), "--bot-delay", "0",
               "--limit", "guesses=10/hour", limited=True) as base:
        yield base


def test_a_tournament_takes_so_many_entries_and_its_start_counts(server: str) -> None:
    """Finding 3: 90 fresh guests of one address try to register for one tournament: the
    address makes only so many guests (``guest``), and registers only so often
    (``register``); more addresses fill it to its cap (409 ``full``, in both
    languages); and its guest creator cannot start it, since its 16 tables would pass his
    live tables (429 ``live``) — once a table in one request laid 20."""
    creator = guest(server, 30, "Устроитель")
    made = post(creator, "/api/tournaments", {"name": "Большой кубок", "rounds": 1})
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    codes = []
    with client(server, 31) as c:
        for i in range(90):
            c.cookies.clear()  # a fresh visitor every time
            if c.get("/api/me").status_code != 200:
                codes.append(429)
                continue
            codes.append(post(c, f"/api/tournaments/{tid}/register",
                              {"player_name": f"Наплыв {i}"}).status_code)
    entries = creator.get(f"/api/tournaments/{tid}").json()["players"]
    assert codes.count(200) == entries - 1 == 10, codes
    assert codes.count(429) >= 80, codes
    n = 200
    while entries < MAX_ENTRIES:  # other addresses, one guest each, until it is full
        r = post(guest(server, n, f"Игрок {n}"), f"/api/tournaments/{tid}/register")
        assert r.status_code == 200, r.text
        entries, n = entries + 1, n + 1
    full = post(guest(server, n, "Опоздавший"), f"/api/tournaments/{tid}/register")
    assert full.status_code == 409 and full.json()["error"]["code"] == "full"
    assert "участников" in full.json()["error"]["ru"]
    start = post(creator, f"/api/tournaments/{tid}/start")
    assert start.status_code == 429 and start.json()["error"]["limit"] == "live", start.text
    assert creator.get(f"/api/tournaments/{tid}").json()["status"] == "registering"


def signup(base: str, n: int, name: str) -> httpx.Client:
    c = client(base, n)
    r = post(c, "/api/account/signup", {"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def test_a_targeted_sign_in_lockout_fails(server: str) -> None:
    """Finding 4: an attacker's wrong passwords for a chosen name (from his address: 429
    after five) do not keep its owner out — from another address, or from the
    attacker's own address in the browser he signed in with before (its device
    cookie).  From many addresses together the account takes at most ``guesses`` wrong
    passwords an hour (100 by default; 10 on this server, to be quick): then even a
    right one from a new browser waits (429 ``guesses``), and the owner's known browser
    still gets in."""
    owner = signup(server, 60, "Владелица")
    assert post(owner, "/api/account/signin", {"name": "Владелица", "password": PASSWORD}
                ).status_code == 200  # now this browser has its device cookie
    wrong = {"name": "Владелица", "password": "угадываю-пароль"}
    with client(server, 61) as attacker:
        codes = [attacker.post("/api/account/signin", json=wrong).status_code
                 for _ in range(8)]
        assert codes == [401] * 5 + [429] * 3, codes
        right = {"name": "Владелица", "password": PASSWORD}
        assert attacker.post("/api/account/signin", json=right).status_code == 429
    with client(server, 62) as elsewhere:  # the owner on another network: not locked
        assert elsewhere.post("/api/account/signin", json=right).status_code == 200
    for n in range(63, 64):  # one more address, 5 more: 10 failures in all
        with client(server, n) as c:
            assert [c.post("/api/account/signin", json=wrong).status_code
                    for _ in range(5)] == [401] * 5
    with client(server, 90) as new_browser:
        over = new_browser.post("/api/account/signin", json=right)
        assert over.status_code == 429 and over.json()["error"]["limit"] == "guesses"
    known = post(owner, "/api/account/signin", right)
    assert known.status_code == 200, known.text


def test_wrong_password_changes_and_deletions_are_limited(server: str) -> None:
    """Finding 5: 100 wrong passwords on "change password" (then on "delete account")
    were 100 × 403 and 100 Argon2 checks; now five are checked and the rest are 429
    with ``Retry-After``, at once, without a check."""
    c = signup(server, 91, "Борис")
    started = time.monotonic()
    codes = [post(c, "/api/account/password", {"old": "не-тот-пароль", "new": "новый-пароль"}
                  ).status_code for _ in range(100)]
    assert codes == [403] * 5 + [429] * 95, codes
    refused = post(c, "/api/account/password", {"old": "не-тот-пароль",
                                                 "new": "другой-новый-пароль"})
    assert int(refused.headers["retry-after"]) >= 1
    deleted = c.request("DELETE", "/api/account", json={"password": PASSWORD},
                        headers={"X-CSRF-Token": c.cookies.get("thousand_csrf") or ""})
    assert deleted.status_code == 429, deleted.text  # the same counts guard it
    assert time.monotonic() - started < 60


def test_guests_are_made_only_so_fast_and_sockets_are_capped(server: str) -> None:
    """Finding 10: one address made 84 guests a second (each kept 30 days) and opened
    1,186 spectators' sockets; ``sync`` and ``snapshot`` were answered without end.  Now
    an address makes 10 guests a minute; a client holds 20 sockets at once (the next is
    refused, 4429), and a table takes 100 spectators; a flood of syncs is refused with
    ``rate_limited`` while the socket stays."""
    with client(server, 100) as c:
        codes = []
        for _ in range(15):
            c.cookies.clear()
            codes.append(c.get("/api/me").status_code)
        assert codes == [200] * 10 + [429] * 5, codes
    with client(server, 101) as c:
        laid = c.post("/api/tables", json={"seats": [
            {"kind": "human", "name": "Хозяин"}, {"kind": "human"}, {"kind": "human"}]})
        assert laid.status_code == 201, laid.text
        table = laid.json()["table"]

    async def main() -> None:
        mine = [await spectate(server, table, 102) for _ in range(21)]
        assert [m["type"] for _, m in mine[:20]] == ["snapshot"] * 20
        assert mine[20][1]["code"] == "rate_limited"
        assert mine[20][1]["params"]["limit"] == "sockets"
        sock = mine[0][0]
        for _ in range(40):
            await sock.send(json.dumps({"type": "sync", "version": 0}))
        replies: list[Msg] = []
        while len(replies) < 40:  # the answers to the syncs ("seats" news besides)
            reply = json.loads(await asyncio.wait_for(sock.recv(), 30))
            if reply["type"] in ("events", "error"):
                replies.append(reply)
        refused = [r for r in replies if r["type"] == "error"]
        assert len(refused) >= 20, [r["type"] for r in replies]
        assert all(r["params"]["limit"] == "sync" for r in refused), refused
        others = [await spectate(server, table, n) for n in range(103, 109) for _ in range(16)]
        kinds = [m.get("code", m["type"]) for _, m in others]
        assert kinds == ["snapshot"] * 80 + ["too_many_watchers"] * 16, kinds
        await asyncio.gather(*(ws.close() for ws, _ in mine + others))

    asyncio.run(main())


def _parallel(n: int, send: Any) -> list[Any]:
    out: list[Any] = [None] * n

    def run(i: int) -> None:
        out[i] = send(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return out


def test_uploads_are_capped_and_parsed_a_few_at_a_time(server: str) -> None:
    """Finding 9: ``POST /api/replay`` took 10 MB bodies at ~150 MB of memory each; 8 at
    once took the server to 1.5 GB.  Now 8 parallel 2 MB records are all answered and
    the server grows by far less than one such body did, and 8 parallel 9 MB bodies are
    refused (413) without being read; an address uploads only so often."""
    with client(server, 120) as c:
        laid = c.post("/api/tables", json={"seats": [{"kind": "bot"}] * 3,
                                          "options": {"max_deals": 1}})
        game = laid.json()["table"]
    wait_over(server, game)
    with client(server, 120) as c:
        record = c.get(f"/api/games/{game}/record").text
    body = (record + " " * (1_990_000 - len(record))).encode()
    huge = (record + " " * (9_000_000 - len(record))).encode()
    pid = server_pid(server)

    def upload(data: bytes, n: int) -> int:
        with client(server, n) as c:
            try:
                return c.post("/api/replay", content=data).status_code
            except httpx.TransportError:  # the server answered 413 before it all went
                return 413

    codes: list[int] = []
    grew = peak_growth_mb(pid, lambda: codes.extend(
        _parallel(8, lambda i: upload(body, 121))))
    assert codes == [200] * 8, codes
    assert grew < 150, f"8 uploads of 2 MB grew the server by {grew:.0f} MB"
    refused: list[int] = []
    grew = peak_growth_mb(pid, lambda: refused.extend(
        _parallel(8, lambda i: upload(huge, 122))))
    assert refused == [413] * 8, refused
    assert grew < 100, f"8 refused 9 MB uploads grew the server by {grew:.0f} MB"
    more = [upload(body[:2000] + b"}", 121) for _ in range(5)]
    assert 429 in more, more


def test_a_burst_of_password_checks_is_bounded_in_memory(server: str) -> None:
    """Finding 5: 40 password checks at once took the server from 100 to 472 MB (Argon2id
    takes 64 MiB each).  Now two run at a time: 10 wrong sign-ins at once from 10
    addresses (more than the 6 threads that checked them at once before) grow it by
    less than three checks' worth, and all are answered."""
    pid = server_pid(server)

    def signin(i: int) -> int:  # names nobody has: a dummy hash is checked all the same
        with client(server, 131 + i) as c:
            return c.post("/api/account/signin", json={
                "name": f"Никто {i}", "password": "неверный-пароль"}).status_code

    codes: list[int] = []
    grew = peak_growth_mb(pid, lambda: codes.extend(_parallel(10, signin)))
    assert codes == [401] * 10, codes
    assert grew < 3 * 64, f"40 Argon2 checks at once grew the server by {grew:.0f} MB"


def test_an_address_gets_a_fair_share_of_the_analysis_queue(server: str) -> None:
    """Finding 2: 60 fresh guests of one address took all 50 of the analysis queue's
    slots.  Now ten guests of one address get three (429 ``too_many_analyses`` after),
    a player elsewhere gets his, and the runner takes them in turns by address.  (Last
    of the module: the analyses asked run on while it ends.)"""
    assert fair_order([(1, "a"), (2, "a"), (3, "a"), (4, "b"), (5, "c"), (6, "b")]) == [
        1, 4, 5, 2, 6, 3]
    with client(server, 110) as c:
        laid = c.post("/api/tables", json={"seats": [{"kind": "bot"}] * 3,
                                          "options": {"max_deals": 1}})
        assert laid.status_code == 201, laid.text
        game = laid.json()["table"]
    wait_over(server, game)
    codes = []
    for i in range(10):  # the slowest settings: no job ends while they ask
        with closing(guest(server, 111, f"Гость {i}")) as c:
            r = post(c, f"/api/games/{game}/analysis",
                     {"samples": 39 + i, "view_based": True, "lang": "ru"})
            codes.append((r.status_code, None if r.status_code == 200
                          else r.json()["error"]["code"]))
    assert codes.count((200, None)) == 3, codes
    assert codes.count((429, "too_many_analyses")) == 7, codes
    with closing(guest(server, 112, "Другой")) as other:
        mine = post(other, f"/api/games/{game}/analysis",
                    {"samples": 38, "view_based": True, "lang": "ru"})
        assert mine.status_code == 200, mine.text
        assert mine.json()["status"] in ("queued", "running")
