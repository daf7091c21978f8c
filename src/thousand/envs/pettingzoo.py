"""Тысяча as a PettingZoo AEC environment: ``env(preset="classic", **options)``.

>>> from thousand.envs.pettingzoo import env
>>> e = env(preset="classic", reward="deal")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

* **Agents**: ``player_0`` .. ``player_{n-1}``, the table's seats (``players=4``: the dealer
  sits each deal out and is never selected in it; ``env(preset="two")`` or ``players=2``:
  two agents, RULES §4 "Two players").  The agent to move is the seat to move.
* **Actions**: ``Discrete(n)``, the dense indices of
  :class:`thousand.envs.actions.ActionSpace` (224 for ``classic``; 226 for ``two``, whose
  declarer chooses talon 1 or talon 2 unseen).
* **Observations**: ``{"observation": float32 vector, "action_mask": int8 vector}``: the
  vector is :class:`~thousand.envs.observation.ObservationEncoder` of the agent's
  ``view(seat)`` (nothing else: docs/research.md lists its fields), the mask 1 at the legal
  actions when the agent is to move (all 0 otherwise).
* **Rewards** (``reward=``): ``"deal"`` (default): each agent's score change when a deal is
  scored (barrel, penalties and resets included), times ``reward_scale``; ``"game"``: at the
  end of the game only, the winners share +1 and the others -1 (zero-sum; a shared win of
  ``k`` gives each winner ``1/k``); nothing on a truncation.
* **Episodes** end when the game does (termination: somebody won, or the rules'
  ``max_deals`` was reached), or are truncated after ``max_deals`` deals (the environment's
  cap, redeals included: :data:`DEFAULT_MAX_DEALS` unless given).  ``max_deals=None`` takes
  the cap away, and then only the rules end an episode: random play of a preset without a
  deal limit of its own (``house``) may then never win and never end.
* ``render_mode="ansi"``: :meth:`ThousandEnv.render` returns the table as a spectator sees it,
  as text.
* ``reset(seed=S)`` deals as ``Game(seed=S)`` does (each deal from the seed and its number);
  without a seed, the next seed of the last seeded reset's sequence.

Options (``**options``) are the rules' options on top of the preset (``players=4``,
``must_overtake=True``, ``marriage_values={"S": 40, ...}``), as in :meth:`Rules.preset_rules`.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np  # type: ignore[import-untyped, import-not-found, unused-ignore]
from gymnasium import spaces  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]

from thousand.engine import moves as mv
from thousand.engine.cards import SUITS, card_str, cards_str
from thousand.engine.deal import Deal, view_of
from thousand.engine.deal_data import PHASE_NAMES
from thousand.engine.errors import IllegalMove
from thousand.engine.game import Game
from thousand.engine.rules import Rules

from .actions import ActionSpace
from .observation import ObservationEncoder

__all__ = ["ThousandEnv", "env", "raw_env"]

#: what an action outside the space becomes: no move, so the engine refuses it
_NO_MOVE = mv.Move(-1)


#: The environment's deal cap when none is given: an episode of random (or poorly learnt)
#: play must end even under rules that set no deal limit of their own (``house``), where
#: nobody may ever reach 1000.  200 is ``classic``'s own limit.
DEFAULT_MAX_DEALS = 200


class ThousandEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "thousand_v0", "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "classic",
        render_mode: str | None = None,
        reward: str = "deal",
        reward_scale: float = 1.0,
        max_deals: int | None = DEFAULT_MAX_DEALS,
        universal_actions: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: None or 'ansi', not {render_mode!r}")
        if reward not in ("deal", "game"):
            raise ValueError(f"reward: 'deal' or 'game', not {reward!r}")
        if max_deals is not None and max_deals < 1:
            raise ValueError("max_deals: at least 1, or None")
        self.rules = Rules.preset_rules(preset, **options)
        self.render_mode = render_mode
        self.reward_kind = reward
        self.reward_scale = float(reward_scale)
        self.max_deals = max_deals
        self.actions = ActionSpace(self.rules, universal=universal_actions)
        self.encoder = ObservationEncoder(self.rules, self.actions)
        n = self.rules.players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds()
        self._obs_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=low, high=high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions.n,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._act_spaces = {a: spaces.Discrete(self.actions.n) for a in self.possible_agents}
        self._moves = tuple(self.actions.move(i) for i in range(self.actions.n))
        self._seeds = random.Random()
        self.game: Game | None = None
        self._last_deal: Deal | None = None

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_spaces[agent]

    # ------------------------------------------------------------------ episodes

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.randrange(2**63)
        self.game = Game(self.rules, seed=game_seed)
        self._last_deal = self.game.deal
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_move]
        self._rewarded = False

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        assert game is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        deal = game.deal
        assert deal is not None
        try:
            move = self._moves[action] if action >= 0 else _NO_MOVE
        except (IndexError, TypeError):
            move = _NO_MOVE
        before = len(game.summaries)
        try:
            game.apply(move)
        except IllegalMove as e:
            raise ValueError(f"{agent}: action {action!r} is not legal now ({e}); use the "
                             "observation's action_mask") from None
        rewards = self.rewards
        if self._rewarded:
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        if len(game.summaries) != before:
            self._rewarded = True
            if self.reward_kind == "deal":
                scale = self.reward_scale
                for s in range(before, len(game.summaries)):
                    for i, change in enumerate(game.summaries[s].changes):
                        rewards[self.possible_agents[i]] += change * scale
            if game.over:
                if self.reward_kind == "game":
                    self._game_rewards()
                for a in self.agents:
                    self.terminations[a] = True
            elif self.max_deals is not None and len(game.summaries) >= self.max_deals:
                for a in self.agents:
                    self.truncations[a] = True
        if game.deal is not None and not self.truncations[agent]:
            self._last_deal = game.deal
            self.agent_selection = self.possible_agents[game.deal.to_move]
        else:
            self._last_deal = deal  # the deal that ended the episode
        if self._rewarded:
            self._accumulate_rewards()

    def _game_rewards(self) -> None:
        game = self.game
        assert game is not None
        w = game.winner
        winners = w if isinstance(w, list) else ([w] if w is not None else [])
        n = len(self.possible_agents)
        for i, a in enumerate(self.possible_agents):
            if not winners or len(winners) == n:
                continue
            if i in winners:
                self.rewards[a] += 1.0 / len(winners)
            else:
                self.rewards[a] -= 1.0 / (n - len(winners))

    # ------------------------------------------------------------------ observing

    def view(self, agent: str) -> Any:
        """The agent's :class:`~thousand.engine.view.View` (of the deal in progress, or the
        last)."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() first")
        seat = self._seat[agent]
        if game.deal is not None and not self.truncations.get(agent):
            return game.view(seat)
        assert self._last_deal is not None
        return view_of(self._last_deal, seat, game.info())

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal actions of ``agent`` as 0/1 (all 0 when it is not to move)."""
        mask = bytearray(self.actions.n)
        game = self.game
        if (game is not None and game.deal is not None and not game.over
                and game.deal.to_move == self._seat[agent]
                and not (self.terminations.get(agent) or self.truncations.get(agent))):
            for i in self.actions.unsorted_indices(game.deal.legal_moves()):
                mask[i] = 1
        return np.frombuffer(mask, np.int8)

    def legal_actions(self, agent: str) -> list[int]:
        """The legal action indices of ``agent`` (empty when it is not to move)."""
        return [int(i) for i in np.flatnonzero(self.action_mask(agent))]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {
            "observation": self.encoder.encode(self.view(agent)),
            "action_mask": self.action_mask(agent),
        }

    # ------------------------------------------------------------------ rendering

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.game
        if game is None:
            return "(no game: call reset())"
        deal = self._last_deal
        assert deal is not None
        v = view_of(deal, None, game.info())
        lines = [
            f"deal {v.game.deal_number if v.game else '?'}  dealer player_{v.dealer}  "
            f"phase {PHASE_NAMES[v.phase]}  scores {list(game.scores)}"
            + ("  GAME OVER" if game.over else ""),
        ]
        if v.auction:
            lines.append("auction: " + " ".join(f"{s}:{mv.move_str(m)}" for s, m in v.auction))
        if v.declarer >= 0:
            lines.append(f"declarer player_{v.declarer}  contract {v.contract}"
                         + (f"  talon {' '.join(cards_str(v.talon))}" if v.talon else ""))
        if v.trump >= 0:
            lines.append(f"trump {SUITS[v.trump]} (player_{v.trump_declarer})")
        if v.tricks:
            t = v.tricks[-1]
            lines.append("last trick: " + " ".join(f"{s}:{card_str(c)}" for s, c in t.cards)
                         + f" -> player_{t.winner}")
        if v.trick:
            lines.append("trick: " + " ".join(f"{s}:{card_str(c)}" for s, c in v.trick))
        lines.append("cards in hand: " + " ".join(str(x) for x in v.hand_sizes)
                     + f"  taken {list(v.taken)}")
        if not game.over and game.deal is deal:
            lines.append(f"to move: player_{v.to_move}")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(preset: str = "classic", **kwargs: Any) -> ThousandEnv:
    """The environment without PettingZoo's wrappers."""
    return ThousandEnv(preset, **kwargs)


def env(preset: str = "classic", **kwargs: Any) -> ThousandEnv:
    """The environment (see the module docstring).  It checks the actions itself (an illegal
    one raises ValueError), so it is returned unwrapped: PettingZoo's order-enforcing and
    bounds wrappers would only slow each step."""
    return raw_env(preset, **kwargs)
