"""docs/server.md "Time controls" on the pages, in a real browser (Playwright, Debian's
Chromium) against a real ``thousand serve``: the table page shows a person's game clock
counting down on his turn (and the bots' seats none), with no serious axe-core
violation; the lobby's form, quick play and the tournaments' form offer the categories,
quick play and tournaments the usual one first; the lobby's list says each table's clock.
Skipped when Playwright, /usr/bin/chromium or axe-core is missing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_a11y import serious
from test_browser import browser, looking, server, shared_page
from test_browser_table import _api, _lay, _seat_page

pytestmark = [pytest.mark.needs("chromium"), pytest.mark.needs("axe-core")]

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

RUNNING = ".seat[data-seat='0'] .mark.clock.running"


@pytest.fixture(scope="module")
def _guest_page(browser: Any) -> Iterator[Any]:
    yield from shared_page(browser)


@pytest.fixture
def page(_guest_page: Any) -> Iterator[Any]:
    """The module's page of a new guest, for the tests that look at the forms and the
    lobby (test_browser.shared_page)."""
    yield from looking(_guest_page)


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


def test_the_lobby_and_quick_play_offer_the_categories(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#time-control")
    options = page.eval_on_selector_all("#time-control option", "os => os.map(o => o.value)")
    assert options == ["", "fast", "normal", "unhurried"]
    assert page.input_value("#time-control") == ""
    assert page.input_value("#quick-time-control") == "normal"
    label = page.inner_text("label[for='quick-time-control']")
    assert label == "Часы партии"
    assert page.errors == []


def test_the_tournaments_form_offers_the_categories(server: str, page: Any) -> None:
    """Like the lobby and quick play: the categories, «обычная» unless changed; a move
    clock only when ticked."""
    page.goto(server + "/tournaments")
    page.wait_for_selector("#tour-time-control")
    options = page.eval_on_selector_all("#tour-time-control option",
                                        "os => os.map(o => o.value)")
    assert options == ["fast", "normal", "unhurried"]  # never none: a round would wait
    assert page.input_value("#tour-time-control") == "normal"
    assert page.is_disabled("#tour-clock")
    made = []
    for name, choose in (("Кубок обычный", None), ("Кубок быстрый", "fast"),
                         ("Кубок часов на ход", "clock")):
        page.goto(server + "/tournaments")
        page.wait_for_selector("#tour-time-control")
        page.fill("#tour-name", name)
        if page.locator("#tour-my-name").count():
            page.fill("#tour-my-name", "Тамара")
        if choose == "fast":
            page.select_option("#tour-time-control", "fast")
        elif choose == "clock":
            page.check("#tour-clock-on")
            page.fill("#tour-clock", "45")
        page.click("#tour-create")
        page.wait_for_url("**/tournaments/*")
        made.append(_api(server, "/api/tournaments/" + page.url.rsplit("/", 1)[1]))
    assert [m["time_control"] and m["time_control"]["category"] for m in made] == [
        "normal", "fast", None]
    assert [m["clock"] for m in made] == [None, None, 45]
    assert serious(page) == []
    assert page.errors == []


def test_the_lobby_lists_each_tables_clock(server: str, page: Any) -> None:
    """Each open table's line says its clock in short: a time control, a move clock or
    none."""
    seats = [{"kind": "human", "name": "Аня"}, {"kind": "human", "name": "Боря"},
             {"kind": "bot", "level": "heuristic"}]
    laid = {what: _lay(server, seats=seats, **extra)["table"] for what, extra in (
        ("fast", {"time_control": "unhurried"}), ("move", {"clock": 45}),
        ("none", {"clock": None}))}
    for lang, words in (("ru", {"fast": "20 мин + 10 с", "move": "45 с на ход",
                                "none": "без часов партии"}),
                        ("en", {"fast": "20 min + 10 s", "move": "45 s a move",
                                "none": "no game clock"})):
        page.goto(f"{server}/?lang={lang}")
        for what, table in laid.items():
            card = page.locator(".table-card", has=page.locator(f"a[href='/t/{table}']"))
            card.locator(".table-clock").wait_for(timeout=30_000)
            assert card.locator(".table-clock").inner_text() == words[what], (lang, what)
        assert page.errors == []
