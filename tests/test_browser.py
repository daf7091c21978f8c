"""The browser client played by a browser: Playwright drives Debian's Chromium against a
real ``thousand serve`` (SQLite in a temporary folder).

1. A new player opens the lobby, lays a table against two bots, and plays by clicking:
   bids, takes the talon, gives two cards, names the contract, plays the deal out.
2. The same with the keyboard alone (Tab, digits, arrows, Enter, typed notation).
3. Two friends in two browsers at one table with a bot; one reloads mid-deal and plays on.

The screenshots land in docs/screenshots/ (lobby, auction, exchange, mid-trick, score sheet,
phone) with THOUSAND_SCREENSHOTS=1.
Skipped when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from live_server import browser, serve

SHOTS = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
#: A move for the person to make: a move button, a card to play.
MOVE = ".actions button:not([disabled]), .hand button.playable:not([disabled])"
#: Something to do for the person: a move to make, or the sheet after a deal to close.
TURN = f"{MOVE}, #sheet-close"
DEADLINE = 75.0  # seconds for one test's deals

pytestmark = pytest.mark.needs("chromium")

__all__ = ["browser", "server"]  # the fixtures, shared with the other browser files


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("serve"), "--bot-delay", "0.05") as base:
        yield base


def _page(browser: Any, **kw: Any) -> Any:
    context = browser.new_context(locale="ru-RU", **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def shared_page(browser: Any, **kw: Any) -> Iterator[Any]:
    """For a module fixture: a page (as :func:`_page` makes it) kept for a module's tests
    that only look, each at an address of its own from a fresh load, for a new browser
    context costs Chromium about a second of CPU where a load in an open one costs a third
    of that (docs/testing.md).  :func:`looking` lends it to one test."""
    page = _page(browser, **kw)
    yield page
    page.context.close()


def looking(page: Any) -> Iterator[Any]:
    """For a test's fixture: the shared page of :func:`shared_page`, its errors counted
    from this test on; after the test it leaves the test's pages, which then tick in no
    page.  Its cookies and storage stay: one guest for the module (clearing the cookies
    alone would leave the page a player id of a session gone, which the server refuses a
    seat)."""
    page.errors.clear()
    yield page
    page.goto("about:blank")


def _shot(page: Any, name: str, full: bool = False) -> None:
    """A screenshot: always taken (it must work), kept in docs/screenshots only with
    THOUSAND_SCREENSHOTS=1, so that a test run leaves the checkout as it was."""
    page.evaluate("window.scrollTo(0, 0)")
    # the cards come to rest first (motion lasts at most 300 ms)
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    shot = page.screenshot(full_page=full)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("THOUSAND_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        (SHOTS / name).write_bytes(shot)


def _fks(page: Any) -> list[str]:
    buttons = page.locator(".actions button:not([disabled])")
    return [buttons.nth(i).get_attribute("data-fk") or "" for i in range(buttons.count())]


def _create(page: Any, base: str, name: str, second: str = "bot") -> str:
    page.goto(base + "/")
    page.wait_for_selector("#create-button")
    page.fill("#my-name", name)
    if second != "bot":
        page.select_option("#seat-1-kind", "human")
    page.click("#create-button")
    page.wait_for_url("**/t/**")
    return str(page.url)


# ---------------------------------------------------------------- 1. by clicking


def test_a_new_player_plays_a_deal_by_clicking(server: str, browser: Any) -> None:
    page = _page(browser, viewport={"width": 1280, "height": 860})
    page.goto(server + "/")
    page.wait_for_selector("#preset option", state="attached")
    assert page.locator("html").get_attribute("lang") == "ru"
    page.click("details.options summary")  # the options, grouped and explained
    assert page.locator("fieldset.group").count() >= 10
    assert page.locator(".option .explain").first.inner_text()
    page.click("details.options summary")
    page.fill("#my-name", "Аня")
    _shot(page, "lobby.png")
    page.click("#create-button")
    page.wait_for_url("**/t/**")

    shots: set[str] = set()
    played_as_declarer = False
    gave = 0
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        page.wait_for_selector(TURN, timeout=20000)
        if page.locator("#sheet-close").count():
            if played_as_declarer:
                break
            page.click("#sheet-close")
            continue
        fks = _fks(page)
        prompt = page.locator(".prompt").inner_text()
        if fks:
            if "act-120" in fks:
                if "auction" not in shots:
                    _shot(page, "auction.png")
                    shots.add("auction")
                page.click('[data-fk="act-120"]')
            elif any(f.startswith("act-contract") for f in fks):
                assert gave == 2 and page.locator(".hand button.card").count() == 8
                page.click(f'[data-fk="{next(f for f in fks if f.startswith("act-contract"))}"]')
                played_as_declarer = True
            elif "act-pass" in fks:
                page.click('[data-fk="act-pass"]')
            else:
                page.locator(".actions button:not([disabled])").first.click()
        else:
            if "Отдайте" in prompt:
                # the talon is ours: shown on the cloth and in the hand (10 cards)
                assert page.locator(".talon .card.face").count() == 3
                assert page.locator(".hand button.card").count() == 10 - gave
                if not gave:
                    _shot(page, "exchange.png")
                    _card_rises_in_place(page)
                gave += 1
            elif played_as_declarer and "mid-trick" not in shots and page.locator(
                    ".trick:not(.faded) .slot").count() >= 2:
                _shot(page, "mid-trick.png")
                shots.add("mid-trick")
            page.locator(".hand button.playable:not([disabled])").first.click()
    else:
        pytest.fail("no deal played as the declarer in time")
    # the score sheet after the deal, with its chart
    assert page.locator(".dialog table.sheet tbody tr").count() >= 1
    assert page.locator(".dialog svg.chart polyline").count() == 3
    _shot(page, "score-sheet.png")
    page.click("#sheet-close")
    log = page.locator("#log").inner_text()
    # the reader's own moves in the second person
    assert "Вы заказываете" in log and "Прикуп:" in log and "взятку" in log
    # the same page in English
    page.click("header .lang")
    page.wait_for_function("() => document.getElementById('log').innerText.includes("
                           "'You name the contract')")
    assert "Type a move" in page.inner_text("#command")
    page.click("header .lang")
    assert not page.errors


# ---------------------------------------------------------------- 2. by keyboard


def _focus(page: Any, selector: str, limit: int = 60) -> None:
    """Tab until the element is focused (the keyboard's way there)."""
    for _ in range(limit):
        if page.evaluate(f"document.activeElement?.matches({selector!r}) ?? false"):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}")


def test_the_same_with_the_keyboard_alone(server: str, browser: Any) -> None:
    page = _page(browser, viewport={"width": 1100, "height": 820})
    page.goto(server + "/")
    page.wait_for_selector("#preset option", state="attached")
    _focus(page, "#my-name")
    page.keyboard.type("Боря")
    _focus(page, "#create-button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/t/**")

    focused = ("() => document.activeElement && document.activeElement.closest("
               "'.actions, .hand, .dialog') !== null")
    typed_bid = typed_card = played_as_declarer = False
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        page.wait_for_selector(TURN, timeout=20000)
        if page.locator("#sheet-close").count():
            page.wait_for_function("() => document.activeElement?.id === 'sheet-close'")
            if played_as_declarer:
                break
            page.keyboard.press("Enter")
            continue
        page.wait_for_function(focused, timeout=10000)  # the move has the focus
        fks = _fks(page)
        if "act-120" in fks and not typed_bid:
            page.keyboard.press("/")  # a bid typed as in the terminal
            page.keyboard.type("120")
            page.keyboard.press("Enter")
            typed_bid = True
        elif {"act-120", "act-pass"} & set(fks) or any(f.startswith("act-contract") for f in fks):
            want = ("act-120" if "act-120" in fks else
                    next((f for f in fks if f.startswith("act-contract")), "act-pass"))
            if want.startswith("act-contract"):
                played_as_declarer = True
            key = page.locator(f'[data-fk="{want}"]').get_attribute("data-key")
            page.keyboard.press(key)  # the digit of the button
        elif fks:
            page.keyboard.press("1")
        elif played_as_declarer and not typed_card:
            card = page.locator(".hand button.playable").last.get_attribute("data-card")
            typed = card.replace("T", "10").lower()  # "10s", "ah": the terminal's way
            page.keyboard.press("Escape")
            page.keyboard.type(typed)  # typing starts the move box
            assert page.evaluate("document.activeElement.id") == "move-input"
            page.keyboard.press("Enter")
            typed_card = True
        else:
            # walk the hand with the arrows to a card that may be played, then Enter
            for _ in range(12):
                if page.evaluate("document.activeElement?.classList.contains('playable')"):
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
        page.wait_for_timeout(60)
    else:
        pytest.fail("no deal played as the declarer in time")
    assert typed_bid and typed_card
    assert page.locator(".dialog table.sheet").count() == 1
    assert not page.errors


def _card_rises_in_place(page: Any) -> None:
    """A playable card under the pointer rises, its face drawn higher, while its button,
    what the pointer is over, stays where it was: a button that rose would slip from under
    a pointer at its lower edge, drop back under it and rise again, a flicker that reduced
    motion (no transition) made plain."""
    card = page.locator(".hand button.playable:not([disabled])").first
    box = card.bounding_box()
    face = card.locator(".card-svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
    page.wait_for_function(
        """([top, height]) => {
            const f = document.querySelector('.hand button.playable:hover .card-svg');
            return f !== null && f.getBoundingClientRect().top < top - 0.1 * height;
        }""", arg=[face["y"], face["height"]])
    assert card.bounding_box() == box
    assert card.evaluate("b => b.matches(':hover')")
    page.mouse.move(0, 0)


# ---------------------------------------------------------------- 3. two friends


def _act(page: Any) -> bool:
    """One move for this page if it has one: pass the auction, otherwise the first move."""
    if page.locator("#sheet-close").count() or page.locator("#overlay[open]").count():
        return False
    try:  # the deal's sheet may open between the look and the click: then look again
        fks = _fks(page)
        if fks:
            contract = [f for f in fks if f.startswith("act-contract")]
            pick = "act-pass" if "act-pass" in fks else contract[0] if contract else fks[0]
            page.click(f'[data-fk="{pick}"]', timeout=10_000)
            return True
        card = page.locator(".hand button.playable:not([disabled])")
        if card.count():
            card.first.click(timeout=10_000)
            return True
    except PlaywrightTimeout:
        pass
    return False


def test_two_friends_at_one_table_one_reloads(server: str, browser: Any) -> None:
    anna = _page(browser, viewport={"width": 1280, "height": 860})
    url = _create(anna, server, "Аня", second="human")
    anna.wait_for_selector("#invite-url")
    invite = anna.locator("#invite-url").input_value()
    assert invite.endswith("?seat=1")
    assert anna.locator("#waiting").is_visible()

    # the friend on a phone: opens the invitation, gives a name, takes the seat
    boris = _page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                  has_touch=True)
    boris.goto(invite)
    boris.wait_for_selector(".join-form")
    boris.fill("#join-name", "Боря")
    boris.click('.join-form button[data-seat="1"]')
    boris.wait_for_selector(".seat.pos-bottom .tag.you")
    anna.wait_for_function("() => document.getElementById('waiting').hidden")

    reloaded = False
    moves = {"a": 0, "b": 0}
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        if anna.locator("#sheet-close").count() and boris.locator("#sheet-close").count():
            break
        acted = False
        for key, page in (("a", anna), ("b", boris)):
            if _act(page):
                moves[key] += 1
                acted = True
        if not reloaded and moves["b"] >= 2 and boris.locator(".hand button.card").count():
            before = boris.locator(".hand button.card").count()
            log_before = boris.locator("#log li").count()
            if not boris.locator(".hand button.playable").count():
                _shot(boris, "table-phone.png")
            boris.reload()
            boris.wait_for_selector(".seat.pos-bottom .tag.you")
            boris.wait_for_function(
                f"() => document.querySelectorAll('#log li').length >= {log_before}")
            # the same seat, its hand and the game so far (a move may land meanwhile)
            assert boris.locator(".hand button.card").count() >= min(before - 1, 1)
            reloaded = True
        if not acted:
            anna.wait_for_timeout(80)
    else:
        pytest.fail("the deal did not end in time")
    assert reloaded and moves["b"] > 2
    for page in (anna, boris):
        assert page.locator(".dialog table.sheet tbody tr").count() == 1
        assert not page.errors
    assert url.startswith(server + "/t/")
