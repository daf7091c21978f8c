"""The server's outgoing mail: the operator's SMTP settings and the sending of one message
(docs/server.md "E-mail and password recovery").

The operator names his mail server by one URL (``thousand serve --smtp URL`` or the
environment's ``THOUSAND_SMTP``, :func:`parse_smtp_url`)::

    smtp://user:password@host:587?starttls=1   plain SMTP, upgraded by STARTTLS
    smtps://user:password@host:465             TLS from the first byte
    smtp://127.0.0.1:25                        a local relay, no login

together with the address the mail comes from (``--mail-from``) and the site's public
address (``--public-url``), from which the links in the mail are made.  The links are
never made from the request's ``Host`` header: anyone can send any ``Host``, and a reset
link pointing to his own site would hand him the token.  Without these settings there is
no :class:`Mailer` and the site says that e-mail and recovery are off.

A message is sent with the standard library's :mod:`smtplib` in a thread (never on the
event loop), one connection per message: the site sends a few a day, and a connection
kept open would only time out between them.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from urllib.parse import parse_qs, unquote, urlsplit

from .setting import SettingError

__all__ = ["MailError", "MailSettings", "Mailer", "mailer_of", "parse_smtp_url"]

log = logging.getLogger("thousand.mail")

#: Seconds a connection to the mail server may take to answer.
SMTP_TIMEOUT = 20.0
_TRUE = {"1", "true", "yes", "on"}


class MailError(SettingError):
    """A mail setting (``--smtp``, ``--mail-from``, ``--public-url``) that cannot be
    used."""


@dataclass(frozen=True, slots=True)
class MailSettings:
    """Where and how mail is sent: the SMTP server, its login (or none), whether TLS is
    implicit (``smtps``) or asked for by STARTTLS, the From address, and the site's
    public URL (no trailing slash) from which the links are made."""

    host: str
    port: int
    user: str | None
    password: str | None
    implicit_tls: bool
    starttls: bool
    sender: str
    public_url: str


def parse_smtp_url(url: str, sender: str, public_url: str) -> MailSettings:
    """The settings of ``--smtp URL --mail-from ADDRESS --public-url URL`` (the module's
    docstring shows the URL's forms); :class:`MailError` says what is wrong."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise MailError(f"--smtp {url!r}: not a URL (smtp://user:password@host:587)",
                        f"--smtp {url!r}: это не адрес (smtp://user:password@host:587)"
                        ) from None
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise MailError(f"--smtp {url!r}: smtp://host:port or smtps://host:port",
                        f"--smtp {url!r}: нужно smtp://host:port или smtps://host:port")
    query = parse_qs(parts.query)
    starttls = query.get("starttls", ["0"])[-1].lower() in _TRUE
    implicit = parts.scheme == "smtps"
    if implicit and starttls:
        raise MailError(f"--smtp {url!r}: smtps is TLS already; starttls is for smtp://",
                        f"--smtp {url!r}: smtps — уже TLS; starttls — для smtp://")
    _name, address = parseaddr(sender)
    if "@" not in address:
        raise MailError(f"--mail-from {sender!r}: an e-mail address (games@example.org)",
                        f"--mail-from {sender!r}: нужен адрес почты (games@example.org)")
    site = urlsplit(public_url.strip())
    if site.scheme not in ("http", "https") or not site.netloc:
        raise MailError(f"--public-url {public_url!r}: the site's address, "
                        "https://example.org", f"--public-url {public_url!r}: нужен адрес "
                        "сайта, https://example.org")
    return MailSettings(
        host=parts.hostname, port=port or (465 if implicit else 25),
        user=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        implicit_tls=implicit, starttls=starttls, sender=sender,
        public_url=public_url.strip().rstrip("/"))


class Mailer:
    """Sends the site's mail by :class:`MailSettings`."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    def link(self, path_and_fragment: str) -> str:
        """A link to this site, from its public URL."""
        return self.settings.public_url + path_and_fragment

    def message(self, to: str, subject: str, body: str) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.settings.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=False)
        domain = parseaddr(self.settings.sender)[1].rpartition("@")[2] or None
        msg["Message-ID"] = make_msgid(domain=domain)
        msg["Auto-Submitted"] = "auto-generated"  # no out-of-office replies, please
        msg.set_content(body)
        return msg

    def _send(self, msg: EmailMessage) -> None:
        s = self.settings
        smtp: smtplib.SMTP
        if s.implicit_tls:
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=SMTP_TIMEOUT,
                                    context=ssl.create_default_context())
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=SMTP_TIMEOUT)
        with smtp:
            if s.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if s.user is not None:
                smtp.login(s.user, s.password or "")
            smtp.send_message(msg)

    async def send(self, to: str, subject: str, body: str) -> bool:
        """Send one message (in a thread); whether the mail server took it.  A failure
        is logged (never the message's body: it holds a token), not raised: the caller
        says the same to the person either way, or that it could not be sent."""
        msg = self.message(to, subject, body)
        try:
            await asyncio.to_thread(self._send, msg)
        except (OSError, smtplib.SMTPException) as e:
            log.warning("mail to the server %s:%s not sent: %s", self.settings.host,
                        self.settings.port, e.__class__.__name__)
            return False
        return True


def mailer_of(smtp: str | None, sender: str | None,
              public_url: str | None) -> Mailer | None:
    """The mailer of ``thousand serve``'s options (None: no ``--smtp``, mail is off).
    ``--public-url`` is needed with it (the links are made from it, never from a
    request); ``--mail-from`` is by default ``noreply@`` the public URL's host."""
    if not smtp:
        return None
    if not public_url:
        raise MailError("--smtp needs --public-url https://your.site (the links in the "
                        "letters are made from it)", "--smtp требует --public-url "
                        "https://ваш.сайт (из него делаются ссылки в письмах)")
    host = urlsplit(public_url.strip()).hostname or "localhost"
    return Mailer(parse_smtp_url(smtp, sender or f"noreply@{host}", public_url))
