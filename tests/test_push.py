"""Turn notices by Web Push (docs/server.md "Web Push"), against a real server (Uvicorn
in a thread, SQLite) and a push service on loopback (tests/push_box.py) that receives
what pywebpush really sends: an account's browsers subscribe with the site's VAPID key;
when his move comes at a table he has no connection to, each gets one notice, signed
(VAPID) and encrypted for that browser, in the language of the page that subscribed;
not again within the throttle, not while he is connected; a subscription the push service
says is gone (410) is forgotten; a guest cannot subscribe; a server without a VAPID key
says push is off, and ``thousand serve`` refuses a key it cannot use."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from http_client import HTTP
from push_box import PushBox, push_box, vapid_pem
from test_accounts import client, csrf, post, signup
from test_server import CLI, Server
from thousand.server.features.push import TurnPush
from thousand.server.limits import Limiter, parse_overrides
from thousand.server.live.hub import Conn
from thousand.server.ops.webpush import PushError, push_keys_of

__all__ = ["push_box"]  # the fixture, shared

LIMITS = ["signup=off", "guest=off", "table=off", "live=off"]


@pytest.fixture(scope="module")
def key_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("vapid") / "vapid.pem"
    path.write_bytes(vapid_pem())
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, key_file: Path) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("push") / "games.db"
    keys = push_keys_of(str(key_file), "mailto:admin@example.org")
    with Server(f"sqlite:///{path}", limiter=Limiter(limits=parse_overrides(LIMITS)),
                push=keys) as s:
        yield s


def pusher(server: Server) -> TurnPush:
    push = server.app.state.push
    assert isinstance(push, TurnPush)
    return push


def on_loop(server: Server, work: Any) -> Any:
    """Run a coroutine on the server's loop, where its tables live."""
    return asyncio.run_coroutine_threadsafe(work, server.hub.loop()).result(60)


def subscribe(c: httpx.Client, sub: dict[str, Any], lang: str = "ru") -> None:
    r = post(c, f"/api/push/subscription?lang={lang}", sub)
    assert r.status_code == 200, r.text


def lay_with_bots(c: httpx.Client) -> str:
    """A table of the account and two bots: it starts at once; his move comes."""
    r = post(c, "/api/tables", {"preset": "classic", "options": {}, "seats": [
        {"kind": "human", "name": "x"}, {"kind": "bot", "level": "heuristic"},
        {"kind": "bot", "level": "heuristic"}]})
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == 0
    return str(r.json()["table"])


def test_the_key_is_published(server: Server) -> None:
    body = HTTP.get(server.base + "/api/push/key").json()
    assert body["enabled"] is True
    assert body["key"] == pusher(server).keys.public_key
    assert len(body["key"]) == 87  # 65 bytes, base64url without padding


def test_a_turn_without_a_connection_is_pushed(server: Server, push_box: PushBox) -> None:
    c = signup(server, "Анна")
    ru, en, gone = (push_box.browser(n) for n in ("anna-ru", "anna-en", "gone/anna"))
    subscribe(c, ru.json())
    subscribe(c, en.json(), "en")
    subscribe(c, gone.json())
    table = lay_with_bots(c)

    [pushed] = push_box.wait("/anna-ru")
    # signed with the site's key (RFC 8292) and encrypted for this browser (RFC 8291)
    auth = pushed.headers["authorization"]
    assert auth.startswith("vapid t=") and f"k={pusher(server).keys.public_key}" in auth
    assert pushed.headers["content-encoding"] == "aes128gcm"
    assert int(pushed.headers["ttl"]) > 0
    assert "ход".encode() not in pushed.body and b"thousand-turn" not in pushed.body
    assert ru.read(pushed) == {"title": "Тысяча: ваш ход", "body": "Стол ждёт вашего хода.",
                               "url": f"/t/{table}", "tag": "thousand-turn"}
    with pytest.raises(Exception):  # noqa: B017 — nobody else can read it
        en.read(pushed)
    [pushed_en] = push_box.wait("/anna-en")
    assert en.read(pushed_en)["title"] == "Thousand: your move"

    # the push service said 410: that subscription is forgotten, the others kept
    push_box.wait("/gone/anna")
    on_loop(server, pusher(server).idle())
    kept = {s.endpoint for s in on_loop(server, server.hub.db(pusher(server).store.of,
                                                                  me_id(c)))}
    assert kept == {ru.endpoint, en.endpoint}


def me_id(c: httpx.Client) -> str:
    return str(c.get("/api/me").json()["player"]["id"])


def test_the_throttle_and_a_connected_player(server: Server, push_box: PushBox) -> None:
    c = signup(server, "Борис")
    browser = push_box.browser("boris")
    subscribe(c, browser.json())
    table = lay_with_bots(c)
    push_box.wait("/boris")
    push = pusher(server)
    live = server.hub.tables[table]

    async def turns(n: int, connected: bool = False) -> None:
        conn = Conn(0)
        if connected:
            live.conns.add(conn)
        try:
            for _ in range(n):
                push.turn(live, 0)
            await push.idle()
        finally:
            live.conns.discard(conn)

    on_loop(server, turns(3))  # within the throttle: nothing more
    assert len(push_box.to("/boris")) == 1
    push.every = 0.0
    try:
        on_loop(server, turns(1, connected=True))  # he has the table open: no notice
        assert len(push_box.to("/boris")) == 1
        on_loop(server, turns(1))
        push_box.wait("/boris", 2)
    finally:
        push.every = 120.0


def test_unsubscribe_and_guests(server: Server, push_box: PushBox) -> None:
    c = signup(server, "Вера")
    browser = push_box.browser("vera")
    subscribe(c, browser.json())
    r = c.request("DELETE", "/api/push/subscription", json={"endpoint": browser.endpoint},
                  headers=csrf(c))
    assert r.status_code == 200 and r.json() == {"ok": True}
    assert on_loop(server, server.hub.db(pusher(server).store.of, me_id(c))) == []
    guest = client(server)
    guest.get("/api/me")
    r = post(guest, "/api/push/subscription", push_box.browser("guest").json())
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    # a push service is an https address (http on this machine only)
    sub = {**browser.json(), "endpoint": "http://push.example.org/x"}
    r = post(c, "/api/push/subscription", sub)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_subscription"


def test_push_is_off_without_a_key(tmp_path: Path, push_box: PushBox) -> None:
    with Server(f"sqlite:///{tmp_path / 'games.db'}",
                limiter=Limiter(limits=parse_overrides(LIMITS))) as s:
        assert HTTP.get(s.base + "/api/push/key").json() == {"enabled": False, "key": None}
        c = signup(s, "Глеб")
        r = post(c, "/api/push/subscription", push_box.browser("gleb").json())
        assert r.status_code == 503 and r.json()["error"]["code"] == "push_off"
        assert s.app.state.push is None
        assert s.hub.events.turn == []  # nobody listens for turns


def test_the_settings(tmp_path: Path, key_file: Path) -> None:
    assert push_keys_of(None, None) is None
    with pytest.raises(PushError):
        push_keys_of(str(key_file), None)
    with pytest.raises(PushError):
        push_keys_of(str(key_file), "admin@example.org")  # no mailto:
    missing = tmp_path / "none.pem"
    with pytest.raises(PushError):
        push_keys_of(str(missing), "mailto:a@example.org")
    assert not missing.exists()  # (pywebpush would have made a key there)
    bad = tmp_path / "bad.pem"
    bad.write_text("not a key")
    r = subprocess.run([*CLI, "serve", "--no-browser",
                        "--port", "0", "--db", f"sqlite:///{tmp_path / 'g.db'}",
                        "--vapid-private-key", str(bad),
                        "--vapid-subject", "mailto:a@example.org"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "--vapid-private-key" in r.stderr + r.stdout
    # the same settings from the environment
    r = subprocess.run([*CLI, "serve", "--no-browser", "--port", "0",
                        "--db", f"sqlite:///{tmp_path / 'g.db'}"],
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "THOUSAND_VAPID_PRIVATE_KEY": str(bad),
                            "THOUSAND_VAPID_SUBJECT": "mailto:a@example.org"})
    assert r.returncode != 0
    assert "--vapid-private-key" in r.stderr + r.stdout
    helped = subprocess.run([*CLI, "serve", "--help"],
                            capture_output=True, text=True, timeout=120,
                            env={**os.environ, "COLUMNS": "200"})
    assert "--vapid-private-key" in helped.stdout and "--vapid-subject" in helped.stdout
