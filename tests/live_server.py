"""A real ``thousand serve`` for the tests that drive it over HTTP or from a browser:
a child process on a free port over SQLite in a temporary folder, stopped at the end;
and a fresh schema of the machine's PostgreSQL for the tests that use one."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import needs
from http_client import HTTP

#: The PostgreSQL server of the tests that use one (a schema of their own each).
PG_URL = needs.PG_URL

CHROMIUM = "/usr/bin/chromium"
#: Seconds a ``thousand serve`` may take to answer: its start imports the whole site and
#: migrates a fresh database, which takes a minute and more on a loaded two-core machine.
START_DEADLINE = 180.0
#: Chromium's switches for a test run (no sandbox in a container, nothing in the background).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def postgres_schema(prefix: str = "thousand_test") -> tuple[str, Callable[[], None]]:
    """A fresh schema on the PostgreSQL server: (its URL, with the schema as its
    ``search_path``; a function that drops it); the test is skipped, saying why, when the
    server cannot be reached."""
    import sqlalchemy as sa
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    problem = needs.postgres_problem(PG_URL)
    if problem is not None:
        needs.need("postgres", problem)
    engine = sa.create_engine(url, connect_args={"connect_timeout": 3})
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with engine.begin() as conn:
        conn.execute(sa.text(f'create schema "{schema}"'))
    query = dict(url.query)
    query["options"] = f"-csearch_path={schema}"
    scoped = url.set(query=query).render_as_string(hide_password=False)

    def drop() -> None:
        with engine.begin() as conn:
            conn.execute(sa.text(f'drop schema "{schema}" cascade'))
        engine.dispose()

    return scoped, drop


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def serve(folder: Path, *extra: str, limited: bool = False,
          port: int | None = None) -> Iterator[str]:
    """``thousand serve`` over ``folder/thousand.db``: its base URL once it answers.
    Without ``limited`` it limits no client (``--no-limits``): the tests lay tables and
    move faster than any person, from one address.  ``port``: a free one chosen before
    (an option must name the server's own address: ``--public-url``)."""
    port = port or free_port()
    db = f"sqlite:///{folder / 'thousand.db'}"
    cmd = [sys.executable, "-c", "from thousand.cli import main; main()", "serve",
           "--db", db, "--port", str(port), "--no-browser",
           *(() if limited else ("--no-limits",)), *extra]
    log_path = folder / "serve.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(cmd, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_DEADLINE
            while True:
                if proc.poll() is not None:
                    pytest.fail("thousand serve stopped: " + log_path.read_text())
                try:
                    with urllib.request.urlopen(base + "/api/rules", timeout=5) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"thousand serve did not answer in {START_DEADLINE:.0f} s: "
                                + log_path.read_text()[-2000:])
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


@contextmanager
def chromium() -> Iterator[object]:
    """Debian's Chromium under Playwright (it cannot download a browser of its own here),
    closed at the end: one per pytest worker (tests/conftest.py ``worker_chromium``), which
    the tests reach through :func:`browser`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser(worker_chromium: Any) -> Iterator[Any]:
    """The worker's Chromium for a module's tests: a launch costs more CPU than a module's
    pages often do, so the modules share one, each in contexts of its own.  A context a
    test opens is closed after it (tests/conftest.py); those the module's fixtures open
    (a signed-in page kept for several tests) are closed here, at the module's end, so that
    no page of a finished module keeps ticking in the shared browser."""
    yield worker_chromium
    for context in list(worker_chromium.contexts):
        context.close()


def wait_over(base: str, table: str, seconds: float = 60, what: str = "the bots' game") -> None:
    """Wait until the table at ``base`` is over (its bots have played it out)."""
    import time

    deadline = time.monotonic() + seconds
    while HTTP.get(f"{base}/api/tables/{table}", timeout=30).json()["status"] != "over":
        assert time.monotonic() < deadline, f"{what} did not end"
        time.sleep(0.1)

