"""When a table's game is over, rate it (docs/server.md "Ratings").

:func:`rate_finished` listens to a table's game ending (server/features/events.py),
announced once the game's last move is stored.  Whether the game
counts, and in which family, is :func:`thousand.site.ratings.rating_family`'s decision
(a preset's rules, whole game); the server adds what only it knows: a table where somebody
asked for a hint or played with open hands is training, not rated.  The rating runs on the
store's thread (``Hub.write``), never on the event loop; then every connection is sent
``{"type": "ratings", "changes": [...]}`` and the table's snapshot and info carry the same
list from then on («+31 → 1531» on the page); a game that is not rated is told so at
once (``"changes": []`` and ``"why"``: ``training`` or ``rules``).  A failure to rate is
logged and changes nothing else: the game stays over and stored.
"""

from __future__ import annotations

import logging
import time
import weakref
from typing import TYPE_CHECKING, Any

from thousand.engine.rules import Rules
from thousand.site.ratings import rating_family

from ..store import ratings as site_store
from . import player_stats

if TYPE_CHECKING:
    from ..live.hub import LiveTable

__all__ = ["count_finished", "family_of", "listed", "load_ratings", "rate_finished", "rated",
           "shown"]

log = logging.getLogger("thousand.server")

#: each live table's rating changes once its game is rated (None: not yet)
_changes: weakref.WeakKeyDictionary[LiveTable, list[dict[str, Any]]] = (
    weakref.WeakKeyDictionary())


def ratings_of(live: LiveTable) -> list[dict[str, Any]] | None:
    """The rating changes the table's game made ([] if it was not rated; None while
    it is not rated yet)."""
    return _changes.get(live)


def rated(live: LiveTable) -> bool:
    """Whether the game, finished now, would be rated (its rules and no hint)."""
    return rating_family(live.table.rules, training=live.assisted) is not None


def shown(live: LiveTable) -> dict[str, Any]:
    """The ratings' part of a table's snapshot."""
    return {"ratings": ratings_of(live), "rated": rated(live)}


def listed(live: LiveTable) -> dict[str, Any]:
    """The ratings' part of a table's line in the list of tables."""
    return {"ratings": ratings_of(live)}


def family_of(live: LiveTable) -> str | None:
    """The family the table's game is rated in, or None (not rated)."""
    rules = Rules.from_json(live.row.rules)
    return rating_family(rules, training=live.assisted)


async def rate_finished(live: LiveTable) -> None:
    """Count the table's finished game for its players' pages
    (server/features/player_stats.py), rate it and tell everybody at it what the rating did."""
    await count_finished(live)
    try:
        family = family_of(live)
        if family is None:
            # said at once, with why, so that a game that does not count never ends
            # silently: training (a hint, open hands) or rules no family rates
            _changes[live] = []
            live.broadcast({"type": "ratings", "changes": [],
                            "why": "training" if live.assisted else "rules"})
            return
        game = live.table.game
        bots = {s.seat: s.level or "heuristic" for s in live.seats if s.kind == "bot"}
        scores, winner = lost_by(list(game.scores), game.winner, live.abandoned)
        changes = await live.hub.write(site_store.rate_table, live.hub.store, live.id,
                                       family, scores, winner, bots)
    except Exception:
        log.exception("table %s: the game could not be rated", live.id)
        return
    _changes[live] = made = [c.to_json() for c in changes]
    if changes:
        live.broadcast({"type": "ratings", "changes": made})


def lost_by(scores: list[int], winner: int | list[int] | None,
            left: set[int]) -> tuple[list[int], int | list[int] | None]:
    """The scores and winners the rating takes when the people of ``left`` abandoned the
    game (:meth:`LiveTable.abandon`): each placed below everybody who stayed, whatever his
    stand-in made of his seat, and no winner."""
    if not left:
        return scores, winner
    floor = min(scores) - 1
    out = [floor - 1 if seat in left else score for seat, score in enumerate(scores)]
    won = [winner] if isinstance(winner, int) else list(winner or [])
    kept = [w for w in won if w not in left]
    return out, (kept if len(kept) != 1 else kept[0]) if kept else None


async def count_finished(live: LiveTable) -> None:
    """Add the finished game to its players' totals and games (a failure is logged: the
    game stays over and stored, and its rating is still made)."""
    try:
        row = live.row
        bots = {s.seat: s.level or "heuristic" for s in live.seats if s.kind == "bot"}
        stats = player_stats.game_stats(live.table.game)
        await live.hub.write(player_stats.record_game, live.hub.store, live.id, stats,
                             bots, row.finished or time.time(),
                             player_stats.replay_policy(row) == "public")
    except Exception:
        log.exception("table %s: the game could not be counted for its players", live.id)


async def load_ratings(live: LiveTable) -> None:
    """A table rebuilt from the store: a finished one's rating changes, as they were
    made."""
    if live.row.status != "over":
        return
    changes = await live.hub.db(site_store.changes_of_table, live.hub.store, live.id)
    _changes[live] = [c.to_json() for c in changes]

