"""Accessibility: axe-core (npm, pinned in tests/js/package.json; ``./run test`` installs
it) injected into the real pages of a real ``thousand serve`` in Debian's Chromium, and no
violation of impact *serious* or *critical* allowed:

* the lobby, the history, the replay viewer (a finished game, and the upload page) and an
  error page, in Russian on a desktop and in English on a phone (the two other pairs in
  the deep run);
* the table in each phase — the auction, the talon and the exchange, the play, the score
  sheet's dialog, the game over — in Russian on a desktop and in English on a phone (one
  deal driven per pair, so the suite stays fast).

Skipped when Playwright, /usr/bin/chromium or axe-core (``npm ci --prefix tests/js``) is
missing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from depth import kept
from http_client import HTTP
from live_server import serve, wait_over

AXE = Path(__file__).resolve().parent / "js" / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"desktop": {"width": 1280, "height": 860},
             "phone": {"width": 390, "height": 844}}
#: Something for the person to do at the table (as in test_browser.py).
TURN = (".actions button:not([disabled]), .hand button.playable:not([disabled]), "
        "#sheet-close")
DEADLINE = 90.0

pytestmark = [
    pytest.mark.needs("chromium"),
    pytest.mark.needs("axe-core"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("a11y"), "--bot-delay", "0.02") as base:
        yield base


@pytest.fixture(scope="module")
def finished(server: str) -> str:
    """A game of bots that is over (one deal long): for the replay, history, game over."""
    r = HTTP.post(server + "/api/tables", json={
        "options": {"max_deals": 1},
        "seats": [{"kind": "bot", "name": n} for n in ("Аня", "Вова", "Гена")]}, timeout=30)
    table = str(r.json()["table"])
    wait_over(server, table, what="the bots' game")
    return table


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now: one line each
    (the rule, what it says, the first elements)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # through the DevTools protocol, as the console runs a script: the pages' CSP
        # allows no inline script, and the page is checked as it is served
        cdp = page.context.new_cdp_session(page)
        try:
            cdp.send("Runtime.evaluate", {"expression": AXE.read_text("utf-8")})
        finally:
            cdp.detach()
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} (${v.impact}): ${v.help} — ` +
               v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; "));
    }""")
    return list(found)


def _open(browser: Any, lang: str, viewport: str) -> Any:
    context = browser.new_context(locale="ru-RU" if lang == "ru" else "en-GB",
                                  viewport=VIEWPORTS[viewport],
                                  is_mobile=viewport == "phone",
                                  has_touch=viewport == "phone")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


@pytest.fixture(scope="module")
def _screens(browser: Any) -> Iterator[dict[tuple[str, str], Any]]:
    """The module's pages, one a language and screen, opened as first asked for: the
    pages' test and the table's of one pair load their pages in one browser context (a
    context costs Chromium more CPU than the loads: docs/testing.md)."""
    pages: dict[tuple[str, str], Any] = {}
    yield pages
    for page in pages.values():
        page.context.close()


@pytest.fixture
def screen(_screens: dict[tuple[str, str], Any], browser: Any, lang: str,
           viewport: str) -> Any:
    """The page of the test's language and screen (:func:`_screens`), its errors counted
    from this test on."""
    if (lang, viewport) not in _screens:
        _screens[lang, viewport] = _open(browser, lang, viewport)
    page = _screens[lang, viewport]
    page.errors.clear()
    return page


PAGES = {
    "lobby": ("/", "#create-button"),
    "history": ("/history", "table.games tbody tr"),
    "replay": ("/replay/{game}", ".replay-controls button"),
    "upload": ("/replay", "#record-file"),
    "exercises": ("/exercises", "#main h1 + p"),
    "friends": ("/friends", "#follows-title"),
    "daily": ("/daily", "#daily-deals li"),
    "error": ("/t/no-such-table", "main h1"),
}


@pytest.mark.parametrize(("lang", "viewport"), kept(
    [("ru", "desktop"), ("en", "phone"), ("en", "desktop"), ("ru", "phone")],
    {("ru", "desktop"), ("en", "phone")}))
def test_the_pages_have_no_serious_violations(server: str, finished: str, screen: Any,
                                              lang: str, viewport: str) -> None:
    """Every page but the table's, in one browser context per language and screen (each
    language and each screen in the default run; the two other pairs in the deep one)."""
    page = screen
    bad: list[str] = []
    for name, (path, ready) in PAGES.items():
        page.goto(f"{server}{path.format(game=finished)}?lang={lang}")
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == lang, name
        bad += [f"{name}: {line}" for line in serious(page)]
    assert not bad, "\n".join(bad)
    assert not page.errors


def _drive(page: Any) -> dict[str, list[str]]:
    """Play a table of one person and two bots until each phase has been checked: the
    auction, the exchange (the person bids 120 whenever he may, to win the talon), the
    play, the sheet's dialog after the deal.  Phase -> its violations."""
    found: dict[str, list[str]] = {}
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE and len(found) < 4:
        page.wait_for_selector(TURN, timeout=20000)
        if page.locator("#sheet-close").count():
            found.setdefault("sheet", serious(page))
            page.click("#sheet-close")
            continue
        buttons = page.locator(".actions button:not([disabled])")
        fks = [buttons.nth(i).get_attribute("data-fk") or "" for i in range(buttons.count())]
        if "act-120" in fks or ("act-pass" in fks and not any(
                f.startswith("act-contract") for f in fks)):
            found.setdefault("auction", serious(page))
            page.click('[data-fk="act-120"]' if "act-120" in fks else '[data-fk="act-pass"]')
        elif fks:
            found.setdefault("exchange", serious(page))
            page.locator(".actions button:not([disabled])").first.click()
        else:
            hand = page.locator(".hand button.card").count()
            phase = "exchange" if hand > 8 else "play"
            found.setdefault(phase, serious(page))
            page.locator(".hand button.playable:not([disabled])").first.click()
    return found


@pytest.mark.parametrize(("lang", "viewport"), [("ru", "desktop"), ("en", "phone")])
def test_the_table_has_no_serious_violations_in_any_phase(
        server: str, finished: str, screen: Any, lang: str, viewport: str) -> None:
    page = screen
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("#create-button")
    page.fill("#my-name", "Аня" if lang == "ru" else "Ann")
    page.click("#create-button")
    page.wait_for_url("**/t/**")
    found = _drive(page)
    page.goto(f"{server}/t/{finished}?lang={lang}")  # a game that is over
    page.wait_for_selector(".board-wrap .hand, .board-wrap .seat", state="attached")
    page.wait_for_load_state("networkidle")
    found["over"] = serious(page)
    assert set(found) == {"auction", "exchange", "play", "sheet", "over"}, sorted(found)
    bad = [f"{phase}: {line}" for phase, lines in found.items() for line in lines]
    assert not bad, "\n".join(bad)
