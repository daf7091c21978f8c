"""The table page in a real browser (Playwright, Debian's Chromium) against a real
``thousand serve``: the defects of the table page, one deal of every preset on a desktop
and on a phone (tapping), the seats around the cloth, motion and sound, and the dialog's
focus trap. Tables are laid through the JSON API (one person and bots, or bots only with
``max_deals: 1`` for a finished game) and the page gets its seat's token as the lobby would
give it. One server and one browser for the whole module.

Skipped when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import itertools
import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import playwright.sync_api as sync_api
import pytest

from depth import kept
from test_browser import TURN, _page, browser, looking, server, shared_page

pytestmark = pytest.mark.needs("chromium")

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 860}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True}
DEADLINE = 60.0


def _api(base: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data,
                                 method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def _lay(base: str, preset: str = "classic", seats: list[dict[str, Any]] | None = None,
         **extra: Any) -> dict[str, Any]:
    """A table through the API: Аня and bots unless told otherwise."""
    if seats is None:
        seats = [{"kind": "human", "name": "Аня"}] + [{"kind": "bot", "level": "heuristic"}] * (
            3 if preset == "textbook" else 2)
    return dict(_api(base, "/api/tables", {"preset": preset, "seats": seats, **extra}))


def _seat_page(browser: Any, base: str, laid: dict[str, Any], **kw: Any) -> Any:
    """The table's page for the seat `laid` holds (its token as the lobby keeps it), in a
    browser context of its own."""
    return _sit(_page(browser, **kw), base, laid)


def _sit(page: Any, base: str, laid: dict[str, Any]) -> Any:
    """`page` opens the table at the seat `laid` holds (its token as the lobby keeps it:
    kept for that table alone, so a context that sits at many tables keeps each one's)."""
    token = json.dumps({"seat": laid["seat"], "token": laid["token"]})
    key = json.dumps("thousand.seat." + laid["table"])
    page.context.add_init_script(f"localStorage.setItem({key}, {json.dumps(token)});")
    page.goto(f"{base}/t/{laid['table']}")
    page.wait_for_selector(".board")
    return page


@pytest.fixture(scope="module")
def _desk_page(browser: Any) -> Iterator[Any]:
    yield from shared_page(browser, **DESKTOP)


@pytest.fixture(scope="module")
def _phone_page(browser: Any) -> Iterator[Any]:
    yield from shared_page(browser, **PHONE)


@pytest.fixture
def desk(_desk_page: Any) -> Iterator[Any]:
    """The module's desktop page, for a test that only looks (test_browser.shared_page)."""
    yield from looking(_desk_page)


@pytest.fixture
def phone(_phone_page: Any) -> Iterator[Any]:
    """The module's phone page (390 × 844, touch), for a test that only looks."""
    _phone_page.set_viewport_size(PHONE["viewport"])
    yield from looking(_phone_page)


def _fks(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(
        ".actions button:not([disabled])", "bs => bs.map(b => b.dataset.fk || '')"))


#: A hand card's transition, read in one task (the hand is drawn again with every event: a
#: card looked up first and read after may have left the page, its style then empty).
#: the hand card's rise (its face moves, the button stays: style.css)
CARD_TRANSITION = ("() => getComputedStyle(document.querySelector('.hand .card .card-svg'))"
                   ".transitionDuration")


def _advance(page: Any) -> None:
    """One move of the seat when it has one (a pass, a contract, else the first action or
    playable card), then wait until the table's log has grown: something happened at the
    table, whoever made it (an assertion made after a fixed wait may come too early on a
    busy machine)."""
    before = page.locator("#log li").count()
    fks = _fks(page)
    if fks:
        contract = [f for f in fks if f.startswith("act-contract")]
        page.click(f'[data-fk="{"act-pass" if "act-pass" in fks else (contract or fks)[0]}"]')
    elif page.locator(".hand button.playable:not([disabled])").count():
        page.locator(".hand button.playable:not([disabled])").first.click()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length > {before}",
                           timeout=DEADLINE * 1000)


@pytest.fixture(scope="module")
def finished(server: str) -> Iterator[dict[str, Any]]:
    """A game of three bots named Аня, Маша and Боря, over after its one deal."""
    laid = _lay(server, seats=[{"kind": "bot", "name": "Аня"}, {"kind": "bot", "name": "Маша"},
                               {"kind": "bot", "name": "Боря"}], options={"max_deals": 1})
    for _ in range(300):
        info = _api(server, f"/api/tables/{laid['table']}")
        if info["status"] == "over":
            break
        time.sleep(0.1)
    else:
        pytest.fail("the bots' game did not end")
    yield laid


# ---------------------------------------------------------------- the defects


def test_a_hint_goes_when_the_table_moves_on(server: str, browser: Any) -> None:
    """Issue 15, 10: the hint for one moment left the screen only on the next hint."""
    page = _seat_page(browser, server, _lay(server), **DESKTOP)
    page.wait_for_selector("#hint-button:not([disabled])", timeout=20000)
    page.click("#hint-button")
    page.wait_for_selector("#hint-box:not([hidden]) .hint-advice", timeout=30000)
    # issue 15, 7: the hint is advice to the player, as the terminal words it
    advice = page.locator("#hint-box .hint-advice").inner_text()
    assert re.match(r"(Сыграйте|Отдайте|Снесите|Скажите|Закажите|Поднимите|Пасуйте|Не "
                    r"перекупайте|Играйте|Темните|Посмотрите|Потребуйте|Распишитесь|"
                    r"Перекупите)", advice), advice
    move = "act-pass" if "act-pass" in _fks(page) else _fks(page)[0]
    page.click(f'[data-fk="{move}"]')
    page.wait_for_selector("#hint-box", state="hidden", timeout=10000)
    assert not page.errors


def test_a_spectator_is_told_he_watches_and_gets_no_move_box(server: str, desk: Any) -> None:
    """Issue 15, 11: `display: flex` beat `hidden`: the move box and the chat showed to a
    spectator, who could type moves and got «"pass" сейчас сделать нельзя»."""
    laid = _lay(server, seats=[{"kind": "bot"}] * 3)
    page = desk
    page.goto(f"{server}/t/{laid['table']}")
    page.wait_for_selector(".board .felt")
    assert not page.locator("#command").is_visible()
    assert not page.locator("#move-input").is_visible()
    assert not page.locator("#chat-form").is_visible()
    assert "смотрите" in page.locator("#watching").inner_text()
    page.keyboard.type("pass")
    assert page.evaluate("document.activeElement.id") != "move-input"
    assert not page.locator("#error").is_visible()
    assert not page.errors


def test_a_finished_game_opened_fresh_shows_its_sheet(server: str, phone: Any,
                                                     finished: dict[str, Any]) -> None:
    """Issue 15, 12: the end dialog came before the events: an empty sheet, a flat chart,
    no scores; and it opened scrolled down to its buttons, the winner out of view."""
    page = phone
    page.set_viewport_size({"width": 390, "height": 600})
    page.goto(f"{server}/t/{finished['table']}")
    page.wait_for_selector(".dialog .big")
    # the events that follow the snapshot have come: the sheet has its deal and its scores
    page.wait_for_function(
        "() => document.querySelectorAll('.dialog table.sheet tbody tr th').length === 1 && "
        "[...document.querySelectorAll('.dialog .sheet .total')].some(x => +x.textContent)",
        timeout=DEADLINE * 1000)
    dialog = page.locator(".dialog")
    assert "Раздач ещё не было" not in dialog.inner_text()
    assert page.locator(".dialog table.sheet tbody tr th").count() == 1
    scores = page.locator(".dialog .big").nth(1).inner_text()
    assert scores.startswith("Итоговый счёт") or "счёт" in scores.lower(), scores
    totals = page.eval_on_selector_all(".dialog .sheet .total", "xs => xs.map(x => +x.textContent)")
    assert any(totals), totals
    # the top of the dialog is in view: its title and the winner
    box = page.locator(".dialog .big").first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 600
    assert not page.errors


def test_a_waiting_table_says_for_whom_and_invites_only_from_a_seat(server: str, phone: Any,
                                                                    desk: Any) -> None:
    """Issue 15, 16: the visitor was offered «Пригласить друга»; the empty seat was framed
    as «ходит»; the waiting line did not say for whom."""
    laid = _lay(server, seats=[{"kind": "human", "name": "Аня"}, {"kind": "human"},
                               {"kind": "bot"}])
    guest = phone
    guest.goto(f"{server}/t/{laid['table']}?seat=1")
    guest.wait_for_selector(".board .felt")
    guest.wait_for_selector("#waiting:not([hidden])")
    assert "Пригласить" not in guest.locator("#main").inner_text()
    assert guest.locator("#invite").inner_text() == ""
    assert guest.locator(".seat.turn").count() == 0
    assert "место 2" in guest.locator("#waiting").inner_text()
    anna = _sit(desk, server, laid)
    anna.wait_for_selector("#invite-url")
    waiting = anna.locator("#waiting").inner_text()
    assert "место 2" in waiting and "Пригласите" in waiting, waiting
    assert anna.locator(".seat.turn").count() == 0
    assert "ходит" not in anna.locator(".board").inner_text().lower()
    assert not anna.errors and not guest.errors


def _lab(page: Any, script: str, *args: Any) -> Any:
    """Run `script` with the board module and real data of the finished game: `b` (board.js),
    `r` (its replay), `forms` (the snapshot's name forms), `names`."""
    return page.evaluate(f"""async (args) => {{
      const b = await import('/static/board.js');
      const id = args[0];
      const r = await (await fetch(`/api/games/${{id}}/replay`)).json();
      const forms = await new Promise((ok) => {{
        const ws = new WebSocket(`ws://${{location.host}}/ws/${{id}}`);
        ws.onmessage = (e) => {{ const m = JSON.parse(e.data); ws.close(); ok(m.name_forms.ru); }};
      }});
      const names = r.header.players;
      const root = document.createElement('div');
      root.id = 'lab';
      document.querySelector('main').replaceChildren(root);
      {script}
    }}""", list(args))


def test_the_table_speaks_of_its_players_rightly(server: str, phone: Any, desk: Any,
                                                finished: dict[str, Any]) -> None:
    """Issue 15, 19: «за него играет бот» for Маша; «Щёлкните» on a touch screen; «Взятку
    берёт Аня» on Аня's own page (the log says «Вы берёте взятку»)."""
    common = """
      const step = r.steps.find((s) => s.view.phase === 'play' && !s.view.trick.length
        && s.view.tricks.length);
      const view = step.view;
      const winner = view.tricks[view.tricks.length - 1].winner;
      const seats = names.map((n, s) => ({ seat: s, kind: 'human', name: n, taken: true,
        online: true, bot_playing: s !== winner }));
      b.renderBoard(root, { view, names, seats, lang: 'ru', mySeat: winner, forms,
        interactive: false, onMove() {}, onCard() {}, onDeclareChoice() {} });
      const caption = root.querySelector('.trick-caption').textContent;
      const tag = [...root.querySelectorAll('.seat .tag.bot')].map((x) => x.textContent);
      const ex = r.steps.find((s) => s.view.phase === 'exchange').view;
      b.renderBoard(root, { view: { ...ex, legal: ['give 9S'], to_move: ex.declarer }, names, seats,
        lang: 'ru', mySeat: ex.declarer, forms, interactive: true, onMove() {}, onCard() {},
        onDeclareChoice() {} });
      return { caption, tag, prompt: root.querySelector('.prompt').textContent };
    """
    phone.goto(server + "/history")
    got = _lab(phone, common, finished["table"])
    assert got["caption"].startswith("Вы берёте взятку"), got
    # stand-ins for the two others: one of them is Аня or Маша whoever took the trick
    assert {"за Машу играет бот", "за Аню играет бот"} & set(got["tag"]), got
    assert not any("него" in tag for tag in got["tag"]), got
    assert "Нажмите на карту" in got["prompt"] and "Щёлкните" not in got["prompt"], got
    desk.goto(server + "/history")
    assert "Щёлкните карту" in _lab(desk, common, finished["table"])["prompt"]
    assert not phone.errors and not desk.errors


def test_ten_cards_stay_one_row_on_a_phone(server: str, phone: Any,
                                          finished: dict[str, Any]) -> None:
    """Issue 15, 19: the declarer's ten cards wrapped to two rows at 390 px."""
    page = phone
    page.goto(server + "/history")
    cards = _lab(page, """
      const i = r.steps.findIndex((s) => s.view.phase === 'exchange');
      const view = { ...r.steps[i].view };
      const me = view.declarer;
      view.hand = r.steps[i].hands[me];
      b.renderBoard(root, { view, names, seats: [], lang: 'ru', mySeat: me, forms,
        interactive: true, onMove() {}, onCard() {}, onDeclareChoice() {} });
      return [...root.querySelectorAll('.hand button.card')].map((c) => {
        const x = c.getBoundingClientRect(); return [x.left, x.top, x.right]; });
    """, finished["table"])
    assert len(cards) == 10
    assert max(c[1] for c in cards) - min(c[1] for c in cards) < 1  # one row
    assert max(c[2] for c in cards) <= 390
    # every card keeps a strip wide enough to tap
    assert min(b[0] - a[0] for a, b in itertools.pairwise(cards)) >= 18
    assert not page.errors


# ---------------------------------------------------------------- whole deals


GEOMETRY = """() => {
  const c = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const all = (sel, root = document) => [...root.querySelectorAll(sel)];
  const seats = all('.seat').map((s) => ({
    pos: [...s.classList].find((x) => x.startsWith('pos-')), seat: +s.dataset.seat, at: c(s) }));
  const trick = document.querySelector('.trick');
  const slots = trick ? all('.slot', trick).map((s) => ({
    seat: +s.dataset.seat, at: c(s.querySelector('.card')) })) : [];
  const hand = all('.hand .card').map((x) => x.offsetTop);  // transforms aside
  return { felt: c(document.querySelector('.felt')), seats, trick: trick ? c(trick) : null,
    slots, hand };
}"""


def _check_geometry(page: Any, n: int) -> bool:
    """The players sit around the cloth, the trick's cards lie toward their players, the
    hand is one row. True when a trick with cards was seen."""
    g = page.evaluate(GEOMETRY)
    fx, fy = g["felt"]
    where = {s["pos"]: s["at"] for s in g["seats"]}
    assert where["pos-left"][0] < fx < where["pos-right"][0], g
    assert where["pos-bottom"][1] > fy, g
    if n == 4:
        assert where["pos-top"][1] < fy, g
    if g["hand"]:
        assert max(g["hand"]) - min(g["hand"]) < 1, g  # one row of cards
    if not g["slots"] or g["trick"] is None:
        return False
    tx, ty = g["trick"]
    seat_at = {s["seat"]: s["at"] for s in g["seats"]}
    for slot in g["slots"]:
        sx, sy = slot["at"]
        px, py = seat_at[slot["seat"]]
        # the card lies from the middle toward its player
        assert (sx - tx) * (px - tx) + (sy - ty) * (py - ty) > 0, (slot, g)
    return True


def _one_deal(page: Any, n: int, touch: bool) -> dict[str, int]:
    """Play until the deal is scored (the sheet dialog): pass the auction, otherwise the
    first move offered or the first card that may be played (tapped twice on a phone)."""
    seen = {"tricks": 0, "moves": 0, "sat_out": 0}
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        if _check_geometry(page, n):
            seen["tricks"] += 1
        seen["sat_out"] |= page.locator(".seat.pos-bottom.sits-out").count()  # textbook
        if page.locator("#sheet-close").count():
            return seen
        fks = _fks(page)
        if not fks and not page.locator(".hand button.playable:not([disabled])").count():
            # another player's move (or this seat sits out): until this seat has one, or
            # the deal is scored
            page.wait_for_selector(TURN)
            continue
        try:
            if fks:
                contract = [f for f in fks if f.startswith("act-contract")]
                pick = "act-pass" if "act-pass" in fks else contract[0] if contract else fks[0]
                button = page.locator(f'[data-fk="{pick}"]')
                button.tap(timeout=2000) if touch else button.click(timeout=2000)
            else:
                card = page.locator(".hand button.playable:not([disabled])").first
                if touch:
                    card.tap(timeout=2000)  # picks
                    page.locator(".hand button.card.selected").tap(timeout=2000)  # plays
                else:
                    card.click(timeout=2000)
            seen["moves"] += 1
        except sync_api.Error:
            continue  # the table moved on under the finger: look again
    pytest.fail(f"the deal did not end in time ({seen})")


# By default a deal of three players on a desktop and of four on a phone; every preset on
# both in the deep run (docs/testing.md).  With the cards' motion: a person's clicks and
# taps land on cards still flying in.
@pytest.mark.motion
@pytest.mark.parametrize(("device", "preset"), kept(
    itertools.product(["desktop", "phone"], ["classic", "dealer-opens", "house", "textbook",
                                             "casual"]),
    {("desktop", "classic"), ("phone", "textbook")}))
def test_one_deal_of_every_preset(server: str, browser: Any, preset: str, device: str) -> None:
    touch = device == "phone"
    n = 4 if preset == "textbook" else 3
    page = _seat_page(browser, server, _lay(server, preset), **(PHONE if touch else DESKTOP))
    # a deal conceded or dealt again shows no trick: play the next one (with Аня passing
    # every bid, heuristic bots left three textbook deals in a row unplayed in 4 games of
    # 300, six in a row in none of 600)
    for _ in range(6):
        seen = _one_deal(page, n, touch)
        if seen["tricks"] >= 1 and (seen["sat_out"] or seen["moves"] >= 8):
            break
        page.locator("#sheet-close").click()
    assert seen["tricks"] >= 1 and (seen["sat_out"] or seen["moves"] >= 8), seen
    # the sheet after the deal fits its dialog; the side panel's fits the panel
    for scroller in (".dialog .sheet-scroll", ".side .sheet-scroll"):
        if page.locator(scroller).is_visible():
            w = page.eval_on_selector(scroller, "s => [s.scrollWidth, s.clientWidth]")
            cells = page.eval_on_selector(scroller, """s => [...s.querySelectorAll('th, td')]
                .map((c) => [c.scrollWidth, c.className, c.textContent.slice(0, 30)])
                .sort((a, b) => b[0] - a[0]).slice(0, 6)""")
            assert w[0] <= w[1] + 1, (scroller, w, cells)
    if touch:  # nothing wider than the phone (it would zoom the whole page out)
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter((e) => e.getBoundingClientRect().right > 391)
            .map((e) => `${e.tagName}.${e.className} ${Math.round(
                e.getBoundingClientRect().right)}`).slice(0, 8)""")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    # the deals so far on the sheet, from the first (a redeal keeps its number)
    numbers = [int(x) for x in page.locator(".dialog table.sheet tbody tr th").all_inner_texts()]
    assert numbers and numbers[0] == 1 and numbers == sorted(numbers), numbers
    assert not page.errors


def test_a_deal_is_played_on_the_events_views_without_a_snapshot(server: str,
                                                                 browser: Any) -> None:
    """docs/protocol.md "The view in the events": the page takes each move's view from its
    events message and never asks for a snapshot during a whole deal (its frames counted
    as they leave), yet shows every trick and ends on the sheet as before."""
    laid = _lay(server)
    page = _page(browser, **DESKTOP)
    sent: list[dict[str, Any]] = []
    got: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: got.append(json.loads(payload)))

    page.on("websocket", watch)
    token = json.dumps({"seat": laid["seat"], "token": laid["token"]})
    key = json.dumps("thousand.seat." + laid["table"])
    page.context.add_init_script(f"localStorage.setItem({key}, {json.dumps(token)});")
    page.goto(f"{server}/t/{laid['table']}")
    page.wait_for_selector(".board")
    moves = 0
    # a deal conceded or dealt again shows no trick: play the next one (with Аня passing
    # every bid, heuristic bots left three textbook deals in a row unplayed in 4 games of
    # 300, six in a row in none of 600)
    for _ in range(6):
        seen = _one_deal(page, 3, touch=False)
        moves += seen["moves"]
        if seen["tricks"] >= 1 and seen["moves"] >= 8:
            break
        page.locator("#sheet-close").click()
    assert seen["tricks"] >= 1 and seen["moves"] >= 8, seen  # tricks shown on the cloth
    kinds = [m["type"] for m in sent]
    # every move the page sent is one the test clicked; a click the table overtook (the
    # card no longer playable by the time it landed) sends nothing, so not every click
    assert 8 <= kinds.count("move") <= moves, (kinds, moves)
    assert "snapshot" not in kinds, f"the page asked for a snapshot: {kinds}"
    snapshots = [m for m in got if m["type"] == "snapshot"]
    assert len(snapshots) == 1  # the one sent on connecting
    after = [m for m in got if m["type"] == "events" and m["version"] > snapshots[0]["version"]]
    assert after and all("view" in m and "base" in m for m in after)
    assert not page.errors
    page.context.close()


# ---------------------------------------------------------------- motion, sound, dialog


@pytest.mark.motion
def test_motion_is_short_and_none_under_reduced_motion(server: str, browser: Any) -> None:
    """The deal comes into the hand (and cards fly, the talon turns) in at most 300 ms, and
    with prefers-reduced-motion nothing moves at all."""
    page = _seat_page(browser, server, _lay(server), **DESKTOP)
    page.wait_for_selector(".hand .card")
    page.wait_for_function("() => window.thousandMotion.count > 0")
    assert page.evaluate("window.thousandMotion.longest") <= 300
    durations = page.evaluate("document.getAnimations().map((a) => a.effect.getComputedTiming()"
                              ".endTime)")
    assert all(d <= 300 for d in durations), durations
    assert page.evaluate(CARD_TRANSITION) \
        == "0.1s"
    still = _seat_page(browser, server, _lay(server), reduced_motion="reduce", **DESKTOP)
    still.wait_for_selector(".hand .card")
    for _ in range(3):  # a few moves of the table go by
        _advance(still)
        assert still.evaluate("document.getAnimations().length") == 0
    assert still.evaluate("window.thousandMotion.count") == 0
    assert still.evaluate(CARD_TRANSITION) \
        == "0s"
    assert not page.errors and not still.errors


def test_sounds_follow_the_switch_and_the_switch_is_remembered(server: str,
                                                              browser: Any) -> None:
    page = _seat_page(browser, server, _lay(server), **DESKTOP)
    switch = page.locator("#sound-button")
    assert switch.get_attribute("aria-pressed") == "false"  # muted under automation
    switch.click()
    assert page.locator("#sound-button").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector(".board .felt")
    assert page.locator("#sound-button").get_attribute("aria-pressed") == "true"
    # the player's first touch lets sound play: the table's events are heard
    page.locator("#main").click(position={"x": 2, "y": 2})
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE:
        heard = set(page.evaluate("window.thousandSounds"))
        if {"card", "turn"} <= heard:
            break
        _advance(page)
    else:
        pytest.fail(f"no card or turn heard: {page.evaluate('window.thousandSounds')}")
    for name in ("turn", "card", "trick", "marriage", "deal"):
        with urllib.request.urlopen(f"{server}/static/sounds/{name}.wav", timeout=10) as r:
            body = r.read()
        assert body[:4] == b"RIFF" and len(body) < 8000, name
    # muted again: nothing more is played
    page.click("#sound-button")
    before = len(page.evaluate("window.thousandSounds"))
    for _ in range(2):  # the table's events come on, and none is heard
        _advance(page)
    assert len(page.evaluate("window.thousandSounds")) == before
    assert not page.errors


def test_the_sheet_dialog_is_modal_and_the_page_reads_well(server: str, browser: Any) -> None:
    """Tab never leaves the dialog for the bid buttons behind it; the log is a focusable,
    named region; the card counts are text, not a div's aria-label; the whose-turn line is
    a live status; no two regions share a name while the dialog is open."""
    page = _seat_page(browser, server, _lay(server), **DESKTOP)
    page.wait_for_selector(".hand .card")
    assert page.locator(".mini-hand[aria-label]").count() == 0
    assert re.fullmatch(r"карт: \d+", page.locator(".seat.pos-left .mini-hand .sr-only")
                        .inner_text())
    log = page.locator("#log-box")
    assert log.get_attribute("tabindex") == "0" and log.get_attribute("aria-label")
    assert page.locator("#turn-status[role=status]").count() == 1
    page.click("#sheet-button")
    page.wait_for_selector("dialog.overlay[open] #sheet-close")
    for key in ["Tab"] * 8 + ["Shift+Tab"] * 8:
        page.keyboard.press(key)
        assert page.evaluate("!!document.activeElement.closest('dialog.overlay')"), key
    names = page.eval_on_selector_all("[role=region]", "rs => rs.map((r) => r.getAttribute("
                                      "'aria-label'))")
    assert len(names) == len(set(names)), names
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.overlay", state="hidden")
    assert not page.errors


#: The widest row a sheet can have: a dark golden contract failed with the golden deals
#: begun again, a samosval for bolts and a barrel's time out as marks, long names.
WIDE_SHEET_JS = """async (names) => {
  const s = await import('/static/sheet.js');
  const ev = [];
  for (let i = 1; i <= 3; i++) {
    ev.push({type: 'deal_scored', v: i, number: i, dealer: 0, declarer: 1, contract: 120,
             outcome: 'played', made: false, dark: true, golden: true,
             changes: [-555, 2400, -240, 120].slice(0, names.length),
             scores: [-555, 12345, -240, -1000].slice(0, names.length)});
    ev.push({type: 'bolt_samosval', v: i, seat: 0, amount: -555});
    ev.push({type: 'barrel_timeout', v: i, seat: 1, amount: -120});
    ev.push({type: 'golden_restart', v: i});
  }
  const d = document.getElementById('overlay');
  const dialog = document.createElement('div'); dialog.className = 'dialog';
  const body = document.createElement('div'); body.className = 'dialog-body';
  body.append(s.sheetTable(s.sheetRows(ev), names, document.documentElement.lang));
  dialog.append(body); d.replaceChildren(dialog); d.hidden = false;
  if (!d.open) d.showModal();
  const scroller = d.querySelector('.sheet-scroll');
  return [scroller.scrollWidth, scroller.clientWidth];
}"""


def test_the_widest_sheet_fits_a_phone(server: str, phone: Any) -> None:
    """Issue 15 (17): the after-deal sheet on a 390-pixel phone is not cut on the right —
    even its widest rows (a failed dark golden contract with the golden deals begun
    again, a samosval and a barrel's time out as marks, long names, four players) fit."""
    page = _sit(phone, server, _lay(server, "house"))
    names = ["Александра", "Константин", "Владислава", "Станислав"]
    for n in (3, 4):  # the textbook's four players too
        wide, room = page.evaluate(WIDE_SHEET_JS, names[:n])
        assert wide <= room + 1, (n, wide, room)
