"""The accounts' e-mail addresses and one-time links in the store's database (migration
0013; docs/server.md "E-mail and password recovery").

* ``player_emails``: an account's **verified** address, one per account, its key
  (:func:`email_key`) unique over the site, so that one address recovers one account.
  An address given but not yet confirmed lives only in its ``verify`` link's row: a
  typo, or somebody else's address, never becomes the account's.
* ``mail_tokens``: the one-time links, ``verify`` (confirm an address) or ``reset``
  (choose a new password): the SHA-256 of the link's secret (never the secret), the
  account, the address, the letter's language, when it expires, when it was used.
  A link is used by one ``UPDATE ... WHERE used IS NULL AND expires > now``: of two
  requests (on two workers) with the same link only one changes the row.

Every function is one transaction on the store's thread (``hub.db``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from .tables import Store, metadata, players_t, sessions_t

__all__ = ["EmailTaken", "LinkRow", "RecoveryStore", "email_key", "emails_t",
           "mail_tokens_t", "token_hash"]

#: An address's most characters (RFC 5321's path limit).
MAX_EMAIL = 254
_EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]")

# In the store's metadata; migrations/versions/v0013_recovery.py makes them.
emails_t = sa.Table(
    "player_emails", metadata,
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("email", sa.String(MAX_EMAIL), nullable=False),
    sa.Column("email_key", sa.String(MAX_EMAIL), nullable=False),
    sa.Column("verified", sa.Float, nullable=False),
    sa.Index("ix_player_emails_key", "email_key", unique=True),
)

mail_tokens_t = sa.Table(
    "mail_tokens", metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("purpose", sa.String(8), nullable=False),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("email", sa.String(MAX_EMAIL), nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("used", sa.Float, nullable=True),
    sa.Index("ix_mail_tokens_player", "player_id", "purpose"),
)


class EmailTaken(Exception):
    """Another account has confirmed this address."""


@dataclass(frozen=True, slots=True)
class LinkRow:
    """A live one-time link: whose, for which address, in which language; the account's
    name (the password rules refuse it in a new password)."""

    player_id: str
    name: str
    email: str
    lang: str


def email_key(value: object) -> tuple[str, str]:
    """An address as given (spaces trimmed) and its key: the whole address casefolded,
    the domain in its IDNA (ASCII) form — so that «Anna@Example.org» and
    «anna@example.ORG» are one address.  ValueError when it is no address."""
    if not isinstance(value, str):
        raise ValueError("email: a string")
    email = value.strip()
    if len(email) > MAX_EMAIL or not _EMAIL.fullmatch(email) or any(
            ord(c) < 32 or ord(c) == 127 for c in email):
        raise ValueError("email: not an e-mail address")
    local, _, domain = email.rpartition("@")
    try:
        ascii_domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        raise ValueError("email: not an e-mail address") from None
    return email, f"{local.casefold()}@{ascii_domain.lower()}"


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def _live_account() -> sa.ColumnElement[bool]:
    return sa.and_(players_t.c.kind == "account", players_t.c.deleted.is_(None))


class RecoveryStore:
    """The addresses and links of one :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def email_of(self, player_id: str) -> str | None:
        """The account's confirmed address."""
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(emails_t.c.email)
                                 .where(emails_t.c.player_id == player_id)).scalar()
        return str(value) if value is not None else None

    def pending(self, player_id: str, now: float) -> str | None:
        """The address the account's live ``verify`` link would confirm, if any."""
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(mail_tokens_t.c.email).where(
                mail_tokens_t.c.player_id == player_id, mail_tokens_t.c.purpose == "verify",
                mail_tokens_t.c.used.is_(None), mail_tokens_t.c.expires > now)
                .order_by(mail_tokens_t.c.created.desc()).limit(1)).scalar()
        return str(value) if value is not None else None

    def account_of(self, key: str) -> tuple[str, str, str] | None:
        """(player id, name, the address as confirmed) of the live account whose
        confirmed address has ``key``."""
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(players_t.c.id, players_t.c.name, emails_t.c.email)
                             .join(emails_t, emails_t.c.player_id == players_t.c.id)
                             .where(emails_t.c.email_key == key, _live_account())).first()
        return (str(r.id), str(r.name), str(r.email)) if r is not None else None

    def new_link(self, purpose: str, player_id: str, email: str, lang: str, now: float,
                 ttl: float) -> str:
        """A new one-time link's secret (only its hash is kept), valid ``ttl`` seconds.
        The account's older links of the same purpose are used up: only the newest
        letter's link works; the expired links of everybody are forgotten (:meth:`purge`:
        the table stays as small as the letters of a day)."""
        secret = secrets.token_urlsafe(32)
        self.purge(now)
        with self.engine.begin() as conn:
            conn.execute(mail_tokens_t.update().where(
                mail_tokens_t.c.player_id == player_id, mail_tokens_t.c.purpose == purpose,
                mail_tokens_t.c.used.is_(None)).values(used=now))
            conn.execute(mail_tokens_t.insert().values(
                id=token_hash(secret), purpose=purpose, player_id=player_id, email=email,
                lang=lang, created=now, expires=now + ttl, used=None))
        return secret

    def _live(self, conn: sa.Connection, purpose: str, secret: str,
              now: float) -> LinkRow | None:
        r = conn.execute(
            sa.select(mail_tokens_t.c.player_id, mail_tokens_t.c.email,
                      mail_tokens_t.c.lang, players_t.c.name)
            .join(players_t, players_t.c.id == mail_tokens_t.c.player_id)
            .where(mail_tokens_t.c.id == token_hash(secret),
                   mail_tokens_t.c.purpose == purpose, mail_tokens_t.c.used.is_(None),
                   mail_tokens_t.c.expires > now, _live_account())).first()
        return LinkRow(r.player_id, r.name, r.email, r.lang) if r is not None else None

    def link(self, purpose: str, secret: str, now: float) -> LinkRow | None:
        """The live (unused, unexpired) link of this secret, or None."""
        with self.engine.connect() as conn:
            return self._live(conn, purpose, secret, now)

    def _use(self, conn: sa.Connection, purpose: str, secret: str,
             now: float) -> LinkRow | None:
        """Use the link up, if it is live (one request of many wins); its row."""
        row = self._live(conn, purpose, secret, now)
        if row is None:
            return None
        if conn.execute(mail_tokens_t.update().where(
                mail_tokens_t.c.id == token_hash(secret), mail_tokens_t.c.used.is_(None))
                .values(used=now)).rowcount != 1:
            return None
        return row

    def verify(self, secret: str, now: float) -> LinkRow | None:
        """Confirm the address of a ``verify`` link: it becomes the account's (replacing
        its old one).  None: no live link; :class:`EmailTaken`: another account has it
        (the link stays unused)."""
        try:
            with self.engine.begin() as conn:
                row = self._use(conn, "verify", secret, now)
                if row is None:
                    return None
                email, key = email_key(row.email)
                other = conn.execute(sa.select(emails_t.c.player_id).where(
                    emails_t.c.email_key == key)).scalar()
                if other is not None and other != row.player_id:
                    raise EmailTaken()
                conn.execute(emails_t.delete().where(emails_t.c.player_id == row.player_id))
                conn.execute(emails_t.insert().values(player_id=row.player_id, email=email,
                                                      email_key=key, verified=now))
        except sa.exc.IntegrityError:  # confirmed by another account just now
            raise EmailTaken() from None
        return row

    def reset(self, secret: str, password_hash: str, now: float) -> LinkRow | None:
        """Use a ``reset`` link: the account's new password, every session of it ended
        and its other links used up, all at once.  None: no live link."""
        with self.engine.begin() as conn:
            row = self._use(conn, "reset", secret, now)
            if row is None:
                return None
            conn.execute(players_t.update().where(players_t.c.id == row.player_id)
                         .values(password_hash=password_hash))
            conn.execute(sessions_t.delete().where(sessions_t.c.player_id == row.player_id))
            conn.execute(mail_tokens_t.update().where(
                mail_tokens_t.c.player_id == row.player_id,
                mail_tokens_t.c.used.is_(None)).values(used=now))
        return row

    def forget(self, player_id: str) -> None:
        """Forget the account's address and links (it is deleted, or removes its
        address)."""
        with self.engine.begin() as conn:
            conn.execute(emails_t.delete().where(emails_t.c.player_id == player_id))
            conn.execute(mail_tokens_t.delete().where(mail_tokens_t.c.player_id == player_id))

    def purge(self, now: float) -> int:
        """Forget the links that expired (used or not): how many."""
        with self.engine.begin() as conn:
            return int(conn.execute(mail_tokens_t.delete().where(
                mail_tokens_t.c.expires <= now)).rowcount)
