"""The players and their sessions in the store's database (docs/server.md "Players").

The tables (``players``, ``sessions`` and ``seats.player_id``) are defined in
:mod:`thousand.server.store.tables` beside the others and made by the migration 0002; this module
is their reading and writing, on the :class:`~thousand.server.store.tables.Store`'s engine, each
method one transaction (the server calls them on the store's thread, ``Hub.db``).

What is kept of a session is the SHA-256 of its cookie's secret, never the secret; of a
password its Argon2 hash (made by :mod:`thousand.server.features.accounts`, never here); of a
player his ``seat_secret``, from which the tokens of his seats are derived
(:func:`thousand.server.checks.seat_token`).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

import sqlalchemy as sa

from .tables import Store, players_t, seats_t, sessions_t, tables_t

__all__ = ["DELETED_NAME", "AccountStore", "NameTaken", "Player", "PlayerSeat", "rename_seats",
           "seat_secrets"]

#: The name a deleted account's games show (a record is data: one name, in Russian).
DELETED_NAME = "удалённый игрок"


@dataclass(frozen=True, slots=True)
class Player:
    """Who a request comes from: ``kind`` is ``guest``, ``account`` or ``bot``; a guest
    may have no name yet (None)."""

    id: str
    kind: str
    name: str | None


@dataclass(frozen=True, slots=True)
class Identity:
    """A valid session's player, with what only the server uses: the secret his seat
    tokens derive from, and the session's own id (the hash of its cookie)."""

    player: Player
    seat_secret: str
    session_id: str


@dataclass(frozen=True, slots=True)
class PlayerSeat:
    """A seat a player holds: at which table, which seat, the table's state."""

    table_id: str
    seat: int
    status: str
    preset: str
    created: float


class NameTaken(Exception):
    """Another account has this name (compared casefolded)."""


def seat_secrets(store: Store, players: list[str]) -> dict[str, str]:
    """The seat secrets of these players, by player id: the tokens of the seats a
    rematch or a tournament lays for them derive from them (checks.seat_token)."""
    if not players:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(players_t.c.id, players_t.c.seat_secret)
                            .where(players_t.c.id.in_(players))).all()
    return {r.id: r.seat_secret for r in rows if r.seat_secret}


def rename_seats(conn: sa.Connection, player_id: str, name: str) -> list[tuple[str, int]]:
    """Every seat of the player named ``name`` (in the seats and in the tables' names,
    which the records and the history show): an account deleted, a name a moderator hid.
    The seats renamed: (table, seat)."""
    seats = conn.execute(sa.select(seats_t.c.table_id, seats_t.c.seat)
                         .where(seats_t.c.player_id == player_id)).all()
    conn.execute(seats_t.update().where(seats_t.c.player_id == player_id).values(name=name))
    by_table: dict[str, list[int]] = {}
    for table_id, seat in seats:
        by_table.setdefault(table_id, []).append(seat)
    for table_id, numbers in by_table.items():
        names = json.loads(conn.execute(sa.select(tables_t.c.names).where(
            tables_t.c.id == table_id)).scalar_one())
        for seat in numbers:
            if 0 <= seat < len(names):
                names[seat] = name
        conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(
            names=json.dumps(names, ensure_ascii=False, separators=(",", ":"))))
    return [(str(t), int(s)) for t, s in seats]


def new_player_id() -> str:
    """``p_`` and 16 URL-safe random characters (96 bits)."""
    return "p_" + secrets.token_urlsafe(12)


class AccountStore:
    """The players and sessions of one :class:`Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # ------------------------------------------------------------------ sessions

    def new_guest(self, now: float) -> Player:
        """A new guest, unnamed."""
        player = Player(new_player_id(), "guest", None)
        with self.engine.begin() as conn:
            conn.execute(players_t.insert().values(
                id=player.id, kind="guest", name=None, name_key=None, password_hash=None,
                seat_secret=secrets.token_hex(32), created=now, deleted=None))
        return player

    def new_session(self, session_id: str, player_id: str, now: float, idle: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions_t.insert().values(
                id=session_id, player_id=player_id, created=now, expires=now + idle,
                last_seen=now))

    def session(self, session_id: str, now: float, idle: float,
                touch_after: float = 60.0) -> Identity | None:
        """The session's player while it has not expired (an expired session is
        removed); its idle time starts again (written at most every ``touch_after``
        seconds, so that not every request writes)."""
        with self.engine.begin() as conn:
            r = conn.execute(
                sa.select(sessions_t.c.expires, sessions_t.c.last_seen, players_t.c.id,
                          players_t.c.kind, players_t.c.name, players_t.c.seat_secret,
                          players_t.c.deleted, players_t.c.closed)
                .join(players_t, players_t.c.id == sessions_t.c.player_id)
                .where(sessions_t.c.id == session_id)).first()
            if r is None:
                return None
            if (r.expires <= now or r.deleted is not None or r.closed is not None
                    or r.seat_secret is None):
                conn.execute(sessions_t.delete().where(sessions_t.c.id == session_id))
                return None
            if now - r.last_seen >= touch_after:
                conn.execute(sessions_t.update().where(sessions_t.c.id == session_id)
                             .values(last_seen=now, expires=now + idle))
        return Identity(Player(r.id, r.kind, r.name), r.seat_secret, session_id)

    def purge(self, now: float, guest_age: float = 86400.0) -> tuple[int, int]:
        """Forget what nobody can use any more: expired sessions, and guests older than
        ``guest_age`` seconds with neither a session nor a seat (a browser that looked
        once and left).  (sessions, guests) removed."""
        with self.engine.begin() as conn:
            sessions = conn.execute(sessions_t.delete()
                                    .where(sessions_t.c.expires <= now)).rowcount
            has_session = sa.exists().where(sessions_t.c.player_id == players_t.c.id)
            has_seat = sa.exists().where(seats_t.c.player_id == players_t.c.id)
            guests = conn.execute(players_t.delete().where(
                players_t.c.kind == "guest", players_t.c.created < now - guest_age,
                ~has_session, ~has_seat)).rowcount
        return int(sessions), int(guests)

    def end_session(self, session_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sessions_t.delete().where(sessions_t.c.id == session_id))

    def end_sessions(self, player_id: str, keep: str | None = None) -> int:
        """End every session of the player but ``keep``; how many ended."""
        with self.engine.begin() as conn:
            query = sessions_t.delete().where(sessions_t.c.player_id == player_id)
            if keep is not None:
                query = query.where(sessions_t.c.id != keep)
            return int(conn.execute(query).rowcount)

    # ------------------------------------------------------------------ accounts

    def sign_up(self, name: str, name_key: str, password_hash: str, now: float,
                guest_id: str | None) -> Player:
        """A new account; a guest's (``guest_id``) becomes the account, keeping his id,
        and so his seats and games.  :class:`NameTaken` when the name is another's."""
        with self.engine.begin() as conn:
            if conn.execute(sa.select(players_t.c.id)
                            .where(players_t.c.name_key == name_key)).first() is not None:
                raise NameTaken(name)
            values = {"kind": "account", "name": name, "name_key": name_key,
                      "password_hash": password_hash}
            try:
                if guest_id is not None and conn.execute(
                        players_t.update().where(players_t.c.id == guest_id,
                                                 players_t.c.kind == "guest",
                                                 players_t.c.deleted.is_(None))
                        .values(**values)).rowcount == 1:
                    return Player(guest_id, "account", name)
                player = Player(new_player_id(), "account", name)
                conn.execute(players_t.insert().values(
                    id=player.id, seat_secret=secrets.token_hex(32), created=now,
                    deleted=None, **values))
            except sa.exc.IntegrityError:  # the same name signed up just now
                raise NameTaken(name) from None
        return player

    def account(self, name_key: str) -> tuple[Player, str] | None:
        """The account of a name (casefolded) and its password hash."""
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(players_t).where(
                players_t.c.name_key == name_key, players_t.c.kind == "account",
                players_t.c.deleted.is_(None))).first()
        if r is None or r.password_hash is None:
            return None
        return Player(r.id, r.kind, r.name), r.password_hash

    def closed(self, player_id: str) -> bool:
        """Whether a moderator closed the account (it cannot sign in)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(players_t.c.closed).where(
                players_t.c.id == player_id)).scalar() is not None

    def password_hash(self, player_id: str) -> str | None:
        with self.engine.connect() as conn:
            value = conn.execute(sa.select(players_t.c.password_hash).where(
                players_t.c.id == player_id, players_t.c.deleted.is_(None))).scalar()
        return str(value) if value is not None else None

    def set_password(self, player_id: str, password_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(players_t.update().where(players_t.c.id == player_id)
                         .values(password_hash=password_hash))

    def set_name(self, player_id: str, name: str) -> None:
        """A guest's name (an account's name is its login, not changed here)."""
        with self.engine.begin() as conn:
            conn.execute(players_t.update().where(players_t.c.id == player_id,
                                                  players_t.c.kind == "guest")
                         .values(name=name))

    def delete(self, player_id: str, now: float) -> list[tuple[str, int]]:
        """Delete an account: its name is free again, its password and secret gone, its
        sessions ended; its games stay, its seats' names become :data:`DELETED_NAME`
        (in the seats and the tables' names, which the records and the history show).
        The seats renamed: (table, seat)."""
        with self.engine.begin() as conn:
            conn.execute(players_t.update().where(players_t.c.id == player_id).values(
                name=DELETED_NAME, name_key=None, password_hash=None, seat_secret=None,
                deleted=now))
            conn.execute(sessions_t.delete().where(sessions_t.c.player_id == player_id))
            return rename_seats(conn, player_id, DELETED_NAME)

    # ------------------------------------------------------------------ seats

    def table_names(self, table_ids: list[str]) -> dict[str, list[tuple[str, bool]]]:
        """The seats' names of these tables, by seat, each with whether a guest holds it
        (the account page names a table by the people and bots at it, not by its id, and
        marks the guests among them)."""
        if not table_ids:
            return {}
        out: dict[str, list[tuple[str, bool]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(sa.select(seats_t.c.table_id, seats_t.c.name,
                                            seats_t.c.guest)
                                  .where(seats_t.c.table_id.in_(set(table_ids)))
                                  .order_by(seats_t.c.table_id, seats_t.c.seat)):
                out.setdefault(r.table_id, []).append((r.name, bool(r.guest)))
        return out

    def seats(self, player_id: str, *, unfinished: bool = True,
              limit: int = 100) -> list[PlayerSeat]:
        """The player's seats, newest table first: at tables neither over nor closed
        (``unfinished``), or all."""
        query = (sa.select(seats_t.c.table_id, seats_t.c.seat, tables_t.c.status,
                           tables_t.c.preset, tables_t.c.created)
                 .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                 .where(seats_t.c.player_id == player_id))
        if unfinished:
            query = query.where(tables_t.c.status.not_in(("over", "closed")))
        query = query.order_by(tables_t.c.created.desc(), seats_t.c.seat).limit(limit)
        with self.engine.connect() as conn:
            return [PlayerSeat(r.table_id, r.seat, r.status, r.preset, r.created)
                    for r in conn.execute(query)]
