"""``thousand serve``: the game server for the browser (docs/server.md).

:func:`create_app` builds the FastAPI application: the pages of ``thousand/web``, the
JSON API, and one WebSocket per table connection.  The server is the only authority on
every game: moves go one at a time through :class:`thousand.engine.table.Table`, each accepted
move is committed to the store before anybody hears of it, and a restarted server
rebuilds every unfinished table from its move log and goes on from the same move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app, default_db_url

__all__ = ["create_app", "default_db_url"]


def __getattr__(name: str) -> Any:
    """``create_app`` and ``default_db_url`` imported on first use: a bot process
    (server/live/bot_pool.py) imports this package for its pool alone, and FastAPI would
    double its memory and its start."""
    if name in __all__:
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
