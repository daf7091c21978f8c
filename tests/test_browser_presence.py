"""Presence and a challenge in a real browser (Playwright, Debian's Chromium) against a real
``thousand serve`` (docs/server.md "Presence, challenges and friends"): two people, each
in a browser context of his own (a guest named in the lobby), see each other in the
lobby's «Кто здесь»; one challenges the other from the list, the other is told at once
and accepts, and both pages land at the table, each at his own seat.  On Boris's page Anna follows
him, and her friends page shows him playing, with the game to watch.  axe-core finds no
serious or critical violation in the box with the challenge form open, nor with the
challenge received.  One server and one browser for the module (test_browser.py's).

Chromium and axe-core (``npm ci --prefix tests/js``) are needed (tests/needs.py).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from test_a11y import serious
from test_browser import _page, browser, server

pytestmark = [pytest.mark.needs("chromium"), pytest.mark.needs("axe-core")]

__all__ = ["browser", "server"]  # the fixtures, shared with test_browser.py

DEADLINE_MS = 60_000  # a loaded machine


def _lobby(browser: Any, base: str, name: str) -> Any:
    """The lobby of a new browser context whose guest typed ``name`` before."""
    page = _page(browser, viewport={"width": 1280, "height": 900})
    page.context.add_init_script(
        f"localStorage.setItem('thousand.name', {json.dumps(name)});")
    page.goto(f"{base}/")
    return page


def test_two_players_see_each_other_and_a_challenge_seats_both(server: str,
                                                              browser: Any) -> None:
    anna, boris = _lobby(browser, server, "Анна"), _lobby(browser, server, "Борис")
    try:
        anna.locator("#online-list li", has_text="Борис").wait_for(timeout=DEADLINE_MS)
        boris.locator("#online-list li", has_text="Анна").wait_for(timeout=DEADLINE_MS)
        assert "Онлайн: 2" in anna.locator("#presence-counts").inner_text()
        anna.get_by_role("button", name="Сыграть с Борис").click()
        anna.locator("#challenge-form").wait_for()
        assert anna.evaluate("document.activeElement.id") == "challenge-preset"
        assert not serious(anna), serious(anna)
        anna.locator("#challenge-send").click()
        anna.locator("#challenges .challenges.out li", has_text="Борис").wait_for(
            timeout=DEADLINE_MS)
        told = boris.locator("#challenges .challenges.in li", has_text="Анна")
        told.wait_for(timeout=DEADLINE_MS)
        assert not serious(boris), serious(boris)
        told.get_by_role("button", name="Принять").click()
        at_table = re.compile(r"/t/[A-Za-z0-9_-]+$")
        boris.wait_for_url(at_table, timeout=DEADLINE_MS)
        anna.wait_for_url(at_table, timeout=DEADLINE_MS)
        assert anna.url == boris.url
        for page in (anna, boris):
            page.wait_for_selector(".board .felt", timeout=DEADLINE_MS)
        # each page holds its own seat: Anna the first, Boris the second
        table = anna.url.rsplit("/", 1)[1]
        seats = {name: json.loads(page.evaluate(
            f"localStorage.getItem('thousand.seat.{table}')") or "null")
            for name, page in (("Анна", anna), ("Борис", boris))}
        assert seats["Анна"]["seat"] == 0 and seats["Борис"]["seat"] == 1, seats
        # Boris's page: Anna follows him; her friends page shows him playing there
        boris_id = boris.evaluate("fetch('/api/me').then(r => r.json()).then(j => j.player.id)")
        anna.goto(f"{server}/p/{boris_id}")
        follow = anna.locator("#follows-toggle")
        follow.click(timeout=DEADLINE_MS)
        anna.wait_for_selector("#follows-toggle[aria-pressed=true]", timeout=DEADLINE_MS)
        assert anna.evaluate("document.activeElement.id") == "follows-toggle"
        assert anna.get_by_role("link", name="Сыграть с Борис").count() == 1
        assert not serious(anna), serious(anna)
        anna.goto(f"{server}/friends")
        row = anna.locator("#follows-list li", has_text="Борис")
        row.locator(".online-status", has_text="играет").wait_for(timeout=DEADLINE_MS)
        assert row.get_by_role("link", name="Смотреть игру").get_attribute("href") == \
            f"/t/{table}"
        assert not serious(anna), serious(anna)
        assert not anna.errors and not boris.errors
    finally:
        anna.context.close()
        boris.context.close()
