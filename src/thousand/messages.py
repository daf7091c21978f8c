"""Kept for old imports: the codes live in :mod:`thousand.errors`, the words in
:mod:`thousand.texts`."""

from .errors import IllegalMove
from .texts import SUIT_NAMES, SUIT_OF, suit_name

__all__ = ["SUIT_NAMES", "SUIT_OF", "IllegalMove", "suit_name"]
