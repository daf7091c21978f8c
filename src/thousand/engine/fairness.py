"""A deal anyone can check: the table commits to each deal's cards before it is played.

When a deal starts, the table publishes ``sha256(salt + ":" + deal)``, where ``deal`` is the
cards dealt written out (each seat's hand, then the talon, in record notation; with two
players talon 1 and talon 2 apart, so that which is which is committed too) and ``salt``
a secret of 32 random bytes; when the deal ends it reveals the salt.  Anybody holding the
record can then recompute the hash from the recorded cards and the salt: the cards cannot
have been changed after the commitment, and the salt (unknown while the deal is played)
keeps the commitment from telling anything about the cards.

The salt is derived from the table's secret seed with HMAC-SHA256, so a table restored
after a restart publishes the same commitments.  ``thousand verify RECORD`` checks every
deal of a record (docs/record.md "commitment").
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from .cards import Mask, card_str, cards_of

__all__ = ["commitment", "deal_text", "salt_for", "verify_commitment"]


def deal_text(hands: Sequence[Mask], talon: Mask, talons: Sequence[Mask] = ()) -> str:
    """The cards of a deal as the commitment hashes them: ``"AH KH …|…|…|9S KD QC"`` (each
    seat's hand in the engine's order, then the talon; a sitting-out dealer's hand is
    empty).  Two players: ``"…|…|TS AC|QS QC"``, talon 1 then talon 2 (``talons``), since
    the declarer chooses one unseen and a table must not be able to swap them."""
    laid = (*hands, *(talons or (talon,)))
    parts = [" ".join(card_str(c) for c in cards_of(h)) for h in laid]
    return "|".join(parts)


def salt_for(seed: int, deal_index: int) -> str:
    """The secret salt of deal ``deal_index`` (0-based) of the table with ``seed``."""
    key = seed.to_bytes((seed.bit_length() + 8) // 8 or 1, "big", signed=True)
    return hmac.new(key, f"thousand/salt/{deal_index}".encode(), hashlib.sha256).hexdigest()


def commitment(
    hands: Sequence[Mask], talon: Mask, salt: str, talons: Sequence[Mask] = ()
) -> str:
    """The published hash of a deal's cards under ``salt``."""
    return hashlib.sha256(f"{salt}:{deal_text(hands, talon, talons)}".encode()).hexdigest()


def verify_commitment(
    hands: Sequence[Mask], talon: Mask, sha256: str, salt: str, talons: Sequence[Mask] = ()
) -> bool:
    """Whether the cards dealt are those the table committed to."""
    return hmac.compare_digest(commitment(hands, talon, salt, talons), sha256)
