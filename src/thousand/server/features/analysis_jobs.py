"""The analyses' queue (docs/server.md "Analysis"): one job at a time, in a niced process
of its own, so that play never waits for an analysis.

:class:`AnalysisRunner` is started with the application: it queues again the jobs a
stopped server left ``running``, then claims the oldest queued job
(:func:`~thousand.server.store.analyses.claim_next`: one claimant among many workers),
rebuilds the game's record from the store, and has :func:`thousand.analysis.analyse_record`
run it in a ``spawn`` process (``os.nice(10)``, as the bots' processes:
server/live/bot_pool.py).  The process reports its progress through a queue; the runner
writes it to the row every :data:`PROGRESS_EVERY` decisions (and at most every second).
A job that raises is ``failed`` with the error's text; a process that dies is replaced.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import queue
import signal
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from thousand.engine.record import dumps_record, load_record
from thousand.engine.rules import Rules
from thousand.engine.table import Table

from ..caps import CAPS
from ..limits import LIMITS, Limit, count
from ..ops.logs import error_line
from ..ops.worker import worker_id
from ..store import analyses as st
from ..store.tables import Store

__all__ = ["PROGRESS_EVERY", "AnalysisLimits", "AnalysisRunner", "record_of", "run_analysis"]

log = logging.getLogger("thousand.server")

#: Decisions between two progress reports of the process.
PROGRESS_EVERY = 5
#: Seconds a running job may go without a sign of life before another worker (many
#: workers) queues it again.
STALE_AFTER = 120.0
#: Seconds the runner waits for a queued job before it looks again.
IDLE = 1.0

_PROGRESS: Any = None  # the process's queue to the runner (set by _start_process)


def _start_process(progress: Any) -> None:
    """An analysis process begins: it yields the CPU to the server (nice 10) and leaves
    Ctrl+C to the server."""
    global _PROGRESS
    _PROGRESS = progress
    with contextlib.suppress(AttributeError, OSError):
        os.nice(10)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_analysis(job: int, record_text: str, samples: int, view_based: bool,
                 lang: str) -> dict[str, Any]:
    """The analysis of one record (in the analysis process), its progress sent as
    ``(job, done, total)`` every :data:`PROGRESS_EVERY` decisions."""
    # imported here, in the analysis process alone: the server's own process never
    # loads the analysis (nor the solver's tables it builds)
    analyse_record = importlib.import_module("thousand.analysis").analyse_record

    def report(done: int, total: int) -> None:
        if _PROGRESS is not None and (done % PROGRESS_EVERY == 0 or done == total):
            _PROGRESS.put((job, done, total))

    result: dict[str, Any] = analyse_record(load_record(record_text), view_based=view_based,
                                            samples=samples, lang=lang, progress=report)
    return result


def record_of(store: Store, game_id: str) -> str | None:
    """The finished game's record (JSON text) rebuilt from its stored moves; None when
    there is no such game or it is not over."""
    row = store.load(game_id)
    if row is None:
        return None
    table = Table.from_moves(Rules.from_json(row.rules), row.names, row.first_dealer,
                             row.seed, row.moves)
    if not table.over:
        return None
    return dumps_record(table.to_record())


_ANALYSES = LIMITS["analyses"]


@dataclass(frozen=True, slots=True)
class AnalysisLimits:
    """How many analyses are let in at once (server/routes/analysis.py): queued or
    running, a guest's (or a request without a session's), an account's, an address's
    (a fair share of the queue: one address takes only a few of its slots, however many
    guests it makes), and the whole queue; None: no cap.  The defaults are the limit
    ``analyses`` and the cap ``analysis_queue`` (server/limits.py, server/caps.py: their
    flags); how many a day is the limiter's rate ``analysis``."""

    per_client_active: int | None = count(_ANALYSES, "client")
    per_account_active: int | None = count(_ANALYSES, "account")
    per_address_active: int | None = count(_ANALYSES, "address")
    queue_max: int = CAPS["analysis_queue"].value

    @classmethod
    def of(cls, limits: Mapping[str, Limit], caps: Mapping[str, int]) -> AnalysisLimits:
        """The limits ``thousand serve``'s flags set (``--limit analyses=…``,
        ``--limit analysis_queue=N``)."""
        analyses = limits["analyses"]
        return cls(count(analyses, "client"), count(analyses, "account"),
                   count(analyses, "address"), caps["analysis_queue"])


class AnalysisRunner:
    """The one loop that runs the analyses of this worker, one at a time."""

    def __init__(self, store: Store, *, cluster: bool = False,
                 limits: AnalysisLimits | None = None,
                 executor: Executor | None = None) -> None:
        self.store = store
        self.limits = limits if limits is not None else AnalysisLimits()
        self.cluster = cluster
        self._executor = executor
        self._progress: Any = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def _pool(self) -> Executor:
        if self._executor is None:
            ctx = multiprocessing.get_context("spawn")
            self._progress = ctx.Queue()
            self._executor = ProcessPoolExecutor(1, mp_context=ctx,
                                                 initializer=_start_process,
                                                 initargs=(self._progress,))
        return self._executor

    async def db(self, fn: Any, *args: Any) -> Any:
        """A store call off the event loop."""
        return await asyncio.to_thread(fn, self.store, *args)

    def start(self) -> None:
        """Queue again what a stopped server left running; then run the queue."""
        self._task = asyncio.create_task(self._run())

    def wake(self) -> None:
        """A job was queued: look now rather than at the next second."""
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            # the job in hand is not waited for (an analysis may take minutes): its
            # process ends now, and the row still ``running`` is queued again at start
            processes = getattr(self._executor, "_processes", None) or {}
            for process in list(processes.values()):
                with contextlib.suppress(Exception):
                    process.terminate()
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None

    async def _run(self) -> None:
        n = await self.db(st.requeue_stale, STALE_AFTER if self.cluster else None)
        if n:
            log.info("queued again %d analyses a stopped server left running", n)
        while True:
            try:
                row = await self.db(st.claim_next, worker_id())
            except Exception as e:
                # the database away (a restart, a dropped schema): /readyz says so, and
                # the queue is read again after the wait; no traceback for an outage
                log.warning("analyses: cannot read the queue: %s", error_line(e))
                row = None
            if row is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), IDLE)
                if self.cluster:
                    try:
                        await self.db(st.requeue_stale, STALE_AFTER)
                    except Exception as e:
                        log.warning("analyses: cannot requeue stale ones: %s", error_line(e))
                continue
            await self._one(row)

    async def _one(self, row: st.AnalysisRow) -> None:
        try:
            text = await self.db(record_of, row.game_id)
            if text is None:
                raise ValueError("the game is not over")
            s = row.settings
            future = asyncio.wrap_future(self._pool().submit(
                run_analysis, row.id, text, s.samples, s.view_based, s.lang))
            while not future.done():
                await asyncio.wait({future}, timeout=1.0)
                await self._report(row.id)
            result = future.result()
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:
            log.warning("analysis %s: its process died; queued again", row.id)
            self._executor = None
            await self.db(st.requeue, row.id)
            return
        except Exception as e:
            log.warning("analysis %s of %s failed: %s", row.id, row.game_id, e)
            await self.db(st.finish, row.id, None, f"{type(e).__name__}: {e}")
            return
        await self.db(st.finish, row.id, result)

    async def _report(self, row_id: int) -> None:
        """The newest progress the process sent for this job, written to its row."""
        last: tuple[int, int] | None = None
        while self._progress is not None:
            try:
                job, done, total = self._progress.get_nowait()
            except queue.Empty:
                break
            if job == row_id:
                last = (done, total)
        if last is not None:
            await self.db(st.progress, row_id, *last)
        elif self.cluster:
            await self.db(st.beat, row_id)
