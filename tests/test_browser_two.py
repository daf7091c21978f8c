"""The game for two in a real browser (Playwright, Debian's Chromium) against a real
``thousand serve`` (RULES §4 "Two players"): a whole deal against a bot on a desktop (by
clicking, axe-core at the talon choice and at the end, at every phase under ``./run test
--deep``) and on a 390-pixel phone (by tapping, nothing wider
than the screen); the talon choice by the keyboard.  The person bids as high as he may
so that he declares and chooses a talon himself (a table dealt again when the bot still
outbids him).  The screenshot docs/screenshots/two-players.png is kept with
THOUSAND_SCREENSHOTS=1.  One server and one browser for the module (test_browser.py's).

Chromium and axe-core (``npm ci --prefix tests/js``) are needed (tests/needs.py).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

import playwright.sync_api as sync_api
import pytest

import needs
from depth import deep
from test_a11y import serious
from test_browser import _page, _shot, browser, server
from test_browser_table import DESKTOP, PHONE, _desk_page, _phone_page, desk, phone

pytestmark = pytest.mark.needs("chromium")

# the fixtures, shared with test_browser.py and (the pages kept for the tests that only
# look) test_browser_table.py
__all__ = ["_desk_page", "_phone_page", "browser", "desk", "phone", "server"]

DEADLINE = 50.0
#: Elements past a 390-pixel screen's right edge (they would zoom the whole page out).
TOO_WIDE = """() => [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > 391)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
    .slice(0, 8)"""


def _api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data,
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _seat_page(browser: Any, base: str, **kw: Any) -> Any:
    """A one-deal game for two, Аня against a bot, opened at Аня's seat."""
    laid = _api(base, "/api/tables", {
        "preset": "two", "options": {"max_deals": 1},
        "seats": [{"kind": "human", "name": "Аня"}, {"kind": "bot", "level": "heuristic"}]})
    page = _page(browser, **kw)
    token = json.dumps({"seat": laid["seat"], "token": laid["token"]})
    key = json.dumps("thousand.seat." + laid["table"])
    page.context.add_init_script(f"localStorage.setItem({key}, {json.dumps(token)});")
    page.goto(f"{base}/t/{laid['table']}")
    page.wait_for_selector(".board .felt")
    return page


def _fks(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(
        ".actions button:not([disabled])", "bs => bs.map(b => b.dataset.fk || '')"))


def _press(locator: Any, touch: bool) -> None:
    locator.tap(timeout=2000) if touch else locator.click(timeout=2000)


class _Deal:
    """What the test saw of one deal, checked as it goes (see :func:`_play`)."""

    def __init__(self, page: Any, touch: bool, axe: bool) -> None:
        self.page, self.touch, self.axe = page, touch, axe
        self.phases: dict[str, list[str]] = {}  # phase -> axe's serious violations
        self.chose: int | None = None
        self.discards = 0
        self.cards = 0
        self.wide: list[str] = []

    def check(self, phase: str) -> None:
        """Once per phase: axe (desktop) or the phone's width; always: two seats only."""
        page = self.page
        seats = page.eval_on_selector_all(".board .seat", "ss => ss.map((s) => s.className)")
        assert len(seats) == 2, seats  # no empty third place ("Two players" 1)
        assert any("pos-top" in s for s in seats) and any("pos-bottom" in s for s in seats)
        if phase in self.phases:
            return
        # axe at the phases only two players have by default, at every phase deep
        axe_here = self.axe and (deep() or phase in ("talon choice", "over"))
        self.phases[phase] = serious(page) if axe_here else []
        if self.touch and page.evaluate("document.documentElement.scrollWidth") > 390:
            self.wide.append(f"{phase}: {page.evaluate(TOO_WIDE)}")

    def talon_choice(self) -> None:
        """Point 3: two talons of two face down, «1» and «2», the choice the declarer's."""
        page = self.page
        piles = page.locator("button.talon-pile")
        assert piles.count() == 2
        assert [piles.nth(i).get_attribute("aria-label") for i in range(2)] == [
            "Взять прикуп 1", "Взять прикуп 2"]
        assert page.locator(".talon-pile .card.back").count() == 4
        assert page.locator(".talon-pile .talon-no").all_inner_texts() == ["1", "2"]
        self.check("talon choice")
        if not self.touch:
            _shot(page, "two-players.png")
        self.chose = 2 if self.touch else 1
        _press(page.locator(f'button.talon-pile[data-talon="{self.chose}"]'), self.touch)
        # the chosen talon turned over: the declarer sees it
        page.wait_for_selector(f'.talon-pile.chosen[data-talon="{self.chose}"] .card.face')
        assert page.locator(".hand .card").count() == 12  # 10 and the talon's 2


#: What the loop of :func:`_play` acts on next: a move of its own, or the deal's end.
NEXT = ("dialog.overlay[open] .dialog, button.talon-pile:not([disabled]), "
        ".actions button:not([disabled]), .hand button.playable:not([disabled])")


def _play(page: Any, touch: bool, axe: bool) -> _Deal | None:
    """Play the deal out (None when the bot declared: no talon for the test to choose)."""
    seen = _Deal(page, touch, axe)
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        if page.locator("dialog.overlay[open] .dialog").count():
            return seen if seen.chose is not None else None
        if page.locator("button.talon-pile:not([disabled])").count():
            seen.talon_choice()
            continue
        fks = _fks(page)
        playable = page.locator(".hand button.playable:not([disabled])")
        try:
            if fks and fks[0].startswith("act-talon"):
                # the piles come with the same view
                page.wait_for_selector("button.talon-pile:not([disabled]), "
                                       "dialog.overlay[open] .dialog")
            elif fks and all(re.fullmatch(r"act-(pass|\d+)", f) for f in fks):
                # the auction: two talons face down before the choice
                assert page.locator(".talon-pile").count() == 2
                assert page.locator(".talon-pile .card.back").count() >= 3
                seen.check("auction")
                bids = [f for f in fks if re.fullmatch(r"act-\d+", f)]
                pick = bids[-1] if bids else "act-pass"  # the highest: the talon is his
                _press(page.locator(f'[data-fk="{pick}"]'), touch)
            elif fks:  # the contract, or a marriage to declare with the card
                contract = fks[0].startswith("act-contract")
                seen.check("contract" if contract else "play")
                _press(page.locator(f'[data-fk="{fks[0]}"]'), touch)
                seen.cards += 0 if contract else 1
            elif playable.count():
                exchange = page.locator(".hand .card").count() > 10 and not seen.cards \
                    and seen.discards < 2
                seen.check("exchange" if exchange else "play")
                card = playable.first
                if touch:
                    card.tap(timeout=2000)  # picks
                    page.locator(".hand button.card.selected").tap(timeout=2000)  # plays
                else:
                    card.click(timeout=2000)
                if exchange:
                    seen.discards += 1
                elif not page.locator('[data-fk="act-cancel"]').count():
                    seen.cards += 1  # played (else: a marriage to declare or not, above)
                trick = page.locator(".trick .slot").count()
                assert trick <= 2, trick  # tricks of two cards ("Two players" 5)
            else:
                page.wait_for_selector(NEXT)  # the bot's move
        except sync_api.Error:
            continue  # the table moved on under the finger: look again
    pytest.fail(f"the deal did not end in time ({vars(seen)})")


def _deal_as_declarer(browser: Any, server: str, touch: bool, axe: bool) -> tuple[Any, _Deal]:
    for _ in range(4):
        page = _seat_page(browser, server, **(PHONE if touch else DESKTOP))
        seen = _play(page, touch, axe)
        if seen is not None:
            return page, seen
        page.context.close()
    pytest.fail("the bot outbid the person in every deal")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_whole_deal_for_two_against_a_bot(server: str, browser: Any, device: str) -> None:
    """RULES §4 "Two players" 1-5, 8 on the page: two seats, the opponent across; two
    talons face down, «1» and «2»; the declarer chooses one by clicking (tapping) it, it
    turns over, he discards two and leads; ten tricks of two; at the end the other talon
    turned over with the line that its points went to the defender."""
    touch = device == "phone"
    axe = not touch
    if axe:
        needs.require("axe-core")
    page, seen = _deal_as_declarer(browser, server, touch, axe)
    assert seen.discards == 2 and seen.cards == 10, vars(seen)
    # the game is over (one deal): the board behind the dialog shows the deal's end
    page.wait_for_selector(".dialog .other-talon")
    other = 3 - (seen.chose or 0)
    assert page.locator(f'.board .talon-pile.other[data-talon="{other}"] .card.face').count() == 2
    assert page.locator(".dialog .other-talon .card.face").count() == 2
    assert "защитнику" in page.locator(".dialog .other-talon").inner_text()
    assert "защитнику" in page.locator(".board .talon-note").inner_text()
    log = page.locator("#log li").all_inner_texts()
    assert sum(1 for line in log if "взятку" in line) == 10, log  # ten tricks
    assert any(line.startswith(f"Вы выбираете прикуп {seen.chose}") for line in log), log
    assert any(line.startswith(f"Невзятый прикуп {other}:") for line in log), log
    # the sheet of the game: two columns of players
    assert page.locator(".dialog table.sheet thead th.player").count() == 2
    seen.check("over")
    assert not seen.wide, seen.wide
    bad = [f"{phase}: {line}" for phase, lines in seen.phases.items() for line in lines]
    assert not bad, "\n".join(bad)
    assert set(seen.phases) >= {"auction", "talon choice", "exchange", "play", "over"}
    assert not page.errors
    page.context.close()


@pytest.fixture(scope="module")
def finished(server: str) -> str:
    """A one-deal game of two bots, Аня and Боря, that is over: its id."""
    laid = _api(server, "/api/tables", {"preset": "two", "options": {"max_deals": 1}, "seats": [
        {"kind": "bot", "name": "Аня"}, {"kind": "bot", "name": "Боря"}]})
    deadline = time.monotonic() + 60
    while _api(server, f"/api/tables/{laid['table']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    return str(laid["table"])


def test_the_replay_viewer_shows_a_game_for_two(server: str, phone: Any,
                                                finished: str) -> None:
    """RULES §4 "Two players" 3, 8 in the replay viewer: two seats; the step of the
    ``talon N`` move in words («Прикуп N»), the chosen talon turned over beside the other
    face down; the last step the other turned over, its points the defender's."""
    page = phone
    page.goto(f"{server}/replay/{finished}")
    page.wait_for_selector(".replay-controls button")
    page.click('[data-fk="last"]')
    page.wait_for_selector(".talon-pile.other .card.face")
    assert page.locator(".board .seat").count() == 2
    assert page.locator(".talon-pile.other .card.face").count() == 2
    # «— Ане, защитнику» or «— Боре, …»: the defender's name declined (the name forms)
    note = page.locator(".talon-note").inner_text()
    assert re.search(r"— (Ане|Боре), защитнику\.$", note), note
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, page.evaluate(TOO_WIDE)
    for _ in range(40):  # back to the talon's move
        if re.search(r"Прикуп [12]$", page.locator(".step-title").inner_text()):
            break
        page.click('[data-fk="prev"]')
    else:
        pytest.fail("no step of a talon choice")
    assert page.locator(".talon-pile.chosen .card.face").count() == 2
    assert page.locator(".talon-pile.other .card.back").count() == 2
    page.click('[data-fk="prev"]')  # the choice to come: both face down
    assert page.locator(".talon-pile .card.back").count() == 4
    assert not page.errors


def test_the_talon_is_chosen_with_the_keyboard(server: str, desk: Any,
                                               finished: str) -> None:
    """The declarer's choice ("Two players" 3) without a mouse: the talons are buttons
    named «Взять прикуп 1/2» in the tab order, the arrows go from one to the other, Enter
    takes the one focused; the moves bar offers «Прикуп 1» and «Прикуп 2» on keys 1 and 2."""
    page = desk
    page.goto(server + "/history")
    page.wait_for_selector("table.games tbody tr")  # the page's own drawing is done
    got = page.evaluate("""async (id) => {
      const b = await import('/static/board.js');
      const r = await (await fetch(`/api/games/${id}/replay`)).json();
      const view = r.steps.find((s) => s.view.phase === 'talon choice').view;
      const root = document.createElement('div');
      document.querySelector('main').replaceChildren(root);
      window.moves = [];
      const me = view.declarer;
      b.renderBoard(root, { view: { ...view, legal: ['talon 1', 'talon 2'], to_move: me },
        names: r.header.players, seats: [], lang: 'ru', mySeat: me, interactive: true,
        onMove: (m) => window.moves.push(m), onCard() {}, onDeclareChoice() {} });
      document.addEventListener('keydown', (e) => {
        if (b.handleArrows(e, root)) e.preventDefault();
      });
      return [...root.querySelectorAll('.actions button')]
        .map((x) => [x.dataset.key, x.textContent]);
    }""", finished)
    assert got == [["1", "1Прикуп 1"], ["2", "2Прикуп 2"]], got
    page.locator('button.talon-pile[data-talon="1"]').focus()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Взять прикуп 1"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Взять прикуп 2"
    page.keyboard.press("Enter")
    assert page.evaluate("window.moves") == ["talon 2"]
    assert not page.errors


def test_the_lobby_lays_a_table_for_two(server: str, phone: Any) -> None:
    """RULES §4 "Two players" 1 from the lobby: the preset «Вдвоём» is offered (in the new
    table's form and in quick play), chosen it gives two seats — the person's and one
    more, a bot — and the table laid has the two at it, the bot across."""
    page = phone
    page.goto(server + "/")
    page.wait_for_selector("#preset option", state="attached")
    quick = page.eval_on_selector_all("#quick-preset option", "os => os.map((o) => o.value)")
    assert "two" in quick
    page.select_option("#preset", "two")
    assert page.locator("#preset option:checked").inner_text() == "Вдвоём"
    assert page.locator("fieldset.seats .seat-row").count() == 2
    assert page.locator("#seat-2-kind").count() == 0
    page.fill("#my-name", "Аня")
    page.click("#create-button")
    page.wait_for_url("**/t/**")
    page.wait_for_selector(".board.n2 .seat.pos-top")
    assert page.locator(".board .seat").count() == 2
    assert page.locator(".board .seat.pos-bottom .tag.you").count() == 1
    assert not page.errors


def test_the_next_deal_still_says_the_last_deals_other_talon(server: str, desk: Any,
                                                            finished: str) -> None:
    """The live table deals the next deal as the last one ends ("Two players" 3): until
    the new auction is over the cloth shows the last deal's other talon and whose its
    points were (the table page passes it from the events), and not once a declarer is
    known."""
    page = desk
    page.goto(server + "/history")
    page.wait_for_selector("table.games tbody tr")
    notes = page.evaluate("""async (id) => {
      const b = await import('/static/board.js');
      const r = await (await fetch(`/api/games/${id}/replay`)).json();
      const root = document.createElement('div');
      document.querySelector('main').replaceChildren(root);
      const last = { chosen: 1, cards: ['AS', 'KS'], declarer: 0, active: [0, 1] };
      const note = (phase) => {
        const view = r.steps.find((s) => s.view.phase === phase).view;
        b.renderBoard(root, { view, names: r.header.players, seats: [], lang: 'ru',
          mySeat: null, forms: r.name_forms.ru, interactive: false, lastOtherTalon: last,
          onMove() {}, onCard() {},
          onDeclareChoice() {} });
        return root.querySelector('.talon-note')?.textContent ?? null;
      };
      return [note('auction'), note('talon choice')];
    }""", finished)
    names = _api(server, f"/api/tables/{finished}")["header"]["players"]
    defender = {"Аня": "Ане", "Боря": "Боре"}[names[1]]
    assert notes == [f"Прошлая раздача: Т♠ К♠. Невзятый прикуп 2 (+15) — {defender}, "
                     "защитнику.", None], notes
    assert not page.errors
