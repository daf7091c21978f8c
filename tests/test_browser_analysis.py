"""The replay's analysis mode in a real Chromium (docs/server.md "Analysis"): «Анализ» on
a finished game's replay queues it, the page follows it to the end, then shows the
deal's chart, the marks on the moves, and for a marked move the better one on the table;
axe-core (when installed) finds nothing serious and a 360 px phone scrolls nothing sideways."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from http_client import HTTP
from live_server import serve, wait_over
from test_a11y import AXE, serious
from thousand.analysis import analyse_record
from thousand.engine.record import load_record

pytestmark = pytest.mark.needs("chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("analysis"), "--bot-delay", "0") as base:
        yield base


def _bots_game(server: str) -> str:
    r = HTTP.post(server + "/api/tables", json={
        "options": {"max_deals": 1},
        "seats": [{"kind": "bot", "level": "random", "name": n} for n in ("Аня", "Вова", "Гена")]},
        timeout=30)
    table = str(r.json()["table"])
    wait_over(server, table, what="the bots' game")
    return table


@pytest.fixture(scope="module")
def finished(server: str) -> str:
    """A one-deal game of random bots with a move the open-card values mark (most are:
    a deal passed out, or conceded, has none), found by analysing it here."""
    for _ in range(8):
        table = _bots_game(server)
        record = HTTP.get(f"{server}/api/games/{table}/record", timeout=30).text
        analysis = analyse_record(load_record(record), view_based=False, samples=1)
        if any(d["mark"] for d in analysis["deals"][0]["decisions"]):
            return table
    pytest.fail("eight random bots' deals without one marked move")


def test_the_analysis_shows_its_chart_marks_and_the_better_move(
        server: str, finished: str, browser: Any) -> None:
    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 800},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/replay/{finished}")
    page.wait_for_selector("#analysis-button")
    assert page.is_checked("#analysis-fast")  # open cards only: fast
    page.click("#analysis-button")
    page.wait_for_selector(".analysis-chart", timeout=90_000)
    # the analysis the page asked for: open cards only, in Russian (its settings are the
    # server's defaults but for view_based)
    status = page.evaluate("fetch(location.pathname.replace('/replay/', '/api/games/') + "
                           "'/analysis?lang=ru').then((r) => r.json())")
    settings = status["settings"]
    assert settings["view_based"] is False and settings["lang"] == "ru"
    result = HTTP.get(f"{server}/api/games/{finished}/analysis", timeout=30, params={
        "samples": settings["samples"], "view_based": "false", "lang": "ru"}).json()["result"]
    # the declarer's open-card line is drawn when the analysis has the deal's chart
    drawn = 1 if result["deals"][0]["chart"] else 0
    assert page.locator(".analysis-chart polyline.dd-line").count() == drawn
    assert page.locator(".analysis-summary tbody tr").count() == 3
    # the marks of the deal: a badge with the mark's name for screen readers
    marks = page.locator(".mark-list button")
    assert marks.count() > 0
    badge = marks.first.locator(".mark-badge")
    assert badge.get_attribute("aria-label") in ("Неточность", "Ошибка", "Грубая ошибка")
    assert badge.inner_text() in ("?!", "?", "??")
    index = int(marks.first.get_attribute("data-index") or "-1")
    marks.first.click()
    better = page.locator(".better-move strong")
    better.wait_for()
    assert re.fullmatch(r"Лучше: .+ \(−\d+(\.\d)?\)", better.inner_text()), better.inner_text()
    # the step shown is the marked move's: its title has the same badge
    assert page.locator(".step-title .mark-badge").count() == 1
    # the better card is shown highlighted in its hand (open cards only: the open best)
    shown = next(d for d in result["deals"][0]["decisions"] if d["index"] == index)
    assert shown["mark"], shown
    best = shown["open"]["best"].removeprefix("give ").removeprefix("discard ").rstrip("+")
    hinted = page.locator(".board-wrap .hinted")
    if re.fullmatch(r"[9JQKTA][SCDH]", best):
        cards = page.locator(".board-wrap [data-card]").evaluate_all(
            "(els) => els.map((e) => e.dataset.card)")
        assert hinted.count() == 1 and hinted.first.get_attribute("data-card") == best, (
            f"{shown} on a board of {cards}")
    else:  # a bid or a contract: said in words only
        assert hinted.count() == 0
    if AXE.is_file():  # axe-core: npm ci --prefix tests/js
        assert not serious(page)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    assert not errors
    context.close()


def test_the_analysis_is_kept_for_the_next_visit(server: str, finished: str, browser: Any) -> None:
    """An analysis asked for by the API (here from the players' views too) is shown on
    the next visit at once, in English words, with the players' valued moves drawn."""
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    page.add_init_script("localStorage.setItem('thousand.lang', 'en');")
    r = HTTP.post(f"{server}/api/games/{finished}/analysis",
                   json={"samples": 2, "view_based": True, "lang": "en"}, timeout=30)
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 90
    while HTTP.get(f"{server}/api/games/{finished}/analysis?lang=en",
                    timeout=30).json()["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    page.goto(f"{server}/replay/{finished}")
    page.wait_for_selector(".analysis-summary")
    assert page.locator(".analysis-summary caption").inner_text() == "The players' summary"
    result = HTTP.get(f"{server}/api/games/{finished}/analysis?lang=en", timeout=30).json()
    valued = [d for d in result["result"]["deals"][0]["decisions"]
              if d["view"] and not d["forced"]]
    assert valued and page.locator(".analysis-chart circle.view-point").count() == len(valued)
    context.close()


