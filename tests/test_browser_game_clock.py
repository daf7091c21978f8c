"""docs/server.md "Time controls" on the pages, in a real browser (Playwright, Debian's
Chromium) against a real ``thousand serve``: the table page shows a person's game clock
counting down on his turn (and the bots' seats none), with no serious axe-core
violation; the lobby's form and quick play offer the categories, quick play the usual
one first.  Skipped when Playwright, /usr/bin/chromium or axe-core is missing."""

from __future__ import annotations

from typing import Any

import pytest

from test_a11y import serious
from test_browser import _page, browser, server
from test_browser_table import _lay, _seat_page

pytestmark = [pytest.mark.needs("chromium"), pytest.mark.needs("axe-core")]

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

RUNNING = ".seat[data-seat='0'] .mark.clock.running"


def test_the_table_shows_my_game_clock_counting_down(server: str, browser: Any) -> None:
    laid = _lay(server, time_control="fast")
    page = _seat_page(browser, server, laid)
    try:
        # the bots move until it is Аня's turn: her clock runs (5 min, less already)
        page.wait_for_selector(RUNNING, timeout=60_000)
        first = page.inner_text(RUNNING)
        assert first.startswith("⏱ 4:") or first == "⏱ 5:00", first
        page.wait_for_function("(was) => { const c = document.querySelector("
                               f"\"{RUNNING}\"); return c && c.textContent !== was; }}",
                               arg=first, timeout=30_000)
        assert page.inner_text(RUNNING) < first  # it went down, not up
        assert page.locator(".seat .mark.clock").count() == 1  # the bots have no clock
        assert serious(page) == []
        assert page.errors == []
    finally:
        page.context.close()


def test_the_lobby_and_quick_play_offer_the_categories(server: str, browser: Any) -> None:
    page = _page(browser)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#time-control")
        options = page.eval_on_selector_all("#time-control option", "os => os.map(o => o.value)")
        assert options == ["", "fast", "normal", "unhurried"]
        assert page.input_value("#time-control") == ""
        assert page.input_value("#quick-time-control") == "normal"
        label = page.inner_text("label[for='quick-time-control']")
        assert label == "Часы партии"
        assert page.errors == []
    finally:
        page.context.close()
