"""docs/server.md "Analysis": a finished game's analysis is queued once per settings, run in
a process of its own, limited per asker and for the whole queue, and a job a stopped
server left running is run again when it starts.  A real server (Uvicorn, SQLite file),
real bots' game, the real analysis (open-card values only, to be fast)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from live_server import wait_over
from test_server import Server, new_table
from thousand.server.features.analysis_jobs import AnalysisLimits
from thousand.server.store import analyses as st
from thousand.server.store.tables import Store, seats_t

#: Open-card values only: a deal in seconds.
FAST = {"view_based": False, "samples": 1, "lang": "en"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('analyses') / 'games.db'}"


@pytest.fixture(scope="module")
def game(db: str) -> str:
    """A game of three bots, over after its one deal."""
    with Server(db, bot_processes=0) as server:
        table, _ = new_table(server, kinds=["bot"] * 3, options={"max_deals": 1})
        wait_over(server.base, table, what="the bots' game")
    return table


def wait_done(server: Server, game: str, settings: dict[str, Any]) -> dict[str, Any]:
    query = f"?samples={settings['samples']}&view_based={str(settings['view_based']).lower()}"
    query += f"&lang={settings['lang']}"
    deadline = time.monotonic() + 60
    while True:
        r = server.get(f"/api/games/{game}/analysis{query}")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] in ("done", "failed"):
            return body
        assert time.monotonic() < deadline, f"the analysis did not end: {body}"
        time.sleep(0.2)


def test_a_running_game_is_not_analysed(db: str, game: str) -> None:
    with Server(db, bot_processes=0) as server:
        table, _ = new_table(server, kinds=["human", "bot", "bot"])
        r = server.post(f"/api/games/{table}/analysis", FAST)
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_running"
        r = server.post("/api/games/nosuchgame/analysis", FAST)
        assert r.status_code == 404


def test_an_analysis_is_queued_once_and_kept(db: str, game: str) -> None:
    with Server(db, bot_processes=0) as server:
        first = server.post(f"/api/games/{game}/analysis", FAST)
        assert first.status_code == 200, first.text
        assert first.json()["status"] in ("queued", "running", "done")
        again = server.post(f"/api/games/{game}/analysis", FAST)  # the same job, not a new one
        assert again.status_code == 200, again.text
        body = wait_done(server, game, FAST)
        assert body["status"] == "done", body
        assert body["result"]["kind"] == "thousand-analysis"
        assert body["result"]["settings"]["view_based"] is False
        assert body["progress"]["done"] == body["progress"]["total"] > 0
        store = server.app.state.store
        row = st.find(store, game, st.Settings(1, False, "en"))
        assert row is not None and row.status == "done"
        # asked once more: the stored result at once, the same row, nothing queued
        third = server.post(f"/api/games/{game}/analysis", FAST)
        assert third.json()["status"] == "done"
        assert third.json()["result"] == body["result"]
        later = st.find(store, game, st.Settings(1, False, "en"))
        assert later is not None and (later.id, later.created) == (row.id, row.created)


def test_the_limits_refuse_with_their_codes(db: str, game: str) -> None:
    limits = AnalysisLimits(per_client_active=1)
    with Server(db, bot_processes=0, analysis_limits=limits) as server:
        ok = server.post(f"/api/games/{game}/analysis", {**FAST, "samples": 2})
        assert ok.status_code == 200, ok.text
        over = server.post(f"/api/games/{game}/analysis", {**FAST, "samples": 3})
        assert over.status_code == 429
        assert over.json()["error"]["code"] == "too_many_analyses"
        wait_done(server, game, {**FAST, "samples": 2})
    with Server(db, bot_processes=0, analysis_limits=AnalysisLimits(queue_max=0)) as server:
        full = server.post(f"/api/games/{game}/analysis", {**FAST, "lang": "ru"})
        assert full.status_code == 503
        assert full.json()["error"]["code"] == "queue_full"


def test_a_job_left_running_by_a_stopped_server_is_run_at_start(db: str, game: str) -> None:
    store = Store(db)
    settings = st.Settings(4, False, "ru")
    st.ask(store, game, settings, "addr:10.0.0.9", None)
    claimed = st.claim_next(store, "a-worker-that-died")
    assert claimed is not None and claimed.game_id == game
    assert st.find(store, game, settings).status == "running"  # type: ignore[union-attr]
    store.close()
    with Server(db, bot_processes=0) as server:
        body = wait_done(server, game, {"samples": 4, "view_based": False, "lang": "ru"})
        assert body["status"] == "done", body
        assert body["result"]["settings"]["lang"] == "ru"



def test_a_queued_job_has_one_claimant_and_a_silent_ones_is_queued_again(
        tmp_path: Path) -> None:
    """Many workers: the claim is an UPDATE of a queued row, so the second claimant gets
    nothing; a running job whose worker gave no sign of life is queued again, a lively
    one is not."""
    store = Store(f"sqlite:///{tmp_path / 'jobs.db'}")
    first = st.ask(store, "g1", st.Settings(1, False, "ru"), "addr:a", None)
    second = st.ask(store, "g2", st.Settings(1, False, "ru"), "addr:b", "acc")
    assert st.position(store, first.id) == 1 and st.position(store, second.id) == 2
    one = st.claim_next(store, "w1")
    two = st.claim_next(store, "w2")
    assert one is not None and two is not None and one.id != two.id
    assert st.claim_next(store, "w3") is None  # nothing left: no job claimed twice
    assert st.position(store, one.id) == 0
    assert st.requeue_stale(store, 3600.0) == 0  # both just beat
    st.beat(store, two.id)
    assert st.requeue_stale(store, -1.0) == 2  # "silent for more than -1 s": both
    assert st.counts_of(store, "addr:a", "") == st.Counts(client=1, address=2, queued=2)
    store.close()


def test_the_exercises_find_the_done_analyses_of_an_accounts_games(db: str, game: str) -> None:
    store = Store(db)
    st.finish(store, st.ask(store, game, st.Settings(7, False, "en"), "addr:x", None).id,
              {"kind": "thousand-analysis"})
    assert st.finished_analyses(store, "no-such-account") == []
    # a seat's player: the bots' seats have none, so give one seat a player
    with store.engine.begin() as conn:
        conn.execute(sa.update(seats_t).where(seats_t.c.table_id == game,
                                              seats_t.c.seat == 0).values(player_id="acc1"))
    found = st.finished_analyses(store, "acc1")
    assert [r.settings for r in found if r.game_id == game] and all(
        r.status == "done" and r.game_id == game for r in found)
    store.close()


def test_two_asks_of_one_key_that_both_found_no_row_give_one_row(db: str) -> None:
    """Two POSTs of one game and settings may both find no row before either inserts
    (the route awaits between find and ask): the second gives the first's row, no
    IntegrityError (a 500)."""
    store = Store(db)
    key = st.Settings(4, False, "ru")
    assert st.find(store, "race-g1", key) is None
    first = st.ask(store, "race-g1", key, "1.2.3.4", None)
    second = st.ask(store, "race-g1", key, "5.6.7.8", None)
    assert second.id == first.id and second.status == "queued"
