"""Checks on what people type: names and chat lines, and the secret tokens of seats.

Names and chat are stored and sent as plain text (the browser escapes them when it shows
them); what is refused here is what no person types: control characters, lone
surrogates, the invisible direction overrides that make a line read as something else.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import unicodedata

__all__ = [
    "MAX_CHAT",
    "MAX_NAME",
    "check_chat",
    "check_name",
    "hash_token",
    "new_token",
    "seat_token",
    "text_problem",
    "token_matches",
]

#: The longest chat line and player name, in characters.
MAX_CHAT = 200
MAX_NAME = 32

# Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069).
_BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def text_problem(text: str) -> str | None:
    """What no person types in ``text`` (None: nothing): a lone surrogate, a control
    character, a text-direction control."""
    for ch in text:
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return "has a broken character (a lone surrogate)"
        if unicodedata.category(ch) == "Cc":
            return "has a control character"
        if ch in _BIDI:
            return "has a text-direction control character"
    return None


def check_name(value: object) -> str:
    """A player's name: 1 to :data:`MAX_NAME` characters of text, spaces trimmed."""
    if not isinstance(value, str):
        raise ValueError("name: must be a text")
    name = value.strip()
    if not name:
        raise ValueError("name: must not be empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"name: at most {MAX_NAME} characters")
    problem = text_problem(name)
    if problem:
        raise ValueError(f"name: {problem}")
    return name


def check_chat(value: object) -> str:
    """A chat line: 1 to :data:`MAX_CHAT` characters, one line of text."""
    if not isinstance(value, str):
        raise ValueError("text must be a text")
    text = value.strip()
    if not text:
        raise ValueError("text must not be empty")
    if len(text) > MAX_CHAT:
        raise ValueError(f"a chat line is at most {MAX_CHAT} characters")
    problem = text_problem(text)
    if problem:
        raise ValueError(f"text {problem}")
    return text


def new_token() -> str:
    """A seat's secret: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def seat_token(secret: str, table_id: str, seat: int) -> str:
    """The token of a seat held by a player (server/features/accounts.py): derived from the
    player's own secret, not drawn at random, so that the server can give it again to
    the same player on another device (``GET /api/me/seats``) while it still keeps only
    the token's hash.  HMAC-SHA-256 of the table and seat under ``secret``."""
    mac = hmac.new(secret.encode("ascii"), f"{table_id}:{seat}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


def hash_token(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (a token is random, so no salt or
    slow hash is needed: nothing can be guessed from the hash)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)
