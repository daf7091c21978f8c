"""``thousand serve``: the game server for the browser (docs/server.md).

:func:`create_app` builds the FastAPI application: the pages of ``thousand/web``, the
JSON API, and one WebSocket per table connection.  The server is the only authority on
every game: moves go one at a time through :class:`thousand.table.Table`, each accepted
move is committed to the store before anybody hears of it, and a restarted server
rebuilds every unfinished table from its move log and goes on from the same move.
"""

from __future__ import annotations

from .app import create_app, default_db_url

__all__ = ["create_app", "default_db_url"]
