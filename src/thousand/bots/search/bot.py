"""The search bot: :class:`SearchBot` puts the phases' searches together (a mixin per phase,
each in its module) behind one :meth:`~SearchBot.decide_among`, with the decision's random
source and budget; ``strong`` and ``expert`` are two of its configs, registered as levels."""

from __future__ import annotations

import random
import zlib

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
        legal = view.legal
        rng, budget = self.search_start(view)
        phase = view.phase
        if phase == Phase.PLAY:
            out = self._play(view, rng, budget)
        elif phase == Phase.AUCTION:
            out = self._auction(view, rng, budget)
        elif phase == Phase.EXCHANGE:
            out = self._exchange(view, rng, budget)
        elif phase == Phase.CONTRACT:
            out = self._contract(view, rng, budget)
        elif phase == Phase.DARK_CHOICE:
            out = self._dark(view, rng, budget)
        elif phase == Phase.REDEAL_OFFER:
            out = self._redeal_offer(view, rng, budget)
        elif phase == Phase.BUY:
            out = self._buy(view, rng, budget)
        elif phase == Phase.TALON_CHOICE:
            out = self._talon_choice(view, rng, budget)
        else:
            out = None
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
