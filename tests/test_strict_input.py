"""The one strict reader (server/reader.py) against a real ``thousand serve``: every body
and every WebSocket message with a duplicate key, a wrong type, deep nesting, bad UTF-8 or
too many bytes is a 400 (or a ``malformed`` message) that says what is wrong — never a 500,
never a traceback in the log — and the log, at ``--log-level debug``, shows no seat token
(docs/server.md "Bodies", "Tokens and the log").

One server for the module; its log is scanned at the end for every token it handed out.
"""

from __future__ import annotations

import json
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from http_client import HTTP
from live_server import serve

#: Every secret the server handed out in this module: none may reach its log.
SECRETS: list[str] = []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("strict")
    with serve(folder, "--log-level", "debug", "--bot-delay", "0") as base:
        yield base, folder / "serve.log"


def post(base: str, path: str, content: bytes | str, **headers: str) -> httpx.Response:
    headers.setdefault("Content-Type", "application/json")
    return HTTP.post(base + path, content=content, headers=headers, timeout=30)


def refused(r: httpx.Response, status: int, words: str) -> None:
    """A refusal in the API's shape whose message says ``words``."""
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert set(error) >= {"code", "message"}
    assert words in error["message"], error


def new_table(base: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    r = HTTP.post(base + "/api/tables", json=body or {
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}, timeout=30)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    for key in ("token", "invite"):
        if out.get(key):
            SECRETS.append(out[key])
    return out


# --------------------------------------------------------------------------- HTTP bodies


def test_deep_nesting_is_a_400_not_a_500(server: tuple[str, Path]) -> None:
    base, _ = server
    deep = '{"options": {"x": ' + "[" * 5000 + "]" * 5000 + "}}"
    refused(post(base, "/api/tables", deep), 400, "nested deeper than")
    refused(post(base, "/api/tables/x/close", "[" * 20 + "]" * 20), 400, "nested deeper")


def test_a_duplicate_key_is_refused_not_taken_last(server: tuple[str, Path]) -> None:
    base, _ = server
    refused(post(base, "/api/tables", '{"open": true, "open": false}'), 400,
            "'open' is given twice")
    refused(post(base, "/api/tables", '{"seats": [{"kind": "bot", "kind": "human"}, '
                 '{}, {}]}'), 400, "given twice")


@pytest.mark.parametrize(("body", "words"), [
    ({"options": []}, "options"),
    ({"open": 1}, "open"),
    ({"open": "false"}, "open"),
    ({"clock": "30"}, "clock"),
    ({"preset": 5}, "preset"),
    ({"seats": [{"kind": "robot"}, {}, {}]}, "seats.0.kind"),
    ({"seats": {"kind": "bot"}}, "seats"),
    ({"colour": "red"}, "colour"),
    ([], "valid dictionary"),
])
def test_wrong_types_and_unknown_keys_are_a_400(server: tuple[str, Path], body: Any,
                                                words: str) -> None:
    base, _ = server
    refused(post(base, "/api/tables", json.dumps(body)), 400, words)


def test_bad_encodings_sizes_and_missing_bodies(server: tuple[str, Path]) -> None:
    base, _ = server
    refused(post(base, "/api/tables", b'{"preset": "\xff"}'), 400, "not UTF-8")
    refused(post(base, "/api/tables", b'\xfe\xff\x00{\x00}'), 400, "not UTF-8")
    refused(post(base, "/api/tables", '{"clock": NaN}'), 400, "NaN")
    refused(post(base, "/api/tables", '{"clock": 1' + "0" * 60 + "}"), 400, "digits")
    refused(post(base, "/api/tables", "{"), 400, "not JSON")
    refused(post(base, "/api/tables", ""), 400, "the body is missing")
    refused(post(base, "/api/tables", "{}", **{"Content-Type": "text/plain"}), 415,
            "application/json")
    big = '{"preset": "' + "a" * 70_000 + '"}'
    refused(post(base, "/api/tables", big), 413, "larger than")
    # a record is read by the same function, with its own bound
    refused(post(base, "/api/replay", b"{" + b" " * 10_000_001 + b"}"), 413, "larger than")
    # a body of no declared media type is refused (issue 27: a cross-site form or beacon
    # posts without preflight only so): JSON is said to be JSON
    r = HTTP.post(base + "/api/tables", content=b'{"seats": [{"kind": "bot"}, '
                   b'{"kind": "bot"}, {"kind": "bot"}]}', timeout=30)
    refused(r, 415, "Content-Type: application/json")


def test_405_names_every_method_of_the_path(server: tuple[str, Path]) -> None:
    base, _ = server
    r = HTTP.request("DELETE", base + "/api/tables", timeout=30)
    assert r.status_code == 405
    assert {m.strip() for m in r.headers["allow"].split(",")} >= {"GET", "POST"}
    assert r.json()["error"]["code"] == "method_not_allowed"


# --------------------------------------------------------------------------- the WebSocket


def ws(base: str, table: str, token: str | None = None) -> ClientConnection:
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    protocols = ["thousand", f"token.{token}"] if token else ["thousand"]
    return connect(url, subprotocols=protocols, open_timeout=10)  # type: ignore[arg-type]


def next_of(conn: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(conn.recv(timeout=10))
        if msg.get("type") == kind:
            return msg


@pytest.mark.parametrize(("frame", "words"), [
    ('{"type": "chat", "type": "chat", "text": "a"}', "given twice"),
    ('{"type": "chat", "text": ' + "[" * 1000 + "]" * 1000 + "}", "nested deeper"),
    (b'{"type": "chat", "text": "\xff"}', "not UTF-8"),
    ('{"type": "chat", "text": "' + "a" * 5000 + '"}', "larger than 4096 bytes"),
    ('{"type": "sync", "version": NaN}', "NaN"),
])
def test_bad_messages_are_answered_malformed(server: tuple[str, Path], frame: str | bytes,
                                             words: str) -> None:
    base, _ = server
    t = new_table(base)
    with ws(base, t["table"], t["token"]) as conn:
        assert conn.subprotocol == "thousand"
        assert next_of(conn, "snapshot")["seat"] == 0  # the token beside the subprotocol
        conn.send(frame)
        error = next_of(conn, "error")
        assert error["code"] == "malformed" and words in error["message"], error


def raw_text_frame(payload: bytes) -> bytes:
    """A masked client TEXT frame of ``payload`` as is (a library would refuse bad UTF-8)."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def test_a_text_frame_of_bad_utf8_closes_quietly(server: tuple[str, Path]) -> None:
    base, log = server
    t = new_table(base)
    for _ in range(3):
        with ws(base, t["table"], t["token"]) as conn:
            next_of(conn, "snapshot")
            sock: socket.socket = conn.socket
            sock.sendall(raw_text_frame(b'{"type": "\xff\xfe"}'))
            with pytest.raises(Exception):  # noqa: B017 - the server closes: 1007
                while True:
                    conn.recv(timeout=10)
    r = HTTP.get(base + f"/api/tables/{t['table']}", timeout=30)
    assert r.status_code == 200  # the server goes on
    assert "Traceback" not in log.read_text()


# --------------------------------------------------------------------------- the log


def test_the_log_keeps_no_token_and_no_traceback(server: tuple[str, Path]) -> None:
    """Normal and hostile traffic at ``--log-level debug``, then the whole log scanned for
    every secret handed out and for a traceback."""
    base, log = server
    t = new_table(base)
    seated = HTTP.post(base + f"/api/tables/{t['table']}/seats/1", json={"name": "Оля"},
                        timeout=30).json()
    SECRETS.append(seated["token"])
    hidden = new_table(base, {"open": False, "seats": [{"kind": "human"}, {"kind": "human"},
                                                        {"kind": "bot"}]})
    HTTP.get(base + hidden["url"], timeout=30)  # the link with its invite
    guest = HTTP.post(base + f"/api/tables/{hidden['table']}/seats/1",
                       json={"name": "Гость", "invite": hidden["invite"]}, timeout=30).json()
    SECRETS.append(guest["token"])
    with ws(base, t["table"], t["token"]) as a, ws(base, t["table"], seated["token"]) as b:
        next_of(a, "snapshot")
        next_of(b, "snapshot")
        a.send(json.dumps({"type": "chat", "text": "привет"}))
        next_of(b, "chat")
        b.send(b"\xff")
        next_of(b, "error")
    # the older way (?token=) must not leak either
    url = base.replace("http://", "ws://") + f"/ws/{t['table']}?token={t['token']}"
    with connect(url, open_timeout=10) as old:
        next_of(old, "snapshot")
    HTTP.get(base + f"/api/games/{hidden['table']}/replay",
              headers={"X-Seat-Token": guest["token"]}, timeout=30)
    post(base, "/api/tables", "[" * 100_000)
    post(base, "/api/tables", '{"a": 1, "a": 2}')
    post(base, "/api/tables/" + t["table"] + "/close", json.dumps({"token": t["token"] + "x"}))
    text = log.read_text()
    assert "Traceback" not in text
    assert re.search(r"GET /ws/|WebSocket /ws/", text), "the log is not at debug level"
    assert len(SECRETS) >= 5
    for secret in SECRETS:
        assert secret not in text, f"a secret reached the log: {secret[:6]}…"


def test_every_route_with_a_body_reads_it_strictly(server: tuple[str, Path]) -> None:
    """Whoever wrote the route: a duplicate key is a 400, read before anything else."""
    base, _ = server
    doc = HTTP.get(base + "/api/openapi.json", timeout=30).json()
    routes = [(method, path) for path, item in doc["paths"].items()
              for method, op in item.items() if "requestBody" in op]
    assert ("post", "/api/tables") in routes and len(routes) >= 3
    for method, path in routes:
        url = base + re.sub(r"\{[^}]+\}", "0", path)
        r = HTTP.request(method.upper(), url, content='{"a": 1, "a": 2}',
                          headers={"Content-Type": "application/json"}, timeout=30)
        assert r.status_code == 400, (path, r.text)
        assert "twice" in r.json()["error"]["message"], (path, r.text)  # a record: its own words
