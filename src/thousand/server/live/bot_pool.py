"""Where the server's bots and hints think: out of the server's process by default.

A search bot (levels ``strong`` and ``expert``: sampling over a C double-dummy solver, the
rest of it Python) holds the GIL for most of a second a decision; thinking in a thread of
the server would slow every person's move at every table of that process.  So a
:class:`BotPool` of ``processes`` K (``thousand serve --bot-processes``, default 1) thinks
in K processes of its own, started from nothing (the ``spawn`` context: no copy of the
server's threads, sockets or database connections), when first asked — a server without
bots never starts one — and niced (``os.nice(10)``) so that the operating system gives the
server's own process the CPU first.  ``processes=0`` thinks in ``threads`` threads of the
server's process instead, as the server always did: for a program that embeds it.

What goes to a process is a :class:`BotAsk`: the table, the purpose (``bot``, ``standin``,
``hint``), the level, the seat, the table's seed and the seat's
:class:`~thousand.engine.view.View` (it pickles, about 500 bytes).  A table's asks always go to the
same process (by a hash of its id), which keeps that table's bots: one per (purpose,
level, seat), seeded from the table's seed, so a bot remembers what it saw from one move
to the next as it would in one process (:class:`BotCache`, bounded: the tables least
recently asked leave first; :meth:`BotPool.forget` drops a table that ended).

Each process has at most ``in_flight`` asks in hand; more wait in the server, their turns
fair by the address that laid each table (server/live/bot_turns.py: a person's hint before the
bots' moves, the address holding fewest places first, none holding more than its
``thinking`` places) — counted by :meth:`BotPool.queued` (and those in hand by
:meth:`BotPool.busy`) for the metrics.  A
process that dies (killed, crashed) is replaced and the asks it had are asked once more of
the new one; a bot's move that still cannot be had (or a bot that fails) is a random legal
move (:meth:`BotPool.choose`), so that a table never stalls on a bot.  Processes that keep
dying before they answer anything (:data:`DEATHS_BEFORE_REST` in a row) are not started
again for a while (seconds, doubled at each new death): the moves meanwhile are random.
:meth:`BotPool.close` ends every process (and each ends by itself if the server's process
dies: it watches it).

A spawned process imports the main module of the server's program again (the rule of
``multiprocessing``'s ``spawn``: ``thousand serve`` keeps it; a program that embeds the
server keeps its work under ``if __name__ == "__main__":``, or uses ``processes=0``), and
knows the bot levels of the modules it imports (``thousand.bots`` and its search bots), not
a level that the program registered at run time (``processes=0`` again).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import multiprocessing.connection
import os
import random
import signal
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial

from thousand.bots import Bot, make_bot
from thousand.engine import moves as mv
from thousand.engine.view import View
from thousand.words.catalogue import advice_for

from .bot_turns import Share, ThinkingCaps, Turns

__all__ = ["PURPOSES", "BotAnswer", "BotAsk", "BotCache", "BotPool", "BotPoolClosed",
           "BotProcessesDown", "bot_seed", "choose", "explain"]

log = logging.getLogger("thousand.server")

#: What a bot thinks for: a bot's seat, a person's seat while he is away, a hint.
PURPOSES = ("bot", "standin", "hint")
#: The tables whose bots one process (or the threads' pool) keeps at most.
MAX_TABLES = 512
#: The asks one process has in hand at most (thinking, or next in its pipe); more wait.
IN_FLIGHT = 1
#: Deaths of a slot's processes in a row, none answering, before it rests (see _Slot).
DEATHS_BEFORE_REST = 5
#: The first rest, in seconds (doubled at each death after, up to MAX_REST).
FIRST_REST, MAX_REST = 5.0, 60.0


class BotPoolClosed(RuntimeError):
    """The pool was closed (the server stops): nobody thinks any more."""


class BotProcessesDown(RuntimeError):
    """The bot processes of a table keep dying before they answer anything (a program
    whose main module cannot be imported again by a spawned process, a bot that crashes
    its process): none is started for a while."""


@dataclass(frozen=True, slots=True)
class BotAsk:
    """What one bot is to think about: ``view``, the view of ``seat`` at ``table`` (whose
    seed is ``seed``), for ``purpose`` (one of :data:`PURPOSES`) at ``level``."""

    table: str
    purpose: str
    level: str
    seat: int
    seed: int
    view: View


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """A bot's move; a hint's also has its ``reason`` and its ``advice`` (the move said
    to a person), each in ``ru`` and ``en``.  ``pid``: the process that thought (the
    tests check that it is not the server's); ``fallback``: a random legal move, because
    no bot could think."""

    move: mv.Move
    reason: dict[str, str] | None = None
    advice: dict[str, str] | None = None
    pid: int = 0
    fallback: bool = False


def bot_seed(seed: int, what: str) -> int:
    """The seed of one bot of a table: from the table's ``seed`` and what the bot is for
    (``purpose/level/seat``), so that every bot of every table differs and each is the
    same bot again after a restart."""
    digest = hashlib.sha256(f"thousand/bot/{seed}/{what}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def choose(bot: Bot, view: View) -> mv.Move:
    """The bot's move; a move it may not make (or a bot that fails) gives way to a random
    legal one, so that a table never stalls on a bot."""
    try:
        move = bot.choose(view)
        if move in view.legal:
            return move
        log.warning("bot %s chose %r, not a legal move", type(bot).__name__, move)
    except Exception:
        log.exception("bot %s failed; playing a random legal move", type(bot).__name__)
    return random.choice(view.legal)


def explain(bot: Bot, view: View) -> tuple[mv.Move, dict[str, str]]:
    """A hint: the move and its reason in both languages."""
    decide = getattr(bot, "decide", None)
    if callable(decide):
        move, reason = decide(view)
        if isinstance(reason, tuple) and len(reason) == 2:
            return move, {"en": str(reason[0]), "ru": str(reason[1])}
        return move, {"en": str(reason), "ru": str(reason)}
    from thousand.bots import decide_with_reason

    move, ru = decide_with_reason(bot, view, "ru")
    _, en = decide_with_reason(bot, view, "en")
    return move, {"ru": ru, "en": en}


class BotCache:
    """The bots of the tables one process thinks for: per table, one bot per (purpose,
    level, seat) — a bot may remember what it saw, so the hint bot of a seat never plays
    it, nor one seat's bot another's.  Beyond ``max_tables`` tables the one least
    recently asked leaves (its bots start afresh from their seeds if it comes back)."""

    def __init__(self, max_tables: int = MAX_TABLES) -> None:
        if max_tables < 1:
            raise ValueError("max_tables must be at least 1")
        self.max_tables = max_tables
        self._tables: OrderedDict[str, dict[tuple[str, int], Bot]] = OrderedDict()
        self._lock = threading.Lock()  # the threads' pool asks from several threads

    def bot(self, ask: BotAsk) -> Bot:
        """The bot for ``ask``, made (and seeded) on its table's first such ask."""
        if ask.purpose not in PURPOSES:
            raise ValueError(f"a bot's purpose is one of {', '.join(PURPOSES)}, "
                             f"not {ask.purpose!r}")
        with self._lock:
            bots = self._tables.get(ask.table)
            if bots is None:
                bots = self._tables[ask.table] = {}
                while len(self._tables) > self.max_tables:
                    self._tables.popitem(last=False)
            else:
                self._tables.move_to_end(ask.table)
            key = (f"{ask.purpose}:{ask.level}", ask.seat)
            bot = bots.get(key)
            if bot is None:
                what = f"{ask.purpose}/{ask.level}/{ask.seat}"
                bot = bots[key] = make_bot(ask.level, seed=bot_seed(ask.seed, what))
            return bot

    def forget(self, table: str) -> None:
        """Drop the bots of a table that ended."""
        with self._lock:
            self._tables.pop(table, None)

    def tables(self) -> list[str]:
        """The tables whose bots are kept, least recently asked first."""
        with self._lock:
            return list(self._tables)


def answer(cache: BotCache, ask: BotAsk) -> BotAnswer:
    """Think: the move of ``ask``'s bot (a hint's with its reason and advice)."""
    bot = cache.bot(ask)
    if ask.purpose == "hint":
        move, reason = explain(bot, ask.view)
        advice = {lang: advice_for(ask.view, move, lang) for lang in ("ru", "en")}
        return BotAnswer(move, reason, advice, os.getpid())
    return BotAnswer(choose(bot, ask.view), pid=os.getpid())


# ---------------------------------------------------------------------- in a bot process

#: The bots of the tables this process thinks for (in a bot process only).
_CACHE = BotCache()


def _answer_here(ask: BotAsk) -> BotAnswer:
    return answer(_CACHE, ask)


def _forget_here(table: str) -> None:
    _CACHE.forget(table)


def _tables_here() -> list[str]:
    return _CACHE.tables()


def _start_process(max_tables: int) -> None:
    """A bot process begins: it keeps the bots of ``max_tables`` tables at most, yields
    the CPU to the server (nice 10), leaves Ctrl+C to the server (which ends it), and ends
    as soon as the server's process does, however that dies (no orphan thinking for
    nobody)."""
    _CACHE.max_tables = max_tables
    with contextlib.suppress(AttributeError, OSError):  # not on this system, not allowed
        os.nice(10)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        sentinel = parent.sentinel

        def watch() -> None:
            multiprocessing.connection.wait([sentinel])
            os._exit(0)

        threading.Thread(target=watch, name="thousand-bot-parent", daemon=True).start()


# ---------------------------------------------------------------------- in the server


def _terminate(executor: ProcessPoolExecutor) -> None:
    """End a process pool now, its thinking too (``shutdown`` would wait for it): the
    pool's own table of its processes, which ``ProcessPoolExecutor`` has always kept
    (Python 3.14 says it as ``terminate_workers``)."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(3)
        if process.is_alive():
            process.kill()
            process.join(3)


class _Slot:
    """One bot process (or, with threads, the threads' pool): its executor, made when
    first needed and again when its process died, and its asks in hand."""

    def __init__(self) -> None:
        self.executor: Executor | None = None
        self.pid: int | None = None
        self.running = 0
        #: its processes' deaths since one last answered, and until when (monotonic) it
        #: rests after too many: a process that dies as it starts would otherwise cost
        #: two new processes for every bot's move
        self.deaths = 0
        self.rest_until = 0.0


class BotPool:
    """The bots' and hints' thinking of one server process: in ``processes`` processes
    (0: in ``threads`` threads of this process), each with at most ``in_flight`` asks in
    hand (see the module's docstring)."""

    def __init__(self, processes: int = 1, *, threads: int = 2, in_flight: int = IN_FLIGHT,
                 max_tables: int = MAX_TABLES, caps: ThinkingCaps | None = None) -> None:
        if isinstance(processes, bool) or not isinstance(processes, int) or processes < 0:
            raise ValueError("processes must be a whole number from 0 (0: threads)")
        if threads < 1 or in_flight < 1:
            raise ValueError("threads and in_flight must be at least 1")
        self.processes = processes
        self.threads = threads
        self._limit = in_flight if processes else threads
        self._max_tables = max_tables
        self._cache = BotCache(max_tables) if processes == 0 else None
        self._slots = [_Slot() for _ in range(max(1, processes))]
        #: the most places one client and one address hold at once (server/live/bot_turns.py)
        self.caps = caps if caps is not None else ThinkingCaps()
        self._turns: tuple[asyncio.AbstractEventLoop, Turns] | None = None
        self._asked: set[str] = set()
        self._closed = False
        #: processes replaced after one died
        self.restarts = 0

    # ------------------------------------------------------------------ for the metrics

    def queued(self) -> int:
        """Asks waiting for a process (or a thread) to take them: the bots' queue (the
        number a ``bot_queue`` gauge shows; it grows when the bots think slower than
        their tables ask)."""
        return self._turns[1].waiting() if self._turns is not None else 0

    def busy(self) -> int:
        """Asks being thought about (or handed to a process, next in its pipe): at most
        ``processes * in_flight`` (``threads`` with threads)."""
        return sum(slot.running for slot in self._slots)

    def pids(self) -> list[int]:
        """The bot processes that have answered so far, still the pool's (none with
        threads)."""
        return [slot.pid for slot in self._slots
                if slot.pid is not None and slot.executor is not None and self.processes]

    # ------------------------------------------------------------------ thinking

    async def choose(self, ask: BotAsk, share: Share | None = None) -> BotAnswer:
        """A bot's move: never fails (but for being cancelled) — when no process can
        think, even once replaced, a random legal move (``fallback``).  ``share``: who
        laid the table, whose fair share of the pool the ask takes (None: the table's
        own)."""
        try:
            return await self._ask(ask, share)
        except BotPoolClosed:
            raise
        except BotProcessesDown:
            log.warning("table %s: the bot processes are down; a random legal move",
                        ask.table)
        except Exception:
            log.exception("table %s: no bot could think; playing a random legal move",
                          ask.table)
        return BotAnswer(random.choice(ask.view.legal), pid=os.getpid(), fallback=True)

    async def hint(self, ask: BotAsk, share: Share | None = None) -> BotAnswer:
        """A hint: the move, its reason and its advice (raises when none can be had:
        a random move would be no advice)."""
        return await self._ask(ask, share)

    def forget(self, table: str) -> None:
        """Drop a table's bots (it ended); nothing is started for it."""
        if self._cache is not None:
            self._cache.forget(table)
            return
        if table not in self._asked:
            return
        self._asked.discard(table)
        slot = self._route(table)
        if slot.executor is not None and not self._closed:
            # a process that died took its bots with it
            with contextlib.suppress(BrokenProcessPool, RuntimeError):
                slot.executor.submit(_forget_here, table)

    async def kept(self, table: str) -> bool:
        """Whether a table's bots are kept (by its process): for the tests of
        :meth:`forget`."""
        if self._cache is not None:
            return table in self._cache.tables()
        slot = self._route(table)
        if slot.executor is None:
            return False
        tables = await asyncio.wrap_future(slot.executor.submit(_tables_here))
        return table in tables

    def close(self) -> None:
        """End every bot process now (their thinking too); asks after this fail with
        :class:`BotPoolClosed`."""
        self._closed = True
        for slot in self._slots:
            executor, slot.executor = slot.executor, None
            if isinstance(executor, ProcessPoolExecutor):
                _terminate(executor)
            elif executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ the machinery

    def _index(self, table: str) -> int:
        return zlib.crc32(table.encode()) % len(self._slots)

    def _route(self, table: str) -> _Slot:
        return self._slots[self._index(table)]

    def _turns_now(self) -> Turns:
        """The turns of the running event loop (a new loop, new turns: their futures are
        the loop's)."""
        loop = asyncio.get_running_loop()
        if self._turns is None or self._turns[0] is not loop:
            self._turns = (loop, Turns(len(self._slots), self._limit, self.caps))
        return self._turns[1]

    async def _ask(self, ask: BotAsk, share: Share | None) -> BotAnswer:
        share = share if share is not None else Share.of_table(ask.table)
        try:
            return await self._run(self._index(ask.table), share, ask)
        except BrokenProcessPool:  # the process died with the ask in hand: once more
            log.warning("table %s: a bot process died; a new one thinks again", ask.table)
            return await self._run(self._index(ask.table), share, ask)

    def _executor(self, slot: _Slot) -> Executor:
        if slot.executor is None:
            if self.processes:
                slot.executor = ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_process, initargs=(self._max_tables,))
            else:
                slot.executor = ThreadPoolExecutor(self.threads,
                                                   thread_name_prefix="thousand-bot")
        return slot.executor

    def _replace(self, slot: _Slot, executor: Executor) -> None:
        """The process of ``slot`` died: the next ask starts a new one — after a rest
        when too many died in a row without answering."""
        if slot.executor is executor:
            slot.executor, slot.pid = None, None
            self.restarts += 1
            slot.deaths += 1
            if slot.deaths >= DEATHS_BEFORE_REST:
                rest = min(MAX_REST, FIRST_REST * 2 ** (slot.deaths - DEATHS_BEFORE_REST))
                slot.rest_until = time.monotonic() + rest
                log.error("%d bot processes in a row died before they answered; none is "
                          "started for %.0f s (their tables' bots play random moves)",
                          slot.deaths, rest)
            if isinstance(executor, ProcessPoolExecutor):
                _terminate(executor)

    async def _run(self, index: int, share: Share, ask: BotAsk) -> BotAnswer:
        slot = self._slots[index]
        if self._closed:
            raise BotPoolClosed("the bots' pool is closed")
        if time.monotonic() < slot.rest_until:
            raise BotProcessesDown("the bot processes keep dying; resting")
        turns = self._turns_now()
        await turns.acquire(index, share, urgent=ask.purpose == "hint")
        release = partial(turns.release, index, share)
        if self._closed:
            release()
            raise BotPoolClosed("the bots' pool is closed")
        executor = self._executor(slot)
        try:
            if self._cache is not None:
                future: Future[BotAnswer] = executor.submit(answer, self._cache, ask)
            else:
                self._asked.add(ask.table)
                future = executor.submit(_answer_here, ask)
        except BrokenProcessPool:
            release()
            self._replace(slot, executor)
            raise
        except BaseException:
            release()
            raise
        slot.running += 1
        loop = asyncio.get_running_loop()
        future.add_done_callback(partial(_done, loop, slot, release))
        try:
            result = await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(slot, executor)
            raise
        if self.processes and slot.executor is executor:
            slot.pid, slot.deaths = result.pid, 0
        return result


def _done(loop: asyncio.AbstractEventLoop, slot: _Slot, release: Callable[[], None],
          _future: Future[BotAnswer]) -> None:
    """An ask is answered (or failed): its place in the slot is free — when the process
    is done with it, not when the one who asked stopped waiting."""
    def free() -> None:
        slot.running -= 1
        release()

    with contextlib.suppress(RuntimeError):  # the loop is closed: the server stopped
        loop.call_soon_threadsafe(free)
