"""The server's one-home rules (issue 19): the shape of an id in a path, the refusal of
``--redis`` on a database many workers cannot share, and the hub's API for a table's
moves (:meth:`Hub.write_moves`), which commits them before the caller goes on and in one
transaction with the other tables' moves that wait beside them."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from thousand.engine.rules import Rules
from thousand.server.app import check_cluster_db, create_app
from thousand.server.ids import is_id
from thousand.server.live.hub import Hub
from thousand.server.store.tables import MovesWrite, SeatRow, Store, StoreError, TableRow


def _row(table_id: str) -> TableRow:
    return TableRow(
        id=table_id, created=time.time(), preset="classic",
        rules=Rules.preset_rules("classic").to_json(), names=["A", "B", "C"],
        first_dealer=0, seed=7, clock=30.0, status="playing", listed=True,
        seats=[SeatRow(0, "human", None, "A"), SeatRow(1, "bot", "random", "B"),
               SeatRow(2, "bot", "random", "C")])


def test_an_id_is_what_the_server_makes_and_nothing_else() -> None:
    """The ids the server makes (a table's, a tournament's) pass; what no id can be does
    not: empty, too long, a path, a space, a dot."""
    assert is_id(secrets.token_urlsafe(12)) and is_id(secrets.token_urlsafe(9))
    for bad in ("", "a" * 33, "../t", "a b", "x.y", "t\n"):
        assert not is_id(bad), bad


def test_every_route_refuses_an_id_of_the_wrong_shape_with_404(tmp_path: Path) -> None:
    """The lobby's API, the tables' API and the tournaments' routes share the one shape:
    an id that cannot be refuses with 404 before any store is asked."""
    with TestClient(create_app(f"sqlite:///{tmp_path / 'ids.db'}", bot_delay=0)) as client:
        for path in ("/api/tables/bad.id", "/api/tournaments/bad.id",
                     "/api/tables/" + "a" * 33):
            assert client.get(path).status_code == 404, path
        made = client.post("/api/tables", json={"preset": "classic"})
        assert made.status_code == 201, made.text
        assert client.get(f"/api/tables/{made.json()['table']}").status_code == 200


def test_redis_on_sqlite_is_refused_in_the_same_words_everywhere(tmp_path: Path) -> None:
    """``create_app`` and ``thousand serve`` refuse ``--redis`` with SQLite in the same
    words (one home: :func:`check_cluster_db`), in English and Russian; a PostgreSQL URL,
    ``postgres://`` too, is accepted without being opened."""
    sqlite = f"sqlite:///{tmp_path / 'one.db'}"
    with pytest.raises(StoreError) as refused:
        create_app(sqlite, redis_url="redis://127.0.0.1:1/0")
    assert "PostgreSQL" in str(refused.value)
    assert not (tmp_path / "one.db").exists()  # refused before the store was opened
    check_cluster_db("postgresql+psycopg://u:p@127.0.0.1:1/db")
    check_cluster_db("postgres://u:p@127.0.0.1:1/db")

    from thousand.cli import _register, app

    _register()
    runner = CliRunner()
    for lang in ("en", "ru"):
        out = runner.invoke(app, ["serve", "--db", sqlite, "--redis", "redis://127.0.0.1:1/0",
                                  "--no-browser", "--lang", lang])
        assert out.exit_code == 2
        assert refused.value.text(lang) in " ".join(out.output.split())


def test_write_moves_commits_the_waiting_tables_moves_once(tmp_path: Path) -> None:
    """Moves written while the store's thread is busy go in one transaction (counted on
    the engine); each caller returns only once its moves are committed, and a refused
    write (a move written twice) fails only its own caller."""
    store = Store(f"sqlite:///{tmp_path / 'hub.db'}")
    commits: list[int] = []
    for t in ("w1", "w2", "w3"):
        store.create_table(_row(t))
    store.append_moves("w3", 0, ["pass"])
    sa.event.listen(store.engine, "commit", lambda _conn: commits.append(1))
    hub = Hub(store, bots_threads=1, bot_processes=0)

    async def batch(*writes: MovesWrite) -> list[BaseException | None]:
        busy = asyncio.ensure_future(hub.write(time.sleep, 0.2))  # the thread is busy
        await asyncio.sleep(0.05)
        done = await asyncio.gather(*(hub.write_moves(w) for w in writes),
                                    return_exceptions=True)
        await busy
        return done

    async def play() -> None:
        outcome = await batch(MovesWrite("w1", 0, ["look"]),
                              MovesWrite("w2", 0, ["pass", "100"]),
                              MovesWrite("w3", 0, ["100"]))  # its move 0 is written
        assert outcome[:2] == [None, None]
        assert isinstance(outcome[2], sa.exc.IntegrityError)
        # the shared transaction failed for w3, so each write went again alone
        assert store.moves("w1") == ["look"] and store.moves("w2") == ["pass", "100"]
        assert store.moves("w3") == ["pass"]
        commits.clear()
        assert await batch(MovesWrite("w1", 1, ["pass"]),
                           MovesWrite("w2", 2, ["pass"])) == [None, None]
        assert len(commits) == 1  # the two tables' moves: one commit
        assert store.moves("w1") == ["look", "pass"]
        await hub.stop()

    try:
        asyncio.run(play())
    finally:
        store.close()


def test_the_move_clocks_upper_bound_is_one_for_tables_and_quick_play(tmp_path: Path) -> None:
    """A table laid in the lobby and a quick-play table take the same longest clock
    (routes_play.MAX_CLOCK): one second more is refused by both."""
    from thousand.server.routes.play import MAX_CLOCK

    with TestClient(create_app(f"sqlite:///{tmp_path / 'clock.db'}", bot_delay=0)) as client:
        for path in ("/api/tables", "/api/quickplay"):
            over = client.post(path, json={"preset": "classic", "clock": MAX_CLOCK + 1})
            assert over.status_code == 400 and f"{MAX_CLOCK:g}" in over.text, (path, over.text)
        assert client.post("/api/tables", json={"preset": "classic",
                                                "clock": MAX_CLOCK}).status_code == 201
