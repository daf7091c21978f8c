"""Many real ``thousand serve`` workers on loopback for tests/test_cluster.py: one
PostgreSQL schema and one Redis key prefix of the test run's own, K worker processes (each
``--workers 1 --worker-id wN`` on a port of its own, or one supervisor ``--workers N``),
each logging to ``<folder>/<worker>/serve.log`` (the name the conftest's scan of the
servers' logs reads), and the signals a test sends them: SIGKILL, SIGSTOP / SIGCONT,
SIGTERM, and a start again on the same port.

A private ``redis-server`` (:class:`PrivateRedis`) is there for the test that stops Redis:
the machine's shared one on 6379 is never shut down.

PostgreSQL: ``THOUSAND_TEST_PG`` (as tests/test_store.py); Redis: ``THOUSAND_TEST_REDIS``
(default ``redis://127.0.0.1:6379/0``).  When either cannot be reached the tests that need
it are skipped, saying why (under CI they fail: tests/needs.py).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import live_server
import needs
from http_client import HTTP

CLI = [sys.executable, "-c", "from thousand.cli import main; main()"]
REDIS_URL = os.environ.get("THOUSAND_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: The lease's lifetime the workers are started with (``--lease-ttl``): short, so that a
#: worker killed costs the tests seconds, not the default's five and more.
LEASE_TTL = 2.0


free_port = live_server.free_port


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())[:200]


# --------------------------------------------------------------------------- the services


def postgres_schema() -> tuple[str, Callable[[], None]]:
    """A fresh schema of the workers' own (live_server.postgres_schema)."""
    return live_server.postgres_schema("thousand_cluster")


def redis_or_skip(url: str = REDIS_URL) -> None:
    """Go on only when Redis answers PING at ``url`` (tests/needs.py: a failure under CI,
    a skip elsewhere)."""
    problem = needs.redis_problem(url)
    if problem is not None:
        needs.need("redis", problem)


def drop_redis_keys(url: str, prefix: str) -> None:
    """Delete every key of the run's prefix (the shared Redis keeps nothing of a test)."""
    import redis

    with contextlib.suppress(Exception):
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
        try:
            keys = list(client.scan_iter(f"{prefix}:*", count=500))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


class PrivateRedis:
    """A ``redis-server`` of the test's own on a free port, nothing saved: it may be
    killed and started again on the same port."""

    def __init__(self, folder: Path) -> None:
        needs.require("redis-server")
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None, "Redis is running"
        log = (self.folder / "redis.log").open("ab")
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + 120  # generous: a loaded machine
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            assert self.proc.poll() is None, "redis-server stopped: " + (
                self.folder / "redis.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: every connection to it drops at once, nothing kept."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def close(self) -> None:
        self.kill()


# --------------------------------------------------------------------------- the workers


class Worker:
    """One ``thousand serve`` process (a worker, or a supervisor of ``--workers N``) on its
    own port, logging to ``<folder>/<name>/serve.log`` (appended to across restarts)."""

    def __init__(self, name: str, args: Sequence[str], folder: Path,
                 port: int | None = None, cli: Sequence[str] = CLI) -> None:
        self.name = name
        self.cli = list(cli)
        self.args = list(args)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.folder = folder / name
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log_path = self.folder / "serve.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.paused = False
        self.starts = 0

    # -- life

    def start(self) -> None:
        """Start the process (again: on the same port); it is ready once :meth:`wait`."""
        assert not self.alive, f"{self.name} is running"
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts + 1} of {self.name}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(
                [*self.cli, "serve", *self.args, "--port", str(self.port)],
                cwd=self.folder, stdout=log, stderr=subprocess.STDOUT)
        self.paused = False
        self.starts += 1

    def wait(self, timeout: float = 60.0) -> None:
        """Until the worker answers ``/readyz`` (``/api/rules`` on a server without it)."""
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                pytest.fail(f"{self.name} stopped ({self.proc.returncode}): "
                            + self.log_path.read_text("utf-8", "replace")[-3000:])
            try:
                r = HTTP.get(self.base + "/readyz", timeout=2)
                if r.status_code == 404:
                    r = HTTP.get(self.base + "/api/rules", timeout=2)
                if r.status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"{self.name} did not answer in {timeout:.0f} s: "
                            + self.log_path.read_text("utf-8", "replace")[-3000:])
            time.sleep(0.05)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def serving(self) -> bool:
        """Running and not paused: a client may be sent to it."""
        return self.alive and not self.paused

    def signal(self, sig: int) -> None:
        assert self.proc is not None and self.alive, f"{self.name} is not running"
        self.proc.send_signal(sig)

    def kill(self) -> None:
        """SIGKILL, and reap it."""
        if self.alive:
            assert self.proc is not None
            if self.paused:
                self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(30)
        self.paused = False

    def pause(self) -> None:
        """SIGSTOP: the process stands still, its sockets open."""
        self.signal(signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        """SIGCONT."""
        self.signal(signal.SIGCONT)
        self.paused = False

    def term(self, timeout: float = 30.0) -> int:
        """SIGTERM, and wait until it has exited: its exit code."""
        assert self.proc is not None
        if self.paused:
            self.resume()
        self.signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
            pytest.fail(f"{self.name} did not exit within {timeout:.0f} s of SIGTERM")

    def restart(self) -> None:
        """Killed or stopped: start it again and wait until it answers."""
        self.kill()
        self.start()
        self.wait()

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace")

    # -- talking to it

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return HTTP.get(self.base + path, timeout=30, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        if body is not None:
            kwargs["json"] = body
        return HTTP.post(self.base + path, timeout=30, **kwargs)

    def ws_url(self, table: str, token: str | None = None) -> str:
        """The table's socket on this worker (as test_server.Server's: a worker is a
        server to test_server.Client)."""
        return f"{self.ws_base}/ws/{table}" + (f"?token={token}" if token else "")


class Cluster:
    """K workers ``w1..wK`` on one PostgreSQL schema and one Redis prefix, limiting
    nobody (``--no-limits``) unless ``limits`` gives their ``--limit`` options."""

    def __init__(self, folder: Path, db_url: str, redis_url: str | None, prefix: str,
                 k: int, *, extra: Sequence[str] = (), lease_ttl: float = LEASE_TTL,
                 cli: Sequence[str] = CLI, limits: Sequence[str] | None = None) -> None:
        self.folder = folder
        self.db_url = db_url
        self.redis_url = redis_url
        self.prefix = prefix
        self.workers: dict[str, Worker] = {}
        for i in range(1, k + 1):
            name = f"w{i}"
            limited = ["--no-limits"] if limits is None else [
                a for spec in limits for a in ("--limit", spec)]
            args = ["--db", db_url, "--no-browser", *limited, "--bot-delay", "0", *extra]
            if redis_url is not None:  # cluster mode; without it: one process, as today
                args += ["--redis", redis_url, "--redis-prefix", prefix, "--workers", "1",
                         "--worker-id", name, "--lease-ttl", str(lease_ttl)]
            self.workers[name] = Worker(name, args, folder, cli=cli)
        self.engine = sa.create_engine(db_url, pool_size=2)

    def start(self) -> Cluster:
        for w in self.workers.values():  # all at once: they start in parallel
            w.start()
        for w in self.workers.values():
            w.wait()
        return self

    def __getitem__(self, name: str) -> Worker:
        return self.workers[name]

    def serving(self) -> list[Worker]:
        return [w for w in self.workers.values() if w.serving]

    def heal(self) -> None:
        """Every worker running again (after a test killed, paused or stopped some)."""
        for w in self.workers.values():
            if w.paused:
                w.resume()
            if not w.alive:
                w.start()
        for w in self.workers.values():
            w.wait()

    def close(self) -> None:
        for w in self.workers.values():
            if w.alive:
                assert w.proc is not None
                if w.paused:
                    w.resume()
                w.proc.terminate()
        for w in self.workers.values():
            if w.proc is not None:
                try:
                    w.proc.wait(15)
                except subprocess.TimeoutExpired:
                    w.proc.kill()
                    w.proc.wait(10)
        self.engine.dispose()

    # -- the store, read directly: the truth every check is made against

    def lease(self, table_id: str) -> tuple[str, int, float] | None:
        """The table's lease row: (worker, fence, seconds until it expires by the
        database's clock), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.text(
                "select worker, fence, extract(epoch from (expires - now())) from leases "
                "where table_id = :id"), {"id": table_id}).first()
        return None if row is None else (str(row[0]), int(row[1]), float(row[2]))

    def owner(self, table_id: str, timeout: float = 20.0) -> str:
        """The worker holding a live lease on the table (waiting for one to take it)."""
        deadline = time.monotonic() + timeout
        while True:
            lease = self.lease(table_id)
            if lease is not None and lease[2] > 0 and lease[0] in self.workers:
                return lease[0]
            assert time.monotonic() < deadline, f"nobody holds {table_id}: {lease}"
            time.sleep(0.05)

    def move_log(self, table_id: str) -> list[tuple[int, str]]:
        """The stored moves of a table: (idx, move) in the order of idx."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.text(
                "select idx, move from moves where table_id = :id order by idx"),
                {"id": table_id}).all()
        return [(int(i), str(m)) for i, m in rows]

    def status(self, table_id: str) -> str:
        with self.engine.connect() as conn:
            return str(conn.execute(sa.text("select status from tables where id = :id"),
                                    {"id": table_id}).scalar_one())


@contextlib.contextmanager
def fresh_workers(folder: Path, name: str, k: int = 2, **kwargs: Any) -> Iterator[Cluster]:
    """``k`` started workers on a fresh PostgreSQL schema and Redis key prefix of their
    own (``name`` tells whose), dropped at the end: a test's or a module's cluster
    (``kwargs``: :func:`running`'s, e.g. ``limits`` and ``extra``)."""
    prefix = f"thousand-test-{name}-{uuid.uuid4().hex[:10]}"
    db_url, drop = postgres_schema()
    try:
        with running(folder, db_url, REDIS_URL, prefix, k, **kwargs) as c:
            yield c
    finally:
        drop()
        drop_redis_keys(REDIS_URL, prefix)


@contextlib.contextmanager
def running(folder: Path, db_url: str, redis_url: str | None, prefix: str, k: int,
            **kwargs: Any) -> Iterator[Cluster]:
    """A started :class:`Cluster`, closed at the end."""
    cluster = Cluster(folder, db_url, redis_url, prefix, k, **kwargs)
    try:
        yield cluster.start()
    finally:
        cluster.close()
