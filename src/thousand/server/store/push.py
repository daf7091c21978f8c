"""The accounts' Web Push subscriptions (migration 0019; docs/server.md "Web Push").

``push_subscriptions``: one row a browser that asked for turn notices, keyed by its push
service's endpoint (a browser's subscription is one player's: when another account
subscribes the same browser, the row becomes his, so that the first no longer reaches a
device he left), with the keys its messages are encrypted with (``p256dh``, ``auth``: the
browser's, public), the language of the page that subscribed (the notice's words) and
when.  An account has at most :data:`MAX_PER_PLAYER` (its browsers); a new one beyond
them replaces the oldest.  Guests have none: their notice is the page's own.

Every function is one transaction on the store's thread (``hub.db``).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from .tables import Store, metadata, players_t

__all__ = ["MAX_ENDPOINT", "MAX_PER_PLAYER", "PushStore", "Subscription", "push_t"]

#: An endpoint's most characters (the push services' URLs are a few hundred).
MAX_ENDPOINT = 1024
#: The subscriptions (browsers) one account keeps at most.
MAX_PER_PLAYER = 10

# In the store's metadata; migrations/versions/v0018_push.py makes it.
push_t = sa.Table(
    "push_subscriptions", metadata,
    sa.Column("endpoint", sa.String(MAX_ENDPOINT), primary_key=True),
    sa.Column("player_id", sa.String(24), sa.ForeignKey("players.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("p256dh", sa.String(128), nullable=False),
    sa.Column("auth", sa.String(64), nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Index("ix_push_subscriptions_player", "player_id", "created"),
)


@dataclass(frozen=True, slots=True)
class Subscription:
    """A browser's subscription as the Push API gives it (``PushSubscription.toJSON``)
    and the language its notices are worded in."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def info(self) -> dict[str, str | dict[str, str]]:
        """The subscription as pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class PushStore:
    """The subscriptions' rows in ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, player_id: str, sub: Subscription, now: float) -> None:
        """Keep ``sub`` as the account's (the endpoint's row is replaced: a browser is one
        player's); beyond :data:`MAX_PER_PLAYER` the oldest go."""
        with self.store.engine.begin() as conn:
            conn.execute(push_t.delete().where(push_t.c.endpoint == sub.endpoint))
            conn.execute(push_t.insert().values(
                endpoint=sub.endpoint, player_id=player_id, p256dh=sub.p256dh,
                auth=sub.auth, lang=sub.lang, created=now))
            old = conn.execute(
                sa.select(push_t.c.endpoint).where(push_t.c.player_id == player_id)
                .order_by(push_t.c.created.desc(), push_t.c.endpoint)
                .offset(MAX_PER_PLAYER)).scalars().all()
            if old:
                conn.execute(push_t.delete().where(push_t.c.endpoint.in_(old)))

    def remove(self, player_id: str, endpoint: str) -> bool:
        """Forget the account's subscription at ``endpoint``; whether there was one."""
        with self.store.engine.begin() as conn:
            done = conn.execute(push_t.delete().where(
                push_t.c.endpoint == endpoint, push_t.c.player_id == player_id))
        return bool(done.rowcount)

    def gone(self, endpoint: str) -> None:
        """The push service said the subscription is no more (404, 410): forget it."""
        with self.store.engine.begin() as conn:
            conn.execute(push_t.delete().where(push_t.c.endpoint == endpoint))

    def of(self, player_id: str) -> list[Subscription]:
        """The live account's subscriptions, newest first (none for a deleted or closed
        one)."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(
                sa.select(push_t.c.endpoint, push_t.c.p256dh, push_t.c.auth, push_t.c.lang)
                .join(players_t, players_t.c.id == push_t.c.player_id)
                .where(push_t.c.player_id == player_id, players_t.c.kind == "account",
                       players_t.c.deleted.is_(None), players_t.c.closed.is_(None))
                .order_by(push_t.c.created.desc())).all()
        return [Subscription(r.endpoint, r.p256dh, r.auth, r.lang) for r in rows]

    def has(self, player_id: str, endpoint: str) -> bool:
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(push_t.c.endpoint).where(
                push_t.c.endpoint == endpoint,
                push_t.c.player_id == player_id)).first() is not None
