"""The game clock's arithmetic (server/live/time_control.py) and the routes' reading of
a ``time_control`` (server/routes/time_controls.py): no time passes here, the turns'
seconds are given."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel

from thousand.server.errors import ServerError
from thousand.server.live.time_control import (
    AWAY_AFTER,
    CATEGORIES,
    DEFAULT_CATEGORY,
    GRACE,
    GameClock,
    TimeControl,
    category_of,
)
from thousand.server.live.turns import Turns
from thousand.server.routes.time_controls import chosen_control


def test_a_move_takes_its_seconds_and_gives_the_increment() -> None:
    clock = GameClock.start(TimeControl(300, 3), 3)
    assert clock.left == (300, 300, 300) and clock.missed == (0, 0, 0)
    clock = clock.moved(1, 12.5)
    assert clock.left == (300, 290.5, 300)
    assert clock.remaining(1, 100) == 190.5 and clock.remaining(1, 1000) == 0
    # a move after the time ran out leaves the increment alone, never less than nothing
    assert clock.moved(0, 999).left[0] == 3


def test_running_out_gives_a_grace_and_three_running_mark_away() -> None:
    clock = GameClock.start(TimeControl(60, 2), 3)
    for n in range(1, AWAY_AFTER + 1):
        assert not clock.away(2)
        clock = clock.ran_out(2)
        assert clock.missed[2] == n and clock.left[2] == GRACE  # increment below grace
    assert clock.away(2) and not clock.away(0)
    clock = clock.moved(2, 1.0)  # his own move again: not away, the grace less a second
    assert not clock.away(2) and clock.missed[2] == 0 and clock.left[2] == GRACE - 1 + 2
    # the increment when it is more than the grace; the base when that is less
    assert GameClock.start(TimeControl(600, 10), 2).ran_out(0).left[0] == 10
    assert GameClock.start(TimeControl(1, 0.5), 2).ran_out(0).left[0] == 1


def test_a_change_leaves_the_old_clock_as_it_was() -> None:
    """A move the store refused is taken back: the clock before it still holds."""
    before = GameClock.start(CATEGORIES["fast"], 3)
    after = before.moved(0, 20).ran_out(1)
    assert before == GameClock.start(CATEGORIES["fast"], 3) and after != before


def test_the_stored_json_comes_back_the_same() -> None:
    clock = GameClock.start(CATEGORIES["normal"], 4).moved(3, 7.25).ran_out(0)
    data = clock.to_json()
    assert data["category"] == "normal" and data["base"] == 600 and data["increment"] == 5
    assert GameClock.from_json(data, 4) == clock
    # a state of fewer seats (never written so, but read safely) is filled with the base
    short = GameClock.from_json({"base": 60, "increment": 1, "left": [5.0]}, 3)
    assert short.left == (5.0, 60, 60) and short.missed == (0, 0, 0)


def test_categories_are_named_and_ordered_from_fast_to_unhurried() -> None:
    assert list(CATEGORIES) == ["fast", "normal", "unhurried"]
    assert DEFAULT_CATEGORY in CATEGORIES
    bases = [c.base for c in CATEGORIES.values()]
    assert bases == sorted(bases)
    assert category_of(CATEGORIES["unhurried"]) == "unhurried"
    assert category_of(TimeControl(61, 1)) is None


class _Body(BaseModel):
    clock: float | None = None
    time_control: object = None


def test_the_routes_read_a_category_a_control_or_the_default() -> None:
    assert chosen_control(_Body(time_control="fast"), 5, default=False) == CATEGORIES["fast"]
    assert chosen_control(_Body(time_control={"base": 90, "increment": 2}), 5,
                          default=False) == TimeControl(90, 2)
    assert chosen_control(_Body(), 5, default=False) is None
    assert chosen_control(_Body(), 5, default=True) == CATEGORIES[DEFAULT_CATEGORY]
    # a move clock given (even null) is a choice: no default then
    assert chosen_control(_Body(clock=30), 5, default=True) is None
    assert chosen_control(_Body(clock=None), 5, default=True) is None
    for bad in ("slow", {"base": 1, "increment": 0}, {"base": 60}, {"base": 60, "increment": -1},
                {"base": True, "increment": 1}, {"base": 60, "increment": 1, "x": 0}, 60):
        with pytest.raises(ServerError):
            chosen_control(_Body(time_control=bad), 5, default=False)
    with pytest.raises(ServerError):
        chosen_control(_Body(clock=30, time_control="fast"), 5, default=True)


class _Live:
    """A live table as its turns see it (server/live/turns.py TurnTable), no more: two
    people (seats 0 and 2) and a bot, at a game clock of a minute and two seconds."""

    def __init__(self) -> None:
        self.row = SimpleNamespace(status="playing", clock=None,
                                   game_clock=GameClock.start(TimeControl(60, 2), 3).to_json())
        self.seats = [SimpleNamespace(kind=k) for k in ("human", "bot", "human")]
        self.table = SimpleNamespace(to_move=0, version=5)
        self.standin = [False] * 3
        self.closed = self.over = False
        self.abandoned: set[int] = set()
        self.sent: list[dict[str, Any]] = []
        self.turns = Turns(self)  # type: ignore[arg-type]

    def bot_plays(self, seat: int) -> bool:
        return self.seats[seat].kind == "bot" or self.standin[seat]

    def broadcast(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def broadcast_seats(self) -> None:
        self.sent.append({"type": "seats"})

    def clock_json(self) -> dict[str, Any] | None:
        return self.turns.game_json()


def test_the_turns_measure_a_move_by_the_clock_they_are_given() -> None:
    """The turns' own time source is injected: a fake one, moved by hand."""
    async def main() -> None:
        live = _Live()
        turns = live.turns
        now = [1000.0]
        turns.now = lambda: now[0]
        turns.kick()  # seat 0's turn: his clock runs
        assert live.sent[-1]["type"] == "clock" and live.sent[-1]["seat"] == 0
        now[0] += 12.5
        shown = turns.game_json()
        assert shown is not None and shown["left"] == 47.5 and shown["remaining"][0] == 47.5
        game = turns.charge(0)
        assert game is not None and game.left[0] == 60 - 12.5 + 2
        turns.charged(0, game)  # stored: everybody is told his time after the move
        told = live.sent[-1]
        assert told["type"] == "clock" and told["seat"] is None
        assert told["remaining"] == [49.5, 60, 60]
        assert turns.charge(1) is None  # a bot's seat has no clock
        live.table.to_move, live.table.version = 2, 7
        turns.kick()
        now[0] += 500  # far past seat 2's time: never less than nothing
        shown = turns.game_json()
        assert shown is not None and shown["seat"] == 2 and shown["left"] == 0
        turns.stop()

    asyncio.run(main())
