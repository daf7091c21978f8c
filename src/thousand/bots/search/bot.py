"""The search bot: :class:`SearchBot` puts the phases' searches together (a mixin per phase,
each in its module) behind one :meth:`~SearchBot.decide_among`, with the decision's random
source and budget; ``strong`` and ``expert`` are two of its configs, registered as levels."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable

from thousand.engine.deal import Phase
from thousand.engine.moves import Move
from thousand.engine.view import View
from thousand.solver import Solver

from ..base import Reason, ReasoningBot
from ..heuristic import HeuristicBot
from .auction import AuctionSearch
from .buy import BuySearch
from .config import EXPERT, STRONG, SearchConfig
from .exchange import ExchangeSearch
from .play import PlaySearch
from .samples import _Budget
from .talon_choice import TalonChoiceSearch


class SearchBot(
    PlaySearch, ExchangeSearch, AuctionSearch, BuySearch, TalonChoiceSearch, ReasoningBot
):
    """The search bot (:mod:`thousand.bots.search`); ``strong`` and ``expert`` are two
    configs."""

    def __init__(
        self, seed: int | None = None, config: SearchConfig = STRONG, name: str = "strong",
        native: bool | None = None,
    ) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 30)
        self.config = config
        self.name = name
        self.solver = Solver(native=native)
        self.fallback = HeuristicBot(self.seed)
        self._opts = None
        self.last_samples = 0

    def decide(self, view: View) -> tuple[Move, Reason]:
        self.last_samples = 0
        return super().decide(view)

    def decide_among(self, view: View) -> tuple[Move, Reason]:
        """The phase's decision (:data:`_DECIDERS`); the heuristic bot's where the search
        has none (no deal could be drawn) or a phase has no search."""
        legal = view.legal
        rng, budget = self.search_start(view)
        decider = _DECIDERS.get(view.phase)
        out = decider(self, view, rng, budget) if decider is not None else None
        if out is None or out[0] not in legal:
            move, why = self.fallback.decide(view)
            return move, why
        return out

    def search_start(self, view: View) -> tuple[random.Random, _Budget]:
        """The decision's random source (seeded by the bot's seed and the position) and
        budget: with a fixed sample count the same view gets the same deals."""
        rng = random.Random(self._decision_seed(view))
        budget = _Budget(self.config.time_limit, self.config.min_samples,
                         self.config.max_samples)
        return rng, budget

    def _decision_seed(self, view: View) -> int:
        key = f"{self.seed}|{view.seat}|{view.hand}|{view.dealer}|{','.join(view.history)}"
        if view.game is not None:
            key += f"|{view.game.deal_number}|{view.game.scores}"
        return zlib.crc32(key.encode())


#: each phase's decision, the move with its reason (:mod:`thousand.bots.valuation` has the
#: same table of the searches behind them, which value every move)
_DECIDERS: dict[Phase, Callable[[SearchBot, View, random.Random, _Budget], tuple[Move, Reason]]] = {
    Phase.PLAY: SearchBot._play,
    Phase.AUCTION: SearchBot._auction,
    Phase.EXCHANGE: SearchBot._exchange,
    Phase.CONTRACT: SearchBot._contract,
    Phase.DARK_CHOICE: SearchBot._dark,
    Phase.REDEAL_OFFER: SearchBot._redeal_offer,
    Phase.BUY: SearchBot._buy,
    Phase.TALON_CHOICE: SearchBot._talon_choice,
}


def strong(seed: int | None = None) -> SearchBot:
    return SearchBot(seed, STRONG, "strong")


def expert(seed: int | None = None) -> SearchBot:
    return SearchBot(seed, EXPERT, "expert")


def _register() -> None:
    from .. import register_bot

    register_bot(
        "strong", strong,
        ("samples the hidden cards and solves each deal (about 0.3 s a move)",
         "перебирает возможные расклады и решает каждый (около 0,3 с на ход)"),
    )
    register_bot(
        "expert", expert,
        ("the strong bot with a bigger budget that also reads the cards played "
         "(about 1 s a move)",
         "как сильный, но думает дольше и делает выводы из сыгранных карт "
         "(около 1 с на ход)"),
    )


_register()
