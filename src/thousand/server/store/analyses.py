"""The ``analyses`` rows (migrations 0008, 0009; docs/server.md "Analysis"): asking,
claiming, progress, results, and the limits' counts.

Every function is one transaction on the store's thread (``hub.db``).  A job is claimed
by ``UPDATE ... WHERE id = ? AND status = 'queued'``: of many workers on one PostgreSQL
database only the one whose update changed the row runs it.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .tables import Store, metadata, seats_t

__all__ = ["AnalysisRow", "Counts", "Settings", "analyses_t", "ask", "beat", "claim_next",
           "counts_of", "fair_order", "find", "finish", "finished_analyses", "latest",
           "position", "progress", "requeue", "requeue_stale"]

# In the store's metadata; migrations/versions/v0008_analyses.py makes it, v0009 adds
# ``address``.
analyses_t = sa.Table(
    "analyses", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("samples", sa.Integer, nullable=False),
    sa.Column("view_based", sa.Boolean, nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("done", sa.Integer, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("account_id", sa.String(24), nullable=True),
    sa.Column("client", sa.String(80), nullable=False),
    sa.Column("address", sa.String(64), nullable=False, server_default=""),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("started", sa.Float, nullable=True),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("worker", sa.String(64), nullable=True),
    sa.Column("beat", sa.Float, nullable=True),
    sa.Index("ix_analyses_key", "game_id", "samples", "view_based", "lang", unique=True),
    sa.Index("ix_analyses_status", "status", "id"),
    sa.Index("ix_analyses_client", "client", "created"),
    sa.Index("ix_analyses_address", "address", "status"),
)


@dataclass(frozen=True, slots=True)
class Settings:
    """What makes one analysis differ from another of the same game (its row's key)."""

    samples: int
    view_based: bool
    lang: str


@dataclass(slots=True)
class AnalysisRow:
    """One row of ``analyses`` (``result`` already parsed)."""

    id: int
    game_id: str
    settings: Settings
    status: str
    done: int
    total: int
    result: dict[str, Any] | None
    error: str | None
    account_id: str | None
    created: float


def _row(r: sa.Row[Any]) -> AnalysisRow:
    m = r._mapping
    return AnalysisRow(id=m["id"], game_id=m["game_id"],
                       settings=Settings(m["samples"], bool(m["view_based"]), m["lang"]),
                       status=m["status"], done=m["done"], total=m["total"],
                       result=json.loads(m["result"]) if m["result"] else None,
                       error=m["error"], account_id=m["account_id"], created=m["created"])


def _key(game_id: str, s: Settings) -> sa.ColumnElement[bool]:
    c = analyses_t.c
    return sa.and_(c.game_id == game_id, c.samples == s.samples,
                   c.view_based == s.view_based, c.lang == s.lang)


def find(store: Store, game_id: str, s: Settings) -> AnalysisRow | None:
    """The row of this game and settings, if it was ever asked for."""
    with store.engine.connect() as conn:
        r = conn.execute(sa.select(analyses_t).where(_key(game_id, s))).first()
    return _row(r) if r is not None else None


def latest(store: Store, game_id: str, lang: str | None = None) -> AnalysisRow | None:
    """The game's newest row (of ``lang`` when given): what ``GET`` shows without settings."""
    c = analyses_t.c
    q = sa.select(analyses_t).where(c.game_id == game_id)
    if lang is not None:
        q = q.where(c.lang == lang)
    with store.engine.connect() as conn:
        r = conn.execute(q.order_by(c.id.desc()).limit(1)).first()
    return _row(r) if r is not None else None


@dataclass(frozen=True, slots=True)
class Counts:
    """What the limits compare: the queued or running jobs of the asker's client and of
    his address, and every queued job."""

    client: int
    address: int
    queued: int


def counts_of(store: Store, client: str, address: str) -> Counts:
    """The asker's :class:`Counts`."""
    c = analyses_t.c
    active = c.status.in_(("queued", "running"))
    with store.engine.connect() as conn:
        mine = conn.execute(sa.select(sa.func.count()).where(
            c.client == client, active)).scalar_one()
        here = conn.execute(sa.select(sa.func.count()).where(
            c.address == address, active)).scalar_one()
        queued = conn.execute(sa.select(sa.func.count()).where(
            c.status == "queued")).scalar_one()
    return Counts(int(mine), int(here), int(queued))


def ask(store: Store, game_id: str, s: Settings, client: str,
        account_id: str | None, address: str = "") -> AnalysisRow:
    """Queue this game's analysis with these settings: a new row, or a failed one queued
    again (the caller has checked the limits and that no other row of the key is live)."""
    now = time.time()
    values = {"status": "queued", "done": 0, "total": 0, "result": None, "error": None,
              "client": client, "address": address, "account_id": account_id,
              "created": now,
              "started": None, "finished": None, "worker": None, "beat": None}
    with store.engine.begin() as conn:
        changed = conn.execute(sa.update(analyses_t).where(
            _key(game_id, s), analyses_t.c.status == "failed").values(**values)).rowcount
        if not changed:
            # two asks of one key that both found no row: the second's insert meets the
            # key's unique index, and it gives the first one's row (no 500)
            with contextlib.suppress(sa.exc.IntegrityError), conn.begin_nested():
                conn.execute(sa.insert(analyses_t).values(
                    game_id=game_id, samples=s.samples, view_based=s.view_based,
                    lang=s.lang, **values))
    row = find(store, game_id, s)
    assert row is not None
    return row


def position(store: Store, row_id: int) -> int:
    """The place of a queued job in the queue (1: next), 0 when it is not queued."""
    c = analyses_t.c
    with store.engine.connect() as conn:
        status = conn.execute(sa.select(c.status).where(c.id == row_id)).scalar()
        if status != "queued":
            return 0
        ahead = conn.execute(sa.select(sa.func.count()).where(
            c.status == "queued", c.id < row_id)).scalar_one()
    return int(ahead) + 1


#: The queued jobs the claim looks over for a fair turn.
FAIR_WINDOW = 200


def fair_order(rows: list[tuple[int, str]]) -> list[int]:
    """The queued jobs ``(id, address)``, oldest first, in the order they are run: each
    address's first job before any address's second, and so on (the oldest first within
    a turn), so that one address's many jobs wait behind everybody else's one."""
    turn: dict[str, int] = {}
    ranked = []
    for row_id, address in rows:
        n = turn[address] = turn.get(address, 0) + 1
        ranked.append((n, row_id))
    return [row_id for _, row_id in sorted(ranked)]


def claim_next(store: Store, worker: str) -> AnalysisRow | None:
    """The next queued job in the fair order (:func:`fair_order`), now ``running`` for
    ``worker``; None when there is none or another worker claimed each one first."""
    c = analyses_t.c
    with store.engine.begin() as conn:
        rows = conn.execute(sa.select(c.id, c.address).where(c.status == "queued")
                            .order_by(c.id).limit(FAIR_WINDOW)).all()
        for row_id in fair_order([(r.id, r.address) for r in rows])[:5]:
            now = time.time()
            won = conn.execute(sa.update(analyses_t).where(
                c.id == row_id, c.status == "queued").values(
                status="running", worker=worker, started=now, beat=now)).rowcount
            if won:
                r = conn.execute(sa.select(analyses_t).where(c.id == row_id)).one()
                return _row(r)
    return None


def progress(store: Store, row_id: int, done: int, total: int) -> None:
    """A running job's progress (and the worker's sign of life)."""
    with store.engine.begin() as conn:
        conn.execute(sa.update(analyses_t).where(
            analyses_t.c.id == row_id, analyses_t.c.status == "running").values(
            done=done, total=total, beat=time.time()))


def finish(store: Store, row_id: int, result: dict[str, Any] | None,
           error: str | None = None) -> None:
    """A job ended: ``done`` with its result, else ``failed`` with the error's text."""
    values: dict[str, Any] = {"finished": time.time(), "beat": None}
    if result is not None:
        # done is all of it: the process's last report may still be on its way
        n = sum(len(d.get("decisions", ())) for d in result.get("deals", ()))
        values.update(status="done", result=json.dumps(result, ensure_ascii=False),
                      done=n, total=n)
    else:
        values.update(status="failed", error=(error or "failed")[:2000])
    with store.engine.begin() as conn:
        conn.execute(sa.update(analyses_t).where(analyses_t.c.id == row_id).values(**values))


def requeue_stale(store: Store, older_than: float | None) -> int:
    """Jobs left ``running`` by a worker that stopped, queued again: every running job
    (``older_than`` None: one process, which has just started, runs none) or those whose
    worker gave no sign of life for ``older_than`` seconds (many workers)."""
    c = analyses_t.c
    cond = c.status == "running"
    if older_than is not None:
        cond = sa.and_(cond, sa.or_(c.beat.is_(None), c.beat < time.time() - older_than))
    with store.engine.begin() as conn:
        return int(conn.execute(sa.update(analyses_t).where(cond).values(
            status="queued", done=0, worker=None, started=None, beat=None)).rowcount)


def requeue(store: Store, row_id: int) -> None:
    """One running job queued again (its process died under it)."""
    with store.engine.begin() as conn:
        conn.execute(sa.update(analyses_t).where(
            analyses_t.c.id == row_id, analyses_t.c.status == "running").values(
            status="queued", done=0, worker=None, started=None, beat=None))


def beat(store: Store, row_id: int) -> None:
    """A running job's sign of life without news of progress (many workers)."""
    with store.engine.begin() as conn:
        conn.execute(sa.update(analyses_t).where(analyses_t.c.id == row_id).values(
            beat=time.time()))


def finished_analyses(store: Store, account_id: str) -> list[AnalysisRow]:
    """The done analyses of the games where ``account_id`` held a seat, newest first (the
    exercises are made from them)."""
    c = analyses_t.c
    games = sa.select(seats_t.c.table_id).where(seats_t.c.player_id == account_id)
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(analyses_t).where(
            c.status == "done", c.game_id.in_(games)).order_by(c.id.desc())).all()
    return [_row(r) for r in rows]
