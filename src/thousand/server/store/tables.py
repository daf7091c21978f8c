"""The server's lasting store: tables, seats, the move log and chat, in any SQL database.

SQLAlchemy 2 (Core, a sync engine: the server calls it from one worker thread) over any
URL SQLAlchemy takes; SQLite (WAL journal) is the default, PostgreSQL works the same.  The
schema is made and kept current by the Alembic migrations beside this module
(``migrations/``), run by :func:`migrate` whenever a :class:`Store` opens.

What is kept (docs/server.md "The store"):

* ``tables``: a table's id, when it was laid, its resolved rules (JSON), the players'
  names, the first dealer, the **secret seed** (every deal's cards follow from it), the
  move clock or the state of its game clock (a time control, with each seat's time
  left: written with every move), its status (``waiting``, ``playing``, ``over``,
  ``closed``: its creator ended it before the game did, for good), whether it is listed
  in the lobby, and once it is over when it ended, the winner and the scores;
* ``seats``: each seat's kind (``human``/``bot``), bot level, name and the SHA-256 of the
  seat's secret token (never the token); whether a guest (no account) holds it, and
  whether its person abandoned the rated game;
* ``moves``: the table's own move log (:attr:`thousand.engine.table.Table.moves`, ``look``
  included), one row per move, append-only; the primary key (table, index) refuses a
  move written twice;
* ``chat``: what the players said;
* ``players`` and ``sessions`` (the guests and accounts, and the SHA-256 of each
  session's cookie), and each seat's ``player_id``: server/store/accounts.py reads and
  writes them (docs/server.md "Players").

A table is rebuilt from its row and its moves with
:meth:`thousand.engine.table.Table.from_moves`.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool

__all__ = [
    "ChatRow",
    "Fenced",
    "MovesWrite",
    "SeatRow",
    "Store",
    "StoreError",
    "TableRow",
    "check_fence",
    "leases_t",
    "metadata",
    "migrate",
    "normalize_url",
    "seat_row",
    "shown_url",
]

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("names", sa.Text, nullable=False),
    sa.Column("first_dealer", sa.Integer, nullable=False),
    sa.Column("seed", sa.String(80), nullable=False),
    sa.Column("clock", sa.Float, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("listed", sa.Boolean, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
    sa.Column("winner", sa.Text, nullable=True),
    sa.Column("scores", sa.Text, nullable=True),
    # a time control's state, JSON (migration 0015; server/live/time_control.py)
    sa.Column("game_clock", sa.Text, nullable=True),
    sa.Index("ix_tables_status", "status"),
    sa.Index("ix_tables_created", "created"),
    # the public history, newest first, read from the index alone (migration 0006)
    sa.Index("ix_tables_history", "listed", "created", "id"),
)

seats_t = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=True),
    # the player (server/store/accounts.py) who holds the seat, when he had a session
    sa.Column("player_id", sa.String(24), nullable=True),
    # a person without an account held it (migration 0012): his name is marked so
    sa.Column("guest", sa.Boolean, nullable=False, server_default=sa.false()),
    # its person left the rated game after the deal (migration 0012; LiveTable.abandon)
    sa.Column("abandoned", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_seats_player", "player_id"),
)

# The players and their sessions (docs/server.md "Players"; server/store/accounts.py).
players_t = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("name_key", sa.String(64), nullable=True),
    sa.Column("password_hash", sa.String(200), nullable=True),
    sa.Column("seat_secret", sa.String(64), nullable=True),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("deleted", sa.Float, nullable=True),
    # moderation and the profile (migration 0014; server/store/moderation.py)
    sa.Column("role", sa.String(16), nullable=True),
    sa.Column("muted_until", sa.Float, nullable=True),
    sa.Column("closed", sa.Float, nullable=True),
    sa.Column("country", sa.String(2), nullable=True),
    sa.Column("about", sa.Text, nullable=True),
    sa.Index("ix_players_name_key", "name_key", unique=True),
)

sessions_t = sa.Table(
    "sessions",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("player_id", sa.String(24),
              sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Index("ix_sessions_player", "player_id"),
)

moves_t = sa.Table(
    "moves",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("move", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

chat_t = sa.Table(
    "chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(800), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_chat_table", "table_id", "id"),
)


# Which worker of many holds a live table (migration 0007; server/cluster/leases.py): used only
# by ``thousand serve --redis``.
leases_t = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("worker", sa.String(64), nullable=False),
    sa.Column("fence", sa.BigInteger, nullable=False),
    sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    sa.Index("ix_leases_worker", "worker"),
)


class Fenced(RuntimeError):
    """A write of a worker that no longer holds the table: another worker took it over
    (its lease's fence moved on) while this one was paused or cut off.  Nothing was
    written; the worker must let the table go."""

    def __init__(self, table_id: str, fence: int, current: int | None) -> None:
        super().__init__(f"table {table_id}: fence {fence} is stale (now {current})")
        self.table_id = table_id
        self.fence = fence
        self.current = current


def check_fence(conn: Connection, table_id: str, fence: int | None) -> None:
    """Inside a write's transaction: raise :class:`Fenced` unless the table's lease still
    carries ``fence`` (None: one process, no leases, nothing to check).  The lease row is
    locked (``FOR UPDATE``) to the transaction's end, so a take-over waits for the write
    or the write sees the take-over — never both."""
    if fence is None:
        return
    # and (one statement, no extra round trip) the transaction ends by itself if this
    # worker is paused in its middle (SIGSTOP): the locked row is not held for ever
    guard = sa.func.set_config("idle_in_transaction_session_timeout", "5s", True)
    current = conn.execute(sa.select(leases_t.c.fence, guard)
                           .where(leases_t.c.table_id == table_id)
                           .with_for_update(of=leases_t)).scalar()
    if current != fence:
        raise Fenced(table_id, fence, None if current is None else int(current))


class StoreError(RuntimeError):
    """The database cannot be opened or used: one line for a person, in English
    (``str``) and, where it has one, in Russian (:meth:`text`)."""

    def __init__(self, message: str, *, ru: str | None = None) -> None:
        super().__init__(message)
        self.texts = {"en": message, "ru": ru if ru is not None else message}

    def text(self, lang: str = "ru") -> str:
        """The line in ``lang`` (``ru`` or ``en``)."""
        return self.texts.get(lang, self.texts["en"])


@dataclass(slots=True)
class SeatRow:
    """One seat: ``kind`` is ``human`` or ``bot``; ``token_hash`` the SHA-256 (hex) of the
    seat's token once a person holds it; ``guest`` when that person had no account as he
    sat down (his name is no account's: every page marks it, issue 27); ``abandoned``
    once he left the rated game after the deal (kept, so that a restart or another
    worker still counts it: hub.LiveTable.abandon)."""

    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None = None
    player_id: str | None = None
    guest: bool = False
    abandoned: bool = False


@dataclass(slots=True)
class TableRow:
    """One table as stored (``rules`` the JSON object of ``Rules.to_json``)."""

    id: str
    created: float
    preset: str
    rules: dict[str, Any]
    names: list[str]
    first_dealer: int
    seed: int
    clock: float | None
    status: str
    listed: bool
    finished: float | None = None
    winner: int | list[int] | None = None
    scores: list[int] | None = None
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    #: who sees the finished game's replay (``public``/``players``; None: by ``listed``),
    #: kept in the ``rules`` column's JSON under ``"replay"`` (no column of its own)
    replay: str | None = None
    #: a time control's state (``GameClock.to_json``), written with each move; None: the
    #: table has none (a move clock, or no clock)
    game_clock: dict[str, Any] | None = None
    #: a hint or open hands helped somebody at it: the ratings take it as training, not
    #: rated (kept in the ``rules`` column's JSON under ``"training"``, as ``replay`` is,
    #: so that a restart or another worker taking the table over knows it too)
    training: bool = False

    @property
    def abandoned(self) -> set[int]:
        """The seats whose people abandoned the rated game (:attr:`SeatRow.abandoned`)."""
        return {s.seat for s in self.seats if s.abandoned}


@dataclass(slots=True)
class ChatRow:
    id: int
    seat: int | None
    name: str
    text: str
    at: float


def seat_row(r: sa.Row[Any]) -> SeatRow:
    """The seat of a row of ``seats`` (every reading of seats makes them here)."""
    return SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash, r.player_id,
                   bool(r.guest), bool(r.abandoned))


def normalize_url(url: str) -> str:
    """``postgresql://`` and ``postgres://`` mean psycopg (version 3) when psycopg2 is not
    installed; any other URL is taken as it is."""
    try:
        parsed = make_url(url)
    except Exception as e:
        raise StoreError(f"--db {url!r} is not a database URL: {e}") from None
    if parsed.drivername in ("postgresql", "postgres"):
        import importlib.util

        has_psycopg2 = importlib.util.find_spec("psycopg2") is not None
        parsed = parsed.set(drivername="postgresql" if has_psycopg2 else "postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def shown_url(url: str) -> str:
    """The URL with its password hidden, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<bad url>"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        # WAL with synchronous=NORMAL: a committed transaction survives the process being
        # killed (only a power cut can lose the last ones); FULL costs a sync per move.
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
    finally:
        cur.close()


def make_engine(url: str) -> Engine:
    parsed: URL = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False}}
        if memory:
            kwargs["poolclass"] = StaticPool
        engine = sa.create_engine(parsed, **kwargs)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(parsed, pool_pre_ping=True)


def _schema_sql(name: str) -> str:
    """``CREATE SCHEMA name;`` with the name quoted when PostgreSQL would fold it."""
    plain = re.fullmatch(r"[a-z_][a-z0-9_$]*", name) is not None
    quoted = name if plain else '"' + name.replace('"', '""') + '"'
    return f"CREATE SCHEMA {quoted};"


def check_schema(connection: Connection, url: str) -> None:
    """On PostgreSQL, the schema the URL's ``search_path`` names must exist: else the
    tables would have nowhere to go, and PostgreSQL's own words ("no schema has been
    selected to create in") do not say what to do.  A :class:`StoreError` names the
    schema and the SQL that makes it."""
    if connection.dialect.name != "postgresql":
        return
    if connection.execute(sa.text("SELECT current_schema()")).scalar() is not None:
        return
    path = str(connection.execute(sa.text("SHOW search_path")).scalar() or "")
    names = [n.strip() for n in path.split(",") if n.strip() and n.strip() != '"$user"']
    names = [n[1:-1].replace('""', '"') if n.startswith('"') else n for n in names]
    name = names[0] if names else "public"
    sql = _schema_sql(name)
    shown = shown_url(url)
    raise StoreError(
        f"the database {shown} has no schema {name} (the URL's search_path names it); "
        f"create it first: {sql}  (for example: psql -c '{sql}')",
        ru=f"в базе данных {shown} нет схемы {name} (её называет search_path в адресе); "
           f"сначала создайте её: {sql}  (например: psql -c '{sql}')")


#: A migration module's ``revision = "0006"`` and ``down_revision = "0005"`` lines.
_REVISION_LINE = re.compile(r'^(down_)?revision(?:: [^=\n]+)? = (?:"([^"\n]*)"|None)\s*$',
                            re.MULTILINE)


def head_revision() -> str | None:
    """The newest migration's revision, read from the modules' text: the one no other
    names as its ``down_revision``; None when that is not one revision (a merge, a
    module of another shape), and then Alembic decides."""
    folder = resources.files("thousand.server.store").joinpath("migrations").joinpath("versions")
    revisions: set[str] = set()
    downs: set[str] = set()
    for entry in folder.iterdir():
        if not entry.name.endswith(".py") or entry.name == "__init__.py":
            continue
        found = _REVISION_LINE.findall(entry.read_text("utf-8"))
        if not any(not down for down, _ in found):
            return None  # a module whose revision these lines do not give
        for down, value in found:
            (downs if down else revisions).add(value)
    heads = revisions - downs
    return heads.pop() if len(heads) == 1 else None


def _current_revision(connection: Connection) -> str | None:
    if not sa.inspect(connection).has_table("alembic_version"):
        return None
    rows = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
    return str(rows[0][0]) if len(rows) == 1 else None


def migrate(connection: Connection) -> None:
    """Bring the schema up to the newest revision (Alembic's ``upgrade head``).  A
    database already there is left without importing Alembic at all: its import (Mako,
    the script directory) was a third of a worker's start, and a restarted worker finds
    its database current."""
    head = head_revision()
    if head is not None and _current_revision(connection) == head:
        return
    from alembic import command
    from alembic.config import Config

    location = resources.files("thousand.server.store").joinpath("migrations")
    cfg = Config()
    cfg.set_main_option("script_location", str(location))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


def _rules_column(row: TableRow) -> dict[str, Any]:
    """What the ``rules`` column keeps: the rules, and the two marks without a column of
    their own (``replay``, ``training``)."""
    return {**row.rules, **({"replay": row.replay} if row.replay else {}),
            **({"training": True} if row.training else {})}


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


#: The insert of move rows in the placeholders of each DB-API parameter style.
_INSERT_MOVES = {
    style: "INSERT INTO moves (table_id, idx, move, at) VALUES ({})".format(
        ", ".join([mark] * 4))
    for style, mark in (("qmark", "?"), ("format", "%s"), ("pyformat", "%s"))
}


class MovesWrite(NamedTuple):
    """The arguments of one :meth:`Store.append_moves`, for :meth:`Store.append_many`."""

    table_id: str
    start: int
    moves: Sequence[str]
    over: tuple[int | list[int] | None, Sequence[int]] | None = None
    #: the writer's lease fence (many workers; None: one process)
    fence: int | None = None
    #: the table's game clock after these moves (a time control), written with them
    game_clock: dict[str, Any] | None = None


class Store:
    """The tables of one database.  Every method is one transaction, committed before it
    returns (the server tells nobody of a move before :meth:`append_moves` returned)."""

    def __init__(self, url: str) -> None:
        self.url = normalize_url(url)
        try:
            self.engine = make_engine(self.url)
            with self.engine.begin() as conn:
                check_schema(conn, self.url)
                if conn.dialect.name == "postgresql":  # many workers start at once:
                    # one migrates, the others wait for it (and then find nothing to do)
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(7310001)"))
                migrate(conn)
        except StoreError:
            raise
        except Exception as e:
            text = " ".join(str(e).split())[:300]
            raise StoreError(f"cannot open the database {shown_url(self.url)}: {text}") from e

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writing

    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(tables_t.insert().values(
                id=row.id, created=row.created, preset=row.preset,
                rules=_dump(_rules_column(row)),
                names=_dump(row.names), first_dealer=row.first_dealer, seed=str(row.seed),
                clock=row.clock, status=row.status, listed=row.listed,
                game_clock=None if row.game_clock is None else _dump(row.game_clock),
            ))
            if row.seats:
                conn.execute(seats_t.insert(), [
                    {"table_id": row.id, "seat": s.seat, "kind": s.kind, "level": s.level,
                     "name": s.name, "token_hash": s.token_hash,
                     "player_id": s.player_id, "guest": s.guest, "abandoned": s.abandoned}
                    for s in row.seats
                ])
            if row.moves:
                self._insert_moves(conn, row.id, 0, row.moves)

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  names: Sequence[str], status: str, player_id: str | None = None, *,
                  guest: bool = True, fence: int | None = None) -> bool:
        """Give a free human seat its token (and its player, when he has a session;
        ``guest`` when he has no account); False (nothing changed) when it was taken.
        ``fence``: the writer's lease (:func:`check_fence`), for this and every other
        write of a live table."""
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            done = conn.execute(
                seats_t.update()
                .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                       seats_t.c.kind == "human", seats_t.c.token_hash.is_(None))
                .values(token_hash=token_hash, name=name, player_id=player_id, guest=guest)
            ).rowcount
            if done != 1:
                return False
            conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                         .values(names=_dump(list(names)), status=status))
        return True

    def append_moves(self, table_id: str, start: int, moves: Sequence[str], *,
                     over: tuple[int | list[int] | None, Sequence[int]] | None = None,
                     fence: int | None = None,
                     game_clock: dict[str, Any] | None = None) -> None:
        """Write ``moves`` as the log's entries ``start, start+1, ...``; with ``over``
        (winner, scores) mark the table finished in the same transaction, with
        ``game_clock`` keep the game clock's state after them."""
        self.append_many([MovesWrite(table_id, start, moves, over, fence, game_clock)],
                         alone=True)

    def append_many(self, writes: Sequence[MovesWrite], *,
                    alone: bool = False) -> list[Exception | None]:
        """Several tables' :meth:`append_moves` in ONE transaction (a group commit: one
        commit for the moves of every table that moved while the store was busy); each
        write's outcome in order, ``None`` when it is committed.  If the transaction
        fails, each write is tried again on its own, so that one refused write (a move
        written twice, a check of its table) fails only itself: every ``None`` is a
        committed write either way.  ``alone``: one write, whose failure is raised."""
        if alone:
            with self.engine.begin() as conn:
                for w in writes:
                    self._append(conn, w)
            return [None] * len(writes)
        try:
            with self.engine.begin() as conn:
                # in the order of the tables' ids, as leases.renew locks their lease rows:
                # two transactions of one worker never wait for each other in a circle
                for w in sorted(writes, key=lambda w: w.table_id):
                    self._append(conn, w)
            return [None] * len(writes)
        except Exception:
            pass
        out: list[Exception | None] = []
        for w in writes:
            try:
                self.append_many([w], alone=True)
                out.append(None)
            except Exception as e:
                out.append(e)
        return out

    def _append(self, conn: Connection, w: MovesWrite) -> None:
        """One table's write of :meth:`append_moves` inside the caller's transaction (every
        check of a table's write belongs here: :meth:`append_many` calls it too): the
        lease's fence first (many workers: a worker that lost the table writes nothing)."""
        check_fence(conn, w.table_id, w.fence)
        self._insert_moves(conn, w.table_id, w.start, w.moves)
        values: dict[str, Any] = {}
        if w.over is not None:
            winner, scores = w.over
            values.update(status="over", finished=time.time(), winner=_dump(winner),
                          scores=_dump(list(scores)))
        if w.game_clock is not None:
            values["game_clock"] = _dump(w.game_clock)
        if values:
            conn.execute(tables_t.update().where(tables_t.c.id == w.table_id)
                         .values(**values))

    @staticmethod
    def _insert_moves(conn: Connection, table_id: str, start: int,
                      moves: Sequence[str]) -> None:
        """The rows of a move write, as one statement handed to the database's driver as
        it is: SQLAlchemy's compiled insert cost some 150 us a move (measured on SQLite:
        more than the database itself); a driver of another parameter style gets the
        compiled insert."""
        now = time.time()
        rows = [(table_id, start + i, m, now) for i, m in enumerate(moves)]
        sql = _INSERT_MOVES.get(conn.dialect.paramstyle)
        if sql is not None:
            conn.exec_driver_sql(sql, rows)
        else:
            conn.execute(moves_t.insert(), [
                {"table_id": t, "idx": i, "move": m, "at": at} for t, i, m, at in rows])

    def close_table(self, table_id: str, *, fence: int | None = None) -> bool:
        """End a table that is not over, for good (``closed``: no server brings it back);
        False (nothing changed) when it is over or closed already."""
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            done = conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id,
                       tables_t.c.status.not_in(("over", "closed")))
                .values(status="closed", finished=time.time())
            ).rowcount
        return bool(done == 1)

    def mark_training(self, table_id: str, *, fence: int | None = None) -> None:
        """Mark the game as training (a hint or open hands helped somebody at it): the
        ratings pass it by, after a restart too (:attr:`TableRow.training`)."""
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            self._mark(conn, table_id, training=True)

    def open_replays(self, table_ids: Collection[str]) -> None:
        """Show these finished games' replays to everybody (:attr:`TableRow.replay`
        ``public``): a duplicate tournament's tables, kept for their players while
        another table could still be playing the same cards, once it is over."""
        with self.engine.begin() as conn:
            for table_id in table_ids:
                self._mark(conn, table_id, replay="public")

    @staticmethod
    def _mark(conn: Connection, table_id: str, **marks: Any) -> None:
        """Set marks that have no column of their own (``replay``, ``training``) in the
        ``rules`` column's JSON of a table (none: nothing)."""
        stored = conn.execute(sa.select(tables_t.c.rules)
                              .where(tables_t.c.id == table_id)).scalar_one_or_none()
        if stored is not None:
            conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                         .values(rules=_dump({**json.loads(stored), **marks})))

    def abandon(self, table_id: str, seat: int, *, fence: int | None = None) -> None:
        """Mark a seat's person as having left the rated game (LiveTable.abandon)."""
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            conn.execute(seats_t.update().where(seats_t.c.table_id == table_id,
                                               seats_t.c.seat == seat)
                         .values(abandoned=True))

    def accounts_among(self, player_ids: Collection[str]) -> set[str]:
        """Which of these players are accounts (the others are guests, or unknown)."""
        if not player_ids:
            return set()
        with self.engine.connect() as conn:
            return set(conn.execute(sa.select(players_t.c.id).where(
                players_t.c.id.in_(set(player_ids)),
                players_t.c.kind == "account")).scalars())

    def set_status(self, table_id: str, status: str, *, fence: int | None = None) -> None:
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            conn.execute(tables_t.update().where(tables_t.c.id == table_id)
                         .values(status=status))

    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, *,
                 fence: int | None = None) -> ChatRow:
        now = time.time()
        with self.engine.begin() as conn:
            check_fence(conn, table_id, fence)
            result = conn.execute(chat_t.insert().values(
                table_id=table_id, seat=seat, name=name, text=text, at=now))
            key = result.inserted_primary_key
            chat_id = int(key[0]) if key is not None and key[0] is not None else 0
        return ChatRow(chat_id, seat, name, text, now)

    # ------------------------------------------------------------------ reading

    def _table(self, conn: Connection, r: sa.Row[Any],
               seats: list[SeatRow] | None = None) -> TableRow:
        """The table of row ``r``; its ``seats`` when the caller read them already (a
        page of the history reads every game's seats in one query), else read here."""
        rules = json.loads(r.rules)
        replay = rules.pop("replay", None) if isinstance(rules, dict) else None
        training = bool(rules.pop("training", False)) if isinstance(rules, dict) else False
        row = TableRow(
            id=r.id, created=r.created, preset=r.preset, rules=rules, replay=replay,
            training=training,
            names=json.loads(r.names), first_dealer=r.first_dealer, seed=int(r.seed),
            clock=r.clock, status=r.status, listed=bool(r.listed), finished=r.finished,
            winner=json.loads(r.winner) if r.winner is not None else None,
            scores=json.loads(r.scores) if r.scores is not None else None,
            game_clock=json.loads(r.game_clock) if r.game_clock is not None else None,
        )
        row.seats = seats if seats is not None else [
            seat_row(s) for s in conn.execute(sa.select(seats_t)
                                              .where(seats_t.c.table_id == r.id)
                                              .order_by(seats_t.c.seat))
        ]
        return row

    def moves(self, table_id: str) -> list[str]:
        with self.engine.connect() as conn:
            return self._moves(conn, table_id)

    @staticmethod
    def _moves(conn: Connection, table_id: str) -> list[str]:
        rows = conn.execute(sa.select(moves_t.c.idx, moves_t.c.move)
                            .where(moves_t.c.table_id == table_id).order_by(moves_t.c.idx))
        out = []
        for i, (idx, move) in enumerate(rows):
            if idx != i:
                raise StoreError(f"table {table_id}: the move log has a gap at {i}")
            out.append(str(move))
        return out

    def load(self, table_id: str, *, with_moves: bool = True) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            row = self._table(conn, r)
            if with_moves:
                row.moves = self._moves(conn, table_id)
            return row

    def unfinished(self) -> list[TableRow]:
        """Every table that is neither over, closed nor adjourned (out of memory until
        one of its players opens it: server/live/reaper.py), with its seats and moves, oldest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tables_t)
                                .where(tables_t.c.status.not_in(("over", "closed",
                                                                 "adjourned")))
                                .order_by(tables_t.c.created)).all()
            out = []
            for r in rows:
                row = self._table(conn, r)
                row.moves = self._moves(conn, r.id)
                out.append(row)
            return out

    def chat(self, table_id: str, last: int = 50) -> list[ChatRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(chat_t).where(chat_t.c.table_id == table_id)
                                .order_by(chat_t.c.id.desc()).limit(last)).all()
        return [ChatRow(r.id, r.seat, r.name, r.text, r.at) for r in reversed(rows)]

    def games(self, limit: int, offset: int, *,
              listed_only: bool = False) -> tuple[list[TableRow], int]:
        """Tables newest first (without their moves) and how many there are;
        ``listed_only``: none of the unlisted ones (the public history)."""
        where = tables_t.c.listed.is_(True) if listed_only else sa.true()
        with self.engine.connect() as conn:
            total = conn.execute(sa.select(sa.func.count()).select_from(tables_t)
                                 .where(where)).scalar_one()
            # the page's ids from the index (listed, created, id) alone, walked backwards
            # (the ties of ``created`` by id, newest first too), then only their rows: an
            # offset over the rows themselves read a kilobyte of rules per skipped game
            order = (tables_t.c.created.desc(), tables_t.c.id.desc())
            page = (sa.select(tables_t.c.id).where(where).order_by(*order)
                    .limit(limit).offset(offset)).scalar_subquery()
            rows = conn.execute(sa.select(tables_t).where(tables_t.c.id.in_(page))
                                .order_by(*order)).all()
            # every game's seats in one query, not one query per game
            seats: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
            if seats:
                for s in conn.execute(sa.select(seats_t)
                                      .where(seats_t.c.table_id.in_(list(seats)))
                                      .order_by(seats_t.c.table_id, seats_t.c.seat)):
                    seats[s.table_id].append(seat_row(s))
            return [self._table(conn, r, seats[r.id]) for r in rows], int(total)

    def move_count(self, table_id: str) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(moves_t)
                                    .where(moves_t.c.table_id == table_id)).scalar_one())
