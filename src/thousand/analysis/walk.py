"""The decisions of a recorded game, one by one, as the seat to move saw them.

The walk replays the record through the engine (:class:`thousand.engine.game.Game`, the same
path as live play and ``thousand replay``) and stops before every recorded move.  A
``look`` is never recorded (docs/record.md): a seat that could bid dark and did not has
decided to look, so the walk yields that choice as a decision of its own (played
``look``) before the move that followed it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from thousand.engine import moves as mv
from thousand.engine.deal import Deal, Phase
from thousand.engine.game import Game
from thousand.engine.moves import Move
from thousand.engine.record import Record
from thousand.engine.view import View

#: The phase of a decision as the analysis' JSON names it.
PHASE_NAMES = {
    Phase.DARK_CHOICE: "dark", Phase.AUCTION: "auction", Phase.EXCHANGE: "exchange",
    Phase.CONTRACT: "contract", Phase.REDEAL_OFFER: "redeal", Phase.PLAY: "play",
    Phase.BUY: "buy", Phase.TALON_CHOICE: "talon",
}


@dataclass(frozen=True)
class Decision:
    """One move of a record and what its seat knew before it.

    ``game`` is the replayed game at that moment: valid only until the walk goes on (the
    walk applies the move next), so whoever needs it later takes ``game.clone()``.
    """

    deal: int  # 1-based
    index: int  # 0-based index of the move in the deal's recorded moves
    seat: int
    view: View  # the seat's own view before the move
    move: Move  # what was played (LOOK for the implied look)
    game: Game

    @property
    def phase(self) -> str:
        return PHASE_NAMES.get(self.view.phase, self.view.phase.name.lower())

    @property
    def forced(self) -> bool:
        """One legal move only: nothing to decide, never marked."""
        return len(self.view.legal) <= 1

    @property
    def live_deal(self) -> Deal:
        deal = self.game.deal
        assert deal is not None
        return deal


def decisions(record: Record) -> Iterator[Decision]:
    """Every decision of ``record`` in order (the deals the record holds, the last one
    possibly unfinished)."""
    game = Game(record.rules, record.players, record.first_dealer, auto_deal=False)
    for number, deal in enumerate(record.deals, 1):
        game.start_deal(deal.hands, deal.talon, deal.cut, deal.talons)
        for index, move in enumerate(deal.moves):
            seat = game.to_move
            view = game.view(seat)
            if view.phase == Phase.DARK_CHOICE and move != mv.DARK:
                yield Decision(number, index, seat, view, mv.LOOK, game)
                game.apply(mv.LOOK)
                seat = game.to_move
                view = game.view(seat)
            yield Decision(number, index, seat, view, move, game)
            game.apply(move)


def game_before(record: Record, deal: int, index: int) -> Game:
    """The game of ``record`` replayed up to deal ``deal`` (1-based), before its move
    ``index`` (0-based in the deal's recorded moves), each deal dealt as recorded (two
    players' two talons included): the one replay behind every position an analysis or an
    exercise shows."""
    game = Game(record.rules, record.players, record.first_dealer, auto_deal=False)
    for number, dealt in enumerate(record.deals, 1):
        game.start_deal(dealt.hands, dealt.talon, dealt.cut, dealt.talons)
        for move in dealt.moves if number < deal else dealt.moves[:index]:
            game.apply(move)
        if number == deal:
            return game
    raise ValueError(f"the record has no deal {deal}")
