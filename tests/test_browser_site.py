"""Issue 28 "What players hit", the site's items, in a real browser (Playwright, Debian's
Chromium) against a real ``thousand serve``: each test is one numbered defect the issue
found trying the site as a new player, and failed before its fix.  One server and one
browser for the module; the finished games it needs are bots' games laid through the API
(one to three deals), so the module stays within some tens of seconds.

Skipped when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import pytest

from live_server import CHROMIUM
from test_browser import _page, browser, server, shared_page
from test_browser_table import DESKTOP, PHONE, _api, _lay
from waiting import until

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no /usr/bin/chromium")]

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

WAIT = 30000  # ms: Playwright's waits, generous for a busy machine


def _over(base: str, table: str, seconds: float = 120) -> None:
    until(lambda: _api(base, f"/api/tables/{table}")["status"] == "over", seconds,
          f"table {table} ended", every=0.1)


@pytest.fixture(scope="module")
def long_names(server: str) -> str:
    """A finished textbook game (four bots) of three deals, its players' names long: the
    side panel's sheet at its widest."""
    seats = [{"kind": "bot", "name": n} for n in ("Александра", "Константин", "Маргарита",
                                                  "Владислав")]
    laid = _lay(server, "textbook", seats=seats, options={"max_deals": 3})
    _over(server, laid["table"])
    return str(laid["table"])


@pytest.fixture(scope="module")
def guest(browser: Any, server: str) -> Iterator[Any]:
    """A guest's page on a desktop, shared by the tests that only look at pages (the side
    sheet, the rematch's why, the history, the leaderboard, the analysis's parts): each
    goes to its own page in it (test_browser.shared_page)."""
    yield from shared_page(browser, **DESKTOP)


@pytest.fixture(scope="module")
def signed_in(browser: Any, server: str) -> Iterator[tuple[Any, str]]:
    """A page of a new player who signed up (through /account), and his name."""
    page = _page(browser, **DESKTOP)
    name = f"Игрок{int(time.time() * 1000) % 10**6}"
    page.goto(server + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", "a-long-password")
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#signed-in", timeout=WAIT)
    yield page, name
    page.context.close()


def test_1_a_signed_in_players_name_is_filled_and_fixed(server: str, browser: Any,
                                                        signed_in: tuple[Any, str]) -> None:
    """Issue 28, 1: «Ваше имя» was empty and required for a signed-in player, in the
    lobby's «Новый стол» and on an invite's «Сесть за стол»; a named guest was asked
    again on the tournament form."""
    page, name = signed_in
    page.goto(server + "/")
    field = page.locator("#my-name")
    sync_api.expect(field).to_have_value(name, timeout=WAIT)
    assert field.get_attribute("readonly") is not None
    laid = _lay(server, seats=[{"kind": "human", "name": "Аня"}, {"kind": "human"},
                               {"kind": "bot", "level": "random"}])
    page.goto(f"{server}/t/{laid['table']}")
    sync_api.expect(page.locator("#join-name")).to_have_value(name, timeout=WAIT)
    # a guest who typed his name in the lobby finds it on the tournament form
    guest = _page(browser, **DESKTOP)
    guest.context.add_init_script("localStorage.setItem('thousand.name', 'Вика');")
    guest.goto(server + "/tournaments")
    sync_api.expect(guest.locator("#tour-my-name")).to_have_value("Вика", timeout=WAIT)
    guest.context.close()


def test_6_account_leads_to_the_player_page_and_names_tables(
        server: str, signed_in: tuple[Any, str]) -> None:
    """Issue 28, 6: no link from /account to one's own player page; /account listed
    tables as «Стол LXnx_s8zmLIVf1Za, место 1» (raw ids, no opponents, no state)."""
    page, _ = signed_in
    page.goto(server + "/")
    page.locator("#create-button").wait_for(timeout=WAIT)
    sync_api.expect(page.locator("#my-name")).not_to_have_value("", timeout=WAIT)
    page.click("#create-button")
    page.wait_for_url("**/t/**", timeout=WAIT)
    table = page.url.rsplit("/", 1)[1]
    page.goto(server + "/account")
    link = page.locator("#player-page-link")
    link.wait_for(timeout=WAIT)
    assert (link.get_attribute("href") or "").startswith("/p/p_")
    line = page.locator(f'#main a[href="/t/{table}"]')
    sync_api.expect(line).to_contain_text("классика", timeout=WAIT)
    text = line.inner_text()
    assert table not in text and "Боря" in text and "Вова" in text, text


def test_2_a_tournaments_table_names_its_bots_and_leads_back(server: str,
                                                             browser: Any) -> None:
    """Issue 28, 2: a tournament's bots sat as «heuristic 1» (the table, its sheet, the
    end dialog); the end dialog offered «Ещё партию» and no way back to the tournament;
    the form had no clock, so one absent player stopped the tournament.  And 9: the
    tournament's line had mixed capitals."""
    page = _page(browser, **DESKTOP)
    page.goto(server + "/tournaments")
    # a clock by default: the time control «обычная» (a move clock only if ticked)
    sync_api.expect(page.locator("#tour-time-control")).to_have_value("normal", timeout=WAIT)
    sync_api.expect(page.locator("#tour-clock")).to_be_disabled()
    made = page.evaluate("""async () => {
      await fetch('/api/me');
      const csrf = document.cookie.split('; ').find((c) => c.startsWith('thousand_csrf='))
        .split('=')[1];
      const post = async (path, body) => (await fetch(path, { method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf } })).json();
      const t = await post('/api/tournaments', { name: 'Кубок', rounds: 1, deals: 1, play: false,
        bots: ['heuristic', 'heuristic', 'random'], player_name: 'Гена' });
      await post(`/api/tournaments/${t.id}/start`, {});
      return t.id;
    }""")
    # the tournament's line: one capital, its first (not «классика · Туров: 1 · Игроков»)
    page.goto(f"{server}/tournaments/{made}")
    meta = page.locator("#tour-meta")
    sync_api.expect(meta).to_contain_text("Классика", timeout=WAIT)
    parts = meta.inner_text().split(" · ")
    assert all(not p[:1].isupper() for p in parts[1:]), parts
    info = _api(server, f"/api/tournaments/{made}")
    table = info["pairings"][0]["tables"][0]["table"]
    _over(server, table)
    page.goto(f"{server}/t/{table}")
    link = page.locator("#tournament-link")
    link.wait_for(timeout=WAIT)
    assert link.get_attribute("href") == f"/tournaments/{made}"
    assert not page.locator("#rematch-button").count()
    names = page.locator(".dialog table.sheet thead th.player").all_inner_texts()
    assert sorted(n.strip() for n in names) == ["любитель 1", "любитель 2", "случайный 1"]
    page.context.close()


def test_3_the_side_sheet_breaks_no_word_and_fits_its_panel(server: str, guest: Any,
                                                            long_names: str) -> None:
    """Issue 28, 3: with names longer than five letters the side panel's sheet broke
    words and numbers («зака|з», «не сыгр|ал», «10|5»), and a textbook sheet ran 338 px
    wide in a 326 px panel."""
    page = guest
    page.goto(f"{server}/t/{long_names}")
    page.locator(".side .sheet tbody tr").nth(2).wait_for(timeout=WAIT)
    broken = page.evaluate("""() => {
      const out = [];
      const cells = document.querySelectorAll('.side .sheet .total, .side .sheet .change, '
        + '.side .sheet .c-contract, .side .sheet .c-result, .side .sheet thead th:not(.player)');
      for (const cell of cells) {
        for (const node of cell.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE) continue;
          // each word on one line: a word whose range has two line boxes was broken
          const text = node.textContent;
          let at = 0;
          for (const word of text.split(/(\\s+)/)) {
            if (word.trim()) {
              const r = document.createRange();
              r.setStart(node, at);
              r.setEnd(node, at + word.length);
              const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
              if (tops.size > 1) out.push(word);
            }
            at += word.length;
          }
        }
      }
      return out;
    }""")
    assert broken == [], broken
    widths = page.evaluate("""() => { const s = document.querySelector('.side .sheet-scroll');
      return [s.scrollWidth, s.clientWidth]; }""")
    assert widths[0] <= widths[1] + 1, widths


def test_4_a_finished_table_without_the_rematch_button_says_why(server: str, guest: Any,
                                                                long_names: str) -> None:
    """Issue 28, 4: one who came back to a finished table found no rematch button and no
    reason."""
    page = guest
    page.goto(f"{server}/t/{long_names}")
    why = page.locator("#rematch-why")
    why.wait_for(timeout=WAIT)
    assert "только игравшие" in why.inner_text()


def test_9_history_links_a_bot_by_its_level(server: str, guest: Any,
                                            long_names: str) -> None:
    """Issue 28, 9: /history's bots all linked, by their own names, to one shared page
    (their level's); a running game read «идёт» under «Победитель»."""
    page = guest
    page.goto(server + "/history")
    row = page.locator("tr", has_text="Александра")
    row.first.wait_for(timeout=WAIT)
    cell = row.first.locator("td").nth(1)
    sync_api.expect(cell).to_contain_text("Александра (любитель)", timeout=WAIT)
    assert "http" not in cell.inner_text()
    assert cell.locator("a", has_text="Александра").count() == 0
    assert page.locator("thead th").nth(3).inner_text() == "Итог"


def test_5_the_leaderboards_families_read_as_words(server: str, guest: Any) -> None:
    """Issue 28, 9 (the leaderboard's words) and 5: «по самоучителю, вчетвером,
    вчетвером», «Вдвоём» alone with a capital; the lead said only players with 3 games
    were listed."""
    page = guest
    page.goto(server + "/leaderboard")
    page.locator("#family option").nth(3).wait_for(state="attached", timeout=WAIT)
    sync_api.expect(page.locator("#family option").first).not_to_have_text("classic",
                                                                           timeout=WAIT)
    titles = page.locator("#family option").all_inner_texts()
    assert all(t[:1].isupper() for t in titles), titles
    assert not any(t.count("вчетвером") > 1 or ("втроём" in t and "вчетвером" in t)
                   for t in titles), titles
    assert "предварительный" in page.locator("p.lead").inner_text()


def test_8_the_analysis_says_whose_move_and_explains_its_chart(server: str,
                                                               guest: Any) -> None:
    """Issue 28, 8: the marks did not say whose move each was until clicked; the chart
    had no x-axis; «Итог разыгрывающего в открытую» was not explained."""
    page = guest
    page.goto(server + "/replay")
    got = page.evaluate("""async () => {
      const a = await import('/static/analysis.js');
      const { loadTexts } = await import('/static/common.js');
      await loadTexts('ru');
      const deal = { number: 1, contract: 100, chart: [0, 1, 2, 3, 4, 5].map((i) => ({ index: i,
        declarer_total: 120 - i * 5 })), decisions: [
        { index: 0, seat: 1, trick: 1, played: 'AS', mark: 'mistake' },
        { index: 3, seat: 2, trick: 2, played: 'TH', mark: 'blunder' }] };
      const names = ['Аня', 'Боря', 'Вова'];
      const list = a.markList(deal, 'ru', () => 0, () => null, names);
      const chart = a.dealChart(deal, names, 0);
      return { marks: [...list.querySelectorAll('li')].map((li) => li.textContent),
        ticks: [...chart.querySelectorAll('.x-axis ~ text.tick')].map((x) => x.textContent),
        caption: chart.querySelector('figcaption')?.textContent ?? '' };
    }""")
    assert got["marks"][0].startswith("? Боря, взятка 1"), got
    assert got["marks"][1].startswith("?? Вова, взятка 2"), got
    assert {"1", "2"} <= set(got["ticks"]), got
    assert "в открытую" in got["caption"] and "заказ" in got["caption"], got


def test_9_the_lobbys_options_are_words_folded_in_groups(server: str, browser: Any) -> None:
    """Issue 28, 9: «Договорённости (опции)» was a 10,000-pixel wall of identifiers
    («none —», «true —», «В пресетах: classic none…»); the English bot level read
    "heuristic"; «Место 2: человек» kept a bot's name beside it."""
    page = _page(browser, **DESKTOP)
    page.goto(server + "/")
    page.locator("details.options").wait_for(timeout=WAIT)
    page.locator("details.group-fold").nth(5).wait_for(state="attached", timeout=WAIT)
    page.click("details.options summary")
    assert page.locator("details.group-fold[open]").count() == 1
    assert page.evaluate("document.documentElement.scrollHeight") < 4000
    for i in range(page.locator("details.group-fold").count()):
        page.locator("details.group-fold > summary").nth(i).click()
    text = page.locator("details.options").inner_text()
    for raw in ("none —", "true —", "false —", "classic", "left_of_dealer", "rounding"):
        assert raw not in text, raw
    assert "В пресетах: " in text
    page.select_option("#seat-1-kind", "human")
    sync_api.expect(page.locator(".seat-row .bot-name").first).to_have_text("")
    page.evaluate("localStorage.setItem('thousand.lang', 'en')")
    page.reload()
    levels = page.locator("#seat-1-level option")
    levels.first.wait_for(state="attached", timeout=WAIT)
    sync_api.expect(page.locator("#quick-level")).to_contain_text("amateur", timeout=WAIT)
    assert "heuristic" not in " ".join(levels.all_inner_texts())
    page.context.close()


def test_10_the_pages_on_a_phone_and_their_forms(server: str, browser: Any,
                                                 long_names: str) -> None:
    """Issue 28, 10: on a phone the header took three rows and the opponents' boxes
    wrapped «бот:» / «любитель»; /account's «Не короче 8 знаков.» floated between the
    forms; the tournament form's checkbox stood above its label and «Создать турнир»
    looked like a text field; a 404 in the console on every /replay/<id>."""
    phone = _page(browser, **PHONE)
    laid = _lay(server, seats=[{"kind": "bot", "level": "heuristic"}] * 3)
    phone.goto(f"{server}/t/{laid['table']}")
    phone.locator(".seat.pos-left .tag.bot").wait_for(timeout=WAIT)
    # measured at once: the board is drawn anew with every move of the bots
    tag = phone.evaluate("""() => { const x = document.querySelector('.seat.pos-left .tag.bot');
      return [x.getBoundingClientRect().height, x.textContent]; }""")
    assert tag[0] < 24, tag  # one line
    header = phone.locator("header.top").bounding_box()
    assert header is not None and header["height"] < 110, header  # two rows, not three
    phone.goto(server + "/account")
    phone.locator("#signup-password-hint").wait_for(timeout=WAIT)
    assert phone.locator("#signup #signup-password-hint").count() == 1
    phone.goto(server + "/tournaments")
    phone.locator("#tour-play").wait_for(timeout=WAIT)
    # measured at once: the page draws itself again as its data come
    box = phone.evaluate("""() => {
      const h = (q) => document.querySelector(q).getBoundingClientRect();
      return { label: h('label:has(#tour-play)').height, mark: h('#tour-play').height,
        create: h('#tour-create').width, form: h('#tour-form').width }; }""")
    assert box["label"] < 2 * box["mark"] + 8, box  # the checkbox beside its words
    assert box["create"] < box["form"] * 0.8, box  # a button, not a field's width
    failed: list[str] = []
    phone.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400
             else None)
    phone.goto(f"{server}/replay/{long_names}")
    phone.locator("#analysis-button").wait_for(timeout=WAIT)
    assert failed == [], failed
    phone.context.close()
