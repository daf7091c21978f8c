"""The exercises page in a real Chromium (docs/server.md "Analysis"): a signed-in player
whose finished game the server analysed opens /exercises, clicks a good move (one the
analysis values within the inaccuracy threshold of the best: «Верно!») and, at the next
exercise, the move of the game («Неверно»); axe-core (when installed) finds nothing
serious and a 360 px phone scrolls nothing sideways."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from http_client import HTTP
from live_server import serve
from test_a11y import AXE, serious
from test_browser_analysis import finished, pytestmark  # noqa: F401
from test_exercises_web import give_seat
from thousand.analysis.exercises import Exercise, exercises_from

#: Open-card values only: a deal in seconds.
FAST = {"view_based": False, "samples": 1, "lang": "ru"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("exercises")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[str]:
    with serve(folder, "--bot-delay", "0") as base:
        yield base


def _analysed(server: str, game: str) -> dict[str, Any]:
    r = HTTP.post(f"{server}/api/games/{game}/analysis", json=FAST, timeout=30)
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 90
    while (body := HTTP.get(f"{server}/api/games/{game}/analysis?lang=ru",
                             timeout=30).json())["status"] != "done":
        assert body["status"] != "failed" and time.monotonic() < deadline, body
        time.sleep(0.3)
    result: dict[str, Any] = body["result"]
    return result


def _click(page: Any, move: str) -> None:
    """Play ``move`` as a person does: its card (a marriage's then its button) or its
    button."""
    card = move.removeprefix("give ").removeprefix("discard ").rstrip("+")
    cards = page.locator(f".hand button[data-card='{card}']")
    if cards.count():
        cards.first.click()
        declare = page.locator(f".actions button[data-fk='act-{move}']")
        if declare.count():  # the card could be played with or without its marriage
            declare.click()
    else:
        page.locator(f".actions button[data-fk='act-{move}']").click()


def test_a_player_solves_one_exercise_and_fails_one(
        server: str, folder: Path, finished: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 800},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/exercises")
    page.wait_for_selector("#sign-in-link")  # a guest is sent to sign in
    account = page.evaluate("""async () => {
      const { api } = await import('/static/common.js');
      await api('/api/me');
      await api('/api/account/signup', { method: 'POST',
        body: { name: 'Ученик', password: 'correct horse' } });
      return (await api('/api/me')).player.id;
    }""")
    page.reload()
    page.wait_for_selector("#ex-empty")  # nothing analysed of his yet
    result = _analysed(server, finished)
    record = HTTP.get(f"{server}/api/games/{finished}/record", timeout=30).json()
    seat, exercises = next((s, found) for s in range(3)
                           if (found := exercises_from(result, record, seat=s)))
    give_seat(f"sqlite:///{folder / 'thousand.db'}", finished, seat, account)
    page.reload()
    page.wait_for_selector(".board .hand")
    assert page.locator("#main h1").inner_text() == "Найдите лучший ход"

    def shown() -> Exercise:
        deal, index = page.locator(".ex-count").get_attribute("data-at").split("-")
        return next(e for e in exercises if (e.deal, e.index) == (int(deal), int(index)))

    ex = shown()
    _click(page, ex.good[0])
    verdict = page.locator("#verdict")
    verdict.wait_for()
    assert verdict.locator("strong").inner_text() == "Верно!"
    if AXE.is_file():  # axe-core: npm ci --prefix tests/js
        assert not serious(page)
    page.click("#next")
    page.wait_for_selector("#verdict", state="detached")
    ex = shown()  # the next one (the same again when it is the only one)
    _click(page, ex.played)
    verdict.wait_for()
    assert verdict.locator("strong").inner_text().startswith("Неверно: в партии было ")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    assert not errors
    context.close()
