"""Random draws for dealing: from a seed and a purpose alone, cheap, and unpredictable.

A seeded game deals deal k from ``Draws(seed, f"deal/{k}")``: the same cards whether the
game ran from its start or was restored from its record before deal k (docs/protocol.md),
and nothing about deal k tells anything about deal k+1.  The numbers come from BLAKE2b
keyed with the seed (a pseudo-random function), so with a secret seed from the system's
cryptographic source (a server table's) the cards cannot be predicted; starting a draw
costs one hash, not the seeding of a Mersenne Twister (which made every deal 3% slower).
Without a seed, the system's cryptographic source is used directly.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["Draws"]


class Draws:
    """Whole numbers below a bound, from ``(seed, purpose)``; ``seed=None``: the system's
    cryptographic source."""

    __slots__ = ("_block", "_buffer", "_key", "_pos", "_purpose")

    def __init__(self, seed: int | None, purpose: str) -> None:
        self._key = (
            None if seed is None
            else seed.to_bytes(max(1, (seed.bit_length() + 8) // 8), "big", signed=True)[:64]
        )
        self._purpose = purpose.encode()
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1`` (``n`` at most 2**16; the bias of the
        multiply-shift reduction is below n / 2**32)."""
        if self._key is None:
            return secrets.randbelow(n)
        if self._pos + 4 > len(self._buffer):
            self._buffer = hashlib.blake2b(
                self._purpose + self._block.to_bytes(4, "big"), key=self._key
            ).digest()
            self._block += 1
            self._pos = 0
        x = int.from_bytes(self._buffer[self._pos : self._pos + 4], "big")
        self._pos += 4
        return (x * n) >> 32

    def shuffle(self, items: list[int]) -> None:
        """Fisher–Yates, in place.  With a seed, all the swaps come from one 512-bit block
        read as a mixed-radix number (24! is about 2**79, so the bias is below 2**-400)."""
        if self._key is None:
            for i in range(len(items) - 1, 0, -1):
                j = secrets.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        x = int.from_bytes(hashlib.blake2b(self._purpose + b"/shuffle", key=self._key).digest())
        for i in range(len(items) - 1, 0, -1):
            x, j = divmod(x, i + 1)
            items[i], items[j] = items[j], items[i]
