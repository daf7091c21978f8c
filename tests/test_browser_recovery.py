"""E-mail and a forgotten password in a real browser (Playwright, Debian's Chromium)
against a real ``thousand serve --smtp`` whose letters go to a real SMTP server on
loopback (aiosmtpd: tests/smtp_box.py): an account gives its address and opens the
letter's link; «Забыли пароль?» on the sign-in form sends a link where a new password is
given twice, and the account signs in with it.  axe-core finds no serious or critical
violation on the account page's new parts (tests/test_a11y.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from live_server import serve
from smtp_box import Mailbox, link_of, mailbox, serve_mailing
from test_a11y import serious
from test_accounts import PASSWORD
from test_browser import _page, browser

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = [pytest.mark.needs("chromium")]

__all__ = ["browser", "mailbox"]  # the fixtures, shared

NEW = "a fresh lantern"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[str]:
    with serve_mailing(tmp_path_factory.mktemp("recovery"), mailbox) as base:
        yield base


def test_forgot_the_password_in_the_browser(server: str, mailbox: Mailbox,
                                            browser: Any) -> None:
    owner = httpx.Client(base_url=server, timeout=30)
    assert owner.post("/api/account/signup", json={"name": "Полина",
                                                   "password": PASSWORD}).status_code == 201
    page = _page(browser)
    page.goto(server + "/account")
    page.locator("#signin-name").fill("Полина")
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Войти", exact=True).last.click()
    expect(page.locator("#signed-in")).to_have_text("Вы вошли как Полина.")
    # the account's address: given, its letter's link opened
    expect(page.locator("#email-current")).to_have_text("Адрес не указан.")
    page.locator("#email-address").fill("polina@example.org")
    page.get_by_role("button", name="Прислать ссылку для подтверждения").click()
    expect(page.locator("#email-pending")).to_contain_text("polina@example.org")
    link, _token = link_of(mailbox.wait("polina@example.org"), "verify")
    page.goto(link)
    expect(page.locator("#mail-notice")).to_have_text("Адрес polina@example.org подтверждён.")
    expect(page.locator("#email-current")).to_have_text("Ваш адрес: polina@example.org.")
    assert "#" not in page.url  # the link's secret left the address bar
    page.locator("#signout").click()

    # «Забыли пароль?» on the sign-in form
    expect(page.locator("#forgot-title")).to_have_text("Забыли пароль?")
    page.locator("#forgot-email").fill("Polina@example.org")
    page.get_by_role("button", name="Прислать ссылку").click()
    expect(page.locator("#forgot-sent")).to_contain_text("письмо со ссылкой")
    letter = mailbox.wait("polina@example.org", 2)
    assert letter["Subject"] == "Тысяча: новый пароль"
    link, _token = link_of(letter, "reset")
    page.goto(link)
    expect(page.locator("#reset-title")).to_have_text("Новый пароль")
    page.locator("#reset-password").fill(NEW)
    page.locator("#reset-again").fill(NEW + "!")
    page.get_by_role("button", name="Сохранить пароль").click()
    expect(page.locator("#reset-error")).to_have_text("Пароли не совпадают.")
    page.locator("#reset-again").fill(NEW)
    page.get_by_role("button", name="Сохранить пароль").click()
    expect(page.locator("#mail-notice")).to_contain_text("Пароль сменён")
    page.locator("#signin-name").fill("Полина")
    page.locator("#signin-password").fill(NEW)
    page.get_by_role("button", name="Войти", exact=True).last.click()
    expect(page.locator("#signed-in")).to_have_text("Вы вошли как Полина.")
    # the link a second time: refused, in words
    page.goto(link)
    page.locator("#reset-password").fill("yet another one")
    page.locator("#reset-again").fill("yet another one")
    page.get_by_role("button", name="Сохранить пароль").click()
    expect(page.locator("#reset-error")).to_contain_text("уже использована")
    assert page.errors == []


@pytest.mark.needs("axe-core")
def test_the_new_parts_have_no_serious_violations(server: str, browser: Any) -> None:
    """The sign-in form's «Забыли пароль?», the account's address, the new password's
    form: in Russian and in English."""
    owner = httpx.Client(base_url=server, timeout=30)
    assert owner.post("/api/account/signup", json={"name": "Зоя",
                                                   "password": PASSWORD}).status_code == 201
    for lang, sign_in in (("ru", "Войти"), ("en", "Sign in")):
        page = _page(browser)
        page.goto(f"{server}/account?lang={lang}#reset=not-a-real-link")
        expect(page.locator("#reset-password")).to_be_visible()
        expect(page.locator("#forgot-email")).to_be_visible()
        assert serious(page) == [], lang
        page.locator("#signin-name").fill("Зоя")
        page.locator("#signin-password").fill(PASSWORD)
        page.get_by_role("button", name=sign_in, exact=True).last.click()
        expect(page.locator("#email-address")).to_be_visible()
        assert serious(page) == [], lang
        assert page.errors == []


def test_without_smtp_the_page_says_recovery_is_off(tmp_path: Any, browser: Any) -> None:
    with serve(tmp_path) as base:
        page = _page(browser)
        page.goto(base + "/account?lang=en")
        expect(page.locator("#recovery-off")).to_have_text(
            "A forgotten password cannot be recovered here: this server sends no mail.")
        assert page.errors == []
