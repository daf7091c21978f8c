"""Run arena work in several processes (``--jobs N``), shared by the arena and the
duplicate arena."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def run_jobs(fn: Callable[[T], R], items: Iterable[T], jobs: int,
             chunksize: int = 1) -> Iterator[R]:
    """``fn`` over ``items``: in this process when ``jobs`` is 1 (in order), else in
    ``jobs`` worker processes, yielding results as they finish.  Workers are forked where
    the platform allows, so bot levels registered at run time are known to them."""
    work = list(items)
    if jobs <= 1 or len(work) <= 1:
        for item in work:
            yield fn(item)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(processes=jobs, initializer=_worker_start) as pool:
        yield from pool.imap_unordered(fn, work, chunksize=chunksize)


def _worker_start() -> None:
    """In a worker: write to the real stdout and stderr.  A worker forked while a progress
    bar holds ``sys.stderr`` would otherwise print (a fault line) through a copy of the
    bar that no longer runs."""
    import sys

    if sys.__stdout__ is not None:
        sys.stdout = sys.__stdout__
    if sys.__stderr__ is not None:
        sys.stderr = sys.__stderr__
