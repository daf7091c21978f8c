"""Тысяча as an OpenSpiel game: ``pyspiel.load_game("thousand")`` after importing this module.

The game (docs/research.md):

* **Parameters**: ``preset`` (``classic``; ``two`` for two players), ``options`` (a JSON
  object of options on top of the preset, e.g. ``{"players": 4}`` or ``{"players": 2}``),
  ``deals`` (how many deals are dealt before the game ends, redeals included: 1 by default,
  a game of Тысяча stops earlier when it is won or the rules' ``max_deals`` ends it) and
  ``scale`` (returns are score points times this).
* **Chance**: every deal is dealt card by card, one chance node per card (uniform over the
  cards not yet dealt, the last card of the deck placed without a node): the first 7 to
  the seat left of the dealer, the next 7 and 7 to the next seats, the last 3 to the talon,
  as :meth:`thousand.engine.game.Game.random_cards` lays the deck (two players, RULES §4
  "Two players" 1: 10 and 10, then talon 1, the 21st and 22nd cards, and talon 2, the last
  two).  With ``cut_nines`` the cut
  comes first: chance nodes of 24 equal outcomes (a card seen at the bottom) until a card
  that is not a nine or the third nine, whose card is then kept for the talon (talon 2).  Chance
  outcomes are card numbers 0..23.  Sequential card nodes suit every OpenSpiel algorithm
  that samples chance (MCTS, ISMCTS, outcome sampling) and keep ``chance_outcomes()`` short.
* **Actions**: the dense indices of :class:`thousand.envs.actions.ActionSpace`.
* **Information**: imperfect.  Every string and tensor of a player is built from
  ``view(seat)`` (:func:`thousand.engine.deal.view_of`) and nothing else: the observation is
  :class:`~thousand.envs.observation.ObservationEncoder` of the current view (and
  :func:`~thousand.envs.observation.view_key` as a string); the information state adds
  perfect recall: the string holds the player's final view of every earlier deal, the
  tensor the current deal's moves as the player saw them (a face-down give as "hidden").
* **Returns**: at the end, each player's score change over the game's deals (barrel,
  penalties and resets included) times ``scale``; 0 before.  ``GENERAL_SUM``, terminal
  rewards.
* ``resample_from_infostate(player, sampler)`` draws a state the player cannot tell from
  this one (:func:`thousand.envs.worlds.determinize`): what OpenSpiel's ISMCTS needs.

Python games are slower than C++ ones; OpenSpiel's C++ and Python algorithms both run on it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]
import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]

from thousand.bots.sampling import Knowledge
from thousand.engine import moves as mv
from thousand.engine.cards import JACK, NINE, Card, Mask
from thousand.engine.deal import Deal
from thousand.engine.game import Game
from thousand.engine.rules import MAX_SCORE, Rules
from thousand.engine.view import View

from .actions import ActionSpace
from .observation import ObservationEncoder, view_key
from .worlds import determinize, game_from_view, seat_knowledge

__all__ = ["GAME_NAME", "ThousandGame", "ThousandState", "game_for", "state_from_view"]

GAME_NAME = "thousand"

_PARAMS: dict[str, Any] = {"preset": "classic", "options": "", "deals": 1, "scale": 1.0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Thousand (Тысяча)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The ruleset of the game's parameters ``preset`` and ``options`` (JSON)."""
    options = params.get("options") or ""
    obj = json.loads(options) if options else {}
    if not isinstance(obj, dict):
        raise ValueError("options: a JSON object of options, e.g. {\"players\": 4}")
    return Rules.from_json({"preset": params.get("preset", "classic"), **obj})


def deal_moves_bound(rules: Rules, actions: ActionSpace) -> int:
    """The most moves one deal can take: a dark choice, every bid value once and a pass
    from each seat (or a redeal), the buy-outs (each raises the price by 120) with two
    answers each, the talon choice of two players, the exchange, the contract, the redeal
    offers, the tricks (24 cards at most: 8 of three, 10 of two)."""
    buys = 2 * (actions.top // 120 + 1)
    choice = 1 if rules.players == 2 else 0
    return 1 + actions.bids + 4 + buys + choice + 3 + 1 + 3 + 24


class ThousandGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_PARAMS, **(params or {})}
        self.rules = rules_from_params(p)
        self.deals = int(p["deals"])
        if self.deals < 1:
            raise ValueError("deals: at least 1")
        self.scale = float(p["scale"])
        self.actions = ActionSpace(self.rules)
        self.encoder = ObservationEncoder(self.rules, self.actions)
        self.deal_moves = deal_moves_bound(self.rules, self.actions)
        r = self.rules
        per_deal = 4 * self.actions.top + 5 * r.penalty
        reset = max(abs(r.barrel_reset_score), r.win_score, *(abs(v) for v in r.samosval),
                    r.barrel or 0)
        bound = min(self.deals * per_deal + reset, 4 * MAX_SCORE * self.deals) * abs(self.scale)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.actions.n,
            max_chance_outcomes=24,
            num_players=r.players,
            min_utility=-float(bound),
            max_utility=float(bound),
            utility_sum=None,
            max_game_length=self.deals * self.deal_moves,
        )
        super().__init__(_GAME_TYPE, info, p)

    def new_initial_state(self) -> ThousandState:
        return ThousandState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        return _Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
                         params)


class _Core:
    """Everything a state holds, copied cheaply (OpenSpiel clones a Python state by
    deep-copying its attributes)."""

    __slots__ = (
        "actions",
        "cut",
        "deals_done",
        "deals_max",
        "deck",
        "ended",
        "game",
        "keys",
        "knowledge",
        "past",
        "pre_deal",
        "reserved",
        "rules",
        "scale",
        "start",
        "terminal",
    )

    def __init__(self, game: Game, scale: float, deals_max: int, actions: ActionSpace) -> None:
        self.game = game
        self.rules = game.rules
        self.actions = actions
        self.scale = scale
        self.deals_max = deals_max
        self.start = game.scores
        self.deals_done = 0
        self.terminal = False
        #: the finished deals (a seat's final view of each is part of its information state)
        self.past: tuple[Deal, ...] = ()
        #: the strings of this state (by player; -1 - player: information states), until the
        #: next move
        self.keys: dict[int, str] = {}
        #: by player: what it knows of the hidden cards here (for resampling again and again
        #: from the same state, as ISMCTS does)
        self.knowledge: dict[int, Knowledge] = {}
        self.deck: list[Card] = []
        self.cut: list[Card] = []
        self.reserved = -1  # the cut's bottom card, kept for the talon
        self.pre_deal: Game | None = None
        #: the last finished deal (its final views are what a seat saw last)
        self.ended: Deal | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core.__new__(_Core)
        for name in _Core.__slots__:
            setattr(other, name, getattr(self, name))
        other.game = self.game.clone()
        other.deck = self.deck.copy()
        other.cut = self.cut.copy()
        other.keys = {}
        other.knowledge = {}
        return other

    # ----------------------------------------------------------------- dealing

    def dealing(self) -> bool:
        return not self.terminal and self.game.deal is None

    def cutting(self) -> bool:
        if not self.rules.cut_nines or self.reserved >= 0:
            return False
        if not self.cut:
            return True
        last = self.cut[-1]
        return last % 6 == NINE and len(self.cut) < 3

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.cutting():
            return [(c, 1 / 24) for c in range(24)]
        left = [c for c in range(24) if c not in self.deck and c != self.reserved]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def apply_chance(self, card: int) -> None:
        self.keys = {}
        self.knowledge = {}
        if self.cutting():
            self.cut.append(card)
            if not self.cutting():
                last = self.cut[-1]
                self.reserved = last if last % 6 != JACK else 24  # 24: nothing kept
            return
        self.deck.append(card)
        total = 24 - (1 if 0 <= self.reserved < 24 else 0)
        if len(self.deck) == total - 1:
            # the last card of the deck goes without a chance node
            self.deck.append(next(c for c in range(24)
                                  if c not in self.deck and c != self.reserved))
        if len(self.deck) == total:
            self._deal()

    def _deal(self) -> None:
        game = self.game
        deck = self.deck
        if 0 <= self.reserved < 24:
            deck.append(self.reserved)  # the bottom of the deck: a talon card
        hands = [self.dealt_to(seat) for seat in range(game.n)]
        i = game.hand_size * (3 if game.n == 4 else game.n)  # the hands dealt, then talon
        talon = _mask(deck[i:])
        # two players: talon 1 the 21st and 22nd cards, talon 2 the last two
        talons = (_mask(deck[20:22]), _mask(deck[22:24])) if game.n == 2 else ()
        self.pre_deal = game.clone()
        game.start_deal(hands, talon, tuple(self.cut), talons)
        self.deck = []
        self.cut = []
        self.reserved = -1

    # ----------------------------------------------------------------- moves

    def apply_move(self, move: mv.Move) -> None:
        game = self.game
        deal = game.deal
        assert deal is not None
        game.apply(move)
        self.keys = {}
        self.knowledge = {}
        if game.deal is None:
            self.ended = deal
            self.past = (*self.past, deal)
            self.deals_done += 1
            if game.over or self.deals_done >= self.deals_max:
                self.terminal = True

    def returns(self) -> list[float]:
        if not self.terminal:
            return [0.0] * self.game.n
        return [(a - b) * self.scale for a, b in zip(self.game.scores, self.start, strict=True)]

    def view(self, seat: int) -> View | None:
        """The seat's view of the deal in progress (or of the one that just ended)."""
        game = self.game
        if game.deal is not None:
            return game.view(seat)
        if self.ended is not None:
            return self.ended.view(seat)
        return None

    def dealt_to(self, seat: int) -> Mask:
        """While dealing: the cards already dealt to ``seat`` (all it may know); the hand
        dealt, once the deck is laid."""
        n = self.game.n
        size = self.game.hand_size
        i = 0
        for k in range(1, n + 1):
            s = (self.game.dealer + k) % n
            if n == 4 and s == self.game.dealer:
                continue
            if s == seat:
                return _mask(self.deck[i:i + size])
            i += size
        return 0


def _mask(cards: list[Card]) -> Mask:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class ThousandState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`ThousandGame`."""

    def __init__(self, game: ThousandGame, core: _Core | None = None) -> None:
        super().__init__(game)
        if core is None:
            g = Game(game.rules, first_dealer=0, seed=0, auto_deal=False)
            core = _Core(g, game.scale, game.deals, game.actions)
        self._core = core

    # ------------------------------------------------------------- the API

    def current_player(self) -> int:
        c = self._core
        if c.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if c.game.deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        return c.game.deal.to_move

    def _legal_actions(self, player: int) -> list[int]:
        deal = self._core.game.deal
        if deal is None or player != deal.to_move:
            return []
        return self._core.actions.indices(deal.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        c = self._core
        if c.game.deal is None:
            c.apply_chance(int(action))
        else:
            c.apply_move(c.actions.move(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            from thousand.engine.cards import card_str

            return f"deal {card_str(int(action))}"
        return self._core.actions.describe(int(action))

    def is_terminal(self) -> bool:
        return self._core.terminal

    def returns(self) -> list[float]:
        return self._core.returns()

    def __str__(self) -> str:
        c = self._core
        deal = c.game.deal
        if deal is None:
            return f"dealing: {len(c.deck)} cards dealt; scores {list(c.game.scores)}"
        from thousand.engine.cards import cards_str

        hands = " / ".join(" ".join(cards_str(h)) for h in deal.hands)
        hist = " ".join(mv.move_str(m) for m in deal.history)
        talons = deal.ctx.talons or (deal.talon,)  # two players: both, talon 1 first
        talon = " / ".join(" ".join(cards_str(t)) for t in talons)
        return f"hands {hands} | talon {talon} | {hist}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> Any:
        """A state ``player_id`` cannot tell from this one: the hidden cards of the deal in
        progress drawn again (:func:`thousand.envs.worlds.determinize`).  Earlier deals and
        the score sheet stay as they are.  The sampler's random numbers seed the draw."""
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else None
        return resample(self, player_id, random.Random(seed))

    # ------------------------------------------------------------- for the observer

    def info_string(self, player: int) -> str:
        c = self._core
        cached = c.keys.get(-1 - player)
        if cached is None:
            past = "||".join(view_key(d.view(player)) for d in c.past)
            cached = c.keys[-1 - player] = f"{past}##{self.observation_key(player)}"
        return cached

    def observation_key(self, player: int) -> str:
        c = self._core
        cached = c.keys.get(player)
        if cached is None:
            cached = c.keys[player] = self._observation_key(player)
        return cached

    def _observation_key(self, player: int) -> str:
        c = self._core
        if c.dealing():
            seen = ",".join(str(x) for x in c.cut if x % 6 in (NINE, JACK) or
                            player == c.game.dealer)
            from thousand.engine.cards import cards_str

            return (f"p{player} dealing {len(c.deck)}: {' '.join(cards_str(c.dealt_to(player)))}"
                    f" cut {seen} s:{list(c.game.scores)}")
        v = c.view(player)
        return view_key(v) if v is not None else f"p{player}"


def resample(state: ThousandState, player: int, rng: random.Random) -> ThousandState:
    """See :meth:`ThousandState.resample_from_infostate`."""
    core = state._core
    game = core.game
    if core.terminal or game.deal is None or core.pre_deal is None:
        return state.clone()  # type: ignore[no-any-return]
    view = game.view(player)
    pre = core.pre_deal
    know = core.knowledge.get(player)
    if know is None:
        know = core.knowledge[player] = seat_knowledge(view)
    got = determinize(view, rng, make_game=pre.clone, know=know)
    if got is None:
        return state.clone()  # type: ignore[no-any-return]
    _, new_game = got
    other = core.__deepcopy__({})
    other.game = new_game
    return ThousandState(state.get_game(), other)


class _Observer:
    """OpenSpiel's observer of a seat: built from its view only."""

    def __init__(self, game: ThousandGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or (
            not iig_obs_type.public_info
        ):
            raise ValueError("a seat observes its own view: private_info=SINGLE_PLAYER, "
                             "public_info=True")
        self.game = game
        self.recall = bool(iig_obs_type.perfect_recall)
        enc = game.encoder
        size = enc.size
        pieces: list[tuple[str, int, tuple[int, ...]]] = [("observation", size, (size,))]
        if self.recall:
            # the deal's moves as the player saw them: one row a move, one column an action
            # (and a last column for a face-down give or discard)
            rows, cols = game.deal_moves, game.actions.n + 1
            pieces.append(("history", rows * cols, (rows, cols)))
        total = sum(n for _, n, _ in pieces)
        self.tensor = np.zeros(total, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, n, shape in pieces:
            self.dict[name] = self.tensor[at:at + n].reshape(shape)
            at += n

    def set_from(self, state: ThousandState, player: int) -> None:
        self.tensor.fill(0.0)
        core = state._core
        obs = self.dict["observation"]
        if core.dealing():
            for c in range(24):
                if core.dealt_to(player) >> c & 1:
                    obs[c] = 1.0
            return
        view = core.view(player)
        if view is None:
            return
        self.game.encoder.encode(view, obs)
        if self.recall:
            hist = self.dict["history"]
            actions = self.game.actions
            hidden = actions.n
            for i, text in enumerate(view.history):
                if text.endswith("??"):
                    hist[i, hidden] = 1.0
                else:
                    hist[i, actions.index(mv.parse_move(text))] = 1.0

    def string_from(self, state: ThousandState, player: int) -> str:
        if self.recall:
            return state.info_string(player)
        return state.observation_key(player)


pyspiel.register_game(_GAME_TYPE, ThousandGame)


_GAMES: dict[str, ThousandGame] = {}


def game_for(rules: Rules, scale: float = 1.0, deals: int = 1) -> ThousandGame:
    """The OpenSpiel game of a ruleset (loaded once per ruleset)."""
    options = json.dumps(rules.to_json(), sort_keys=True)
    key = f"{options}/{scale}/{deals}"
    game = _GAMES.get(key)
    if game is None:
        game = pyspiel.load_game(GAME_NAME, {"preset": rules.preset, "options": options,
                                             "scale": float(scale), "deals": int(deals)})
        _GAMES[key] = game
    return game


def state_from_view(game: ThousandGame, view: View, rng: random.Random) -> ThousandState | None:
    """A state of ``game`` (one deal) that ``view``'s seat cannot tell from the table's:
    what an OpenSpiel bot searches from when it sits at a ``thousand`` table.  The score
    sheet comes from the view (:func:`thousand.envs.worlds.game_from_view`)."""
    got = determinize(view, rng)
    if got is None:
        return None
    _, g = got
    pre = game_from_view(view)
    core = _Core(pre.clone(), game.scale, 1, game.actions)
    core.pre_deal = pre
    core.game = g
    return ThousandState(game, core)
