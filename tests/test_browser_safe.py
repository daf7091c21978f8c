"""Issue 27 in a real browser (Playwright, Debian's Chromium) against a real ``thousand
serve``: every page works under the Content-Security-Policy with no violation, and signing
out takes the seat away from the browser (the table opens as a spectator's).  One server
and one browser for the module; skipped when Playwright or /usr/bin/chromium is missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

from live_server import CHROMIUM, serve

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no /usr/bin/chromium")]

PASSWORD = "correct horse"
# the page's own helper is not global: a module's fetch, as common.js sends it
LAY = """async () => {
  const csrf = /(?:^|;\\s*)thousand_csrf=([^;]*)/.exec(document.cookie)[1];
  const r = await fetch("/api/tables", { method: "POST", body: JSON.stringify({
      max_deals: undefined, seats: [{ kind: "human" }, { kind: "bot" }, { kind: "bot" }] }),
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf } });
  return r.json();
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("safe"), "--bot-delay", "0.05") as base:
        yield base


def _page(browser: Any) -> Any:
    """A new browser's page that records its errors and every CSP violation."""
    page = browser.new_context(locale="ru-RU").new_page()
    page.problems = []
    page.on("pageerror", lambda e: page.problems.append(f"error: {e}"))
    page.on("console", lambda m: page.problems.append(f"console: {m.text}")
            if "Content Security Policy" in m.text or m.type == "error" else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', (e) => "
                         "console.error('Content Security Policy: ' + e.violatedDirective"
                         " + ' ' + e.blockedURI))")
    return page


def _sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Завести").click()
    sync_api.expect(page.locator("#signed-in")).to_be_visible()


def test_every_page_works_under_the_policy(server: str, browser: Any) -> None:
    page = _page(browser)
    _sign_up(page, server, "Зритель")
    laid = page.evaluate(LAY)
    finished = page.evaluate(LAY.replace("max_deals: undefined", "open: true"))
    pages = ["/", "/history", "/leaderboard", "/tournaments", "/exercises", "/account",
             "/p/" + "Зритель", laid["url"], f"/replay/{finished['table']}", "/no-such-page",
             "/offline"]
    for path in pages:
        response = page.goto(server + path)
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("networkidle")
        # the header's account link is drawn by the page's script: it ran (the site's
        # 404 page and the offline page have none)
        shown = ("main h1 >> nth=0" if path in ("/no-such-page", "/offline")
                 else "header.top a.account")
        sync_api.expect(page.locator(shown)).to_be_visible()
    # a 404 of the API's is logged by the console as an error: only the pages' own
    problems = [p for p in page.problems if "404" not in p]
    assert not problems, problems


def test_signing_out_takes_the_seat_from_the_browser(server: str, browser: Any) -> None:
    for how in ("#signout", "#signout-everywhere"):
        page = _page(browser)
        _sign_up(page, server, "Уходящий" if how == "#signout" else "Уходящий везде")
        laid = page.evaluate(LAY)
        key = f"thousand.seat.{laid['table']}"
        page.goto(server + laid["url"])
        page.wait_for_function("k => localStorage.getItem(k) !== null", arg=key)
        assert json.loads(page.evaluate("k => localStorage.getItem(k)", key))["token"]
        sync_api.expect(page.locator("#watching")).to_be_hidden()
        page.goto(server + "/account")
        page.locator(how).click()
        sync_api.expect(page.locator("header.top a.account")).to_have_text("Войти")
        assert page.evaluate("k => localStorage.getItem(k)", key) is None
        page.goto(server + laid["url"])
        sync_api.expect(page.locator("#watching")).to_be_visible(timeout=30_000)
        assert page.evaluate("k => localStorage.getItem(k)", key) is None
        assert not [p for p in page.problems if "error:" in p], page.problems


def test_a_token_kept_after_the_session_ended_elsewhere_holds_no_seat(
        server: str, browser: Any) -> None:
    """Signed out everywhere from another device: this browser's kept token is another
    player's now (its session ended), so the page forgets it and the server refuses it."""
    page = _page(browser)
    _sign_up(page, server, "Забывчивый")
    laid = page.evaluate(LAY)
    key = f"thousand.seat.{laid['table']}"
    page.goto(server + laid["url"])
    page.wait_for_function("k => localStorage.getItem(k) !== null", arg=key)
    # the session ends elsewhere (signed out everywhere on another device): this browser
    # keeps its cookie and the page's token
    page.evaluate("""async () => {
      const csrf = /(?:^|;\\s*)thousand_csrf=([^;]*)/.exec(document.cookie)[1];
      await fetch("/api/account/signout-everywhere", { method: "POST",
        headers: { "X-CSRF-Token": csrf } });
    }""")
    assert page.evaluate("k => localStorage.getItem(k)", key) is not None
    page.goto(server + laid["url"])
    sync_api.expect(page.locator("#watching")).to_be_visible(timeout=30_000)
    assert page.evaluate("k => localStorage.getItem(k)", key) is None
