"""The moderation's rows (migration 0014; docs/server.md "Moderation"): reports, the
moderators' log, and the players' ``role``, ``muted_until`` and ``closed``.

Every function is one transaction on the store's thread (``hub.db``), or the ``thousand
admin`` command's own.  A report keeps what the reporter saw: the reported player's name
and the table's chat as they were then, so that a name hidden or a table gone later
leaves the report readable.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .accounts import rename_seats
from .tables import Store, metadata, players_t, sessions_t

__all__ = ["MODERATOR", "LogRow", "ReportRow", "add_report", "close", "find_report",
           "handle_report", "hide_name", "log", "log_action", "moderators", "mute",
           "muted_until", "open_reports", "player_name", "reports_t", "role", "set_role"]

#: The role of a moderator (``players.role``).
MODERATOR = "moderator"

reports_t = sa.Table(
    "reports", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("reporter_id", sa.String(24), nullable=False),
    sa.Column("address", sa.String(64), nullable=False),
    sa.Column("reported_id", sa.String(24), nullable=False),
    sa.Column("reported_name", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(16), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("chat", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("handled_by", sa.String(24), nullable=True),
    sa.Column("handled", sa.Float, nullable=True),
    sa.Index("ix_reports_status", "status", "created"),
)

log_t = sa.Table(
    "moderation_log", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("moderator_id", sa.String(24), nullable=True),
    sa.Column("moderator_name", sa.String(64), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("player_id", sa.String(24), nullable=True),
    sa.Column("player_name", sa.String(64), nullable=False),
    sa.Column("report_id", sa.Integer, nullable=True),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Index("ix_moderation_log_at", "at"),
)


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A report; ``chat`` the table's lines when it was made (seat, name, text, at)."""

    id: int
    reporter_id: str
    reporter_name: str | None
    reported_id: str
    reported_name: str
    reason: str
    text: str
    table_id: str | None
    chat: list[dict[str, Any]]
    created: float
    status: str


@dataclass(frozen=True, slots=True)
class LogRow:
    """One line of the moderators' log."""

    at: float
    moderator: str
    action: str
    player_id: str | None
    player_name: str
    report_id: int | None
    detail: str


# ---------------------------------------------------------------------- players

def player_name(store: Store, player_id: str) -> str | None:
    """The player's name now (None: no such player, or no name yet)."""
    with store.engine.connect() as conn:
        value = conn.execute(sa.select(players_t.c.name)
                             .where(players_t.c.id == player_id)).scalar()
    return str(value) if value is not None else None


def role(store: Store, player_id: str) -> str | None:
    with store.engine.connect() as conn:
        value = conn.execute(sa.select(players_t.c.role).where(
            players_t.c.id == player_id, players_t.c.deleted.is_(None),
            players_t.c.closed.is_(None))).scalar()
    return str(value) if value is not None else None


def set_role(store: Store, name_key: str, value: str | None) -> str | None:
    """Give the account of ``name_key`` the role ``value`` (None: none); its name, or None
    when there is no such account."""
    with store.engine.begin() as conn:
        r = conn.execute(sa.select(players_t.c.id, players_t.c.name).where(
            players_t.c.name_key == name_key, players_t.c.kind == "account",
            players_t.c.deleted.is_(None))).first()
        if r is None:
            return None
        conn.execute(players_t.update().where(players_t.c.id == r.id).values(role=value))
    return str(r.name)


def moderators(store: Store) -> list[str]:
    """The moderators' names, in order."""
    with store.engine.connect() as conn:
        return sorted(str(n) for n in conn.execute(sa.select(players_t.c.name).where(
            players_t.c.role == MODERATOR, players_t.c.deleted.is_(None))).scalars())


def muted_until(store: Store, player_id: str) -> float | None:
    with store.engine.connect() as conn:
        value = conn.execute(sa.select(players_t.c.muted_until)
                             .where(players_t.c.id == player_id)).scalar()
    return float(value) if value is not None else None


def mute(store: Store, player_id: str, until: float | None) -> None:
    """The player's chat refused site-wide until ``until`` (None: no longer)."""
    with store.engine.begin() as conn:
        conn.execute(players_t.update().where(players_t.c.id == player_id)
                     .values(muted_until=until))


def close(store: Store, player_id: str, now: float) -> None:
    """Close the account: its sessions end and it cannot sign in again (its name stays
    taken, its games and data kept)."""
    with store.engine.begin() as conn:
        conn.execute(players_t.update().where(players_t.c.id == player_id)
                     .values(closed=now))
        conn.execute(sessions_t.delete().where(sessions_t.c.player_id == player_id))


def hide_name(store: Store, player_id: str, neutral: str) -> tuple[str, list[tuple[str, int]]]:
    """Show the player as ``neutral`` + a few random characters (his login stays his old
    name's: only what others see changes): the new name and the seats renamed."""
    name = f"{neutral} {secrets.token_hex(2)}"
    with store.engine.begin() as conn:
        conn.execute(players_t.update().where(players_t.c.id == player_id).values(name=name))
        return name, rename_seats(conn, player_id, name)


# ---------------------------------------------------------------------- reports

def add_report(store: Store, *, reporter_id: str, address: str, reported_id: str,
               reported_name: str, reason: str, text: str, table_id: str | None,
               chat: list[dict[str, Any]], now: float) -> int:
    with store.engine.begin() as conn:
        key = conn.execute(reports_t.insert().values(
            reporter_id=reporter_id, address=address[:64], reported_id=reported_id,
            reported_name=reported_name, reason=reason, text=text, table_id=table_id,
            chat=json.dumps(chat, ensure_ascii=False), created=now,
            status="open")).inserted_primary_key
    return int(key[0]) if key is not None else 0


def _report(r: sa.Row[Any]) -> ReportRow:
    return ReportRow(r.id, r.reporter_id, r.reporter_name, r.reported_id, r.reported_name,
                     r.reason, r.text, r.table_id, json.loads(r.chat), r.created, r.status)


def _reports() -> sa.Select[Any]:
    reporter = players_t.alias("reporter")
    return (sa.select(reports_t, reporter.c.name.label("reporter_name"))
            .outerjoin(reporter, reporter.c.id == reports_t.c.reporter_id))


def open_reports(store: Store, limit: int = 100) -> list[ReportRow]:
    """The open reports, oldest first (the first made is the first handled)."""
    with store.engine.connect() as conn:
        rows = conn.execute(_reports().where(reports_t.c.status == "open")
                            .order_by(reports_t.c.created, reports_t.c.id).limit(limit)).all()
    return [_report(r) for r in rows]


def find_report(store: Store, report_id: int) -> ReportRow | None:
    with store.engine.connect() as conn:
        r = conn.execute(_reports().where(reports_t.c.id == report_id)).first()
    return _report(r) if r is not None else None


def handle_report(store: Store, report_id: int, status: str, moderator_id: str,
                  now: float) -> None:
    """The report handled (``dismissed`` or ``acted``): off the page of open ones."""
    with store.engine.begin() as conn:
        conn.execute(reports_t.update().where(reports_t.c.id == report_id).values(
            status=status, handled_by=moderator_id, handled=now))


# ---------------------------------------------------------------------- the log

def log_action(store: Store, *, moderator_id: str | None, moderator_name: str, action: str,
               player_id: str | None, player_name: str, report_id: int | None,
               detail: str, now: float) -> None:
    with store.engine.begin() as conn:
        conn.execute(log_t.insert().values(
            at=now, moderator_id=moderator_id, moderator_name=moderator_name, action=action,
            player_id=player_id, player_name=player_name, report_id=report_id,
            detail=detail))


def log(store: Store, limit: int = 200) -> list[LogRow]:
    """The moderators' log, newest first."""
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(log_t).order_by(log_t.c.at.desc(), log_t.c.id.desc())
                            .limit(limit)).all()
    return [LogRow(r.at, r.moderator_name, r.action, r.player_id, r.player_name,
                   r.report_id, r.detail) for r in rows]
