"""A block at the table (docs/server.md "Presence, challenges and friends"): a player who
blocks another does not get his chat at a table where both sit — the table's own mute
(``LiveTable.muted``), set for him whenever a seat's connection joins, so that it holds
however they came to sit together (a table laid in the lobby, a tournament, a rematch).
Quick play never seats them together (server/features/matchmaking.py), and neither may
challenge the other (server/features/challenges.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..store.social import SocialStore

if TYPE_CHECKING:
    from ..live.hub import LiveTable

__all__ = ["mute_blocked"]


async def mute_blocked(live: LiveTable) -> None:
    """Mute, for each seated player, the seats of the players he blocks."""
    seats = {s.player_id: s.seat for s in live.seats if s.player_id is not None}
    if len(seats) < 2:
        return
    pairs = await live.hub.db(SocialStore(live.hub.store).blocks_among, list(seats))
    for blocker, blocked in pairs:
        live.muted.setdefault(seats[blocker], set()).add(seats[blocked])
