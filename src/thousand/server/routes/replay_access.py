"""Who may see a game's replay, record and analysis (docs/server.md "Unlisted tables"):
one check for every route that shows a game's moves (server/routes/games.py, analysis.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Header

from ..errors import ServerError
from ..features.player_stats import replay_policy
from ..live.hub import LiveTable

__all__ = ["SEAT_TOKEN_HEADER", "SeatTokenHeader", "check_replay_allowed"]

#: The header a program sends its seat token in, to see the replay or the record of a
#: game kept for its players.
SEAT_TOKEN_HEADER = "X-Seat-Token"
#: A player's seat token, for what a game keeps for its players (:data:`SEAT_TOKEN_HEADER`).
SeatTokenHeader = Annotated[str | None, Header(alias=SEAT_TOKEN_HEADER, max_length=200)]


def _player_asks(live: LiveTable, token: str | None) -> bool:
    return bool(token) and live.seat_of_token(str(token)) is not None


def check_replay_allowed(live: LiveTable, token: str | None) -> None:
    """RULES aside, the privacy of docs/server.md "Unlisted tables": a listed table's game
    is watched by anyone while it runs; an unlisted one's only by its players; once over,
    as :func:`replay_policy` says."""
    shown = replay_policy(live.row) == "public" if live.over else live.row.listed
    if not shown and not _player_asks(live, token):
        raise ServerError("players_only", "this game's replay and record are for its "
                          f"players: send a seat's token in {SEAT_TOKEN_HEADER}",
                          status=403)
