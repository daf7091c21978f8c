"""docs/server.md "Security": a Hypothesis-driven fuzzer throws random and mutated messages
(more than 10,000 in all in the deep run, 3,400 in the default one) at a live table over
real WebSockets — from the seat to move, from a seat not to move and from a spectator —
and the server neither crashes nor
changes the game: every message is answered to its sender alone (an error, or what a
``sync``/``snapshot`` asks for), nobody else hears anything, and every seat's snapshot is
what it was.  Between batches the game moves on by one legal move, so the batches meet
many phases of the game.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec import to_builtins

from depth import examples
from test_server import Client, Server, new_table, state_of
from thousand.engine.client_messages import ChatMessage, HintMessage, MoveMessage
from thousand.engine.table import Table, TableError
from thousand.server.checks import check_chat
from thousand.server.errors import ServerError
from thousand.server.live.hub import read_message

pytestmark = pytest.mark.fuzz

#: How many messages the fuzzer must send in all: the default run a third of the deep's
#: least (most of the cost is Hypothesis drawing the messages, not the server).
AT_LEAST = examples(3_400, 10_000)

EXAMPLES = examples(20, 600)  # at least AT_LEAST messages in all
PER_EXAMPLE = (172, 200)

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=8,
)
MOVE_TEXT = st.one_of(
    st.sampled_from(["pass", "dark", "look", "buy", "redeal", "concede", "100", "105",
                     "120", "300", "AH", "KH+", "9S", "TS", "give 9S", "discard AH",
                     "contract 120", "contract 400", "give", "+", "", " ", "1e9", "²",
                     "105 ", "ah", "10H", "Ｋ♥", "\u0000", "pass\n", "x" * 40]),
    st.text(max_size=10),
    st.from_regex(r"(give|discard|contract) [0-9A-Z♥]{1,4}", fullmatch=True),
)
#: A place in a text, drawn the same whatever the text's length (taken modulo it).
POSITION = st.integers(0, 2**16)
VERSION = st.one_of(st.integers(-3, 3), st.integers(-(2**40), 2**40), st.just(2**31),
                    st.floats(allow_nan=False), st.booleans(), st.none(), st.text(max_size=4))


TEMPLATE_TYPES = ["move", "sync", "snapshot", "chat", "hint", "open"]
MUTATION = st.one_of(
    st.tuples(st.just("as_is")),
    st.tuples(st.just("drop"), st.integers(0, 7)),
    st.tuples(st.just("add"), st.text(max_size=8), JSON),
    st.tuples(st.just("replace"), st.integers(0, 7), JSON),
    st.tuples(st.just("type"), st.one_of(st.sampled_from(
        [*TEMPLATE_TYPES, "MOVE", "events", "error", "", "seats"]), JSON)),
    st.tuples(st.just("version"), VERSION),
    st.tuples(st.just("move"), st.one_of(MOVE_TEXT, JSON)),
    st.tuples(st.just("dup"), st.integers(0, 7), JSON),
    st.tuples(st.just("truncate"), POSITION),
    st.tuples(st.just("insert"), POSITION, st.text(min_size=1, max_size=3)),
    st.tuples(st.just("wrap"), st.sampled_from(["[{}]", '{{"m": {}}}', "{} {}", "{}\n"])),
    st.tuples(st.just("bytes"), POSITION, st.binary(min_size=1, max_size=4)),
    st.tuples(st.just("big"), st.integers(1000, 3000)),
)
#: One message as drawn: nothing here depends on the game (Hypothesis replays draws);
#: :func:`_message` fills it in (a legal move by its index, a version by its offset).
RECIPE = st.tuples(
    st.sampled_from(["mover", "mover", "other", "spectator"]),
    st.one_of(
        st.tuples(st.just("template"), st.sampled_from(TEMPLATE_TYPES), st.integers(0, 63),
                  MOVE_TEXT, st.sampled_from([0, 0, -1, 1]), st.text(max_size=30),
                  st.booleans(), MUTATION, st.booleans()),
        st.tuples(st.just("json"), JSON),
        st.tuples(st.just("text"), st.text(max_size=60)),
        st.tuples(st.just("binary"), st.binary(max_size=60)),
    ),
)


def _mutate(obj: dict[str, Any], mutation: tuple[Any, ...], ascii_only: bool) -> str | bytes:
    """One mutation of a well-formed message, as the text (or bytes) on the wire."""
    how = mutation[0]
    keys = sorted(obj)
    if how == "drop":
        obj.pop(keys[mutation[1] % len(keys)])
    elif how == "add":
        obj[mutation[1]] = mutation[2]
    elif how == "replace":
        obj[keys[mutation[1] % len(keys)]] = mutation[2]
    elif how in ("type", "version", "move"):
        obj[how] = mutation[1]
    text = json.dumps(obj, ensure_ascii=ascii_only)
    if how == "dup":
        key = keys[mutation[1] % len(keys)]
        text = text[:-1] + f", {json.dumps(key)}: {json.dumps(mutation[2])}}}"
    elif how == "truncate" and text:
        text = text[: mutation[1] % len(text)]
    elif how == "insert":
        at = mutation[1] % (len(text) + 1)
        text = text[:at] + mutation[2] + text[at:]
    elif how == "wrap":
        text = mutation[1].replace("{}", text, 1)
    elif how == "bytes":
        raw = text.encode("utf-8", "surrogatepass")
        at = mutation[1] % (len(raw) + 1)
        return raw[:at] + mutation[2] + raw[at:]
    elif how == "big":
        text = text[:-1] + ', "pad": "' + "я" * mutation[1] + '"}'
    return text


def _message(drawn: tuple[Any, ...], legal: list[str], version: int) -> str | bytes:
    kind = drawn[0]
    if kind == "json":
        return json.dumps(drawn[1])
    if kind in ("text", "binary"):
        return drawn[1]  # type: ignore[no-any-return]
    _, kind, pick, move_text, offset, chat, on, mutation, ascii_only = drawn
    move = legal[pick % len(legal)] if pick < 32 else move_text
    template: dict[str, Any] = {
        "move": {"type": "move", "move": move, "version": version + offset},
        "sync": {"type": "sync", "version": -1 if offset == -1 else version + offset},
        "snapshot": {"type": "snapshot"},
        "chat": {"type": "chat", "text": chat},
        "hint": {"type": "hint"},
        "open": {"type": "open", "on": on},
    }[kind]
    return _mutate(template, mutation, ascii_only)


def _harmless(raw: str | bytes, seat: int | None, to_move: int | None,
              table: Table) -> str | bytes:
    """The message, unless the server would rightly act on it (a legal move of the seat
    to move, a chat line, the mover's hint): then a stale or spoiled copy, so that the
    batch may change nothing."""
    try:
        msg = read_message(raw)
    except ServerError:
        return raw
    if isinstance(msg, MoveMessage) and seat is not None and seat == to_move:
        try:
            table.clone().submit(seat, msg.move, msg.version)
        except TableError:
            return raw
        return json.dumps({**to_builtins(msg), "version": msg.version + 1})
    if isinstance(msg, ChatMessage) and seat is not None:
        try:
            check_chat(msg.text)
        except ValueError:
            return raw
        return json.dumps({**to_builtins(msg), "text": "x" * 201})
    if isinstance(msg, HintMessage) and seat is not None and seat == to_move:
        return json.dumps({**to_builtins(msg), "extra": 1})
    return raw


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    with Server(f"sqlite:///{path}") as s:
        yield s


def test_fuzzed_messages_crash_nothing_and_change_nothing(fuzz_server: Server) -> None:
    """More than 10,000 random and mutated messages (3,400 in the default run: bad JSON,
    wrong types and keys, a key twice, binary junk, long texts, stale/future versions,
    illegal and out-of-turn moves, spectators' moves, bad chat) at a live table: each
    answered to its sender alone, no crash, and every seat's snapshot unchanged after each
    batch."""
    server = fuzz_server
    table_id, tokens = new_table(server, "house")
    loop = asyncio.new_event_loop()
    rng = random.Random(2024)
    sent = 0

    async def connect() -> dict[Any, Client]:
        clients: dict[Any, Client] = {
            s: await Client.connect(server, table_id, tok, seat=s, sync=False)
            for s, tok in tokens.items()
        }
        clients[None] = await Client.connect(server, table_id, sync=False)
        return clients

    clients = loop.run_until_complete(connect())

    async def batch(plan: list[tuple[Any, str | bytes]]) -> None:
        before = {s: state_of(await c.quiet()) for s, c in clients.items()}
        version = before[None][0]
        counts: dict[Any, int] = {s: 0 for s in clients}
        for who, raw in plan:
            await clients[who].send(raw)
            counts[who] += 1
        for who, c in clients.items():
            await c.send({"type": "snapshot"})
            got = [await c.recv(30) for _ in range(counts[who] + 1)]
            for m in got:
                assert m["type"] in ("error", "events", "snapshot"), m
                if m["type"] == "events":
                    assert m["version"] == version, "a message moved the game"
            assert got[-1]["type"] == "snapshot" or any(m["type"] == "snapshot" for m in got)
        # anything still on its way would show up before these answers
        for who, c in clients.items():
            assert state_of(await c.quiet()) == before[who], f"seat {who}: the table changed"

    async def advance() -> None:
        snap = await clients[None].snapshot()
        if snap["over"]:
            return
        seat = snap["view"]["to_move"]
        mine = await clients[seat].snapshot()
        await clients[seat].send({"type": "move", "move": rng.choice(mine["view"]["legal"]),
                                  "version": mine["version"]})
        for c in clients.values():
            await c.expect(lambda m: m["type"] == "events")

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(recipes=st.lists(RECIPE, min_size=PER_EXAMPLE[0], max_size=PER_EXAMPLE[1]))
    def fuzz(recipes: list[tuple[str, tuple[Any, ...]]]) -> None:
        nonlocal sent
        live = server.hub.tables[table_id]
        table = live.table.clone()  # the game stands still while a batch runs
        to_move = table.to_move
        plan: list[tuple[Any, str | bytes]] = []
        for role, drawn in recipes:
            who = (None if role == "spectator" or to_move is None
                   else to_move if role == "mover" else (to_move + 1) % table.game.n)
            legal = table.view_json(who)["legal"] if who is not None else []
            raw = _message(drawn, legal or ["pass"], table.version)
            plan.append((who, _harmless(raw, who, to_move, table)))
        loop.run_until_complete(batch(plan))
        sent += len(plan)
        assert len(live.table.moves) == len(table.moves)
        loop.run_until_complete(advance())

    try:
        fuzz()
    finally:
        for c in clients.values():
            loop.run_until_complete(c.close())
        loop.close()
    assert sent >= AT_LEAST, f"only {sent} messages were sent"
