"""The deal of the day's rows (migration 0018; docs/server.md "The deal of the day"): each
day's secret seed and its commitment, and every player's game of every deal of a day.

Every function is one transaction on the store's thread (``hub.db``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .tables import Store, metadata

__all__ = ["DayRow", "PlayRow", "claim", "days_t", "ensure_day", "find_day", "finish",
           "forget", "play_of_table", "plays_of_day", "plays_of_player",
           "plays_t", "table_ids"]

days_t = sa.Table(
    "daily_days", metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("commitment", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

plays_t = sa.Table(
    "daily_plays", metadata,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.String(24), primary_key=True),
    sa.Column("table_id", sa.String(32), nullable=False, unique=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("guest", sa.Boolean, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("score", sa.Integer, nullable=True),
    sa.Index("ix_daily_plays_player", "player_id", "day"),
)


@dataclass(frozen=True, slots=True)
class DayRow:
    """A day: its seed (secret until the day is revealed) and the commitment to it."""

    day: str
    seed: int
    commitment: str


@dataclass(frozen=True, slots=True)
class PlayRow:
    """One player's game of one deal of a day (``score`` None: not over yet)."""

    day: str
    deal: int
    player_id: str
    table_id: str
    name: str
    guest: bool
    started: float
    finished: float | None
    score: int | None


def _play(r: Any) -> PlayRow:
    return PlayRow(r.day, r.deal, r.player_id, r.table_id, r.name, bool(r.guest), r.started,
                   r.finished, r.score)


def find_day(store: Store, day: str) -> DayRow | None:
    with store.engine.connect() as conn:
        r = conn.execute(sa.select(days_t).where(days_t.c.day == day)).first()
    return None if r is None else DayRow(r.day, int(r.seed), r.commitment)


def ensure_day(store: Store, day: str, seed: int, commitment: str, now: float) -> DayRow:
    """The day's row, made with ``seed`` and ``commitment`` when it has none yet; when two
    workers make it at once the first one's stays (the primary key), and both read it."""
    with store.engine.begin() as conn:
        found = conn.execute(sa.select(days_t).where(days_t.c.day == day)).first()
        if found is None:
            try:
                with conn.begin_nested():
                    conn.execute(days_t.insert().values(day=day, seed=str(seed),
                                                        commitment=commitment, created=now))
            except sa.exc.IntegrityError:
                pass
            found = conn.execute(sa.select(days_t).where(days_t.c.day == day)).one()
    return DayRow(found.day, int(found.seed), found.commitment)


def claim(store: Store, play: PlayRow) -> PlayRow:
    """Claim a deal for a player: ``play`` when it is his first game of that deal, else
    his row as it is (started before, or over)."""
    with store.engine.begin() as conn:
        key = ((plays_t.c.day == play.day) & (plays_t.c.deal == play.deal)
               & (plays_t.c.player_id == play.player_id))
        found = conn.execute(sa.select(plays_t).where(key)).first()
        if found is not None:
            return _play(found)
        try:
            with conn.begin_nested():
                conn.execute(plays_t.insert().values(
                    day=play.day, deal=play.deal, player_id=play.player_id,
                    table_id=play.table_id, name=play.name, guest=play.guest,
                    started=play.started, finished=None, score=None))
        except sa.exc.IntegrityError:  # the same player's other request, just now
            return _play(conn.execute(sa.select(plays_t).where(key)).one())
    return play


def forget(store: Store, table_id: str) -> None:
    """Drop a claim whose table could not be laid."""
    with store.engine.begin() as conn:
        conn.execute(plays_t.delete().where(plays_t.c.table_id == table_id,
                                            plays_t.c.finished.is_(None)))


def finish(store: Store, table_id: str, score: int | None, now: float) -> bool:
    """The game at ``table_id`` is over: its score (None: over too late to count).  False
    when the table is no deal of a day (or was recorded already)."""
    with store.engine.begin() as conn:
        done = conn.execute(plays_t.update().where(
            plays_t.c.table_id == table_id, plays_t.c.finished.is_(None))
            .values(finished=now, score=score))
        return bool(done.rowcount)


def play_of_table(store: Store, table_id: str) -> PlayRow | None:
    with store.engine.connect() as conn:
        r = conn.execute(sa.select(plays_t).where(plays_t.c.table_id == table_id)).first()
    return None if r is None else _play(r)


def table_ids(store: Store, ids: list[str]) -> set[str]:
    """Those of ``ids`` that are tables of a deal of a day."""
    with store.engine.connect() as conn:
        return set(conn.execute(sa.select(plays_t.c.table_id)
                                .where(plays_t.c.table_id.in_(ids))).scalars())


def plays_of_day(store: Store, day: str) -> list[PlayRow]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(plays_t).where(plays_t.c.day == day)
                            .order_by(plays_t.c.started))
        return [_play(r) for r in rows]


def plays_of_player(store: Store, player_id: str, limit: int = 60) -> list[PlayRow]:
    """The player's games of the last ``limit`` days he played, newest day first."""
    with store.engine.connect() as conn:
        days = sa.select(plays_t.c.day).distinct().where(
            plays_t.c.player_id == player_id).order_by(plays_t.c.day.desc()).limit(
            limit).subquery()
        rows = conn.execute(sa.select(plays_t).where(
            plays_t.c.player_id == player_id, plays_t.c.day.in_(sa.select(days.c.day)))
            .order_by(plays_t.c.day.desc(), plays_t.c.deal))
        return [_play(r) for r in rows]
