"""The exercises page's progress in a real Chromium (docs/server.md "Analysis", exercises
across games): a signed-in player with two analysed games draws an exercise, sees its
kind, solves it, and his progress (the share solved of that kind, the week's answers)
shows it without a reload; axe-core (when installed) finds nothing serious."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from http_client import HTTP
from test_a11y import AXE, serious
from test_browser_analysis import _bots_game, pytestmark  # noqa: F401
from test_browser_exercises import _click, folder, server  # noqa: F401 (this module's own)
from test_exercises_web import authored_analysis, give_seat
from thousand.analysis.mistake_kinds import kind_of
from thousand.server.store import analyses as st
from thousand.server.store.tables import Store


def _analysed(base: str, db: str, account: str, cost: float) -> dict[str, str]:
    """A finished bots' game of the account's (seat 0) whose analysis, written here, marks
    his first unforced move: {"game", "good", "kind"}."""
    game = _bots_game(base)
    record = HTTP.get(f"{base}/api/games/{game}/record", timeout=30).text
    analysis, good, played = authored_analysis(record, 0, cost=cost)
    store = Store(db)
    st.finish(store, st.ask(store, game, st.Settings(2, True, "ru"), "addr:x", None).id,
              analysis)
    store.close()
    give_seat(db, game, 0, account)
    phase = analysis["deals"][0]["decisions"][0]["phase"]
    return {"game": game, "good": good, "kind": kind_of(phase, played, [good])}


def test_a_player_solves_an_exercise_and_sees_his_progress(
        server: str, folder: Path, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/exercises")
    page.wait_for_selector("#sign-in-link")
    account = page.evaluate("""async () => {
      const { api } = await import('/static/common.js');
      await api('/api/me');
      await api('/api/account/signup', { method: 'POST',
        body: { name: 'Прилежный', password: 'correct horse' } });
      return (await api('/api/me')).player.id;
    }""")
    db = f"sqlite:///{folder / 'thousand.db'}"
    games = {g["game"]: g for g in (_analysed(server, db, account, 40.0),
                                    _analysed(server, db, account, 80.0))}
    page.reload()
    page.wait_for_selector(".board .hand")
    page.wait_for_selector("#ex-progress #ex-kinds")
    assert page.locator("#ex-progress h2").inner_text() == "Ваши успехи"
    assert page.locator(".ex-count").inner_text().startswith("Упражнение 1 из 2")

    shown = games[page.locator(".ex-kind").get_attribute("data-game")]
    kind = shown["kind"]
    assert page.locator(".ex-kind").get_attribute("data-kind") == kind
    row = page.locator(f"#ex-kinds tr[data-kind='{kind}'] td.solved")
    assert row.inner_text() == "—"  # nothing answered yet
    _click(page, shown["good"])
    page.locator("#verdict").wait_for()
    assert page.locator("#verdict strong").inner_text() == "Верно!"
    page.wait_for_function(
        "k => document.querySelector(`#ex-kinds tr[data-kind='${k}'] td.solved`)"
        "?.textContent.endsWith('из 1')", arg=kind)
    # the progress was drawn again under the verdict, which kept the keyboard's focus
    assert page.evaluate("document.activeElement.id") == "verdict"
    week = page.locator("#ex-weeks tbody tr")
    assert week.count() == 1 and week.locator("td").first.inner_text() == "2"
    if AXE.is_file():  # axe-core: npm ci --prefix tests/js
        assert not serious(page)
    assert not errors
    context.close()
