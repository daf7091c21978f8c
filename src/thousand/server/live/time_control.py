"""A game clock with an increment (Fischer), the arithmetic alone (docs/server.md "Time
controls").

Besides the older move clock (a fixed number of seconds for every move: ``clock``), a
table may play to a **time control**: every person's seat has ``base`` seconds for the
whole game, and gets ``increment`` seconds more after each of its moves.  A seat whose
time runs out does not lose the game: the stand-in bot plays that one move for it, and
the seat gets only the increment (at least :data:`GRACE` seconds) for the next; after
:data:`AWAY_AFTER` timed-out moves in a row it is marked *away* (shown to everybody) and
the stand-in plays on until its person is back; his next own move clears the mark.

The categories named in the lobby and quick play (:data:`CATEGORIES`), chosen for a card
game in which a person decides some 10 to 30 times a deal and a game lasts several deals:
five minutes and three seconds a move is a brisk game, ten and five the usual one (the
default of rated quick play and tournaments: :data:`DEFAULT_CATEGORY`, so that no table
waits for ever), twenty and ten an unhurried one.

Nothing here reads a clock: the caller says how many seconds a turn took (the live
table's :class:`~thousand.server.live.turns.Turns` measures them), so that the tests
drive it with a fake time.  The state is stored with the moves it follows (the store's
``tables.game_clock``, written in the same transaction and fence as the moves), so that
a restart or another worker's take-over resumes it; the time a turn ran before a restart
is not charged (nobody could move while the table was down).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

__all__ = [
    "AWAY_AFTER",
    "CATEGORIES",
    "DEFAULT_CATEGORY",
    "GRACE",
    "MAX_BASE",
    "MAX_INCREMENT",
    "GameClock",
    "TimeControl",
    "category_of",
]

#: The least time a seat gets for its next move after its time ran out.
GRACE = 5.0
#: Timed-out moves in a row after which a seat is marked away.
AWAY_AFTER = 3
#: The largest base and increment a table may ask for (seconds).
MAX_BASE, MAX_INCREMENT = 3 * 3600.0, 120.0


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game's time control: ``base`` seconds per seat, ``increment`` more a move."""

    base: float
    increment: float

    def to_json(self) -> dict[str, Any]:
        return {"base": self.base, "increment": self.increment,
                "category": category_of(self)}


#: The named categories, by the name the lobby, quick play and the API use.
CATEGORIES: dict[str, TimeControl] = {
    "fast": TimeControl(300.0, 3.0),
    "normal": TimeControl(600.0, 5.0),
    "unhurried": TimeControl(1200.0, 10.0),
}
#: The time control of rated quick play and tournaments when none is chosen.
DEFAULT_CATEGORY = "normal"


def category_of(control: TimeControl) -> str | None:
    """The category's name of ``control``, or None for one of its own."""
    return next((name for name, c in CATEGORIES.items() if c == control), None)


@dataclass(frozen=True, slots=True)
class GameClock:
    """A table's time control and each seat's state: the seconds ``left`` and how many
    of its moves in a row timed out (``missed``).  Each change returns a new clock: a
    move taken back (the store refused it) leaves the old one as it was."""

    control: TimeControl
    left: tuple[float, ...]
    missed: tuple[int, ...] = field(default=())

    @classmethod
    def start(cls, control: TimeControl, seats: int) -> GameClock:
        return cls(control, (control.base,) * seats, (0,) * seats)

    def remaining(self, seat: int, spent: float) -> float:
        """The seconds ``seat`` has left ``spent`` seconds into its turn."""
        return max(0.0, self.left[seat] - spent)

    def moved(self, seat: int, spent: float) -> GameClock:
        """``seat``'s person moved after ``spent`` seconds: they are taken from its time,
        the increment added, and its timed-out moves in a row are none again."""
        left = self.remaining(seat, spent) + self.control.increment
        return self._with(seat, left, 0)

    def ran_out(self, seat: int) -> GameClock:
        """``seat``'s time ran out (a stand-in plays the move): it gets the increment, at
        least :data:`GRACE` (or the base, if less), for its next move, and one more
        timed-out move in a row."""
        grace = max(self.control.increment, min(GRACE, self.control.base))
        return self._with(seat, grace, self.missed[seat] + 1)

    def away(self, seat: int) -> bool:
        """Whether ``seat`` timed out :data:`AWAY_AFTER` moves in a row."""
        return self.missed[seat] >= AWAY_AFTER

    def _with(self, seat: int, left: float, missed: int) -> GameClock:
        lefts, misses = list(self.left), list(self.missed)
        lefts[seat], misses[seat] = round(left, 3), missed
        return replace(self, left=tuple(lefts), missed=tuple(misses))

    # ------------------------------------------------------------------ the store's JSON

    def to_json(self) -> dict[str, Any]:
        """As the store keeps it (``tables.game_clock``) and the pages read it."""
        return {**self.control.to_json(), "left": list(self.left), "missed": list(self.missed)}

    @classmethod
    def from_json(cls, data: dict[str, Any], seats: int) -> GameClock:
        control = TimeControl(float(data["base"]), float(data["increment"]))
        left = [float(x) for x in data.get("left", [])][:seats]
        missed = [int(x) for x in data.get("missed", [])][:seats]
        left += [control.base] * (seats - len(left))
        missed += [0] * (seats - len(missed))
        return cls(control, tuple(left), tuple(missed))
