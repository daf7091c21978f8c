"""What every test shares: a data folder of its own.

``thousand play`` saves every game after every move into the user's data folder
(``$XDG_DATA_HOME/thousand/saves``, docs/record.md), and ``thousand serve`` keeps its
default database there: the tests point ``XDG_DATA_HOME`` at a temporary folder for the
whole run, so that no test game lands among a player's saves (where ``thousand play
--resume`` would pick it) and no test reads the player's own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import needs
from live_server import browser, chromium

__all__ = ["browser"]  # the fixture, for every module (tests/live_server.py)

# The Hypothesis profiles (tests/depth.py): "default" for ./run test and CI, "deep" for
# ./run test --deep (--hypothesis-profile=deep), where tests/depth.examples() gives each
# random family its long count.
settings.register_profile("default", settings())
settings.register_profile("deep", settings())


@pytest.fixture(autouse=True, scope="session")
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    before = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    yield
    if before is None:
        os.environ.pop("XDG_DATA_HOME", None)
    else:
        os.environ["XDG_DATA_HOME"] = before


#: A seat token or an invite secret as checks.new_token makes them (43 URL-safe characters).
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])")


def _server_log_faults(folder: Path) -> list[str]:
    """What the logs of every ``thousand serve`` the tests ran (``serve.log``,
    ``server.log`` under the run's temporary folder, the workers' too) must never hold:
    a traceback, or anything shaped like a seat token."""
    faults = []
    for log in sorted(p for p in folder.rglob("*.log") if p.name in ("serve.log", "server.log")):
        text = log.read_text("utf-8", errors="replace")
        if "Traceback" in text:
            faults.append(f"{log}: a traceback")
        token = _TOKEN_SHAPED.search(text)
        if token:
            faults.append(f"{log}: something shaped like a token: {token.group()[:6]}…")
    return faults


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The log scan after the whole suite (issue 16): run once, in the process that
    ran or dispatched every test (with xdist the workers' folders lie inside its own);
    a fault fails the run."""
    config = session.config
    if hasattr(config, "workerinput"):
        return
    factory = getattr(config, "_tmp_path_factory", None)
    if factory is None:
        return
    try:
        base = factory.getbasetemp()
    except OSError:
        return
    faults = _server_log_faults(base)
    if faults:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("The servers' logs hold what they must not:", red=True)
            for fault in faults:
                reporter.write_line("  " + fault, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


#: The kinds of tests, for -m: the deep run alone takes ``slow``; the rest say what a test
#: starts (a browser, many workers, a fuzzer's child process).
MARKERS = {
    "slow": "a deep sweep: only in ./run test --deep (docs/testing.md)",
    "browser": "drives Chromium through Playwright (every test that needs chromium)",
    "cluster": "starts many workers on PostgreSQL and Redis",
    "fuzz": "a fuzzer: hostile input through the CLI, the API or the server",
    "service_workers": "its browser contexts run the site's service worker (others block it)",
    "motion": "its browser contexts move as a person's (others prefer reduced motion)",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.addinivalue_line(
        "markers", "needs(*what): the test needs these from the machine (tests/needs.py: "
        "chromium, axe-core, node, nginx, redis, redis-server, postgres, c-compiler, c-core); "
        "missing, it fails under CI=true and is skipped elsewhere")


#: Files that take the longest, started first so that the workers (``--dist
#: loadfile``: a file on one worker) do not end with one of them alone on a long file.
LONG_FILES = ("test_cluster.py", "test_cluster_limits.py", "test_wheel.py", "test_bot_pool.py",
              "test_ops.py", "test_store.py", "test_play_cli.py", "test_tui.py",
              "test_browser_table.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs Chromium is a browser test, whichever file it is in; the long
    files (:data:`LONG_FILES`), then the browser files, go first."""
    for item in items:
        if any("chromium" in mark.args for mark in item.iter_markers("needs")):
            item.add_marker(pytest.mark.browser)
    browser_files = {item.path.name for item in items if item.get_closest_marker("browser")}

    def weight(item: pytest.Item) -> int:
        name = item.path.name
        if name in LONG_FILES:
            return LONG_FILES.index(name)
        return len(LONG_FILES) + (0 if name in browser_files else 1)

    items.sort(key=weight)  # stable: a file's tests keep their order


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The ``needs`` markers, checked before the test (and its fixtures) run."""
    for mark in item.iter_markers("needs"):
        needs.require(*mark.args)


#: Playwright's wait for one action or condition, in milliseconds: its default (30 s) is
#: too short for a page whose server shares two loaded cores with the rest of the suite.
BROWSER_TIMEOUT_MS = 120_000
#: How often a page's ``wait_for_function`` looks again, in milliseconds.
POLL_MS = 100


@pytest.fixture(autouse=True, scope="session")
def _patient_browsers() -> Iterator[None]:
    """Every browser context and page the tests open, and Playwright's ``expect``, waits up to
    :data:`BROWSER_TIMEOUT_MS` (tests wait for events, not for fixed times; a passing test
    never waits that long).  A context runs no service worker unless its test is marked
    ``service_workers``, and prefers reduced motion unless it is marked ``motion``
    (:data:`_CONTEXT_DEFAULTS`).  A ``wait_for_function`` looks every
    :data:`POLL_MS` unless the test says otherwise: Playwright's default looks at every
    animation frame, which keeps Chromium drawing sixty frames a second as long as the wait
    lasts (a second of CPU for eight of waiting on an empty page)."""
    from playwright.sync_api import Browser, BrowserContext, Page, expect

    new_context, new_page = Browser.new_context, Browser.new_page
    wait_for_function = Page.wait_for_function
    expect.set_options(timeout=BROWSER_TIMEOUT_MS)  # and its assertions that wait

    def patient_context(self: Browser, *args: object, **kwargs: object) -> BrowserContext:
        for option, value in _CONTEXT_DEFAULTS.items():
            kwargs.setdefault(option, value)
        context = new_context(self, *args, **kwargs)  # type: ignore[arg-type]
        context.set_default_timeout(BROWSER_TIMEOUT_MS)
        _OPENED.append(context)
        return context

    def patient_page(self: Browser, *args: object, **kwargs: object) -> object:
        for option, value in _CONTEXT_DEFAULTS.items():
            kwargs.setdefault(option, value)
        page = new_page(self, *args, **kwargs)  # type: ignore[arg-type]
        page.set_default_timeout(BROWSER_TIMEOUT_MS)
        _OPENED.append(page.context)
        return page

    def calm_wait(self: Page, expression: str, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("polling", POLL_MS)
        return wait_for_function(self, expression, *args, **kwargs)

    Browser.new_context = patient_context  # type: ignore[method-assign,assignment]
    Browser.new_page = patient_page  # type: ignore[method-assign,assignment]
    Page.wait_for_function = calm_wait  # type: ignore[method-assign]
    yield
    Browser.new_context, Browser.new_page = new_context, new_page  # type: ignore[method-assign]
    Page.wait_for_function = wait_for_function  # type: ignore[method-assign]


#: The browser contexts opened since the worker started (by :func:`_patient_browsers`):
#: those a test's own body opened are closed after it (:func:`pytest_runtest_call`).
_OPENED: list[Any] = []
#: What a new browser context is given unless its test says otherwise, set before each test
#: (:func:`pytest_runtest_protocol`) from its markers:
#:
#: - ``service_workers``: "block" but for the tests marked ``service_workers`` (those of the
#:   worker itself, the offline page, the notices).  The worker fills its cache with every
#:   static file of the site as a context first opens a page: a quarter of the CPU of a
#:   page's first load, for nothing the other tests look at.
#: - ``reduced_motion``: "reduce" but for the tests marked ``motion`` (the motion test, the
#:   whole deals of the table page, where a click must land on cards still moving).  A
#:   card's flight has Chromium draw sixty frames a second while it lasts, for pages whose
#:   tests look at what they show, not at how it moves (docs/testing.md).
_CONTEXT_DEFAULTS = {"service_workers": "block", "reduced_motion": "reduce"}
#: The event loop of the worker's Playwright while its Chromium runs (:func:`worker_chromium`).
_PLAYWRIGHT_LOOP: list[asyncio.AbstractEventLoop] = []


@pytest.fixture(scope="session")
def worker_chromium() -> Iterator[Any]:
    """One Chromium for the whole pytest worker (through live_server's ``browser``): it
    starts with the first test that drives pages and stays until the worker ends."""
    with chromium() as b:
        loop = asyncio._get_running_loop()  # Playwright marks its loop as running
        if loop is not None:
            _PLAYWRIGHT_LOOP.append(loop)
        yield b
        _PLAYWRIGHT_LOOP.clear()
        asyncio._set_running_loop(loop)  # as Playwright left it, for it to close


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """The contexts a test opened in its body are closed after it (its fixtures' stay for
    the module): the worker's Chromium keeps no page of a finished test running."""
    first = len(_OPENED)
    try:
        return (yield)
    finally:
        opened = _OPENED[first:]
        del _OPENED[first:]
        for context in opened:
            with contextlib.suppress(Exception):  # its browser may be gone (a test's own)
                context.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """A test that does not drive the worker's Chromium runs as if Playwright were not
    there.  Between two calls, Playwright's sync API leaves its event loop marked as the
    thread's running one, and ``asyncio.run`` (the WebSocket clients of many tests) refuses
    to start beside a running loop; so the mark is lifted for such a test and put back
    after it (Playwright's loop sleeps meanwhile: nobody calls it)."""
    _CONTEXT_DEFAULTS["service_workers"] = (
        "allow" if item.get_closest_marker("service_workers") else "block")
    _CONTEXT_DEFAULTS["reduced_motion"] = (
        "no-preference" if item.get_closest_marker("motion") else "reduce")
    hidden = (bool(_PLAYWRIGHT_LOOP) and "worker_chromium" not in getattr(item, "fixturenames", ())
              and asyncio._get_running_loop() is _PLAYWRIGHT_LOOP[0])
    if hidden:
        asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        if hidden and _PLAYWRIGHT_LOOP:
            asyncio._set_running_loop(_PLAYWRIGHT_LOOP[0])
