"""OpenSpiel's search bots in a ``thousand`` seat: ``thousand arena --seat 1=openspiel:ismcts``.

:class:`OpenSpielBot` is a :class:`thousand.bots.base.Bot`: it sees only its seat's view.
At each decision it builds an OpenSpiel state of the deal that the view cannot tell from the
table's (:func:`thousand.envs.openspiel.state_from_view`: hidden cards drawn by the search
bots' sampler, the deal replayed through the engine) and asks an OpenSpiel bot for a move,
searching until the deal ends (the game is :class:`~thousand.envs.openspiel.ThousandGame`
with one deal; returns are the deal's score changes in hundreds of points):

* ``ismcts``: OpenSpiel's information-set MCTS (``open_spiel.python.algorithms.ismcts``):
  every simulation starts from a new draw of the hidden cards
  (``resample_from_infostate``), UCT over information sets, random rollouts;
* ``mcts``: OpenSpiel's MCTS (``open_spiel.python.algorithms.mcts``) on one drawn deal
  (a determinization), random rollouts.

Both search for ``seconds`` seconds a decision (a forced move takes none); the rest of their
settings are OpenSpiel's defaults (UCT constant 2, one random rollout per leaf, the most
visited move).  The seat's spec is ``openspiel:ALGORITHM[:SECONDS]``; the arena registers
it as the bot level ``openspiel-ALGORITHM[-MILLISECONDSms]``
(:func:`thousand.evaluation.arena.openspiel_level`).
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]

from thousand.engine.moves import LOOK, Move
from thousand.engine.view import View

__all__ = ["ALGORITHMS", "OpenSpielBot", "parse_spec"]

ALGORITHMS = ("ismcts", "mcts")
PREFIX = "openspiel:"
DEFAULT_SECONDS = 0.3
#: returns in hundreds of points, for the UCT constant's scale
SCALE = 0.01


def parse_spec(spec: str) -> tuple[str, float]:
    """``openspiel:ismcts:0.3`` -> ``("ismcts", 0.3)`` (ValueError naming what is wrong)."""
    text = spec[len(PREFIX):] if spec.startswith(PREFIX) else spec
    algo, _, secs = text.partition(":")
    algo = algo.strip().lower()
    if algo not in ALGORITHMS:
        raise ValueError(f"{spec!r}: an OpenSpiel seat is openspiel:ALGORITHM[:SECONDS] with "
                         f"ALGORITHM one of {', '.join(ALGORITHMS)}")
    seconds = DEFAULT_SECONDS
    if secs.strip():
        try:
            seconds = float(secs)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 600:
            raise ValueError(f"{spec!r}: the seconds a decision must be a number from 0 to 600")
    return algo, seconds


class OpenSpielBot:
    """An OpenSpiel search bot in a seat (see the module docstring)."""

    def __init__(self, algorithm: str = "ismcts", seed: int | None = None,
                 seconds: float = DEFAULT_SECONDS, uct_c: float = 2.0) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm: one of {', '.join(ALGORITHMS)}")
        self.algorithm = algorithm
        self.seconds = seconds
        self.uct_c = uct_c
        self.name = f"openspiel:{algorithm}"
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(self.rng.randrange(2**31))
        #: simulations run at the last decision (for the curious and the tests)
        self.simulations = 0

    def choose(self, view: View) -> Move:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if LOOK in legal:
            # like the other bots: look at the cards (a dark bid is decided blind, which a
            # search over drawn hands cannot do fairly)
            return LOOK
        from .openspiel import game_for, state_from_view

        game = game_for(view.rules, scale=SCALE)
        state = state_from_view(game, view, self.rng)
        if state is None:
            return legal[self.rng.randrange(len(legal))]
        if self.algorithm == "ismcts":
            action = self._ismcts(game, state)
        else:
            action = self._mcts(game, state)
        move = game.actions.move(int(action))
        return move if move in legal else legal[self.rng.randrange(len(legal))]

    # ---------------------------------------------------------------- the searches

    def _ismcts(self, game: Any, state: Any) -> int:
        from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

        from .openspiel import resample

        evaluator = mcts.RandomRolloutEvaluator(1, self.np_rng)
        bot = _TimedISMCTS(game, evaluator, self.uct_c, self.seconds, self.np_rng)
        # the draws from this bot's own random numbers (OpenSpiel's default sampler is seeded
        # elsewhere): with a fixed number of simulations a seed repeats the decision
        rng = self.rng
        bot.set_resampler(lambda st, player: resample(st, player, rng))
        policy = bot.run_search(state)
        self.simulations = bot.simulations
        best = max(p for _, p in policy)
        tops = [a for a, p in policy if p == best]
        return int(tops[self.rng.randrange(len(tops))])

    def _mcts(self, game: Any, state: Any) -> int:
        from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

        evaluator = mcts.RandomRolloutEvaluator(1, self.np_rng)
        bot = _TimedMCTS(game, self.uct_c, self.seconds, evaluator, self.np_rng)
        root = bot.mcts_search(state)
        self.simulations = bot.simulations
        return int(root.best_child().action)


def _ismcts_class() -> Any:
    from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        """OpenSpiel's ISMCTS with a time budget instead of a number of simulations
        (``run_search`` as OpenSpiel's, the loop bounded by the clock)."""

        def __init__(self, game: Any, evaluator: Any, uct_c: float, seconds: float,
                     random_state: Any) -> None:
            super().__init__(game, evaluator, uct_c, max_simulations=1,
                             random_state=random_state)
            self.seconds = seconds
            self.simulations = 0

        def run_search(self, state: Any) -> Any:
            self.reset()
            legal_actions = state.legal_actions()
            if len(legal_actions) == 1:
                return [(legal_actions[0], 1.0)]
            self._root_node = self.create_new_node(state)
            root_key = self.get_state_key(state)
            deadline = time.perf_counter() + self.seconds
            n = 0
            while n < 2 or time.perf_counter() < deadline:
                sampled = self.sample_root_state(state)
                assert root_key == self.get_state_key(sampled)
                self.run_simulation(sampled)
                n += 1
            self.simulations = n
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTS


def _mcts_class() -> Any:
    import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, import-not-found, unused-ignore]

    class TimedMCTS(mcts.MCTSBot):  # type: ignore[misc]
        """OpenSpiel's MCTS with a time budget: ``mcts_search`` stops at the clock (the
        simulation count is checked between simulations)."""

        def __init__(self, game: Any, uct_c: float, seconds: float, evaluator: Any,
                     random_state: Any) -> None:
            super().__init__(game, uct_c, max_simulations=1, evaluator=evaluator,
                             solve=False, random_state=random_state)
            self.seconds = seconds
            self.simulations = 0

        def mcts_search(self, state: Any) -> Any:
            # OpenSpiel's mcts_search (without the solver), its loop bounded by the clock
            deadline = time.perf_counter() + self.seconds
            root = mcts.SearchNode(None, state.current_player(), 1)
            n = 0
            while n < 2 or time.perf_counter() < deadline:
                visit_path, working_state = self._apply_tree_policy(root, state)
                if working_state.is_terminal():
                    returns = working_state.returns()
                    visit_path[-1].outcome = returns
                else:
                    returns = self.evaluator.evaluate(working_state)
                while visit_path:
                    # for chance nodes, the decision-maker above them
                    i = -1
                    while visit_path[i].player == pyspiel.PlayerId.CHANCE:
                        i -= 1
                    target = returns[visit_path[i].player]
                    node = visit_path.pop()
                    node.total_reward += target
                    node.explore_count += 1
                n += 1
            self.simulations = n
            return root

    return TimedMCTS


class _Lazy:
    """The timed bot classes, made when first used (OpenSpiel is imported then)."""

    def __init__(self, make: Any) -> None:
        self.make = make
        self.cls: Any = None

    def __call__(self, *args: Any) -> Any:
        if self.cls is None:
            self.cls = self.make()
        return self.cls(*args)


_TimedISMCTS = _Lazy(_ismcts_class)
_TimedMCTS = _Lazy(_mcts_class)


def level_name(spec: str) -> str:
    """The bot level of a seat spec: ``openspiel:ismcts:0.3`` -> ``openspiel-ismcts-300ms``."""
    algo, seconds = parse_spec(spec)
    return f"openspiel-{algo}-{round(seconds * 1000)}ms"


def register_level(spec: str) -> str:
    """Register the bot level of ``spec`` (``openspiel:ALGORITHM[:SECONDS]``) and return its
    name: from then on a level like any other, in this process and in the arena's workers
    (forked after it).  Needs OpenSpiel (``pip install 'thousand[research]'``)."""
    import open_spiel  # type: ignore[import-untyped, import-not-found, unused-ignore]  # noqa: F401

    from thousand.bots import register_bot

    algo, seconds = parse_spec(spec)
    level = level_name(spec)
    what = {"ismcts": "information-set MCTS", "mcts": "MCTS on one drawn deal"}[algo]
    register_bot(
        level,
        lambda seed: OpenSpielBot(algo, seed, seconds),
        (f"OpenSpiel's {what}, {seconds:g} s a decision",
         f"{what} из OpenSpiel, {seconds:g} с на ход"),
    )
    return level
