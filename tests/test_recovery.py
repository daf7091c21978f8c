"""E-mail and a forgotten password (docs/server.md "E-mail and password recovery"),
through HTTP against a real server (Uvicorn in a thread, SQLite) that sends its letters
to a real SMTP server on loopback (aiosmtpd: tests/smtp_box.py): an address confirmed by
its link; a new password by a link that works once, not after it expires, and ends the
account's sessions; the same answer for an unknown address, and no letter; the limits
per address and per account; a server without ``--smtp`` that says recovery is off.  The
store's part also on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.smtp import AuthResult

from live_server import postgres_schema
from smtp_box import Mailbox, link_of, mailbox, smtp_server, text_of
from test_accounts import PASSWORD, client, post, signin, signup
from test_accounts import store as store  # the fixture: SQLite, PostgreSQL
from test_server import Server
from thousand.server.limits import Limiter, parse_overrides
from thousand.server.ops import mail
from thousand.server.ops.mail import Mailer, MailError, mailer_of, parse_smtp_url
from thousand.server.routes.recovery import Recovery
from thousand.server.store.accounts import AccountStore
from thousand.server.store.recovery import EmailTaken, RecoveryStore, email_key
from thousand.server.store.tables import Store

#: Small limits, so that the N+1-th letter is refused within a test; the accounts and
#: guests the tests make, unlimited.
LIMITS = ["signup=off", "guest=off", "signin=off", "recovery=100/hour",
          "mail_address=3/hour", "mail_account=4/hour"]
NEW_PASSWORD = "a new lantern"

__all__ = ["mailbox", "store"]  # the fixtures, shared


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, mailbox: Mailbox) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("recovery") / "games.db"
    mailer = Mailer(parse_smtp_url(f"smtp://127.0.0.1:{mailbox.port}", "games@example.org",
                                   "http://placeholder"))
    with Server(f"sqlite:///{path}", limiter=Limiter(limits=parse_overrides(LIMITS)),
                mailer=mailer) as s:
        # the links are made from the public URL, known once the server listens
        mailer.settings = replace(mailer.settings, public_url=s.base)
        yield s


def recovery(server: Server) -> Recovery:
    r = server.app.state.recovery
    assert isinstance(r, Recovery)
    return r


def confirm(server: Server, mailbox: Mailbox, c: httpx.Client, email: str) -> None:
    """Give ``email`` on the account page and open its letter's link."""
    r = post(c, "/api/account/email", {"email": email})
    assert r.status_code == 200, r.text
    link, token = link_of(mailbox.wait(email), "verify")
    assert link.startswith(server.base + "/account#verify=")
    r = post(client(server), "/api/account/email/verify", {"token": token})
    assert r.status_code == 200, r.text
    assert r.json()["email"] == email


def forgot(server: Server, email: str, lang: str = "ru") -> httpx.Response:
    return client(server).post(f"/api/account/forgot?lang={lang}", json={"email": email})


def test_a_forgotten_password_through_http(server: Server, mailbox: Mailbox) -> None:
    c = signup(server, "Рита")
    assert c.get("/api/account/email").json() == {"email": None, "pending": None}
    confirm(server, mailbox, c, "rita@example.org")
    assert c.get("/api/account/email").json()["email"] == "rita@example.org"
    other = signin(server, "Рита")  # a second device: its session ends with the reset

    r = forgot(server, "  Rita@EXAMPLE.org ")  # the same address, written otherwise
    assert r.status_code == 200 and r.json() == {"sent": True}
    letter = mailbox.wait("rita@example.org", 2)
    assert letter["Subject"] == "Тысяча: новый пароль"
    assert letter["From"] == "games@example.org"
    link, token = link_of(letter, "reset")
    assert link.startswith(server.base + "/account#reset=")
    assert "Рита" in text_of(letter)

    # the password rules hold here too; the link is not used up by a refused password
    r = client(server).post("/api/account/reset", json={"token": token,
                                                         "password": "password"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_password"
    r = client(server).post("/api/account/reset", json={"token": token,
                                                         "password": NEW_PASSWORD})
    assert r.status_code == 200, r.text
    for device in (c, other):  # every session of the account ended
        assert device.get("/api/me").json()["player"]["kind"] == "guest"
    r = post(client(server), "/api/account/signin", {"name": "Рита", "password": PASSWORD})
    assert r.status_code == 401
    signin(server, "Рита", NEW_PASSWORD)
    # the link works once
    r = client(server).post("/api/account/reset", json={"token": token,
                                                         "password": "another lantern"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_link"
    assert "ru" in r.json()["error"]


def test_an_expired_link_is_refused(server: Server, mailbox: Mailbox) -> None:
    c = signup(server, "Степан")
    confirm(server, mailbox, c, "stepan@example.org")
    recovery(server).reset_ttl = -1.0  # expired as soon as sent
    try:
        assert forgot(server, "stepan@example.org", "en").status_code == 200
        letter = mailbox.wait("stepan@example.org", 2)
    finally:
        recovery(server).reset_ttl = 3600.0
    assert letter["Subject"] == "Thousand: a new password"
    _link, token = link_of(letter, "reset")
    r = client(server).post("/api/account/reset", json={"token": token,
                                                         "password": NEW_PASSWORD})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_link"
    signin(server, "Степан")  # the password is the old one still


def test_an_unknown_address_gets_the_same_answer_and_no_letter(server: Server,
                                                               mailbox: Mailbox) -> None:
    c = signup(server, "Тимур")
    confirm(server, mailbox, c, "timur@example.org")
    unknown = forgot(server, "nobody@example.org")
    known = forgot(server, "timur@example.org")
    assert (unknown.status_code, unknown.json()) == (known.status_code, known.json())
    # an address given but never confirmed is not the account's: no letter there either
    assert post(c, "/api/account/email", {"email": "typo@example.org"}).status_code == 200
    mailbox.wait("typo@example.org")
    assert forgot(server, "typo@example.org").json() == known.json()
    mailbox.wait("timur@example.org", 2)  # the known one's letter came: the others' would
    marker = signup(server, "Маркер")  # letters go out in order; one more, then look
    confirm(server, mailbox, marker, "marker@example.org")
    assert mailbox.to("nobody@example.org") == []
    assert len(mailbox.to("typo@example.org")) == 1
    assert c.get("/api/account/email").json() == {"email": "timur@example.org",
                                                 "pending": "typo@example.org"}


def test_the_limits_per_address_and_per_account(server: Server, mailbox: Mailbox) -> None:
    # per address (3 an hour here), known or not, refused alike, in the reader's words:
    # the confirmation's letter and two forgotten passwords', then no more
    lena = signup(server, "Лена")
    confirm(server, mailbox, lena, "lena@example.org")
    for email in ("lena@example.org", "Lena@EXAMPLE.org"):
        assert forgot(server, email).status_code == 200
    mailbox.wait("lena@example.org", 3)
    for email in ("lena@example.org", "ghost@example.org", "ghost@example.org",
                  "ghost@example.org", "ghost@example.org"):
        r = forgot(server, email)
        if email == "lena@example.org" or r.status_code == 429:
            assert r.status_code == 429 and r.json()["error"]["limit"] == "mail_address"
            assert "Retry-After" in r.headers
            assert "писем" in r.json()["error"]["message"]
    assert r.status_code == 429  # the unknown address's fourth too
    # per account (4 an hour here): the fifth address given is refused, and not mailed
    c = signup(server, "Ульяна")
    for n in range(4):
        assert post(c, "/api/account/email", {"email": f"u{n}@example.org"}).status_code == 200
    r = c.post("/api/account/email?lang=en", json={"email": "u4@example.org"},
               headers={"X-CSRF-Token": c.cookies.get("thousand_csrf") or ""})
    assert r.status_code == 429 and r.json()["error"]["limit"] == "mail_account"
    assert "letters" in r.json()["error"]["message"]
    mailbox.wait("u3@example.org")
    marker = signup(server, "Марта")  # letters go out in order; one more, then look
    confirm(server, mailbox, marker, "marta@example.org")
    assert mailbox.to("u4@example.org") == []
    assert len(mailbox.to("lena@example.org")) == 3


def test_an_address_is_one_accounts(server: Server, mailbox: Mailbox) -> None:
    a = signup(server, "Вера")
    confirm(server, mailbox, a, "vera@example.org")
    b = signup(server, "Вика")
    assert post(b, "/api/account/email", {"email": "VERA@example.org"}).status_code == 200
    _link, token = link_of(mailbox.wait("VERA@example.org"), "verify")
    r = client(server).post("/api/account/email/verify", json={"token": token})
    assert r.status_code == 409 and r.json()["error"]["code"] == "email_taken"
    assert b.get("/api/account/email").json()["email"] is None
    # not an address; not signed in; removing it
    r = post(b, "/api/account/email", {"email": "not an address"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_email"
    assert client(server).get("/api/account/email").status_code == 401
    r = a.request("DELETE", "/api/account/email",
                  headers={"X-CSRF-Token": a.cookies.get("thousand_csrf") or ""})
    assert r.status_code == 200
    assert a.get("/api/account/email").json()["email"] is None


def test_a_deleted_account_forgets_its_address(server: Server, mailbox: Mailbox) -> None:
    c = signup(server, "Яна")
    confirm(server, mailbox, c, "yana@example.org")
    player_id = c.get("/api/me").json()["player"]["id"]
    assert recovery(server).store.email_of(player_id) == "yana@example.org"
    r = c.request("DELETE", "/api/account", json={"password": PASSWORD},
                  headers={"X-CSRF-Token": c.cookies.get("thousand_csrf") or ""})
    assert r.status_code == 200, r.text
    assert recovery(server).store.email_of(player_id) is None
    assert recovery(server).store.account_of("yana@example.org") is None


def test_without_smtp_recovery_is_off(tmp_path: Path) -> None:
    with Server(f"sqlite:///{tmp_path / 'games.db'}") as s:
        assert s.get("/api/account/recovery").json() == {"enabled": False}
        r = s.post("/api/account/forgot", {"email": "a@example.org"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "mail_off"
        assert "выключены" in r.json()["error"]["ru"]


def test_the_recovery_state_when_on(server: Server) -> None:
    assert server.get("/api/account/recovery").json() == {"enabled": True}


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_a_login_to_the_mail_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """``smtp://user:password@host``: the mailer logs in (a wrong password: not sent,
    told as False, not raised).  A refused login leaves the client waiting for the
    server until its timeout: 2 s here, not the 20 s a site waits."""
    monkeypatch.setattr(mail, "SMTP_TIMEOUT", 2.0)
    def check(_server: Any, _session: Any, _envelope: Any, _mechanism: str,
              auth: Any) -> AuthResult:
        return AuthResult(success=(auth.login, auth.password) == (b"games", b"p@ss"))

    with smtp_server(authenticator=check, auth_required=True,
                     auth_require_tls=False) as box:
        good = mailer_of(f"smtp://games:p%40ss@127.0.0.1:{box.port}", None, "http://h")
        bad = mailer_of(f"smtp://games:wrong@127.0.0.1:{box.port}", None, "http://h")
        assert good is not None and bad is not None
        assert asyncio.run(good.send("x@example.org", "Тема", "Текст")) is True
        assert box.wait("x@example.org")["Subject"] == "Тема"
        assert asyncio.run(bad.send("y@example.org", "Тема", "Текст")) is False
        assert box.to("y@example.org") == []


def test_the_smtp_settings() -> None:
    s = parse_smtp_url("smtps://user%40x:p%3Ass@mail.example.org", "games@example.org",
                       "https://example.org/")
    assert (s.host, s.port, s.user, s.password, s.implicit_tls, s.starttls) == (
        "mail.example.org", 465, "user@x", "p:ss", True, False)
    assert s.public_url == "https://example.org"
    s = parse_smtp_url("smtp://relay:587?starttls=1", "g@example.org", "http://h")
    assert (s.port, s.user, s.starttls, s.implicit_tls) == (587, None, True, False)
    assert parse_smtp_url("smtp://relay", "g@example.org", "http://h").port == 25
    for bad in ("http://relay", "smtps://relay?starttls=1", "smtp://"):
        with pytest.raises(MailError):
            parse_smtp_url(bad, "g@example.org", "http://h")
    with pytest.raises(MailError, match="--mail-from"):
        parse_smtp_url("smtp://relay", "nobody", "http://h")
    with pytest.raises(MailError) as e:
        mailer_of("smtp://relay", None, None)  # the links need the public URL
    assert "--public-url" in e.value.text("ru")
    assert mailer_of(None, None, None) is None
    mailer = mailer_of("smtp://relay", None, "https://games.example.org")
    assert mailer is not None and mailer.settings.sender == "noreply@games.example.org"


def test_the_smtp_setting_comes_from_the_environment_too(tmp_path: Path) -> None:
    env = {**os.environ, "THOUSAND_SMTP": "smtp://relay:25"}
    run = subprocess.run([sys.executable, "-c", "from thousand.cli import main; main()",
                          "serve", "--lang", "en", "--no-browser", "--db",
                          f"sqlite:///{tmp_path / 'x.db'}"], env=env, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and "--smtp needs --public-url" in run.stderr, run.stderr


def test_email_keys() -> None:
    assert email_key(" Anna@Example.ORG ") == ("Anna@Example.ORG", "anna@example.org")
    assert email_key("a@пример.рф")[1] == "a@xn--e1afmkfd.xn--p1ai"
    for bad in ("", "a", "a@b", "a@@b.c", "a b@c.d", "a@b\n.c", "a@b.c\x7f",
                "x" * 250 + "@b.cd", 5):
        with pytest.raises(ValueError):
            email_key(bad)


def test_the_recovery_store(store: Store) -> None:
    """The links and addresses in SQLite and PostgreSQL: a link used once, only while
    it lasts, the newest only; an address one account's; a reset ends the sessions."""
    accounts, links = AccountStore(store), RecoveryStore(store)
    now = time.time()
    a = accounts.sign_up("Аня", "аня", "hash-a", now, None)
    b = accounts.sign_up("Боря", "боря", "hash-b", now, None)
    accounts.new_session("s1", a.id, now, 3600)
    first = links.new_link("verify", a.id, "anya@example.org", "ru", now, 60)
    second = links.new_link("verify", a.id, "Anya@example.org", "en", now, 60)
    assert links.verify(first, now) is None  # the older link was used up by the newer
    assert links.pending(a.id, now) == "Anya@example.org"
    row = links.verify(second, now + 1)
    assert row is not None and (row.player_id, row.lang) == (a.id, "en")
    assert links.verify(second, now + 2) is None  # once
    assert links.email_of(a.id) == "Anya@example.org"
    assert links.account_of("anya@example.org") == (a.id, "Аня", "Anya@example.org")
    taken = links.new_link("verify", b.id, "ANYA@example.org", "ru", now, 60)
    with pytest.raises(EmailTaken):
        links.verify(taken, now)
    late = links.new_link("reset", a.id, "Anya@example.org", "ru", now, 60)
    assert links.link("reset", late, now + 61) is None  # expired
    assert links.reset(late, "hash-new", now + 61) is None
    reset = links.new_link("reset", a.id, "Anya@example.org", "ru", now, 60)
    assert links.link("verify", reset, now) is None  # a link is for its purpose only
    assert links.reset(reset, "hash-new", now + 1) is not None
    assert accounts.password_hash(a.id) == "hash-new"
    assert accounts.session("s1", now + 2, 3600) is None
    assert links.reset(reset, "hash-other", now + 2) is None
    assert links.purge(now + 61) >= 4
    links.forget(a.id)
    assert links.email_of(a.id) is None and links.account_of("anya@example.org") is None


def test_two_workers_on_one_database_redeem_each_others_links(mailbox: Mailbox) -> None:
    """Many workers share the links through the database (PostgreSQL): a letter one
    worker sent is redeemed on another."""
    url, drop = postgres_schema("thousand_recovery")
    mailers = [Mailer(parse_smtp_url(f"smtp://127.0.0.1:{mailbox.port}",
                                     "games@example.org", "http://placeholder"))
               for _ in range(2)]
    try:
        with Server(url, mailer=mailers[0]) as a, Server(url, mailer=mailers[1]) as b:
            for mailer, s in zip(mailers, (a, b), strict=True):
                mailer.settings = replace(mailer.settings, public_url=s.base)
            c = signup(a, "Жанна")
            assert post(c, "/api/account/email", {"email": "zhanna@example.org"}
                        ).status_code == 200
            _link, token = link_of(mailbox.wait("zhanna@example.org"), "verify")
            assert client(b).post("/api/account/email/verify",
                                  json={"token": token}).status_code == 200
            assert forgot(b, "zhanna@example.org").status_code == 200
            link, token = link_of(mailbox.wait("zhanna@example.org", 2), "reset")
            assert link.startswith(b.base)
            assert client(a).post("/api/account/reset", json={
                "token": token, "password": NEW_PASSWORD}).status_code == 200
            assert client(b).post("/api/account/reset", json={
                "token": token, "password": NEW_PASSWORD}).json()["error"]["code"] == "bad_link"
            signin(b, "Жанна", NEW_PASSWORD)
    finally:
        drop()
