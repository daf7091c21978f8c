"""The site's features listen to the live tables (docs/architecture.md "The server's
rooms"): ``create_app`` calls :func:`subscribe` once for its hub.

The order of the subscriptions is the order of the effects: when a game ends its
players' ratings are made and told before a tournament records the table (and may lay
the next round); a snapshot shows the ratings, then the rematch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import blocks, ratings, rematch, tournaments

if TYPE_CHECKING:
    from ..live.hub import Hub
    from .daily import Daily
    from .moderation import Moderation
    from .push import TurnPush

__all__ = ["subscribe"]


def subscribe(hub: Hub, moderation: Moderation | None = None,
              daily: Daily | None = None, push: TurnPush | None = None) -> None:
    """The ratings, the tournaments, the rematch and the blocks listen to ``hub``'s
    tables; the moderation checks their chat; the deal of the day scores its tables; the
    turn notices by push (when the site sends them) hear whose move it is."""
    events = hub.events
    events.game_over += [ratings.rate_finished, tournaments.table_over]
    events.rebuilt.append(ratings.load_ratings)
    events.started.append(tournaments.resume)
    events.closing.append(tournaments.refuse_close)
    events.rematch_asked.append(rematch.ask)
    events.shown += [ratings.shown, rematch.shown]
    events.listed.append(ratings.listed)
    events.shown_at_end.append(rematch.shown)
    events.seated.append(blocks.mute_blocked)
    if moderation is not None:
        events.chatting.append(moderation.check_chat)
    if daily is not None:
        events.game_over.append(daily.game_over)
        events.rebuilt.append(daily.rebuilt)
        events.closing.append(daily.refuse_close)
    if push is not None:
        events.turn.append(push.turn)
