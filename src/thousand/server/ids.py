"""What an id in a path may be: a table's or a tournament's.

Both are made by ``secrets.token_urlsafe`` (URL-safe base64, 12 to 16 characters); a path
segment of any other shape cannot name one, so a route refuses it with a 404 before it
asks the store or the other workers.  One pattern for every route, so that a table the
lobby can open is a table the replay, the socket and the API can open too.
"""

from __future__ import annotations

import re

__all__ = ["is_id"]

_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_id(text: str) -> bool:
    """Whether ``text`` has the shape of a table's or a tournament's id."""
    return _ID.fullmatch(text) is not None
