"""The site as an app (issue 31; docs/server.md "The app") in a real browser (Playwright,
Debian's Chromium) against a real ``thousand serve``:

1. the web app manifest is served whole (its fields, its icons fetchable at their sizes),
   the service worker registers and controls the page, and Chromium finds the site
   installable (the DevTools protocol's ``Page.getInstallabilityErrors``: none);
2. without a connection a page is the worker's offline page (both languages, the terminal
   game offered), its style from the worker's cache; the API is never kept;
3. the dark colours: a device that prefers dark gets them, the header's switch overrides
   the device and is remembered across a reload, and axe-core finds no serious or
   critical violation on the lobby and the table in them (screenshots of the lobby on a
   desktop and of the table on a phone land in docs/screenshots with
   THOUSAND_SCREENSHOTS=1), and on the game over's dialog;
4. the turn notice: in a game against bots the tab's title starts with «Ваш ход» and its
   icon is marked when it is the player's move, and both go back once he has played; with
   notifications allowed, a hidden page shows one through the service worker — asked for
   by the table's switch, or by the browser's push subscription (the server pushes
   nothing to a connected page); a page the browser freezes closes its socket, so that
   the server pushes instead, and connects again as it resumes.

Skipped when Playwright or /usr/bin/chromium is missing (3's axe: when axe-core is).
"""

from __future__ import annotations

import json
import struct
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from live_server import CHROMIUM, CHROMIUM_ARGS
from test_a11y import serious
from test_browser import _page, _shot, browser, server
from test_browser_table import DESKTOP, PHONE, _advance, _api, _lay, _seat_page, finished
from waiting import until

# Only the tests marked service_workers run the site's service worker (its cache, the
# offline page, the notices it shows; the installability test's own profile runs it too):
# the others' contexts block it, as every other file's do (tests/conftest.py), since it
# caches the whole site on a context's first load.
pytestmark = pytest.mark.needs("chromium")

__all__ = ["browser", "finished", "server"]  # the fixtures, shared with the other files

DEADLINE = 60.0
#: The page's background colour as (r, g, b), read from the computed style.
BACKGROUND = """() => getComputedStyle(document.documentElement).backgroundColor
  .match(/\\d+/g).slice(0, 3).map(Number)"""


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as r:
        return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()


def _png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def _luminance(rgb: list[int]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else float(((v + 0.055) / 1.055) ** 2.4)
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _controlled(page: Any) -> None:
    """Wait until the service worker controls the page (it claims the page it was
    installed from once its files are kept)."""
    page.wait_for_function("() => !!navigator.serviceWorker.controller",
                           timeout=DEADLINE * 1000)


# ---------------------------------------------------------------- 1. the app


def test_the_manifest_is_served_whole(server: str) -> None:
    status, headers, body = _get(server + "/manifest.webmanifest")
    assert status == 200
    assert headers["content-type"].startswith("application/manifest+json")
    app = json.loads(body)
    assert app["name"] == "Тысяча — карточная игра" and app["short_name"] == "Тысяча"
    assert app["lang"] == "ru" and app["start_url"] == "/" and app["scope"] == "/"
    assert app["display"] == "standalone"
    assert app["theme_color"].startswith("#") and app["background_color"].startswith("#")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in app["icons"]}
    assert {("192x192", "maskable"), ("512x512", "maskable"), ("192x192", "any"),
            ("512x512", "any")} <= sizes
    for icon in app["icons"]:
        status, headers, picture = _get(server + icon["src"])
        assert status == 200 and headers["content-type"].startswith(icon["type"]), icon
        if icon["type"] == "image/png":
            width, height = _png_size(picture)
            assert f"{width}x{height}" == icon["sizes"], icon
    english = json.loads(_get(server + "/manifest.webmanifest", **{
        "Accept-Language": "en-GB,en;q=0.9"})[2])
    assert english["lang"] == "en" and english["short_name"] == "Thousand"
    # every page links it, with the icon for iOS's home screen and the title bar's colour
    page = _get(server + "/")[2].decode()
    for link in ('<link rel="manifest" href="/manifest.webmanifest">',
                 '<link rel="apple-touch-icon" href="/static/icons/icon-180.png">',
                 '<meta name="theme-color"'):
        assert link in page
    assert _png_size(_get(server + "/static/icons/icon-180.png")[2]) == (180, 180)
    # the worker: JavaScript, never kept by the HTTP cache, under the same strict CSP
    status, headers, worker = _get(server + "/sw.js")
    assert headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache"
    assert "script-src 'self';" in headers["content-security-policy"]
    assert b'const CACHE = "thousand-' in worker and b'"/static/style.css"' in worker


def test_the_worker_controls_the_page_and_the_site_is_installable(
        server: str, browser: Any, tmp_path: Path) -> None:
    # a profile of its own: Chromium installs nothing from an incognito window, which
    # every other context of the tests is
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS,
        locale="ru-RU", **DESKTOP)
    page = context.pages[0] if context.pages else context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    try:
        page.goto(server + "/")
        page.wait_for_selector("#create-button")
        _controlled(page)
        kept = page.evaluate("""async () => {
            const names = await caches.keys();
            const cache = await caches.open(names[0]);
            return {names, urls: (await cache.keys()).map((r) => new URL(r.url).pathname)};
        }""")
        assert len(kept["names"]) == 1 and kept["names"][0].startswith("thousand-")
        for url in ("/static/style.css", "/static/lobby.js", "/static/theme.js",
                    "/static/icons/icon-512.png", "/static/sounds/turn.wav", "/offline"):
            assert url in kept["urls"], url
        assert not [u for u in kept["urls"] if u.startswith("/api/") or u in ("/", "/t")]
        cdp = page.context.new_cdp_session(page)
        try:
            # the worker controls the page (above) and Chromium has read the manifest:
            # all its installability check asks for
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["url"].endswith("/manifest.webmanifest")
            assert not manifest.get("errors")
            errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
            assert errors == []
        finally:
            cdp.detach()
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.service_workers
def test_offline_a_page_is_the_workers_offline_page(server: str, browser: Any) -> None:
    page = _page(browser, **PHONE)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#create-button")
        _controlled(page)
        page.context.set_offline(True)
        page.goto(server + "/history")
        assert page.locator("h1").all_inner_texts() == ["Нет связи", "No connection"]
        assert page.locator("section[lang=ru] code").first.inner_text().startswith(
            "pipx install thousand")
        assert "thousand play" in page.locator("section[lang=en]").inner_text()
        # its style came from the worker's cache: the page is laid out as the site is
        assert page.evaluate("getComputedStyle(document.querySelector('header.top'))"
                             ".display") == "flex"
        # the API is never kept: offline it fails
        assert page.evaluate("fetch('/api/rules').then(() => 'answered', () => 'failed')") \
            == "failed"
        page.context.set_offline(False)
        page.goto(server + "/history")
        page.wait_for_selector("header.top nav")
        assert page.locator("h1").first.inner_text() != "Нет связи"
    finally:
        page.context.close()


# ---------------------------------------------------------------- 2. the dark colours


def test_the_dark_colours_follow_the_device_and_the_switch_is_remembered(
        server: str, browser: Any) -> None:
    page = _page(browser, color_scheme="dark", **DESKTOP)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#theme-select")
        assert page.get_attribute("html", "data-theme") == "dark"
        assert _luminance(page.evaluate(BACKGROUND)) < 0.05
        assert page.input_value("#theme-select") == "system"
        page.select_option("#theme-select", "light")
        assert page.get_attribute("html", "data-theme") == "light"
        assert _luminance(page.evaluate(BACKGROUND)) > 0.8
        page.reload()
        page.wait_for_selector("#theme-select")
        assert page.get_attribute("html", "data-theme") == "light"  # before first paint too
        assert page.input_value("#theme-select") == "light"
        # the device's choice again, and it is followed when the device changes its mind
        page.select_option("#theme-select", "system")
        assert page.get_attribute("html", "data-theme") == "dark"
        page.emulate_media(color_scheme="light")
        page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
        page.select_option("#theme-select", "dark")
        page.goto(server + "/history")
        page.wait_for_selector("#theme-select")
        assert page.get_attribute("html", "data-theme") == "dark"
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.needs("axe-core")
def test_the_dark_pages_read_well(server: str, browser: Any) -> None:
    """axe-core on the lobby and the table (mid-deal) in the dark colours, and on the
    offline page in both; the screenshots of both (the lobby on a desktop, the table on a phone)."""
    page = _page(browser, color_scheme="dark", **DESKTOP)
    try:
        page.goto(server + "/")
        page.wait_for_selector("#create-button")
        page.wait_for_load_state("networkidle")
        assert page.get_attribute("html", "data-theme") == "dark"
        assert serious(page) == []
        _shot(page, "lobby-dark.png")
        for theme in ("dark", "light"):  # the offline page, in both colours
            page.evaluate("(theme) => window.thousandTheme.choose(theme)", theme)
            page.goto(server + "/offline")
            assert page.get_attribute("html", "data-theme") == theme
            assert serious(page) == [], theme
    finally:
        page.context.close()
    table = _seat_page(browser, server, _lay(server), color_scheme="dark", **PHONE)
    try:
        table.wait_for_selector(".hand .card")
        for _ in range(2):
            _advance(table)
        table.wait_for_selector(".hand .card")
        assert serious(table) == []
        _shot(table, "table-phone-dark.png")
        assert not table.errors
    finally:
        table.context.close()


@pytest.mark.needs("axe-core")
def test_the_game_over_reads_well_in_the_dark(server: str, browser: Any,
                                             finished: dict[str, Any]) -> None:
    """The end of a game: its dialog, the score sheet and the chart, in the dark colours."""
    page = _page(browser, color_scheme="dark", **DESKTOP)
    try:
        page.goto(f"{server}/t/{finished['table']}")
        page.wait_for_function("() => [...document.querySelectorAll('.dialog .sheet .total')]"
                               ".some((x) => +x.textContent)")
        assert page.get_attribute("html", "data-theme") == "dark"
        assert serious(page) == []
        assert not page.errors
    finally:
        page.context.close()


# ---------------------------------------------------------------- 3. the turn notice


#: Every title the tab has had, and every icon, in order (a bot's answer may come before
#: a test could look).
WATCH = """
window.titles = []; window.icons = [];
addEventListener("DOMContentLoaded", () => {
  const seen = () => {
    const title = document.title, icon = document.querySelector('link[rel="icon"]').href;
    if (window.titles[window.titles.length - 1] !== title) window.titles.push(title);
    if (window.icons[window.icons.length - 1] !== icon) window.icons.push(icon);
  };
  new MutationObserver(seen).observe(document.head,
    {subtree: true, childList: true, characterData: true, attributes: true});
  seen();
});
"""


def test_the_tab_says_when_it_is_the_players_move(server: str, browser: Any) -> None:
    page = _page(browser, **DESKTOP)
    page.context.add_init_script(WATCH)
    laid = _lay(server)
    token = json.dumps({"seat": laid["seat"], "token": laid["token"]})
    page.context.add_init_script(
        f"localStorage.setItem({json.dumps('thousand.seat.' + laid['table'])}, "
        f"{json.dumps(token)});")
    try:
        page.goto(f"{server}/t/{laid['table']}")
        page.wait_for_selector(".hand .card")
        moves = 0
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            titles = page.evaluate("window.titles")
            mine = [i for i, title in enumerate(titles) if title.startswith("Ваш ход · ")]
            if mine and any(not t.startswith("Ваш ход") for t in titles[mine[0] + 1:]):
                break
            _advance(page)
            moves += 1
        else:
            pytest.fail(f"the title never said «Ваш ход» and went back: {titles}")
        first = mine[0]
        assert titles[first:first + 2] == ["Ваш ход · Стол — Тысяча", "Стол — Тысяча"]
        icons = page.evaluate("window.icons")
        assert [i.rsplit("/", 1)[1] for i in icons[:3]] == [
            "favicon.svg", "favicon-turn.svg", "favicon.svg"]
        assert moves >= 1 and not page.errors
    finally:
        page.context.close()


#: The page goes out of sight (as if another tab were chosen).
HIDE = """() => Object.defineProperty(document, "hidden", {configurable: true, get: () => true})"""
#: The turn notices the service worker shows: their titles and tables.
NOTICES = """async () => (await navigator.serviceWorker.ready).getNotifications()
    .then((all) => all.map((n) => [n.title, n.data && n.data.url]))"""
#: This browser took the site's push notices (the account page's switch); headless
#: Chromium has no push service of its own (tests/test_browser_push.py), so the browser's
#: subscription is stood in for.
PUSH_TAKEN = """() => { PushManager.prototype.getSubscription = async function () {
    return { endpoint: "https://push.example.org/send/anna" }; }; }"""


def _notices_until_shown(page: Any) -> list[list[str]]:
    """The seat's moves until a notice is shown (the bots answer between them)."""
    shown: list[list[str]] = []
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline and not shown:
        _advance(page)
        shown = page.evaluate(NOTICES)
    return shown


@pytest.mark.service_workers
def test_a_hidden_page_notifies_a_browser_that_takes_push(server: str, browser: Any) -> None:
    """The table's switch off, but the browser takes the site's notices by push: the
    server sends none while the page is connected, so the hidden page shows it, through
    the service worker (its click opens this table)."""
    laid = _lay(server)
    page = _seat_page(browser, server, laid, permissions=["notifications"], **DESKTOP)
    try:
        assert page.get_attribute("#notify-button", "aria-pressed") == "false"
        page.evaluate(PUSH_TAKEN)
        page.evaluate(HIDE)
        shown = _notices_until_shown(page)
        assert shown == [["Тысяча: ваш ход", f"/t/{laid['table']}"]]
        assert not page.errors
    finally:
        page.context.close()


def test_a_frozen_page_lets_the_server_push(server: str, browser: Any) -> None:
    """A page the browser freezes runs nothing: its socket is closed (the seat offline,
    so that the server's turn notice goes by push), and opened again as it resumes.
    Headless Chromium freezes no page (the DevTools protocol's
    ``Page.setWebLifecycleState`` fires nothing there), so the page is sent the events
    the browser sends before it freezes a page and as it resumes it."""
    laid = _lay(server)
    page = _seat_page(browser, server, laid, **DESKTOP)

    def online() -> bool:
        return bool(_api(server, f"/api/tables/{laid['table']}")["seats"][0]["online"])

    try:
        until(online, DEADLINE, "the page connected")
        page.evaluate("() => document.dispatchEvent(new Event('freeze'))")
        until(lambda: not online(), DEADLINE, "the frozen page's socket closed")
        page.evaluate("() => document.dispatchEvent(new Event('resume'))")
        until(online, DEADLINE, "the page connected again as it resumed")
        page.wait_for_selector(".hand .card")
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.service_workers
def test_a_hidden_page_notifies_the_player_who_asked(server: str, browser: Any) -> None:
    laid = _lay(server)
    page = _seat_page(browser, server, laid, permissions=["notifications"], **DESKTOP)
    try:
        _controlled(page)
        switch = page.locator("#notify-button")
        assert switch.get_attribute("aria-pressed") == "false"
        switch.click()
        page.wait_for_selector("#notify-button[aria-pressed=true]")
        page.evaluate(HIDE)
        assert _notices_until_shown(page) == [["Тысяча: ваш ход", f"/t/{laid['table']}"]]
        page.reload()
        page.wait_for_selector("#notify-button[aria-pressed=true]")  # remembered
        assert not page.errors
    finally:
        page.context.close()
