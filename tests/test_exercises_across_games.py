"""docs/server.md "Analysis", exercises across games: a signed-in player's draw comes from
every analysed game of his, each exercise of its kind; his answers are kept and his
progress (by kind, in all and week by week) follows them.  A real server (Uvicorn, SQLite
file) and real bots' games; the analyses are written here (test_exercises_web)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from http_client import HTTP
from live_server import wait_over
from test_accounts import me, post, signup
from test_exercises_web import authored_analysis, db, give_seat, server  # noqa: F401
from test_server import Server, new_table
from thousand.analysis.mistake_kinds import KINDS, kind_of
from thousand.server.store import analyses as st
from thousand.server.store.tables import Store


def _analysed_game(at: Server, db_url: str, phase: str, cost: float) -> dict[str, Any]:
    """A finished bots' game whose analysis marks seat 0's first ``phase`` decision:
    {"game", "good", "played", "kind"}."""
    table, _ = new_table(at, kinds=["bot"] * 3, options={"max_deals": 1})
    wait_over(at.base, table, what="the bots' game")
    record = at.get(f"/api/games/{table}/record").text
    analysis, good, played = authored_analysis(record, 0, phase=phase, cost=cost)
    store = Store(db_url)
    st.finish(store, st.ask(store, table, st.Settings(2, True, "en"), "addr:x", None).id,
              analysis)
    store.close()
    return {"game": table, "good": good, "played": played,
            "kind": kind_of(phase, played, [good])}


@pytest.fixture(scope="module")
def player(server: Server,  # noqa: F811
           db: str) -> tuple[httpx.Client, list[dict[str, Any]]]:  # noqa: F811
    """An account that held seat 0 of two analysed games: one marked in the auction, one
    in the play."""
    games = [_analysed_game(server, db, "auction", 40.0),
             _analysed_game(server, db, "play", 90.0)]
    c = signup(server, "Ученица")
    for g in games:
        give_seat(db, g["game"], 0, me(c)["player"]["id"])
    return c, games


def _kinds(progress: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {k["kind"]: k for k in progress["kinds"]}


def test_the_draw_takes_exercises_from_both_games_each_of_its_kind(
        player: tuple[httpx.Client, list[dict[str, Any]]]) -> None:
    c, games = player
    r = c.get("/api/exercises")
    assert r.status_code == 200, r.text
    drawn = r.json()["exercises"]
    assert {e["game"] for e in drawn} == {g["game"] for g in games}
    by_game = {g["game"]: g for g in games}
    for e in drawn:
        assert e["kind"] == by_game[e["game"]]["kind"]
    assert drawn[0]["kind"] != drawn[1]["kind"]


def test_progress_weighs_the_kinds_and_follows_the_answers(
        player: tuple[httpx.Client, list[dict[str, Any]]]) -> None:
    c, games = player
    auction, play = games
    r = c.get("/api/exercises/progress")
    assert r.status_code == 200, r.text
    before = r.json()
    kinds = _kinds(before)
    assert list(kinds) == list(KINDS)
    assert kinds["auction"]["weight"] == pytest.approx(40 / 130, abs=1e-3)
    assert kinds[play["kind"]]["weight"] == pytest.approx(90 / 130, abs=1e-3)
    assert kinds["auction"]["mistakes"] == 1 and kinds["auction"]["cost"] == 40.0
    assert all(k["answered"] == 0 for k in kinds.values())
    (week,) = before["weeks"]
    assert week["games"] == 2
    assert week["kinds"]["auction"]["cost"] == 20.0  # 40 over two games
    assert week["kinds"][play["kind"]]["cost"] == 45.0

    ex = next(e for e in c.get("/api/exercises").json()["exercises"]
              if e["game"] == auction["game"])
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": auction["good"]})
    assert r.status_code == 200 and r.json()["right"] is True
    assert r.json()["kind"] == "auction"
    r = post(c, f"/api/exercises/{ex['id']}/answer", {"move": auction["played"]})
    assert r.json()["right"] is False
    after = c.get("/api/exercises/progress").json()
    kinds = _kinds(after)
    assert (kinds["auction"]["answered"], kinds["auction"]["solved"]) == (2, 1)
    assert kinds[play["kind"]]["answered"] == 0
    assert after["weeks"][-1]["kinds"]["auction"]["answered"] == 2

    # the solved exercise leaves the draw while another is left to solve
    drawn = c.get("/api/exercises").json()["exercises"]
    assert [e["game"] for e in drawn] == [play["game"]]


def test_progress_is_for_a_signed_in_player(server: Server) -> None:  # noqa: F811
    r = HTTP.get(server.base + "/api/exercises/progress", timeout=30)
    assert r.status_code == 401 and r.json()["error"]["code"] == "not_signed_in"
    c = signup(server, "Пустой")
    body = c.get("/api/exercises/progress").json()
    assert body["weeks"] == [] and all(k["weight"] == 0 and k["mistakes"] == 0
                                       for k in body["kinds"])
