"""docs/server.md "The store": the server's lasting store on SQLite and on PostgreSQL, and
games that outlive the server — a clean restart, and a server process killed with SIGKILL
at random moves.

PostgreSQL: ``THOUSAND_TEST_PG`` (default ``postgresql+psycopg://postgres@127.0.0.1:5432/
test``); each test makes its own schema and drops it after.  When the server cannot be
reached those tests are skipped, saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import signal
import subprocess
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import make_url

from depth import examples
from http_client import HTTP
from live_server import postgres_schema
from test_server import CLI, Client, Server, free_port, new_table, verify_stream
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.store.tables import (
    ChatRow,
    MovesWrite,
    SeatRow,
    Store,
    TableRow,
    metadata,
    migrate,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    url, drop = postgres_schema()
    try:
        yield url
    finally:
        drop()


def _row(table_id: str, seed: int = 2**100 + 7) -> TableRow:
    rules = Rules.preset_rules("house")
    return TableRow(
        id=table_id, created=time.time(), preset="house", rules=rules.to_json(),
        names=["Аня", "Боря", "Вова"], first_dealer=1, seed=seed, clock=30.0,
        status="waiting", listed=True,
        seats=[SeatRow(0, "human", None, "Аня", "a" * 64), SeatRow(1, "human", None, "Боря"),
               SeatRow(2, "bot", "heuristic", "Вова")],
    )


def test_migrations_make_the_schema_of_the_model(db_url: str) -> None:
    """Opening a store runs the Alembic migrations (again: nothing to do); the schema they
    make is exactly the model's (no difference for autogenerate to find)."""
    Store(db_url).close()
    store = Store(db_url)
    try:
        with store.engine.connect() as conn:
            ctx = MigrationContext.configure(conn)
            # the newest migration (versions/v0003_ratings.py is revision "0003")
            versions = Path(migrate.__code__.co_filename).parent / "migrations" / "versions"
            newest = max(f.name[1:5] for f in versions.glob("v[0-9][0-9][0-9][0-9]_*.py"))
            assert ctx.get_current_revision() == newest
            assert compare_metadata(ctx, metadata) == []
        if db_url.startswith("sqlite"):
            with store.engine.connect() as conn:
                mode = conn.exec_driver_sql("pragma journal_mode").scalar()
            assert mode == "wal"
    finally:
        store.close()


def test_store_keeps_tables_seats_moves_and_chat(db_url: str) -> None:
    """A table's row (a 101-bit seed too), its seats (token hashes only), its append-only
    move log (an index written twice is refused and nothing of that write is kept), its
    chat, taking a free seat once, and finishing — all read back as written."""
    store = Store(db_url)
    try:
        store.create_table(_row("t1"))
        assert store.take_seat("t1", 1, "Борис", "b" * 64, ["Аня", "Борис", "Вова"], "playing")
        assert not store.take_seat("t1", 1, "Вор", "c" * 64, ["Аня", "Вор", "Вова"], "playing")
        assert not store.take_seat("t1", 2, "Вор", "c" * 64, ["Аня", "Вор", "Вова"], "playing")
        store.append_moves("t1", 0, ["look", "100"])
        store.append_moves("t1", 2, ["pass"])
        with pytest.raises(sa.exc.IntegrityError):
            store.append_moves("t1", 2, ["105", "110"])
        assert store.moves("t1") == ["look", "100", "pass"]
        line = store.add_chat("t1", 0, "Аня", "<b>привет</b>")
        assert isinstance(line, ChatRow) and line.id > 0
        assert [c.text for c in store.chat("t1")] == ["<b>привет</b>"]
        row = store.load("t1")
        assert row is not None
        assert row.seed == 2**100 + 7 and row.names == ["Аня", "Борис", "Вова"]
        assert row.status == "playing" and row.moves == ["look", "100", "pass"]
        assert [(s.kind, s.level, s.token_hash) for s in row.seats] == [
            ("human", None, "a" * 64), ("human", None, "b" * 64), ("bot", "heuristic", None)]
        assert Rules.from_json(row.rules) == Rules.preset_rules("house")
        assert [r.id for r in store.unfinished()] == ["t1"]
        store.append_moves("t1", 3, ["105"], over=([0, 2], [1000, 990, 1000]))
        assert store.unfinished() == []
        games, total = store.games(10, 0)
        assert total == 1 and games[0].winner == [0, 2] and games[0].status == "over"
        assert store.load("nope") is None
    finally:
        store.close()


async def _play(server: Server, table: str, clients: dict[Any, Client], moves: int,
                rng: random.Random) -> None:
    """Up to ``moves`` random legal moves by the people (the bots answer by themselves)."""
    spectator = clients[None]
    for _ in range(moves):
        snap = await spectator.snapshot()
        if snap["over"]:
            return
        seat = snap["view"]["to_move"]
        if seat not in clients:  # a bot is thinking
            await spectator.expect(lambda m: m["type"] == "events")
            continue
        mine = await clients[seat].snapshot()
        if mine["version"] != snap["version"] or not mine["view"]["legal"]:
            continue
        await clients[seat].send({"type": "move", "move": rng.choice(mine["view"]["legal"]),
                                  "version": mine["version"]})
        await clients[seat].expect(lambda m: m["type"] in ("events", "error"))


def test_a_restarted_server_goes_on_from_the_same_move(db_url: str) -> None:
    """A server stopped in the middle of a game: the next one rebuilds the table from its
    move log — the same version, the same view for every seat, the chat — and the people
    (their tokens still good) and the bot play it to the end; the stored log replays to
    exactly the events every connection received."""
    rng = random.Random(11)
    with Server(db_url) as first:
        table, tokens = new_table(first, "classic", kinds=["human", "human", "bot"],
                                  options={"max_deals": 2})

        async def part_one() -> dict[Any, Any]:
            clients: dict[Any, Client] = {s: await Client.connect(first, table, t, seat=s)
                                          for s, t in tokens.items()}
            clients[None] = await Client.connect(first, table)
            await clients[0].send({"type": "chat", "text": "до встречи"})
            await clients[0].expect(lambda m: m["type"] == "chat")
            await _play(first, table, clients, 15, rng)
            while (await clients[None].snapshot())["view"]["to_move"] == 2:  # the bot's turn
                await clients[None].expect(lambda m: m["type"] == "events")
            views = {s: await c.snapshot() for s, c in clients.items()}
            for c in clients.values():
                await c.close()
            return views

        before = asyncio.run(part_one())

    with Server(db_url) as second:
        async def part_two() -> dict[Any, Client]:
            clients: dict[Any, Client] = {s: await Client.connect(second, table, t, seat=s)
                                          for s, t in tokens.items()}
            clients[None] = await Client.connect(second, table)
            for s, c in clients.items():
                assert c.snap is not None
                assert c.snap["version"] == before[s]["version"]
                assert c.snap["view"] == before[s]["view"]
                assert c.snap["chat"][-1]["text"] == "до встречи"
            await _play(second, table, clients, 10_000, rng)
            for c in clients.values():
                assert (await c.snapshot())["over"]
                await c.close()
            return clients

        clients = asyncio.run(part_two())
    assert verify_stream(db_url, table, clients).over


# --------------------------------------------------------------------------- SIGKILL


class Process:
    """``thousand serve`` in a subprocess, on a given port."""

    def __init__(self, db_url: str, port: int, log: Path) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.log = open(log, "ab")  # noqa: SIM115 - closed in kill()
        self.proc = subprocess.Popen(
            [*CLI, "serve", "--db", db_url, "--port", str(port), "--no-browser",
             "--bot-delay", "0", "--no-limits"], stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, f"the server exited: {log.read_text()[-2000:]}"
            try:
                if HTTP.get(self.base + "/api/tables", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def post(self, path: str, body: Any) -> httpx.Response:
        return HTTP.post(self.base + path, json=body, timeout=30)

    def get(self, path: str) -> httpx.Response:
        return HTTP.get(self.base + path, timeout=30)

    def ws_url(self, table: str, token: str | None = None) -> str:
        return f"{self.ws_base}/ws/{table}" + (f"?token={token}" if token else "")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self.log.close()


#: The most SIGKILLs of one game (each costs a server's start): the deep run kills more.
KILLS = examples(3, 5)


def test_sigkill_at_random_moves_loses_and_repeats_nothing(tmp_path: Path) -> None:
    """``thousand serve`` killed with SIGKILL at random moves (sometimes right after a
    move was sent, before its answer) and started again on the same database: every move
    anybody was told of is still there, no move is lost or made twice, the clients come
    back with their tokens and resync by version (``sync`` from the last version they
    saw), and the bot and the people play the game to its end."""
    rng = random.Random(2025)
    db = f"sqlite:///{tmp_path / 'killed.db'}"
    port = free_port()
    server = Process(db, port, tmp_path / "server.log")
    r = server.post("/api/tables", {"preset": "house", "options": {"max_deals": 3},
                                     "seats": [{"kind": "human", "name": "Аня"},
                                               {"kind": "human", "name": "Боря"},
                                               {"kind": "bot"}]})
    table, tokens = r.json()["table"], {0: r.json()["token"]}
    tokens[1] = server.post(f"/api/tables/{table}/seats/1", {"name": "Боря"}).json()["token"]
    # what each connection ever received, across every server: by version
    seen: dict[Any, SimpleNamespace] = {
        s: SimpleNamespace(events={}, inbox=[], version=-1) for s in (0, 1, None)}
    kills = 0

    def merge(s: Any, c: Client) -> None:
        mine = seen[s]
        for v, evs in c.events.items():
            assert mine.events.setdefault(v, evs) == evs, f"version {v} came back changed"
        mine.inbox += c.inbox
        mine.version = max(mine.version, c.version)

    async def session() -> bool:
        """Connect everybody, resync, play until the next kill; True when the game ended."""
        nonlocal kills
        clients: dict[Any, Client] = {}
        for s in (0, 1, None):
            token = tokens[s] if s is not None else None
            c = await Client.connect(server, table, token, seat=s, sync=False)  # type: ignore[arg-type]
            assert c.snap is not None
            last = seen[s].version
            assert c.snap["version"] >= last, "a move somebody was told of is gone"
            await c.send({"type": "sync", "version": max(-1, last - 3)})
            got = await c.expect(lambda m: m["type"] == "events")
            versions = sorted({e["v"] for e in got["events"]})
            assert all(v > last - 3 for v in versions)
            clients[s] = c
        try:
            for _ in range(400):
                spectator = clients[None]
                snap = await spectator.snapshot()
                if snap["over"]:
                    for c in clients.values():  # everything sent before is read
                        await c.snapshot()
                    return True
                seat = snap["view"]["to_move"]
                if seat == 2:
                    await spectator.expect(lambda m: m["type"] == "events")
                    continue
                mine = await clients[seat].snapshot()
                if mine["version"] != snap["version"]:
                    continue
                message = {"type": "move", "move": rng.choice(mine["view"]["legal"]),
                           "version": mine["version"]}
                if rng.random() < 0.06 and kills < KILLS:
                    kills += 1
                    await clients[seat].send(message)
                    if rng.random() < 0.5:
                        await asyncio.sleep(rng.random() * 0.02)
                    server.kill()
                    return False
                await clients[seat].send(message)
                await clients[seat].expect(lambda m: m["type"] in ("events", "error"))
            raise AssertionError("the game did not end")
        finally:
            for s, c in clients.items():
                merge(s, c)
                with contextlib.suppress(Exception):  # the server may be dead
                    await asyncio.wait_for(c.close(), 5)

    over = False
    for _ in range(12):
        over = asyncio.run(session())
        if over:
            break
        server = Process(db, port, tmp_path / "server.log")
    try:
        assert over, "the game did not end"
        assert kills >= 2, "too few kills to show anything"
        for s in seen:
            seen[s].version = server.get(f"/api/tables/{table}").json()["version"]
        shadow = verify_stream(db, table, seen)  # type: ignore[arg-type]
        assert shadow.over
        record = json.loads(server.get(f"/api/games/{table}/record").text)
        assert Table.from_record(record).version == shadow.version
    finally:
        server.kill()


def test_a_postgres_schema_that_does_not_exist_is_named_with_its_sql() -> None:
    """``thousand serve --db`` with a ``search_path`` naming a schema that is not there:
    one ``error:`` line, in Russian (English with ``--lang en``), naming the schema and
    the SQL that makes it — not PostgreSQL's "no schema has been selected to create in"."""
    url, drop = postgres_schema()  # skips when PostgreSQL is not there
    drop()
    schema = str(make_url(url).query["options"]).split("=", 1)[1]
    for lang, words in (("ru", f"нет схемы {schema}"), ("en", f"has no schema {schema}")):
        extra = ["--lang", "en"] if lang == "en" else []
        r = subprocess.run([*CLI, "serve", "--db", url, "--port", "0", "--no-browser",
                            *extra], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        mark = "ошибка: " if lang == "ru" else "error: "  # the line's mark in its language
        assert len(lines) == 1 and lines[0].startswith((mark, "error: ")), r.stderr
        assert words in lines[0] and f"CREATE SCHEMA {schema};" in lines[0], lines[0]
        assert "no schema has been selected" not in lines[0]


def test_a_group_commit_writes_every_table_and_a_bad_write_fails_alone(db_url: str) -> None:
    """``append_many`` (the server's group commit of many tables' moves) writes each
    table's moves as ``append_moves`` would, in one transaction; when one of them is
    refused (a log index written twice) the others are still committed, each alone, and
    the refused one changed nothing."""
    store = Store(db_url)
    try:
        for t in ("g1", "g2", "g3"):
            store.create_table(_row(t))
        assert store.append_many([MovesWrite("g1", 0, ["look", "100"]),
                                  MovesWrite("g2", 0, ["pass"]),
                                  MovesWrite("g3", 0, ["105"], ([1], [1000, 0, 0]))]) == [
            None, None, None]
        outcome = store.append_many([MovesWrite("g1", 2, ["pass"]),
                                     MovesWrite("g2", 0, ["105", "110"]),  # twice: refused
                                     MovesWrite("g3", 1, ["pass"])])
        assert outcome[0] is None and outcome[2] is None
        assert isinstance(outcome[1], sa.exc.IntegrityError)
        assert store.moves("g1") == ["look", "100", "pass"]
        assert store.moves("g2") == ["pass"] and store.moves("g3") == ["105", "pass"]
        assert [r.id for r in store.unfinished()] == ["g1", "g2"]
    finally:
        store.close()


def test_the_hubs_batch_of_writes_commits_consecutive_moves_once(tmp_path: Path) -> None:
    """The hub's store thread runs a batch of writes in order; the moves of several
    tables that follow one another are one commit (counted on the engine), and each
    call still gets its own result or exception."""
    from functools import partial

    from thousand.server.live.hub import _run_all

    store = Store(f"sqlite:///{tmp_path / 'batch.db'}")
    commits: list[int] = []
    sa.event.listen(store.engine, "commit", lambda _conn: commits.append(1))
    try:
        for t in ("b1", "b2", "b3"):
            store.create_table(_row(t))
        commits.clear()
        out = _run_all([MovesWrite("b1", 0, ["look"]),
                        MovesWrite("b2", 0, ["pass"], over=None),
                        MovesWrite("b3", 0, ["100"]),
                        partial(store.set_status, "b3", "playing"),
                        MovesWrite("b1", 0, ["pass"])], store)
        assert [ok for ok, _ in out] == [True, True, True, True, False]
        assert isinstance(out[4][1], sa.exc.IntegrityError)
        assert len(commits) == 2  # the three tables' moves, then the status
        assert store.moves("b1") == ["look"] and store.moves("b3") == ["100"]
    finally:
        store.close()
