"""Upgrades keep every game (issue 16, item 11).

``tests/data/v0001.db`` was made by the release before the site's work (commit 98494e5,
schema revision 0001) with its own ``thousand serve`` (tests/data/make_v0001_db.py): three
finished games (one unlisted) and one unfinished; ``v0001.json`` holds what that server
said of each (its version, its record for download, the seat token of seat 0).  Here the
current code opens that database — on SQLite as the file is, and on PostgreSQL after its
rows are loaded into a fresh schema at revision 0001 — migrates it to the newest revision,
and must still list every game with its players, scores and winner, give the same records
(``thousand replay`` of them says the same as of the old ones), bring the unfinished table
back at the same version and take its next move; the new columns are empty (no player at
the old seats, no ratings).  The migrations go down to 0001 and up again with the games
intact.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import make_url
from websockets.sync.client import connect

from live_server import postgres_schema, serve
from thousand.server.store.tables import Store

DATA = Path(__file__).parent / "data"
OLD = json.loads((DATA / "v0001.json").read_text(encoding="utf-8"))
OLD_TABLES = ("tables", "seats", "moves", "chat")


def _alembic(conn: sa.Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("thousand.server.store").joinpath("migrations")))
    cfg.attributes["connection"] = conn
    return cfg


def _old_rows() -> dict[str, list[dict[str, Any]]]:
    """Every row of the old file, table by table."""
    engine = sa.create_engine(f"sqlite:///{DATA / 'v0001.db'}")
    meta = sa.MetaData()
    meta.reflect(engine, only=OLD_TABLES)
    with engine.connect() as conn:
        out = {name: [dict(r._mapping) for r in conn.execute(sa.select(meta.tables[name]))]
               for name in OLD_TABLES}
    engine.dispose()
    return out


def _postgres_at_0001() -> tuple[str, Any]:
    """A fresh PostgreSQL schema at revision 0001 holding the old file's rows: (its URL,
    a function that drops it)."""
    scoped_url, drop = postgres_schema("thousand_upgrade")
    url = make_url(scoped_url)
    scoped = sa.create_engine(url)
    with scoped.begin() as conn:
        command.upgrade(_alembic(conn), "0001")
    meta = sa.MetaData()
    meta.reflect(scoped, only=OLD_TABLES)
    rows = _old_rows()
    with scoped.begin() as conn:
        for name in OLD_TABLES:
            if rows[name]:
                conn.execute(meta.tables[name].insert(), rows[name])
        conn.execute(sa.text("select setval(pg_get_serial_sequence('chat', 'id'), "
                             "coalesce(max(id), 0) + 1, false) from chat"))
    scoped.dispose()
    return scoped_url, drop


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def old_db(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """(the URL of a database as the old release left it, a folder for the server)."""
    folder = tmp_path_factory.mktemp(f"upgrade_{request.param}")
    if request.param == "sqlite":
        shutil.copy(DATA / "v0001.db", folder / "thousand.db")
        yield f"sqlite:///{folder / 'thousand.db'}", folder
        return
    url, drop = _postgres_at_0001()
    try:
        yield url, folder
    finally:
        drop()


def _revision(store: Store) -> str:
    with store.engine.connect() as conn:
        return str(conn.execute(sa.text("select version_num from alembic_version"))
                   .scalar_one())


def _heads() -> str:
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location",
                        str(resources.files("thousand.server.store").joinpath("migrations")))
    return str(ScriptDirectory.from_config(cfg).get_current_head())


def _games(store: Store) -> dict[str, tuple[str, list[str], Any, Any, int]]:
    rows, total = store.games(100, 0)
    assert total == len(OLD)
    return {r.id: (r.status, r.names, r.winner, r.scores, len(store.moves(r.id)))
            for r in rows}


def test_the_store_migrates_the_old_games_and_goes_down_and_up_again(
        old_db: tuple[str, Path]) -> None:
    url, _ = old_db
    old = _old_rows()
    store = Store(url)  # migrates to the newest revision
    try:
        assert _revision(store) == _heads()
        games = _games(store)
        for t in old["tables"]:
            moves = sum(1 for m in old["moves"] if m["table_id"] == t["id"])
            assert games[t["id"]] == (
                t["status"], json.loads(t["names"]),
                json.loads(t["winner"]) if t["winner"] else None,
                json.loads(t["scores"]) if t["scores"] else None, moves)
        row = store.load(OLD[0]["table"])
        assert row is not None
        assert [s.player_id for s in row.seats] == [None, None, None]
        # the person who sat without an account (there were none) is a guest; none left
        assert [s.guest for s in row.seats] == [True, False, False]
        assert row.abandoned == set()
        with store.engine.connect() as conn:
            assert conn.execute(sa.text("select count(*) from ratings")).scalar_one() == 0
            assert conn.execute(sa.text("select count(*) from players")).scalar_one() == 0
        # down to the old schema and up again: the games are the same
        with store.engine.begin() as conn:
            command.downgrade(_alembic(conn), "0001")
        with store.engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
        assert "ratings" not in names and "players" not in names
        assert set(OLD_TABLES) <= names
    finally:
        store.close()
    again = Store(url)
    try:
        assert _revision(again) == _heads()
        assert _games(again) == games
    finally:
        again.close()


def _replay(record: Any, folder: Path, name: str) -> Any:
    """What ``thousand replay --json`` says of a record."""
    path = folder / name
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "from thousand.cli import main; main()", "replay",
         str(path), "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_upgraded_server_lists_replays_and_resumes_the_old_games(
        old_db: tuple[str, Path]) -> None:
    url, folder = old_db
    with serve(folder, "--db", url, "--bot-delay", "0") as base, \
            httpx.Client(base_url=base, timeout=30) as http:
        listed = {g["id"]: g for g in http.get("/api/games").json()["games"]}
        scores = {t["id"]: json.loads(t["scores"]) if t["scores"] else None
                  for t in _old_rows()["tables"]}
        for game in OLD:
            table = game["table"]
            if not game["listed"]:  # the unlisted game stays out of the public history
                assert table not in listed
            else:
                assert listed[table]["players"] == ["Аня", "Бот 2", "Боря"]
            if not game["over"]:
                assert listed[table]["status"] == "playing"
                continue
            if game["listed"]:
                assert listed[table]["status"] == "over"
                assert listed[table]["scores"] == scores[table]
            r = http.get(f"/api/games/{table}/record",
                         headers={"X-Seat-Token": game["token"]})
            assert r.status_code == 200, r.text
            assert _replay(r.json(), folder, f"{table}.new.json") == \
                _replay(game["record"], folder, f"{table}.old.json")
        # the unfinished table: back at the same version, and it takes the next move
        game = next(g for g in OLD if not g["over"])
        ws_url = base.replace("http", "ws", 1) + f"/ws/{game['table']}?token={game['token']}"
        with connect(ws_url, max_size=2**23) as ws:
            snap = json.loads(ws.recv(timeout=20))
            while snap["type"] != "snapshot":
                snap = json.loads(ws.recv(timeout=20))
            assert snap["version"] == game["version"]
            view = snap["view"]
            assert view["to_move"] == 0 and view["legal"]
            ws.send(json.dumps({"type": "move", "move": view["legal"][0],
                                "version": snap["version"]}))
            while True:
                msg = json.loads(ws.recv(timeout=20))
                assert msg["type"] != "error", msg
                if msg["type"] == "events":
                    assert msg["version"] > game["version"]
                    break


def test_migration_0012_marks_the_seats_and_entries_of_guests(tmp_path: Path) -> None:
    """Migration 0012 marks a person's seat (or tournament entry) as a guest's when its
    player is not an account, or it has none: not an account's, a bot's or a free seat."""
    store = Store(f"sqlite:///{tmp_path / 'guests.db'}")
    try:
        with store.engine.begin() as conn:
            command.downgrade(_alembic(conn), "0011")
            conn.execute(sa.text(
                "insert into players (id, kind, name, created) values "
                "('p_acc', 'account', 'Марина', 0), ('p_guest', 'guest', 'Вася', 0)"))
            conn.execute(sa.text(
                "insert into tables (id, created, preset, rules, names, first_dealer, "
                "seed, status, listed) values ('t1', 0, 'classic', '{}', '[]', 0, '1', "
                "'playing', 1)"))
            conn.execute(sa.text(
                "insert into seats (table_id, seat, kind, name, token_hash, player_id) "
                "values ('t1', 0, 'human', 'Марина', 'h0', 'p_acc'), "
                "('t1', 1, 'human', 'Вася', 'h1', 'p_guest'), "
                "('t1', 2, 'human', 'Скрипт', 'h2', null), "
                "('t1', 3, 'human', 'Игрок 4', null, null), "
                "('t1', 4, 'bot', 'Бот 5', null, null)"))
            conn.execute(sa.text(
                "insert into tournament_entries (tournament_id, player_id, bot, name, "
                "joined) values ('x', 'p_acc', null, 'Марина', 0), "
                "('x', 'p_guest', null, 'Вася', 0), ('x', null, 'random', 'случайный 1', 0)"))
            command.upgrade(_alembic(conn), "head")
        with store.engine.connect() as conn:
            seats = conn.execute(sa.text("select guest, abandoned from seats "
                                         "order by seat")).all()
            entries = conn.execute(sa.text("select name, guest from tournament_entries "
                                           "order by id")).all()
        assert [bool(g) for g, _ in seats] == [False, True, True, False, False]
        assert not any(a for _, a in seats)
        assert [(n, bool(g)) for n, g in entries] == [
            ("Марина", False), ("Вася", True), ("случайный 1", False)]
    finally:
        store.close()
