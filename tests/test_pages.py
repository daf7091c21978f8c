"""The pages other than the table's, and joining a table, in a real browser against a real
``thousand serve`` (Debian's Chromium, SQLite in a temporary folder):

* the replay viewer declines the names in Russian as the table does («отдаёт карту Вове»);
* an invite link that cannot seat you says why and what you can do (a full table, a seat
  that is not there, a bot's seat), and so does a seat taken while you type your name;
* the lobby lists presets and option values in words, shows the tables you sit at, and
  lets the creator close his table for good.

Skipped when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from http_client import HTTP
from live_server import serve
from thousand.words.grammar import name_forms

pytestmark = pytest.mark.needs("chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("pages"), "--bot-delay", "0.02") as base:
        yield base


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 860})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    yield p
    context.close()
    assert not errors


def _post(server: str, path: str, body: Any) -> Any:
    r = HTTP.post(server + path, json=body, timeout=30)
    assert r.status_code in (200, 201), r.text
    return r.json()


def test_the_replay_viewer_declines_the_names(server: str, page: Any) -> None:
    names = ["Аня", "Вова", "Гена"]
    table = _post(server, "/api/tables", {"seats": [{"kind": "bot", "name": n} for n in names]})
    table_id = table["table"]
    deadline = time.monotonic() + 60
    while True:  # the bots play until somebody has given a card
        steps = HTTP.get(f"{server}/api/games/{table_id}/replay", timeout=30).json()["steps"]
        gives = [(i, e) for i, s in enumerate(steps) for e in s["events"]
                 if e["type"] == "give"]
        if gives:
            break
        assert time.monotonic() < deadline, "no card given in time"
        time.sleep(0.2)
    index, event = gives[0]
    to = names[event["to_seat"]]
    dative = name_forms(to, "ru")["dat"]
    assert dative != to
    page.goto(f"{server}/replay/{table_id}")
    page.wait_for_selector(".replay-controls input[type=range]")
    page.locator(".replay-controls input[type=range]").fill(str(index))
    line = page.locator(".step-log li.ev-give").first.inner_text()
    assert f"отдаёт карту {dative}" in line, line


def test_an_invite_that_cannot_seat_you_says_why(server: str, page: Any) -> None:
    full = _post(server, "/api/tables", {})["table"]  # one person (the creator) and bots
    page.goto(f"{server}/t/{full}?seat=0")
    problem = page.locator("#join .join-problem")
    problem.wait_for()
    assert "Все места за этим столом заняты" in problem.inner_text()
    assert problem.locator('a[href="/"]').count() == 1
    problem.locator("button.join-watch").click()
    assert page.locator("#join .join-problem").count() == 0

    friends = _post(server, "/api/tables", {"seats": [{"kind": "human", "name": "Аня"},
                                                      {"kind": "human"}, {"kind": "bot"}]})
    tid = friends["table"]
    for seat, words in (("9", "нет места 10"), ("2", "На месте 3 играет бот"),
                        ("0", "Место 1 уже занято")):
        page.goto(f"{server}/t/{tid}?seat={seat}")
        page.locator("#join .join-problem").wait_for()
        text = page.locator("#join .join-problem").inner_text()
        assert words in text and "другое свободное место" in text, text
        assert page.locator('#join button[data-seat="1"]').count() == 1  # the free one

    # the seat goes to somebody else while the name is typed
    page.goto(f"{server}/t/{tid}?seat=1")
    page.locator('#join button[data-seat="1"]').wait_for()
    page.fill("#join-name", "Боря")
    _post(server, f"/api/tables/{tid}/seats/1", {"name": "Гена"})
    page.locator("#join .join-problem").wait_for()
    text = page.locator("#join .join-problem").inner_text()
    assert "Место 2 только что заняли" in text and "смотреть игру" in text, text


def test_the_lobby_in_words_and_the_creator_closes_his_table(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#preset option", state="attached")
    presets = page.locator("#preset option").all_inner_texts()
    assert "Классика" in presets and not any("classic" in p for p in presets), presets
    values = page.eval_on_selector_all("#opt-first_bidder option",
                                       "options => options.map((o) => o.textContent)")
    assert values[0].startswith("игрок слева от сдающего"), values
    page.fill("#my-name", "Аня")
    page.click("#create-button")
    page.wait_for_url("**/t/**")
    table = page.url.rsplit("/", 1)[1]
    page.goto(server + "/")
    card = page.locator(f'#mine li[data-table="{table}"]')
    card.wait_for()
    assert "классика" in card.inner_text().lower()
    card.get_by_role("button", name="Закрыть стол").click()
    assert "Закрыть стол навсегда?" in card.inner_text()
    card.get_by_role("button", name="Да, закрыть").click()
    page.locator(f'#mine li[data-table="{table}"]').wait_for(state="detached")
    r = HTTP.get(f"{server}/t/{table}", timeout=30)
    assert r.status_code == 410
    games = HTTP.get(f"{server}/api/games", timeout=30).json()["games"]
    assert next(g for g in games if g["id"] == table)["status"] == "closed"
