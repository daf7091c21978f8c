"""server/live/bot_pool.py: the bots and hints of the server think in processes of their own —
real processes (spawned), killed for real, and a real ``thousand serve`` stopped and
killed to see that none of them outlives it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from depth import kept
from http_client import HTTP
from test_server import Client, Server, free_port, new_table
from thousand.bots import make_bot
from thousand.engine.rules import Rules
from thousand.engine.table import Table
from thousand.server.live import bot_pool
from thousand.server.live.bot_pool import BotAsk, BotCache, BotPool, bot_seed

LEVELS = ("heuristic", "beginner", "random")


def one_deal_table(seed: int) -> Table:
    return Table(Rules.preset_rules("classic", max_deals=1), ["A", "B", "C"], None, seed=seed)


def ask_for(table: Table, table_id: str = "t1", purpose: str = "bot",
            level: str = "heuristic") -> BotAsk:
    seat = table.to_move
    assert seat is not None
    return BotAsk(table_id, purpose, level, seat, table.seed, table.view(seat))


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie not yet reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The processes of ``pids`` still there after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if not gone(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if not gone(p)]


def descendants(pid: int) -> list[int]:
    """Every living process under ``pid`` (from /proc: children, theirs, ...)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parent[int(entry)] = int(fields[1])
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        out += kids
        todo += kids
    return out


def play_out(table: Table, choose: Any) -> list[int]:
    """Play ``table`` to its end, each move from ``choose(table_id, level, table)``."""
    moves = []
    while not table.over:
        seat = table.to_move
        assert seat is not None
        move = choose(LEVELS[seat], table)
        assert move in table.view(seat).legal
        table.submit(seat, move, table.version)
        moves.append(move)
    return moves


# --------------------------------------------------------------------------- the pool


def test_a_bot_thinks_in_another_niced_process_and_the_pool_counts_its_queue() -> None:
    """The answer comes from a process that is not this one, niced by 10 more than the
    server; with one ask in hand per process, the others wait and are counted as queued
    (and the one in hand as busy) until they are answered."""
    pool = BotPool(1)
    try:
        table = one_deal_table(11)

        async def main() -> None:
            asks = [ask_for(table, "t1", level=level) for level in ("strong", *LEVELS)]
            tasks = [asyncio.create_task(pool.choose(a)) for a in asks]
            for _ in range(3):  # each ask handed on or queued; no process has started yet
                await asyncio.sleep(0)  # (a spawned one takes a tenth of a second at least)
            assert (pool.busy(), pool.queued()) == (1, 3)
            answers = await asyncio.gather(*tasks)
            assert (pool.busy(), pool.queued()) == (0, 0)
            pids = {a.pid for a in answers}
            assert pids == set(pool.pids()) and len(pids) == 1
            assert os.getpid() not in pids
            assert all(a.move in table.view(table.to_move).legal and not a.fallback
                       for a in answers)
            pid = pids.pop()
            assert os.getpriority(os.PRIO_PROCESS, pid) == min(
                19, os.getpriority(os.PRIO_PROCESS, 0) + 10)

        asyncio.run(main())
    finally:
        pool.close()
    assert pool.pids() == []


def test_the_pool_plays_the_same_moves_as_bots_in_process() -> None:
    """A whole deal played by the pool's bots (two processes, the table's bots in one
    of them), by the threads' pool, and by bots made here with the same seeds give the
    same moves: a bot's memory lives on between its moves in its process as it would in
    one, and its seed is the table's."""
    seed = 2024

    def local() -> list[int]:
        bots: dict[str, Any] = {}

        def choose(level: str, table: Table) -> int:
            seat = table.to_move
            if level not in bots:
                bots[level] = make_bot(level, seed=bot_seed(seed, f"bot/{level}/{seat}"))
            move: int = bots[level].choose(table.view(seat))
            return move

        return play_out(one_deal_table(seed), choose)

    def pooled(pool: BotPool) -> list[int]:
        async def main() -> list[int]:
            table = one_deal_table(seed)
            moves = []
            while not table.over:
                seat = table.to_move
                assert seat is not None
                answer = await pool.choose(ask_for(table, "same", level=LEVELS[seat]))
                assert not answer.fallback
                table.submit(seat, answer.move, table.version)
                moves.append(answer.move)
            return moves

        try:
            return asyncio.run(main())
        finally:
            pool.close()

    expected = local()
    assert len(expected) > 20
    assert pooled(BotPool(2)) == expected
    assert pooled(BotPool(0, threads=2)) == expected


def test_threads_think_in_this_process() -> None:
    """``processes=0``: threads of the server's process think, as the server always did."""
    pool = BotPool(0, threads=1)
    try:
        answer = asyncio.run(pool.choose(ask_for(one_deal_table(3))))
        assert answer.pid == os.getpid() and pool.pids() == []
    finally:
        pool.close()


def slowly(view: Any) -> Any:
    time.sleep(1)
    return view


class Slow:
    """A view that takes a second to reach the bot process (it is unpickled slowly)."""

    def __init__(self, view: Any) -> None:
        self.view = view

    def __reduce__(self) -> tuple[Any, tuple[Any]]:
        return slowly, (self.view,)


def test_a_killed_process_is_replaced_and_thinks_again() -> None:
    """A process killed between two asks is replaced at the next; one killed while it
    has an ask in hand is replaced and the ask asked once more of the new one: the
    answer is a bot's, not a random move."""
    pool = BotPool(1)
    table = one_deal_table(5)
    try:
        async def main() -> None:
            first = await pool.choose(ask_for(table))
            os.kill(first.pid, signal.SIGKILL)
            assert not wait_gone([first.pid])
            second = await pool.choose(ask_for(table))
            assert second.pid not in (first.pid, os.getpid()) and not second.fallback
            slow = ask_for(table)
            slow = BotAsk(slow.table, "bot", "heuristic", slow.seat, slow.seed,
                          Slow(slow.view))  # type: ignore[arg-type]
            thinking = asyncio.create_task(pool.choose(slow))
            while pool.busy() == 0:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.3)  # it has the ask in hand
            os.kill(second.pid, signal.SIGKILL)
            third = await thinking
            assert third.pid not in (first.pid, second.pid) and not third.fallback
            assert third.move in table.view(table.to_move).legal
            assert pool.restarts == 2

        asyncio.run(main())
    finally:
        pool.close()


def test_a_hint_goes_before_the_bots_waiting() -> None:
    """Behind a bot's move in hand, two bots' moves wait; a hint asked after them is
    answered before them (a person waits for it)."""
    pool = BotPool(1)
    table = one_deal_table(4)
    try:
        async def main() -> None:
            done: list[str] = []

            async def ask(name: str, purpose: str, view: Any) -> None:
                a = ask_for(table, purpose=purpose)
                await (pool.hint if purpose == "hint" else pool.choose)(
                    BotAsk(a.table, purpose, a.level, a.seat, a.seed, view))
                done.append(name)

            slow = Slow(table.view(table.to_move))
            tasks = [asyncio.create_task(ask(f"bot{i}", "bot", slow)) for i in range(3)]
            while pool.busy() == 0:
                await asyncio.sleep(0.01)
            tasks.append(asyncio.create_task(ask("hint", "hint", table.view(table.to_move))))
            deadline = time.monotonic() + 120  # generous: a loaded machine
            while pool.queued() < 3:  # the hint has joined the two bots' asks waiting
                assert time.monotonic() < deadline, f"queued: {pool.queued()}"
                await asyncio.sleep(0.01)
            assert pool.queued() == 3
            await asyncio.gather(*tasks)
            assert done == ["bot0", "hint", "bot1", "bot2"]

        asyncio.run(main())
    finally:
        pool.close()


class Deadly:
    """A view that kills the process that unpickles it: every bot process that gets it
    dies before it can think."""

    def __init__(self, legal: tuple[int, ...]) -> None:
        self.legal = legal

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return os._exit, (3,)


def test_when_every_process_dies_the_move_is_a_random_legal_one() -> None:
    """An ask whose every process dies (the first and its replacement) gets a random
    legal move (the table does not stall); a hint gets an error (a random move is no
    advice); the pool goes on thinking for the next ask."""
    pool = BotPool(1)
    table = one_deal_table(8)
    legal = table.view(table.to_move).legal
    try:
        async def main() -> None:
            deadly = BotAsk("t1", "bot", "heuristic", 0, 1, Deadly(legal))  # type: ignore[arg-type]
            answer = await pool.choose(deadly)
            assert answer.fallback and answer.move in legal and answer.pid == os.getpid()
            assert pool.restarts == 2
            with pytest.raises(Exception, match="terminated abruptly"):
                await pool.hint(BotAsk("t1", "hint", "heuristic", 0, 1, Deadly(legal)))  # type: ignore[arg-type]
            after = await pool.choose(ask_for(table))
            assert not after.fallback and after.pid != os.getpid()

        asyncio.run(main())
    finally:
        pool.close()


def test_processes_that_keep_dying_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    """Processes dying one after the other before answering anything are not started
    again for a while (no two new processes for every move): the moves are random
    meanwhile, then a process is started again and thinks."""
    monkeypatch.setattr(bot_pool, "FIRST_REST", 1.0)
    pool = BotPool(1)
    table = one_deal_table(8)
    legal = table.view(table.to_move).legal
    try:
        async def main() -> None:
            deadly = BotAsk("t1", "bot", "heuristic", 0, 1, Deadly(legal))  # type: ignore[arg-type]
            for _ in range(3):
                assert (await pool.choose(deadly)).fallback
            assert pool.restarts == bot_pool.DEATHS_BEFORE_REST
            resting = await pool.choose(ask_for(table))
            assert resting.fallback and pool.restarts == bot_pool.DEATHS_BEFORE_REST
            await asyncio.sleep(1.1)
            back = await pool.choose(ask_for(table))
            assert not back.fallback and back.pid != os.getpid()

        asyncio.run(main())
    finally:
        pool.close()


def test_a_hint_and_forgetting_a_table() -> None:
    """A hint from the pool has the move, its reason and its advice in both languages;
    the table's bots are kept in its process until it is forgotten, or until more tables
    than its bound (here 1) are asked."""
    pool = BotPool(1, max_tables=1)
    table = one_deal_table(9)
    try:
        async def main() -> None:
            hint = await pool.hint(ask_for(table, "h1", purpose="hint", level="strong"))
            assert hint.move in table.view(table.to_move).legal and hint.pid != os.getpid()
            assert hint.reason is not None and hint.advice is not None
            assert hint.reason["ru"] and hint.reason["en"]
            assert hint.advice["ru"] != hint.advice["en"]
            assert await pool.kept("h1") and not await pool.kept("other")
            pool.forget("h1")
            assert not await pool.kept("h1")
            await pool.choose(ask_for(table, "h2"))
            await pool.choose(ask_for(table, "h3"))
            assert await pool.kept("h3") and not await pool.kept("h2")

        asyncio.run(main())
    finally:
        pool.close()


def test_the_cache_keeps_its_tables_least_recently_asked_out() -> None:
    """Beyond its bound the cache drops the table asked longest ago, not the one asked
    again; a bot is one per (table, purpose, level, seat)."""
    cache = BotCache(max_tables=2)
    table = one_deal_table(1)
    a, b, c = (ask_for(table, t) for t in "abc")
    bot_a = cache.bot(a)
    cache.bot(b)
    assert cache.bot(a) is bot_a  # a asked again: b is now the oldest
    assert cache.bot(ask_for(table, "a", purpose="hint")) is not bot_a
    cache.bot(c)
    assert cache.tables() == ["a", "c"]
    with pytest.raises(ValueError, match="purpose"):
        cache.bot(ask_for(table, "a", purpose="lunch"))
    with pytest.raises(ValueError, match="processes"):
        BotPool(-1)


# --------------------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    path = tmp_path_factory.mktemp("bot_pool") / "games.db"
    with Server(f"sqlite:///{path}", bot_delay=0.02) as s:
        yield s


def wait_over(server: Server, table: str, seconds: float = 90) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r: dict[str, Any] = HTTP.get(f"{server.base}/api/tables/{table}", timeout=30).json()
        if r["status"] == "over":
            return r
        time.sleep(0.1)
    raise AssertionError(f"the table stalled: {r}")


def test_the_server_bots_play_on_when_their_process_is_killed(server: Server) -> None:
    """A table of bots (one deal) whose bot process is killed in the middle goes on to
    its end, its bots in a new process; the server's own process thought for none of it."""
    table, _ = new_table(server, "classic", kinds=["bot", "beginner", "random"],
                         options={"max_deals": 1})
    deadline = time.monotonic() + 120  # generous: a loaded machine
    while not server.hub.bots.pids():
        assert time.monotonic() < deadline, "no bot process answered"
        time.sleep(0.02)
    [pid] = server.hub.bots.pids()
    assert pid != os.getpid()
    os.kill(pid, signal.SIGKILL)
    assert wait_over(server, table)["status"] == "over"
    assert server.hub.bots.restarts >= 1
    assert server.hub.bots.pids() and pid not in server.hub.bots.pids()


def test_a_hint_comes_from_the_bot_process(server: Server) -> None:
    """A person's hint is worked out by the bot process (the server's answer as
    test_server.py checks it: a legal move, its reason and advice in both languages)."""
    table, tokens = new_table(server, "classic", kinds=["human", "bot", "bot"])

    async def main() -> None:
        me = await Client.connect(server, table, tokens[0], seat=0)
        view = (await me.snapshot())["view"]
        while view["to_move"] != 0:
            await asyncio.sleep(0.05)
            view = (await me.snapshot())["view"]
        await me.send({"type": "hint"})
        hint = await me.expect(lambda m: m["type"] in ("hint", "error"), timeout=60)
        assert hint["type"] == "hint", hint
        assert hint["move"] in view["legal"]
        assert hint["reason"]["ru"] and hint["reason"]["en"]
        assert hint["advice"]["ru"] and hint["advice"]["en"]
        await me.close()

    asyncio.run(main())
    pids = server.hub.bots.pids()
    assert pids and os.getpid() not in pids


CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]


def serve_process(folder: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [*CLI, "serve", "--db", f"sqlite:///{folder / 'thousand.db'}", "--port", str(port),
           "--no-browser", "--no-limits", "--bot-delay", "0.05", *extra]
    log = (folder / "serve.log").open("w")
    proc = subprocess.Popen(cmd, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        assert proc.poll() is None, (folder / "serve.log").read_text()
        try:
            if HTTP.get(base + "/api/rules", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("thousand serve did not answer")


def bots_at_work(proc: subprocess.Popen[bytes], base: str) -> list[int]:
    """Lay a table of bots; once a bot process thinks for it, every process under the
    server's."""
    r = HTTP.post(base + "/api/tables", json={"seats": [{"kind": "bot"}] * 3}, timeout=30)
    assert r.status_code == 201, r.text
    deadline = time.monotonic() + 120  # generous: a loaded machine
    while time.monotonic() < deadline:
        if HTTP.get(base + f"/api/tables/{r.json()['table']}", timeout=30).json()[
                "version"] > 3:
            return descendants(proc.pid)
        time.sleep(0.05)
    raise AssertionError("the bots did not play")


@pytest.mark.parametrize("how", kept([signal.SIGTERM, signal.SIGINT, signal.SIGKILL],
                                      {signal.SIGTERM, signal.SIGKILL}))
def test_no_bot_process_outlives_the_server(tmp_path: Path, how: signal.Signals) -> None:
    """``thousand serve`` stopped (SIGTERM, Ctrl+C) ends its bot processes; killed
    (SIGKILL: it can do nothing), its bot processes see it gone and end by themselves.
    (Ctrl+C in the deep run: Uvicorn stops on SIGINT as on SIGTERM, the same way out.)"""
    proc, base = serve_process(tmp_path)
    try:
        kids = bots_at_work(proc, base)
        assert kids, "no bot process"
        proc.send_signal(how)
        assert proc.wait(20) is not None
        if how != signal.SIGKILL:  # a clean stop (Uvicorn raises its signal again at the end)
            log = (tmp_path / "serve.log").read_text()
            assert proc.returncode in (0, -how, 128 + how) and "Traceback" not in log, log
        assert wait_gone(kids) == [], "a process outlived the server"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def test_bot_processes_0_thinks_in_threads_and_a_bad_number_is_refused(tmp_path: Path) -> None:
    """``--bot-processes 0``: the bots play with no process but the server's; a number
    below 0 is refused in one line, before anything starts."""
    proc, base = serve_process(tmp_path, "--bot-processes", "0", "--bots-threads", "1")
    try:
        assert bots_at_work(proc, base) == []
    finally:
        proc.terminate()
        proc.wait(20)
    bad = subprocess.run([*CLI, "serve", "--bot-processes", "-1", "--no-browser"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "--bot-processes" in bad.stderr, bad.stderr
