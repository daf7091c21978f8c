"""What a deal is made of and ends in, as plain data: its phases, a trick, a declaration,
its result.  Apart from :mod:`.deal` (the state machine) so that :mod:`.view` (what a
seat sees) can hold them without importing the deal that makes views of itself."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from .cards import POINTS, Card
from .play_rules import DeclarationKind

__all__ = [
    "PHASE_NAMES", "PHASE_TASKS", "DealResult", "Declaration", "Outcome", "Phase", "Trick",
]


class Phase(IntEnum):
    DARK_CHOICE = 0
    AUCTION = 1
    EXCHANGE = 2
    CONTRACT = 3
    REDEAL_OFFER = 4
    PLAY = 5
    DONE = 6
    BUY = 7
    TALON_CHOICE = 8


#: What the player to move does in each phase (a message parameter, see thousand.words.catalogue).
PHASE_TASKS = {
    Phase.DARK_CHOICE: "dark_or_look",
    Phase.AUCTION: "bid",
    Phase.EXCHANGE: "give",
    Phase.CONTRACT: "contract_or_concede",
    Phase.REDEAL_OFFER: "redeal_or_pass",
    Phase.BUY: "buy_or_pass",
    Phase.TALON_CHOICE: "choose_talon",
    Phase.PLAY: "play",
    Phase.DONE: "nothing",
}

PHASE_NAMES = {
    Phase.DARK_CHOICE: "dark choice",
    Phase.AUCTION: "auction",
    Phase.EXCHANGE: "exchange",
    Phase.CONTRACT: "contract",
    Phase.REDEAL_OFFER: "redeal offer",
    Phase.PLAY: "play",
    Phase.DONE: "over",
    Phase.BUY: "buy",
    Phase.TALON_CHOICE: "talon choice",
}


#: How a deal ended (:attr:`DealResult.outcome`).
Outcome = Literal["played", "conceded", "redeal"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: who led, the cards in play order, the trump, who took it."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    trump: int
    winner: int

    @property
    def points(self) -> int:
        return sum(POINTS[c] for _, c in self.cards)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A declaration made by leading a card with ``+``.

    ``kind`` is ``marriage``, ``half_marriage``, ``ace_marriage`` or ``four_nines``;
    ``points`` what it scored (0 for a defender under ``marriage_points_declarer_only``).
    """

    seat: int
    kind: DeclarationKind
    suit: int
    points: int
    trick: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended and what it is worth, before the game's barrel and penalties.

    ``outcome`` is ``played``, ``conceded`` or ``redeal``.  ``points`` are the raw
    points by seat (cards taken + declarations, the declarer's discards included;
    0 for a sitting-out dealer and all 0 in a conceded deal); ``values`` are the
    deal values of RULES §7 (contract ±, rounded defenders' points, concede
    payments, the sitting dealer's talon score; dark and golden doubling applied).
    """

    outcome: Outcome
    declarer: int | None
    bid: int | None
    contract: int | None
    made: bool | None
    dark: bool
    golden: bool
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    values: tuple[int, ...]
    redeal_by: int | None = None
    active: tuple[int, ...] = ()
    dealer: int = 0
