"""Moderation in a real browser (docs/server.md "Moderation"; issue 31): at a table of
two people, one reports the other from the table's chat; a moderator (made by ``thousand
admin grant-moderator`` on the server's database) sees the report with the chat kept
with it, mutes him, and his next chat line is refused.  At another table one reports the
other from his seat (the keyboard alone), and the moderators' page lists it.  axe-core
finds no serious violation on the report dialog, the table, the moderators' page, the
account page with its profile form and a player's page with his profile.  Debian's
Chromium under Playwright, a real ``thousand serve``.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from live_server import serve
from test_a11y import serious

pytestmark = [pytest.mark.needs("chromium"), pytest.mark.needs("axe-core")]

PASSWORD = "correct horse battery"
WAIT = 60_000  # ms: a busy machine


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("moderation-browser")
    with serve(folder, "--bot-delay", "0.05") as base:
        yield base, folder


def person(browser: Any, base: str, name: str) -> tuple[Any, Any]:
    """A browser context signed up as ``name`` (through the API, as the account page
    does: its CSRF token from the cookie) and a page in it."""
    context = browser.new_context(locale="ru-RU", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    assert context.request.get(f"{base}/api/me").ok
    r = call(context, base, "/api/account/signup", {"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    return context, page


def call(context: Any, base: str, path: str, body: Any) -> Any:
    token = next(c["value"] for c in context.cookies() if c["name"] == "thousand_csrf")
    return context.request.post(f"{base}{path}", data=body,
                                headers={"X-CSRF-Token": token})


def say(page: Any, text: str) -> None:
    """Say ``text`` in the table's chat and wait for the server to send it back to the
    speaker's own page.  Once, on a loaded machine, a line typed as the page opened never
    came back (the socket was not yet the seat's): it is typed again, up to three times,
    until the table has it."""
    for _ in range(3):
        page.fill("#chat-input", text)
        page.press("#chat-input", "Enter")
        try:
            page.locator("#chat li", has_text=text).first.wait_for(timeout=WAIT // 3)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"the table never said {text!r}")


def two_at_a_table(base: str, first: Any, second: Any) -> str:
    """A table of two people and a bot: ``first`` lays it in seat 0, ``second`` takes seat
    1 (their browser contexts, signed in); its id."""
    laid = call(first, base, "/api/tables", {"seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]})
    assert laid.status == 201, laid.text()
    table = str(laid.json()["table"])
    assert call(second, base, f"/api/tables/{table}/seats/1", {}).status == 200
    return table


def grant(folder: Path, name: str) -> subprocess.CompletedProcess[str]:
    """``thousand admin grant-moderator NAME`` on the site's database."""
    return subprocess.run(
        [sys.executable, "-c", "from thousand.cli import main; main()", "admin",
         "grant-moderator", name, "--db", f"sqlite:///{folder / 'thousand.db'}"],
        capture_output=True, text=True, timeout=120)


def test_a_player_reported_from_the_chat_is_muted_by_a_moderator(
        site: tuple[str, Path], browser: Any) -> None:
    base, folder = site
    granted = grant(folder, "Вера")
    assert granted.returncode == 1 and "Вера" in granted.stderr  # no such account yet
    anya, anya_page = person(browser, base, "Аня")
    borya, borya_page = person(browser, base, "Боря")
    vera, vera_page = person(browser, base, "Вера")
    granted = grant(folder, "Вера")
    assert granted.returncode == 0, granted.stderr
    table = two_at_a_table(base, anya, borya)
    for page in (anya_page, borya_page):
        page.goto(f"{base}/t/{table}")
        page.wait_for_selector("#chat-input:not([disabled])", timeout=WAIT)
    say(borya_page, "сам ты бот, нуб")
    # Аня reports him from his chat line: a reason and a few words
    report = anya_page.locator("#chat li", has_text="нуб").locator("button.chat-report")
    report.click(timeout=WAIT)
    anya_page.wait_for_selector("dialog.report-dialog[open]", timeout=WAIT)
    assert serious(anya_page) == []
    anya_page.select_option("#report-reason", "abuse")
    anya_page.fill("#report-text", "грубит в чате")
    anya_page.click("#report-send")
    anya_page.wait_for_selector("dialog.report-dialog", state="detached", timeout=WAIT)
    anya_page.wait_for_selector("#toast >> text=Боря", timeout=WAIT)
    # Вера sees it with the chat kept, and mutes him
    vera_page.goto(f"{base}/moderation")
    card = vera_page.locator("article.mod-report", has_text="Боря")
    card.wait_for(timeout=WAIT)
    assert "сам ты бот, нуб" in card.locator(".chat-list").inner_text()
    assert "грубит в чате" in card.inner_text()
    assert card.locator(f"a[href='/replay/{table}']").count() == 1
    assert serious(vera_page) == []
    card.locator("button.mod-mute").click()
    vera_page.wait_for_selector("#mod-log tr[data-action=mute]", timeout=WAIT)
    assert "Боря" in vera_page.locator("#mod-log").inner_text()
    assert vera_page.locator("article.mod-report", has_text="Боря").count() == 0
    # his next line is refused, in his language, and nobody sees it
    borya_page.fill("#chat-input", "а теперь?")
    borya_page.press("#chat-input", "Enter")
    borya_page.wait_for_selector("#error:has-text('Модератор запретил')", timeout=WAIT)
    assert anya_page.locator("#chat li", has_text="а теперь?").count() == 0
    # Аня's profile, edited on her account page, shown on her page
    anya_page.goto(f"{base}/account")
    anya_page.wait_for_selector("#profile-country", timeout=WAIT)
    assert anya_page.locator("#moderation-link").count() == 0
    anya_page.select_option("#profile-country", "BY")
    anya_page.fill("#profile-about", "Играю по вечерам.\n<b>без разметки</b>")
    assert serious(anya_page) == []
    anya_page.click("#profile-save")
    anya_page.wait_for_selector("#toast >> text=Сохранено", timeout=WAIT)
    borya_page.goto(f"{base}/p/Аня")
    borya_page.wait_for_selector("#player-about", timeout=WAIT)
    assert "Беларусь" in borya_page.locator("#player-country").inner_text()
    about = borya_page.locator("#player-about")
    assert about.inner_text() == "Играю по вечерам.\n<b>без разметки</b>"
    assert about.locator("b").count() == 0  # text, not markup
    assert borya_page.locator("#player-report").count() == 1
    assert serious(borya_page) == []
    vera_page.goto(f"{base}/account")
    vera_page.wait_for_selector("#moderation-link", timeout=WAIT)
    for page in (anya_page, borya_page, vera_page):
        assert page.errors == []
    for context in (anya, borya, vera):
        context.close()


def test_a_player_reported_from_his_seat_with_the_keyboard(site: tuple[str, Path],
                                                            browser: Any) -> None:
    """The table's seat of another person has a ⚑ button, named for a screen reader,
    that opens the same dialog (the keyboard alone: Enter, and the focus back on the
    seat's button, drawn afresh meanwhile); the moderators' page lists the report."""
    base, folder = site
    gosha, gosha_page = person(browser, base, "Гоша")
    dasha, _ = person(browser, base, "Даша")
    gleb, gleb_page = person(browser, base, "Глеб")
    assert grant(folder, "Глеб").returncode == 0
    table = two_at_a_table(base, gosha, dasha)
    gosha_page.goto(f"{base}/t/{table}")
    flag = gosha_page.locator(".seat[data-seat='1'] button.seat-report")
    flag.wait_for(timeout=WAIT)
    assert flag.get_attribute("aria-label") == "Пожаловаться модераторам на игрока: Даша"
    # no ⚑ on his own seat, nor on the bot's
    assert gosha_page.locator(".seat[data-seat='0'] button.seat-report").count() == 0
    assert gosha_page.locator(".seat[data-seat='2'] button.seat-report").count() == 0
    flag.focus()
    gosha_page.keyboard.press("Enter")
    gosha_page.wait_for_selector("dialog.report-dialog[open]", timeout=WAIT)
    assert "Даша" in gosha_page.locator("#report-title").inner_text()
    gosha_page.select_option("#report-reason", "cheating")
    gosha_page.fill("#report-text", "подсказывают со стороны")
    gosha_page.keyboard.press("Tab")  # from the text to the send button
    gosha_page.keyboard.press("Enter")
    gosha_page.wait_for_selector("dialog.report-dialog", state="detached", timeout=WAIT)
    gosha_page.wait_for_function(
        "() => document.activeElement?.matches(\".seat[data-seat='1'] button.seat-report\")",
        timeout=WAIT)
    assert serious(gosha_page) == []
    gleb_page.goto(f"{base}/moderation")
    card = gleb_page.locator("article.mod-report", has_text="Даша")
    card.wait_for(timeout=WAIT)
    assert "подсказывают со стороны" in card.inner_text()
    assert "Нечестная игра" in card.inner_text()
    assert "Гоша" in card.inner_text()
    assert gosha_page.errors == [] and gleb_page.errors == []
    for context in (gosha, dasha, gleb):
        context.close()
