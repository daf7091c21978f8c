"""docs/server.md "Analysis", the exercises: a signed-in player's exercises are the marked
moves of his own seat in his games' done analyses; an answer is right when it is one of
the analysis's good moves.  A real server (Uvicorn, SQLite file), a real bots' game; the
analysis is written here, so that which move is good is known without the program."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from http_client import HTTP
from live_server import wait_over
from test_accounts import me, post, signup
from test_server import Server, new_table
from thousand.analysis.walk import decisions
from thousand.engine.moves import move_str
from thousand.engine.record import load_record
from thousand.server.store import analyses as st
from thousand.server.store.tables import Store, seats_t


def give_seat(db_url: str, game: str, seat: int, account: str) -> None:
    """Let ``account`` have held ``seat`` of ``game`` (the bots' seats have no player)."""
    store = Store(db_url)
    with store.engine.begin() as conn:
        conn.execute(sa.update(seats_t).where(seats_t.c.table_id == game,
                                              seats_t.c.seat == seat).values(player_id=account))
    store.close()


def authored_analysis(record_text: str, seat: int, phase: str | None = None,
                      cost: float = 70.0) -> tuple[dict[str, Any], str, str]:
    """An analysis in docs/analysis.md's shape marking ``seat``'s first unforced move (of
    ``phase`` when given) a blunder of ``cost``, another legal move its best: (analysis,
    the good move, the played move)."""
    decision = next(d for d in decisions(load_record(record_text))
                    if d.seat == seat and not d.forced and phase in (None, d.phase))
    played = move_str(decision.move)
    good = next(move_str(m) for m in decision.view.legal if move_str(m) != played)
    marked = {"index": decision.index, "seat": seat, "phase": decision.phase,
              "played": played, "forced": False, "trick": None,
              "view": {"best": good, "cost": cost, "low": 60.0, "high": 80.0, "samples": 2,
                       "moves": [{"move": good, "value": 80.0},
                                 {"move": played, "value": 10.0}]},
              "open": None, "mark": "blunder", "basis": "view", "reason": "A reason."}
    analysis = {"format": 1, "kind": "thousand-analysis",
                "settings": {"thresholds": {"inaccuracy": 10, "mistake": 25, "blunder": 60}},
                "deals": [{"number": decision.deal, "declarer": None,
                           "decisions": [marked]}]}
    return analysis, good, played


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('exercises') / 'games.db'}"


@pytest.fixture(scope="module")
def server(db: str) -> Iterator[Server]:
    with Server(db, bot_processes=0) as s:
        yield s


@pytest.fixture(scope="module")
def solver(server: Server, db: str) -> tuple[httpx.Client, str, str, str]:
    """An account that held seat 0 of a finished bots' game analysed (by this file):
    (its client, the game, the good move, the played move)."""
    table, _ = new_table(server, kinds=["bot"] * 3, options={"max_deals": 1})
    wait_over(server.base, table, what="the bots' game")
    record = server.get(f"/api/games/{table}/record").text
    analysis, good, played = authored_analysis(record, 0)
    store = Store(db)
    st.finish(store, st.ask(store, table, st.Settings(2, True, "en"), "addr:x", None).id,
              analysis)
    store.close()
    c = signup(server, "Решатель")
    give_seat(db, table, 0, me(c)["player"]["id"])
    return c, table, good, played


def test_exercises_want_a_signed_in_player(server: Server) -> None:
    r = HTTP.get(server.base + "/api/exercises", timeout=30)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    r = HTTP.post(server.base + "/api/exercises/1-1-0/answer", json={"move": "AS"}, timeout=30)
    assert r.status_code in (401, 403)  # 403: a guest's POST without its CSRF token


def test_an_account_without_analysed_games_has_no_exercises(server: Server) -> None:
    c = signup(server, "Новичок")
    r = c.get("/api/exercises")
    assert r.status_code == 200 and r.json() == {"exercises": []}


def test_the_list_gives_the_marked_position_as_its_seat_saw_it(
        solver: tuple[httpx.Client, str, str, str]) -> None:
    c, table, good, played = solver
    r = c.get("/api/exercises")
    assert r.status_code == 200, r.text
    (ex,) = r.json()["exercises"]
    assert ex["game"] == table and ex["seat"] == 0 and ex["id"].endswith(f"-1-{ex['index']}")
    assert ex["view"]["seat"] == 0 and ex["view"]["to_move"] == 0
    assert good in ex["legal"] and played in ex["legal"]
    assert ex["view"]["legal"] == ex["legal"]
    assert len(ex["players"]) == 3
    assert "good" not in ex and "played" not in ex  # the answer is not given away


def test_a_good_move_is_right_and_the_games_move_wrong(
        solver: tuple[httpx.Client, str, str, str]) -> None:
    c, _, good, played = solver
    (ex,) = c.get("/api/exercises").json()["exercises"]
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": good})
    assert r.status_code == 200, r.text
    assert r.json() == {"right": True, "kind": ex["kind"], "played": played, "best": good,
                        "good": [good], "reason": "A reason.", "cost": 70.0}
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": played})
    assert r.status_code == 200 and r.json()["right"] is False


def test_an_unknown_exercise_is_404_and_a_bad_move_400(
        server: Server, solver: tuple[httpx.Client, str, str, str]) -> None:
    c, _, _, _ = solver
    (ex,) = c.get("/api/exercises").json()["exercises"]
    r = post(c, "/api/exercises/999-1-0/answer", {"move": "AS"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": "ace of spades"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_move"
    assert "ace of spades" in r.json()["error"]["message"]
    illegal = next(m for m in ("AS", "9S", "pass", "120") if m not in ex["legal"])
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": illegal})
    assert r.status_code == 400 and r.json()["error"]["code"] == "illegal_move"
    # a player whose seat it was not finds none of it
    other = signup(server, "Чужой")
    r = post(other, f"/api/exercises/{ex['id']}/answer", {"move": ex["legal"][0]})
    assert r.status_code == 404

