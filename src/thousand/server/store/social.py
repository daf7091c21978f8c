"""The players' ties to each other (docs/server.md "Presence, challenges and friends"):
whom a player follows and whom he blocks, his presence settings, and the challenges one
player sends another.

* ``social_settings``: a player's choices — ``hidden`` (nobody sees him online) and
  ``strangers`` (false: only the players he follows may challenge him).  A player with no
  row has the defaults (shown, challenged by anyone): most players never change them.
* ``follows`` and ``blocks``: one row per (player, other), made and removed by him.
* ``challenges``: who asked whom to play what (the preset, the rules' options, the seats'
  bots and the move clock as JSON), until when it stands, and what became of it
  (``open``, ``accepted`` with its ``table_id``, ``declined``, ``cancelled``,
  ``expired``).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .tables import Store, metadata, players_t

__all__ = ["Challenge", "SocialStore", "blocks_t", "challenges_t", "follows_t",
           "settings_t"]

settings_t = sa.Table(
    "social_settings", metadata,
    sa.Column("player_id", sa.String(24), primary_key=True),
    sa.Column("hidden", sa.Boolean, nullable=False),
    sa.Column("strangers", sa.Boolean, nullable=False),
)


def _tie(name: str) -> sa.Table:
    return sa.Table(
        name, metadata,
        sa.Column("player_id", sa.String(24), primary_key=True),
        sa.Column("other_id", sa.String(24), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Index(f"ix_{name}_other", "other_id"),
    )


follows_t = _tie("follows")
blocks_t = _tie("blocks")

challenges_t = sa.Table(
    "challenges", metadata,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("from_id", sa.String(24), nullable=False),
    sa.Column("to_id", sa.String(24), nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Index("ix_challenges_to", "to_id", "status"),
    sa.Index("ix_challenges_from", "from_id", "status"),
)


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge, with both players' names (None: a guest not yet named)."""

    id: str
    from_id: str
    from_name: str | None
    to_id: str
    to_name: str | None
    game: dict[str, Any]
    created: float
    expires: float
    status: str
    table_id: str | None

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "from": {"id": self.from_id, "name": self.from_name},
                "to": {"id": self.to_id, "name": self.to_name}, "game": self.game,
                "created": self.created, "expires": self.expires, "status": self.status,
                "table": self.table_id}


class SocialStore:
    """The ties, settings and challenges of one :class:`Store`'s database (called from
    the hub's database thread: ``hub.db(fn, ...)``)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    def is_person(self, player_id: str) -> bool:
        """Whether ``player_id`` is a guest's or an account's (not deleted)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(players_t.c.id).where(
                players_t.c.id == player_id, players_t.c.deleted.is_(None),
                players_t.c.kind.in_(("guest", "account")))).first() is not None

    # ------------------------------------------------------------------ settings

    def settings(self, player_ids: list[str]) -> dict[str, tuple[bool, bool]]:
        """(hidden, strangers) of each of these players (the defaults for one with no
        row: shown, challenged by anyone)."""
        out = {p: (False, True) for p in player_ids}
        if not player_ids:
            return out
        with self.engine.connect() as conn:
            for r in conn.execute(sa.select(settings_t).where(
                    settings_t.c.player_id.in_(player_ids))):
                out[r.player_id] = (bool(r.hidden), bool(r.strangers))
        return out

    def set_settings(self, player_id: str, hidden: bool, strangers: bool) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(settings_t.update().where(
                settings_t.c.player_id == player_id).values(
                hidden=hidden, strangers=strangers)).rowcount
            if not done:
                conn.execute(settings_t.insert().values(
                    player_id=player_id, hidden=hidden, strangers=strangers))

    # ------------------------------------------------------------------ follows, blocks

    def tie(self, table: sa.Table, player_id: str, other_id: str, on: bool,
            now: float) -> None:
        """Make (``on``) or remove the tie of ``table`` from ``player_id`` to
        ``other_id``; making one twice is one."""
        with self.engine.begin() as conn:
            conn.execute(table.delete().where(table.c.player_id == player_id,
                                              table.c.other_id == other_id))
            if on:
                conn.execute(table.insert().values(player_id=player_id, other_id=other_id,
                                                   created=now))

    def ties(self, table: sa.Table, player_id: str) -> list[tuple[str, str | None]]:
        """The players ``player_id`` ties to by ``table``, with their names, newest
        first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(table.c.other_id, players_t.c.name)
                .join(players_t, players_t.c.id == table.c.other_id)
                .where(table.c.player_id == player_id)
                .order_by(table.c.created.desc())).all()
        return [(r.other_id, r.name) for r in rows]

    def tied(self, table: sa.Table, player_id: str, other_id: str) -> bool:
        """Whether ``player_id`` ties to ``other_id`` by ``table``."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(table.c.player_id).where(
                table.c.player_id == player_id, table.c.other_id == other_id)).first() \
                is not None

    def blocked_between(self, a: str, b: str) -> bool:
        """Whether either of the two blocks the other."""
        return self.tied(blocks_t, a, b) or self.tied(blocks_t, b, a)

    def blocked_with(self, player_id: str) -> set[str]:
        """The players ``player_id`` blocks or is blocked by."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.union(
                sa.select(blocks_t.c.other_id.label("id")).where(
                    blocks_t.c.player_id == player_id),
                sa.select(blocks_t.c.player_id.label("id")).where(
                    blocks_t.c.other_id == player_id))).all()
        return {r.id for r in rows}

    def blocks_among(self, player_ids: list[str]) -> set[tuple[str, str]]:
        """The blocks, either way, between any two of these players."""
        if len(player_ids) < 2:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(blocks_t.c.player_id, blocks_t.c.other_id).where(
                blocks_t.c.player_id.in_(player_ids),
                blocks_t.c.other_id.in_(player_ids))).all()
        return {(r.player_id, r.other_id) for r in rows}

    # ------------------------------------------------------------------ challenges

    def new_challenge(self, from_id: str, to_id: str, game: dict[str, Any], now: float,
                      ttl: float) -> str:
        challenge_id = "c_" + secrets.token_urlsafe(12)
        with self.engine.begin() as conn:
            conn.execute(challenges_t.insert().values(
                id=challenge_id, from_id=from_id, to_id=to_id, game=json.dumps(game),
                created=now, expires=now + ttl, status="open", table_id=None))
        return challenge_id

    def expire(self, now: float) -> int:
        """Mark every open challenge past its time ``expired``: how many."""
        with self.engine.begin() as conn:
            return int(conn.execute(challenges_t.update().where(
                challenges_t.c.status == "open", challenges_t.c.expires <= now)
                .values(status="expired")).rowcount)

    def challenge(self, challenge_id: str) -> Challenge | None:
        found = self._challenges(challenges_t.c.id == challenge_id)
        return found[0] if found else None

    def challenges_of(self, player_id: str, now: float) -> list[Challenge]:
        """The open challenges a player sent or got, newest first."""
        return self._challenges(
            sa.or_(challenges_t.c.from_id == player_id, challenges_t.c.to_id == player_id),
            challenges_t.c.status == "open", challenges_t.c.expires > now)

    def open_between(self, from_id: str, to_id: str, now: float) -> int:
        """The open challenges ``from_id`` sent ``to_id``."""
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(challenges_t)
                                    .where(challenges_t.c.from_id == from_id,
                                           challenges_t.c.to_id == to_id,
                                           challenges_t.c.status == "open",
                                           challenges_t.c.expires > now)).scalar_one())

    def settle(self, challenge_id: str, status: str, now: float,
               table_id: str | None = None) -> bool:
        """Move an open challenge to ``status`` (once: False if it was no longer open or
        had expired)."""
        with self.engine.begin() as conn:
            return bool(conn.execute(challenges_t.update().where(
                challenges_t.c.id == challenge_id, challenges_t.c.status == "open",
                challenges_t.c.expires > now).values(
                status=status, table_id=table_id)).rowcount)

    def reopen(self, challenge_id: str) -> None:
        """An accepted challenge whose table could not be laid is open again."""
        with self.engine.begin() as conn:
            conn.execute(challenges_t.update().where(
                challenges_t.c.id == challenge_id, challenges_t.c.status == "accepted")
                .values(status="open", table_id=None))

    def _challenges(self, *where: sa.ColumnElement[bool]) -> list[Challenge]:
        sender, target = players_t.alias("sender"), players_t.alias("target")
        query = (sa.select(challenges_t, sender.c.name.label("from_name"),
                           target.c.name.label("to_name"))
                 .join(sender, sender.c.id == challenges_t.c.from_id)
                 .join(target, target.c.id == challenges_t.c.to_id)
                 .where(*where).order_by(challenges_t.c.created.desc()).limit(100))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [Challenge(r.id, r.from_id, r.from_name, r.to_id, r.to_name,
                          json.loads(r.game), r.created, r.expires, r.status, r.table_id)
                for r in rows]
