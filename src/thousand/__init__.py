"""Тысяча (Thousand): the rules engine, bots and front ends.

The engine speaks in codes and imports no words; here, once, the package hands it the
message catalogue's wording, so that an illegal move reads in English (``str()``) whatever
part of the package was imported first (engine/errors.py says why).
"""

from thousand.engine.errors import word_illegal_moves
from thousand.words.catalogue import illegal_text

__version__ = "0.1.0"

word_illegal_moves(illegal_text)
