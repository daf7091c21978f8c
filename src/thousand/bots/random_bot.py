"""``random``: a uniformly random legal move.  The floor every other bot must beat."""

from __future__ import annotations

import random

from thousand.engine.moves import LOOK, Move
from thousand.engine.view import View


class RandomBot:
    """Picks any legal move with equal chance (but always looks at its cards rather
    than bidding dark blind, so that its games stay comparable)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        legal = view.legal
        if LOOK in legal:
            return LOOK
        return self.rng.choice(legal)

    def explain(self, view: View, lang: str = "en") -> tuple[Move, str]:
        move = self.choose(view)
        return move, ("случайный ход" if lang == "ru" else "a random move")
