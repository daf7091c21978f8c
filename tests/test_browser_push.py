"""Turn notices by Web Push in a real browser (Playwright, Debian's Chromium) against a
real server (tests/test_server.py's, in a thread) and a push service on loopback
(tests/push_box.py): the account page offers «Уведомления о ходе» only when the server
has a VAPID key; its switch subscribes this browser with the server's key and posts the
subscription, and the account's next turn reaches that subscription, encrypted for it.
Headless Chromium has no push service of its own, so ``PushManager.subscribe`` answers
with a subscription at the loopback one (what a browser's push service would give);
everything else — the permission, the worker, the page, the server, pywebpush — is real.
The service worker shows a pushed message as a notification that opens the table.
axe-core finds no serious or critical violation on the panel (tests/test_a11y.py)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from push_box import PushBox, push_box, vapid_pem
from test_a11y import serious
from test_accounts import PASSWORD, signup
from test_browser import _page, browser
from test_push import lay_with_bots
from test_server import Server
from thousand.server.limits import Limiter, parse_overrides
from thousand.server.ops.webpush import push_keys_of

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.needs("chromium"), pytest.mark.service_workers]

__all__ = ["browser", "push_box"]  # the fixtures, shared

LIMITS = ["signup=off", "guest=off", "table=off", "live=off", "signin=off"]

#: The browser's push service, as the page sees it: a subscription at ``SUB``.
FAKE_PUSH_SERVICE = """
(() => {
  const sub = SUB;
  let current = null;
  PushManager.prototype.subscribe = async function (options) {
    window.__pushKey = Array.from(new Uint8Array(options.applicationServerKey));
    current = { endpoint: sub.endpoint, toJSON: () => sub,
      unsubscribe: async () => { current = null; return true; } };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})();
"""

def _server(tmp: Path, with_key: bool) -> Server:
    keys = None
    if with_key:
        (tmp / "vapid.pem").write_bytes(vapid_pem())
        keys = push_keys_of(str(tmp / "vapid.pem"), "mailto:admin@example.org")
    return Server(f"sqlite:///{tmp / 'games.db'}",
                  limiter=Limiter(limits=parse_overrides(LIMITS)), push=keys)

@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with _server(tmp_path_factory.mktemp("push"), True) as s:
        yield s

def _signed_in(browser: Any, base: str, name: str, lang: str = "ru", **kw: Any) -> Any:
    page = _page(browser, **kw)
    page.goto(f"{base}/account?lang={lang}")
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").fill(PASSWORD)
    page.locator("#signin button[type=submit]").click()
    expect(page.locator("#signed-in")).to_be_visible()
    return page

def test_the_switch_subscribes_and_the_turn_arrives(server: Server, push_box: PushBox,
                                                    browser: Any) -> None:
    c = signup(server, "Дарья")
    phone = push_box.browser("daria")
    page = _signed_in(browser, server.base, "Дарья")
    page.context.grant_permissions(["notifications"], origin=server.base)
    page.add_init_script(FAKE_PUSH_SERVICE.replace("SUB", json.dumps(phone.json())))
    page.reload()
    button = page.locator("#push-button")
    expect(page.locator("#push-title")).to_have_text("Уведомления о ходе")
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_be_focused()
    # subscribed with the server's own key
    key = server.app.state.push.keys.public_key
    assert bytes(page.evaluate("window.__pushKey")) == base64.urlsafe_b64decode(key + "=")

    table = lay_with_bots(c)
    [pushed] = push_box.wait("/daria")
    assert phone.read(pushed)["url"] == f"/t/{table}"
    assert phone.read(pushed)["title"] == "Тысяча: ваш ход"

    # off: the server forgets this browser
    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    player = c.get("/api/me").json()["player"]["id"]
    assert server.app.state.push.store.of(player) == []
    assert page.errors == []

def test_the_worker_shows_a_pushed_notice(server: Server, browser: Any) -> None:
    """The service worker's ``push`` event (web/sw.js): the message shown as a
    notification that opens the table; an address that is not the site's is not
    followed."""
    signup(server, "Зиновий")
    page = _signed_in(browser, server.base, "Зиновий")
    page.context.grant_permissions(["notifications"], origin=server.base)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    workers = page.context.service_workers or [page.context.wait_for_event("serviceworker")]
    [worker] = workers
    shown = worker.evaluate("""async () => {
      const push = (data) => new Promise((done) => {
        const event = new PushEvent("push", { data: JSON.stringify(data) });
        let waited = null;
        event.waitUntil = (p) => { waited = p; };
        self.dispatchEvent(event);
        Promise.resolve(waited).then(done, done);
      });
      await push({ title: "Тысяча: ваш ход", body: "Стол ждёт вашего хода.",
        url: "/t/abc", tag: "thousand-turn" });
      const first = (await self.registration.getNotifications({ tag: "thousand-turn" }))
        .map((n) => [n.title, n.body, n.data.url]);
      await push({ title: "x", url: "https://elsewhere.example/", tag: "other" });
      const second = (await self.registration.getNotifications({ tag: "other" }))
        .map((n) => n.data.url);
      return { first, second };
    }""")
    assert shown["first"] == [["Тысяча: ваш ход", "Стол ждёт вашего хода.", "/t/abc"]]
    assert shown["second"] == ["/"]


def test_not_offered_without_a_key(tmp_path: Path, browser: Any) -> None:
    with _server(tmp_path, False) as s:
        signup(s, "Ефим")
        page = _signed_in(browser, s.base, "Ефим")
        expect(page.locator("#email-title")).to_be_visible()
        assert page.locator("#push").count() == 0
        assert page.errors == []

def test_not_offered_to_a_guest(server: Server, browser: Any) -> None:
    page = _page(browser)
    page.goto(server.base + "/account")
    expect(page.locator("#signin-name")).to_be_visible()
    assert page.locator("#push").count() == 0

@pytest.mark.needs("axe-core")
def test_the_panel_has_no_serious_violations(server: Server, browser: Any) -> None:
    signup(server, "Жанна")
    for lang, title in (("ru", "Уведомления о ходе"), ("en", "Turn notices")):
        page = _signed_in(browser, server.base, "Жанна", lang)
        expect(page.locator("#push-title")).to_have_text(title)
        assert serious(page) == [], lang
        assert page.errors == []
