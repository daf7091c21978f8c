"""docs/server.md "Presence, challenges and friends" and docs/protocol.md "The lobby
socket": who is online reaches every lobby socket live (a player at a table too, and
where), a player may hide; a challenge reaches the challenged player's socket at once
(and his list if away), is accepted (the table laid with both seated), declined or
cancelled; follows and blocks, and a block refuses a challenge; a player who takes
challenges from those he follows only refuses a stranger's; the ``challenge`` limit per
player and per address.  A real server (Uvicorn, SQLite), each player a guest with his own
session; nothing waits a fixed time."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from test_public_limits import client as client_from
from test_server import Server
from thousand.server.limits import Limiter, parse_overrides
from waiting import until

Msg = dict[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("presence") / "games.db"
    with Server(f"sqlite:///{path}", min_clock=0.05) as s:
        yield s


def guest(where: Server | httpx.Client, name: str | None) -> httpx.Client:
    """A browser's session on a server (or through a client of one): a guest player
    (named), his cookies and the CSRF header."""
    c = where if isinstance(where, httpx.Client) else httpx.Client(base_url=where.base,
                                                                   timeout=30)
    assert c.get("/api/me").status_code == 200
    c.headers["X-CSRF-Token"] = c.cookies["thousand_csrf"]
    if name is not None:
        assert c.post("/api/me/name", json={"name": name}).status_code == 200
    return c


def me(c: httpx.Client) -> str:
    player: str = c.get("/api/me").json()["player"]["id"]
    return player


class Lobby:
    """A lobby socket read on a thread of its own: every message kept, in order."""

    def __init__(self, base: str, c: httpx.Client) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in c.cookies.items())
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(connect(
            base.replace("http://", "ws://") + "/ws/lobby",
            additional_headers={"Cookie": cookie, "Origin": base}))
        self.messages: list[Msg] = []
        self.online: dict[str, Msg] = {}
        self.counts: dict[str, int] = {}
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.ws:
                m = json.loads(raw)
                if m["type"] == "presence":
                    if m["full"]:
                        self.online = {}
                    self.online.update({p["id"]: p for p in m["players"]})
                    for gone in m.get("gone", ()):
                        self.online.pop(gone, None)
                    self.counts = m["counts"]
                self.messages.append(m)
        except Exception:  # closed
            return

    def challenges(self) -> list[Msg]:
        return [m["challenge"] for m in self.messages if m["type"] == "challenge"]

    def close(self) -> None:
        self.stack.close()
        self.thread.join(10)


def test_the_lobby_sees_who_is_online_live_and_a_player_may_hide(server: Server) -> None:
    """Anna's lobby is told of Boris when his lobby opens and when it closes; a guest
    with no name is not shown; Boris at a table he laid shows as waiting there; once he
    hides he is gone from every lobby, and back when he shows himself again."""
    anna, boris, nameless = guest(server, "Анна"), guest(server, "Борис"), guest(server, None)
    a = Lobby(server.base, anna)
    try:
        until(lambda: me(anna) in a.online, what="Anna sees herself online")
        assert a.online[me(anna)]["status"] == "lobby"
        b = Lobby(server.base, boris)
        until(lambda: me(boris) in a.online, what="Anna sees Boris come")
        assert a.online[me(boris)]["name"] == "Борис" and a.online[me(boris)]["guest"]
        n = Lobby(server.base, nameless)
        until(lambda: a.counts.get("online") == 2 and me(boris) in b.online,
              what="both counted, Boris sees the lobby too")
        assert me(nameless) not in a.online
        metrics = server.get("/metrics").text  # three lobby sockets here, two shown
        assert "thousand_lobby_sockets{" in metrics and "thousand_players_online{" in metrics
        assert any(line.startswith("thousand_lobby_sockets{") and float(line.split()[-1]) == 3
                   for line in metrics.splitlines()), metrics
        b.close()
        until(lambda: me(boris) not in a.online, what="Anna sees Boris go")
        # Boris at a table of his, waiting for a second person: its page's socket
        r = boris.post("/api/tables", json={"preset": "classic", "seats": [
            {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
        assert r.status_code == 201, r.text
        laid = r.json()
        with _seat_socket(server, boris, laid["table"], laid["token"]):
            until(lambda: a.online.get(me(boris), {}).get("status") == "waiting",
                  what="Anna sees Boris waiting at his table")
            assert a.online[me(boris)]["table"] == laid["table"]
            assert a.counts["waiting"] == 1
            assert boris.put("/api/me/social", json={"hidden": True,
                                                     "strangers": True}).status_code == 200
            until(lambda: me(boris) not in a.online, what="Boris hidden")
            assert server.get("/api/presence").json()["counts"]["online"] == 1
            assert boris.get("/api/me/social").json() == {"hidden": True, "strangers": True}
            boris.put("/api/me/social", json={"hidden": False, "strangers": True})
            until(lambda: me(boris) in a.online, what="Boris shown again")
        until(lambda: me(boris) not in a.online, what="Boris left the table")
        n.close()
    finally:
        a.close()


def test_a_challenge_is_told_live_accepted_and_seats_both(server: Server) -> None:
    """Vera challenges Gleb, who is in the lobby: his socket gets it at once; he accepts
    and both are told the table, laid with Vera in seat 0, Gleb in seat 1 and a
    beginner bot in seat 2, a seat each of theirs (GET /api/me/seats).  A second
    challenge is declined; a third, to Gleb away, waits in his list and is cancelled."""
    vera, gleb = guest(server, "Вера"), guest(server, "Глеб")
    v, g = Lobby(server.base, vera), Lobby(server.base, gleb)
    try:
        until(lambda: me(gleb) in v.online, what="Vera sees Gleb")
        r = vera.post("/api/challenges", json={"to": me(gleb), "preset": "classic",
                                               "clock": 30, "bots": ["beginner"]})
        assert r.status_code == 201, r.text
        sent = r.json()
        assert sent["status"] == "open"
        got = until(lambda: g.challenges(), what="Gleb told of the challenge")[0]
        assert got["id"] == sent["id"] and got["from"]["name"] == "Вера"
        assert got["game"] == {"preset": "classic", "options": {}, "clock": 30.0,
                               "bots": ["beginner"]}
        again = vera.post("/api/challenges", json={"to": me(gleb)})
        assert again.status_code == 409 and again.json()["error"]["code"] == \
            "already_challenged"
        assert vera.post(f"/api/challenges/{sent['id']}/accept").status_code == 403
        r = gleb.post(f"/api/challenges/{sent['id']}/accept")
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert r.json()["url"] == f"/t/{table}"
        until(lambda: any(c["status"] == "accepted" and c["table"] == table
                          for c in v.challenges()), what="Vera told of the table")
        info = server.get(f"/api/tables/{table}").json()
        assert [s["name"] for s in info["seats"]][:2] == ["Вера", "Глеб"]
        assert info["seats"][2]["level"] == "beginner" and info["clock"] == 30
        for who, seat in ((vera, 0), (gleb, 1)):
            seats = who.get("/api/me/seats").json()["seats"]
            assert any(s["table"] == table and s["seat"] == seat for s in seats), seats
        assert gleb.post(f"/api/challenges/{sent['id']}/decline").status_code == 409
        # declined
        second = vera.post("/api/challenges", json={"to": me(gleb)}).json()
        assert gleb.post(f"/api/challenges/{second['id']}/decline").json()["status"] == \
            "declined"
        until(lambda: any(c["status"] == "declined" for c in v.challenges()),
              what="Vera told of the refusal")
        # Gleb away: the challenge waits in his list; Vera cancels it
        g.close()
        third = vera.post("/api/challenges", json={"to": me(gleb)}).json()
        mine = gleb.get("/api/challenges").json()["challenges"]
        assert [c["id"] for c in mine] == [third["id"]]
        assert gleb.post(f"/api/challenges/{third['id']}/cancel").status_code == 403
        assert vera.post(f"/api/challenges/{third['id']}/cancel").json()["status"] == \
            "cancelled"
        assert gleb.get("/api/challenges").json()["challenges"] == []
        # what cannot be asked
        assert vera.post("/api/challenges", json={"to": me(vera)}).status_code == 400
        assert vera.post("/api/challenges", json={"to": "p_nobody"}).status_code == 404
        assert vera.post("/api/challenges", json={"to": me(gleb), "preset": "poker"}
                         ).status_code == 422
        assert vera.post("/api/challenges", json={"to": me(gleb), "bots": ["god"]}
                         ).status_code == 400
    finally:
        v.close()


def test_follows_blocks_and_strangers(server: Server) -> None:
    """Dasha follows Egor and sees where he is on her friends' list; she blocks Fedor,
    who then cannot challenge her, nor she him; Egor takes challenges from those he
    follows only: Dasha's is refused until he follows her."""
    dasha, egor, fedor = guest(server, "Даша"), guest(server, "Егор"), guest(server, "Фёдор")
    assert dasha.put(f"/api/friends/follows/{me(egor)}").json() == {"player": me(egor),
                                                                     "on": True}
    e = Lobby(server.base, egor)
    try:
        until(lambda: (dasha.get("/api/friends").json()["follows"][0]["presence"] or {})
              .get("status") == "lobby", what="Dasha sees Egor online")
    finally:
        e.close()
    friends = dasha.get("/api/friends").json()
    assert [f["name"] for f in friends["follows"]] == ["Егор"]
    assert dasha.put(f"/api/friends/blocks/{me(fedor)}").status_code == 200
    assert [f["name"] for f in dasha.get("/api/friends").json()["blocks"]] == ["Фёдор"]
    for a, b in ((fedor, dasha), (dasha, fedor)):
        r = a.post("/api/challenges", json={"to": me(b)})
        assert r.status_code == 403 and r.json()["error"]["code"] == "blocked"
    assert dasha.delete(f"/api/friends/blocks/{me(fedor)}").json()["on"] is False
    assert fedor.post("/api/challenges", json={"to": me(dasha)}).status_code == 201
    egor.put("/api/me/social", json={"hidden": False, "strangers": False})
    r = dasha.post("/api/challenges", json={"to": me(egor)})
    assert r.status_code == 403 and r.json()["error"]["code"] == "strangers"
    egor.put(f"/api/friends/follows/{me(dasha)}")
    assert dasha.post("/api/challenges", json={"to": me(egor)}).status_code == 201
    assert dasha.put("/api/friends/follows/p_nobody").status_code == 404
    assert dasha.put(f"/api/friends/follows/{me(dasha)}").status_code == 404
    anonymous = httpx.Client(base_url=server.base, timeout=30)
    assert anonymous.get("/api/friends").status_code == 401


def test_challenges_are_limited_per_player_and_per_address(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """``challenge=2/minute|3/minute``: a player's third challenge in a minute is
    refused (429, Retry-After), and from one address the fourth, whoever sends it;
    another address is not held back."""
    path = tmp_path_factory.mktemp("presence-limits") / "games.db"
    limiter = Limiter(limits=parse_overrides(["challenge=2/minute|3/minute", "guest=off"]))
    with Server(f"sqlite:///{path}", limiter=limiter) as server:
        one = guest(client_from(server.base, 61), "Жанна")
        two = guest(client_from(server.base, 61), "Зоя")
        other = guest(client_from(server.base, 62), "Игнат")
        targets = [guest(client_from(server.base, 63), f"Цель {i}") for i in range(4)]
        ids = [me(t) for t in targets]

        def ask(c: httpx.Client, to: str) -> httpx.Response:
            return c.post("/api/challenges", json={"to": to})

        assert ask(one, ids[0]).status_code == 201
        assert ask(one, ids[1]).status_code == 201
        refused = ask(one, ids[2])
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert refused.json()["error"]["limit"] == "challenge"
        assert ask(two, ids[0]).status_code == 201  # the address's third
        assert ask(two, ids[1]).status_code == 429  # the address's fourth
        assert ask(other, ids[0]).status_code == 201  # another address


def _seat_socket(server: Server, c: httpx.Client, table: str, token: str) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{server.port}/ws/{table}",
                   subprotocols=["thousand", f"token.{token}"],  # type: ignore[list-item]
                   additional_headers={"Origin": server.base, "Cookie": "; ".join(
                       f"{k}={v}" for k, v in c.cookies.items())})


def _next(ws: ClientConnection, kind: str) -> Msg:
    """The next message of ``kind`` (a generous deadline: a loaded machine)."""
    while True:
        m: Msg = json.loads(ws.recv(timeout=60))
        if m["type"] == kind:
            return m


def test_a_block_keeps_players_apart_at_quick_play_and_in_chat(server: Server) -> None:
    """Kira blocks Lev: quick play does not seat Lev at Kira's waiting table; at a table
    where both sit (Lev took a free seat) Kira does not get Lev's chat, Lev gets hers."""
    kira, lev = guest(server, "Кира"), guest(server, "Лев")
    assert kira.put(f"/api/friends/blocks/{me(lev)}").status_code == 200
    first = kira.post("/api/quickplay", json={"preset": "classic", "clock": 41}).json()
    second = lev.post("/api/quickplay", json={"preset": "classic", "clock": 41}).json()
    assert second["table"] != first["table"]
    laid = kira.post("/api/tables", json={"preset": "classic", "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}).json()
    took = lev.post(f"/api/tables/{laid['table']}/seats/1", json={"name": "Лев"})
    assert took.status_code == 200, took.text
    with _seat_socket(server, lev, laid["table"], took.json()["token"]) as lw, \
            _seat_socket(server, kira, laid["table"], laid["token"]) as kw:
        assert _next(kw, "snapshot")["muted"] == [1]
        _next(lw, "snapshot")
        lw.send(json.dumps({"type": "chat", "text": "привет"}))
        assert _next(lw, "chat")["text"] == "привет"
        kw.send(json.dumps({"type": "chat", "text": "здравствуй"}))
        assert _next(kw, "chat")["text"] == "здравствуй"  # Lev's line never came
        assert _next(lw, "chat")["text"] == "здравствуй"


def test_an_unanswered_challenge_expires(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A challenge stands for CHALLENGE_TTL seconds (here five seconds): then it leaves the
    challenged player's list and can no longer be accepted (409 ``challenge_over``)."""
    from thousand.server.features import challenges

    monkeypatch.setattr(challenges, "CHALLENGE_TTL", 5.0)
    maria, nikita = guest(server, "Мария"), guest(server, "Никита")
    sent = maria.post("/api/challenges", json={"to": me(nikita)}).json()
    assert [c["id"] for c in nikita.get("/api/challenges").json()["challenges"]] == [sent["id"]]
    until(lambda: nikita.get("/api/challenges").json()["challenges"] == [],
          what="the challenge expired")
    r = nikita.post(f"/api/challenges/{sent['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "challenge_over"
    assert maria.post("/api/challenges", json={"to": me(nikita)}).status_code == 201
