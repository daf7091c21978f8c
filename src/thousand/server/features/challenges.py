"""Challenges (docs/server.md "Presence, challenges and friends"): one player asks another
to play a game he describes — the preset, the rules' options, the move clock, bots of
chosen levels in the other seats; the other accepts or declines, the first may cancel, and
an unanswered one expires after :data:`CHALLENGE_TTL` seconds.  An accepted challenge lays
the table with both seated (the challenger in the first seat), and both players' lobby
sockets are told where it is, on whichever worker they are (server/features/presence.py).

Who may challenge whom: not oneself, not anybody one blocks or who blocks one, not a
player who takes challenges from the players he follows only (``strangers`` off) unless
he follows one; and one open challenge from a player to another at a time.  How often one
challenges is the ``challenge`` limit of server/limits.py, per player and per address.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from thousand.engine.rules import Rules

from ..checks import hash_token, seat_token
from ..errors import ServerError
from ..store.accounts import seat_secrets
from ..store.social import Challenge, SocialStore, follows_t
from ..store.tables import SeatRow
from .matchmaking import bot_name

if TYPE_CHECKING:
    from ..live.hub import Hub
    from .presence import Presence

__all__ = ["CHALLENGE_TTL", "Challenges"]

#: Seconds a challenge waits for its answer.
CHALLENGE_TTL = 300.0


def _refused(code: str, message: str, status: int = 403) -> ServerError:
    return ServerError(code, message, status=status)


class Challenges:
    """The challenges of one server: the store keeps them, the presence carries the
    news."""

    def __init__(self, hub: Hub, social: SocialStore, presence: Presence) -> None:
        self.hub, self.social, self.presence = hub, social, presence

    async def send(self, sender: str, target: str, game: dict[str, Any]) -> Challenge:
        """Challenge ``target`` from ``sender`` to ``game`` (``preset``, ``options``,
        ``clock``, ``bots``: a level for each seat after the two people's), checked by
        the caller against the rules; the challenge as stored."""
        hub, social, now = self.hub, self.social, time.time()
        if target == sender:
            raise _refused("bad_request", "one cannot challenge oneself", 400)
        if not await hub.db(social.is_person, target):
            raise _refused("not_found", "no such player", 404)
        if await hub.db(social.blocked_between, sender, target):
            raise _refused("blocked", "this player cannot be challenged by you")
        settings = await hub.db(social.settings, [target])
        if not settings[target][1] and not await hub.db(social.tied, follows_t, target,
                                                         sender):
            raise _refused("strangers", "this player takes challenges only from the "
                           "players he follows")
        if await hub.db(social.open_between, sender, target, now):
            raise _refused("already_challenged", "you have challenged this player "
                           "already: wait for the answer", 409)
        challenge_id = await hub.db(social.new_challenge, sender, target, game, now,
                                    CHALLENGE_TTL)
        return await self._told(challenge_id)

    async def answer(self, player: str, challenge_id: str, action: str) -> Challenge:
        """``accept`` or ``decline`` (the challenged player), ``cancel`` (the
        challenger): the challenge as it now is; an accepted one has its table."""
        hub = self.hub
        found = await hub.db(self.social.challenge, challenge_id)
        if found is None or player not in (found.from_id, found.to_id):
            raise _refused("not_found", "no such challenge", 404)
        mine = found.to_id if action in ("accept", "decline") else found.from_id
        if player != mine:
            raise _refused("not_yours", "this challenge is not yours to "
                           f"{action}", 403)
        status = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}[action]
        table_id = secrets.token_urlsafe(12) if action == "accept" else None
        if not await hub.db(self.social.settle, challenge_id, status, time.time(),
                            table_id):
            raise _refused("challenge_over", "this challenge is no longer open", 409)
        if table_id is not None:
            try:
                await self._lay(found, table_id)
            except BaseException:  # no room for a table now (503): it may be tried again
                await hub.db(self.social.reopen, challenge_id)
                raise
        return await self._told(challenge_id)

    async def _told(self, challenge_id: str) -> Challenge:
        """The challenge as stored, told to both players' lobby sockets."""
        found = await self.hub.db(self.social.challenge, challenge_id)
        assert found is not None
        message = {"type": "challenge", "challenge": found.json()}
        self.presence.notify(found.to_id, message)
        self.presence.notify(found.from_id, message)
        return found

    async def _lay(self, c: Challenge, table_id: str) -> None:
        """The table of an accepted challenge: the challenger in seat 0, the challenged
        player in seat 1 (each seat's token derived from his secret, so that his pages
        find it: ``GET /api/me/seats``), bots in the others."""
        hub, game = self.hub, c.game
        rules = Rules.from_json({"preset": game["preset"], **game.get("options", {})})
        keys = await hub.db(seat_secrets, hub.store, [c.from_id, c.to_id])
        seats = [SeatRow(0, "human", None, c.from_name or "Игрок 1"),
                 SeatRow(1, "human", None, c.to_name or "Игрок 2")]
        seats[1].token_hash = hash_token(seat_token(keys[c.to_id], table_id, 1))
        seats[1].player_id = c.to_id
        levels = list(game.get("bots") or [])
        for i in range(2, rules.players):
            seats.append(SeatRow(i, "bot", levels[i - 2] if i - 2 < len(levels)
                                 else "heuristic", bot_name(i)))
        await hub.create(rules, seats, game.get("clock"), True,
                         owner=(c.from_id, keys[c.from_id]), table_id=table_id)

    async def expire(self) -> int:
        """Mark the challenges past their time expired (called now and then)."""
        return await self.hub.db(self.social.expire, time.time())
